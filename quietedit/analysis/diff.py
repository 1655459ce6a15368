"""The diff of two revisions: title, aligned blocks with word-level changes, and a summary.

``diff_revisions(old, new).to_dict()`` is the public "Diff JSON" format documented in
docs/diff-json.md; it is self-contained (a page can be rendered from it alone) and deterministic.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from quietedit.analysis.align import (
    ADDED,
    BLOCK_OPS,
    CHANGED,
    KEPT,
    MERGED,
    MOVED,
    REMOVED,
    SPLIT,
    Alignment,
    Pair,
    align_blocks,
)
from quietedit.analysis.words import (
    DELETE,
    INSERT,
    MAX_WORD_DIFF_COMPLEXITY,
    Segment,
    common_words,
    count_words,
    diff_word_parts,
    similarity,
    similarity_codes,
)
from quietedit.errors import RevisionNotFoundError
from quietedit.model import JSON, Article, Block
from quietedit.revisions import Revision

DIFF_SCHEMA: Final = 1
"""Version of the Diff JSON format; bumped on any change a reader would notice."""

WORD_DIFF_BUDGET: Final = 2_000_000
"""Characters (old plus new) word-diffed per revision pair; pairs beyond it get the coarse
form (common start and end kept, the middle one removal and one addition). About 300,000
words: only a pathological pair of revisions reaches it."""


@dataclass(frozen=True, slots=True)
class BlockChange:
    """One entry of the diff: what became of one block (or of the blocks of a split/merge).

    ``old``/``new`` are positions in the old and new revision's blocks; ``kinds`` are the
    new blocks' kinds (the old block's for a removed one) and ``old_kinds`` the old
    blocks'. ``text`` is set for kept, added, removed and identical moved blocks;
    ``words`` for the others: one word diff for a changed or moved block, one per new
    block for a split, one per old block for a merge.
    """

    op: str
    old: tuple[int, ...]
    new: tuple[int, ...]
    kinds: tuple[str, ...]
    old_kinds: tuple[str, ...]
    similarity: float
    text: str | None = None
    words: tuple[tuple[Segment, ...], ...] = ()

    def segments(self) -> tuple[Segment, ...]:
        """All word segments of the entry in reading order (parts joined)."""
        return tuple(segment for part in self.words for segment in part)

    def to_dict(self) -> dict[str, JSON]:
        """This entry in the Diff JSON format (see docs/diff-json.md)."""
        record: dict[str, JSON] = {"op": self.op}
        if self.op == SPLIT:
            record |= {"old": self.old[0], "new": list(self.new), "kind": list(self.kinds)}
        elif self.op == MERGED:
            record |= {"old": list(self.old), "new": self.new[0], "kind": self.kinds[0]}
        else:
            if self.old:
                record["old"] = self.old[0]
            if self.new:
                record["new"] = self.new[0]
            record["kind"] = self.kinds[0]
            if self.old and self.new and self.old_kinds != self.kinds:
                record["old_kind"] = self.old_kinds[0]
        if self.op not in (KEPT, ADDED, REMOVED):
            record["similarity"] = round(self.similarity, 3)
        if self.text is not None:
            record["text"] = self.text
        if self.op in (SPLIT, MERGED):
            record["words"] = [_segments_json(part) for part in self.words]
        elif self.words:
            record["words"] = _segments_json(self.words[0])
        return record


@dataclass(frozen=True, slots=True)
class TitleChange:
    """The headline: ``kept`` (with its ``text``) or ``changed`` (with its ``words``)."""

    op: str
    similarity: float
    text: str | None = None
    words: tuple[Segment, ...] = ()

    def to_dict(self) -> dict[str, JSON]:
        if self.op == KEPT:
            return {"op": KEPT, "text": self.text}
        return {
            "op": CHANGED,
            "similarity": round(self.similarity, 3),
            "words": _segments_json(self.words),
        }


@dataclass(frozen=True, slots=True)
class DiffSummary:
    """Counts of the block entries by op, words added and removed in the body, and flags.

    ``cutoffs`` names the limits that made the diff coarser than usual (``alignment``,
    ``pairing``, ``moves``, ``words``); it is empty for any ordinary article.
    """

    counts: tuple[tuple[str, int], ...]
    words_added: int
    words_removed: int
    title_changed: bool
    cutoffs: tuple[str, ...] = ()

    def count(self, op: str) -> int:
        return dict(self.counts).get(op, 0)

    def to_dict(self) -> dict[str, JSON]:
        record: dict[str, JSON] = {op: self.count(op) for op in BLOCK_OPS}
        record |= {
            "words_added": self.words_added,
            "words_removed": self.words_removed,
            "title_changed": self.title_changed,
            "cutoffs": list(self.cutoffs),
        }
        return record


@dataclass(frozen=True, slots=True)
class RevisionDiff:
    """What changed between two revisions: the title, each block, and a summary."""

    title: TitleChange
    blocks: tuple[BlockChange, ...]
    summary: DiffSummary

    @property
    def changed(self) -> bool:
        """True when the title or any block differs (a move counts)."""
        return self.summary.title_changed or any(b.op != KEPT for b in self.blocks)

    def to_dict(self) -> dict[str, JSON]:
        """The Diff JSON (docs/diff-json.md): schema, title, blocks and summary."""
        return {
            "schema": DIFF_SCHEMA,
            "title": self.title.to_dict(),
            "blocks": [block.to_dict() for block in self.blocks],
            "summary": self.summary.to_dict(),
        }


def diff_revisions(old: Article | Revision, new: Article | Revision) -> RevisionDiff:
    """Diff two revisions (or two articles): aligned blocks, word changes and a summary.

    Pure and deterministic: the same two inputs always give an equal result and an
    identical ``to_dict()``. Blocks are compared by their exact text (so a quote-mark or
    spacing change shows, as a change the classifier calls cosmetic); kinds are carried
    along but a block re-marked from paragraph to heading alone is kept.
    """
    before, after = as_article(old), as_article(new)
    alignment = align_blocks(before.blocks, after.blocks)
    builder = _Builder(before.blocks, after.blocks)
    blocks = tuple(builder.change(pair) for pair in alignment.pairs)
    title = _title_change(before.title, after.title, builder)
    return RevisionDiff(title, blocks, _summary(blocks, title, alignment, builder))


def as_article(value: Article | Revision) -> Article:
    """The article of a revision, or the article itself."""
    return value.article if isinstance(value, Revision) else value


def choose_pair(
    revisions: Sequence[Revision],
    *,
    document: str,
    from_number: int | None = None,
    to_number: int | None = None,
) -> tuple[Revision, Revision]:
    """The two revisions to diff: by default the newest pair; ``to`` alone means against
    its predecessor; ``from`` alone means against the newest.

    Raises ``RevisionNotFoundError``, naming the revisions there are, when a number does
    not exist, has nothing to be compared with, or the document has fewer than two
    revisions; ``ValueError`` when both are given and ``from`` is not older than ``to``.
    """
    count = len(revisions)
    if count < 2:
        plural = "s" if count != 1 else ""
        raise RevisionNotFoundError(
            f"document {document!r} has {count} revision{plural}; a diff needs two"
        )
    by_number = {revision.number: revision for revision in revisions}
    last = revisions[-1].number
    span = f"its revisions are 1 to {last}"
    for number in (from_number, to_number):
        if number is not None and number not in by_number:
            raise RevisionNotFoundError(f"document {document!r} has no revision {number}; {span}")
    if from_number is not None and to_number is not None and from_number >= to_number:
        raise ValueError(f"revision {from_number} is not older than revision {to_number}")
    if from_number is not None and to_number is None and from_number == last:
        raise RevisionNotFoundError(
            f"revision {from_number} of {document!r} is the newest; nothing to compare it with"
        )
    if to_number is not None and from_number is None and to_number == revisions[0].number:
        raise RevisionNotFoundError(
            f"revision {to_number} of {document!r} is the first; it has no predecessor ({span})"
        )
    to = to_number if to_number is not None else last
    start = from_number if from_number is not None else to - 1
    return by_number[start], by_number[to]


# -- building the entries ---------------------------------------------------------------


class _Builder:
    """Turns alignment pairs into entries, spending the word-diff budget as it goes."""

    def __init__(self, old: Sequence[Block], new: Sequence[Block]) -> None:
        self.old = old
        self.new = new
        self.budget = WORD_DIFF_BUDGET
        self.coarse = False

    def words(
        self, old_parts: Sequence[str], new_parts: Sequence[str]
    ) -> tuple[tuple[Segment, ...], ...]:
        size = sum(map(len, old_parts)) + sum(map(len, new_parts))
        limit = MAX_WORD_DIFF_COMPLEXITY if size <= self.budget else 0
        self.budget -= size
        parts, coarse = diff_word_parts(old_parts, new_parts, limit=limit)
        self.coarse |= coarse
        return parts

    def change(self, pair: Pair) -> BlockChange:
        old = [self.old[i] for i in pair.old]
        new = [self.new[j] for j in pair.new]
        kinds = tuple(b.kind for b in new or old)
        old_kinds = tuple(b.kind for b in old)
        if pair.op in (KEPT, ADDED, REMOVED) or (pair.op == MOVED and old[0].text == new[0].text):
            value = 0.0 if pair.op in (ADDED, REMOVED) else 1.0
            text = (new or old)[0].text
            return BlockChange(pair.op, pair.old, pair.new, kinds, old_kinds, value, text=text)
        words = self.words([b.text for b in old], [b.text for b in new])
        return BlockChange(
            pair.op, pair.old, pair.new, kinds, old_kinds, pair.similarity, words=words
        )


def _title_change(old: str, new: str, builder: _Builder) -> TitleChange:
    if old == new:
        return TitleChange(KEPT, 1.0, text=new)
    a, b = similarity_codes([old, new])
    value = similarity(common_words(a, b), len(a), len(b)) if a or b else 0.0
    return TitleChange(CHANGED, value, words=builder.words([old], [new])[0])


def _summary(
    blocks: tuple[BlockChange, ...], title: TitleChange, alignment: Alignment, builder: _Builder
) -> DiffSummary:
    counts = Counter(block.op for block in blocks)
    added = removed = 0
    for block in blocks:
        if block.op == ADDED and block.text is not None:
            added += count_words(block.text)
        elif block.op == REMOVED and block.text is not None:
            removed += count_words(block.text)
        for op, text in block.segments():
            if op == INSERT:
                added += count_words(text)
            elif op == DELETE:
                removed += count_words(text)
    cutoffs = set(alignment.cutoffs) | ({"words"} if builder.coarse else set())
    return DiffSummary(
        counts=tuple((op, counts[op]) for op in BLOCK_OPS),
        words_added=added,
        words_removed=removed,
        title_changed=title.op == CHANGED,
        cutoffs=tuple(sorted(cutoffs)),
    )


def _segments_json(segments: tuple[Segment, ...]) -> list[JSON]:
    return [[op, text] for op, text in segments]
