"""What kind of change an edit is, how much it matters, and whether the publisher said so.

``classify_change(old, new)`` runs small pure rules over the diff, each returning a
:class:`~quietedit.analysis.findings.Finding` (a kind from the vocabulary in
``findings.py``, a significance, and its evidence) or nothing. The order matters only
for claims: encoding repairs are taken out first (the repaired old revision is diffed
again, so an edit shipped with a repair is still seen), then the ticker rules claim a
live blog's new entries and index-line rewrites, and the remaining rules look at what is
left. The edit's significance is its most significant finding's (cosmetic when nothing
changed). ``.silent`` compares the edit with the publisher's own signals
(``signals.py``).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Final

from quietedit.analysis import findings as k
from quietedit.analysis.align import ADDED, KEPT, MERGED, MOVED, REMOVED, SPLIT
from quietedit.analysis.diff import RevisionDiff, as_article, diff_revisions
from quietedit.analysis.facts import fact_changes
from quietedit.analysis.findings import Finding, Significance, finding
from quietedit.analysis.lexicon import FACTS, SPELLING, TYPO_NATURES, WORDS, hunk_nature, quotations
from quietedit.analysis.repair import repair_article, summarise
from quietedit.analysis.signals import (
    ExternalSignals,
    Signal,
    excerpt,
    is_silent,
    new_notes,
    note_phrases,
    publisher_signals,
)
from quietedit.analysis.tickers import ticker_claims
from quietedit.analysis.words import Hunk, count_words, diff_words, hunks
from quietedit.article.fingerprint import fold_text
from quietedit.model import JSON, Article
from quietedit.revisions import Revision

_WORD: Final = re.compile(r"\w+")

PASSAGE_WORDS: Final = 5
"""A pure insertion or deletion inside a block of at least this many words is a passage
added or removed, not a rewording."""
SMALL_WORDS: Final = 8
"""Added or removed text under this many words (and, removed, without a number) is minor."""
MINOR_STYLE_WORDS: Final = 4
"""A rewording of at most this many words (removed plus added) is minor."""


@dataclass(frozen=True, slots=True)
class Classification:
    """The kinds of change found, the edit's significance, and the silent verdict.

    ``findings`` are sorted by kind; ``signals`` lists every publisher signal checked,
    seen or not; ``silent`` is true for an edit with no signal seen.
    """

    findings: tuple[Finding, ...]
    significance: Significance
    silent: bool
    signals: tuple[Signal, ...]

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(f.kind for f in self.findings)

    def evidence(self, kind: str) -> tuple[str, ...]:
        """The evidence lines of ``kind`` (empty when it was not found)."""
        return next((f.evidence for f in self.findings if f.kind == kind), ())

    def to_dict(self) -> dict[str, JSON]:
        """``kinds`` (sorted names), ``findings`` (per kind: significance and evidence),
        ``significance``, ``silent`` and ``signals`` (see docs/diff-json.md)."""
        return {
            "kinds": [f.kind for f in self.findings],
            "findings": {f.kind: f.to_dict() for f in self.findings},
            "significance": self.significance.label,
            "silent": self.silent,
            "signals": [s.to_dict() for s in self.signals],
        }


def classify_change(
    old: Article | Revision,
    new: Article | Revision,
    *,
    diff: RevisionDiff | None = None,
    signals: ExternalSignals | None = None,
) -> Classification:
    """Classify the edit from ``old`` to ``new`` (Articles or revisions).

    ``diff`` saves recomputing ``diff_revisions(old, new)``; ``signals`` carries what the
    feed stage knows (sitemap ``lastmod``, feed ``updated``). Pure and deterministic.
    """
    before, after = as_article(old), as_article(new)
    first = diff if diff is not None else diff_revisions(before, after)
    repaired, repairs = repair_article(before, after, first)
    working = diff_revisions(repaired, after) if repairs else first
    found: list[Finding] = []
    if repairs:
        found.append(finding(k.ENCODING_REPAIR, Significance.COSMETIC, summarise(repairs)))
    claims = ticker_claims(repaired, after, working)
    found += claims.findings
    view = _View.build(repaired, after, working, claims.claimed, claims.entry_pairs)
    for rule in _RULES:
        result = rule(view)
        if result is not None:
            found.append(result)
    found.sort(key=lambda f: f.kind)
    seen = publisher_signals(before, after, added_text=view.added_text(), external=signals)
    return Classification(
        findings=tuple(found),
        significance=max((f.significance for f in found), default=Significance.COSMETIC),
        silent=is_silent(seen, edited=first.changed),
        signals=seen,
    )


# -- what the rules look at --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Pair:
    """Old and new text of one place, its word changes, how deep each goes, and the
    numbers, dates and names that changed (empty when none did)."""

    where: str
    old: str
    new: str
    hunks: tuple[Hunk, ...]
    natures: tuple[str, ...]
    facts: str

    @classmethod
    def of(cls, where: str, old: str, new: str, changes: list[Hunk], *, names: bool) -> _Pair:
        natures = tuple(hunk_nature(h.removed, h.added, names=names) for h in changes)
        pair = cls(where, old, new, tuple(changes), natures, "")
        if set(natures) <= TYPO_NATURES:
            return pair  # a respelt or re-capitalised name is a typo, not a new name
        old_text, new_text = old, new
        for hunk in changes:
            if _passage(hunk):  # passages added or removed whole are added/removed findings
                old_text = old_text.replace(hunk.removed, " ", 1) if hunk.removed else old_text
                new_text = new_text.replace(hunk.added, " ", 1) if hunk.added else new_text
        return replace(pair, facts=fact_changes(old_text, new_text, names=names))


@dataclass(frozen=True, slots=True)
class _View:
    old: Article
    new: Article
    diff: RevisionDiff
    names: bool  # capitalised words count as names (not in German, which capitalises nouns)
    title: _Pair | None
    pairs: tuple[_Pair, ...]  # body blocks paired with words changed, and edited index entries
    added: tuple[tuple[str, str], ...]  # (where, text) of unclaimed added blocks
    removed: tuple[tuple[str, str], ...]
    claimed: frozenset[int] = field(default_factory=frozenset)

    @classmethod
    def build(
        cls,
        old: Article,
        new: Article,
        diff: RevisionDiff,
        claimed: frozenset[int],
        entry_pairs: tuple[tuple[str, str, str], ...],
    ) -> _View:
        names = (
            not (new.publisher.language or old.publisher.language or "").casefold().startswith("de")
        )
        pairs = []
        added, removed = [], []
        for entry in diff.blocks:
            if entry.op == ADDED and entry.new[0] not in claimed:
                added.append((f"block {entry.new[0] + 1}", entry.text or ""))
            elif entry.op == REMOVED:
                removed.append((f"old block {entry.old[0] + 1}", entry.text or ""))
            elif entry.words and not (entry.new and entry.new[0] in claimed):
                # per part, so that a change never straddles a split or merge boundary
                changes = [hunk for part in entry.words for hunk in hunks(part)]
                if entry.op in (SPLIT, MERGED) and not changes:
                    continue  # only the paragraphing changed
                pairs.append(
                    _Pair.of(
                        _where(entry.op, entry.old, entry.new),
                        " ".join(old.blocks[i].text for i in entry.old),
                        " ".join(new.blocks[j].text for j in entry.new),
                        changes,
                        names=names,
                    )
                )
        for where, before, after in entry_pairs:
            changes = hunks(diff_words(before, after).segments)
            pairs.append(_Pair.of(where, before, after, changes, names=names))
        title = None
        if diff.title.op != KEPT:
            changes = hunks(diff.title.words)
            title = _Pair.of("title", old.title, new.title, changes, names=names)
        return cls(
            old, new, diff, names, title, tuple(pairs), tuple(added), tuple(removed), claimed
        )

    def all_pairs(self) -> tuple[_Pair, ...]:
        return ((self.title,) if self.title else ()) + self.pairs

    def added_text(self) -> list[str]:
        """Text the edit added to the body: added blocks and inserted words."""
        return [text for _, text in self.added] + [
            hunk.added for pair in self.pairs for hunk in pair.hunks if hunk.added
        ]


def _where(op: str, old: tuple[int, ...], new: tuple[int, ...]) -> str:
    if op == MOVED:
        return f"block {new[0] + 1} (moved from {old[0] + 1})"
    if op == SPLIT:
        return f"blocks {new[0] + 1}-{new[-1] + 1}"
    return f"block {new[0] + 1}"


def _quote(text: str) -> str:
    return f"“{excerpt(text, 80)}”"


def _change(removed: str, added: str) -> str:
    return f"{_quote(removed) if removed else '∅'} → {_quote(added) if added else '∅'}"


# -- the rules ---------------------------------------------------------------------------


def _typo(view: _View) -> Finding | None:
    evidence, respelt = [], False
    for pair in view.all_pairs():
        if not pair.hunks:
            evidence.append(f"{pair.where}: white space")
        for hunk, nature in zip(pair.hunks, pair.natures, strict=True):
            if nature in TYPO_NATURES:
                respelt |= nature == SPELLING
                evidence.append(f"{pair.where}: {hunk.markup()}")
    if not evidence:
        return None
    return finding(k.TYPO, Significance.MINOR if respelt else Significance.COSMETIC, evidence)


def _style(view: _View) -> Finding | None:
    evidence, words = [], 0
    for pair in view.all_pairs():
        for hunk, nature in zip(pair.hunks, pair.natures, strict=True):
            if _passage(hunk):
                continue
            if nature == WORDS or (nature == FACTS and not pair.facts):
                words += count_words(hunk.removed) + count_words(hunk.added)
                evidence.append(f"{pair.where}: {hunk.markup()}")
    if not evidence:
        return None
    minor = words <= MINOR_STYLE_WORDS
    return finding(k.STYLE, Significance.MINOR if minor else Significance.MODERATE, evidence)


def _facts(view: _View) -> Finding | None:
    evidence = [f"{pair.where}: {pair.facts}" for pair in view.all_pairs() if pair.facts]
    return finding(k.FACTS, Significance.SUBSTANTIVE, evidence) if evidence else None


def _quote_rule(view: _View) -> Finding | None:
    before = _quotations(view.old, set())
    after = _quotations(view.new, set(view.claimed))
    # compared by their words: capitals and punctuation inside a quote are typos
    left_after = Counter(_quote_key(q) for q in after)
    left_before = Counter(_quote_key(q) for q in before)
    gone = [q for q in before if not _take(left_after, _quote_key(q))]
    came = [q for q in after if not _take(left_before, _quote_key(q))]
    if not gone and not came:
        return None
    evidence = []
    for quote in list(gone):
        partner = _closest(quote, came)
        if partner is not None:
            gone.remove(quote)
            came.remove(partner)
            evidence.append(f"quote changed: {_change(quote, partner)}")
    evidence += [f"quote removed: {_quote(q)}" for q in gone]
    evidence += [f"quote added: {_quote(q)}" for q in came]
    only_added = all(line.startswith("quote added") for line in evidence)
    return finding(
        k.QUOTE, Significance.MODERATE if only_added else Significance.SUBSTANTIVE, evidence
    )


def _quote_key(quote: str) -> tuple[str, ...]:
    return tuple(word.casefold() for word in _WORD.findall(quote))


def _take(counts: Counter[tuple[str, ...]], key: tuple[str, ...]) -> bool:
    """Use up one ``key`` from ``counts``; False if none was left."""
    if counts[key] <= 0:
        return False
    counts[key] -= 1
    return True


def _quotations(article: Article, skip: set[int]) -> list[str]:
    found = quotations(article.title)
    for position, block in enumerate(article.blocks):
        if position in skip:
            continue
        found += [fold_text(block.text)] if block.kind == "quote" else quotations(block.text)
    return found


def _closest(quote: str, candidates: list[str]) -> str | None:
    best: tuple[float, str] | None = None
    for candidate in candidates:
        a, b = set(quote.casefold().split()), set(candidate.casefold().split())
        value = 2 * len(a & b) / (len(a) + len(b))
        if value >= 0.5 and (best is None or value > best[0]):
            best = (value, candidate)
    return best[1] if best else None


def _headline(view: _View) -> Finding | None:
    if view.title is None:
        return None
    natures = set(view.title.natures)
    if natures <= TYPO_NATURES - {SPELLING}:
        level = Significance.COSMETIC
    elif natures <= TYPO_NATURES:
        level = Significance.MINOR
    else:
        level = Significance.MODERATE
    return finding(k.HEADLINE, level, [_change(view.old.title, view.new.title)])


def _lede(view: _View) -> Finding | None:
    """The first non-heading block: reworded in place, or another block now leading."""
    old_lede = next((i for i, b in enumerate(view.old.blocks) if b.kind != "heading"), None)
    new_lede = next((j for j, b in enumerate(view.new.blocks) if b.kind != "heading"), None)
    if old_lede is None or new_lede is None or new_lede in view.claimed:
        return None
    holding_old = next(e for e in view.diff.blocks if old_lede in e.old)
    holding_new = next(e for e in view.diff.blocks if new_lede in e.new)
    if holding_old is holding_new:
        natures = {
            hunk_nature(h.removed, h.added, names=view.names) for h in hunks(holding_new.segments())
        }
        if not natures - TYPO_NATURES:
            return None
        where = _where(holding_new.op, holding_new.old, holding_new.new)
        return finding(k.LEDE, Significance.MODERATE, [f"{where}: the first paragraph changed"])
    lead = view.new.blocks[new_lede].text
    line = f"block {new_lede + 1} now leads: {_quote(lead)}"
    if holding_old.op == REMOVED:
        line += "; the first paragraph was removed"
    else:
        line += f"; the first paragraph is now block {holding_old.new[0] + 1}"
    return finding(k.LEDE, Significance.MODERATE, [line])


def _added(view: _View) -> Finding | None:
    items = [(where, text) for where, text in view.added]
    items += [
        (pair.where, hunk.added) for pair in view.pairs for hunk in pair.hunks
        if _passage(hunk) and hunk.added
    ]  # fmt: skip
    if not items:
        return None
    words = sum(count_words(text) for _, text in items)
    evidence = [f"{where}: {_quote(text)} ({count_words(text)} words)" for where, text in items]
    level = Significance.MINOR if words < SMALL_WORDS else Significance.MODERATE
    return finding(k.ADDED, level, evidence)


def _removed(view: _View) -> Finding | None:
    items = [(where, text) for where, text in view.removed]
    items += [
        (pair.where, hunk.removed) for pair in view.pairs for hunk in pair.hunks
        if _passage(hunk) and hunk.removed
    ]  # fmt: skip
    if not items:
        return None
    words = sum(count_words(text) for _, text in items)
    numbers = any(any(c.isdigit() for c in text) for _, text in items)
    evidence = [f"{where}: {_quote(text)} ({count_words(text)} words)" for where, text in items]
    small = words < SMALL_WORDS and not numbers
    return finding(k.REMOVED, Significance.MINOR if small else Significance.SUBSTANTIVE, evidence)


def _passage(hunk: Hunk) -> bool:
    """A pure insertion or deletion long enough to be a passage of its own."""
    return (not hunk.removed or not hunk.added) and count_words(
        hunk.removed + hunk.added
    ) >= PASSAGE_WORDS


def _moved(view: _View) -> Finding | None:
    evidence = [
        f"block {e.new[0] + 1} (was block {e.old[0] + 1}): {_quote(view.new.blocks[e.new[0]].text)}"
        for e in view.diff.blocks
        if e.op == MOVED
    ]
    return finding(k.MOVED, Significance.MINOR, evidence) if evidence else None


def _paragraphing(view: _View) -> Finding | None:
    evidence = []
    for e in view.diff.blocks:
        if e.op == SPLIT:
            evidence.append(
                f"old block {e.old[0] + 1} split into blocks {e.new[0] + 1}-{e.new[-1] + 1}"
            )
        elif e.op == MERGED:
            evidence.append(
                f"old blocks {e.old[0] + 1}-{e.old[-1] + 1} merged into block {e.new[0] + 1}"
            )
    return finding(k.PARAGRAPHING, Significance.COSMETIC, evidence) if evidence else None


def _correction(view: _View) -> Finding | None:
    evidence = [
        f"note added: {_quote(note)}"
        for note in new_notes(view.old.publisher.notes, view.new.publisher.notes)
    ]
    evidence += [f"in the text: {_quote(text)}" for text in note_phrases(view.added_text())]
    return finding(k.CORRECTION, Significance.SUBSTANTIVE, evidence) if evidence else None


def _byline(view: _View) -> Finding | None:
    before, after = view.old.publisher.authors, view.new.publisher.authors
    if {fold_text(a).casefold() for a in before} == {fold_text(a).casefold() for a in after}:
        return None
    line = f"{', '.join(before) or 'no byline'} → {', '.join(after) or 'no byline'}"
    return finding(k.BYLINE, Significance.MINOR, [line])


_RULES = (
    _typo, _style, _facts, _quote_rule, _headline, _lede, _added, _removed, _moved,
    _paragraphing, _correction, _byline,
)  # fmt: skip
