# ruff: noqa: RUF002, RUF003 (the docstring names the full-width marks it cuts at)
"""Cutting a block of article text into sentences, in the languages quietedit reads (pure).

A sentence ends at a terminal mark followed by the start of another sentence:

* ``.``, ``!``, ``?``, ``…`` (and runs of them, ``?!``), with any closing quotation marks
  or brackets after them (``"``, ``”``, ``’``, ``»``, ``«``, ``)``, ``]``; French puts a
  space before ``!``, ``?`` and ``»``, which is allowed), then white space, then a
  character that can open a sentence: an upper-case letter, a digit, an opening
  quotation mark or bracket, or a letter of a script without case (Arabic, Hebrew, Thai,
  Devanagari, CJK);
* Chinese and Japanese ``。``, ``！``, ``？`` (full width), whether or not white space
  follows; with closing brackets after them (``」``, ``』``, ``）``, ``”``) only before
  white space or an opening bracket (``「本当か？」と尋ねた`` is one sentence);
* a line break.

It does not end after an abbreviation that is written with a full stop and usually
followed by a name or a number (``Mr.``, ``Dr.``, ``St.``, ``Nr.``, ``z. B.``, ``Mme.``,
``M.``, … the lists are :data:`ABBREVIATIONS` and :data:`BEFORE_NUMBERS`, for ``No. 10``),
after an initial (a capital: ``J. K. Rowling``, ``z. B.``), after a German or Danish
ordinal before a month (``am 3. Dezember``), nor before a lower-case letter (``"No!" she
said``). This is the rule set of the Punkt-style splitters (NLTK, pySBD) cut to what news
text needs: deterministic, no model, the same sentences on every machine.

Joined with the white space between them, the sentences are the block's text: each is
returned with the white space around it stripped.
"""

from __future__ import annotations

import re
from typing import Final

ABBREVIATIONS: Final = frozenset(
    {
        # English
        "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "ft", "gen", "gov",
        "sen", "rep", "rev", "sgt", "lt", "col", "capt", "cmdr", "adm", "corp", "inc",
        "ltd", "co", "vs", "approx", "jan", "feb", "mar", "apr", "jun", "jul",
        "aug", "sep", "sept", "oct", "nov", "dec", "u.s", "u.k", "e.g", "i.e", "a.m",
        "p.m", "fig", "vol", "ch", "ed",
        # German
        "z", "d", "u", "bzw", "ca", "usw", "vgl", "str", "hr", "fr", "dipl", "ing",
        "d.h", "z.b", "u.a", "bspw", "ggf", "inkl", "mio", "mrd", "tsd",
        # French, Spanish, Italian, Portuguese, Dutch
        "m", "mm", "mme", "mmes", "mlle", "me", "sra", "srta", "dra", "sig",
        "av", "pres", "ex", "cf", "env", "dhr", "mevr", "blz",
    }
)  # fmt: skip
"""Words (lower case, without their last full stop) after which a full stop ends no
sentence. ``etc.`` is not in it: it ends a sentence when a capital follows."""

BEFORE_NUMBERS: Final = frozenset({"no", "nr", "art", "abs", "p", "pp", "vol", "fig", "ch", "s"})
"""Abbreviations that end no sentence before a number (``No. 10``, ``S. 12``) but may be
a word ending one otherwise (``He said no.``)."""

MONTHS_AFTER_ORDINAL: Final = frozenset(
    {
        "januar", "jänner", "februar", "märz", "april", "mai", "juni", "juli", "august",
        "september", "oktober", "november", "dezember", "january", "february", "march",
        "may", "june", "july", "october", "december", "marts", "maj",
    }
)  # fmt: skip
"""Month names that follow a German or Danish ordinal date (``3. Dezember``)."""

_CLOSERS: Final = "\"'\u201d\u2019\u00bb\u00ab)\\]\u300d\u300f\uff09\u3011"
_LATIN_END: Final = re.compile(
    f"[.!?\u2026]+(?:[ \u00a0\u202f]?[{_CLOSERS}])*(?=\\s)|(?<=[ \u00a0\u202f])[!?]+(?=\\s)"
)
_CJK_END: Final = re.compile(f"[\u3002\uff01\uff1f]+[{_CLOSERS}]*")
_WORD_BEFORE: Final = re.compile(r"(\w+(?:\.\w+)*)\.$")
_OPENERS: Final = "\"'\u201c\u2018\u00ab\u00bb\u201e\u201a(\\[\u300c\u300e\u00bf\u00a1-\u2013\u2014"


def split_sentences(text: str) -> tuple[str, ...]:
    """The sentences of ``text``, in order, stripped; none for blank text."""
    cuts = sorted({*_latin_cuts(text), *_cjk_cuts(text), *_line_cuts(text)})
    sentences = []
    start = 0
    for cut in [*cuts, len(text)]:
        piece = text[start:cut].strip()
        if piece:
            sentences.append(piece)
        start = cut
    return tuple(sentences)


def _latin_cuts(text: str) -> list[int]:
    cuts = []
    for match in _LATIN_END.finditer(text):
        end = match.end()
        following = text[end:].lstrip()
        if not following or not _opens_sentence(following):
            continue
        mark = match.group()
        if mark.startswith(".") and not mark.startswith(".."):
            stop = match.start()
            if _abbreviated(text, stop, following) or _ordinal_before_month(text, stop, following):
                continue
        cuts.append(end)
    return cuts


def _cjk_cuts(text: str) -> list[int]:
    cuts = []
    for match in _CJK_END.finditer(text):
        end = match.end()
        if end == len(text):
            continue
        closed = len(match.group().rstrip(_CLOSERS)) < len(match.group())
        # 「本当か？」と尋ねた: a quotation closed after its mark goes on in the sentence
        if closed and not (text[end].isspace() or text[end] in _OPENERS):
            continue
        cuts.append(end)
    return cuts


def _line_cuts(text: str) -> list[int]:
    return [m.end() for m in re.finditer("\n", text)]


def _opens_sentence(following: str) -> bool:
    first = following[0]
    if first.isupper() or first.isdigit() or first in _OPENERS:
        return True
    # scripts without case (Arabic, Hebrew, Thai, Devanagari, CJK) have no lower case
    return first.isalpha() and not first.islower() and first.lower() == first.upper()


def _abbreviated(text: str, stop: int, following: str) -> bool:
    """Whether the full stop at ``stop`` ends an abbreviation or an initial."""
    match = _WORD_BEFORE.search(text[max(stop - 40, 0) : stop + 1])
    if match is None:
        return False
    word = match.group(1).casefold()
    if len(word) == 1 and match.group(1).isupper():
        return True  # an initial: "J. K. Rowling", "M. Macron", "z. B."
    if word in BEFORE_NUMBERS:
        return following[0].isdigit()
    return word in ABBREVIATIONS


def _ordinal_before_month(text: str, stop: int, following: str) -> bool:
    """``3. Dezember``: a German or Danish day number before a month is no sentence end."""
    digits = re.search(r"(?:^|\s)(\d{1,2})$", text[max(stop - 3, 0) : stop])
    if digits is None:
        return False
    word = re.match(r"\w+", following)
    return word is not None and word.group().casefold() in MONTHS_AFTER_ORDINAL
