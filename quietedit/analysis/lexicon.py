"""What the classification rules look for in text besides facts (``facts.py``): how deep
one change goes, quotations, live-blog timestamps and ticker index lines.

Each helper is a plain function of strings. The live-blog markers cover English, German
and French; a marker missing here only makes a rule see less, never more.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Final

from quietedit.analysis.facts import fact_tokens, is_spelling_fix
from quietedit.analysis.numberwords import ENGLISH_ONLY, NUMBER_WORDS, ordinal_value
from quietedit.article.fingerprint import fold_text

# A hunk's nature, from the most harmless up.
TYPOGRAPHIC: Final = "typographic"  # equal after folding: quotes, dashes, spaces
PUNCTUATION: Final = "punctuation"  # the same words, other punctuation
CASE: Final = "case"  # the same words but for capitals
SPELLING: Final = "spelling"  # each changed word within two letters of its old form
FACTS: Final = "facts"  # only numbers, dates or names differ
WORDS: Final = "words"  # real rewording
TYPO_NATURES: Final = frozenset({TYPOGRAPHIC, PUNCTUATION, CASE, SPELLING})

_QUOTATION: Final = re.compile(
    r"“([^“”]{2,}?)”|„([^“”„]{2,}?)[“”]|«\s?([^«»]{2,}?)\s?»|\"([^\"]{2,}?)\""
)
# German sets quotations in guillemets the other way round: »so«.
_QUOTATION_GERMAN: Final = re.compile(
    r"“([^“”]{2,}?)”|„([^“”„]{2,}?)[“”]|»([^«»]{2,}?)«|\"([^\"]{2,}?)\""
)
MAX_TITLE_WORDS: Final = 5
"""Quoted text of at most this many words, all capitalised, is a name (of a newspaper, a
film, a programme) and not a quotation."""
_TITLE_SMALL_WORDS: Final = frozenset(
    [
        "a",
        "an",
        "and",
        "of",
        "the",
        "in",
        "on",
        "for",
        "to",
        "&",
        "de",
        "la",
        "le",
        "les",
        "du",
        "des",
        "der",
        "die",
        "das",
        "und",
        "von",
        "im",
    ]
)
_TIMESTAMP: Final = re.compile(
    r"^\s*(?:\+{3}\s*)?(?:\d{1,2}[:.]\d{2}(?:\s*(?:uhr|h|am|pm|a\.m\.|p\.m\.))?|"
    r"\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.))(?=\W|$)",
    re.IGNORECASE,
)
_LIVE_TITLE: Final = re.compile(
    r"\b(?:live|liveblog|live-blog|liveticker|live-ticker|ticker|as it happened|en direct)\b",
    re.IGNORECASE,
)
_INDEX_DELIMITERS: Final = (" · ", " • ", " | ", " ▪ ", " ◦ ")
_INDEX_LABEL: Final = re.compile(r"^([^:\d]{1,40}):\s+(.+)$", re.DOTALL)
MIN_INDEX_ENTRIES: Final = 3
MAX_INDEX_ENTRY_WORDS: Final = 15


def hunk_nature(removed: str, added: str, *, names: bool = True) -> str:
    """How deep one change goes, from ``typographic`` to ``words`` (see the constants)."""
    if _compatible(removed) == _compatible(added):
        return TYPOGRAPHIC  # also "CO2" and "CO₂", "ﬁ" and "fi": one character's other form
    old_words, new_words = _words(removed), _words(added)
    if len(old_words) != len(new_words) and (
        "".join(old_words).casefold() == "".join(new_words).casefold()
    ):
        return SPELLING  # a compound joined or split, a number word in it too ("zweimal")
    old_numbers = [
        number_form(t) for t in fact_tokens(removed, names=names) if _numeric(t, names=names)
    ]
    new_numbers = [
        number_form(t) for t in fact_tokens(added, names=names) if _numeric(t, names=names)
    ]
    if old_numbers != new_numbers and not _number_word_respelt(old_words, new_words):
        # a changed number is never cosmetic, whatever else the change is
        return FACTS if _words_without(removed, added, names=names) else WORDS
    if old_words == new_words:
        return PUNCTUATION
    if [w.casefold() for w in old_words] == [w.casefold() for w in new_words]:
        return CASE
    if len(old_words) == len(new_words) and all(
        a == b or is_spelling_fix(a, b) or _same_function_word(a, b)
        for a, b in zip(old_words, new_words, strict=True)
    ):
        return SPELLING
    joined_old, joined_new = "".join(old_words).casefold(), "".join(new_words).casefold()
    if joined_old == joined_new or (
        len(old_words) != len(new_words) and is_spelling_fix(joined_old, joined_new)
    ):
        # a compound joined or hyphenated: "Gas-Importeure", "Gasimporteure"; with a
        # letter of the joint changed: "nah kommt", "nahekommt"
        return SPELLING
    if _article_only(old_words, new_words):
        return SPELLING  # a missing article put in: "gegen {+die+} Cincinnati Bengals"
    return FACTS if _words_without(removed, added, names=names) else WORDS


def _compatible(text: str) -> str:
    """``text`` folded, compatibility forms replaced by their plain characters (NFKC):
    subscript and superscript digits, ligatures, full-width letters."""
    return unicodedata.normalize("NFKC", fold_text(text))


# Inflected forms of one article or contracted preposition: swapping one for another of
# the same set fixes grammar ("China und [-den-]{+die+} USA", "[-in-]{+im+} Irak") and
# says nothing new; "der" for "ein" (the for a) is a different word and stays a rewording.
_FUNCTION_WORD_FORMS: Final = (
    frozenset({"der", "die", "das", "den", "dem", "des"}),
    frozenset({"ein", "eine", "einer", "einem", "einen", "eines"}),
    frozenset({"kein", "keine", "keiner", "keinem", "keinen", "keines"}),
    frozenset({"in", "im"}),
    frozenset({"an", "am"}),
    frozenset({"zu", "zum", "zur"}),
    frozenset({"von", "vom"}),
    frozenset({"bei", "beim"}),
    frozenset({"a", "an"}),
    frozenset({"le", "la", "les", "l"}),
    frozenset({"un", "une"}),
    frozenset({"de", "du", "des", "d"}),
    frozenset({"à", "au", "aux"}),
    frozenset({"ist", "sind"}),
    frozenset({"war", "waren"}),
    frozenset({"hat", "haben"}),
    frozenset({"wird", "werden"}),
    frozenset({"wurde", "wurden"}),
    frozenset({"is", "are"}),
    frozenset({"was", "were"}),
    frozenset({"has", "have"}),
)
"""German and English: a verb put in the singular or the plural to agree ("von denen …
[-sind-]{+ist+} mehr als die Hälfte erwerbstätig") fixes grammar too."""
_ARTICLES: Final = frozenset(
    {"der", "die", "das", "den", "dem", "des", "the", "a", "an", "le", "la", "les",
     "eine", "einen", "einem", "einer", "eines"}
)  # fmt: skip
"""Not "ein", which also ends a verb ("reicht seine Kandidatur ein")."""
_SLIPS: Final = frozenset(
    {"er", "sie", "es", "sich", "ihn", "ihm", "ist", "sind", "war", "waren", "wird",
     "werden", "wurde", "wurden", "hat", "haben"}
)  # fmt: skip
"""German words a sentence cannot do without, the pronoun or the auxiliary verb that a
slip leaves out ("erwähnte {+er+} nur indirekt", "die anderen Angeklagten {+wurden+}
freigesprochen"): one put in or cut alone mends the grammar and says nothing new."""


def _same_function_word(old: str, new: str) -> bool:
    a, b = old.casefold(), new.casefold()
    return any(a in forms and b in forms for forms in _FUNCTION_WORD_FORMS)


def _article_only(old: list[str], new: list[str]) -> bool:
    """One side is the other with one article, or one word of :data:`_SLIPS`, more."""
    shorter, longer = sorted((old, new), key=len)
    if len(longer) != len(shorter) + 1:
        return False
    for index, word in enumerate(longer):
        if word.casefold() in _ARTICLES | _SLIPS and (
            longer[:index] + longer[index + 1 :] == shorter
        ):
            return True
    return False


def grammar_words(removed: str, added: str) -> bool:
    """The change puts in, cuts or swaps only articles, pronouns, auxiliary verbs or a
    contracted preposition's forms: grammar, which a rewording beside it may need ("[-Die-]
    {+Das+} Berliner [-Firma-]{+Unternehmen+}")."""
    old, new = _words(removed), _words(added)
    small = _ARTICLES | _SLIPS
    if len(old) == len(new):
        return bool(old) and all(
            a == b or _same_function_word(a, b) for a, b in zip(old, new, strict=True)
        )
    return _article_only(old, new) or (
        not (old and new) and all(w.casefold() in small for w in old + new)
    )


def _number_word_respelt(old: list[str], new: list[str]) -> bool:
    """A misspelt number word fixed ("1,6 [-Milliaden-]{+Milliarden+}"), not one number
    word for another ("seven" → "eleven")."""
    if len(old) != len(new):
        return False
    changed = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
    return bool(changed) and all(
        is_spelling_fix(a, b) and not (_numeric(a) and _numeric(b)) for a, b in changed
    )


def quotation_spans(text: str) -> list[tuple[int, int]]:
    """Where quotations stand in ``text``: the spans inside their quotation marks (the
    marks excluded), names in quotation marks left out (see :func:`quotations`)."""
    opening, closing = text.find("»"), text.find("«")
    german = opening != -1 and (closing == -1 or opening < closing)
    spans = []
    for match in (_QUOTATION_GERMAN if german else _QUOTATION).finditer(text):
        group = next(g for g in range(1, 5) if match.group(g) is not None)
        folded = fold_text(match.group(group)).strip(" ,.;:")
        if not _is_title(folded):
            spans.append((match.start(group), match.end(group)))
    return spans


def quotations(text: str) -> list[str]:
    """Text in quotation marks (“…”, „…“, «…» or »…«, "…"), folded, in reading order;
    names in quotation marks (all words capitalised, five at most) are left out.

    Which way guillemets point is read from the text: a ``»`` before any ``«`` is German.
    """
    found = []
    opening, closing = text.find("»"), text.find("«")
    german = opening != -1 and (closing == -1 or opening < closing)
    for match in (_QUOTATION_GERMAN if german else _QUOTATION).finditer(text):
        quoted = next(group for group in match.groups() if group is not None)
        folded = fold_text(quoted).strip(" ,.;:")
        if len(folded.split()) >= 2 and not _is_title(folded):
            found.append(folded)
    return found


def _is_title(text: str) -> bool:
    """A name in quotation marks, not a quotation: »Wall Street Journal«, "Walk of Fame"."""
    words = _WORD.findall(text)
    return len(words) <= MAX_TITLE_WORDS and all(
        word[0].isupper() or word[0].isdigit() or word.casefold() in _TITLE_SMALL_WORDS
        for word in words
    )


def starts_with_time(text: str) -> bool:
    """True for a block that opens with a clock time: a live blog's entry."""
    return _TIMESTAMP.match(text) is not None


def has_live_title(title: str) -> bool:
    """True for a headline that announces a live blog or ticker."""
    return _LIVE_TITLE.search(title) is not None


@dataclass(frozen=True, slots=True)
class IndexLine:
    """A ticker's own index line: an optional label and its entries, in order."""

    label: str
    delimiter: str
    entries: tuple[str, ...]


def index_line(text: str) -> IndexLine | None:
    """Read ``text`` as a ticker index line ("Key events: 14:05 Bridge shut · 13:40 …").

    At least three entries of one to fifteen words, split by one of the symbols ``·``,
    ``•``, ``|``, ``▪`` or ``◦`` (never a comma or a full stop, which prose uses).
    """
    label = ""
    body = text.strip()
    labelled = _INDEX_LABEL.match(body)
    for delimiter in _INDEX_DELIMITERS:
        if delimiter not in body:
            continue
        if labelled and delimiter not in labelled.group(1):
            label, body = labelled.group(1).strip(), labelled.group(2)
        entries = tuple(entry.strip() for entry in body.split(delimiter))
        if len(entries) >= MIN_INDEX_ENTRIES and all(
            1 <= len(entry.split()) <= MAX_INDEX_ENTRY_WORDS for entry in entries
        ):
            return IndexLine(label, delimiter, entries)
        return None
    return None


# -- internals -------------------------------------------------------------------------

_WORD: Final = re.compile(r"\w+")


def _words(text: str) -> list[str]:
    return _WORD.findall(fold_text(text))


def number_form(token: str) -> str:
    """A number as compared: a number word in any case and inflection ("Vier", "vier";
    "Hunderte", "Hunderten") is one number, and so is an ordinal ("zweite", "zweiten");
    figures without the marks that set their thousands apart ("160 000", "160.000",
    "160,000"), decimals as written ("1.5", "1,5")."""
    folded = token.casefold()
    ordinal = ordinal_value(folded)
    if ordinal is not None:
        return ordinal + "."
    if folded.endswith("n") and folded[:-1] in NUMBER_WORDS:
        return folded[:-1]
    return folded if folded in NUMBER_WORDS else _THOUSANDS.sub("", token)


_THOUSANDS: Final = re.compile(r"(?<=\d)[.,\u00a0\u2009\u202f ](?=\d{3}(?!\d))")


def _numeric(token: str, *, names: bool = True) -> bool:
    return any(c.isdigit() for c in token) or (
        token.casefold() in NUMBER_WORDS and (names or token.casefold() not in ENGLISH_ONLY)
    )


def _words_without(removed: str, added: str, *, names: bool) -> bool:
    """True when the two sides are the same words once numbers, dates and names are out."""
    return _rest(removed, names=names) == _rest(added, names=names)


def _rest(text: str, *, names: bool) -> list[str]:
    facts = {
        word.casefold()
        for token in fact_tokens(text, names=names, anywhere=True)
        for word in _WORD.findall(token)
    }
    return [w.casefold() for w in _words(text) if w.casefold() not in facts]
