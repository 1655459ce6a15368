"""Live blogs and tickers: their own machinery changing is not an edit of the story.

A live blog adds timestamped entries all day, and many tickers keep an *index line*
("Key events: 14:05 Bridge shut · 13:40 Trains halted · …") that they rewrite with
every entry. Both are claimed here, so the rest of the classification sees only what is
left: an edit *inside* an old entry, or of the lede, is still classified as such.

Beyond the seed's ``IndexLineRewrite``: a block is read as an index line only in a live
article (live headline, or two timestamped blocks already) or when most of its entries
open with a clock time, and never when its old and new entries share nothing (that is a
replacement, not a rewrite); and the claim is per entry, not per paragraph: an entry
whose words changed (same time, or half its words kept) is handed back as its own text
pair for the typo, style and facts rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from quietedit.analysis.align import ADDED as ADDED_OP
from quietedit.analysis.align import CHANGED, MOVED
from quietedit.analysis.align import REMOVED as REMOVED_OP
from quietedit.analysis.diff import RevisionDiff
from quietedit.analysis.findings import (
    INDEX_LINE_REWRITE,
    LIVE_UPDATE,
    Finding,
    Mark,
    Sentence,
    Significance,
    finding,
    sentence_at,
)
from quietedit.analysis.lexicon import IndexLine, has_live_title, index_line, starts_with_time
from quietedit.analysis.words import common_words, similarity, similarity_codes
from quietedit.article.fingerprint import fold_text
from quietedit.model import Article

ENTRY_PAIR_THRESHOLD: Final = 0.5
"""Least word similarity for an old and a new index entry to be one entry edited."""


@dataclass(frozen=True, slots=True)
class TickerClaims:
    """What the ticker rules explain: findings, claimed new blocks, and entry text pairs
    (``where``, old, new) handed back to the other rules."""

    findings: tuple[Finding, ...] = ()
    claimed: frozenset[int] = frozenset()
    entry_pairs: tuple[tuple[str, str, str], ...] = ()
    claimed_old: frozenset[int] = frozenset()  # old blocks explained (a rewritten index line)


def is_live(old: Article, new: Article) -> bool:
    """A live blog or ticker: a live headline, or two timestamped blocks already."""
    if has_live_title(old.title) or has_live_title(new.title):
        return True
    return sum(starts_with_time(block.text) for block in old.blocks) >= 2


def ticker_claims(old: Article, new: Article, diff: RevisionDiff) -> TickerClaims:
    """Index-line rewrites and live entries added, as findings and claimed blocks."""
    live = is_live(old, new)
    findings: list[Finding] = []
    claimed: set[int] = set()
    claimed_old: set[int] = set()
    evidence: list[str] = []
    sentences: list[Sentence] = []
    pairs: list[tuple[str, str, str]] = []
    for i, j in _index_candidates(diff, live=live):
        before = index_line(old.blocks[i].text)
        after = index_line(new.blocks[j].text)
        if before is None or after is None or before.delimiter != after.delimiter:
            continue
        if not (live or _mostly_timed(before) or _mostly_timed(after)):
            continue
        where = f"block {j + 1}"
        rewrite = _rewrite(before, after, where)
        if rewrite is None:
            continue
        line, edited = rewrite
        claimed.add(j)
        claimed_old.add(i)
        pairs += edited
        if line:
            evidence.append(line)
            sentences.append(_index_sentence(where, old.blocks[i].text, new.blocks[j].text))
    if evidence:
        findings.append(finding(INDEX_LINE_REWRITE, Significance.COSMETIC, evidence, sentences))
    if live:
        added, timed = _live_entries(diff, new)
        timed = [j for j in timed if j not in claimed]
        if timed:
            claimed |= added
            blocks = ", ".join(str(j + 1) for j in timed)
            count = len(timed)
            line = f"{count} timestamped entr{'ies' if count > 1 else 'y'} added (block {blocks})"
            entries = [_entry_sentence(j, new.blocks[j].text) for j in timed]
            findings.append(finding(LIVE_UPDATE, Significance.MINOR, [line], entries))
    return TickerClaims(tuple(findings), frozenset(claimed), tuple(pairs), frozenset(claimed_old))


def _index_candidates(diff: RevisionDiff, *, live: bool) -> list[tuple[int, int]]:
    """Old and new positions that may hold one index line: a changed or moved pair, and
    in a live article a removed block with an added one (a line whose entries nearly all
    changed is too unlike its old self for the alignment to pair it)."""
    found = [
        (entry.old[0], entry.new[0])
        for entry in diff.blocks
        if entry.op in (CHANGED, MOVED) and entry.words
    ]
    if live:
        removed = [e.old[0] for e in diff.blocks if e.op == REMOVED_OP]
        added = [e.new[0] for e in diff.blocks if e.op == ADDED_OP]
        found += [(i, j) for i in removed[:1] for j in added[:1]]
    return found


def _index_sentence(where: str, old: str, new: str) -> Sentence:
    """The two index lines, the entries only one of them has marked."""
    before, after = index_line(old), index_line(new)
    old_keys = {fold_text(e) for e in (after.entries if after else ())}
    new_keys = {fold_text(e) for e in (before.entries if before else ())}
    return Sentence(
        where,
        old,
        new,
        _entry_marks(old, before.entries if before else (), old_keys),
        _entry_marks(new, after.entries if after else (), new_keys),
    )


def _entry_marks(text: str, entries: tuple[str, ...], other: set[str]) -> tuple[Mark, ...]:
    marks, position = [], 0
    for entry in entries:
        at = text.find(entry, position)
        if at == -1:
            continue
        position = at + len(entry)
        if fold_text(entry) not in other:
            marks.append((at, at + len(entry)))
    return tuple(marks)


def _entry_sentence(position: int, text: str) -> Sentence:
    """A live entry's first sentence, its clock time marked."""
    first, _ = sentence_at(text, [(0, 0)])
    time = text.split()[0] if text.split() else ""
    marks = ((0, len(time)),) if time and first.startswith(time) else ()
    return Sentence(f"block {position + 1}", "", first, (), marks)


