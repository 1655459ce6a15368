"""Numbers and dates compared by what they say, not by how they are written.

An ordinal is compared by its value, not its ending ("die zweite Hinrichtung" and "den
zweiten Demonstranten" count the same); another ordinal is still a changed fact. A count
weighs as a changed number where the other side counts the same thing or gives another
number; a count that goes with the statement it was part of ("Kiew meldet [-16
abgeschossene Raketen-]{+Vorankommen im Osten+}") is a statement replaced. Each with a
sentence of our own, in the way of German and English news copy.
"""

from __future__ import annotations

from quietedit.analysis.changedfacts import counted_kept, is_count
from quietedit.analysis.lexicon import number_form
from quietedit.analysis.numberwords import ordinal_value
from tests.analysis.test_fact_counts import ENGLISH, edit, headline

# -- an ordinal by its value -----------------------------------------------------------------


def test_an_ordinal_in_another_inflection_has_one_value() -> None:
    assert ordinal_value("zweite") == ordinal_value("zweiten") == ordinal_value("Zweiter")
    assert ordinal_value("zweite") != ordinal_value("dritte")
    assert ordinal_value("Zweifel") is None
    assert number_form("zweiten") == number_form("zweites")
    assert number_form("zweiten") != number_form("2.")  # a number written another way


def test_an_ordinal_inflected_for_another_noun_is_no_changed_fact() -> None:
    result = headline(
        "Iran: Regime vollstreckt zweite Hinrichtung eines Demonstranten",
        "Iran: Regime richtet zweiten Demonstranten hin",
    )
    assert "facts" not in result.kinds
    result = edit(
        "Die Polizei hat am Abend einen zweiten Verdächtigen festgenommen, teilte die "
        "Staatsanwaltschaft mit.",
        "Die Polizei hat am Abend eine zweite Verdächtige festgenommen, teilte die "
        "Staatsanwaltschaft mit.",
    )
    assert "facts" not in result.kinds


def test_another_ordinal_is_still_a_changed_fact() -> None:
    result = headline(
        "Iran: Regime vollstreckt zweite Hinrichtung eines Demonstranten",
        "Iran: Regime richtet dritten Demonstranten hin",
    )
    assert "facts" in result.kinds
    result = edit(
        "Police arrested a fourth suspect on Sunday, the county sheriff's office said.",
        "Police arrested a fifth suspect on Sunday, the county sheriff's office said.",
        publisher=ENGLISH,
    )
    assert "facts" in result.kinds


def test_an_english_ordinal_kept_in_a_reworded_sentence_is_no_changed_fact() -> None:
    result = edit(
        "Police made a fourth arrest on Sunday, the county sheriff's office said.",
        "Police arrested a fourth suspect on Sunday, the county sheriff's office said.",
        publisher=ENGLISH,
    )
    assert "facts" not in result.kinds


# -- a span of time placed -------------------------------------------------------------------


def test_this_year_given_to_a_statement_is_a_date_added() -> None:
    result = edit(
        "Jeder Deutsche hat durchschnittlich 26.271 Euro zur Verfügung, zeigt eine Studie "
        "des Instituts.",
        "Jeder Deutsche hat in diesem Jahr durchschnittlich 26.271 Euro zur Verfügung, "
        "zeigt eine Studie des Instituts.",
    )
    assert result.kinds == {"facts", "lede"}  # the date alone: no rewording beside it
    result = edit(
        "Each household has on average $26,271 to spend, a study by the institute shows.",
        "Each household has on average $26,271 to spend this year, a study by the institute shows.",
        publisher=ENGLISH,
    )
    assert "facts" in result.kinds


def test_a_span_of_time_without_a_word_placing_it_is_no_date() -> None:
    result = edit(
        "Die Verhandlungen laufen seit Wochen, ein Ergebnis ist nicht in Sicht, heißt es "
        "aus Kreisen der Regierung.",
        "Die Verhandlungen laufen schon seit Wochen, ein Ergebnis ist nicht in Sicht, heißt "
        "es aus Kreisen der Regierung.",
    )
    assert "facts" not in result.kinds


# -- a count and what it counts --------------------------------------------------------------


def test_what_a_count_counts_is_found_by_its_stem() -> None:
    text = "Kiew meldet 16 abgeschossene Raketen"
    end = text.index("16") + 2
    assert counted_kept(text, end, "Die Armee hat mehrere Raketen abgeschossen")
    assert not counted_kept(text, end, "Kiew meldet Vorankommen im Osten")
    assert counted_kept("Es gewann 6:2", len("Es gewann 6:2"), "Ein Sieg")  # nothing counted
    assert is_count("16") and is_count("zwei") and is_count("dritten")
    assert not is_count("2022") and not is_count("Montag")


def test_a_count_that_goes_with_its_statement_is_no_changed_fact() -> None:
    result = headline(
        "Ukraine-News am Donnerstag: Kiew meldet 16 abgeschossene Raketen",
        "Ukraine-News am Donnerstag: Kiew meldet Vorankommen im Osten",
    )
    assert "facts" not in result.kinds
    result = headline(
        "Ukraine live: Kyiv reports 16 missiles downed",
        "Ukraine live: Kyiv reports advances in the east",
        publisher=ENGLISH,
    )
    assert "facts" not in result.kinds


