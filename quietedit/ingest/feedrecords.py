"""The feeds' states as the archive keeps them: ``feeds/<slug>.json``, read once a run, and
the day files of the entries that left each feed (``departed/<YYYY>/<MM>/<DD>/<slug>.json``,
:mod:`quietedit.decide.departed`), read only for the entries their digests name."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from datetime import datetime

from quietedit.archive.store import Archive
from quietedit.decide.departed import (
    MAX_SNAPSHOTS,
    day_from_record,
    day_of,
    day_to_record,
    index_from_record,
    kept,
    newest,
)
from quietedit.decide.memory import FeedState, feed_from_record, feed_to_record, leaving_kept
from quietedit.errors import ArchiveError
from quietedit.feeds.edits import EntrySnapshot
from quietedit.model import JSON

logger = logging.getLogger(__name__)


def load_feeds(archive: Archive, *, unreadable: str) -> dict[str, FeedState]:
    """Each feed's state by slug; a record that cannot be read is left out, with a warning
    that ends with ``unreadable`` (what the caller does without it)."""
    states = {}
    for slug in archive.feed_slugs():
        try:
            record = archive.read_feed(slug)
        except ArchiveError as exc:
            logger.warning("%s; %s", exc, unreadable)
            continue
        if record is not None:
            states[slug] = feed_from_record(slug, record)
    return states


def read_departed(archive: Archive, slug: str, days: Iterable[str]) -> dict[str, EntrySnapshot]:
    """The snapshots of feed ``slug``'s day files of ``days``, the newest of each entry; a
    file that cannot be read is left out with a warning (its entries look new once)."""
    found: dict[str, EntrySnapshot] = {}
    for day in sorted(set(days)):
        try:
            record = archive.read_departed(slug, day)
        except ArchiveError as exc:
            logger.warning("%s; the entries that left feed %s that day look new", exc, slug)
            continue
        if record is not None:
            found = newest(found, day_from_record(record))
    return found


def load_departed(
    archive: Archive, wanted: Mapping[str, Iterable[str]]
) -> dict[str, dict[str, EntrySnapshot]]:
    """Per feed, the snapshots of the day files ``wanted`` names (feed -> days), the day
    folders a sparse checkout leaves out fetched at once."""
    days = {slug: sorted(set(named)) for slug, named in wanted.items()}
    archive.prefetch_departed(day for named in days.values() for day in named)
    return {slug: read_departed(archive, slug, named) for slug, named in sorted(days.items())}


def save_departed(
    archive: Archive, slug: str, day: str, snapshots: Mapping[str, EntrySnapshot], *, now: datetime
) -> None:
    """Add ``snapshots`` (entries that left feed ``slug``) to its day file of ``day``,
    the newest of each entry kept; the file is not written when nothing changes (the run's
    last save after its registration's). A damaged file is written anew (git keeps what it
    held); ``ArchiveError`` when the file cannot be fetched or written: the feed record
    that still holds the snapshots is then not written either."""
    try:
        record = archive.read_departed(slug, day)
    except ArchiveError as exc:
        if not archive.layout.departed_file(slug, day).is_file():
            raise  # not fetched: writing it would replace what it holds
        logger.warning("%s; written anew", exc)
        record = None
    known = day_from_record(record) if record is not None else {}
    merged = kept(newest(known, snapshots), now=now)
    if record is not None and merged == known:
        return
    if len(merged) == MAX_SNAPSHOTS and len(known) + len(snapshots) > MAX_SNAPSHOTS:
        logger.warning("feed %s: more than %d entries left it on %s", slug, MAX_SNAPSHOTS, day)
    archive.write_departed(slug, day, day_to_record(merged))


def save_feed(archive: Archive, state: FeedState, *, now: datetime, final: bool = False) -> None:
    """Write feed ``state``'s record: first the entries that left the feed at this run's
    poll to the day file of ``now``, then the record that forgets them (a run killed
    between the two finds them in both, which is harmless)."""
    leaving = leaving_kept(state, now=now)
    if leaving:
        save_departed(archive, state.slug, day_of(now), leaving, now=now)
    archive.write_feed(state.slug, feed_to_record(state, now=now), final=final)


def with_departed(archive: Archive, slug: str, record: Mapping[str, JSON]) -> dict[str, JSON]:
    """Feed ``slug``'s ``record`` with, among its ``entries``, the snapshots of the day
    files its ``departed`` names (the entries that left the feed within ``ENTRY_MEMORY``,
    which a record of an earlier version held itself): for readers of every entry, as the
    export. An entry the feed carries again keeps its snapshot in the record."""
    days = index_from_record(record.get("departed"))
    if not days:
        return dict(record)
    found = read_departed(archive, slug, days)
    entries: dict[str, JSON] = {key: snapshot.to_record() for key, snapshot in found.items()}
    listed = record.get("entries")
    entries.update(listed if isinstance(listed, dict) else {})
    return {**record, "entries": entries}
