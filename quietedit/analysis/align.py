"""Paragraph alignment: which old block became which new block, and how.

Four passes, each over what the previous left unexplained:

1. **Kept** (``anchors.py``). Blocks whose text is exactly equal are matched as a
   longest common subsequence (:class:`difflib.SequenceMatcher`, ``autojunk=False``)
   after the common start and end are set aside. The unmatched blocks between two kept
   ones form a *replacement run*.
2. **Identical moves.** A block whose exact text reappears in another run has moved. Two
   runs are separated by a kept block, so such a pair crosses it: it cannot be kept.
3. **Pairing inside each run** is a dynamic programme over the run (a monotone
   alignment, optimal over the whole run rather than greedy in reading order) that
   maximises the number of words kept in order. Its steps are: a block removed, a block
   added, two blocks paired as *changed* (similarity at least 0.5, or 1/3 when the run has
   as many old as new blocks and both are of the same kind: a run of n corrections
   replacing n paragraphs), one block *split* into 2 to 4 consecutive blocks, or 2 to 4 *merged*
   into one (each part has at least half its words in order in the whole, and the whole
   is at least 0.5 similar to the joined parts). Before it, blocks at either end of the
   run that are at least 0.8 similar are paired as they stand, the way diff trims equal
   lines, unless a neighbour could be part of a split or merge with them: most edits
   change a few words in place, and an article with every paragraph touched stays linear.
4. **Near-identical moves.** Removed and added blocks from anywhere, and both sides of
   *weak* pairs (similarity under 0.6), are paired when at least 0.6 similar, best pair
   first over the whole document (a global greedy assignment: above 0.6, two candidates
   for one block are themselves similar, so the order of acceptance rarely matters, and
   the Hungarian method's cubic cost is not worth it). A pair that crosses the run's
   other pairs is a move, never a removal plus an addition.

**Repeated identical paragraphs** ("Advertisement", a recurring "Read more" line, a
quote cited twice) are matched as kept wherever the common subsequence can take them;
leftover copies are then paired as moves first-to-first in reading order, so a repeated
paragraph is never reported as moved while one of its copies stayed in place, and an
extra copy is an addition.

Similarity is :func:`~quietedit.analysis.words.similarity` over folded words. The
thresholds were set against the pairs in ``tests/analysis/test_align.py`` (the
"calibration" table there), written to look like real edits:

==========================================================  ==========  ================
pair                                                        similarity  verdict
==========================================================  ==========  ================
one number corrected in a 30-word paragraph                 0.97        changed
a sentence reworded, the other kept                         0.87        changed
a correction that rewrote most of the paragraph             0.46        changed only in a
                                                                        balanced run
a rewrite that kept under a third of the words              0.31        removed + added
two different paragraphs of one story (median, maximum)     0.12, 0.23  never paired
a paragraph moved and one clause reworded                   0.88        moved
==========================================================  ==========  ================

**Cut-offs** keep the worst cases bounded, each named in the result (``cutoffs``) when
hit, like wikidiff2's: over 200,000 units of matching work (pathological repeats) kept
blocks are found only among blocks unique on both sides; a run of more than 2,500
candidate pairs is paired inside a diagonal band; and near-identical moves are not
searched among more than 10,000 removed by added pairs.
"""

from __future__ import annotations

import bisect
from collections import defaultdict, deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from quietedit.analysis.anchors import kept_runs, replacement_runs
from quietedit.analysis.words import common_words, similarity, similarity_codes
from quietedit.article.fingerprint import fold_text
from quietedit.model import Block

KEPT: Final = "kept"
ADDED: Final = "added"
REMOVED: Final = "removed"
CHANGED: Final = "changed"
MOVED: Final = "moved"
SPLIT: Final = "split"
MERGED: Final = "merged"
BLOCK_OPS: Final = (KEPT, ADDED, REMOVED, CHANGED, MOVED, SPLIT, MERGED)

