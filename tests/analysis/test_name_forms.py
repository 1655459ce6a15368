"""Another form of the same name is no changed fact: an abbreviation and its long form
(initials of the words, or of a compound's parts), a surname alone and the full name, and
the forms of the alias list; while another person, party or body named instead still is
(each with a sentence of our own, in the way of German and English news copy)."""

from __future__ import annotations

import pytest

from quietedit.analysis import Classification, classify_change
from quietedit.analysis.aliases import ALIASES
from quietedit.analysis.shortforms import abbreviates, is_abbreviation
from quietedit.model import Publisher
from tests.analysis.stories import story

GERMAN = Publisher(language="de")
ENGLISH = Publisher(language="en")


def edit(old: str, new: str, *, publisher: Publisher = GERMAN) -> Classification:
    """One paragraph edited under a kept headline."""
    return classify_change(
        story([old], title="Lage am Abend", publisher=publisher),
        story([new], title="Lage am Abend", publisher=publisher),
    )


def headline(old: str, new: str) -> Classification:
    text = "Die Abstimmung ist für Freitag angesetzt. Mehr dazu im Überblick."
    return classify_change(
        story([text], title=old, publisher=GERMAN), story([text], title=new, publisher=GERMAN)
    )


# -- initials of words and of a compound's parts ---------------------------------------------


@pytest.mark.parametrize(
    ("short", "long_"),
    [
        ("BND", "Bundesnachrichtendienst"),
        ("BKA", "Bundeskriminalamt"),
        ("BVerfG", "Bundesverfassungsgericht"),
        ("EU", "Europäische Union"),
        ("EZB", "Europäische Zentralbank"),
        ("AfD", "Alternative für Deutschland"),
        ("BAMF", "Bundesamt für Migration und Flüchtlinge"),
        ("NHS", "National Health Service"),
        ("FBI", "Federal Bureau of Investigation"),
    ],
)
def test_an_abbreviation_is_the_initials_of_its_words_or_its_compounds_parts(
    short: str, long_: str
) -> None:
    assert is_abbreviation(short)
    assert abbreviates(short, long_.split())


@pytest.mark.parametrize(
    ("short", "long_"),
    [
        ("BND", "Bundeskriminalamt"),  # another agency: no "n" opens a part
        ("MAD", "Bundesnachrichtendienst"),
        ("FR", "Frankreich"),  # two capitals: initials of words only, no parts
        ("NHS", "National Health"),  # a letter left over
        ("EU", "Europäische Zentralbank"),  # a word left over
    ],
)
def test_letters_that_are_not_the_initials_are_no_abbreviation_of_the_name(
    short: str, long_: str
) -> None:
    assert not abbreviates(short, long_.split())


def test_a_word_with_small_letters_between_few_capitals_is_no_abbreviation() -> None:
    assert not is_abbreviation("McCain")
    assert not is_abbreviation("Union")
    assert not is_abbreviation("G7")


def test_an_agency_written_as_the_initials_of_its_compound_is_style() -> None:
    result = headline(
        "News des Tages: Spion beim Bundesnachrichtendienst, Wintersturm in den USA",
        "News des Tages: Spion beim BND, Wintersturm in den USA",
    )
    assert result.kinds == {"headline", "style"}
    result = edit(
        "Nach SPIEGEL-Informationen hat der Bundesnachrichtendienst den Mann beobachtet.",
        "Nach SPIEGEL-Informationen hat der BND den Mann beobachtet.",
    )
    assert "facts" not in result.kinds


def test_the_long_form_for_the_abbreviation_is_style_too() -> None:
    result = edit(
        "Die Sanktionen der EU treten nach Angaben aus Brüssel am Freitag in Kraft.",
        "Die Sanktionen der Europäischen Union treten nach Angaben aus Brüssel am Freitag "
        "in Kraft.",
    )
    assert "facts" not in result.kinds
    result = edit(
        "Nurses at the NHS walked out on Monday over pay.",
        "Nurses at the National Health Service walked out on Monday over pay.",
        publisher=ENGLISH,
    )
    assert "facts" not in result.kinds


def test_another_agency_named_instead_is_still_a_fact() -> None:
    result = edit(
        "Nach SPIEGEL-Informationen hat der BND den Mann seit Wochen beobachtet.",
        "Nach SPIEGEL-Informationen hat der MAD den Mann seit Wochen beobachtet.",
    )
    assert result.evidence("facts") == ("block 1: BND → MAD",)
    result = edit(
        "Nurses at the National Health Service walked out on Monday over pay.",
        "Nurses at the BMA walked out on Monday over pay.",
        publisher=ENGLISH,
    )
    assert "facts" in result.kinds


def test_a_listed_abbreviation_for_another_bodys_long_name_is_a_fact() -> None:
    # "USA" is on the alias list: it names its own body, not any name it shares a letter with
    result = edit(
        "Die Sanktionen der Europäischen Union treten am Freitag in Kraft.",
        "Die Sanktionen der USA treten am Freitag in Kraft.",
    )
    assert "facts" in result.kinds


