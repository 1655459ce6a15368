"""The abstaining facts call (#21): a changed number, date or name is called a changed
fact only when the evidence weighs enough (``confidence.py``): the sentence around it
kept, the word rules' own call, a number rather than a name, a place a preposition puts
the statement in. Each edit is a text of our own, written the way a news site writes
its teasers and headlines."""

from __future__ import annotations

import pytest

from quietedit.analysis import classify_change
from quietedit.analysis.confidence import THRESHOLD, FactEvidence, confidence, confident
from quietedit.model import Article, Publisher
from tests.analysis.stories import story

GERMAN = Publisher(language="de")
TEASER = "Die Bäckerei liefert seit Jahren an die Station. Nun kommt ein neuer Auftrag."


def teaser(title: str, text: str = TEASER) -> Article:
    return story([text], title=title, publisher=GERMAN)


def evidence(kept: float, *, rule: bool, numbers: bool, located: bool = False) -> FactEvidence:
    return FactEvidence(kept=kept, rule=rule, numbers=numbers, located=located)


# -- the weights -------------------------------------------------------------------------


def test_the_rules_call_on_a_number_needs_any_word_of_its_sentence_kept() -> None:
    assert not confident(evidence(0.0, rule=True, numbers=True))
    assert confident(evidence(0.05, rule=True, numbers=True))


def test_the_rules_call_on_a_name_needs_two_fifths_of_its_sentence_kept() -> None:
    assert not confident(evidence(0.4, rule=True, numbers=False))
    assert confident(evidence(0.45, rule=True, numbers=False))


@pytest.mark.parametrize(("numbers", "needed"), [(False, 0.6), (True, 0.2)])
def test_a_longer_rewordings_fact_needs_its_sentence_kept(numbers: bool, needed: float) -> None:
    at = evidence(needed, rule=False, numbers=numbers)
    above = evidence(needed + 0.01, rule=False, numbers=numbers)
    assert not confident(at)
    assert confident(above)


def test_confidence_grows_with_each_sign() -> None:
    weakest = confidence(evidence(0.5, rule=False, numbers=False))
    assert weakest < confidence(evidence(0.5, rule=True, numbers=False))
    assert weakest < confidence(evidence(0.5, rule=False, numbers=True))
    assert weakest <= confidence(evidence(0.5, rule=False, numbers=False, located=True))
    assert weakest < confidence(evidence(0.6, rule=False, numbers=False))
    assert evidence(1.0, rule=True, numbers=True).confidence >= THRESHOLD


# -- on edits ------------------------------------------------------------------------------


def test_a_kickers_numbers_cut_with_the_whole_headline_rebuilt_abstain() -> None:
    # the version numbers label the old headline; nothing of its statement stays
    old = teaser("Firmware 4.2.1, Firmware 3.8.1: Weshalb das Sicherheitsupdate für Router zählt")
    new = teaser("Heimnetz: Warum Sie Ihre Geräte jetzt aktualisieren sollten")
    kinds = classify_change(old, new).kinds
    assert "facts" not in kinds
    assert {"headline", "style"} <= kinds


def test_a_name_replaced_in_a_longer_rewording_of_a_kept_sentence_is_a_fact() -> None:
    # the list item names another player; every other word of the sentence stays
    text = (
        "Im Podcast geht es um den neuen Trainer aus Spanien, die Stimmung in der Kabine "
        "nach drei Niederlagen, um {} und sehr viel Geld für die kommende Saison."
    )
    old = teaser("Fußball", text.format("den Zugang Malte Brandlhuber"))
    new = teaser("Fußball", text.format("das Werben um Jonas Feldkamp"))
    result = classify_change(old, new)
    assert "facts" in result.kinds
    assert any("Feldkamp" in line for line in result.evidence("facts"))


def test_a_name_in_a_longer_rewording_of_a_sentence_that_changed_is_no_fact() -> None:
    old = teaser(
        "Fußball",
        "Der Verein verpflichtet den Verteidiger Malte Brandlhuber aus Bremen. Er kostet viel.",
    )
    new = teaser(
        "Fußball",
        "Nach langem Streit über das Geld steht Jonas Feldkamp vor dem Abschied. Er kostet viel.",
    )
    assert "facts" not in classify_change(old, new).kinds
