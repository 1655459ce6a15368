"""The rules of a changed fact that the held-out German edits asked for: a number read by
its figures, a kicker's date read on its own, a number added to a sentence that stays,
holidays as dates, a description for a named person either way, a word that now opens a
compound, a body's abbreviation, a dash ending a kicker, and a clause reworded in other
grammatical forms (each with a text of our own, in the way of a news site's teasers)."""

from __future__ import annotations

from quietedit.analysis import Classification, classify_change
from quietedit.analysis.phrases import KINDRED_SHARE, kicker_end, kindred
from quietedit.model import Article, Publisher
from tests.analysis.stories import story

GERMAN = Publisher(language="de")


def teaser(title: str, text: str) -> Article:
    return story([text], title=title, publisher=GERMAN)


def classify(old: Article, new: Article) -> Classification:
    return classify_change(old, new)


TEASER = "Die Stadtwerke erhöhen die Preise zum Jahreswechsel. Kunden sollen Post bekommen."


# -- numbers and dates ---------------------------------------------------------------------


def test_a_number_written_with_other_words_around_its_figures_is_the_same_number() -> None:
    old = teaser("G20-Gipfel in Lissabon: Einigung auf Abschlusserklärung", TEASER)
    new = teaser("G20 in Lissabon: Einigung auf Abschlusserklärung", TEASER)
    assert "facts" not in classify(old, new).kinds


def test_a_subscript_digit_for_a_plain_one_is_typography() -> None:
    old = teaser("Klima", "Die CO2-Grenzwerte für Lieferwagen sollen sinken.")
    new = teaser("Klima", "Die CO₂-Grenzwerte für Lieferwagen sollen sinken.")
    assert classify(old, new).kinds == {"typo"}


def test_thousands_set_apart_by_a_space_or_a_full_stop_are_the_same_number() -> None:
    old = teaser("Protest: 120 000 Menschen ziehen durch Lissabon", TEASER)
    new = teaser("Protest: 120.000 Menschen ziehen durch Lissabon", TEASER)
    assert classify(old, new).kinds == {"headline", "typo"}


def test_a_decimal_separator_changed_is_still_a_changed_number() -> None:
    old = teaser("Haushalt", "Das Defizit liegt bei 1.5 Prozent der Wirtschaftsleistung.")
    new = teaser("Haushalt", "Das Defizit liegt bei 1,5 Prozent der Wirtschaftsleistung.")
    assert "facts" in classify(old, new).kinds


def test_a_date_in_a_kicker_changed_while_the_rest_of_the_headline_was_replaced() -> None:
    old = teaser(
        "Hafen-News am Montag: Streik legt Containerterminal für einen Tag lahm",
        "Die Gewerkschaft ruft zum Ausstand auf. Und: Ein neuer Kran kommt. Die News.",
    )
    new = teaser(
        "Hafen-News am Dienstag: Reederei kündigt neue Linie nach Übersee an",
        "Die Gewerkschaft ruft zum Ausstand auf. Und: Ein neuer Kran kommt. Die News.",
    )
    assert classify(old, new).evidence("facts") == ("title: Montag → Dienstag",)


def test_the_names_of_a_replaced_headline_are_no_fact_of_its_kicker() -> None:
    old = teaser(
        "Hafen-News: Bürgermeisterin Jana Holm eröffnet neue Fähre nach Sylt",
        "Die News.",
    )
    new = teaser("Hafen-News: Reederei kündigt Linie nach Übersee an", "Die News.")
    assert "facts" not in classify(old, new).kinds


def test_an_age_added_to_a_headline_that_keeps_its_statement_is_a_fact() -> None:
    old = teaser("Marta Lind: Die »Hafenblues«-Sängerin ist tot", TEASER)
    new = teaser("Marta Lind: Die »Hafenblues«-Sängerin im Alter von 71 Jahren gestorben", TEASER)
    result = classify(old, new)
    assert "facts" in result.kinds
    assert "71" in " ".join(result.evidence("facts"))


def test_a_date_added_to_a_closing_line_is_a_fact_not_a_passage() -> None:
    old = teaser("Hafen-News", "Die Fähre fährt wieder. Die News.")
    new = teaser("Hafen-News", "Die Fähre fährt wieder. Das waren die News am 3. März.")
    result = classify(old, new)
    assert "facts" in result.kinds and "added" not in result.kinds


