"""How sure a changed fact is: the evidence of a ``facts`` call, weighed, and when to
abstain.

The rules of ``reading.py`` find the numbers, dates and names that differ between the two
sides of a change. Whether that makes the change a changed fact, rather than a rewording
that happens to carry one, depends on how much the statement around it stayed: "Im
Podcast geht es um den Trainer, … um [-den Zugang Malte Brandlhuber-]{+das Werben um Jonas
Feldkamp+} und sehr viel Geld …" keeps its sentence and names another player, while
"[-Zwei Häftlinge bekamen in Karlsruhe Recht-]{+Bekommen Häftlinge … mehr Geld+}" asks
another question. :class:`FactEvidence` holds what a reader would weigh:

* ``kept`` — the share of the sentence's other words (its numbers, dates and names left
  out, a headline's kicker read on its own) that both sides have, in order;
* ``rule`` — the change is one phrase (short, or keeping half its other words) and the
  word rules found a fact in it; a longer change whose facts only the sentence around it
  vouches for is weaker evidence;
* ``numbers`` — a number or a date is among the changed facts (a name is more often the
  rewording's own: a description named, a body said in other words);
* ``located`` — a changed name is where a preposition puts the statement ("in Hamburg",
  "aus Houston").

:func:`confidence` weighs them into one figure; a change at or under :data:`THRESHOLD` is
not called a changed fact (the call abstains: the change stays a rewording, and the edit
keeps its other kinds). The weights and the threshold were chosen by leave-one-batch-out
cross-validation over labelled held-out edits (``bench/labels/README.md``), never on the
batch kept for the final test.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from quietedit.analysis.phrases import sentence_around, shared, without_facts
from quietedit.analysis.words import Hunk

RULE_WEIGHT: Final = 0.2
"""What the word rules' own call adds: a short change or one keeping half its words."""
NUMBER_WEIGHT: Final = 0.4
"""What a number or date among the changed facts adds (a name is weaker evidence)."""
LOCATED_WEIGHT: Final = 0.0
"""What a changed place that a preposition puts the statement in adds: weighed, and given
nothing by the cross-validation (such a place is a name like another here)."""
THRESHOLD: Final = 0.6
"""The confidence a change must exceed to be called a changed fact: the rules' call on a
name needs more than 40 % of its sentence kept, on a number or date any word of it; a
longer rewording's name needs more than 60 %, its number or date more than 20 %."""


@dataclass(frozen=True, slots=True)
class FactEvidence:
    """What speaks for a change being a changed fact (see the module's text)."""

    kept: float
    rule: bool
    numbers: bool
    located: bool

    @property
    def confidence(self) -> float:
        return confidence(self)


def confidence(evidence: FactEvidence) -> float:
    """The evidence weighed: the sentence's kept share, plus what each sign adds."""
    return (
        evidence.kept
        + RULE_WEIGHT * evidence.rule
        + NUMBER_WEIGHT * evidence.numbers
        + LOCATED_WEIGHT * evidence.located
    )


def confident(evidence: FactEvidence) -> bool:
    """The evidence is strong enough to call the change a changed fact: its confidence is
    above :data:`THRESHOLD` (rounded, so that sums of weights compare as written)."""
    return round(confidence(evidence), _PLACES) > THRESHOLD


_PLACES: Final = 6


def kept_share(
    old_text: str, new_text: str, hunk: Hunk, *, kickers: tuple[int, int], names: bool
) -> float:
    """The share of its other words (numbers, dates and names aside) that the sentence a
    change stands in keeps. ``kickers``: where a headline's kicker ends on each side (0
    for none): a change in the rest of a headline is read without the kicker, which
    labels the story; a change in the kicker with it."""
    old_at, new_at = hunk.old_at, hunk.new_at
    old = sentence_around(old_text, old_at, old_at + len(hunk.removed))
    new = sentence_around(new_text, new_at, new_at + len(hunk.added))
    old_kicker, new_kicker = kickers
    if not (old_at < old_kicker and new_at < new_kicker):
        old, new = old[old_kicker:], new[new_kicker:]
    return shared(without_facts(old, names), without_facts(new, names))
