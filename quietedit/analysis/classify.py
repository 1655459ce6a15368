"""What kind of change an edit is, how much it matters, and whether the publisher said so.

``classify_change(old, new)`` runs small pure rules over the diff, each returning a
:class:`~quietedit.analysis.findings.Finding` (a kind from the vocabulary in
``findings.py``, a significance, evidence lines and the sentences that decided it) or
nothing. The order matters only for claims: encoding repairs are taken out first (the
repaired old revision is diffed again, so an edit shipped with a repair is still seen),
then the ticker rules claim a live blog's new entries and index-line rewrites, notes and
credit lines are set apart (``view.py``), and the remaining rules look at what is left,
each change of a paired place read once (``reading.py``). The edit's significance is its
most significant finding's (cosmetic when nothing changed). ``.silent`` compares the edit
with the publisher's own signals (``signals.py``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from quietedit.analysis import findings as k
from quietedit.analysis.align import MERGED, MOVED, REMOVED, SPLIT
from quietedit.analysis.diff import RevisionDiff, as_article, diff_revisions
from quietedit.analysis.evidence import (
    authors_sentence,
    change_sentence,
    credit_sentence,
    cut_sentence,
    note_sentence,
    quote_sentence,
    repair_sentences,
    white_space_sentence,
    whole_sentence,
)
from quietedit.analysis.facts import is_spelling_fix
from quietedit.analysis.findings import Finding, Sentence, Significance, finding, sentence_at
from quietedit.analysis.lexicon import SPELLING, quotations
from quietedit.analysis.notes import CORRECTION, UPDATE, note_kind
from quietedit.analysis.phrases import word_count
from quietedit.analysis.repair import repair_article, summarise
from quietedit.analysis.signals import (
    ExternalSignals,
    Signal,
    excerpt,
    is_silent,
    new_notes,
    notice_of,
    publisher_signals,
)
from quietedit.analysis.tickers import ticker_claims
from quietedit.analysis.verdicts import (
    ADDED,
    FACT,
    STYLE,
    TYPO,
    PairReading,
    Reading,
)
from quietedit.analysis.view import View, build_view
from quietedit.analysis.words import count_words
from quietedit.article.fingerprint import fold_text
from quietedit.model import JSON, Article
from quietedit.revisions import Revision

_WORD: Final = re.compile(r"\w+")

SMALL_WORDS: Final = 8
"""Added or removed text under this many words (and, removed, without a number) is minor."""
MINOR_STYLE_WORDS: Final = 4
"""A rewording of at most this many words (removed plus added) is minor."""


@dataclass(frozen=True, slots=True)
class Classification:
    """The kinds of change found, the edit's significance, and the silent verdict.

    ``findings`` are sorted by kind; ``signals`` lists every publisher signal checked,
    seen or not; ``silent`` is true for an edit with no signal seen; ``notice`` says how
    the publisher told of it: ``none``, ``technical`` (only a date moved) or ``proper``
    (a note added).
    """

    findings: tuple[Finding, ...]
    significance: Significance
    silent: bool
    signals: tuple[Signal, ...]
    notice: str = "none"

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(f.kind for f in self.findings)

    def evidence(self, kind: str) -> tuple[str, ...]:
        """The evidence lines of ``kind`` (empty when it was not found)."""
        return next((f.evidence for f in self.findings if f.kind == kind), ())

    def sentences(self, kind: str) -> tuple[Sentence, ...]:
        """The sentences that decided ``kind`` (empty when it was not found)."""
        return next((f.sentences for f in self.findings if f.kind == kind), ())

    def to_dict(self) -> dict[str, JSON]:
        """``kinds`` (sorted names), ``findings`` (per kind: significance, evidence and
        sentences), ``significance``, ``silent``, ``notice`` and ``signals`` (see
        docs/diff-json.md)."""
        return {
            "kinds": [f.kind for f in self.findings],
            "findings": {f.kind: f.to_dict() for f in self.findings},
            "significance": self.significance.label,
            "silent": self.silent,
            "notice": self.notice,
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
        found.append(
            finding(
                k.ENCODING_REPAIR,
                Significance.COSMETIC,
                summarise(repairs),
                repair_sentences(before, repaired, repairs),
            )
        )
    claims = ticker_claims(repaired, after, working)
    found += claims.findings
    view = build_view(
        repaired, after, working, claims.claimed, claims.entry_pairs, claims.claimed_old
    )
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
        notice=notice_of(seen),
    )


# -- evidence ------------------------------------------------------------------------------


def _quote(text: str) -> str:
    return f"“{excerpt(text, 80)}”"


def _words(text: str) -> str:
    """An added or removed passage in evidence: its length, not its text, which the diff
    and every view of it (the edit's page, the API's blocks) show beside the evidence."""
    n = word_count(text)
    return f"{n} word" if n == 1 else f"{n} words"


def _change(removed: str, added: str) -> str:
    return f"{_quote(removed) if removed else '∅'} → {_quote(added) if added else '∅'}"


def _readings(view: View, verdict: str) -> Iterable[tuple[PairReading, Reading]]:
    for pair in view.all_pairs():
        for reading in pair.readings:
            if verdict in reading.verdicts:
                yield pair, reading


# -- the rules -----------------------------------------------------------------------------


def _typo(view: View) -> Finding | None:
    evidence, sentences, respelt = [], [], False
    for pair in view.all_pairs():
        if not pair.readings:
            evidence.append(f"{pair.where}: white space")
            sentences.append(white_space_sentence(pair))
        for reading in pair.readings:
            if TYPO in reading.verdicts:
                respelt |= reading.nature == SPELLING
                evidence.append(f"{pair.where}: {reading.hunk.markup()}")
                sentences.append(change_sentence(pair, reading))
    if not evidence:
        return None
    level = Significance.MINOR if respelt else Significance.COSMETIC
    return finding(k.TYPO, level, evidence, sentences)


def _style(view: View) -> Finding | None:
    evidence, sentences, words = [], [], 0
    for pair, reading in _readings(view, STYLE):
        words += count_words(reading.hunk.removed) + count_words(reading.hunk.added)
        evidence.append(f"{pair.where}: {reading.hunk.markup()}")
        sentences.append(change_sentence(pair, reading, whole=True))
    if not evidence:
        return None
    minor = words <= MINOR_STYLE_WORDS
    level = Significance.MINOR if minor else Significance.MODERATE
    return finding(k.STYLE, level, evidence, sentences)


def _facts(view: View) -> Finding | None:
    evidence, sentences = [], []
    for pair in view.all_pairs():
        parts = [_fact_line(r.facts) for r in pair.readings if FACT in r.verdicts]
        if parts:
            evidence.append(f"{pair.where}: {'; '.join(parts)}")
            sentences += [change_sentence(pair, r) for r in pair.readings if FACT in r.verdicts]
    return finding(k.FACTS, Significance.SUBSTANTIVE, evidence, sentences) if evidence else None


def _fact_line(pairs: tuple[tuple[str, str], ...]) -> str:
    """``4.2 → 4.5``, several joined by commas, or ``removed …; added …``."""
    if all(a and b for a, b in pairs):
        return ", ".join(f"{a} → {b}" for a, b in pairs)
    gone = [a for a, b in pairs if a]
    came = [b for a, b in pairs if b]
    parts = [f"removed {', '.join(gone)}"] if gone else []
    parts += [f"added {', '.join(came)}"] if came else []
    return "; ".join(parts)


def _quote_rule(view: View) -> Finding | None:
    before = _quotations(view.old, set())
    after = _quotations(view.new, set(view.claimed))
    # compared by their words: capitals and punctuation inside a quote are typos
    left_after = Counter(_quote_key(q) for q in after)
    left_before = Counter(_quote_key(q) for q in before)
    gone = [q for q in before if not _take(left_after, _quote_key(q))]
    came = [q for q in after if not _take(left_before, _quote_key(q))]
    if not gone and not came:
        return None
    evidence, sentences = [], []
    for quote in list(gone):
        partner = _closest(quote, came)
        if partner is not None and _respelt(quote, partner):
            gone.remove(quote)  # a word of it respelt: a typo, not a quotation changed
            came.remove(partner)
        elif partner is not None:
            gone.remove(quote)
            came.remove(partner)
            evidence.append(f"quote changed: {_change(quote, partner)}")
            sentences.append(quote_sentence("quote changed", view.old, view.new, quote, partner))
    evidence += [f"quote removed: {_quote(q)}" for q in gone]
    sentences += [quote_sentence("quote removed", view.old, view.new, q, "") for q in gone]
    evidence += [f"quote added: {_quote(q)}" for q in came]
    sentences += [quote_sentence("quote added", view.old, view.new, "", q) for q in came]
    if not evidence:
        return None
    only_added = all(line.startswith("quote added") for line in evidence)
    level = Significance.MODERATE if only_added else Significance.SUBSTANTIVE
    return finding(k.QUOTE, level, evidence, sentences)


def _respelt(old: str, new: str) -> bool:
    """Two forms of one quotation whose words differ only by spelling fixes, word for
    word ("keinerlei Erkenntniss" → "keinerlei Erkenntnisse")."""
    a, b = _quote_key(old), _quote_key(new)
    return len(a) == len(b) and all(
        x == y or is_spelling_fix(x, y) for x, y in zip(a, b, strict=True)
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


def _headline(view: View) -> Finding | None:
    if view.title is None:
        return None
    natures = {r.nature for r in view.title.readings}
    verdicts = {v for r in view.title.readings for v in r.verdicts}
    if verdicts <= {TYPO} and SPELLING not in natures:
        level = Significance.COSMETIC
    elif verdicts <= {TYPO}:
        level = Significance.MINOR
    else:
        level = Significance.MODERATE
    old_marks = [(r.old_span.start, r.old_span.end) for r in view.title.readings]
    new_marks = [(r.new_span.start, r.new_span.end) for r in view.title.readings]
    old, old_in = sentence_at(view.old.title, [m for m in old_marks if m[1] > m[0]] or [(0, 0)])
    new, new_in = sentence_at(view.new.title, [m for m in new_marks if m[1] > m[0]] or [(0, 0)])
    sentence = Sentence("title", view.old.title, view.new.title, old_in, new_in)
    if (old, new) != (view.old.title, view.new.title):  # a title of more than one sentence
        sentence = Sentence("title", old, new, old_in, new_in)
    return finding(k.HEADLINE, level, [_change(view.old.title, view.new.title)], [sentence])


def _lede(view: View) -> Finding | None:
    """The first non-heading block: reworded in place, or another block now leads."""
    old_lede = next((i for i, b in enumerate(view.old.blocks) if b.kind != "heading"), None)
    new_lede = next((j for j, b in enumerate(view.new.blocks) if b.kind != "heading"), None)
    if old_lede is None or new_lede is None or new_lede in view.claimed:
        return None
    holding_old = next(e for e in view.diff.blocks if old_lede in e.old)
    holding_new = next(e for e in view.diff.blocks if new_lede in e.new)
    if holding_old is holding_new:
        pair = next((p for p in view.pairs if _holds(p, holding_new.op, holding_new.new)), None)
        changes = [r for r in pair.readings if r.verdicts - {TYPO}] if pair else []
        if pair is None or not changes:
            return None
        line = f"{pair.where}: the first paragraph changed"
        sentence = change_sentence(pair, changes[0], whole=True)
        return finding(k.LEDE, Significance.MODERATE, [line], [sentence])
    lead = view.new.blocks[new_lede].text
    line = f"block {new_lede + 1} now leads: {_quote(lead)}"
    if holding_old.op == REMOVED:
        line += "; the first paragraph was removed"
    else:
        line += f"; the first paragraph is now block {holding_old.new[0] + 1}"
    old_text, _ = sentence_at(view.old.blocks[old_lede].text, [(0, 0)])
    new_text, new_in = sentence_at(lead, [(0, len(lead))])
    sentence = Sentence(f"block {new_lede + 1}", old_text, new_text, (), new_in)
    return finding(k.LEDE, Significance.MODERATE, [line], [sentence])


def _holds(pair: PairReading, op: str, new: tuple[int, ...]) -> bool:
    if op == SPLIT:
        return pair.where.startswith(f"blocks {new[0] + 1}-")
    prefix = f"block {new[0] + 1}"  # "block 1" must not hold "block 12"
    return pair.where == prefix or pair.where.startswith(prefix + " ")


def _added(view: View) -> Finding | None:
    items = [(p.where, p.text) for p in view.added]
    sentences = [whole_sentence(p.where, "", p.text) for p in view.added]
    for pair, reading in _readings(view, ADDED):
        items.append((pair.where, reading.hunk.added))
        sentences.append(change_sentence(pair, reading, whole=True))
    if not items:
        return None
    words = sum(word_count(text) for _, text in items)
    evidence = [f"{where}: {_words(text)}" for where, text in items]
    level = Significance.MINOR if words < SMALL_WORDS else Significance.MODERATE
    return finding(k.ADDED, level, evidence, sentences)


def _removed(view: View) -> Finding | None:
    items = [(p.where, p.text) for p in view.removed]
    sentences = [whole_sentence(p.where, p.text, "") for p in view.removed]
    for pair, reading in _readings(view, k.REMOVED):
        items.append((pair.where, reading.hunk.removed))
        sentences.append(change_sentence(pair, reading, whole=True))
    if not items:
        return None
    words = sum(word_count(text) for _, text in items)
    numbers = any(any(c.isdigit() for c in text) for _, text in items)
    evidence = [f"{where}: {_words(text)}" for where, text in items]
    small = words < SMALL_WORDS and not numbers
    level = Significance.MINOR if small else Significance.SUBSTANTIVE
    return finding(k.REMOVED, level, evidence, sentences)


def _moved(view: View) -> Finding | None:
    evidence, sentences = [], []
    for e in view.diff.blocks:
        if e.op != MOVED:
            continue
        text = view.new.blocks[e.new[0]].text
        evidence.append(f"block {e.new[0] + 1} (was block {e.old[0] + 1}): {_quote(text)}")
        old, _ = sentence_at(view.old.blocks[e.old[0]].text, [(0, 0)])
        new, _ = sentence_at(text, [(0, 0)])
        sentences.append(Sentence(f"block {e.new[0] + 1} (was block {e.old[0] + 1})", old, new))
    return finding(k.MOVED, Significance.MINOR, evidence, sentences) if evidence else None


def _paragraphing(view: View) -> Finding | None:
    evidence, sentences = [], []
    for e in view.diff.blocks:
        if e.op == SPLIT:
            evidence.append(
                f"old block {e.old[0] + 1} split into blocks {e.new[0] + 1}-{e.new[-1] + 1}"
            )
            parts = [view.new.blocks[j].text for j in e.new]
            sentences.append(
                cut_sentence("old block", e.old[0], view.old.blocks[e.old[0]].text, parts)
            )
        elif e.op == MERGED:
            evidence.append(
                f"old blocks {e.old[0] + 1}-{e.old[-1] + 1} merged into block {e.new[0] + 1}"
            )
            parts = [view.old.blocks[i].text for i in e.old]
            cut = cut_sentence("block", e.new[0], view.new.blocks[e.new[0]].text, parts)
            sentences.append(Sentence(cut.where, cut.new, cut.old, cut.new_marks, cut.old_marks))
    if not evidence:
        return None
    return finding(k.PARAGRAPHING, Significance.COSMETIC, evidence, sentences)


def _notes(view: View, kind: str) -> tuple[list[str], list[Sentence]]:
    """Evidence lines and sentences of the notes of one kind (``correction``, ``update``)
    the edit added: to the page's notes, or into the text."""
    evidence, sentences = [], []
    page_notes = new_notes(view.old.publisher.notes, view.new.publisher.notes)
    for note in page_notes:
        if (note_kind(note) or CORRECTION) == kind:
            evidence.append(f"note added: {_quote(note)}")
            sentences.append(note_sentence("notes", note))
    shown = {fold_text(note).casefold() for note in page_notes}
    for placed in view.notes:
        # extraction keeps a note in the body as well as in the page's notes: once is enough
        if note_kind(placed.text) == kind and fold_text(placed.text).casefold() not in shown:
            evidence.append(f"in the text: {_quote(placed.text)}")
            sentences.append(note_sentence(placed.where, placed.text))
    return evidence, sentences


