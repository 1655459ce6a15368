"""Cutting text into words in any script, as Wikipedia's diff engine does (pure).

Three scripts need more than "letters between spaces":

* **Chinese and Japanese** put no spaces between words, so a ``\\w+`` run is a whole
  clause; like wikidiff2 (``TextUtil::isLetter``: U+3000-U+9FFF and U+20000 upwards are
  "split up character by character") every ideograph, kana and CJK letter is a word of
  its own. Korean writes spaces between words, so Hangul stays in words.
* **Thai** puts no spaces between words either, but a character is not a word: Thai is
  cut by a dictionary. wikidiff2 uses libthai; here ICU's word break iterator (the
  dictionary its own source suggests moving to) through `icu4py
  <https://pypi.org/project/icu4py/>`_, installed with ``pip install 'quietedit[thai]'``.
  Without it, Thai is cut into character clusters (a consonant with its vowel and tone
  marks, a leading vowel with the consonant after it): finer than words, never wrong
  about where a letter ends. :func:`thai_segmenter` names the one in use, so cached diffs
  made with the other are not reused.
* **Combining marks** (Thai and Devanagari vowel signs, Arabic and Hebrew vowel points,
  a decomposed accent) are not ``\\w`` to Python's ``re``, which would cut "สำหรับ" or
  "नमस्ते" at every mark; here a mark belongs to the word it is written in.

Text with none of these (all of English, German, Korean, …) takes the plain patterns of
:mod:`quietedit.analysis.words` as before, at the same speed.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
import unicodedata
from collections.abc import Callable
from functools import cache
from typing import Final

CJK_RANGES: Final = "\u3000-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
"""Ideographs, kana and CJK symbols: wikidiff2's ranges, with the compatibility
ideographs and the later extensions of CJK Unified Ideographs (B to H)."""
THAI_RANGE: Final = "\u0e00-\u0e7f"

_THAI: Final = re.compile(f"[{THAI_RANGE}]")
_THAI_LEADING_VOWELS: Final = frozenset("\u0e40\u0e41\u0e42\u0e43\u0e44")  # เ แ โ ใ ไ
_PUNCTUATION_JOINERS: Final = "-'\u2019.,:/"  # inside a word: 4.2, 1,200, 12:30, don't


@cache
def _marks() -> str:
    """The combining marks (Unicode categories Mn, Mc and Me) as a character class body,
    read from :mod:`unicodedata` once (17 ms), so it follows Python's Unicode version."""
    ranges: list[list[int]] = []
    for code in range(0x300, 0x20000):
        if unicodedata.category(chr(code))[0] == "M":
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
    return "".join(
        re.escape(chr(first)) + ("-" + re.escape(chr(last)) if last > first else "")
        for first, last in ranges
    )


@cache
def _needs_segmenting() -> re.Pattern[str]:
    """A character that the plain patterns would cut wrongly: CJK, Thai or a mark."""
    return re.compile(f"[{CJK_RANGES}{THAI_RANGE}{_marks()}]")


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The token and the word pattern for text that needs segmenting."""
    marks = _marks()
    letter = rf"(?:[^\W{CJK_RANGES}]|[{marks}])"  # a word character, or a mark
    ideograph = rf"(?=\w)[{CJK_RANGES}][{marks}]*"
    joiners = re.escape(_PUNCTUATION_JOINERS)
    token = re.compile(
        rf"(?:{letter}+(?:[{joiners}]{letter}+)*|{ideograph}|[^\w\s][{marks}]*)\s*|\s+"
    )
    word = re.compile(rf"{letter}+|{ideograph}")
    return token, word


def needs_segmenting(text: str) -> bool:
    """Whether ``text`` holds CJK, Thai or a combining mark (ASCII never does)."""
    return not text.isascii() and _needs_segmenting().search(text) is not None


def segment_tokens(text: str) -> list[str]:
    """The tokens of text that :func:`needs_segmenting`: words (each CJK character one,
    Thai cut by :func:`thai_segmenter`'s dictionary), single punctuation marks, each with
    its white space after it; ``"".join(segment_tokens(text)) == text``."""
    tokens = _patterns()[0].findall(text)
    return _split_thai(tokens) if _THAI.search(text) else tokens


def segment_words(text: str) -> list[str]:
    """The words of text that :func:`needs_segmenting` (no punctuation, no space)."""
    words = _patterns()[1].findall(text)
    return _split_thai(words) if _THAI.search(text) else words


def thai_segmenter() -> str:
    """The Thai segmenter in use: ``"icu4py <version> (ICU word break)"`` or
    ``"character clusters"`` (see the module docstring)."""
    if importlib.util.find_spec("icu4py") is None:
        return "character clusters"
    return f"icu4py {importlib.metadata.version('icu4py')} (ICU word break)"


def _split_thai(tokens: list[str]) -> list[str]:
    """``tokens`` with each one that holds Thai cut into Thai words, its trailing white
    space kept on the last piece."""
    split = _thai_splitter()
    out: list[str] = []
    for token in tokens:
        if _THAI.search(token) is None:
            out.append(token)
            continue
        core = token.rstrip()
        pieces = [piece for piece in split(core) if piece]
        pieces[-1] += token[len(core) :]
        out.extend(pieces)
    return out


@cache
def _thai_splitter() -> Callable[[str], list[str]]:
    """ICU's dictionary word break when icu4py is installed, else character clusters."""
    if importlib.util.find_spec("icu4py") is not None:
        from icu4py.breakers import WordBreaker  # loaded only for Thai text: 10 ms

        return lambda text: list(WordBreaker(text, "th"))
    return thai_clusters


def thai_clusters(text: str) -> list[str]:
    """``text`` cut into character clusters: each character with the marks after it, a
    leading vowel (เ แ โ ใ ไ) with the character after it, runs of other characters
    whole."""
    clusters: list[str] = []
    pending = ""  # a leading vowel waiting for its consonant
    for char in text:
        if unicodedata.category(char)[0] == "M" and clusters and not pending:
            clusters[-1] += char
        elif char in _THAI_LEADING_VOWELS:
            pending += char
        elif "\u0e00" <= char <= "\u0e7f" or pending:
            clusters.append(pending + char)
            pending = ""
        elif clusters and not _THAI.search(clusters[-1]):
            clusters[-1] += char  # a run of Latin letters or digits stays whole
        else:
            clusters.append(char)
    if pending:
        clusters.append(pending)
    return clusters
