"""The facts one change altered: where they stand, paired across the change, and whether
they are names only (pure; ``reading.py`` reads the changes)."""

from __future__ import annotations

from quietedit.analysis.facts import Fact
from quietedit.analysis.numberwords import NUMBER_WORDS, ORDINALS, is_date_word, magnitude
from quietedit.analysis.verdicts import Span


def paired(gone: list[Fact], came: list[Fact]) -> tuple[tuple[str, str], ...]:
    """Facts that went and came paired one for one, or each with nothing."""
    if len(gone) == len(came):
        return tuple((a.text, b.text) for a, b in zip(gone, came, strict=True))
    return tuple((f.text, "") for f in gone) + tuple(("", f.text) for f in came)


def names_only(changed: tuple[tuple[str, str], ...], named: frozenset[str] = frozenset()) -> bool:
    """The changed facts are names: no number, no date. ``named``: the words the text read
    as names, a date word among them ("Yann Sommer") included."""
    return not any(
        fact not in named
        and (
            any(c.isdigit() for c in fact)
            or is_date_word(fact)
            or fact in NUMBER_WORDS
            or fact in ORDINALS
            or magnitude(fact) is not None
        )
        for pair in changed
        for fact in (pair[0].casefold(), pair[1].casefold())
        if fact
    )


def names_of(gone: list[Fact], came: list[Fact]) -> frozenset[str]:
    """The folded words of the names among ``gone`` and ``came``."""
    return frozenset(f.text.casefold() for f in (*gone, *came) if f.name)


def inside(facts: list[Fact], span: Span) -> list[Fact]:
    """The facts inside ``span``."""
    return [f for f in facts if f.start >= span.start and f.end <= span.end]


def in_pairs(fact: Fact, pairs: tuple[tuple[str, str], ...], side: int) -> bool:
    """``fact`` is one of ``pairs``' facts on ``side`` (0 the old, 1 the new)."""
    return any(pair[side] == fact.text for pair in pairs)
