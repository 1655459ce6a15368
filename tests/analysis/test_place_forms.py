"""A place said in other words is no changed fact: a region by its compass point where the
text still names the place, a country by its adjective; and a number in a sentence of its
own that an edit puts in belongs to the new sentence, not to a changed fact. Another
region, another country and a number changed in a sentence that stays are still facts
(each with a sentence of our own, in the way of German and English news copy)."""

from __future__ import annotations

import pytest

from quietedit.analysis import Classification, classify_change
from quietedit.analysis.placeforms import adjective_of
from quietedit.model import Publisher
from tests.analysis.stories import story

GERMAN = Publisher(language="de")
ENGLISH = Publisher(language="en")
TEASER = "Die Lage an der Front bleibt unübersichtlich. Mehr dazu im Überblick."


def headline(old: str, new: str) -> Classification:
    return classify_change(
        story([TEASER], title=old, publisher=GERMAN), story([TEASER], title=new, publisher=GERMAN)
    )


def edit(old: str, new: str, *, publisher: Publisher = GERMAN) -> Classification:
    return classify_change(
        story([old], title="Lage am Abend", publisher=publisher),
        story([new], title="Lage am Abend", publisher=publisher),
    )


# -- a region by its compass point ---------------------------------------------------------


def test_a_region_said_as_its_compass_point_where_the_place_is_named_is_style() -> None:
    result = headline(
        "Ukraine-News heute: Kiew meldet Geländegewinne in Südukraine",
        "Ukraine-News heute: Kiew meldet Geländegewinne im Süden",
    )
    assert result.kinds == {"headline", "style"}
    result = headline(
        "Syrien: Türkische Armee greift Stellungen in Nordsyrien an",
        "Syrien: Türkische Armee greift Stellungen im Norden an",
    )
    assert "facts" not in result.kinds


def test_another_region_of_the_place_is_still_a_fact() -> None:
    result = headline(
        "Ukraine-News heute: Kiew meldet Geländegewinne in Ostukraine",
        "Ukraine-News heute: Kiew meldet Geländegewinne in Südukraine",
    )
    assert "facts" in result.kinds


def test_a_region_cut_to_its_compass_point_with_the_place_named_nowhere_is_a_fact() -> None:
    # without "Ukraine" elsewhere, "im Süden" loses where the gains were
    result = headline(
        "Lage am Abend: Kiew meldet Geländegewinne in Südukraine",
        "Lage am Abend: Kiew meldet Geländegewinne im Süden",
    )
    assert "facts" in result.kinds


def test_the_place_left_must_be_named_as_a_word_not_inside_another() -> None:
    # "Nordkorea" minus "Nord" leaves "Korea", which "Südkorea" holds but does not name
    result = headline(
        "Raketentest: Südkorea meldet Starts in Nordkorea",
        "Raketentest: Südkorea meldet Starts im Norden",
    )
    assert "facts" in result.kinds


# -- a country by its adjective ------------------------------------------------------------


@pytest.mark.parametrize(
    ("adjective", "country"),
    [
        ("chinesischen", "China"),
        ("russische", "Russland"),
        ("französischer", "Frankreich"),
        ("ukrainischen", "Ukraine"),
        ("Chinese", "China"),
        ("Ukrainian", "Ukraine"),
        ("British", "Britain"),
    ],
)
def test_a_countrys_adjective_is_known_by_its_first_letters_and_ending(
    adjective: str, country: str
) -> None:
    assert adjective_of(adjective, country)


@pytest.mark.parametrize(
    ("word", "country"),
    [
        ("russischen", "China"),  # another country
        ("Offenbach", "Offenburg"),  # a town, not an adjective
        ("chinesischen", "Chile"),  # other first letters
        ("China", "China"),  # the name itself
    ],
)
def test_a_word_that_is_not_the_countrys_adjective_is_not_taken_for_it(
    word: str, country: str
) -> None:
    assert not adjective_of(word, country)


def test_a_countrys_adjective_replaced_by_its_name_is_style() -> None:
    result = headline(
        "Taiwan meldet größte Grenzverletzung der chinesischen Luftwaffe",
        "Taiwan meldet größte Grenzverletzung der Luftwaffe aus China",
    )
    assert result.kinds == {"headline", "style"}


