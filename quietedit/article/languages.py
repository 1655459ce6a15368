"""Notes, "Updated …" lines and datelines in the languages of :mod:`quietedit.article.wording`
(pure).

:mod:`quietedit.article.notices` reads English and German with patterns of its own and
asks this module about every other language: whether a block opens a correction or
editor's note ("Sprostowanie: …", "【訂正】…", "Fe de errores: …"), which part of a short
line is an "Updated …" line ("Zaktualizowano: 4 czerwca 2026, 11:30", "2026年6月4日
11時30分 更新"), and whether a line is only a date ("jeudi 4 juin 2026", "5분 전").

A label alone proves little: "更新" and "수정" are everyday words, and "Actualizado" opens
sentences. So an "Updated" line and a dateline count only when what follows the label (or,
in Japanese, Chinese and Korean, what precedes it) is read *whole* as a date by dateparser
(:mod:`quietedit.article.pagedates`), in the languages the label belongs to.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from quietedit.article.pagedates import DATE_TEXT_MAX, is_date_text, languages_of_label
from quietedit.article.wording import WORDINGS, Wording

SKIPPED: Final = " *-([【\uff3b\u3014「<>•·\u2013—"
"""What a note may open with before its label: a bullet, a dash, an opening bracket."""
_OPENER: Final = "^[" + re.escape(SKIPPED) + "]*"
_CLOSERS: Final = r"[:\uff1a.\-\u2013—\]】\uff3d\u3015」)\uff09]"
"""What follows a correction label: a colon or dash, or the closing bracket."""


def _phrase(text: str, *, spaced: bool) -> str:
    """A phrase as a pattern: spaces match any white space, and in a spaced language the
    phrase is a word of its own."""
    body = r"\s+".join(re.escape(part) for part in text.split())
    if not spaced:
        return body
    start = r"(?<!\w)" if text[:1].isalnum() else ""
    end = r"(?!\w)" if text[-1:].isalnum() else ""
    return start + body + end


def _alternation(pairs: Iterable[tuple[str, bool]]) -> str:
    # Longest first, so "última actualización" wins over "actualización".
    unique = sorted(set(pairs), key=lambda pair: (-len(pair[0]), pair))
    return "|".join(_phrase(text, spaced=spaced) for text, spaced in unique)


def _each(field: str) -> list[tuple[str, bool]]:
    return [(phrase, wording.spaced) for wording in WORDINGS for phrase in getattr(wording, field)]


def _connectors(wordings: Iterable[Wording]) -> str:
    words = sorted({c for w in wordings for c in w.connectors}, key=lambda c: (-len(c), c))
    return "|".join(_phrase(word, spaced=True) for word in words)


_CONNECTORS: Final = _connectors(WORDINGS)
_CORRECTION_LABEL: Final = rf"(?:{_alternation(_each('correction_labels'))})\s*{_CLOSERS}"
_CORRECTION_PHRASE: Final = _alternation(_each("correction_phrases"))
_UPDATE_PHRASE: Final = _alternation(_each("update_phrases"))
_NOTE_LABEL: Final = _alternation(_each("note_labels"))
_UPDATE_LABEL: Final = _alternation(_each("update_labels"))
_DATE_LABEL: Final = _alternation(_each("date_labels"))

NOTE_OPENING: Final = re.compile(
    rf"{_OPENER}(?:{_CORRECTION_LABEL}|{_CORRECTION_PHRASE}|{_UPDATE_PHRASE}|{_NOTE_LABEL})",
    re.IGNORECASE,
)
"""How a correction or editor's note opens, in every language of the tables."""

CORRECTION_ANYWHERE: Final = re.compile(_CORRECTION_PHRASE, re.IGNORECASE)
"""A phrase that admits an error, wherever it stands in a note."""

CORRECTION_OPENING: Final = re.compile(rf"{_OPENER}{_CORRECTION_LABEL}", re.IGNORECASE)
"""A correction label opening a note: "Rectificatif :", "【訂正】", "[정정]"."""