def _mostly_timed(line: IndexLine) -> bool:
    return 2 * sum(starts_with_time(entry) for entry in line.entries) >= len(line.entries)


def _rewrite(
    before: IndexLine, after: IndexLine, where: str
) -> tuple[str, list[tuple[str, str, str]]] | None:
    """The evidence line for one index line and its edited entries, or None if not a rewrite."""
    old_keys = [fold_text(e) for e in before.entries]
    new_keys = [fold_text(e) for e in after.entries]
    shared = [k for k in new_keys if k in old_keys]
    if not shared:
        return None
    dropped = [e for e, k in zip(before.entries, old_keys, strict=True) if k not in new_keys]
    added = [e for e, k in zip(after.entries, new_keys, strict=True) if k not in old_keys]
    edited: list[tuple[str, str, str]] = []
    for old_entry in list(dropped):
        partner = _partner(old_entry, added)
        if partner is not None:
            dropped.remove(old_entry)
            added.remove(partner)
            edited.append((f"{where} index entry", old_entry, partner))
    reordered = [k for k in old_keys if k in shared] != shared
    parts = []
    if added:
        parts.append(f"{len(added)} entr{'ies' if len(added) > 1 else 'y'} added")
    if dropped:
        parts.append(f"{len(dropped)} dropped")
    if reordered:
        parts.append("reordered")
    if before.label != after.label:
        parts.append(f"label “{before.label}” → “{after.label}”")
    line = f"{where}: index line rewritten: {', '.join(parts)}" if parts else ""
    return line, edited


def _partner(entry: str, candidates: list[str]) -> str | None:
    """The new entry that is this old entry edited: the same clock time, or similar words."""
    time = entry.split()[0] if starts_with_time(entry) else None
    best: tuple[float, str] | None = None
    for candidate in candidates:
        if time is not None and candidate.split()[0] == time:
            return candidate
        a, b = similarity_codes([entry, candidate])
        value = similarity(common_words(a, b), len(a), len(b))
        if value >= ENTRY_PAIR_THRESHOLD and (best is None or value > best[0]):
            best = (value, candidate)
    return best[1] if best else None


def _live_entries(diff: RevisionDiff, new: Article) -> tuple[set[int], list[int]]:
    """Added blocks from a timestamped one to the end of its run of additions."""
    claimed: set[int] = set()
    timed: list[int] = []
    in_entry = False
    for entry in diff.blocks:
        if entry.op != ADDED_OP:
            in_entry = False
            continue
        position = entry.new[0]
        if starts_with_time(new.blocks[position].text):
            in_entry = True
            timed.append(position)
        if in_entry:
            claimed.add(position)
    return claimed, timed
