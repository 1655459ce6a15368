"""When two names are one: the forms of a name, and a name the other text still has (pure).

A name's *forms* are the ways one name is written: "President Daniel Harper", "Daniel
Harper" and "Harper"; "the California Department of Forestry and Fire Protection" and
"Cal Fire"; "Federal Emergency Management Agency" and "FEMA"; "John F. Kennedy" and
"JFK". A change between two forms, a name written shorter or longer by words inserted or
cut next to it, or a name swapped for a description of the same person ("Moreno" → "the
actress") changes no fact. Names are the :class:`~quietedit.analysis.facts.Fact` values
of ``facts.py``, each with its run of capitalised words (``group``).
"""

from __future__ import annotations

import re
from typing import Final

from quietedit.analysis.facts import CONNECTORS, Fact, Word
from quietedit.analysis.placeforms import same_places
from quietedit.analysis.places import citizen_of_country, is_german_place
from quietedit.analysis.shortforms import BODY_KINDS, listed, other_forms
from quietedit.analysis.words import tokenize

MIN_PREFIX: Final = 3
"""Letters a short form's word must have to stand for a longer word it begins ("Cal" for
"California")."""
DEMONYM_STEM: Final = 5
"""Letters a place and its adjective share before their endings differ ("Thüring-en",
"Thüring-er"; "Berlin", "Berlin-er" share all of the shorter)."""
_DEFINITE: Final = frozenset({"the", "der", "die", "das", "den", "dem", "des", "le", "la", "les"})
"""Articles a description of someone already named opens with ("the actress", "den
Ex-Präsidenten")."""
DESCRIPTION_WORDS: Final = 3
"""Words after the article a description may have."""


def same_name(one: tuple[str, ...], other: tuple[str, ...]) -> bool:
    """Whether two runs of name words are forms of one name: the shorter's words stand,
    in order, for words of the longer (equal, or the first letters of one, three at
    least), or the shorter is the initials of the longer ("FEMA")."""
    short, long_ = sorted((_name_words(one), _name_words(other)), key=len)
    if not short:
        return False
    if len(short) == 1 and short[0].isupper() and len(short[0]) >= 2 and len(long_) > 1:
        # the initials of the longer name, or of a run of its words ("PSG" for the end of
        # "Pleite von Paris Saint-Germain")
        initials = "".join(w[0] for w in long_ if w.casefold() not in CONNECTORS).upper()
        if short[0] in initials and len(short[0]) > 1:
            return True
    # of two runs as long, either may hold the shorter forms ("St. Petersburg", "Sankt
    # Petersburg")
    return _stand_for(short, long_) or (len(short) == len(long_) and _stand_for(long_, short))


def _stand_for(short: list[str], long_: list[str]) -> bool:
    """Each of ``short``'s words stands, in order, for one of ``long_``'s."""
    position = 0
    for word in short:
        lowered = word.casefold()
        while position < len(long_) and not _stands_for(lowered, long_[position].casefold()):
            position += 1
        if position == len(long_):
            return False
        position += 1
    return True


def _stands_for(short: str, long_: str) -> bool:
    return (
        short == long_
        or (len(short) >= MIN_PREFIX and long_.startswith(short))
        or _compounded(short, long_)
        or _contracted(short, long_)
        or possessive_base(short) == long_
        or possessive_base(long_) == short
    )


def _contracted(short: str, long_: str) -> bool:
    """``short`` is ``long_`` shortened with a full stop, its letters in order: "St." for
    "Sankt" or "Saint", "Dr." for "Doktor", "Prof." for "Professor"."""
    letters = short.removesuffix(".")
    if letters == short or not letters or not long_.startswith(letters[0]):
        return False
    rest = iter(long_)
    return all(letter in rest for letter in letters)


_ENDINGS: Final = ("en", "es", "n", "s", "e")
"""Inflection endings a German word drops when it opens a compound ("Neunziger-n",
"Neunziger-jahren")."""
COMPOUND_STEM: Final = 6
"""Letters a word must keep without its ending to stand for a compound it opens."""