PAIR_THRESHOLD: Final = 0.5
"""Least similarity for an old and a new block to be one block changed (the seed's value)."""
BALANCED_PAIR_THRESHOLD: Final = 1 / 3
"""The same inside a run with as many old as new blocks, for blocks of the same kind: the
seed measured 0.36 for a real correction against 0.25 for the closest non-pair."""
SPLIT_THRESHOLD: Final = 0.5
"""Least similarity between a block and its parts joined, for a split or a merge."""
PART_CONTAINMENT: Final = 0.5
"""Least share of a part's words found, in order, in the whole: a part that is mostly new
text is an added block next to a changed one, not half of a split."""
MAX_PARTS: Final = 4
"""Most blocks one block is split into, or merged from (wikidiff2's maxSplitSize is 3)."""
TRIM_THRESHOLD: Final = 0.8
"""Similarity at which two blocks at the same end of a run are paired without weighing
alternatives (unless a neighbour could be part of a split or merge with them)."""
MOVE_THRESHOLD: Final = 0.6
"""Least similarity for a removed and an added block to be one block moved; pairs under it
are *weak* and may be broken up for a move."""
FULL_PAIRING_LIMIT: Final = 2_500
"""Old by new blocks of a run up to which every pairing is considered (50 by 50)."""
PAIRING_BAND_BUDGET: Final = 8_000
"""Roughly the programme states of a larger run, kept inside a band around its diagonal."""
MOVE_PAIRS_LIMIT: Final = 10_000
"""Removed by added blocks up to which near-identical moves are searched (wikidiff2's
``moved_paragraph_detection_cutoff`` is 100 lines)."""


@dataclass(frozen=True, slots=True)
class Pair:
    """One step of an alignment: which old blocks became which new ones.

    ``old``/``new`` are block positions (several for a split's new side or a merge's old
    side, none for an added or removed block); ``similarity`` is 1.0 for kept and
    identical moved blocks and 0.0 for added and removed ones.
    """

    op: str
    old: tuple[int, ...]
    new: tuple[int, ...]
    similarity: float


@dataclass(frozen=True, slots=True)
class Alignment:
    """The pairs in display order, and the cut-offs that made the result coarser."""

    pairs: tuple[Pair, ...]
    cutoffs: tuple[str, ...] = ()


def align_blocks(old: Sequence[Block], new: Sequence[Block]) -> Alignment:
    """Align two revisions' blocks (see the module docstring).

    Every old position appears in exactly one pair, and so does every new position; the
    pairs with a new side come in the new revision's order, and a removed block comes
    right after the kept or changed block that preceded it in the old revision.
    """
    a = [block.text for block in old]
    b = [block.text for block in new]
    cutoffs: set[str] = set()
    matches = kept_runs(a, b, cutoffs)
    pairs: list[Pair] = [
        Pair(KEPT, (i + n,), (j + n,), 1.0) for i, j, size in matches for n in range(size)
    ]
    runs = replacement_runs(matches, len(a), len(b))
    leftover_old = [i for i1, i2, _, _ in runs for i in range(i1, i2)]
    leftover_new = [j for _, _, j1, j2 in runs for j in range(j1, j2)]
    moved = _identical_moves(a, b, leftover_old, leftover_new)
    pairs += moved
    taken_old = {p.old[0] for p in moved}
    taken_new = {p.new[0] for p in moved}
    sides = _Sides(old, new, leftover_old, leftover_new)
    for i1, i2, j1, j2 in runs:
        olds = [i for i in range(i1, i2) if i not in taken_old]
        news = [j for j in range(j1, j2) if j not in taken_new]
        balanced = len(olds) == len(news)
        head, olds, news, tail = _trim_near(olds, news, sides)
        pairs += head + _pair_run(olds, news, sides, cutoffs, balanced=balanced) + tail
    pairs = _near_moves(pairs, sides, cutoffs)
    return Alignment(_display_order(pairs), tuple(sorted(cutoffs)))


# -- pass 2: identical moves ------------------------------------------------------------


def _identical_moves(
    a: list[str], b: list[str], leftover_old: list[int], leftover_new: list[int]
) -> list[Pair]:
    waiting: dict[str, deque[int]] = defaultdict(deque)
    for j in leftover_new:
        waiting[b[j]].append(j)
    moves = []
    for i in leftover_old:
        queue = waiting.get(a[i])
        if queue:
            moves.append(Pair(MOVED, (i,), (queue.popleft(),), 1.0))
    return moves


