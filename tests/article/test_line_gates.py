"""The cheap gates in front of the line patterns decide exactly as the patterns alone.

Bylines, dates, notes, "Updated" lines and furniture labels are read with case-ignoring
patterns of many alternatives, costly to try on every block of every page; each is
fronted by a gate (an opening word, a first letter, a digit) that settles most blocks
without it. A gate may only turn away what its pattern would turn away too. These tests
hold each gated function to the bare pattern, on strings the patterns themselves
generate, disguised with the characters that case-ignoring matching folds onto ASCII
letters (long s, Kelvin sign, dotless and dotted i) and with the openings the gates skip.
"""

from __future__ import annotations

import itertools
import re
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quietedit.article import furniture, languages, notices
from quietedit.article.furniture import is_boilerplate_line, opening_word
from quietedit.article.languages import other_updated_line
from quietedit.article.notices import is_note, updated_line
from quietedit.article.wording import WORDINGS

# Characters that case-ignoring matching takes for an ASCII letter, and ones it does not.
FOLDS = {"s": "S\u017f", "k": "K\u212a", "i": "I\u0130\u0131", "a": "A\u00e4", "o": "O\u00f6"}
OPENINGS = [
    "",
    " ",
    "  ",
    "\u2022 ",
    "(",
    "((",
    '"',
    "\u201c",
    "*",
    "- ",
    "12 ",
    "_",
    "\u00a9 ",
    "[",
]


def plain_boilerplate(text: str) -> bool:
    """is_boilerplate_line with no gate: the patterns alone."""
    if len(text) > furniture.BOILERPLATE_LINE_MAX:
        return False
    if len(text) <= furniture.WHOLE_LINE_MAX and furniture._WHOLE_LINE.match(text) is not None:
        return True
    return furniture._LINE_START.match(text) is not None


def plain_date_line(text: str) -> bool:
    if len(text) > notices.DATE_LINE_MAX or notices._DIGIT.search(text) is None:
        return False
    return notices._DATE_ONLY.match(text) is not None


def plain_note(text: str) -> bool:
    """is_note with only the two-letter gate it always had."""
    if len(text) > notices.NOTE_MAX:
        return False
    if text.lstrip("*([\u2013\u2014- ")[:2].lower() not in notices._NOTE_STARTS:
        return False
    return notices._NOTE.match(text) is not None


def plain_updated_line(text: str) -> str | None:
    """updated_line with only the lower-cased word gate it always had (and the other
    languages' reading after it)."""
    if len(text) > notices.UPDATED_LINE_MAX:
        return None
    words = ("updated", "modified", "aktualisiert", "stand", "mis \u00e0 jour", "actualizado")
    lowered = text.lower()
    match = notices._UPDATED.search(text)
    if any(word in lowered for word in (*words, "aggiornato")) and match is not None:
        rest = notices._SEPARATOR.split(text[match.start() :], maxsplit=1)[0]
        if notices._DIGIT.search(rest):
            return rest
    return other_updated_line(text)


def alternatives(pattern: re.Pattern[str]) -> list[str]:
    """The pattern once per alternative of its outermost group, the rest of it around."""
    source = pattern.pattern
    start = source.index("(?:") + 3
    depth, in_class, escaped, cut = 0, False, False, [start - 1]
    for index in range(start, len(source)):
        char = source[index]
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                cut.append(index)
                break
            depth -= 1
        elif char == "|" and depth == 0:
            cut.append(index)
    head, tail = source[: start - 3], source[cut[-1] + 1 :]
    return [f"{head}(?:{source[a + 1 : b]}){tail}" for a, b in itertools.pairwise(cut)]


@st.composite
def disguised(draw: st.DrawFn, pattern: re.Pattern[str]) -> str:
    """A string one alternative of ``pattern`` matches, its letters maybe swapped for their
    case-ignoring look-alikes, maybe opened with what a gate skips, maybe continued."""
    alternative = draw(st.sampled_from(alternatives(pattern)))
    text = draw(st.from_regex(re.compile(alternative, pattern.flags)))
    letters = []
    for char in text:
        folds = FOLDS.get(char.lower())
        if folds and draw(st.integers(0, 3)) == 0:
            char = draw(st.sampled_from(folds))
        letters.append(char)
    text = "".join(letters)
    if draw(st.booleans()):
        text = draw(st.sampled_from(OPENINGS)) + text
    if draw(st.booleans()):
        text += draw(st.sampled_from(["", " 2026", " \u0663", "s", "e", ":", " and more", "x 5"]))
    return text


LINE_CHARACTERS = st.text(
    alphabet=st.sampled_from(
        [
            *"abcdeinorstuvxyABSTZ 0129:.,-|()_'\"",
            *"\u00e4\u017f\u212a\u0130\u2022\u2019\u00a9",
            *"\u0663\uff12",  # digits beyond ASCII: \\d matches them too
        ]
    ),
    max_size=60,
)


def candidates(*patterns: re.Pattern[str]) -> st.SearchStrategy[str]:
    return st.one_of(LINE_CHARACTERS, *(disguised(pattern) for pattern in patterns))


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(candidates(furniture._WHOLE_LINE, furniture._LINE_START))
def test_the_boilerplate_gate_turns_away_only_what_the_patterns_would(text: str) -> None:
    assert is_boilerplate_line(text) is plain_boilerplate(text)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(candidates(notices._DATE_ONLY))
