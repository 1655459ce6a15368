"""Place names as German writes them: countries, capitals, German states and big cities,
continents and seas (pure data).

German capitalises every noun, so a single capitalised word there is not known to be a
name (``facts.py`` counts runs of two and acronyms). These are the single-word names news
uses most: where a story happens is a fact. Beside them, one-word names of the world's
cities, US states and countries that are not also German words (``gazetteer.py``, from
GeoNames). A place missing here only makes the facts rule see less, never more.
Compounds with a compass point ("Südfrankreich", "Nordirak") count as their place
(:func:`is_german_place`).
"""

from __future__ import annotations

from typing import Final

from quietedit.analysis.gazetteer import WORLD_PLACES

_COUNTRIES: Final = """
    Afghanistan Ägypten Albanien Algerien Angola Argentinien Armenien Aserbaidschan
    Äthiopien Australien Bahrain Bangladesch Belarus Belgien Bolivien Bosnien Botswana
    Brasilien Bulgarien Burkina Chile China Dänemark Deutschland Ecuador Eritrea Estland
    Finnland Frankreich Gabun Georgien Ghana Griechenland Grönland Großbritannien
    Guatemala Guinea Haiti Honduras Indien Indonesien Irak Iran Irland Island Israel
    Italien Jamaika Japan Jemen Jordanien Kambodscha Kamerun Kanada Kasachstan Katar
    Kenia Kirgistan Kolumbien Kongo Kosovo Kroatien Kuba Kuwait Laos Lettland Libanon
    Liberia Libyen Liechtenstein Litauen Luxemburg Madagaskar Malaysia Mali Malta
    Marokko Mauretanien Mexiko Moldau Monaco Mongolei Montenegro Mosambik Myanmar
    Namibia Nepal Neuseeland Nicaragua Niederlande Niger Nigeria Nordkorea Nordmazedonien
    Norwegen Oman Österreich Pakistan Palästina Panama Paraguay Peru Philippinen Polen
    Portugal Ruanda Rumänien Russland Sambia Saudi-Arabien Schottland Schweden Schweiz
    Senegal Serbien Simbabwe Singapur Slowakei Slowenien Somalia Spanien Sri Südafrika
    Sudan Südkorea Südsudan Syrien Tadschikistan Taiwan Tansania Thailand Tibet Togo
    Tschad Tschechien Tunesien Türkei Turkmenistan Uganda Ukraine Ungarn Uruguay USA
    Usbekistan Venezuela Vietnam Wales Weißrussland Zypern
    """
COUNTRIES: Final = frozenset(_COUNTRIES.split())
_NAMES: Final = """
    Abu Algier Amsterdam Ankara Athen Bagdad Baku Bamako Bangkok Beirut Belgrad Berlin
    Bern Bogotá Brüssel Budapest Bukarest Caracas Damaskus Delhi Dhaka Doha Dublin
    Islamabad Istanbul Jakarta Jerusalem Kabul Kairo Kapstadt Khartum Kiew Kinshasa
    Kischinau Kopenhagen Lagos Lima Lissabon London Madrid Managua Manila Minsk
    Mogadischu Moskau Nairobi Neu-Delhi Nikosia Oslo Ottawa Paris Peking Pjöngjang Prag
    Riad Riga Rom Santiago Sarajevo Seoul Sofia Stockholm Taipeh Tallinn Taschkent
    Tbilissi Teheran Tiflis Tirana Tokio Tripolis Tunis Vilnius Warschau Washington
    Wien Zagreb
    Baden-Württemberg Bayern Brandenburg Bremen Hamburg Hessen Mecklenburg-Vorpommern
    Niedersachsen Nordrhein-Westfalen Rheinland-Pfalz Saarland Sachsen Sachsen-Anhalt
    Schleswig-Holstein Thüringen
    Aachen Augsburg Bielefeld Bochum Bonn Braunschweig Chemnitz Dortmund Dresden
    Duisburg Düsseldorf Erfurt Essen Frankfurt Freiburg Gelsenkirchen Halle Hannover
    Karlsruhe Kassel Kiel Köln Leipzig Lübeck Magdeburg Mainz Mannheim München Münster
    Nürnberg Potsdam Rostock Saarbrücken Stuttgart Wiesbaden Wuppertal Graz Linz
    Salzburg Zürich Genf Basel
    Afrika Amerika Antarktis Arktis Asien Europa Ozeanien Atlantik Pazifik Mittelmeer
    Ostsee Nordsee Gazastreifen Westjordanland Krim Donbass Cherson Charkiw Odessa
    """
