"""Live blogs: a page's stream of timestamped entries, as ranges of its article's blocks (pure).

A live blog is one page whose newsroom adds an entry every few minutes, newest first:
each entry a box of its own with a time (``<time datetime>``) and usually an id. This
module finds such a stream in a page and says which of the extracted article's blocks
belong to which entry, so that the ingest can tell a new entry (a *live update*) from an
edit of an earlier one (:mod:`quietedit.decide.liveblog`). It never changes the article:
revisions stay the page as extracted.

Where the entries come from:

- the markup: the look-alike children that each contain a ``<time>`` of an element holding
  at least :data:`MIN_ENTRIES` of them, each such child an entry, keyed by its ``id`` (or
  a ``data-*-id``, or its first descendant's id), else by its time and rank;
- the page's JSON-LD ``LiveBlogPosting``: its ``liveBlogUpdate`` posts, keyed by their
  URL's fragment or ``@id``, their text being ``headline`` and ``articleBody``.

Of these candidates, the stream is the one whose posts hold the most of the article's
text: a list of key events, or of other stories with their dates, holds little or none.

The JSON-LD type alone makes a page *declared* a live blog; an undeclared stream must have
text in two posts or more, none holding most of the article. Blocks are matched to entries
in reading order by their text (white space aside), so an entry's blocks are a contiguous
range; blocks outside every range are the page's frame (its standfirst, a key-points
box). Deterministic, never raises, bounded on hostile pages.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from quietedit.article.dom import parse
from quietedit.article.metadata import _load_json, _objects
from quietedit.model import JSON, Article

MIN_ENTRIES: Final = 2
"""A stream of fewer timestamped boxes is a dateline, not a live blog."""
MAX_ENTRIES: Final = 1000
"""Entries read from one page (live blogs page out long before; hostile pages do not)."""
MAX_TIMES: Final = 5000
"""``<time>`` elements looked at: enough for any real stream."""
MAX_KEY_LENGTH: Final = 120
"""Longer ids are generated noise; they are cut, which keeps them stable and bounded."""
MAX_CANDIDATES: Final = 4
"""Candidate streams compared by the text they hold (a page has one stream, perhaps a list
of key events and one of other stories beside it)."""
LOOKAHEAD: Final = 8
"""Entries a block may skip ahead to when it matches none so far: an entry without text
(a picture, a video) matches no block, and the next one must still be found."""
LIVE_TYPES: Final = frozenset({"liveblogposting"})
_ID_ATTRIBUTES: Final = ("data-entry-id", "data-post-id", "data-block-id", "data-id")
_LANDMARKS: Final = frozenset({"header", "footer", "nav", "aside"})
_INLINE: Final = frozenset({"time", "span", "a", "b", "strong", "em", "i", "small", "abbr"})
_INVISIBLE: Final = ("\u200b", "\ufeff", "\u00ad")


@dataclass(frozen=True, slots=True)
class LiveEntry:
    """One entry of a live blog: its ``key`` (stable across fetches), its time as written
    (``None`` when it has none) and its blocks, ``article.blocks[start:end]``."""

    key: str
    published: str | None
    start: int
    end: int

    def to_record(self) -> dict[str, JSON]:
        return {"key": self.key, "published": self.published, "start": self.start, "end": self.end}


@dataclass(frozen=True, slots=True)
class LiveLayout:
    """A page's stream of entries in page order; ``declared`` when its JSON-LD says it is a
    ``LiveBlogPosting``. ``frame`` are the indexes of the blocks outside every entry."""

    declared: bool
    entries: tuple[LiveEntry, ...]

    def frame(self, blocks: int) -> tuple[int, ...]:
        inside = {i for entry in self.entries for i in range(entry.start, entry.end)}
        return tuple(i for i in range(blocks) if i not in inside)


@dataclass(frozen=True, slots=True)
class _Found:
    key: str
    published: str | None
    text: str  # white space removed, for matching blocks


def may_be_live(body: bytes) -> bool:
    """A cheap test on a page's bytes: ``False`` means :func:`read_live_layout` would find
    nothing, so the page need not be parsed again."""
    lowered = body.lower()
    return b"liveblogposting" in lowered or lowered.count(b"<time") >= MIN_ENTRIES


def read_live_layout(document: str | bytes, article: Article) -> LiveLayout | None:
    """The live stream of the page ``document`` (decoded, or UTF-8 bytes), as ranges of
    ``article``'s blocks, or ``None`` when the page has none (see the module docstring)."""
    tree = parse(document)
    if tree is None or tree.body is None:
        return None
    declared, posts = _json_ld(tree)
    texts = [block.text for block in article.blocks]
    best: tuple[LiveEntry, ...] | None = None
    # the stream is the candidate whose posts hold the most of the article's text: a list
    # of key events or of other stories, each with its time, holds little or none
    for found in [*_markup_candidates(tree.body), posts]:
        if len(found) < (1 if declared else MIN_ENTRIES):
            continue
        entries = _ranges(found[:MAX_ENTRIES], texts)
        if best is None or _covered(entries) > _covered(best):
            best = entries
    if best is None or (not declared and not _stream_like(best, len(texts))):
        return None
    return LiveLayout(declared, best)


