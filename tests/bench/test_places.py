"""``bench/places.py`` on a tiny GeoNames extract and word list: which names it keeps."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench" / "places.py"


def _places() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_places", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _city(name: str, population: int, country: str) -> dict[str, object]:
    return {"name": name, "population": population, "countrycode": country}


def test_a_town_is_kept_though_its_people_have_a_plural_and_a_noun_is_left_out(
    tmp_path: Path,
) -> None:
    places = _places()
    cities = {
        "1": _city("Offenbach", 130_000, "DE"),  # "Offenbacher", "Offenbachern" listed
        "2": _city("Offenburg", 60_000, "DE"),  # small, but in a German-speaking country
        "3": _city("Kidderminster", 60_000, "GB"),  # small and elsewhere: left out
        "4": _city("Hof", 45_000, "DE"),  # "Hofes": a noun
        "5": _city("Bergen", 280_000, "NO"),  # "Berg" + "en": a noun's form
        "6": _city("Lage", 35_000, "DE"),  # four letters: too short for a small town
        "7": _city("Neubau", 30_000, "AT"),  # a noun the list names
        "8": _city("Frankfurt am Main", 700_000, "DE"),  # not one word
        "9": _city("Ijebu-Igbo", 150_000, "NG"),
    }
    (tmp_path / "cities15000.json").write_text(json.dumps(cities), encoding="utf-8")
    for table in ("us_states.json", "countries.json"):
        (tmp_path / table).write_text("{}", encoding="utf-8")
    dictionary = tmp_path / "words"
    dictionary.write_text(
        "Offenbach\nOffenbacher\nOffenbachern\nHof\nHofes\nBerg\nLage\nessen\n", encoding="utf-8"
    )
    found = places.names(tmp_path, dictionary, 100_000, 15_000)
    assert found == ["Ijebu-Igbo", "Offenbach", "Offenburg"]
    # the world's names in one module, the smaller German-speaking towns in the other
    world, towns = places.selections(tmp_path, dictionary, 100_000, 15_000)
    assert (world, towns) == (["Ijebu-Igbo", "Offenbach"], ["Offenburg"])
    # a hyphenated name stays one word in the module it writes
    assert "Ijebu-Igbo Offenbach" in places.module(world, 100_000, 15_000)
    assert "    Offenburg\n" in places.towns_module(towns, 15_000)


def test_a_big_city_of_a_german_speaking_country_is_among_the_worlds_names_only(
    tmp_path: Path,
) -> None:
    places = _places()
    cities = {"1": _city("Offenbach", 130_000, "DE"), "2": _city("Wunsiedel", 16_000, "DE")}
    (tmp_path / "cities15000.json").write_text(json.dumps(cities), encoding="utf-8")
    (tmp_path / "us_states.json").write_text("{}", encoding="utf-8")
    countries = {"AT": {"name": "Austria"}}
    (tmp_path / "countries.json").write_text(json.dumps(countries), encoding="utf-8")
    dictionary = tmp_path / "words"
    dictionary.write_text("essen\n", encoding="utf-8")
    world, towns = places.selections(tmp_path, dictionary, 100_000, 15_000)
    assert (world, towns) == (["Austria", "Offenbach"], ["Wunsiedel"])
