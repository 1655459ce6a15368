"""The entries that left a feed, remembered apart from its record (pure).

A feed record (``feeds/<slug>.json``) holds the snapshots of the entries the feed carries
now: every run rewrites it, so it stays as large as the feed, whatever the archive's age.
The snapshot of an entry that left the feed goes, once, to the *day file* of the UTC day
the run found it gone (``departed/<YYYY>/<MM>/<DD>/<slug>.json``, a file no later day
rewrites), and the record keeps of it only a short digest of its id and of its link, under
that day (``departed``: ``{"2026/12/02": "<8 hex digits a digest, sorted, concatenated>"}``).

An entry of a poll that the record does not carry, and whose id or link has a digest
there, may be one that came back: the shell reads that day's file
(:func:`days_naming`), and :func:`~quietedit.feeds.edits.compare_feed` matches it with its
snapshot as it did when every snapshot sat in the record, so its edits are still seen. A
digest that matches by chance only costs that read. The claims of the feeds about an
article (:class:`~quietedit.decide.memory.SourceIndex`) read the day files the same way.

After ``ENTRY_MEMORY`` a day leaves the record: its entries are forgotten, as they were
before, and the day file stays in git's history of the archive like any other file.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Final

from quietedit.feeds.edits import EntrySnapshot
from quietedit.feeds.entries import MAX_ENTRIES, Feed
from quietedit.feeds.sitemaps import Sitemap
from quietedit.model import JSON

ENTRY_MEMORY: Final = timedelta(days=30)
"""How long the archive keeps the snapshot of an entry that left the feed."""

MAX_SNAPSHOTS: Final = 2 * MAX_ENTRIES
"""Entry snapshots a feed record or one day file keeps at most, the newest: twice what one
poll reads. A backstop against feeds that change ids and links on every render, which no
matching can recognise as the same entries (a rotating id alone is matched by link, see
changes.py)."""

DIGEST_DIGITS: Final = 8
"""Hex digits of a digest: 32 bits. Among a month of a busy feed's departures (a few
thousand digests) a new entry matches one by chance about once in a million polls."""

MAX_DIGESTS: Final = 2 * MAX_SNAPSHOTS
"""Digests a record keeps at most (two per entry: its id and its link); beyond them the
oldest days are forgotten first, whole."""

DAY_PATTERN: Final = re.compile(r"[0-9]{4}/[0-9]{2}/[0-9]{2}")
_DIGESTS: Final = re.compile(rf"(?:[0-9a-f]{{{DIGEST_DIGITS}}})*")

Departed = Mapping[str, frozenset[str]]
"""Day (``YYYY/MM/DD``) -> the digests of the ids and links of the entries that left then."""


def key_digest(key: str) -> str:
    """The digest of an entry id or link: the first hex digits of its SHA-256."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:DIGEST_DIGITS]


def day_of(moment: datetime) -> str:
    """The day file a departure found at ``moment`` goes to: its UTC day, ``2026/12/02``."""
    return moment.astimezone(UTC).strftime("%Y/%m/%d")


def snapshot_keys(snapshot: EntrySnapshot) -> tuple[str, ...]:
    """What an entry is found by: its id, and its link when it has one."""
    return (snapshot.id,) if snapshot.link is None else (snapshot.id, snapshot.link)


def kept(snapshots: Mapping[str, EntrySnapshot], *, now: datetime) -> dict[str, EntrySnapshot]:
    """The snapshots still worth keeping at ``now``: seen within ``ENTRY_MEMORY``, and of
    more, the ``MAX_SNAPSHOTS`` newest (by id, so the choice is the same on every run)."""
    recent = [
        (snapshot.observed_at, key, snapshot)
        for key, snapshot in snapshots.items()
        if now - snapshot.observed_at <= ENTRY_MEMORY
    ]
    newest = sorted(recent, key=lambda item: (item[0], item[1]), reverse=True)[:MAX_SNAPSHOTS]
    return {key: snapshot for _, key, snapshot in sorted(newest, key=lambda item: item[1])}


def remember(index: Departed, leaving: Iterable[EntrySnapshot], *, now: datetime) -> Departed:
    """``index`` with the digests of ``leaving`` added under the day of ``now``, the days
    older than ``ENTRY_MEMORY`` left out, and beyond ``MAX_DIGESTS`` the oldest days."""
    days = {day: set(digests) for day, digests in index.items()}
    today = day_of(now)
    for snapshot in leaving:
        days.setdefault(today, set()).update(key_digest(key) for key in snapshot_keys(snapshot))
    oldest = day_of(now - ENTRY_MEMORY)
    found: dict[str, frozenset[str]] = {}
    total = 0
    for day in sorted(days, reverse=True):
        total += len(days[day])
        if day < oldest or (total > MAX_DIGESTS and found):
            break
        found[day] = frozenset(days[day])
    return found


def days_naming(index: Departed, keys: Iterable[str]) -> list[str]:
    """The days of ``index`` whose digests hold that of one of ``keys`` (ids or links),
    sorted: the day files to read for them."""
    digests = {key_digest(key) for key in keys}
    return sorted(day for day, known in index.items() if digests & known)


def unknown_keys(entries: Mapping[str, EntrySnapshot], source: Feed | Sitemap) -> list[str]:
    """The ids and links of the entries of ``source`` that ``entries`` (the snapshots of
    the entries the feed carried at its last poll) lack: those that may have come back."""
    keys: list[str] = []
    if isinstance(source, Sitemap):
        return [entry.url for entry in source.entries if entry.url not in entries]
    for entry in source.entries:
        if entry.id not in entries:
            keys.append(entry.id)
            if entry.link:
                keys.append(entry.link)
    return keys


def newest(*groups: Mapping[str, EntrySnapshot]) -> dict[str, EntrySnapshot]:
    """The snapshots of ``groups`` by id, the newest of each (a later group on a tie)."""
    found: dict[str, EntrySnapshot] = {}
    for group in groups:
        for key, snapshot in group.items():
            known = found.get(key)
            if known is None or snapshot.observed_at >= known.observed_at:
                found[key] = snapshot
    return found


def index_to_record(index: Departed) -> dict[str, JSON]:
    """The record's ``departed``: per day, its digests sorted and concatenated."""
    return {day: "".join(sorted(index[day])) for day in sorted(index)}


def index_from_record(value: JSON | None) -> dict[str, frozenset[str]]:
    """Read :func:`index_to_record`'s output back; a malformed day is left out (its
    entries then look new once if they come back: nothing else is lost)."""
    found: dict[str, frozenset[str]] = {}
    if not isinstance(value, dict):
        return found
    for day, digests in value.items():
        if DAY_PATTERN.fullmatch(day) and isinstance(digests, str) and _DIGESTS.fullmatch(digests):
            found[day] = frozenset(
                digests[i : i + DIGEST_DIGITS] for i in range(0, len(digests), DIGEST_DIGITS)
            )
    return found


def day_to_record(snapshots: Mapping[str, EntrySnapshot]) -> dict[str, JSON]:
    """A day file's content (without the envelope the archive adds): the snapshots by id."""
    return {"entries": {key: snapshots[key].to_record() for key in sorted(snapshots)}}


def day_from_record(record: Mapping[str, JSON]) -> dict[str, EntrySnapshot]:
    """The snapshots of a day file; a damaged one is left out (that entry looks new once)."""
    found: dict[str, EntrySnapshot] = {}
    entries = record.get("entries")
    for key, value in (entries if isinstance(entries, dict) else {}).items():
        if isinstance(value, dict):
            try:
                found[key] = EntrySnapshot.from_record(value)
            except ValueError:
                continue
    return found
