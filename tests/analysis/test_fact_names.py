"""The name and number rules of a changed fact in German teasers: a kicker's place
replaced by one the place list lacks, places of the world that are not German words, a
name that moved between the headline and the text or that the article names elsewhere, a
person's name for an adjective and a noun, a weekday with its part of the day, a
columnist named at the end of a headline, ordinals, and a number that moved (each with a
text of our own, in the way of a news site's teasers)."""

from __future__ import annotations

from quietedit.analysis import Classification, classify_change
from quietedit.analysis.facts import fact_tokens
from quietedit.analysis.numberwords import is_date_word
from quietedit.analysis.phrases import widened
from quietedit.analysis.places import is_german_place
from quietedit.model import Article, Publisher
from tests.analysis.stories import story

GERMAN = Publisher(language="de")
TEASER = "Die Feuerwehr sperrt die Straße. Pendler sollen mehr Zeit einplanen."


def teaser(title: str, text: str = TEASER) -> Article:
    return story([text], title=title, publisher=GERMAN)


def classify(old: Article, new: Article) -> Classification:
    return classify_change(old, new)


def facts_evidence(result: Classification) -> tuple[str, ...]:
    return result.evidence("facts")


# -- places --------------------------------------------------------------------------------


def test_a_kickers_place_replaced_by_a_town_the_list_lacks_is_a_fact() -> None:
    old = teaser("Brückenbrand bei Kvarnholm: Autobahn bleibt gesperrt")
    new = teaser("Brückenbrand in Norwegen: Autobahn bleibt gesperrt")
    result = classify(old, new)
    assert "facts" in result.kinds
    assert facts_evidence(result) == ("title: Kvarnholm → Norwegen",)


def test_a_kickers_place_widened_the_other_way_is_a_fact_too() -> None:
    old = teaser("Brückenbrand in Norwegen: Autobahn bleibt gesperrt")
    new = teaser("Brückenbrand bei Kvarnholm: Autobahn bleibt gesperrt")
    assert facts_evidence(classify(old, new)) == ("title: Norwegen → Kvarnholm",)


def test_a_kickers_topic_replaced_next_to_a_place_is_no_place_changed() -> None:
    old = teaser("Brückenbrand mit Verletzten: Autobahn bleibt gesperrt")
    new = teaser("Brückenbrand in Norwegen: Autobahn bleibt gesperrt")
    assert "facts" not in classify(old, new).kinds  # a place added to a kicker labels it


def test_a_place_given_after_a_kickers_kept_topic_is_a_fact_and_one_cut_is_a_label() -> None:
    old = teaser("Umstrittene Masken-Entscheidung: Amtsrichter muss Strafe zahlen")
    new = teaser("Masken-Entscheidung in Erfurt: Amtsrichter muss Strafe zahlen")
    assert facts_evidence(classify(old, new)) == ("title: added Erfurt",)
    assert "facts" not in classify(new, old).kinds  # the kicker's place dropped: a label
    # a topic the old kicker lacks: the whole kicker is a new label
    other = teaser("Streit um Masken: Amtsrichter muss Strafe zahlen")
    assert "facts" not in classify(other, new).kinds


def test_a_world_city_is_a_place_and_a_city_named_like_a_german_noun_is_not() -> None:
    assert is_german_place("Seattle")
    assert is_german_place("Alabama")
    assert not is_german_place("Corona")  # a city, and in German the virus
    assert not is_german_place("Olympia")  # "bei Olympia": the Games
    assert not is_german_place("Mitte")
    assert fact_tokens("Der Zug hält künftig in Seattle.", names=False) == ["Seattle"]


def test_a_german_town_corrected_to_another_is_a_fact() -> None:
    # towns of German-speaking countries are listed from 15,000 people, and a town whose
    # people's plural the word list knows ("Offenbachern") is no noun
    assert is_german_place("Offenbach") and is_german_place("Offenburg")
    old = teaser("Besuch", "Sie fuhr zu ihm nach Offenbach. Es wurde ein langer Abend.")
    new = teaser("Besuch", "Sie fuhr zu ihm nach Offenburg. Es wurde ein langer Abend.")
    assert facts_evidence(classify(old, new)) == ("block 1: Offenbach → Offenburg",)


