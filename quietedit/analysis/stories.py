"""One story across outlets: articles of different sources grouped by shared text.

Outlets that run the same wire story, or rewrite it, share long runs of words. Each
article is reduced to a *sketch* (:func:`story_sketch`): the word 5-grams (shingles) of
its headline and first :data:`SKETCH_WORDS` words, hashed with CRC-32 (stable across
processes and versions, unlike Python's ``hash``), of which the :data:`SKETCH_SIZE`
smallest hashes are kept — a bottom-k MinHash sketch, whose overlap estimates the
Jaccard similarity of the two shingle sets (Broder 1997; Cohen & Kaplan 2007).

:func:`group_stories` sweeps the articles in order of first sight with an inverted index
(hash → articles first seen within :data:`STORY_WINDOW` before), so each article is
compared only with the articles that share a hash with it and came within the window:
linear in the number of articles for a steady stream, never all pairs. A hash shared by
more than :data:`POSTINGS_MAX` articles of the window (a sign-off, a newsletter box, a
boilerplate paragraph every article of some site carries) is no evidence and is skipped,
which also bounds the work per article; so is a hash that three articles of one source
within the window hold (:data:`BOILERPLATE_REPEATS`): the site's furniture, whatever the
story. Two articles of different sources whose sketches
estimate a Jaccard similarity of at least :data:`STORY_SIMILARITY` are linked; a story is
a connected group of linked articles from at least two sources. Articles of one source are
never linked to each other (a site's own boilerplate says nothing about the story), so one
source's articles alone are never a story.

Deterministic: the result depends on the set of articles only, never on the order they
are given in; a story's id is the id of its earliest article (first seen, then id), so it
stays put as later articles join.
"""

from __future__ import annotations

import re
import zlib
from collections import defaultdict, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

SHINGLE_WORDS: Final = 5
"""Words per shingle: 5-grams are the usual choice for near-duplicate news text (two
unrelated articles rarely share one; a rewrite keeps many)."""
SKETCH_WORDS: Final = 400
"""Words read from each article (headline first): a wire story's outlets agree most on
its top, and the bound keeps the cost per article fixed, whatever its length."""
SKETCH_SIZE: Final = 32
"""Hashes kept per article (bottom-k): the estimate's standard error is about
sqrt(J(1-J)/k), 0.08 at J = 0.3 with k = 32; 32 hashes are 256 hex digits."""
STORY_SIMILARITY: Final = 0.25
"""Estimated Jaccard similarity of two articles' shingles above which they tell one
story: wire copy run by two outlets with their own top and tail scores 0.3-0.9, two
different stories sharing a site's boilerplate paragraph under 0.1."""
MIN_SHARED: Final = 3
"""Hashes two sketches must share before their similarity is estimated: one or two can
be a common phrase."""
STORY_WINDOW: Final = timedelta(hours=48)
"""How far apart two outlets' first sightings of one story may be."""
BOILERPLATE_REPEATS: Final = 3
"""Articles of one source within the window holding a hash, from which it is the source's
boilerplate rather than its story (two can be one story published twice)."""
POSTINGS_MAX: Final = 24
"""Articles of the window sharing one hash, beyond which it is boilerplate, not story."""

_WORD: Final = re.compile(r"\w+")
_NONE: Final[deque[int]] = deque()


@dataclass(frozen=True, slots=True)
class StoryArticle:
    """One article as the grouping sees it: its document id, source, first sight and
    :func:`story_sketch`."""

    document: str
    source: str
    first_seen: datetime
    sketch: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Story:
    """Articles of at least two sources telling one story: ``id`` is its earliest
    article's document id; ``documents`` in order of first sight (then id)."""

    id: str
    documents: tuple[str, ...]
    sources: tuple[str, ...]  # sorted, each once


def story_words(title: str, blocks: Sequence[str]) -> list[str]:
    """The words a sketch is made of: the headline's, then the blocks', lower-cased, at
    most :data:`SKETCH_WORDS`."""
    words: list[str] = []
    for text in (title, *blocks):
        words.extend(_WORD.findall(text.lower()))
        if len(words) >= SKETCH_WORDS:
            break
    return words[:SKETCH_WORDS]