def _covered(entries: tuple[LiveEntry, ...]) -> int:
    return sum(entry.end - entry.start for entry in entries)


def _stream_like(entries: tuple[LiveEntry, ...], blocks: int) -> bool:
    """Whether undeclared timestamped boxes look like a stream of posts: two or more hold
    text of the article, and none holds most of it (an article among cards of related
    stories, each with its date, is one article, not a stream)."""
    sizes = [entry.end - entry.start for entry in entries]
    with_text = sum(size > 0 for size in sizes)
    return with_text >= MIN_ENTRIES and max(sizes) * 2 <= max(blocks, 1)


def _compact(text: str) -> str:
    """``text`` without white space and the invisible characters the walk removes."""
    if not text.isascii():
        for invisible in _INVISIBLE:
            if invisible in text:
                text = text.replace(invisible, "")
    return "".join(text.split())


def _json_ld(tree: Any) -> tuple[bool, list[_Found]]:
    """Whether the page declares a ``LiveBlogPosting``, and its updates."""
    declared = False
    posts: list[_Found] = []
    for script in tree.css('script[type="application/ld+json"]'):
        for item in _objects(_load_json(script.text() or "")):
            types = item.get("@type")
            names = {t.lower() for t in (types if isinstance(types, list) else [types])
                     if isinstance(t, str)}  # fmt: skip
            if not names & LIVE_TYPES:
                continue
            declared = True
            updates = item.get("liveBlogUpdate")
            for rank, update in enumerate(updates if isinstance(updates, list) else [updates]):
                if isinstance(update, dict) and len(posts) < MAX_ENTRIES:
                    posts.append(_post(update, rank))
    return declared, posts


def _post(update: dict[str, object], rank: int) -> _Found:
    published = update.get("datePublished")
    when = published.strip()[:64] if isinstance(published, str) and published.strip() else None
    key = None
    for field in ("url", "@id"):
        value = update.get(field)
        if isinstance(value, str) and "#" in value:
            key = value.rpartition("#")[2]
            break
    text = " ".join(
        value
        for field in ("headline", "articleBody")
        if isinstance(value := update.get(field), str)
    )
    return _Found(_clean_key(key) or f"time:{when or '-'}#{rank}", when, _compact(text))


