"""Facts that moved: a fact that left one change and came in another of the same pair or
article changed nothing, nor did a name the article names elsewhere all along (pure)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from quietedit.analysis.facts import words
from quietedit.analysis.numberwords import NUMBER_WORDS, is_date_word
from quietedit.analysis.verdicts import FACT, STYLE, PairReading, Reading


def moved_facts(readings: list[Reading]) -> list[Reading]:
    """Facts that left one change and came in another of the same pair, or of the same
    article (:func:`settle_moves`), moved."""
    gone = Counter(a.casefold() for r in readings for a, b in r.facts if a and not b)
    came = Counter(b.casefold() for r in readings for a, b in r.facts if b and not a)
    moved = gone & came
    if not moved:
        return readings
    gone_left, came_left = moved.copy(), moved.copy()
    settled = []
    for reading in readings:
        kept = []
        for a, b in reading.facts:
            if a and not b and gone_left[a.casefold()] > 0:
                gone_left[a.casefold()] -= 1
            elif b and not a and came_left[b.casefold()] > 0:
                came_left[b.casefold()] -= 1
            else:
                kept.append((a, b))
        if reading.facts and not kept:
            verdicts = (reading.verdicts - {FACT}) or frozenset({STYLE})
            settled.append(Reading(reading.hunk, reading.nature, verdicts))
        else:
            settled.append(reading)
    return settled


def settle_moves(
    pairs: Sequence[PairReading], old_text: Callable[[], str], new_text: Callable[[], str]
) -> list[PairReading]:
    """The pairs of one article without the facts that left one place and came in another
    (the headline and the text), and without a name added to the text that the old
    revision named elsewhere already, or cut from it where the new one still names it
    ("Die Schülerin [-Armita Garawand-]" under a headline that names her): no fact
    changed.
    ``old_text`` and ``new_text`` give each revision's whole text, read only if needed."""
    readings = moved_facts([r for pair in pairs for r in pair.readings])
    if any(_one_sided_names(r) for r in readings):
        old_words = {w.text.casefold() for w in words(old_text())}
        new_words = {w.text.casefold() for w in words(new_text())}
        titles = {id(r) for p in pairs if p.where == "title" for r in p.readings}
        readings = [
            r if id(r) in titles else _named_elsewhere(r, old_words, new_words) for r in readings
        ]
    settled = iter(readings)
    return [
        PairReading(p.where, p.old_text, p.new_text, tuple(next(settled) for _ in p.readings))
        for p in pairs
    ]


def _one_sided_names(reading: Reading) -> bool:
    return bool(reading.facts) and all(not (a and b) and _is_name(a or b) for a, b in reading.facts)


def _is_name(fact: str) -> bool:
    return (
        fact[:1].isupper()
        and not any(c.isdigit() for c in fact)
        and not is_date_word(fact.casefold())
        and fact.casefold() not in NUMBER_WORDS
    )


def _named_elsewhere(reading: Reading, old_words: set[str], new_words: set[str]) -> Reading:
    if not _one_sided_names(reading):
        return reading
    if all(
        (b.casefold() in old_words) if b else (a.casefold() in new_words) for a, b in reading.facts
    ):
        verdicts = (reading.verdicts - {FACT}) or frozenset({STYLE})
        return Reading(reading.hunk, reading.nature, verdicts)
    return reading
