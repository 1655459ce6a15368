"""One place in other words across a change: a region by its compass point, a country by
its adjective or by its people (pure).

Three ways of naming one place change no fact, though the two sides share no name:

* a region of a place the text names anyway, said as its compass point: "Kiew spricht von
  Teilerfolgen [-in Südukraine-]{+im Süden+}" in a ticker headed "Ukraine-News";
  "[-Nordsyrien-]{+der Norden+}" where Syria is named. The place must still be named on
  the side that says only the compass point, or the region would be lost;
* a country and its adjective: "der [-chinesischen Luftwaffe-]{+Luftwaffe aus China+}",
  "the [-Chinese-] air force {+of China+}": the adjective's first letters are the
  country's (:data:`STEM` of them), and it ends as an adjective does;
* a country and its people, or "the country": "ruft [-Deutschland-]{+Bürgerinnen und
  Bürger+} zu Zusammenhalt auf" (:data:`PEOPLE`).

Another region or country is still a changed fact: "[-Ostukraine-]{+Südukraine+}",
"[-chinesischen-]{+russischen+}", "der chinesischen Luftwaffe" → "der Luftwaffe aus
Russland". Only the removed and the added words of one change are compared.
"""

from __future__ import annotations

import re
from typing import Final

from quietedit.analysis.facts import Fact
from quietedit.analysis.places import is_german_place

STEM: Final = 4
"""Letters a country's adjective shares with its name at least ("chin-esisch",
"China"; "russ-isch", "Russ-land"; "Ukrain-ian", "Ukrain-e")."""
COMPASS: Final = {
    "nord": ("norden", "nördlich"),
    "süd": ("süden", "südlich"),
    "ost": ("osten", "östlich"),
    "west": ("westen", "westlich"),
}
"""The compass points that open a German region's name ("Südukraine"), and the words
that say them alone ("im Süden", "im südlichen Teil")."""
_ADJECTIVE: Final = re.compile(
    r"^(?:[a-zäöü][\w-]*sch(?:e|en|er|es|em)?|[A-Z]\w*(?:ese|ian|an|ish))$"
)
"""A country's adjective: German, lower case and ending in "-sch" with its endings
("chinesischen", "deutsche"); English, capitalised ("Chinese", "Ukrainian", "British",
"German"; not "French", whose ending a town's name has too: "Offenbach")."""
_WORD: Final = re.compile(r"[\w-]+")


def same_places(
    gone: list[Fact], came: list[Fact], removed: str, added: str, *, old_text: str, new_text: str
) -> tuple[list[Fact], list[Fact]]:
    """``gone`` and ``came`` without the names the other side of the change gives in
    other words: a region by its compass point (the place itself named elsewhere in the
    other text, ``old_text`` or ``new_text``), a country by its adjective."""
    gone = [f for f in gone if not _other_words(f, added, other_text=new_text)]
    came = [f for f in came if not _other_words(f, removed, other_text=old_text)]
    return gone, came


def _other_words(fact: Fact, words: str, *, other_text: str) -> bool:
    """The other side's ``words`` say the name ``fact`` in other words."""
    if not fact.name:
        return False
    other = _WORD.findall(words)
    return (
        _compass_region(fact.text, other, other_text)
        or any(adjective_of(word, fact.text) for word in other)
        or _its_people(fact.text, other)
    )


PEOPLE: Final = re.compile(
    r"(?:bürger(?:innen|n)?|bevölkerung|einwohner(?:innen|n)?|menschen|volk(?:es)?|land(?:es)?"
    r"|nation|citizens?|people|population|residents?|country)"
)
"""What a country's people or the country itself are called without its name ("ruft
[-Deutschland-]{+Bürgerinnen und Bürger+} zu Zusammenhalt auf", "the country"), in
their inflected and plural forms (not "Bürgermeister", "Landtag")."""
_JOINS: Final = frozenset(
    {"und", "and", "die", "der", "den", "dem", "des", "das", "the", "ihre", "its", "seine"}
)


def _its_people(place: str, other: list[str]) -> bool:
    """The other side says only the people of a country, or "the country", where
    ``place`` was: a country's name replaced by its citizens ("Deutschland" → "Bürgerinnen
    und Bürger"), not by another place or body, which would name a name."""
    if not is_german_place(place):
        return False
    words = [w.casefold() for w in other if w.casefold() not in _JOINS]
    return bool(words) and all(PEOPLE.fullmatch(w) for w in words)


def _compass_region(name: str, other: list[str], other_text: str) -> bool:
    lowered = name.casefold()
    for point, said in COMPASS.items():
        place = lowered.removeprefix(point)
        if place == lowered or len(place) < STEM:
            continue
        if not any(w.casefold().startswith(said) for w in other):
            return False
        # the place itself is still named, as a word or a compound's part: "Ukraine" in
        # "Russland-Ukraine-News", but not "ende" (of "Ostende") in "Wochenende"
        named = re.compile(rf"(?<![^\W\d_]){re.escape(place)}(?![^\W\d_])")
        return named.search(other_text.casefold()) is not None
    return False


def adjective_of(word: str, country: str) -> bool:
    """``word`` is the adjective of ``country`` ("chinesischen" of "China", "Chinese")."""
    if len(country) < STEM or not _ADJECTIVE.match(word) or word.casefold() == country.casefold():
        return False
    return word[:STEM].casefold() == country[:STEM].casefold()
