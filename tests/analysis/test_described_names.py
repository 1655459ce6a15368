"""A person described, then named, and a body named by its initials with a qualifier.

A citizen's country before a name that stays describes the person: "[-Brasilianer-]
{+Lucas+} Pereira" names the player the headline described, a rewording. A body said
by its initials, whose first capital qualifies the body the other side names ("laut
[-Wetterdienst-]{+DWD+}": the "Deutscher Wetterdienst"), is the same body. Another
person or another body is still a changed fact. Each with a sentence of our own, in the
way of German and English news copy.
"""

from __future__ import annotations

from quietedit.analysis import Classification, classify_change
from quietedit.analysis.places import citizen_of_country
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


def test_a_citizen_is_told_from_a_towns_adjective() -> None:
    assert all(map(citizen_of_country, ("Ukrainer", "Brasilianer", "Italienerin", "Iraner")))
    assert not any(map(citizen_of_country, ("Offenbacher", "Schweizer", "Berliner", "Minister")))


def test_a_players_country_replaced_by_his_given_name_is_style() -> None:
    result = headline(
        "Borussia Dortmund will Brasilianer Pereira für 40 Millionen Euro verpflichten",
        "Borussia Dortmund will Lucas Pereira für 40 Millionen Euro verpflichten",
    )
    assert "facts" not in result.kinds
    assert {"headline", "style"} <= result.kinds
    result = headline(
        "Dortmund want to sign Brazilian Pereira for 40 million euros",
        "Dortmund want to sign Lucas Pereira for 40 million euros",
        publisher=ENGLISH,
    )
    assert "facts" not in result.kinds


def test_another_player_is_still_a_fact() -> None:
    result = headline(
        "Borussia Dortmund will Brasilianer Pereira für 40 Millionen Euro verpflichten",
        "Borussia Dortmund will Argentinier Santos für 40 Millionen Euro verpflichten",
    )
    assert "facts" in result.kinds
    result = headline(
        "Dortmund want to sign Brazilian Pereira for 40 million euros",
        "Dortmund want to sign Argentine Santos for 40 million euros",
        publisher=ENGLISH,
    )
    assert "facts" in result.kinds


def test_a_body_named_by_its_initials_with_a_qualifier_is_style() -> None:
    result = headline(
        "Frühling in Deutschland: So nass war es laut Wetterdienst seit zehn Jahren nicht",
        "Frühling in Deutschland: So nass war es laut DWD seit zehn Jahren nicht",
    )
    assert "facts" not in result.kinds
    assert {"headline", "style"} <= result.kinds
    result = headline(
        "Wettest spring in a decade, according to the Weather Service",
        "Wettest spring in a decade, according to the NWS",
        publisher=ENGLISH,
    )
    assert "facts" not in result.kinds


def test_another_bodys_initials_are_still_a_fact() -> None:
    result = headline(
        "Frühling in Deutschland: So nass war es laut Wetterdienst seit zehn Jahren nicht",
        "Frühling in Deutschland: So nass war es laut ZDF seit zehn Jahren nicht",
    )
    assert "facts" in result.kinds
    result = headline(
        "Wettest spring in a decade, according to the Weather Service",
        "Wettest spring in a decade, according to the BBC",
        publisher=ENGLISH,
    )
    assert "facts" in result.kinds
