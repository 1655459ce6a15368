"""Edits visible in a feed itself: headline and teaser changes between two polls (pure).

A feed entry's title and summary are revisions too: many headline and teaser edits show
in the feed long before (or instead of) the article page. The archive keeps one
:class:`EntrySnapshot` per observed state of an entry; :func:`entry_changes` compares a
new poll with the newest snapshot of each known entry.

Text is compared *folded* (:func:`~quietedit.article.fingerprint.fold_text`): typographic
quotes, dashes, spacing and invisible characters are not edits, exactly as for article
revisions. A change of ``link`` or ``published`` is reported as ``metadata``; a new
``updated`` stamp is not a change of the entry (feeds stamp it on every render) but a
claim the re-check policy weighs (see :mod:`quietedit.decide.candidates`).

Some feeds mint a new entry id on every render (a GUID per request, a timestamp in the
id). An entry whose id is unknown is therefore matched by its link, when no other entry of
the poll has that link and the stored snapshot with that link is the same story by its
date: both give the same ``published`` moment (such CMSs keep the publication date while
the id rotates), or neither gives one and the snapshot's id has left the feed. Of several
stored snapshots that qualify (a story the feed once listed twice) the newest is taken.
The matched entry is the same entry, its edits are still seen, and :func:`compare_feed`
keeps one snapshot for it, not one per poll. A new stable id with another publication
date on the same link (a live page's next alert) is a new entry, never an edit of the old
one; two undated entries on one link, the first gone from the feed, cannot be told from a
rotated id and are matched.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Final, Literal

from quietedit.article.fingerprint import fold_text
from quietedit.feeds.dates import NormalizedDate, normalize_date
from quietedit.feeds.entries import Feed, FeedEntry
from quietedit.model import JSON, format_timestamp, parse_timestamp

SNAPSHOT_SCHEMA: Final = 1
"""Schema of :meth:`EntrySnapshot.to_record`; a change comes with a reader for version 1."""

ChangeKind = Literal["new", "edited", "metadata"]
TEXT_FIELDS: Final = ("title", "summary")
METADATA_FIELDS: Final = ("link", "published")


@dataclass(frozen=True, slots=True)
class EntrySnapshot:
    """One observed state of a feed entry, as the archive stores it (dates as raw text)."""

    id: str
    observed_at: datetime
    title: str
    summary: str
    link: str | None = None
    published: str | None = None
    updated: str | None = None

    def __post_init__(self) -> None:
        if self.observed_at.tzinfo is None:
            raise ValueError("observed_at must be timezone-aware (UTC)")

    @classmethod
    def of(cls, entry: FeedEntry, *, observed_at: datetime) -> EntrySnapshot:
        """The state of ``entry`` as seen in a poll at ``observed_at``."""
        return cls(
            id=entry.id,
            observed_at=observed_at,
            title=entry.title,
            summary=entry.summary,
            link=entry.link,
            published=entry.published.raw if entry.published else None,
            updated=entry.updated.raw if entry.updated else None,
        )

    def to_record(self) -> dict[str, JSON]:
        """The JSON object to store: every key present, ``observed_at`` in RFC 3339 UTC."""
        return {
            "schema": SNAPSHOT_SCHEMA,
            "id": self.id,
            "observed_at": format_timestamp(self.observed_at),
            "title": self.title,
            "summary": self.summary,
            "link": self.link,
            "published": self.published,
            "updated": self.updated,
        }

    @classmethod
    def from_record(cls, record: Mapping[str, JSON]) -> EntrySnapshot:
        """Read :meth:`to_record`'s output back; ``ValueError`` names the first bad key."""
        if record.get("schema") != SNAPSHOT_SCHEMA:
            raise ValueError(
                f"schema: {record.get('schema')!r} is not entry snapshot schema {SNAPSHOT_SCHEMA}"
            )
        values: dict[str, str | None] = {}
        for key in ("id", "observed_at", "title", "summary", "link", "published", "updated"):
            value = record.get(key)
            required = key in {"id", "observed_at", "title", "summary"}
            if not isinstance(value, str) and (required or value is not None):
                raise ValueError(
                    f"{key}: {value!r} is not {'text' if required else 'text or null'}"
                )
            values[key] = value
        try:
            observed_at = parse_timestamp(str(values.pop("observed_at")))
        except ValueError as exc:
            raise ValueError(f"observed_at: {exc}") from exc
        return cls(observed_at=observed_at, **values)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class EntryChange:
    """A difference between a poll and the stored state of one entry.

    ``new``: the id was not known (``previous`` is None). ``edited``: the folded title or
    summary differs (``fields`` names which, plus any metadata that changed with them).
    ``metadata``: only ``link`` or ``published`` changed.
    """

    kind: ChangeKind
    entry: FeedEntry
    previous: EntrySnapshot | None = None
    fields: tuple[str, ...] = ()

    def snapshot(self, *, observed_at: datetime) -> EntrySnapshot:
        """The new state to store for this change."""
        return EntrySnapshot.of(self.entry, observed_at=observed_at)


def entry_changes(previous: Mapping[str, EntrySnapshot], current: Feed) -> tuple[EntryChange, ...]:
    """What changed in ``current`` against the newest stored snapshot of each entry.

    ``previous`` maps entry id to its newest snapshot; an entry with an unknown id is
    matched by its link (see the module docstring). Entries are reported in feed order;
    unchanged entries (folded text, link and publication date equal) are not reported, and
    entries that left the feed are not reported either (feeds roll items off).
    """
    return _changes(match_entries(previous, current), current)


