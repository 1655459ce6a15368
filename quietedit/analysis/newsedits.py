"""Sentence-level edit actions between two revisions, as NewsEdits labels them (pure).

NewsEdits (Spangher, May, Ferrara, Peng, NAACL 2022) describes an article's update by
matching the sentences of the old version to those of the new one and labelling each
sentence: **addition** (a new sentence with no match), **deletion** (an old sentence with
no match), **edit** (a matched sentence whose text changed) and **refactor** (a matched
sentence that changed its place in the order of the others). This module computes the
same labels over quietedit's revisions:

1. Both revisions' body blocks are cut into sentences
   (:func:`~quietedit.analysis.sentences.split_sentences`); the title is not a sentence.
2. Sentences equal after the content hash's folding are matched first, in order, first
   with first (a repeated sentence pairs with its own copy).
3. The rest are matched one to one by word similarity, ``2 * LCS / (old words + new
   words)`` over folded, case-folded words (the diff's own measure,
   :mod:`quietedit.analysis.words`), at :data:`MATCH_THRESHOLD` or more, best pairs first
   (ties: the pair nearest the same relative place, then reading order). NewsEdits matches
   with a sentence-similarity threshold too, but allows one sentence to match several (a
   split or a merge); here a split leaves its second half an addition.
4. Among the matched pairs in old order, the longest run in which the new order also rises
   stays in place; every other matched pair is a **refactor** (the fewest sentences that
   explain the reordering, as NewsEdits defines it), whether or not its text changed too.

Labels are ``added``, ``deleted``, ``edited``, ``refactored`` and ``unchanged``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from quietedit.analysis.sentences import split_sentences
from quietedit.analysis.words import common_words, similarity, similarity_codes
from quietedit.article.fingerprint import fold_text
from quietedit.model import JSON

MATCH_THRESHOLD: Final = 0.5
"""Word similarity from which two different sentences are the same sentence edited: half
their words kept in order, as the diff pairs blocks (:mod:`quietedit.analysis.align`)."""
MAX_COMPARISONS: Final = 250_000
"""Unmatched old x new sentences above which no fuzzy matching is tried (the rest are
additions and deletions): 500 x 500 sentences, far beyond a news article."""

ADDED: Final = "added"
DELETED: Final = "deleted"
EDITED: Final = "edited"
REFACTORED: Final = "refactored"
UNCHANGED: Final = "unchanged"
LABELS: Final = (ADDED, DELETED, EDITED, REFACTORED, UNCHANGED)


@dataclass(frozen=True, slots=True)
class SentenceRef:
    """A sentence of a revision: its text, the block it is in (from 0) and its label."""

    block: int
    text: str
    op: str


@dataclass(frozen=True, slots=True)
class SentenceMatch:
    """Old sentence ``old`` matched to new sentence ``new`` (indexes from 0)."""

    old: int
    new: int
    similarity: float
    op: str


@dataclass(frozen=True, slots=True)
class SentenceEdits:
    """Both revisions' sentences, labelled, and the matches between them."""

    old: tuple[SentenceRef, ...]
    new: tuple[SentenceRef, ...]
    matches: tuple[SentenceMatch, ...]
    cutoff: bool = False  # MAX_COMPARISONS hit: unmatched sentences were not compared

    def counts(self) -> dict[str, int]:
        """How many sentences carry each label (an old and a new sentence matched count
        once, as one edited, refactored or unchanged sentence)."""
        found = dict.fromkeys(LABELS, 0)
        for ref in self.old:
            found[ref.op] += 1
        found[ADDED] = sum(ref.op == ADDED for ref in self.new)
        return found


def sentences_of(blocks: Sequence[str]) -> tuple[tuple[int, str], ...]:
    """``(block, sentence)`` for every sentence of ``blocks``, in reading order."""
    return tuple((n, s) for n, text in enumerate(blocks) for s in split_sentences(text))