def _markup_candidates(body: Any) -> list[list[_Found]]:
    """Candidate streams: the look-alike children with a ``<time>`` each of the elements
    holding the most of them (at most :data:`MAX_CANDIDATES`, most children first; among
    as many, the innermost), never in a page's header, footer, navigation or aside."""
    counts: dict[int, tuple[Any, list[Any]]] = {}
    for index, time in enumerate(body.css("time")):
        if index >= MAX_TIMES:
            break
        child = time
        parent = time.parent
        while parent is not None and parent.tag != "html":
            held = counts.setdefault(parent.mem_id, (parent, []))[1]
            if not held or held[-1].mem_id != child.mem_id:
                held.append(child)
            child = parent
            parent = parent.parent
    ranked = sorted(
        (
            (len(alike), _depth(parent), parent, alike)
            for parent, children in counts.values()
            if len(children) >= MIN_ENTRIES and len(alike := _alike(children)) >= MIN_ENTRIES
        ),
        key=lambda item: (-item[0], -item[1]),
    )
    chosen = [c for _, _, p, c in ranked if not _in_landmark(p)][:MAX_CANDIDATES]
    return [_posts(children) for children in chosen]


def _posts(children: list[Any]) -> list[_Found]:
    """Each child as a post: its key, its first ``<time>``, its text."""
    seen: dict[str, int] = {}
    found = []
    for child in children[:MAX_ENTRIES]:
        time = child.css_first("time")
        published = None
        if time is not None:
            stamp = time.attributes.get("datetime") or time.text() or ""
            published = stamp.strip()[:64] or None
        key = _element_key(child)
        if key is None:
            base = f"time:{published or '-'}"
            seen[base] = seen.get(base, 0) + 1
            key = f"{base}#{seen[base]}"
        found.append(_Found(key, published, _compact(child.text(separator="") or "")))
    return found


def _alike(children: list[Any]) -> list[Any]:
    """The children that look like one another: the most frequent tag and first class
    (posts share a template; a page's header box and its stream do not)."""
    groups: dict[tuple[str, str], list[Any]] = {}
    for child in children:
        classes = (child.attributes.get("class") or "").split()
        groups.setdefault((child.tag or "", classes[0] if classes else ""), []).append(child)
    alike = max(groups.values(), key=len)
    # a post is a box that holds its time, never the time or a phrase around it
    return [] if alike[0].tag in _INLINE else alike


def _in_landmark(node: Any) -> bool:
    while node is not None:
        if node.tag in _LANDMARKS:
            return True
        node = node.parent
    return False


def _depth(node: Any) -> int:
    depth = 0
    while node is not None:
        node = node.parent
        depth += 1
    return depth


def _element_key(node: Any) -> str | None:
    """The entry's id: its own, a ``data-*-id`` of it, else its first descendant's id."""
    attributes = node.attributes
    for name in ("id", *_ID_ATTRIBUTES):
        if key := _clean_key(attributes.get(name)):
            return key
    for inner in _descendants_with_id(node):
        if key := _clean_key(inner.attributes.get("id")):
            return key
    return None


def _descendants_with_id(node: Any) -> Iterator[Any]:
    for inner in node.css("[id]"):
        if inner is not node:
            yield inner


def _clean_key(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    key = "".join(char for char in value.strip() if char.isprintable())[:MAX_KEY_LENGTH]
    return key or None


def _ranges(found: Sequence[_Found], blocks: Sequence[str]) -> tuple[LiveEntry, ...]:
    """Each entry's contiguous range of ``blocks``: blocks are matched in reading order to
    the entry whose text holds theirs, looking ahead :data:`LOOKAHEAD` entries at most."""
    first: list[int | None] = [None] * len(found)
    last: list[int] = [0] * len(found)
    current = 0
    for index, block in enumerate(blocks):
        text = _compact(block)
        if not text:
            continue
        for candidate in range(current, min(current + LOOKAHEAD, len(found))):
            if text in found[candidate].text:
                if first[candidate] is None:
                    first[candidate] = index
                last[candidate] = index + 1
                current = candidate
                break
    entries = []
    position = 0  # where an entry without blocks stands: after the blocks before it
    for item, start, end in zip(found, first, last, strict=True):
        if start is None:
            start = end = position
        else:
            position = end
        entries.append(LiveEntry(item.key, item.published, start, end))
    return tuple(entries)
