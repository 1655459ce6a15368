"""Kept blocks: the longest common subsequence of exactly equal blocks, within a budget.

The common start and end are set aside first; the rest is matched by
:class:`difflib.SequenceMatcher` (``autojunk=False``: frequent blocks are never junked).
Repeated identical blocks can make that quadratic, so past ``ALIGN_WORK_LIMIT`` only
blocks unique on both sides anchor the match (patience diff), with SequenceMatcher
between anchors where the gap is small enough, and ``"alignment"`` is added to
``cutoffs``.
"""

from __future__ import annotations

import bisect
from collections import Counter
from difflib import SequenceMatcher
from typing import Final

ALIGN_WORK_LIMIT: Final = 200_000
"""Block comparisons the kept-block pass may make (the sum, over old blocks, of equal new
blocks) before it matches only blocks unique on both sides, as patience diff does."""


def kept_runs(a: list[str], b: list[str], cutoffs: set[str]) -> list[tuple[int, int, int]]:
    """Runs ``(i, j, size)`` of equal blocks, increasing in both revisions; a cut-off hit
    is added to ``cutoffs``."""
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        start += 1
    end = 0
    while end < len(a) - start and end < len(b) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    found = [(0, 0, start)] if start else []
    middle = _match(a[start : len(a) - end], b[start : len(b) - end], cutoffs)
    found += [(i + start, j + start, size) for i, j, size in middle]
    if end:
        found.append((len(a) - end, len(b) - end, end))
    return found


def _match(a: list[str], b: list[str], cutoffs: set[str]) -> list[tuple[int, int, int]]:
    if _work(a, b) <= ALIGN_WORK_LIMIT:
        return _longest_common(a, b)
    cutoffs.add("alignment")
    found: list[tuple[int, int, int]] = []
    previous = (0, 0)
    for i, j in [*_unique_anchors(a, b), (len(a), len(b))]:
        gap_a, gap_b = a[previous[0] : i], b[previous[1] : j]
        if _work(gap_a, gap_b) <= ALIGN_WORK_LIMIT:
            found += [
                (x + previous[0], y + previous[1], n) for x, y, n in _longest_common(gap_a, gap_b)
            ]
        if i < len(a):
            found.append((i, j, 1))
        previous = (i + 1, j + 1)
    return found


def _work(a: list[str], b: list[str]) -> int:
    counts = Counter(b)
    return sum(counts[text] for text in a)


def _longest_common(a: list[str], b: list[str]) -> list[tuple[int, int, int]]:
    if not a or not b:
        return []
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return [(i, j, n) for i, j, n in matcher.get_matching_blocks() if n]


def _unique_anchors(a: list[str], b: list[str]) -> list[tuple[int, int]]:
    """Patience diff's anchors: the longest increasing run of blocks unique on both sides."""
    count_a, count_b = Counter(a), Counter(b)
    where_b = {text: j for j, text in enumerate(b) if count_b[text] == 1}
    candidates = [
        (i, where_b[text]) for i, text in enumerate(a) if count_a[text] == 1 and text in where_b
    ]
    tails: list[int] = []  # smallest last j of an increasing run of each length
    tail_index: list[int] = []
    previous: list[int] = []
    for index, (_, j) in enumerate(candidates):
        length = bisect.bisect_left(tails, j)
        if length == len(tails):
            tails.append(j)
            tail_index.append(index)
        else:
            tails[length] = j
            tail_index[length] = index
        previous.append(tail_index[length - 1] if length else -1)
    chain: list[tuple[int, int]] = []
    index = tail_index[-1] if tail_index else -1
    while index != -1:
        chain.append(candidates[index])
        index = previous[index]
    return chain[::-1]


def replacement_runs(
    matches: list[tuple[int, int, int]], len_a: int, len_b: int
) -> list[tuple[int, int, int, int]]:
    """The gaps ``(i1, i2, j1, j2)`` between kept runs, where blocks were replaced."""
    runs = []
    i = j = 0
    for mi, mj, size in [*matches, (len_a, len_b, 0)]:
        if mi > i or mj > j:
            runs.append((i, mi, j, mj))
        i, j = mi + size, mj + size
    return runs
