"""Live blogs in a check: a new entry is a live update, a changed or deleted one an edit (pure).

A document whose page has a stream of entries (:mod:`quietedit.article.liveblog`) keeps a
*ledger* in its record: every entry it knows, newest first as the page shows them, with
the content hash of each entry's text, the hash of the *frame* (the headline and every
block outside the entries), the number of live updates so far, and the entries of its
newest revision as block ranges. Each check compares the page with the ledger
(:func:`judge_live`):

- an entry the ledger does not know is **new**: a live update (an entry whose key changed
  but whose text is that of a vanished one is the same entry, re-keyed);
- a known entry whose text changed is **changed**, one missing above an entry still shown
  is **removed**; one missing below every entry still shown has merely been **paged out**
  (live blogs show their newest entries only), which is no edit;
- a changed frame (headline, standfirst, key points) is an edit too.

A page is *confirmed* a live blog when its JSON-LD declares a ``LiveBlogPosting``, or when
new entries, newer than every known one, have appeared on :data:`CONFIRM_GROWTHS`
checks ("run after run"); until then it is an article like any other, so an article that
gains an "Update 14:05" section once is edited, not live. On a confirmed live blog:

- only new entries (or entries paged out): ``update`` — no revision; one ``live-update``
  event with the new entries' text, whatever their number;
- any edit: ``edit`` — the page is judged by the versioning rules like any article (walls,
  text cut at once) and stored as a revision; the event then also gives the revision's
  layout, so the site can diff the entries both revisions show and leave live updates and
  paged-out entries out of the edit (:mod:`quietedit.analysis.liveblog`);
- nothing new: ``unchanged``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Final, Literal

from quietedit.article.fingerprint import content_hash
from quietedit.article.liveblog import LiveEntry, LiveLayout
from quietedit.feeds.dates import normalize_date
from quietedit.model import JSON, Article

CONFIRM_GROWTHS: Final = 2
"""Checks on which new, newest entries appeared before an undeclared page counts as a live
blog: once is an article updated with a timestamped section."""
MAX_KNOWN: Final = 500
"""Entries a ledger keeps, newest first: far more than a live blog shows on one page, so a
paged-out entry is still known if it comes back; a bound on the record's size."""
MAX_EVENT_ENTRIES: Final = 50
"""New entries whose text one event keeps (all are counted): a first check after a long
gap can find hundreds."""

Action = Literal["not-live", "unchanged", "update", "edit"]


@dataclass(frozen=True, slots=True)
class KnownEntry:
    """An entry the ledger knows: its key, time as written and the hash of its text."""

    key: str
    published: str | None
    hash: str


@dataclass(frozen=True, slots=True)
class LiveLedger:
    """What a document's record remembers of its live stream (see the module docstring).

    ``layout`` gives the entries of revision ``revision`` as block ranges (``None``: no
    revision's layout is known)."""

    confirmed: bool = False
    declared: bool = False
    growths: int = 0
    updates: int = 0
    frame: str = ""
    entries: tuple[KnownEntry, ...] = ()
    revision: int | None = None
    layout: tuple[LiveEntry, ...] = ()

    def with_revision(self, number: int, layout: LiveLayout) -> LiveLedger:
        """The ledger once revision ``number``, whose page has ``layout``, is stored."""
        return replace(self, revision=number, layout=layout.entries)


@dataclass(frozen=True, slots=True)
class LiveJudgement:
    """What one observation of a page means for its live stream: the ``action`` (see the
    module docstring), the ``ledger`` to keep (``None``: the page has no stream and the
    document none), the ``new`` entries, the keys of the ``changed`` and ``removed`` ones,
    how many were ``paged_out``, whether the frame changed, and whether this observation
    confirmed the page as a live blog."""

    action: Action
    ledger: LiveLedger | None
    new: tuple[LiveEntry, ...] = ()
    changed: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    paged_out: int = 0
    frame_changed: bool = False
    confirmed_now: bool = False


def entry_hash(article: Article, entry: LiveEntry) -> str:
    """The content hash of one entry's blocks (relative times and the like masked)."""
    return content_hash(Article(title="", blocks=article.blocks[entry.start : entry.end]))