# -- pass 3: pairing inside a run ------------------------------------------------------


class _Sides:
    """Word codes, word counts and kinds of the blocks that take part in pairing."""

    def __init__(
        self, old: Sequence[Block], new: Sequence[Block], olds: list[int], news: list[int]
    ) -> None:
        codes = similarity_codes([old[i].text for i in olds] + [new[j].text for j in news])
        self.old_code = dict(zip(olds, codes[: len(olds)], strict=True))
        self.new_code = dict(zip(news, codes[len(olds) :], strict=True))
        self.old = old
        self.new = new
        self._common: dict[tuple[int, int], int] = {}

    def common(self, i: int, j: int) -> int:
        """Words of old block ``i`` and new block ``j`` in common, in order (cached)."""
        key = (i, j)
        found = self._common.get(key)
        if found is None:
            found = self._common[key] = common_words(self.old_code[i], self.new_code[j])
        return found

    def pair_score(self, i: int, j: int, threshold: float) -> tuple[int, float] | None:
        """``(score, similarity)`` if old ``i`` and new ``j`` are similar enough to pair."""
        wa, wb = len(self.old_code[i]), len(self.new_code[j])
        if not wa or not wb:
            # no words to compare ("***", "—"): only the same folded text pairs
            same = wa == wb and fold_text(self.old[i].text) == fold_text(self.new[j].text)
            return (1, 1.0) if same else None
        if 2 * min(wa, wb) < threshold * (wa + wb):
            return None
        value = similarity(self.common(i, j), wa, wb)
        return (self.common(i, j), value) if value >= threshold else None

    def contained(self, whole: int, part: int, *, merge: bool) -> int | None:
        """Words of ``part`` found in order in ``whole`` if at least ``PART_CONTAINMENT`` of
        them are (old ``whole``, new ``part``; the other way round for a merge)."""
        code = self.old_code[part] if merge else self.new_code[part]
        common = self.common(part, whole) if merge else self.common(whole, part)
        return common if code and common >= PART_CONTAINMENT * len(code) else None

    def joined_score(
        self, whole: int, parts: list[int], best_part: int, *, merge: bool
    ) -> tuple[int, float] | None:
        """``(score, similarity)`` of ``whole`` against its ``parts`` joined, if that is a
        split (a merge) and keeps more words than the best part alone."""
        whole_code = self.new_code[whole] if merge else self.old_code[whole]
        joined = "".join(self.old_code[p] if merge else self.new_code[p] for p in parts)
        if 2 * min(len(whole_code), len(joined)) < SPLIT_THRESHOLD * (
            len(whole_code) + len(joined)
        ):
            return None
        common = common_words(whole_code, joined)
        value = similarity(common, len(whole_code), len(joined))
        return (common, value) if value >= SPLIT_THRESHOLD and common > best_part else None


def _trim_near(
    olds: list[int], news: list[int], sides: _Sides
) -> tuple[list[Pair], list[int], list[int], list[Pair]]:
    """Pair near-identical blocks at the start and end of a run, as diff trims equal ones.

    Most edits change a few words of a paragraph in place: those pairs are certain, and
    the programme need not weigh them against every other pairing. A pair is certain at
    ``TRIM_THRESHOLD`` unless its neighbour on either side could be part of a split or a
    merge with it; then the programme decides.
    """
    start, end_old, end_new = 0, len(olds), len(news)
    head: list[Pair] = []
    while start < end_old and start < end_new:
        found = _certain(olds, news, start, start, sides, step=1)
        if found is None:
            break
        head.append(Pair(CHANGED, (olds[start],), (news[start],), found))
        start += 1
    tail: list[Pair] = []
    while end_old > start and end_new > start:
        found = _certain(olds, news, end_old - 1, end_new - 1, sides, step=-1)
        if found is None:
            break
        tail.append(Pair(CHANGED, (olds[end_old - 1],), (news[end_new - 1],), found))
        end_old, end_new = end_old - 1, end_new - 1
    return head, olds[start:end_old], news[start:end_new], tail[::-1]