def test_another_country_named_for_the_adjective_is_still_a_fact() -> None:
    result = headline(
        "Taiwan meldet größte Grenzverletzung der chinesischen Luftwaffe",
        "Taiwan meldet größte Grenzverletzung der Luftwaffe aus Russland",
    )
    assert "facts" in result.kinds


def test_an_english_countrys_adjective_for_its_name_is_style_another_country_a_fact() -> None:
    old = "Officials said a Ukrainian drone hit the depot on Monday night."
    same = edit(old, "Officials said a drone from Ukraine hit the depot on Monday night.",
                publisher=ENGLISH)  # fmt: skip
    other = edit(old, "Officials said a drone from Russia hit the depot on Monday night.",
                 publisher=ENGLISH)  # fmt: skip
    assert "facts" not in same.kinds
    assert "facts" in other.kinds


# -- a number in a sentence of its own -----------------------------------------------------


def test_a_number_in_a_sentence_put_in_beside_a_reworded_one_is_new_content() -> None:
    result = edit(
        "In der Region haben die Menschen erneut einen starken Erdstoß gespürt. Es ist "
        "bereits das zweite Beben.",
        "In der Region kam es erneut zu einem starken Erdstoß. Mindestens acht Menschen "
        "wurden verletzt \u2013 es ist bereits das zweite Beben.",
    )
    assert "facts" not in result.kinds
    result = edit(
        "The storm hit the coast overnight. It was the second this week.",
        "The storm reached the coast overnight. At least eight people were injured; it was "
        "the second this week.",
        publisher=ENGLISH,
    )
    assert "facts" not in result.kinds


def test_a_number_changed_in_a_sentence_that_stays_is_still_a_fact() -> None:
    result = edit(
        "Dabei sah es sechs Kilometer vor dem Ziel nicht danach aus. Sie stürzte.",
        "Dabei sah es zehn Kilometer vor dem Ziel nicht danach aus. Sie stürzte.",
    )
    assert result.kinds == {"facts", "lede"}
    result = edit(
        "At least six people were injured, the police said on Monday.",
        "At least eight people were injured, the police said on Monday.",
        publisher=ENGLISH,
    )
    assert "facts" in result.kinds


# -- a number opening a compound -----------------------------------------------------------


def test_the_count_opening_a_compound_changed_is_a_fact() -> None:
    result = headline(
        "Bundesliga: Dortmund gewinnt Sechs-Tore-Spiel gegen Köln",
        "Bundesliga: Dortmund gewinnt Acht-Tore-Spiel gegen Köln",
    )
    assert result.evidence("facts") == ("title: Sechs → Acht",)
    result = edit(
        "The prime minister begins a two-day visit to Kenya on Monday.",
        "The prime minister begins a three-day visit to Kenya on Monday.",
        publisher=ENGLISH,
    )
    assert "facts" in result.kinds


def test_a_compound_with_a_count_kept_while_the_sentence_is_reworded_is_no_fact() -> None:
    result = edit(
        "Die Regierung hält an der Zwei-Staaten-Lösung fest, sagte der Minister am Abend.",
        "Die Regierung bekennt sich zur Zwei-Staaten-Lösung, sagte der Minister am Abend.",
    )
    assert "facts" not in result.kinds


# -- a body's name is no description ---------------------------------------------------------


def test_a_federal_body_replaced_by_another_bodys_initials_is_a_fact() -> None:
    result = edit(
        "Die Ermittlungen führt der Bundesnachrichtendienst, teilte ein Sprecher mit.",
        "Die Ermittlungen führt das BKA, teilte ein Sprecher mit.",
    )
    assert result.evidence("facts") == ("block 1: added BKA",)


def test_a_description_of_a_body_named_by_its_initials_is_still_style() -> None:
    result = edit(
        "Die Ermittlungen führt die Behörde, teilte ein Sprecher mit.",
        "Die Ermittlungen führt das BKA, teilte ein Sprecher mit.",
    )
    assert "facts" not in result.kinds
    result = edit(
        "Die Ermittlungen führt der Bundesnachrichtendienst, teilte ein Sprecher mit.",
        "Die Ermittlungen führt der BND, teilte ein Sprecher mit.",
    )
    assert "facts" not in result.kinds