def _compounded(short: str, long_: str) -> bool:
    """``long_`` is a compound that ``short``, without its inflection ending, opens:
    "Neunzigern" and "Neunzigerjahren" name one decade."""
    for ending in _ENDINGS:
        stem = short.removesuffix(ending)
        if stem != short and len(stem) >= COMPOUND_STEM and long_.startswith(stem):
            return True
    return False


def _name_words(run: tuple[str, ...]) -> list[str]:
    """The words of a name run: possessive endings dropped, hyphenated parts apart."""
    found = []
    for word in run:
        base = re.sub(r"['\u2019]s$", "", word)
        found += [part for part in base.split("-") if part]
    return found


def still_there(fact: Fact, other_words: set[str], other_names: set[tuple[str, ...]]) -> bool:
    """A name the other text has too: as it is, without a possessive ending, in
    another form ("JFK" for "John F. Kennedy"), or run together with the next word."""
    if not fact.name:
        return False
    word = fact.text.casefold()
    if word in other_words or possessive_base(word) in other_words:
        return True
    if any(same_name(texts(fact.group), name) for name in other_names):
        return True
    stem = word[: max(len(word) - 2, DEMONYM_STEM)]
    if len(word) >= DEMONYM_STEM and any(other.startswith(stem) for other in other_words):
        return True  # a place and its adjective: "Thüringen", "Thüringer"; "Berliner"
    if any(_compounded(other, word) for other in other_words):
        return True  # the word now opens a compound: "Neunzigern", "Neunzigerjahren"
    # "Servicewarned" where the other side reads "Service warned"
    return any(
        word[:cut] in other_words and word[cut:] in other_words for cut in range(2, len(word) - 1)
    )


def name_forms(
    gone: list[Fact],
    came: list[Fact],
    removed: str,
    added: str,
    *,
    old: tuple[int, int],
    new: tuple[int, int],
    german: bool = False,
    texts_: tuple[str, str] = ("", ""),
) -> tuple[list[Fact], list[Fact]]:
    """``gone`` and ``came`` without the names written shorter, longer, or by a
    description of the same person, or the other way round: none of them changed a fact.
    ``removed`` and ``added`` are the change's words, ``old`` and ``new`` where they
    stand; ``german``: the text capitalises its nouns ("den Ex-Präsidenten");
    ``texts_``: the old and the new text the change stands in.
    An abbreviation for its long form and an alias for another are ``shortforms.py``'s,
    a place in other words (a region, a country's adjective) ``placeforms.py``'s."""
    gone, came = other_forms(gone, came, removed, added, old=old[0], new=new[0])
    gone, came = same_places(gone, came, removed, added, old_text=texts_[0], new_text=texts_[1])
    gone_names = [f for f in gone if f.name]
    came_names = [f for f in came if f.name]
    for fact in list(gone_names):
        partner = next(
            (c for c in came_names if same_name(texts(fact.group), texts(c.group))), None
        )
        if partner is not None:
            gone_names.remove(fact)
            came_names = [c for c in came_names if c.group != partner.group]
    if _abbreviated(gone_names, came_names) or _abbreviated(came_names, gone_names):
        gone_names, came_names = [], []  # "Borussia Dortmund" → "BVB": the club's short form
    if not came_names and not added:  # shortened: the rest of the name goes on
        gone_names = [f for f in gone_names if not _reaches_out(f, old)]
    if not came_names and gone_names and _describes(gone_names, added, german=german):
        gone_names = []
    if not gone_names and came_names and _describes(came_names, removed, german=german):
        came_names = []  # the person the description meant, now named
    if not gone_names and not removed:  # expanded: the name was there, now in full
        came_names = [f for f in came_names if not _reaches_out(f, new)]
    return (
        [f for f in gone if not f.name or f in gone_names],
        [f for f in came if not f.name or f in came_names],
    )


ACRONYM_LETTERS: Final = (2, 5)
"""Capitals an abbreviation has, fewest and most."""