def sentence_edits(old_blocks: Sequence[str], new_blocks: Sequence[str]) -> SentenceEdits:
    """Match and label the sentences of two revisions' blocks (see the module docstring)."""
    old = sentences_of(old_blocks)
    new = sentences_of(new_blocks)
    pairs, cutoff = _match(old, new)
    moved = _refactored(pairs)
    matches = []
    old_ops = [DELETED] * len(old)
    new_ops = [ADDED] * len(new)
    for i, j, score in sorted(pairs):
        if (i, j) in moved:
            op = REFACTORED
        elif old[i][1] != new[j][1]:
            op = EDITED
        else:
            op = UNCHANGED
        old_ops[i] = new_ops[j] = op
        matches.append(SentenceMatch(i, j, round(score, 3), op))
    return SentenceEdits(
        tuple(SentenceRef(b, t, op) for (b, t), op in zip(old, old_ops, strict=True)),
        tuple(SentenceRef(b, t, op) for (b, t), op in zip(new, new_ops, strict=True)),
        tuple(matches),
        cutoff,
    )


def _match(
    old: Sequence[tuple[int, str]], new: Sequence[tuple[int, str]]
) -> tuple[list[tuple[int, int, float]], bool]:
    folded_old = [fold_text(text) for _, text in old]
    folded_new = [fold_text(text) for _, text in new]
    waiting: defaultdict[str, list[int]] = defaultdict(list)
    for i, text in enumerate(folded_old):
        waiting[text].append(i)
    pairs: list[tuple[int, int, float]] = []
    for j, text in enumerate(folded_new):
        if waiting.get(text):
            pairs.append((waiting[text].pop(0), j, 1.0))
    left = sorted(set(range(len(old))) - {i for i, _, _ in pairs})
    right = sorted(set(range(len(new))) - {j for _, j, _ in pairs})
    if len(left) * len(right) > MAX_COMPARISONS:
        return pairs, True
    codes = similarity_codes([folded_old[i] for i in left] + [folded_new[j] for j in right])
    old_codes, new_codes = codes[: len(left)], codes[len(left) :]
    candidates = []
    for a, i in enumerate(left):
        for b, j in enumerate(right):
            common = common_words(old_codes[a], new_codes[b])
            score = similarity(common, len(old_codes[a]), len(new_codes[b]))
            if common and score >= MATCH_THRESHOLD:
                place = abs(i / max(len(old), 1) - j / max(len(new), 1))
                candidates.append((-score, place, i, j))
    used_old: set[int] = set()
    used_new: set[int] = set()
    for negative, _, i, j in sorted(candidates):
        if i not in used_old and j not in used_new:
            used_old.add(i)
            used_new.add(j)
            pairs.append((i, j, -negative))
    return pairs, False


def _refactored(pairs: Sequence[tuple[int, int, float]]) -> set[tuple[int, int]]:
    """The matched pairs outside a longest run rising in both orders (the fewest moves)."""
    ordered = sorted((i, j) for i, j, _ in pairs)
    tails: list[int] = []  # smallest new index ending a rising run of each length
    tail_at: list[int] = []  # which pair that is
    back: list[int] = [-1] * len(ordered)
    for k, (_, j) in enumerate(ordered):
        length = bisect_left(tails, j)
        if length == len(tails):
            tails.append(j)
            tail_at.append(k)
        else:
            tails[length] = j
            tail_at[length] = k
        back[k] = tail_at[length - 1] if length else -1
    kept = set()
    k = tail_at[-1] if tail_at else -1
    while k != -1:
        kept.add(ordered[k])
        k = back[k]
    return set(ordered) - kept


def edits_record(edits: SentenceEdits) -> dict[str, JSON]:
    """The sentences, matches and counts of :func:`sentence_edits` as JSON values."""
    return {
        "counts": dict(edits.counts()),
        "cutoff": edits.cutoff,
        "matches": [
            {"new": m.new, "old": m.old, "op": m.op, "similarity": m.similarity}
            for m in edits.matches
        ],
        "new_sentences": [{"block": s.block, "op": s.op, "text": s.text} for s in edits.new],
        "old_sentences": [{"block": s.block, "op": s.op, "text": s.text} for s in edits.old],
    }