GERMAN_PLACES: Final = COUNTRIES | frozenset(_NAMES.split()) | WORLD_PLACES
_COMPASS: Final = ("Süd", "Nord", "Ost", "West", "Zentral")


def is_german_place(word: str) -> bool:
    """Whether ``word`` is one of the places, maybe with a compass point before it or a
    genitive ending after it ("Frankreichs")."""
    if word in GERMAN_PLACES or (word.endswith("s") and word[:-1] in GERMAN_PLACES):
        return True
    for point in _COMPASS:
        if word.startswith(point) and len(word) > len(point) + 2:
            rest = word[len(point)].upper() + word[len(point) + 1 :]
            return rest in GERMAN_PLACES
    return False


_CAPITALS: Final = """
    Kiew:Ukraine Moskau:Russland Peking:China Washington:USA Berlin:Deutschland
    Paris:Frankreich London:Großbritannien Teheran:Iran Jerusalem:Israel Ankara:Türkei
    Warschau:Polen Rom:Italien Madrid:Spanien Wien:Österreich Bern:Schweiz Tokio:Japan
    Seoul:Südkorea Pjöngjang:Nordkorea Minsk:Belarus Minsk:Weißrussland Kabul:Afghanistan
    Damaskus:Syrien Bagdad:Irak Kairo:Ägypten Riad:Saudi-Arabien Doha:Katar Beirut:Libanon
    Taipeh:Taiwan Budapest:Ungarn Prag:Tschechien Athen:Griechenland Lissabon:Portugal
    Brüssel:Belgien Amsterdam:Niederlande Stockholm:Schweden Oslo:Norwegen
    Kopenhagen:Dänemark Helsinki:Finnland Belgrad:Serbien Tiflis:Georgien Baku:Aserbaidschan
    """
CAPITAL_OF: Final = dict(pair.split(":") for pair in _CAPITALS.split())
"""A country's capital, which news uses for its government ("Kiew" for "die Ukraine")."""
_COUNTRY_CAPITALS: Final = frozenset((c, k) for c, k in CAPITAL_OF.items()) | frozenset(
    (k, c) for c, k in CAPITAL_OF.items()
)


def capital_for_country(one: str, other: str) -> bool:
    """One of two places is the capital of the other (either way round, genitive or not):
    the capital standing for the country."""
    return (one, other) in _COUNTRY_CAPITALS or ((_base(one), _base(other)) in _COUNTRY_CAPITALS)


def _base(word: str) -> str:
    return word[:-1] if word.endswith("s") and word[:-1] in GERMAN_PLACES else word


NATIONALITY_ENDINGS: Final = ("erinnen", "erin", "ern", "er")
"""The endings of a German word for a country's citizen ("Ukrain-er", "Italien-erin")."""
NATIONALITY_STEM: Final = 2
"""Letters at most a country's name may lose at its end before its citizen's ending
("Brasili-en" → "Brasili-aner", "Ukrain-e" → "Ukrain-er", "Italien" → "Italien-er")."""
_ADJECTIVE_COUNTRIES: Final = frozenset({"Schweiz", "Luxemburg", "Liechtenstein"})
"""Countries whose "-er" word is an adjective too, as a town's is ("Schweizer Franken")."""


def citizen_of_country(word: str) -> bool:
    """``word`` is a German noun for a citizen of a country ("Ukrainer", "Italienerin",
    "Brasilianer", "Iraner"), not a town's adjective ("Offenbacher", "Schweizer")."""
    for ending in NATIONALITY_ENDINGS:
        stem = word.removesuffix(ending)
        if stem != word:
            break
    else:
        return False
    return any(
        len(country) >= 4
        and country not in _ADJECTIVE_COUNTRIES
        and stem[: len(country) - NATIONALITY_STEM] == country[: len(country) - NATIONALITY_STEM]
        and abs(len(stem) - len(country)) <= NATIONALITY_STEM
        for country in COUNTRIES
    )