def _abbreviated(full: list[Fact], short: list[Fact]) -> bool:
    """One name of several words (one run) replaced by one abbreviation, nothing else
    named: the body's short form, even where its letters are not all the name's initials
    ("Borussia Dortmund" → "BVB", "Eintracht Frankfurt" → "SGE"), but one of them at
    least ("National Health Service" → "BMA" names another body)."""
    if len(short) != 1 or not full:
        return False
    letters = short[0].text
    fewest, most = ACRONYM_LETTERS
    groups = {f.group for f in full}
    return (
        fewest <= len(letters) <= most
        and letters.isalpha()
        and letters.isupper()
        and len(groups) == 1
        and len(full) >= 2
        and not all(f.text.isupper() for f in full)
        and any(f.text[0].upper() in letters for f in full)
        and not listed(letters)  # "USA" names its own body ("Europäische Union" → "USA")
    )


def beside_kept(fact: Fact, other_words: set[str], *, german: bool) -> bool:
    """A word of a name run whose other words the other revision still has: a given name
    put to a surname that stays ("[-Putins-] … {+von Wladimir Putin+}"), or, in German,
    where a run of capitals is often a noun beside a name, that noun ("Abtreibungspille
    Mifepriston", "Trump-Gala Fotos"), a citizen's country among them ("[-Brasilianer-]
    {+Lucas+} Pereira": the player described, then named), but for a place's
    adjective ("[-Offenbacher-]{+Offenburger+} Schule")."""
    if not fact.name or len(fact.group) < 2:
        return False
    if not german:  # a given name and a surname
        first, last = fact.group[0], fact.group[-1]
        kept = [last] if len(fact.group) == 2 and first.start == fact.start else []
    elif (
        fact.text.endswith("er")
        and fact.group[-1].start != fact.start
        and not fact.text.casefold().endswith(_TITLE_ENDINGS)
        and (_place_adjective(fact.text) or not _before_person(fact))
        and not citizen_of_country(fact.text)
    ):
        return False  # a place's adjective before its noun ("Offenbacher Schule")
    else:
        kept = [
            w
            for w in fact.group
            if w.start != fact.start and w.capitalised and w.text.casefold() not in _DEFINITE
        ]
    return bool(kept) and all(
        still_there(Fact(w.text, w.start, w.end, True, (w,)), other_words, set()) for w in kept
    )


def by_kept(fact: Fact, read: list[Word], other_words: set[str], german: bool) -> bool:
    """A fact that goes with a name the other revision keeps (``other_words``): a word of
    its run (:func:`beside_kept`), or a number describing the person
    (:func:`describes_person`); ``read``: the fact's side's words."""
    return beside_kept(fact, other_words, german=german) or describes_person(
        fact, read, other_words
    )


def describes_person(fact: Fact, read: list[Word], other_words: set[str]) -> bool:
    """A number inside a compound that stands before a person's given name and surname,
    both still in the other revision: the compound describes the person ("{+Blink-182-
    Drummer+} Travis Barker", "the {+Blink-182+} drummer Travis Barker",
    "F1-Weltmeister Max Verstappen"), and a description put in, cut or said another way
    is a rewording; its number is the description's, not a count or a date of the
    statement."""
    if fact.name or "-" not in fact.text or not any(c.isalpha() for c in fact.text):
        return False
    at = next((i for i, w in enumerate(read) if w.start == fact.start), None)
    if at is None:
        return False
    after = read[at + 1 : at + 4]
    if after and not after[0].capitalised and after[0].text.isalpha():
        after = after[1:]  # the noun of an English description ("Blink-182 drummer")
    person = after[:2]
    return (
        len(person) == 2
        and all(w.capitalised and w.text.isalpha() for w in person)
        and all(w.text.casefold() in other_words for w in person)
    )


_TITLE_ENDINGS: Final = ("minister", "kanzler", "trainer", "sprecher", "meister", "politiker")
"""Titles ending like a place's adjective ("Minister Lauterbach" is no "Offenbacher
Schule"): a title beside a name that stays is a noun beside it."""