def test_a_world_city_added_to_a_headlines_statement_is_a_fact() -> None:
    old = teaser("Flugzeugbau: Letzte Maschine verlässt das Werk")
    new = teaser("Flugzeugbau: Letzte Maschine verlässt das Werk in Seattle")
    assert facts_evidence(classify(old, new)) == ("title: added Seattle",)


# -- a name moved or named elsewhere -------------------------------------------------------


def test_a_place_moved_from_the_headline_into_the_teaser_changed_no_fact() -> None:
    old = teaser(
        "Regierungsbildung in Portugal: Bündnis einigt sich auf Vertrag",
        "Das Bündnis hat den Vertrag ausgearbeitet. Zusammen hatte es die Mehrheit.",
    )
    new = teaser(
        "Regierungsbildung: Bündnis einigt sich auf Vertrag",
        "Das Bündnis in Portugal hat den Vertrag ausgearbeitet. Zusammen hatte es die Mehrheit.",
    )
    assert "facts" not in classify(old, new).kinds


def test_a_name_cut_from_the_teaser_while_the_headline_names_her_is_no_fact() -> None:
    title = "Protest in Lissabon: Studentin Mara Quintela festgenommen"
    old = teaser(title, "Die Studentin Mara Quintela wird nach der Kundgebung wohl angeklagt.")
    new = teaser(title, "Die Studentin wurde nach der Kundgebung angeklagt.")
    assert "facts" not in classify(old, new).kinds


def test_a_name_cut_from_the_teaser_that_the_article_names_nowhere_else_is_a_fact() -> None:
    title = "Protest in Lissabon: Studentin festgenommen"
    old = teaser(title, "Die Polizei nahm bei der Kundgebung Mara Quintela und Rui Dias fest.")
    new = teaser(title, "Die Polizei nahm bei der Kundgebung Mara Quintela fest.")
    assert "facts" in classify(old, new).kinds


# -- a person described, a date, a columnist ------------------------------------------------


def test_a_persons_name_replaced_by_an_adjective_and_a_noun_is_style() -> None:
    old = teaser("Urteil: Gericht bestätigt Strafe für Jonas Wendler")
    new = teaser("Urteil: Gericht bestätigt Strafe für früheren Bürgermeister")
    assert classify(old, new).kinds == {"headline", "style"}


def test_a_place_replaced_by_an_adjective_and_a_noun_is_still_a_fact() -> None:
    old = teaser("Urteil: Gericht bestätigt Strafe für Firma aus Lissabon")
    new = teaser("Urteil: Gericht bestätigt Strafe für Firma aus portugiesischer Hauptstadt")
    assert "facts" in classify(old, new).kinds


def test_a_weekday_run_together_with_the_part_of_the_day_is_a_date() -> None:
    assert is_date_word("dienstagabend")
    assert not is_date_word("feierabend")
    old = teaser("Verkehr", "Die Brücke wird am Montagabend für den Verkehr gesperrt.")
    new = teaser("Verkehr", "Die Brücke wird am Dienstagabend für den Verkehr gesperrt.")
    assert facts_evidence(classify(old, new)) == ("block 1: Montagabend → Dienstagabend",)


def test_the_columnist_named_at_the_end_of_a_headline_is_a_credit_not_a_fact() -> None:
    old = teaser("Doppelte Standards: Die alte Leier - Kolumne von Jana Berger")
    new = teaser("Doppelte Standards: Die alte Leier - Kolumne")
    result = classify(old, new)
    assert "facts" not in result.kinds
    assert "byline" in result.kinds
    assert result.evidence("byline") == ("title: credit line removed: “von Jana Berger”",)


def test_a_speaker_named_at_the_end_of_a_headline_is_still_a_fact() -> None:
    old = teaser("Haushalt: Kritik an Sparplänen - Rede von Jana Berger")
    new = teaser("Haushalt: Kritik an Sparplänen - Rede")
    result = classify(old, new)
    assert "byline" not in result.kinds


# -- numbers -------------------------------------------------------------------------------


def test_a_german_ordinal_is_a_number_but_first_ranks_rather_than_counts() -> None:
    assert fact_tokens("Die Küstenwache meldet ein viertes Leck.", names=False) == ["viertes"]
    assert fact_tokens("Die ersten Neuheiten der Messe.", names=False) == []
    old = teaser("Pipeline: Küstenwache meldet weiteres Leck")
    new = teaser("Pipeline: Küstenwache meldet viertes Leck")
    assert facts_evidence(classify(old, new)) == ("title: added viertes",)


