"""The stories of many days at once, each article compared once (pure).

A day's stories are those :func:`~quietedit.analysis.stories.group_stories` finds among
the articles first seen within ``window`` of the day (its *window*: from ``window``
before the day's start to ``window`` after its end), whose earliest article was first
seen on the day. Windows of consecutive days overlap: with 48 hours each article is in
five of them, and grouping each window on its own compares it five times.

:func:`group_days` gives exactly what grouping each day's window on its own gives, from
one pass over the articles. A window's grouping differs from a grouping of all the
articles only at its edges:

- **Boilerplate.** A hash that three articles of one source within ``window`` hold is
  taken out of their sketches. A window that cuts such a triple keeps the hash in the
  sketches of the triple's members inside it, unless another triple inside holds them.
  Only an edge's own triples can do this, so each window's *differing* sketches are
  few, found from the triples that cross its edges.
- **Links.** An article is compared with the articles first seen within ``window``
  before it; for an article of the day or after it, those are all inside the window, so
  its comparisons read the same sketches as in the pass over everything, unless one of
  them, or its own, differs in the window: those few articles are compared again, with
  the window's sketches.
- **Stories.** A story of the window whose earliest article was first seen on the day
  holds no article from before the day, so it is a connected group of the articles from
  the day on, none linked to an article before the day, of at least two sources.

Sketches holding a hash twice (never made by
:func:`~quietedit.analysis.stories.story_sketch`) are grouped window by window.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from quietedit.analysis.stories import (
    BOILERPLATE_REPEATS,
    MIN_SHARED,
    POSTINGS_MAX,
    STORY_SIMILARITY,
    STORY_WINDOW,
    StoryArticle,
    estimated_similarity,
    group_stories,
)

Sketch = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _Span:
    """A day's window as indices into the ordered articles: the window's first, the
    day's first, the first after the day, the first after the window."""

    low: int
    start: int
    end: int
    high: int


def group_days(
    ordered: Sequence[StoryArticle],
    days: Sequence[tuple[datetime, datetime]],
    *,
    window: timedelta = STORY_WINDOW,
    similarity: float = STORY_SIMILARITY,
) -> list[list[list[str]]]:
    """For each day ``(start, end)`` (in order), the stories of its window (module
    docstring) whose earliest article was first seen on it, each as its documents in
    order of first sight, ordered by id. ``ordered``: sorted by (first sight, document),
    holding every article of those windows (it may hold more)."""
    times = [a.first_seen for a in ordered]
    spans = [
        _Span(
            bisect_left(times, start - window),
            bisect_left(times, start),
            bisect_left(times, end),
            bisect_left(times, end + window),
        )
        for start, end in days
    ]
    if any(len(set(a.sketch)) != len(a.sketch) for a in ordered):
        return [_one_window(ordered, span, window, similarity) for span in spans]
    triples = _triples(ordered, window)
    dropped: defaultdict[int, set[int]] = defaultdict(set)
    for value, members in triples:
        for member in members:
            dropped[member].add(value)
    sketches = [
        tuple(v for v in a.sketch if v not in dropped[i]) if i in dropped else a.sketch
        for i, a in enumerate(ordered)
    ]
    differing = _differing(ordered, spans, triples, dropped)
    links, relinked = _links(ordered, sketches, spans, differing, window, similarity)
    linked = sorted(links)
    found = []
    for span, again in zip(spans, relinked, strict=True):
        edges = {
            b: links[b]
            for b in linked[bisect_left(linked, span.start) : bisect_left(linked, span.high)]
        }
        edges.update(again)
        found.append(_stories(ordered, span, edges.items()))
    return found


def _triples(
    ordered: Sequence[StoryArticle], window: timedelta
) -> list[tuple[int, tuple[int, ...]]]:
    """Each run of :data:`BOILERPLATE_REPEATS` consecutive articles of one source holding
    a hash, first seen within ``window``: (the hash, the articles' indices)."""
    seen: dict[tuple[str, int], list[int]] = defaultdict(list)
    for index, article in enumerate(ordered):
        for value in article.sketch:
            seen[article.source, value].append(index)
    span = BOILERPLATE_REPEATS - 1
    found = []
    for (_, value), holders in seen.items():
        for start in range(len(holders) - span):
            first, last = holders[start], holders[start + span]
            if ordered[last].first_seen - ordered[first].first_seen <= window:
                found.append((value, tuple(holders[start : start + span + 1])))
    return found


def _differing(
    ordered: Sequence[StoryArticle],
    spans: Sequence[_Span],
    triples: list[tuple[int, tuple[int, ...]]],
    dropped: dict[int, set[int]],
) -> list[dict[int, Sketch]]:
    """Per day, the articles of its window whose sketch differs from their sketch
    among all the articles, with their sketch in the window: members of a triple that
    crosses an edge of the window, none of whose triples of that hash is inside it."""
    edges = sorted({edge for span in spans for edge in (span.low, span.high)})
    crossing: defaultdict[int, list[int]] = defaultdict(list)  # edge -> triples
    for number, (_, members) in enumerate(triples):
        for edge in edges[bisect_right(edges, members[0]) : bisect_right(edges, members[-1])]:
            crossing[edge].append(number)  # members[0] < edge <= members[-1]
    asked = {
        (member, triples[number][0])
        for found in crossing.values()
        for number in found
        for member in triples[number][1]
    }
    holding: defaultdict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for value, members in triples:  # every triple of the members asked about
        for member in members:
            if (member, value) in asked:
                holding[member, value].append((members[0], members[-1]))
    found = []
    for span in spans:
        kept: defaultdict[int, set[int]] = defaultdict(set)
        for number in (*crossing.get(span.low, ()), *crossing.get(span.high, ())):
            value, members = triples[number]
            for member in members:
                if span.low <= member < span.high and not any(
                    span.low <= first and last < span.high for first, last in holding[member, value]
                ):
                    kept[member].add(value)
        found.append(
            {
                i: tuple(v for v in ordered[i].sketch if v not in dropped[i] or v in values)
                for i, values in sorted(kept.items())
            }
        )
    return found