def test_a_vague_multitude_made_a_magnitude_is_a_changed_number() -> None:
    old = teaser("Strand", "Zahllose Quallen liegen am Strand von Kampen.")
    new = teaser("Strand", "Hunderte Quallen liegen am Strand von Kampen.")
    assert "facts" in classify(old, new).kinds


def test_a_number_word_capitalised_or_inflected_is_the_same_number() -> None:
    old = teaser("Strand", "Vier Boote und Hunderte Gäste warten am Steg.")
    new = teaser("Strand", "vier Boote und Hunderten Gästen warten am Steg.")
    assert "facts" not in classify(old, new).kinds


def test_a_number_word_joined_into_a_compound_is_a_spelling() -> None:
    old = teaser("Film", "Die Schauspielerin ist gleich zwei Mal für den Preis nominiert.")
    new = teaser("Film", "Die Schauspielerin ist gleich zweimal für den Preis nominiert.")
    assert classify(old, new).kinds == {"typo"}


def test_a_holiday_that_names_a_day_is_a_date() -> None:
    old = teaser("Wetter: Kein Schnee in Sicht", TEASER)
    new = teaser("Wetter an Heiligabend: Kein Schnee in Sicht", TEASER)
    assert "facts" in classify(old, new).kinds


# -- names ---------------------------------------------------------------------------------


def test_a_description_replaced_by_the_name_of_the_person_it_meant_is_style() -> None:
    text = "Das Verfahren in Ohio könnte für {} gefährlich werden. Das ist die Lage am Abend."
    old = teaser("News", text.format("den Ex-Gouverneur"))
    new = teaser("News", text.format("Walter Brenner"))
    result = classify(old, new)
    assert "facts" not in result.kinds and "style" in result.kinds


def test_a_given_name_put_to_a_surname_in_the_genitive_is_style() -> None:
    old = teaser("Ukraine-News: Soldatenmutter kritisiert Pawlows Auftritt", TEASER)
    new = teaser("Ukraine-News: Soldatenmutter kritisiert Auftritt von Igor Pawlow", TEASER)
    assert "facts" not in classify(old, new).kinds


def test_a_noun_beside_a_name_that_stays_is_no_name() -> None:
    old = teaser("Urteil", "Der Sänger hatte bei einer Trump-Gala Fotos mit Fans gemacht.")
    new = teaser("Urteil", "Der Sänger zeigte sich bei einer Trump-Gala mit Fans.")
    assert "facts" not in classify(old, new).kinds


def test_a_places_adjective_changed_before_its_noun_is_a_fact() -> None:
    old = teaser("Schule", "Nach den Schüssen an einer Offenbacher Schule wird debattiert.")
    new = teaser("Schule", "Nach den Schüssen an einer Offenburger Schule wird debattiert.")
    assert "facts" in classify(old, new).kinds


def test_a_word_that_now_opens_a_compound_is_the_same_word() -> None:
    text = "Weil er in den {} Fördergelder veruntreute, saß der Unternehmer im Gefängnis."
    old = teaser("Betrug", text.format("Achtzigern"))
    new = teaser("Betrug", text.format("Achtzigerjahren"))
    assert "facts" not in classify(old, new).kinds


def test_a_club_written_as_its_abbreviation_is_style() -> None:
    old = teaser("Bundesliga: Werder Bremen gewinnt, Eintracht Frankfurt verliert", TEASER)
    new = teaser("Bundesliga: Werder Bremen gewinnt, SGE verliert", TEASER)
    result = classify(old, new)
    assert "facts" not in result.kinds and "style" in result.kinds


def test_a_name_replaced_by_another_abbreviation_and_more_is_still_a_fact() -> None:
    old = teaser("Landtag", "Die Abgeordnete Jana Holm stimmte gegen den Haushalt.")
    new = teaser("Landtag", "Die Abgeordnete der SPD stimmte gegen den Haushalt von Olaf Berg.")
    assert "facts" in classify(old, new).kinds


def test_a_name_shortened_with_a_full_stop_is_the_same_name() -> None:
    old = teaser("Gipfel", "Die Minister treffen sich in Sankt Petersburg. Das ist die Lage.")
    new = teaser("Gipfel", "Die Minister treffen sich in St. Petersburg. Das ist die Lage.")
    assert "facts" not in classify(old, new).kinds