def _correction(view: View) -> Finding | None:
    evidence, sentences = _notes(view, CORRECTION)
    if not evidence:
        return None
    return finding(k.CORRECTION, Significance.SUBSTANTIVE, evidence, sentences)


def _update_note(view: View) -> Finding | None:
    evidence, sentences = _notes(view, UPDATE)
    if not evidence:
        return None
    return finding(k.UPDATE_NOTE, Significance.MINOR, evidence, sentences)


def _byline(view: View) -> Finding | None:
    evidence, sentences = [], []
    before, after = view.old.publisher.authors, view.new.publisher.authors
    if {fold_text(a).casefold() for a in before} != {fold_text(a).casefold() for a in after}:
        evidence.append(f"{', '.join(before) or 'no byline'} → {', '.join(after) or 'no byline'}")
        sentences.append(authors_sentence(before, after))
    for credit in view.credits:
        if credit.old and credit.new:
            evidence.append(
                f"{credit.where}: credit line changed: {_change(credit.old, credit.new)}"
            )
            sentences.append(credit_sentence(credit.where, credit.old, credit.new))
        elif credit.new:
            evidence.append(f"{credit.where}: credit line added: {_quote(credit.new)}")
            sentences.append(whole_sentence(credit.where, "", credit.new))
        else:
            evidence.append(f"{credit.where}: credit line removed: {_quote(credit.old)}")
            sentences.append(whole_sentence(credit.where, credit.old, ""))
    return finding(k.BYLINE, Significance.MINOR, evidence, sentences) if evidence else None


_RULES = (
    _typo, _style, _facts, _quote_rule, _headline, _lede, _added, _removed, _moved,
    _paragraphing, _correction, _update_note, _byline,
)  # fmt: skip