UPDATE_ANYWHERE: Final = re.compile(_UPDATE_PHRASE, re.IGNORECASE)
"""A sentence saying the story was updated, wherever it stands in a note."""

NOTE_LABEL_OPENING: Final = re.compile(rf"{_OPENER}(?:{_NOTE_LABEL})", re.IGNORECASE)
"""An editor's note label opening a note ("Nota de la redacción", "編者按")."""

UPDATE_OPENING: Final = re.compile(
    rf"{_OPENER}(?:{_UPDATE_LABEL})"
    rf"(?=\s*(?:[:\uff1a,(\uff08\d\-\u2013—\]】\uff3d\u3015」]|(?:{_CONNECTORS})(?!\w)))",
    re.IGNORECASE,
)
"""How an update note opens ("Mise à jour du 4 juin : …", "Aktualizacja, godz. 11:30:",
"追記: …"): a label followed by a time, a date, a colon or a connector."""

# Where a date stands beside a label: "Aktualizacja: … | Opublikowano: …" and "Publié le
# …, modifié le …" have two parts.
_SEPARATOR: Final = re.compile(
    rf"\s+[|·•/]\s+|\s*[|\uff5c]\s*|\s+-\s+|[,\uff0c]\s*(?=(?:{_UPDATE_LABEL}|{_DATE_LABEL}))",
    re.IGNORECASE,
)
_UPDATE_LABEL_ANYWHERE: Final = re.compile(_UPDATE_LABEL, re.IGNORECASE)
_DATE_LABEL_OPENING: Final = re.compile(
    rf"{_OPENER}(?:{_DATE_LABEL})(?:\s*[:\uff1a]?\s*(?:{_CONNECTORS})(?!\w))?", re.IGNORECASE
)
_DATE_LABEL_CLOSING: Final = re.compile(rf"(?:{_DATE_LABEL})[^\w]{{0,3}}$", re.IGNORECASE)
_LEADING_CONNECTOR: Final = re.compile(rf"^\s*(?:(?:{_CONNECTORS})(?!\w)\s*)+", re.IGNORECASE)
_NOTE_STARTS: Final = frozenset(
    phrase[:2]
    for field in ("correction_labels", "correction_phrases", "update_phrases", "note_labels")
    for phrase, _ in _each(field)
)


def _label_keys(field: str) -> tuple[frozenset[str], frozenset[str]]:
    """The first word (case-folded, as ``\\w+`` cuts it) of every label of ``field`` in
    a spaced language, and the first character of every label in an unspaced one."""
    words: set[str] = set()
    characters: set[str] = set()
    for wording in WORDINGS:
        for label in getattr(wording, field):
            if wording.spaced:
                words.add(_WORD_RUN.findall(label.casefold())[0])
            else:
                characters.add(label[0])
    return frozenset(words), frozenset(characters)


_WORD_RUN: Final = re.compile(r"\w+")
_DIGIT: Final = re.compile(r"\d")
_UPDATE_KEYS: Final = _label_keys("update_labels")
_DATE_KEYS: Final = _label_keys("date_labels")


def _may_hold_label(text: str, keys: tuple[frozenset[str], frozenset[str]]) -> bool:
    """Whether ``text`` holds the first word or character of a label: a cheap test that
    every text a label pattern matches in passes (a set lookup per word)."""
    words, characters = keys
    if not text.isascii() and not characters.isdisjoint(text):
        return True
    return not words.isdisjoint(_WORD_RUN.findall(text.casefold()))


def is_other_note(text: str) -> bool:
    """Whether a block opens a correction or editor's note in a language of the tables."""
    # lstrip on the first characters only: a paragraph is not copied to read its start
    head = text[:8].lstrip(SKIPPED) or text.lstrip(SKIPPED)
    return head[:2].casefold() in _NOTE_STARTS and NOTE_OPENING.match(text) is not None


