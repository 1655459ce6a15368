"""A small grammatical slip mended is a typo, and grammar that a rewording changed is the
rewording's (German teasers of our own, in the way of a news site's)."""

from __future__ import annotations

import pytest

from quietedit.analysis import classify_change
from quietedit.model import Article, Publisher
from tests.analysis.stories import story

GERMAN = Publisher(language="de")


def teaser(text: str) -> Article:
    return story([text], title="Prozess", publisher=GERMAN)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a pronoun the sentence cannot do without
        (
            "Den Streit um die Brücke erwähnte nur am Rande.",
            "Den Streit um die Brücke erwähnte er nur am Rande.",
        ),
        # an auxiliary verb left out
        (
            "Zwei Angeklagte wurden verurteilt, die anderen freigesprochen.",
            "Zwei Angeklagte wurden verurteilt, die anderen wurden freigesprochen.",
        ),
        # a verb made to agree with its subject
        (
            "Von den Bewerbern sind mehr als die Hälfte angenommen worden.",
            "Von den Bewerbern ist mehr als die Hälfte angenommen worden.",
        ),
        # an indefinite article restored
        (
            "Er lebt in einem Land, in dem psychische Krankheit ein Tabu ist.",
            "Er lebt in einem Land, in dem eine psychische Krankheit ein Tabu ist.",
        ),
    ],
    ids=["pronoun", "auxiliary", "agreement", "article"],
)
def test_a_small_word_the_grammar_needs_is_a_typo(old: str, new: str) -> None:
    assert classify_change(teaser(old), teaser(new)).kinds == {"typo"}


def test_an_article_changed_with_the_noun_a_word_away_is_the_rewordings() -> None:
    old = teaser("Die Berliner Firma baut Herzschrittmacher für den Weltmarkt.")
    new = teaser("Das Berliner Unternehmen baut Herzschrittmacher für den Weltmarkt.")
    assert classify_change(old, new).kinds == {"lede", "style"}


def test_ein_ending_a_verb_is_no_article() -> None:
    # "reicht … ein": the separable verb's particle, cut with a rewording of the verb
    old = teaser("Die Gemeinde reicht heute ihre Klage ein.")
    new = teaser("Die Gemeinde erhebt heute ihre Klage.")
    assert "typo" not in classify_change(old, new).kinds