def frame_hash(article: Article, layout: LiveLayout) -> str:
    """The content hash of the headline and the blocks outside every entry."""
    blocks = tuple(article.blocks[i] for i in layout.frame(len(article.blocks)))
    return content_hash(Article(title=article.title, blocks=blocks))


def judge_live(
    ledger: LiveLedger | None, article: Article, layout: LiveLayout | None
) -> LiveJudgement:
    """Compare a page (``article`` and its stream ``layout``) with the document's
    ``ledger`` (see the module docstring)."""
    if layout is None:
        return LiveJudgement("not-live", ledger)
    page = [KnownEntry(e.key, e.published, entry_hash(article, e)) for e in layout.entries]
    frame = frame_hash(article, layout)
    if ledger is None:
        fresh = LiveLedger(
            confirmed=layout.declared,
            declared=layout.declared,
            frame=frame,
            entries=tuple(page[:MAX_KNOWN]),
        )
        return LiveJudgement("not-live", fresh, confirmed_now=layout.declared)
    known = {entry.key: index for index, entry in enumerate(ledger.entries)}
    matched: dict[int, int] = {}  # page position -> ledger position
    for position, entry in enumerate(page):
        if (index := known.get(entry.key)) is not None and index not in matched.values():
            matched[position] = index
    _rekey(page, ledger.entries, matched)
    new_positions = [p for p in range(len(page)) if p not in matched]
    shown = sorted(matched.values())
    lowest = shown[-1] if shown else -1
    missing = [i for i in range(len(ledger.entries)) if i not in set(shown)]
    removed = tuple(ledger.entries[i].key for i in missing if i < lowest)
    paged = [ledger.entries[i] for i in missing if i > lowest]
    changed = tuple(
        page[p].key for p, i in sorted(matched.items()) if page[p].hash != ledger.entries[i].hash
    )
    frame_changed = frame != ledger.frame
    grew = bool(new_positions) and _grew(page, new_positions, [page[p] for p in matched])
    growths = ledger.growths + grew
    confirmed = ledger.confirmed or layout.declared or growths >= CONFIRM_GROWTHS
    new = tuple(layout.entries[p] for p in new_positions)
    after = replace(
        ledger,
        confirmed=confirmed,
        declared=ledger.declared or layout.declared,
        growths=growths,
        updates=ledger.updates + (len(new) if confirmed else 0),
        frame=frame,
        entries=tuple([*page, *paged][:MAX_KNOWN]),
    )
    if not confirmed:
        action: Action = "not-live"
    elif frame_changed or changed or removed:
        action = "edit"
    elif new:
        action = "update"
    else:
        action = "unchanged"
    return LiveJudgement(
        action,
        after,
        new=new,
        changed=changed,
        removed=removed,
        paged_out=len(paged),
        frame_changed=frame_changed,
        confirmed_now=confirmed and not ledger.confirmed,
    )


def _rekey(
    page: Sequence[KnownEntry], known: Sequence[KnownEntry], matched: dict[int, int]
) -> None:
    """Pair the unmatched page entries with unmatched known entries of the same text (a
    CMS that renders new ids on every page is not a stream of new posts)."""
    taken = set(matched.values())
    by_hash: dict[str, list[int]] = {}
    for index, entry in enumerate(known):
        if index not in taken:
            by_hash.setdefault(entry.hash, []).append(index)
    for position, entry in enumerate(page):
        if position not in matched and by_hash.get(entry.hash):
            matched[position] = by_hash[entry.hash].pop(0)


def _grew(
    page: Sequence[KnownEntry], new_positions: Sequence[int], still: Sequence[KnownEntry]
) -> bool:
    """Whether the new entries are the newest: later than every known one still shown by
    their times, or, where a time cannot be read, above every one of them on the page."""
    new_times = [_moment(page[p].published) for p in new_positions]
    known_times = [_moment(entry.published) for entry in still]
    if still and all(new_times) and all(known_times):
        return min(t for t in new_times if t) >= max(t for t in known_times if t)
    first_known = min((p for p in range(len(page)) if p not in new_positions), default=len(page))
    return max(new_positions) < first_known


def _moment(text: str | None) -> datetime | None:
    return None if text is None else normalize_date(text, fetched_at=None).value


