"""Counts and places said another way, and the facts a headline gives its statement.

A count said in other words is the same count ("beiden" → "zwei", "erneut" → "beim
zweiten Anlauf"), while another count is a changed fact ("drei" → "vier"); a magnitude
inside a compound is a number ("Multimillionär" → "Multimilliardär"); a place that a
preposition puts a statement in is a fact given to it, also where German's capitalised
noun follows the place or where the kicker's colon goes; a surname that is also a
season ("Yann Sommer") is a name, not a date; and a model's number in a kicker ("BMW
5er") labels the story like the name it belongs to. Each with a sentence of our own, in
the way of German and English news copy.
"""

from __future__ import annotations

from quietedit.analysis import Classification, classify_change
from quietedit.analysis.facts import located_facts
from quietedit.analysis.numberwords import magnitude, same_count
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


def edit(old: str, new: str, *, publisher: Publisher = GERMAN) -> Classification:
    return classify_change(
        story([old], title="Lage am Abend", publisher=publisher),
        story([new], title="Lage am Abend", publisher=publisher),
    )


# -- a count in other words ------------------------------------------------------------------


def test_both_said_as_two_is_the_same_count() -> None:
    result = edit(
        "Zwischen den beiden Weltmächten endet eine Phase vorsichtiger Entspannung, bevor "
        "sie richtig begonnen hat.",
        "Zwischen den zwei Weltmächten endet eine Phase vorsichtiger Entspannung, bevor "
        "sie richtig begonnen hat.",
    )
    assert "facts" not in result.kinds
    result = edit(
        "Talks between both governments broke down on Friday after a night of "
        "negotiations in Geneva.",
        "Talks between the two governments broke down on Friday after a night of "
        "negotiations in Geneva.",
        publisher=ENGLISH,
    )
    assert "facts" not in result.kinds


def test_another_count_in_words_is_still_a_fact() -> None:
    result = edit(
        "Aus einem fahrenden Auto soll auf drei Frauen geschossen worden sein, die vor "
        "einer Kirche standen.",
        "Aus einem fahrenden Auto soll auf vier Frauen geschossen worden sein, die vor "
        "einer Kirche standen.",
    )
    assert "facts" in result.kinds
    # "beide" kept on the new side: the two are not the same count said again
    assert not same_count("zwei", "die beiden Minister und zwei Berater", "die beiden Minister")


def test_again_said_as_a_second_time_is_the_same_count_a_third_time_is_not() -> None:
    result = headline(
        "Raumfahrt: Testrakete von SpaceX erneut explodiert",
        "Raumfahrt: Testrakete von SpaceX explodiert auch beim zweiten Anlauf",
    )
    assert "facts" not in result.kinds
    assert same_count("second", "It failed for a second time.", "It failed again.")
    assert not same_count("dritten", "beim dritten Anlauf", "erneut explodiert")


# -- a magnitude inside a compound ----------------------------------------------------------


def test_a_magnitude_changed_inside_a_compound_is_a_fact() -> None:
    result = edit(
        "Inzwischen soll der 67-jährige Multimillionär laut Medienberichten wieder liiert sein.",
        "Inzwischen soll der 67-jährige Multimilliardär laut Medienberichten wieder liiert sein.",
    )
    assert "facts" in result.kinds
    result = edit(
        "The fund is run by a millionaire from Texas who made his money in oil.",
        "The fund is run by a billionaire from Texas who made his money in oil.",
        publisher=ENGLISH,
    )
    assert "facts" in result.kinds


def test_a_compound_with_a_magnitude_put_in_alone_is_a_description() -> None:
    result = edit(
        "Inzwischen soll der 67-jährige Unternehmer laut Medienberichten wieder liiert sein.",
        "Inzwischen soll der 67-jährige Multimillionär laut Medienberichten wieder liiert sein.",
    )
    assert "facts" not in result.kinds
    assert magnitude("Milliardenverlust") == "milliard"
    assert magnitude("Millionen") is None  # a number word of its own


# -- a place given to a statement -----------------------------------------------------------


def test_a_place_given_before_a_german_noun_is_a_fact() -> None:
    result = headline(
        "Olaf Scholz und Emmanuel Macron beschwören Freundschaft beider Länder",
        "Olaf Scholz und Emmanuel Macron beschwören in Hamburg Freundschaft beider Länder",
    )
    assert "facts" in result.kinds
    facts = located_facts("Sie beschwören in Hamburg Freundschaft", names=False)
    assert [(f.text, f.name) for f in facts] == [("Hamburg", True)]