Postings = Callable[[int], Sequence[int]]


def _links(
    ordered: Sequence[StoryArticle],
    sketches: list[Sketch],
    spans: Sequence[_Span],
    differing: list[dict[int, Sketch]],
    window: timedelta,
    similarity: float,
) -> tuple[dict[int, list[int]], list[dict[int, list[int]]]]:
    """The earlier articles each article is linked to, and per day, for the articles of
    its window whose comparisons a sketch differing in the window could change, the
    ones each is linked to in the window."""
    # per hash, the (day, article) whose sketch in that day's window holds it and differs
    watched: defaultdict[int, list[tuple[int, int]]] = defaultdict(list)
    for day, found in enumerate(differing):
        for index, sketch in found.items():
            for value in sketch:
                watched[value].append((day, index))
    starts = [span.start for span in spans]
    highs = [span.high for span in spans]
    postings: defaultdict[int, deque[int]] = defaultdict(deque)
    recent: deque[int] = deque()
    links: dict[int, list[int]] = {}
    relinked: list[dict[int, list[int]]] = [{} for _ in spans]

    def held(value: int) -> Sequence[int]:
        return postings.get(value, ())

    for index, article in enumerate(ordered):
        since = article.first_seen - window
        while recent and ordered[recent[0]].first_seen < since:
            for value in sketches[recent.popleft()]:
                holders = postings[value]
                holders.popleft()
                if not holders:
                    del postings[value]
        sketch = sketches[index]
        shared = _shared(sketch, held)
        if made := _linked(ordered, index, sketch, shared, sketches, {}, similarity):
            links[index] = made
        # the days whose window holds the article, from their start on
        days = range(bisect_right(highs, index), bisect_right(starts, index))
        if days:
            hits = {
                day
                for value in sketch
                for day, other in watched.get(value, ())
                if other < index and ordered[other].first_seen >= since
            }
            for day in days:
                own = differing[day]
                if day in hits or index in own:
                    relinked[day][index] = _relinked(
                        ordered, index, sketches, own, held, since, similarity
                    )
        for value in sketch:
            postings[value].append(index)
        recent.append(index)
    return links, relinked


def _relinked(
    ordered: Sequence[StoryArticle],
    index: int,
    sketches: list[Sketch],
    own: dict[int, Sketch],
    held: Postings,
    since: datetime,
    similarity: float,
) -> list[int]:
    """The earlier articles ``index`` is linked to in a window whose differing sketches
    are ``own``; ``held``: the postings among all the articles."""
    more = {
        other: sketch
        for other, sketch in own.items()
        if other < index and ordered[other].first_seen >= since
    }

    def in_window(value: int) -> Sequence[int]:
        added = [o for o, s in more.items() if value in s and value not in sketches[o]]
        return [*held(value), *added] if added else held(value)

    mine = own.get(index, sketches[index])
    return _linked(ordered, index, mine, _shared(mine, in_window), sketches, own, similarity)


def _shared(sketch: Sketch, postings: Postings) -> dict[int, int]:
    """Per earlier article, how many hashes of ``sketch`` it holds, counting the hashes
    fewer than :data:`POSTINGS_MAX` articles hold."""
    shared: defaultdict[int, int] = defaultdict(int)
    for value in sketch:
        found = postings(value)
        if len(found) < POSTINGS_MAX:
            for other in found:
                shared[other] += 1
    return shared


def _linked(
    ordered: Sequence[StoryArticle],
    index: int,
    sketch: Sketch,
    shared: dict[int, int],
    sketches: list[Sketch],
    differing: dict[int, Sketch],
    similarity: float,
) -> list[int]:
    """The earlier articles ``index`` is linked to, as :func:`group_stories` links them."""
    source = ordered[index].source
    return [
        other
        for other, count in sorted(shared.items())
        if count >= MIN_SHARED
        and ordered[other].source != source
        and estimated_similarity(sketch, differing.get(other, sketches[other])) >= similarity
    ]


def _stories(
    ordered: Sequence[StoryArticle], span: _Span, edges: Iterable[tuple[int, Iterable[int]]]
) -> list[list[str]]:
    """The connected groups of the articles from the day's start on whose earliest was
    first seen on the day, none linked to an article before the day, of at least two
    sources: their documents in order, the groups by id."""
    parent: dict[int, int] = {}
    before = -1  # every article before the day, as one

    def root(node: int) -> int:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for index, others in edges:
        for other in others:
            parent[root(index)] = root(other if other >= span.start else before)
    groups: defaultdict[int, list[int]] = defaultdict(list)
    earlier = root(before)
    for node in sorted(parent):
        if node >= 0 and (top := root(node)) != earlier:
            groups[top].append(node)
    found = []
    for members in groups.values():
        if members[0] < span.end and len({ordered[i].source for i in members}) >= 2:
            found.append([ordered[i].document for i in members])
    return sorted(found, key=lambda documents: documents[0])


def _one_window(
    ordered: Sequence[StoryArticle], span: _Span, window: timedelta, similarity: float
) -> list[list[str]]:
    """A day's stories from its window alone."""
    return [
        list(story.documents)
        for story in group_stories(
            ordered[span.low : span.high], window=window, similarity=similarity
        )
        if story.documents[0] in {a.document for a in ordered[span.start : span.end]}
    ]