def update_detail(
    article: Article,
    judgement: LiveJudgement,
    *,
    url: str,
    layout: Sequence[LiveEntry] | None,
) -> dict[str, JSON]:
    """The ``detail`` of a ``live-update`` event: the new entries (their text, the first
    :data:`MAX_EVENT_ENTRIES`) and their ``count``, and, when ``layout`` is given, the
    entries of the revision the event names as block ranges."""
    detail: dict[str, JSON] = {
        "count": len(judgement.new),
        "entries": [
            {
                "key": entry.key,
                "published": entry.published,
                "blocks": [
                    {"kind": block.kind, "text": block.text}
                    for block in article.blocks[entry.start : entry.end]
                ],
            }
            for entry in judgement.new[:MAX_EVENT_ENTRIES]
        ],
        "url": url,
    }
    if judgement.changed or judgement.removed:
        detail["changed"] = list(judgement.changed)
        detail["removed"] = list(judgement.removed)
    if layout is not None:
        detail["layout"] = [entry.to_record() for entry in layout]
    return detail


def ledger_to_record(ledger: LiveLedger) -> dict[str, JSON]:
    """The ``live`` object of a document record."""
    return {
        "confirmed": ledger.confirmed,
        "declared": ledger.declared,
        "growths": ledger.growths,
        "updates": ledger.updates,
        "frame": ledger.frame,
        "entries": [[e.key, e.published, e.hash] for e in ledger.entries],
        "revision": ledger.revision,
        "layout": [[e.key, e.published, e.start, e.end] for e in ledger.layout],
    }


def ledger_from_record(value: JSON | None) -> LiveLedger | None:
    """Read :func:`ledger_to_record`'s output back; a malformed part is left out (the
    worst case is an entry taken for new once), never an error."""
    if not isinstance(value, dict):
        return None
    entries = []
    for item in _list(value.get("entries")):
        if isinstance(item, list) and len(item) == 3:
            key, published, digest = item
            if isinstance(key, str) and isinstance(digest, str) and _optional_text(published):
                entries.append(KnownEntry(key, _text(published), digest))
    layout = []
    for item in _list(value.get("layout")):
        if isinstance(item, list) and len(item) == 4:
            key, published = item[0], item[1]
            start, end = _count(item[2]), _count(item[3])
            if isinstance(key, str) and _optional_text(published) and _span(start, end):
                layout.append(LiveEntry(key, _text(published), start or 0, end or 0))
    revision = value.get("revision")
    frame = value.get("frame")
    return LiveLedger(
        confirmed=value.get("confirmed") is True,
        declared=value.get("declared") is True,
        growths=_count(value.get("growths")) or 0,
        updates=_count(value.get("updates")) or 0,
        frame=frame if isinstance(frame, str) else "",
        entries=tuple(entries[:MAX_KNOWN]),
        revision=_count(revision) or None,
        layout=tuple(layout),
    )


def live_layouts(
    events: Sequence[tuple[int | None, Mapping[str, JSON]]],
) -> dict[int, tuple[LiveEntry, ...]]:
    """The layouts ``live-update`` events give, by revision number, from (revision,
    detail) pairs; a malformed layout is left out."""
    found: dict[int, tuple[LiveEntry, ...]] = {}
    for revision, detail in events:
        layout = detail.get("layout")
        if revision is None or not isinstance(layout, list):
            continue
        entries = []
        for item in layout:
            if not isinstance(item, dict):
                break
            key, published = item.get("key"), item.get("published")
            start, end = _count(item.get("start")), _count(item.get("end"))
            if not isinstance(key, str) or not _optional_text(published) or not _span(start, end):
                break
            entries.append(LiveEntry(key, _text(published), start or 0, end or 0))
        else:
            found[revision] = tuple(entries)
    return found


def _span(start: int | None, end: int | None) -> bool:
    return start is not None and end is not None and start <= end


def _text(value: JSON | None) -> str | None:
    return value if isinstance(value, str) else None


def _list(value: JSON | None) -> list[JSON]:
    return value if isinstance(value, list) else []


def _optional_text(value: JSON | None) -> bool:
    return value is None or isinstance(value, str)


def _count(value: JSON | None) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return None