def test_a_number_cut_from_a_kicker_that_the_headline_still_gives_moved() -> None:
    old = teaser("A-400-Transporter für Kenia: Bund sagt Lieferung zu")
    new = teaser("Kenia: Bund verpflichtet sich zur Lieferung von A-400 an Nairobi")
    assert "facts" not in classify(old, new).kinds


def test_a_number_cut_from_a_kicker_that_is_nowhere_else_is_a_fact() -> None:
    old = teaser("Handball-WM 2027: Deutschland besiegt Kenia")
    new = teaser("Handball-WM: Deutschland besiegt Kenia")
    assert "facts" in classify(old, new).kinds


def test_a_clause_of_its_own_put_into_a_headline_names_no_fact_of_the_statement() -> None:
    old = teaser("Pokal: Werder scheitert an Viktoria Köln")
    new = teaser("Pokal: Werder scheitert an Viktoria Köln, auch VfL Bochum raus")
    assert "facts" not in classify(old, new).kinds


def test_a_toll_put_into_a_headline_after_a_comma_is_still_a_fact() -> None:
    old = teaser("Erdbeben: Häuser in Küstenstadt eingestürzt")
    new = teaser("Erdbeben: Häuser in Küstenstadt eingestürzt, mindestens 20 Tote")
    assert "facts" in classify(old, new).kinds


def test_a_capital_standing_for_its_country_is_style_but_a_place_of_events_a_fact() -> None:
    old = teaser("Waffen", "Dutzende Panzer hat die Ukraine aus dem Westen erhalten.")
    new = teaser("Waffen", "Dutzende Panzer hat Kiew aus dem Westen erhalten.")
    assert "facts" not in classify(old, new).kinds
    old = teaser("Waffen", "Die Panzer sollen in der Ukraine eintreffen.")
    new = teaser("Waffen", "Die Panzer sollen in Kiew eintreffen.")
    assert facts_evidence(classify(old, new)) == ("block 1: Ukraine → Kiew",)


# -- single-word names joined to a name ------------------------------------------------------


def test_a_surname_joined_to_a_titled_name_is_a_name_and_a_long_compound_is_not() -> None:
    assert fact_tokens("Die Ministerinnen Bauer und Yilmaz reisen ab.", names=False) == [
        "Ministerinnen",
        "Bauer",
        "Yilmaz",
    ]  # "Ministerinnen Bauer": a run of capitals; "Yilmaz": joined to it
    assert fact_tokens("Ein Film von ARTE und Netflix startet.", names=False) == ["ARTE", "Netflix"]
    # a noun ending like one, a long compound, one the text puts after an article
    assert "Regierung" not in fact_tokens("Minister Bauer und Regierung streiten.", names=False)
    assert "Wohnraummangel" not in fact_tokens(
        "Wie die Bauministerin Mietwucher und Wohnraummangel stoppen will.", names=False
    )
    assert "Kabinett" not in fact_tokens(
        "Minister Bauer und Kabinett streiten. Das Kabinett tagt.", names=False
    )


def test_a_second_minister_named_in_a_phrase_said_at_more_length_is_a_fact() -> None:
    old = teaser("Reform", "Innenminister Bauer hat neue Pläne vorgelegt. Es wird gestritten.")
    new = teaser(
        "Reform",
        "Die Minister Bauer und Yilmaz haben neue Pläne vorgelegt. Es wird gestritten.",
    )
    assert facts_evidence(classify(old, new)) == ("block 1: added Yilmaz",)


def test_one_word_found_again_in_a_long_change_makes_no_phrase_said_at_more_length() -> None:
    assert widened("SPIEGEL-Podcast", "Podcast von SPIEGEL und Spotify")
    assert not widened("Mayor", '<script>alert(1)</script> Mayor "><img src=x onerror=alert(2)>')


def test_a_bodys_abbreviation_while_its_full_name_stays_is_a_rewording() -> None:
    old = teaser("Lena Berg von Fortuna Köln: Ausgebremst")
    new = teaser("Lena Berg von Fortuna Köln: Wie die Stürmerin beim SCF ausgebremst wird")
    assert "facts" not in classify(old, new).kinds