def test_a_count_dropped_or_changed_while_its_noun_stays_is_still_a_fact() -> None:
    result = headline(
        "Ukraine-News am Donnerstag: Kiew meldet 16 abgeschossene Raketen",
        "Ukraine-News am Donnerstag: Kiew meldet abgeschossene Raketen",
    )
    assert "facts" in result.kinds
    result = edit(
        "Bei den Protesten wurden Straßen blockiert. Ein Mensch kam ums Leben.",
        "Bei den Protesten wurden Straßen blockiert. Zwei Menschen kamen ums Leben.",
    )
    assert "facts" in result.kinds
    result = headline(
        "Ukraine live: Kyiv says it shot down 16 missiles overnight",
        "Ukraine live: Kyiv says it shot down 20 missiles overnight",
        publisher=ENGLISH,
    )
    assert "facts" in result.kinds


# -- the bound a number is given ---------------------------------------------------------------


def test_another_bound_for_a_number_is_a_changed_fact() -> None:
    result = edit(
        "Im kommenden Jahr dürfen die Ministerien über acht Milliarden Euro mehr ausgeben "
        "als bisher geplant.",
        "Im kommenden Jahr dürfen die Ministerien etwa acht Milliarden Euro mehr ausgeben "
        "als bisher geplant.",
    )
    assert result.kinds == {"facts", "lede"}
    result = edit(
        "The storm left 40 people dead across three counties, officials said on Monday.",
        "The storm left more than 40 people dead across three counties, officials said on Monday.",
        publisher=ENGLISH,
    )
    assert "facts" in result.kinds


def test_the_same_bound_in_other_words_is_no_changed_fact() -> None:
    result = edit(
        "Im kommenden Jahr dürfen die Ministerien über acht Milliarden Euro mehr ausgeben "
        "als bisher geplant.",
        "Im kommenden Jahr dürfen die Ministerien mehr als acht Milliarden Euro mehr "
        "ausgeben als bisher geplant.",
    )
    assert "facts" not in result.kinds
    result = edit(
        "The storm left nearly 40 people dead across three counties, officials said.",
        "The storm left almost 40 people dead across three counties, officials said.",
        publisher=ENGLISH,
    )
    assert "facts" not in result.kinds


# -- a kicker's topic said shorter, and a place given to it ------------------------------------


def test_a_place_given_to_a_kickers_topic_said_shorter_is_a_fact() -> None:
    result = headline(
        "Coronavirus: Behörde meldet 73.856 Neuinfektionen - diese Regeln gelten ab heute",
        "Corona in Deutschland: Behörde meldet 73.856 Neuinfektionen - diese Regeln gelten "
        "ab heute",
    )
    assert "facts" in result.kinds
    result = headline(
        "Coronavirus: Health agency reports 73,856 new cases as new rules take effect",
        "Corona in Germany: Health agency reports 73,856 new cases as new rules take effect",
        publisher=ENGLISH,
    )
    assert "facts" in result.kinds


def test_a_kickers_topic_said_shorter_or_its_place_cut_is_no_fact() -> None:
    result = headline(
        "Coronavirus: Behörde meldet 73.856 Neuinfektionen - diese Regeln gelten ab heute",
        "Corona-Pandemie: Behörde meldet 73.856 Neuinfektionen - diese Regeln gelten ab heute",
    )
    assert "facts" not in result.kinds
    result = headline(
        "Corona in Germany: Health agency reports 73,856 new cases as new rules take effect",
        "Coronavirus: Health agency reports 73,856 new cases as new rules take effect",
        publisher=ENGLISH,
    )
    assert "facts" not in result.kinds


# -- a number that describes the person named after it -----------------------------------------


def test_a_description_with_a_number_put_before_a_kept_name_is_style() -> None:
    result = headline(
        "Kourtney Kardashian und Travis Barker stellen ihren Sohn vor",
        "Kourtney Kardashian und Blink-182-Drummer Travis Barker stellen ihren Sohn vor",
    )
    assert "facts" not in result.kinds
    result = headline(
        "Kourtney Kardashian and Travis Barker introduce their son",
        "Kourtney Kardashian and Blink-182 drummer Travis Barker introduce their son",
        publisher=ENGLISH,
    )
    assert "facts" not in result.kinds


def test_a_number_before_a_thing_or_a_new_name_is_still_a_fact() -> None:
    result = headline(
        "Niederlande liefern der Ukraine Kampfjets",
        "Niederlande liefern der Ukraine F-16-Kampfjets",
    )
    assert "facts" in result.kinds
    result = headline(
        "Kourtney Kardashian introduces her son",
        "Kourtney Kardashian and Blink-182 drummer Travis Barker introduce their son",
        publisher=ENGLISH,
    )
    assert "facts" in result.kinds