def test_the_place_a_kept_topic_is_located_in_replaced_is_a_fact() -> None:
    old = teaser("Dürre in Spanien: Bauern bangen um die Ernte", TEASER)
    new = teaser("Dürre in Portugal: Bauern bangen um die Ernte", TEASER)
    assert "facts" in classify(old, new).kinds


def test_a_place_given_to_a_kept_topic_is_a_fact_and_one_dropped_labels_the_story() -> None:
    old = teaser("Dürre: Bauern bangen um die Ernte", TEASER)
    new = teaser("Dürre in Portugal: Bauern bangen um die Ernte", TEASER)
    assert "facts" in classify(old, new).kinds  # where the drought is, given where none was
    assert "facts" not in classify(new, old).kinds


def test_a_statement_before_a_headlines_colon_is_no_kicker() -> None:
    # a verb of its own: the words before the colon state something, and the
    # competition cut from them is a fact dropped, not a label
    old = teaser("Hertha schlägt Union in der Champions League: Ein Abend für die Fans", TEASER)
    new = teaser("Hertha schlägt Union: Ein Abend für die Fans", TEASER)
    assert "facts" in classify(old, new).kinds
    assert kicker_end("Hans Meiser ist tot: Der Moderator") == 0
    assert kicker_end("Krieg in der Ukraine: Die Lage") == len("Krieg in der Ukraine")
    assert kicker_end("Ukraine-News am Freitag: Die Lage") == len("Ukraine-News am Freitag")


def test_a_kicker_ended_by_a_dash_labels_the_story() -> None:
    old = teaser("Streit in der Türkei \u2013 Gericht verbietet Kundgebung in Izmir", TEASER)
    new = teaser("Gericht verbietet Kundgebung in Izmir", TEASER)
    assert "facts" not in classify(old, new).kinds


# -- rewordings ----------------------------------------------------------------------------


def test_a_clause_said_with_compounds_of_its_words_is_not_a_passage_replaced() -> None:
    kept = " Bilder aus der Stadt nach dem Unglück am Morgen. Die Lage bleibt angespannt."
    old = teaser(
        "Sperrung",
        "Straßen wurden gesperrt, Helfer und ein gepanzertes Fahrzeug sichern den Platz." + kept,
    )
    new = teaser(
        "Sperrung", "Mit Straßensperren und Panzerfahrzeugen sichern Helfer den Platz." + kept
    )
    assert kindred(old.blocks[0].text, new.blocks[0].text) >= KINDRED_SHARE
    result = classify(old, new)
    assert not result.kinds & {"added", "removed"}
    # a clause replaced by one that says something else still is
    other = teaser("Sperrung", "Am Abend feierten Hunderte Menschen ein schönes Fest." + kept)
    assert {"added", "removed"} <= classify(old, other).kinds


def test_a_headline_built_around_a_new_kicker_is_a_rewording_not_a_typo() -> None:
    old = teaser("Dänemarks Regierung will Wahl per App erlauben", TEASER)
    new = teaser("Dänemark: Regierung will Wahl per App erlauben", TEASER)
    assert classify(old, new).kinds == {"headline", "style"}
    # punctuation that leaves the kicker as it was is still a typo
    fixed = teaser("Dänemark: Regierung will Wahl per App erlauben!", TEASER)
    assert "typo" in classify(new, fixed).kinds


def test_a_word_respelt_inside_a_quotation_is_a_typo_not_a_quote_changed() -> None:
    old = teaser("Ermittlungen", "Die Polizei hat »keinerlei Hinwiese« auf einen Anschlag.")
    new = teaser("Ermittlungen", "Die Polizei hat »keinerlei Hinweise« auf einen Anschlag.")
    assert classify(old, new).kinds == {"typo"}
    reworded = teaser("Ermittlungen", "Die Polizei hat »keinerlei Spuren« auf einen Anschlag.")
    assert "quote" in classify(old, reworded).kinds


def test_a_clause_reworded_in_other_grammatical_forms_is_not_a_passage_replaced() -> None:
    old = teaser(
        "Lobby",
        "Der Verband ist gut vernetzt. Moderne Methoden, reiche Förderer: So prägt man "
        "die Debatte und verwischt die Grenzen.",
    )
    new = teaser(
        "Lobby",
        "Der Verband ist gut vernetzt. Mit modernen Methoden und reichen Förderern prägen "
        "sie die Debatte. Teils verwischt die Grenze.",
    )
    result = classify(old, new)
    assert not result.kinds & {"added", "removed"}
    assert "style" in result.kinds