# -- a surname alone and the full name -------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "publisher"),
    [
        (
            "Im Streit um den Haushalt hat Bundeskanzler Olaf Scholz am Abend eingelenkt.",
            "Im Streit um den Haushalt hat Scholz am Abend eingelenkt.",
            GERMAN,
        ),
        (
            "Im Streit um den Haushalt hat Scholz am Abend eingelenkt.",
            "Im Streit um den Haushalt hat Bundeskanzler Olaf Scholz am Abend eingelenkt.",
            GERMAN,
        ),
        (
            "Health Secretary Wes Streeting met the nurses' union on Monday.",
            "Streeting met the nurses' union on Monday.",
            ENGLISH,
        ),
    ],
)
def test_a_surname_alone_for_the_full_name_is_style(
    old: str, new: str, publisher: Publisher
) -> None:
    result = edit(old, new, publisher=publisher)
    assert "facts" not in result.kinds and "style" in result.kinds


def test_another_person_named_instead_is_still_a_fact() -> None:
    result = edit(
        "Im Streit um den Haushalt hat Olaf Scholz am Abend eingelenkt.",
        "Im Streit um den Haushalt hat Friedrich Merz am Abend eingelenkt.",
    )
    assert result.evidence("facts") == ("block 1: Olaf → Friedrich, Scholz → Merz",)
    result = edit(
        "Health Secretary Wes Streeting met the nurses' union on Monday.",
        "Health Secretary Victoria Atkins met the nurses' union on Monday.",
        publisher=ENGLISH,
    )
    assert "facts" in result.kinds


# -- the alias list --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Bürgergeld: Union blockiert Gesetz im Bundesrat",
         "Bürgergeld: CDU und CSU blockieren Gesetz im Bundesrat"),
        ("Bürgergeld: Im Bundesrat blockiert die Union das Gesetz",
         "Bürgergeld: Im Bundesrat blockiert die CDU/CSU das Gesetz"),
    ],
)  # fmt: skip
def test_the_union_named_by_its_two_parties_is_style(old: str, new: str) -> None:
    assert headline(old, new).kinds == {"headline", "style"}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The bill passed after the Tories backed it in a late vote.",
         "The bill passed after the Conservatives backed it in a late vote."),
        ("The senator said Republicans would block the bill on Monday.",
         "The senator said the GOP would block the bill on Monday."),
        ("Officials in the United States said the deal was close.",
         "Officials in the US said the deal was close."),
    ],
)  # fmt: skip
def test_an_english_nickname_or_short_form_of_a_party_or_country_is_style(
    old: str, new: str
) -> None:
    assert "facts" not in edit(old, new, publisher=ENGLISH).kinds


def test_a_translated_or_inflected_form_of_a_body_is_style() -> None:
    result = edit(
        "Die Hilfe soll nach Angaben der Vereinten Nationen bis Freitag eintreffen.",
        "Die Hilfe soll nach Angaben der Uno bis Freitag eintreffen.",
    )
    assert "facts" not in result.kinds
    result = edit(
        "Die Sanktionen der USA treten am Freitag in Kraft.",
        "Die Sanktionen der Vereinigten Staaten treten am Freitag in Kraft.",
    )
    assert "facts" not in result.kinds


@pytest.mark.parametrize(
    ("old", "new", "evidence"),
    [
        ("Im Bundesrat blockiert die CDU das Gesetz",
         "Im Bundesrat blockiert die SPD das Gesetz", "title: CDU → SPD"),
        ("Im Bundesrat blockiert die Union das Gesetz",
         "Im Bundesrat blockiert die SPD das Gesetz", "title: added SPD"),
        # one of the union's parties is not the union
        ("Im Bundesrat blockiert die Union das Gesetz",
         "Im Bundesrat blockiert die CDU das Gesetz", "title: added CDU"),
        # the union's form with another party beside it
        ("Im Bundesrat blockiert die Union das Gesetz",
         "Im Bundesrat blockieren CDU und FDP das Gesetz", "title: added CDU, FDP"),
        # "Union" inside a longer name is that name, not the parties' union
        ("Am Samstag verliert Union Berlin",
         "Am Samstag verliert die CDU/CSU", "title: removed Union, Berlin; added CDU/CSU"),
    ],
)  # fmt: skip
def test_another_party_named_instead_is_still_a_fact(old: str, new: str, evidence: str) -> None:
    result = headline(f"Bürgergeld: {old}", f"Bürgergeld: {new}")
    assert result.evidence("facts") == (evidence,)


def test_an_english_party_replaced_by_another_is_still_a_fact() -> None:
    result = edit(
        "The senator said Republicans would block the bill on Monday.",
        "The senator said Democrats would block the bill on Monday.",
        publisher=ENGLISH,
    )
    assert result.evidence("facts") == ("block 1: Republicans → Democrats",)
    result = edit(
        "The bill passed after the Tories backed it in a late vote.",
        "The bill passed after Labour backed it in a late vote.",
        publisher=ENGLISH,
    )
    assert result.evidence("facts") == ("block 1: Tories → Labour",)


def test_each_form_on_the_alias_list_names_one_body() -> None:
    forms = [form for group in ALIASES for form in group]
    assert all(len(group) >= 2 for group in ALIASES)
    assert len(forms) == len(set(forms))