def _certain(
    olds: list[int], news: list[int], x: int, y: int, sides: _Sides, *, step: int
) -> float | None:
    scored = sides.pair_score(olds[x], news[y], TRIM_THRESHOLD)
    if scored is None:
        return None
    i, j = olds[x], news[y]
    neighbours = 0 <= x + step < len(olds) and 0 <= y + step < len(news)
    if neighbours and sides.pair_score(olds[x + step], news[y + step], TRIM_THRESHOLD):
        return scored[1]  # the neighbours pair with each other: no split or merge here
    if 0 <= y + step < len(news) and news[y + step] == j + step:
        parts = sorted((j, j + step))
        if _would_join(i, parts, scored[0], sides, merge=False):
            return None  # the next new block is the rest of a split
    if 0 <= x + step < len(olds) and olds[x + step] == i + step:
        parts = sorted((i, i + step))
        if _would_join(j, parts, scored[0], sides, merge=True):
            return None  # the next old block was merged in
    return scored[1]


def _would_join(whole: int, parts: list[int], alone: int, sides: _Sides, *, merge: bool) -> bool:
    """True if ``parts`` together explain ``whole`` better than one part (``alone``) does."""
    if any(sides.contained(whole, part, merge=merge) is None for part in parts):
        return False
    return sides.joined_score(whole, parts, alone, merge=merge) is not None


