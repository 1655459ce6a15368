"""A headline's clause of its own, with the names and dates that go with it.

A clause put into a headline or cut from it is a rewording, however much it says (a
headline's words are never a passage), and the names in it are its own; so are the dates
of a clause that says more than its date ("- nach einem Sturz im Januar") and the
names of a phrase of three words or more besides them, wherever in the headline ("aus
Büro von Chuck Schumer"), while a date given to the statement that stays ("- im Januar")
and a place given to it, in however many words, are still changed facts. Words
before a headline's colon that go from a topic label to a statement of their own
("Tabellenführer Union Berlin:" → "Union Berlin bezwingt Borussia Dortmund:") are such a
clause too; a name changed in a statement that stays a statement is still a fact. Each
with a headline of our own, in the way of German and English news copy.
"""

from __future__ import annotations

from quietedit.analysis import Classification, classify_change
from quietedit.model import Publisher
from tests.analysis.stories import story

GERMAN = Publisher(language="de")
ENGLISH = Publisher(language="en")
TEASER = "Die Lage bleibt unübersichtlich. Mehr dazu im Überblick."


def headline(old: str, new: str, *, publisher: Publisher = GERMAN) -> Classification:
    return classify_change(
        story([TEASER], title=old, publisher=publisher),
        story([TEASER], title=new, publisher=publisher),
    )


# -- a clause with its date ------------------------------------------------------------------


def test_a_clause_cut_from_a_headline_takes_its_month_with_it() -> None:
    result = headline(
        "Schauspieler zeigt sich erstmals wieder auf der Bühne - nach einem Sturz im Januar",
        "Schauspieler zeigt sich erstmals wieder auf der Bühne",
    )
    assert "facts" not in result.kinds
    assert {"headline", "style"} <= result.kinds
    result = headline(
        "Singer returns to the stage for the first time - after a serious fall in March",
        "Singer returns to the stage for the first time",
        publisher=ENGLISH,
    )
    assert "facts" not in result.kinds


def test_a_date_given_to_the_statement_in_a_short_clause_is_still_a_fact() -> None:
    result = headline(
        "Stadtrat stimmt über neuen Haushalt ab",
        "Stadtrat stimmt über neuen Haushalt ab - im Januar",
    )
    assert "facts" in result.kinds
    result = headline(
        "Stadtrat stimmt im Januar über neuen Haushalt ab",
        "Stadtrat stimmt im März über neuen Haushalt ab",
    )
    assert "facts" in result.kinds


def test_a_number_in_a_clause_put_into_a_headline_still_counts() -> None:
    result = headline(
        "Unwetter über Norddeutschland - Bahn stellt Fernverkehr ein",
        "Unwetter über Norddeutschland - Bahn stellt Fernverkehr ein, 300 Einsätze der Feuerwehr",
    )
    assert "facts" in result.kinds


def test_a_phrase_with_a_person_cut_from_inside_a_headline_takes_the_name_with_it() -> None:
    result = headline(
        "Sturm auf das Kapitol: Eindringling Jacob Miller aus Büro von Chuck Schumer zu "
        "mehr als drei Jahren Haft verurteilt",
        "Sturm auf das Kapitol: Eindringling Jacob Miller zu mehr als drei Jahren Haft verurteilt",
    )
    assert "facts" not in result.kinds
    result = headline(
        "Capitol riot: Intruder Jacob Miller from the office of Chuck Schumer sentenced to "
        "more than three years",
        "Capitol riot: Intruder Jacob Miller sentenced to more than three years",
        publisher=ENGLISH,
    )
    assert "facts" not in result.kinds


def test_a_place_given_in_a_longer_phrase_is_still_a_fact() -> None:
    result = headline(
        "Polizei räumt das besetzte Haus",
        "Polizei räumt das besetzte Haus am Rand der Altstadt von Leipzig",
    )
    assert "facts" in result.kinds
    result = headline(
        "Mayor resigns after a long dispute",
        "Mayor resigns after a long dispute over the budget in Leeds",
        publisher=ENGLISH,
    )
    assert "facts" in result.kinds


# -- a kicker made a statement -----------------------------------------------------------------


def test_a_kicker_made_a_statement_brings_its_own_names() -> None:
    result = headline(
        "Tabellenführer Leverkusen: Das war ein Abend für die Geschichtsbücher",
        "Leverkusen schlägt Borussia Dortmund: Das war ein Abend für die Geschichtsbücher",
    )
    assert "facts" not in result.kinds
    assert {"headline", "style"} <= result.kinds
    result = headline(
        "League leaders Arsenal: 'We never stopped believing'",
        "Arsenal wins against Manchester City: 'We never stopped believing'",
        publisher=ENGLISH,
    )
    assert "facts" not in result.kinds


def test_a_name_changed_in_a_statement_before_the_colon_is_still_a_fact() -> None:
    result = headline(
        "Leverkusen schlägt Borussia Dortmund: Das war ein Abend für die Geschichtsbücher",
        "Leverkusen schlägt Eintracht Frankfurt: Das war ein Abend für die Geschichtsbücher",
    )
    assert "facts" in result.kinds