def test_the_date_line_gate_turns_away_only_what_the_pattern_would(text: str) -> None:
    english_or_german = len(text) <= notices.DATE_LINE_MAX and (
        notices._is_english_or_german_date_line(text)
    )
    assert english_or_german is plain_date_line(text)


def test_the_note_gate_tells_two_ascii_characters_as_the_lower_cased_pair_would() -> None:
    """Every opening of an ASCII letter and an ASCII character, before every way a note
    goes on after its first two letters."""
    goings_on = {
        "rrection: x", "arification: x", "itor's note", "te from the editor", " earlier version",
        "n earlier version of this story", "is article has been updated", "rrektur: x",
        "richtigung: x", "chtigstellung: x", "nweis der redaktion", "ansparenzhinweis",
        " einer fr\u00fcheren Version", "eser Artikel wurde ge\u00e4ndert", "merkung der redaktion",
    }  # fmt: skip
    for first in string.ascii_letters:
        for second in map(chr, range(128)):
            for going_on in goings_on:
                text = first + second + going_on
                assert notices._is_english_or_german_note(text) is plain_note(text), text


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(candidates(notices._NOTE))
def test_the_note_gates_turn_away_only_what_the_pattern_would(text: str) -> None:
    assert (len(text) <= notices.NOTE_MAX and notices._is_english_or_german_note(text)) is (
        plain_note(text)
    )


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(candidates(notices._UPDATED))
def test_the_updated_line_gates_turn_away_only_what_the_pattern_would(text: str) -> None:
    assert updated_line(text) == plain_updated_line(text)


@pytest.mark.parametrize(
    ("text", "boilerplate"),
    [
        ("Share this article", True),
        ("12 Comments", True),
        ("\u2022 SPONSORED \u2022", True),
        ("Tags: harbour, ferries", True),
        ("(c) 2026 Example News", True),
        ("\u00a9 2026 Example News", True),
        ("Image credits: Jo Lee", True),
        ("Transparenzhinweise", False),
        ("Share prices fell sharply", False),
        ("\u017fhare this", True),  # a long s is an s to a case-ignoring pattern
        ("The harbour reopened", False),
        ("2019 was a hard year", False),
    ],
)
def test_boilerplate_lines_are_told_with_and_without_the_patterns(
    text: str, boilerplate: bool
) -> None:
    assert is_boilerplate_line(text) is boilerplate is plain_boilerplate(text)


@pytest.mark.parametrize(
    ("text", "note"),
    [
        ("Correction: an earlier version misnamed the pier.", True),
        ("Transparenzhinweise: Der Autor war vor Ort.", True),
        ("Korrekturhinweis der Redaktion", True),
        ("In einer früheren Version hieß es ...", True),
        ("In the harbour the ferries wait.", False),
        ("The correction came late.", False),
    ],
)
def test_notes_are_told_with_and_without_the_gates(text: str, note: bool) -> None:
    assert is_note(text) is note is plain_note(text)


@pytest.mark.parametrize(
    ("text", "past_digits", "word"),
    [
        ("Share this", True, "share"),
        ("Share this", False, "share"),
        ("  12 Comments", True, "comments"),
        ("  12 Comments", False, ""),
        ("(c) 2026", True, "c"),
        ("(c) 2026", False, None),
        ("Tags: a, b", False, "tags"),
        ("\u00dcber uns", False, None),
        ("Caf\u00e9", False, None),
        ("...", True, ""),
        ("", False, ""),
    ],
)
def test_opening_word_is_the_ascii_word_after_what_the_pattern_passes_over(
    text: str, past_digits: bool, word: str | None
) -> None:
    assert opening_word(text, past_digits=past_digits) == word


def test_an_ascii_character_matches_no_letter_of_the_patterns_but_its_own_cases() -> None:
    """What every opening-word gate rests on, checked for every letter the patterns use."""
    sources = "".join(
        p.pattern
        for p in (
            furniture._WHOLE_LINE,
            furniture._LINE_START,
            notices._NOTE,
            notices._DATE_ONLY,
        )
    )
    letters = {char for char in sources if char.isalpha()}
    for letter in letters:
        for code in range(128):
            char = chr(code)
            matches = re.fullmatch(re.escape(letter), char, re.IGNORECASE) is not None
            assert matches is (char.lower() == letter.lower() and char.isalpha())


LABELS = sorted(
    {label for wording in WORDINGS for label in (*wording.update_labels, *wording.date_labels)}
)


@settings(max_examples=500, deadline=None)
@given(
    st.sampled_from(LABELS),
    st.sampled_from(["", "2026 ", "Por Ana · ", "(", "4.6.2026 ", "\u3010"]),
    st.sampled_from(["", ": 4 czerwca 2026", " 11:30", "\uff1a2026/06/04", "\u3011", "s 2"]),
    st.booleans(),
)
def test_the_label_gates_turn_away_no_line_the_label_patterns_take(
    label: str, before: str, after: str, upper: bool
) -> None:
    text = before + (label.upper() if upper else label) + after
    if languages._UPDATE_LABEL_ANYWHERE.search(text):
        assert languages._may_hold_label(text, languages._UPDATE_KEYS), text
    if languages._DATE_LABEL_OPENING.match(text) or languages._DATE_LABEL_CLOSING.search(text):
        assert languages._may_hold_label(text, languages._DATE_KEYS), text