def _pair_run(
    olds: list[int], news: list[int], sides: _Sides, cutoffs: set[str], *, balanced: bool
) -> list[Pair]:
    """The best monotone pairing of one run's old and new blocks, in reading order."""
    m, k = len(olds), len(news)
    if not m or not k:
        return [Pair(REMOVED, (i,), (), 0.0) for i in olds] + [
            Pair(ADDED, (), (j,), 0.0) for j in news
        ]
    reach = max(m, k) * (m + k)  # everything is in band
    if m * k > FULL_PAIRING_LIMIT:
        cutoffs.add("pairing")
        reach = max(m, k) * (max(1, PAIRING_BAND_BUDGET // (2 * max(m, k))) + 1)

    def in_band(i: int, j: int) -> bool:
        return abs(i * k - j * m) <= reach

    best: dict[tuple[int, int], int] = {(m, k): 0}
    step: dict[tuple[int, int], tuple[str, int, int, float]] = {}
    for i in range(m, -1, -1):
        low = max(0, -(-(i * k - reach) // m))
        high = min(k, (i * k + reach) // m)
        for j in range(high, low - 1, -1):
            if (i, j) == (m, k):
                continue
            options: list[tuple[int, str, int, int, float]] = []
            if i < m and j < k:
                threshold = (
                    BALANCED_PAIR_THRESHOLD
                    if balanced and sides.old[olds[i]].kind == sides.new[news[j]].kind
                    else PAIR_THRESHOLD
                )
                scored = sides.pair_score(olds[i], news[j], threshold)
                if scored is not None and (i + 1, j + 1) in best:
                    options.append((best[(i + 1, j + 1)] + scored[0], CHANGED, 1, 1, scored[1]))
                options += _split_options(olds, news, i, j, sides, best, merge=False)
                options += _split_options(olds, news, i, j, sides, best, merge=True)
            if i < m and in_band(i + 1, j) and (i + 1, j) in best:
                options.append((best[(i + 1, j)], REMOVED, 1, 0, 0.0))
            if j < k and in_band(i, j + 1) and (i, j + 1) in best:
                options.append((best[(i, j + 1)], ADDED, 0, 1, 0.0))
            if not options:
                continue
            # the first best option wins: changed, split, merged, removed, added
            score, op, di, dj, value = max(options, key=lambda o: o[0])
            best[(i, j)] = score
            step[(i, j)] = (op, di, dj, value)
    pairs = []
    i = j = 0
    while (i, j) != (m, k):
        op, di, dj, value = step[(i, j)]
        pairs.append(Pair(op, tuple(olds[i : i + di]), tuple(news[j : j + dj]), value))
        i, j = i + di, j + dj
    return pairs


def _split_options(
    olds: list[int],
    news: list[int],
    i: int,
    j: int,
    sides: _Sides,
    best: dict[tuple[int, int], int],
    *,
    merge: bool,
) -> list[tuple[int, str, int, int, float]]:
    whole, many, start = (news[j], olds, i) if merge else (olds[i], news, j)
    first = sides.contained(whole, many[start], merge=merge)
    if first is None:
        return []  # the first part must come from the whole: no split, whatever its size
    options = []
    best_part = first
    for count in range(2, MAX_PARTS + 1):
        parts = many[start : start + count]
        if len(parts) < count or parts[-1] != parts[0] + count - 1:
            break  # parts must be neighbours in the revision
        found = sides.contained(whole, parts[-1], merge=merge)
        if found is None:
            break
        best_part = max(best_part, found)
        target = (i + count, j + 1) if merge else (i + 1, j + count)
        scored = sides.joined_score(whole, parts, best_part, merge=merge)
        if scored is not None and target in best:
            di, dj = (count, 1) if merge else (1, count)
            options.append(
                (best[target] + scored[0], MERGED if merge else SPLIT, di, dj, scored[1])
            )
    return options


# -- pass 4: near-identical moves -------------------------------------------------------


def _near_moves(pairs: list[Pair], sides: _Sides, cutoffs: set[str]) -> list[Pair]:
    """Pair removed and added blocks (and weak pairs' sides) that are near-identical."""
    removed = [p.old[0] for p in pairs if p.op == REMOVED]
    added = [p.new[0] for p in pairs if p.op == ADDED]
    weak = [p for p in pairs if p.op == CHANGED and p.similarity < MOVE_THRESHOLD]
    weak_old = {p.old[0]: p for p in weak}
    weak_new = {p.new[0]: p for p in weak}
    candidates_old = sorted([*removed, *weak_old])
    candidates_new = sorted([*added, *weak_new])
    if not candidates_old or not candidates_new:
        return pairs
    if len(candidates_old) * len(candidates_new) > MOVE_PAIRS_LIMIT:
        cutoffs.add("moves")
        return pairs
    scored = []
    for i in candidates_old:
        for j in candidates_new:
            if i in weak_old and weak_old[i].new[0] == j:
                continue  # that is the weak pair itself
            found = sides.pair_score(i, j, MOVE_THRESHOLD)
            if found is not None:
                scored.append((-found[1], -found[0], i, j))
    if not scored:
        return pairs
    scored.sort()
    moves: list[Pair] = []
    used_old: set[int] = set()
    used_new: set[int] = set()
    for negative, _, i, j in scored:
        if i not in used_old and j not in used_new:
            used_old.add(i)
            used_new.add(j)
            moves.append(Pair(MOVED, (i,), (j,), -negative))
    broken = {weak_old[i] for i in used_old if i in weak_old}
    broken |= {weak_new[j] for j in used_new if j in weak_new}
    kept_pairs = []
    for pair in pairs:
        if pair in broken:
            # the side not taken by a move is on its own now
            if pair.old[0] not in used_old:
                kept_pairs.append(Pair(REMOVED, pair.old, (), 0.0))
            if pair.new[0] not in used_new:
                kept_pairs.append(Pair(ADDED, (), pair.new, 0.0))
        elif not (pair.op == REMOVED and pair.old[0] in used_old) and not (
            pair.op == ADDED and pair.new[0] in used_new
        ):
            kept_pairs.append(pair)
    return kept_pairs + moves


# -- order ------------------------------------------------------------------------------


def _display_order(pairs: list[Pair]) -> tuple[Pair, ...]:
    """New revision's order; each removed block right after its old predecessor's pair."""
    in_place = sorted(
        (p.old[-1], p.new[-1]) for p in pairs if p.op in (KEPT, CHANGED, SPLIT, MERGED)
    )
    last_old = [old for old, _ in in_place]
    keyed = []
    for pair in pairs:
        if pair.new:
            keyed.append(((pair.new[0], 0, 0), pair))
        else:
            before = bisect.bisect_left(last_old, pair.old[0]) - 1
            anchor = in_place[before][1] if before >= 0 else -1
            keyed.append(((anchor, 1, pair.old[0]), pair))
    keyed.sort(key=lambda item: item[0])
    return tuple(pair for _, pair in keyed)