def _place_adjective(word: str) -> bool:
    """A German place's adjective: the place and "-er" ("Offenbacher", "Kölner",
    "Münchner" from "München")."""
    stem = word[:-2]
    return is_german_place(stem) or is_german_place(stem + "en")


def _before_person(fact: Fact) -> bool:
    """The word stands before a person's given name and surname in its run of capitals
    ("Sexualwissenschaftler Christoph Joseph Ahlers", "Eliteoffizier Ben Roberts-Smith"):
    a description of the person ending in "-er", not a place's adjective."""
    after = [w for w in fact.group if w.start > fact.start]
    return len(after) >= 2 and all(w.capitalised for w in after)


def renamed(gone: list[Fact], came: list[Fact]) -> bool:
    """A name of the removed words and one of the added are forms of one name."""
    return any(
        same_name(texts(a.group), texts(b.group)) for a in gone if a.name for b in came if b.name
    )


def possessive_base(word: str) -> str:
    """``word`` without a possessive ending: "Harper's", "Prigoschins" (German genitive)."""
    for ending in ("'s", "s'", "s"):
        if word.endswith(ending) and len(word) > len(ending) + 2:
            return word[: -len(ending)]
    return word


def texts(group: tuple[Word, ...]) -> tuple[str, ...]:
    """The words of a name run."""
    return tuple(word.text for word in group)


def _reaches_out(fact: Fact, span: tuple[int, int]) -> bool:
    """The fact's name group has words outside the change: the name goes on there."""
    return any(w.end <= span[0] or w.start >= span[1] for w in fact.group)


def _describes(named: list[Fact], text: str, *, german: bool) -> bool:
    """``text`` describes the person ``named`` names: a description opening with an
    article, or, in German, for a person's name (two words or more of one run, no place,
    no acronym), an inflected adjective and a noun ("von [-Samira Sabsian-]{+ehemaliger
    Kinderbraut+}")."""
    if _description(text, german=german):
        return True
    if not german or len({f.group for f in named}) != 1 or len(named[0].group) < 2:
        return False
    if any(is_german_place(f.text) or f.text.isupper() for f in named):
        return False
    found = [w.strip() for w in tokenize(text) if any(c.isalnum() for c in w)]
    return (
        1 < len(found) <= DESCRIPTION_WORDS
        and found[0].islower()
        and found[0].endswith(_ADJECTIVE_ENDINGS)
        and all(w[0].isupper() and _common(w, german=True) for w in found[1:])
    )


_ADJECTIVE_ENDINGS: Final = ("e", "er", "en", "em", "es")
"""The endings of a German adjective before its noun ("ehemaliger", "neuen")."""


def _description(text: str, *, german: bool = False) -> bool:
    """A short description opening with a definite article ("The actress"); in German
    its nouns are capitalised ("den Ex-Präsidenten"), but never all capitals ("der SPD")."""
    found = [w.strip() for w in tokenize(text) if any(c.isalnum() for c in w)]
    return (
        1 < len(found) <= DESCRIPTION_WORDS + 1
        and found[0].casefold() in _DEFINITE
        and all(_common(w, german=german) for w in found[1:])
    )


def _common(word: str, *, german: bool) -> bool:
    """A word of a description: not a number, and lower case (German: not an acronym, and
    not the name of a federal or state body, "der Bundesnachrichtendienst")."""
    if word[0].isdigit():
        return False
    if german:
        return not ((len(word) > 1 and word.replace("-", "").isupper()) or _body_name(word))
    return not word[0].isupper()


_BODY_PREFIXES: Final = ("bundes", "landes")
_BODY_ENDINGS: Final = BODY_KINDS
"""A German body's name is one word: a federal or state prefix and the kind of body
("Bundes-nachrichten-dienst", "Landes-kriminal-amt"); "der Bundeskanzler" still
describes a person."""


def _body_name(word: str) -> bool:
    lowered = word.casefold()
    return lowered.startswith(_BODY_PREFIXES) and lowered.endswith(_BODY_ENDINGS)
