"""What the classification rules look at: each paired place read, and the blocks that
came and went, with notes and credit lines set apart (pure).

The diff pairs blocks; :func:`build_view` reads every pair's changes once
(:mod:`quietedit.analysis.reading`) and sorts added and removed blocks into plain text,
the publisher's notes (a correction or an update note written into the text) and credit
lines. Blocks a ticker rule claimed are left to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from quietedit.analysis.align import ADDED, KEPT, MERGED, MOVED, REMOVED, SPLIT
from quietedit.analysis.diff import RevisionDiff
from quietedit.analysis.moves import settle_moves
from quietedit.analysis.notes import is_credit_line, note_kind
from quietedit.analysis.reading import read_pair
from quietedit.analysis.verdicts import CREDIT, NOTE, PairReading
from quietedit.analysis.words import diff_words
from quietedit.model import Article


@dataclass(frozen=True, slots=True)
class Placed:
    """Text at one place: ``where`` (``block N``, ``old block N``) and the text."""

    where: str
    text: str


@dataclass(frozen=True, slots=True)
class Credit:
    """A credit line added (``old`` empty), cut (``new`` empty) or changed."""

    where: str
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class View:
    old: Article
    new: Article
    diff: RevisionDiff
    names: bool  # capitalised words count as names (not in German, which capitalises nouns)
    title: PairReading | None
    pairs: tuple[PairReading, ...]  # body blocks paired with words changed, edited index entries
    added: tuple[Placed, ...]  # unclaimed added blocks that are neither notes nor credits
    removed: tuple[Placed, ...]
    notes: tuple[Placed, ...]  # correction and update notes written into the text
    credits: tuple[Credit, ...]
    claimed: frozenset[int]

    def all_pairs(self) -> tuple[PairReading, ...]:
        return ((self.title,) if self.title else ()) + self.pairs

    def added_text(self) -> list[str]:
        """Text the edit added to the body: added blocks, notes and inserted words."""
        return (
            [p.text for p in self.added]
            + [p.text for p in self.notes]
            + [c.new for c in self.credits if c.new]
            + [r.hunk.added for pair in self.pairs for r in pair.readings if r.hunk.added]
        )


def build_view(
    old: Article,
    new: Article,
    diff: RevisionDiff,
    claimed: frozenset[int],
    entry_pairs: tuple[tuple[str, str, str], ...],
    claimed_old: frozenset[int] = frozenset(),
) -> View:
    """Read every pair of ``diff`` and sort the blocks that came and went."""
    names = not (new.publisher.language or old.publisher.language or "").casefold().startswith("de")
    pairs: list[PairReading] = []
    added: list[Placed] = []
    removed: list[Placed] = []
    notes: list[Placed] = []
    credits: list[Credit] = []
    for entry in diff.blocks:
        if entry.op == ADDED and entry.new[0] not in claimed:
            where, text = f"block {entry.new[0] + 1}", entry.text or ""
            if is_credit_line(text):
                credits.append(Credit(where, "", text))
            elif note_kind(text) is not None:
                notes.append(Placed(where, text))
            else:
                added.append(Placed(where, text))
        elif entry.op == REMOVED and entry.old[0] not in claimed_old:
            where, text = f"old block {entry.old[0] + 1}", entry.text or ""
            if is_credit_line(text):
                credits.append(Credit(where, text, ""))
            else:
                removed.append(Placed(where, text))
        elif entry.words and not (entry.new and entry.new[0] in claimed):
            old_text = "\n".join(old.blocks[i].text for i in entry.old)
            new_text = "\n".join(new.blocks[j].text for j in entry.new)
            where = place(entry.op, entry.old, entry.new)
            if is_credit_line(old_text) and is_credit_line(new_text):
                credits.append(Credit(where, old_text, new_text))
                continue
            pair = read_pair(where, entry.words, old_text, new_text, names=names)
            if entry.op in (SPLIT, MERGED) and not pair.readings:
                continue  # only the paragraphing changed
            pairs.append(pair)
            for reading in pair.readings:
                if NOTE in reading.verdicts:
                    notes.append(Placed(where, reading.hunk.added.strip()))
                elif CREDIT in reading.verdicts:
                    credits.append(Credit(where, "", reading.hunk.added.strip()))
    for where, before, after in entry_pairs:
        segments = diff_words(before, after).segments
        pairs.append(read_pair(where, [segments], before, after, names=names))
    title = None
    if diff.title.op != KEPT:
        title = read_pair(
            "title", [diff.title.words], old.title, new.title, names=names, title=True
        )
        credits += [
            Credit("title", r.hunk.removed.strip(), r.hunk.added.strip())
            for r in title.readings
            if CREDIT in r.verdicts
        ]
    # a fact moved between the headline and the text, or named elsewhere all along
    settled = settle_moves(
        [*([title] if title else []), *pairs], lambda: _whole(old), lambda: _whole(new)
    )
    if title is not None:
        title, *pairs = settled
    else:
        pairs = settled
    return View(
        old, new, diff, names, title, tuple(pairs), tuple(added), tuple(removed),
        tuple(notes), tuple(credits), claimed,
    )  # fmt: skip


def _whole(article: Article) -> str:
    return "\n".join([article.title, *(b.text for b in article.blocks)])


def place(op: str, old: tuple[int, ...], new: tuple[int, ...]) -> str:
    """How evidence names the place of a paired entry."""
    if op == MOVED:
        return f"block {new[0] + 1} (moved from {old[0] + 1})"
    if op == SPLIT:
        return f"blocks {new[0] + 1}-{new[-1] + 1}"
    return f"block {new[0] + 1}"