def _changes(matched: Mapping[str, EntrySnapshot], current: Feed) -> tuple[EntryChange, ...]:
    changes: list[EntryChange] = []
    for entry in current.entries:
        before = matched.get(entry.id)
        if before is None:
            changes.append(EntryChange("new", entry))
            continue
        fields = changed_fields(before, entry)
        if not fields:
            continue
        kind: ChangeKind = "edited" if set(fields) & set(TEXT_FIELDS) else "metadata"
        changes.append(EntryChange(kind, entry, before, fields))
    return tuple(changes)


def match_entries(previous: Mapping[str, EntrySnapshot], current: Feed) -> dict[str, EntrySnapshot]:
    """The stored snapshot of each entry of ``current`` that has one, by the entry's id:
    the snapshot of the same id, else, when no other entry of the poll has the entry's
    link, the newest snapshot with that link that no id match claimed and that is the
    same story by its date (module docstring). No snapshot is given to two entries."""
    found = {entry.id: previous[entry.id] for entry in current.entries if entry.id in previous}
    if len(found) == len(current.entries):
        return found
    polled_ids = {entry.id for entry in current.entries}
    claimed = {snapshot.id for snapshot in found.values()}
    by_link: dict[str, list[EntrySnapshot]] = {}
    for snapshot in previous.values():
        if snapshot.link and snapshot.id not in claimed:
            by_link.setdefault(snapshot.link, []).append(snapshot)
    polled_links = Counter(entry.link for entry in current.entries if entry.link)
    for entry in current.entries:
        if entry.id in found or not entry.link or polled_links[entry.link] != 1:
            continue
        same = [
            snapshot
            for snapshot in by_link.get(entry.link, ())
            if _same_story(snapshot, entry, polled_ids=polled_ids)
        ]
        if same:
            # newest first; the id only breaks ties, so the choice is deterministic
            found[entry.id] = max(same, key=lambda snapshot: (snapshot.observed_at, snapshot.id))
    return found


def _same_story(snapshot: EntrySnapshot, entry: FeedEntry, *, polled_ids: set[str]) -> bool:
    """Whether ``snapshot``, stored under another id with ``entry``'s link, is ``entry``
    under a rotated id: the same publication moment, or no date on either and the old id
    gone from the poll (an old id still listed is another entry)."""
    if snapshot.published is None and entry.published is None:
        return snapshot.id not in polled_ids
    return (
        snapshot.published is not None
        and entry.published is not None
        and _same_date(snapshot.published, entry.published)
    )


@dataclass(frozen=True, slots=True)
class FeedComparison:
    """A poll against the stored snapshots: ``changes`` as :func:`entry_changes` gives them,
    the links whose ``updated`` stamp changed (``claims``), the snapshots to store next
    (``snapshots``: each entry of the poll in its new state, an entry matched by link under
    its new id), the stored snapshots of the entries that left the feed (``departed``) and
    how many entries were matched by link because their id changed (``renamed``)."""

    changes: tuple[EntryChange, ...]
    claims: frozenset[str]
    snapshots: dict[str, EntrySnapshot]
    renamed: int
    departed: dict[str, EntrySnapshot] = field(default_factory=dict)


def compare_feed(
    previous: Mapping[str, EntrySnapshot],
    current: Feed,
    *,
    observed_at: datetime,
    returning: Mapping[str, EntrySnapshot] | None = None,
) -> FeedComparison:
    """Compare a poll with the stored snapshots and give the snapshots to store next.

    ``previous`` are the snapshots of the entries the feed carried at its last poll;
    ``returning``, snapshots of entries that had left it before, which an entry of this
    poll may be (the shell reads those its ids and links may name). An entry that comes
    back is matched with its snapshot as if it had never left: its edits are seen. The
    snapshots of the entries of ``previous`` that this poll no longer carries are given
    apart (``departed``): keeping them is the feed record's job (``ENTRY_MEMORY``).
    """
    known = {**(returning or {}), **previous}  # an entry still listed: its newest state
    matched = match_entries(known, current)
    claims: set[str] = set()
    snapshots: dict[str, EntrySnapshot] = {}
    taken: set[str] = set()
    renamed = 0
    for entry in current.entries:
        before = matched.get(entry.id)
        if before is not None:
            taken.add(before.id)  # one snapshot per entry, under its newest id
            if before.id != entry.id:
                renamed += 1
        updated = entry.updated.raw if entry.updated else None
        claimed = before is not None and updated is not None and before.updated != updated
        if claimed and entry.link is not None:
            claims.add(entry.link)
        snapshots[entry.id] = EntrySnapshot.of(entry, observed_at=observed_at)
    departed = {
        key: snapshot
        for key, snapshot in previous.items()
        if key not in snapshots and snapshot.id not in taken
    }
    return FeedComparison(
        changes=_changes(matched, current),
        claims=frozenset(claims),
        snapshots=snapshots,
        renamed=renamed,
        departed=departed,
    )


def changed_fields(before: EntrySnapshot, entry: FeedEntry) -> tuple[str, ...]:
    """The fields of ``entry`` that differ from ``before``, text compared folded."""
    fields: list[str] = []
    if fold_text(before.title) != fold_text(entry.title):
        fields.append("title")
    if fold_text(before.summary) != fold_text(entry.summary):
        fields.append("summary")
    if before.link != entry.link:
        fields.append("link")
    if not _same_date(before.published, entry.published):
        fields.append("published")
    return tuple(fields)


def _same_date(raw: str | None, date: NormalizedDate | None) -> bool:
    """Whether a stored raw date and a new one name the same moment (or the same text)."""
    if raw is None or date is None:
        return raw is None and date is None
    if raw.strip() == date.raw.strip():
        return True
    old = normalize_date(raw, fetched_at=None).value
    new = normalize_date(date.raw, fetched_at=None).value
    if old is not None and new is not None:
        return old == new
    return raw.strip() == date.raw.strip()