def other_updated_line(text: str) -> str | None:
    """The "Updated …" part of a short line in a language of the tables (label and date:
    "Zaktualizowano: 4 czerwca 2026, 11:30", "2026年6月4日 11時30分 更新"), or None when
    no label stands next to a date read whole in the label's language."""
    if _DIGIT.search(text) is None or not _may_hold_label(text, _UPDATE_KEYS):
        return None
    for match in _UPDATE_LABEL_ANYWHERE.finditer(text):
        languages = languages_of_label(match.group())
        after = _SEPARATOR.split(text[match.end() :], maxsplit=1)[0]
        date = _LEADING_CONNECTOR.sub("", after.lstrip(" :\uff1a")).strip()
        if date and is_date_text(date, languages=_dateparser_codes(languages)):
            return text[match.start() : match.end() + len(after)].strip()
        before = _SEPARATOR.split(text[: match.start()])[-1]
        if before.strip() and is_date_text(before, languages=_dateparser_codes(languages)):
            return text[match.start() - len(before) : match.end()].strip(" ()\uff08\uff09")
    return None


def is_other_date_line(text: str, *, languages: tuple[str, ...] | None) -> bool:
    """Whether a line is only a date in a language of the tables, maybe with a label
    ("Publicado el 4 de junio de 2026", "입력 2026.06.04 10:12", "czwartek, 4 czerwca
    2026", "hace 5 minutos").

    ``languages`` are the page's (see :func:`dateparser_languages`); when the page names
    none, only lines with a label of the tables are read, in the label's languages.
    """
    if len(text) > DATE_TEXT_MAX or _DIGIT.search(text) is None:
        return False
    rest = text
    label_languages: tuple[str, ...] = ()
    if _may_hold_label(text, _DATE_KEYS):
        opening = _DATE_LABEL_OPENING.match(text)
        if opening is not None:
            rest = text[opening.end() :]
            label_languages = _label_of(opening.group())
        elif (closing := _DATE_LABEL_CLOSING.search(text)) is not None:
            rest = text[: closing.start()]
            label_languages = _label_of(closing.group())
    if languages is None:
        if not label_languages:
            return False
        languages = _dateparser_codes(label_languages)
    elif len(_WORD_RUN.findall(rest)) > DATE_WORDS_MAX:
        return False
    return bool(rest.strip()) and is_date_text(rest, languages=languages)


DATE_WORDS_MAX: Final = 12
"""Most words (runs of letters or digits) a dateline holds after its label: "el jueves, 4
de junio de 2026 a las 10:12 CEST" has 12; a longer line is prose, not worth reading."""


def dateparser_languages(tag: str | None) -> tuple[str, ...] | None:
    """The dateparser languages to read a page in from its language tag ("pl-PL" gives
    ``("pl",)``, "zh-TW" ``("zh-Hant", "zh")``); None when the page names no language of
    the tables (English and German have patterns of their own)."""
    if not tag:
        return None
    parts = tag.replace("_", "-").casefold().split("-")
    primary = parts[0]
    if primary == "zh":
        traditional = any(part in {"hant", "tw", "hk", "mo"} for part in parts[1:])
        return ("zh-Hant", "zh") if traditional else ("zh", "zh-Hant")
    if any(wording.language == primary for wording in WORDINGS):
        return (primary,)
    return None


def _label_of(found: str) -> tuple[str, ...]:
    """The languages of the label inside ``found`` (which may carry brackets and a
    connector around it)."""
    for match in _LABEL_WORD.finditer(found):
        languages = languages_of_label(match.group())
        if languages:
            return languages
    return ()


_LABEL_WORD: Final = re.compile(rf"{_UPDATE_LABEL}|{_DATE_LABEL}", re.IGNORECASE)


def _dateparser_codes(languages: Iterable[str]) -> tuple[str, ...]:
    """dateparser's codes for the languages of the tables: Chinese is read in both of
    its scripts."""
    codes: list[str] = []
    for language in languages:
        for code in ("zh", "zh-Hant") if language == "zh" else (language,):
            if code not in codes:
                codes.append(code)
    return tuple(codes)