def story_sketch(title: str, blocks: Sequence[str]) -> tuple[int, ...]:
    """The bottom-:data:`SKETCH_SIZE` CRC-32 hashes of the word 5-grams of
    :func:`story_words`, ascending; empty for a text too short for a shingle."""
    words = story_words(title, blocks)
    hashes = {
        zlib.crc32(" ".join(words[i : i + SHINGLE_WORDS]).encode())
        for i in range(len(words) - SHINGLE_WORDS + 1)
    }
    return tuple(sorted(hashes)[:SKETCH_SIZE])


def estimated_similarity(a: Sequence[int], b: Sequence[int]) -> float:
    """The Jaccard similarity the two bottom-k sketches estimate: the share of the k
    smallest hashes of their union that both hold."""
    k = min(SKETCH_SIZE, len(set(a) | set(b)))
    if k == 0:
        return 0.0
    union = sorted(set(a) | set(b))[:k]
    both = set(a) & set(b)
    return sum(1 for value in union if value in both) / k


def group_stories(
    articles: Iterable[StoryArticle],
    *,
    window: timedelta = STORY_WINDOW,
    similarity: float = STORY_SIMILARITY,
) -> tuple[Story, ...]:
    """The stories among ``articles`` (see the module docstring), ordered by id."""
    ordered = sorted(articles, key=lambda article: (article.first_seen, article.document))
    parent = list(range(len(ordered)))

    def root(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    # articles enter and leave the window in the same order, so each list holds its
    # articles oldest first and the one leaving is always at its head
    sketches = _without_boilerplate(ordered, window)
    postings: dict[int, deque[int]] = defaultdict(deque)
    recent: deque[int] = deque()
    for index, article in enumerate(ordered):
        while recent and ordered[recent[0]].first_seen < article.first_seen - window:
            gone = recent.popleft()
            for value in sketches[gone]:
                found = postings[value]
                found.popleft()
                if not found:
                    del postings[value]
        shared: dict[int, int] = defaultdict(int)
        sketch = sketches[index]
        for value in sketch:
            found = postings.get(value, _NONE)
            if len(found) < POSTINGS_MAX:
                for other in found:
                    shared[other] += 1
        for other, count in sorted(shared.items()):
            candidate = ordered[other]
            if (
                count >= MIN_SHARED
                and candidate.source != article.source
                and estimated_similarity(sketch, sketches[other]) >= similarity
            ):
                parent[root(index)] = root(other)
        for value in sketch:
            postings[value].append(index)
        recent.append(index)
    groups: dict[int, list[int]] = defaultdict(list)
    for index in range(len(ordered)):
        groups[root(index)].append(index)
    stories = []
    for members in groups.values():
        sources = sorted({ordered[i].source for i in members})
        if len(sources) < 2:
            continue
        documents = tuple(ordered[i].document for i in sorted(members))
        stories.append(Story(id=documents[0], documents=documents, sources=tuple(sources)))
    return tuple(sorted(stories, key=lambda story: story.id))


def _without_boilerplate(
    ordered: Sequence[StoryArticle], window: timedelta
) -> list[tuple[int, ...]]:
    """Each article's sketch without its source's boilerplate: the hashes that at least
    :data:`BOILERPLATE_REPEATS` articles of the same source first seen within ``window``
    of each other all hold (a subscription box, a sign-off, an agency's copyright line)."""
    seen: dict[tuple[str, int], list[int]] = defaultdict(list)
    for index, article in enumerate(ordered):
        for value in article.sketch:
            seen[article.source, value].append(index)
    dropped: dict[int, set[int]] = defaultdict(set)
    for (_, value), holders in seen.items():
        if len(holders) < BOILERPLATE_REPEATS:
            continue
        span = BOILERPLATE_REPEATS - 1
        for start in range(len(holders) - span):
            first, last = holders[start], holders[start + span]
            if ordered[last].first_seen - ordered[first].first_seen <= window:
                for index in holders[start : start + span + 1]:
                    dropped[index].add(value)
    return [
        tuple(v for v in article.sketch if v not in dropped[i]) if i in dropped else article.sketch
        for i, article in enumerate(ordered)
    ]


def story_of(stories: Iterable[Story]) -> dict[str, str]:
    """Each grouped document's story id."""
    return {document: story.id for story in stories for document in story.documents}