def test_a_noun_before_a_place_without_a_preposition_keeps_its_run() -> None:
    facts = located_facts("Der Bürgermeister sagt, Hamburg Tourismus wachse.", names=False)
    assert [f.text for f in facts] == ["Hamburg", "Tourismus"]


def test_a_place_given_where_the_kickers_colon_goes_is_a_fact() -> None:
    result = headline(
        "Rudy Farias: Teenager galt acht Jahre als verschwunden - dann tauchte er wieder auf",
        "Rudy Farias aus Houston galt acht Jahre als verschwunden - dann tauchte er wieder auf",
    )
    assert "facts" in result.kinds


def test_a_headline_built_anew_around_a_kicker_is_still_no_fact() -> None:
    result = headline(
        "Roger Waters: Ex-Chef von Pink Floyd geht auf Tournee",
        "Roger Waters geht auf Tournee",
    )
    assert "facts" not in result.kinds


# -- names that look like dates or counts ---------------------------------------------------


def test_a_surname_that_is_a_season_is_a_name() -> None:
    facts = located_facts("Inter Mailand will Romelu Lukaku und Yann Sommer", names=False)
    assert ("Sommer", True) in [(f.text, f.name) for f in facts]
    facts = located_facts("Die Preise steigen im Sommer weiter.", names=False)
    assert [(f.text, f.name) for f in facts] == [("Sommer", False)]
    facts = located_facts("Die Arbeiten beginnen Ende Sommer.", names=False)
    assert ("Sommer", False) in [(f.text, f.name) for f in facts]


def test_a_clause_with_a_surname_like_a_season_cut_from_a_headline_is_style() -> None:
    result = headline(
        "Fußball-Transfers: Union Berlin an Attila Szalai dran, Inter will Yann Sommer",
        "Fußball-Transfers: Union Berlin an Attila Szalai dran",
    )
    assert "facts" not in result.kinds


def test_a_models_number_in_a_kicker_labels_the_story_a_year_there_is_a_date() -> None:
    result = headline(
        "BMW 5er, Mercedes E-Klasse: Das letzte Hurra der Verbrenner",
        "Automesse IAA: Das letzte Hurra der Verbrenner",
    )
    assert "facts" not in result.kinds
    result = headline(
        "Internationaler Frauentag: Demonstrationen in aller Welt",
        "Internationaler Frauentag 2023: Demonstrationen in aller Welt",
    )
    assert "facts" in result.kinds


# -- a holiday as a date; a country as its people ------------------------------------------


def test_a_holiday_for_its_weekend_in_a_kicker_is_a_date_changed() -> None:
    result = headline(
        "Wetter zum Pfingstwochenende: Viel Sonne und bis 27 Grad warm",
        "Wetter an Pfingsten: Viel Sonne und bis 27 Grad warm",
    )
    assert "facts" in result.kinds


def test_a_country_replaced_by_its_citizens_is_style() -> None:
    result = headline(
        "Weihnachtsansprache: Steinmeier ruft Deutschland zu Zusammenhalt auf",
        "Weihnachtsansprache: Steinmeier ruft Bürgerinnen und Bürger zu Zusammenhalt auf",
    )
    assert "facts" not in result.kinds
    result = edit(
        "The president urged Germany to stand together in a time of crisis.",
        "The president urged the country to stand together in a time of crisis.",
        publisher=ENGLISH,
    )
    assert "facts" not in result.kinds


def test_a_country_replaced_by_a_mayor_or_another_country_is_still_a_fact() -> None:
    result = headline(
        "Weihnachtsansprache: Steinmeier ruft Deutschland zu Zusammenhalt auf",
        "Weihnachtsansprache: Steinmeier ruft Österreich zu Zusammenhalt auf",
    )
    assert "facts" in result.kinds
    result = edit(
        "The president urged Germany to stand together in a time of crisis.",
        "The president urged France to stand together in a time of crisis.",
        publisher=ENGLISH,
    )
    assert "facts" in result.kinds


def test_an_ordinal_changed_in_a_reworded_headline_is_a_number_changed() -> None:
    result = headline(
        "USA: Republikaner im Repräsentantenhaus lassen Kevin McCarthy auch im fünften "
        "Wahlgang durchfallen",
        "USA: Republikaner McCarthy verliert auch die sechste Abstimmung",
    )
    assert "facts" in result.kinds
