"""One name in another form across a change: an abbreviation and its long form, and the
forms of the alias list (pure).

A change that replaces a name with another form of it changes no fact, though the two
sides share no word: "Spion beim [-Bundesnachrichtendienst-]{+BND+}", "[-Europäische
Union-]{+EU+}", "[-National Health Service-]{+NHS+}", "[-Union blockiert-]{+CDU und CSU
blockieren+}". The removed and the added words of one change are compared, never words
from elsewhere in the text:

* an *abbreviation* (two to six capitals, a few small letters between them: "BND", "EU",
  "AfD", "BVerfG") stands for a run of capitalised words on the other side whose initials
  its capitals are (:func:`abbreviates`), in order; a small word of the name ("für",
  "of") may give a letter or none, and a word may give the first letters of its
  compound's parts too ("Bundes-nachrichten-dienst"), for an abbreviation of three
  capitals or more;
* an abbreviation whose first capital qualifies the body the other side names without it
  stands for that body: "so nass wie nie, laut [-Wetterdienst-]{+DWD+}" (the "Deutscher
  Wetterdienst"), "the [-Weather Service-]{+NWS+}", where the body's name ends in the
  kind of body it is (:data:`BODY_KINDS`);
* the forms of one group of :data:`~quietedit.analysis.aliases.ALIASES` ("Union",
  "CDU/CSU") name one body where no rule of form can tell.

A different body is still a changed fact: "CDU" → "SPD", "BND" → "MAD".
Which names :func:`other_forms` drops is ``names.py``'s to decide with its other rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from quietedit.analysis.aliases import ALIASES
from quietedit.analysis.facts import CONNECTORS, Fact, words

CAPITALS: Final = (2, 6)
"""Capitals an abbreviation has, fewest and most ("EU", "BVerfG")."""
MIN_PART: Final = 3
"""Letters of a compound's part at least, before and after the letter that opens it
("Bundes|nachrichten|dienst" gives "BND"; the "n" of "Bun-des" opens no part)."""
_SMALL_WORDS: Final = CONNECTORS | frozenset(
    {"für", "und", "die", "das", "dem", "den", "vom", "zum", "zur", "et", "a", "an"}
)
"""Words inside a long name that may give their initial or none ("Alternative für
Deutschland" is "AfD", "Bundesamt für Migration und Flüchtlinge" is "BAMF")."""
_ARTICLES: Final = frozenset({"the", "der", "die", "das", "den", "dem", "des", "le", "la", "les"})
"""Articles a name may have before it without being a longer name ("Die Union")."""
_JOINING: Final = frozenset({"und", "and", "&", "/"})
"""What joins the members of a form ("CDU/CSU" is "CDU und CSU")."""
_ENDINGS: Final = ("n", "en", "s", "es", "e")
"""Endings an inflected German word adds to a form ("den Vereinigten Staaten")."""
LONGEST_RUN: Final = 12
"""Words a long form has at most (an abbreviation's letters and its small words)."""
BODY_KINDS: Final = (
    "amt", "dienst", "gericht", "gerichtshof", "ministerium", "behörde", "agentur", "bank",
    "anstalt", "kammer", "polizei", "wehr", "kriminalamt",
)  # fmt: skip
"""How a German body's one-word name ends: the kind of body it is ("Bundes-nachrichten-
dienst", "Landes-kriminal-amt", "Wetter-dienst")."""
_ENGLISH_BODIES: Final = frozenset(
    {"service", "agency", "office", "bureau", "court", "ministry", "department", "police",
     "authority", "commission", "institute"}
)  # fmt: skip
"""The words an English body's name ends with, the kind of body it is."""
QUALIFIED_CAPITALS: Final = 3
"""Capitals an abbreviation with a qualifier has at least: the qualifier's and two of the
body's ("DWD"); two would leave the body one letter."""


@dataclass(frozen=True, slots=True)
class _Token:
    """A word of a change (a part of a hyphenated or slashed word on its own) or a
    punctuation mark, where it stands in the pair's text."""

    text: str
    start: int
    end: int

    @property
    def word(self) -> bool:
        return self.text.isalpha()

    @property
    def capitalised(self) -> bool:
        return self.text[:1].isupper()


def other_forms(
    gone: list[Fact], came: list[Fact], removed: str, added: str, *, old: int, new: int
) -> tuple[list[Fact], list[Fact]]:
    """``gone`` and ``came`` without the names that the other side of the change gives in
    another form: an abbreviation for its long form or the other way round, or another
    form of an alias. ``removed`` and ``added`` are the change's words, ``old`` and
    ``new`` where they start in the pair's texts (the facts' places)."""
    if not (removed and added) or not any(f.name for f in (*gone, *came)):
        return gone, came  # nothing replaced, or no name to drop
    removed_tokens, added_tokens = _tokens(removed, old), _tokens(added, new)
    old_spans, new_spans = _abbreviated(removed_tokens, added_tokens, came)
    new_shorts, old_longs = _abbreviated(added_tokens, removed_tokens, gone)
    old_spans += old_longs
    new_spans += new_shorts
    for old_span, new_span in _aliased(removed_tokens, added_tokens, gone, came):
        old_spans.append(old_span)
        new_spans.append(new_span)
    new_qualified, old_bodies = _qualified(added_tokens, removed_tokens)
    old_qualified, new_bodies = _qualified(removed_tokens, added_tokens)
    old_spans += old_bodies + old_qualified
    new_spans += new_bodies + new_qualified
    return (
        [f for f in gone if not (f.name and _inside(f, old_spans))],
        [f for f in came if not (f.name and _inside(f, new_spans))],
    )


Span = tuple[int, int]


def _inside(fact: Fact, spans: list[Span]) -> bool:
    return any(start <= fact.start and fact.end <= end for start, end in spans)


def _tokens(text: str, offset: int) -> list[_Token]:
    """The change's words and punctuation marks, parts of a word joined by a hyphen or a
    slash apart ("EU-Kommission", "CDU/CSU"), the slash kept as a word's joint."""
    found = []
    for word in words(text):
        start = offset + word.start
        at = 0
        for part in _parts(word.text):
            if part in "-/":
                if part == "/":
                    found.append(_Token("/", start + at, start + at + 1))
            elif part:
                found.append(_Token(part, start + at, start + at + len(part)))
            at += len(part)
    return found


def _parts(word: str) -> list[str]:
    parts, current = [], ""
    for char in word:
        if char in "-/":
            parts += [current, char]
            current = ""
        else:
            current += char
    return [*parts, current]


def is_abbreviation(word: str) -> bool:
    """Two to six capitals, as many small letters at most ("BND", "AfD", "BVerfG"; not
    "McCain")."""
    capitals = sum(c.isupper() for c in word)
    fewest, most = CAPITALS
    return (
        word.isalpha()
        and word[0].isupper()
        and fewest <= capitals <= most
        and len(word) - capitals <= capitals
    )


def abbreviates(short: str, run: Sequence[str]) -> bool:
    """Whether the capitals of ``short`` are the initials of ``run``'s words in order:
    each word gives its first letter (a small word such as "für" or "of" may give none),
    and for three capitals or more a word may give the first letters of its compound's
    parts too ("Bundesnachrichtendienst" for "BND")."""
    letters = "".join(c for c in short if c.isupper()).casefold()
    return bool(run) and _initials(letters, [w.casefold() for w in run], 0, 0)


def _initials(letters: str, run: list[str], i: int, w: int) -> bool:
    """``letters[i:]`` from ``run[w:]``, each word opening with the next letter."""
    if w == len(run):
        return i == len(letters)
    word = run[w]
    if word in _SMALL_WORDS and _initials(letters, run, i, w + 1):
        return True
    if i == len(letters) or word[0] != letters[i]:
        return False
    return _parts_from(letters, run, i + 1, w, 0)


def _parts_from(letters: str, run: list[str], i: int, w: int, at: int) -> bool:
    """``letters[i:]`` from the parts of ``run[w]`` after the one opening at ``at``, then
    from the words after it."""
    if _initials(letters, run, i, w + 1):
        return True
    if i == len(letters) or len(letters) < 3:
        return False
    word = run[w]
    return any(
        word[p] == letters[i] and _parts_from(letters, run, i + 1, w, p)
        for p in range(at + MIN_PART, len(word) - MIN_PART + 1)
    )


def _abbreviated(
    short_side: list[_Token], long_side: list[_Token], long_facts: list[Fact]
) -> tuple[list[Span], list[Span]]:
    """Where an abbreviation on one side stands for a run of words on the other:
    ``(spans on the short side, spans on the long side)``; ``long_facts``: the facts of
    the long side (a run inside a longer name is no long form)."""
    shorts, longs = [], []
    for token in short_side:
        if not is_abbreviation(token.text):
            continue
        for run in _runs(long_side, token.text[0]):
            texts = [t.text for t in run]
            if len(texts) == 1 and is_abbreviation(texts[0]):
                continue  # another abbreviation: another body, or the same one respelt
            if abbreviates(token.text, texts) and _whole(run, long_facts):
                shorts.append((token.start, token.end))
                longs.append((run[0].start, run[-1].end))
                break
    return shorts, longs


def _qualified(short_side: list[_Token], long_side: list[_Token]) -> tuple[list[Span], list[Span]]:
    """Where an abbreviation on one side is a qualifier's capital and the initials of the
    body the other side names, all that side's words: ``(spans on the short side, spans on
    the long side)``. The body is one German compound whose first letter and the kind of
    body it ends with give the two capitals ("Wetter-dienst" for the "WD" of "DWD"), or
    English capitalised words ending with a kind of body ("Weather Service", "NWS")."""
    body = [t for t in long_side if t.word and t.text.casefold() not in _ARTICLES]
    if not body or not all(t.capitalised for t in body) or not _body_kind(body[-1].text):
        return [], []
    for token in short_side:
        capitals = [c for c in token.text if c.isupper()]
        if not is_abbreviation(token.text) or len(capitals) < QUALIFIED_CAPITALS:
            continue
        rest = "".join(capitals[1:])
        texts = [t.text for t in body]
        if abbreviates(rest, texts) or (len(body) == 1 and _kind_initials(rest, texts[0])):
            return [(token.start, token.end)], [(body[0].start, body[-1].end)]
    return [], []


def _body_kind(word: str) -> bool:
    lowered = word.casefold()
    return lowered in _ENGLISH_BODIES or any(
        lowered.endswith(kind) and len(lowered) > len(kind) + 2 for kind in BODY_KINDS
    )


def _kind_initials(letters: str, word: str) -> bool:
    """Two capitals: the compound's first letter and that of the kind of body it ends
    with ("WD" of "Wetterdienst")."""
    lowered, letters = word.casefold(), letters.casefold()
    return (
        len(letters) == 2
        and lowered[0] == letters[0]
        and any(
            lowered.endswith(kind) and kind[0] == letters[1] and len(lowered) > len(kind) + 2
            for kind in BODY_KINDS
        )
    )


def _runs(tokens: list[_Token], initial: str) -> list[list[_Token]]:
    """Runs of words without punctuation between them, opening with a capitalised word
    with ``initial`` and ending with a capitalised word, each small word of a name
    allowed inside."""
    found = []
    for first, token in enumerate(tokens):
        if not (token.word and token.capitalised and token.text[0] == initial):
            continue
        for last in range(first, min(first + LONGEST_RUN, len(tokens))):
            word = tokens[last]
            if not word.word or not (word.capitalised or word.text in _SMALL_WORDS):
                break
            if word.capitalised:
                found.append(tokens[first : last + 1])
    return found


def _whole(run: list[_Token], facts: list[Fact]) -> bool:
    """The run is a whole name: no fact inside it belongs to a longer run of capitals
    (an article before it aside)."""
    start, end = run[0].start, run[-1].end
    for fact in facts:
        if fact.name and start <= fact.start and fact.end <= end:
            outside = [
                w for w in fact.group if (w.end <= start or w.start >= end) and w.text[:1].isupper()
            ]
            if any(w.text.casefold() not in _ARTICLES for w in outside):
                return False
    return True


# -- the alias list --------------------------------------------------------------------


_FORMS: Final = tuple(
    tuple(
        tuple(t.text for t in _tokens(form, 0) if t.text not in _JOINING and t.word)
        for form in group
    )
    for group in ALIASES
)
"""Each alias group's forms as their words, joining words left out."""
_FIRST_WORDS: Final = tuple(
    frozenset(
        form[0].casefold() + ending
        for form in forms
        for ending in ("", *(() if form[0].isupper() else _ENDINGS))
    )
    for forms in _FORMS
)
"""The words each group's forms open with, inflected too: a change with none of a
group's on both sides is passed over."""


_LISTED: Final = frozenset(form[0] for forms in _FORMS for form in forms if len(form) == 1)
"""The forms of one word on the alias list."""


def listed(word: str) -> bool:
    """``word`` is a form of one word on the alias list ("USA", "Tories"): it names the
    body of its group, and another name is another form of it only by the list or by
    initials."""
    return word in _LISTED


def _aliased(
    removed: list[_Token], added: list[_Token], gone: list[Fact], came: list[Fact]
) -> list[tuple[Span, Span]]:
    """Where the two sides of a change give two forms of one alias group:
    ``(span on the old side, span on the new side)`` for each."""
    found = []
    old_words = {t.text.casefold() for t in removed}
    new_words = {t.text.casefold() for t in added}
    for forms, first in zip(_FORMS, _FIRST_WORDS, strict=True):
        if not (old_words & first and new_words & first):
            continue
        old = [(form, span) for form in forms for span in _find(form, removed, gone)]
        new = [(form, span) for form in forms for span in _find(form, added, came)]
        found += [(a, b) for form_a, a in old for form_b, b in new if form_a != form_b]
    return found


def _find(form: tuple[str, ...], tokens: list[_Token], facts: list[Fact]) -> list[Span]:
    """Where ``form``'s words stand in ``tokens`` in a row (joining words skipped), a form
    of one word not all capitals only standing alone."""
    kept = [t for t in tokens if t.text.casefold() not in _JOINING]
    found = []
    for first in range(len(kept) - len(form) + 1):
        row = kept[first : first + len(form)]
        if not all(_same_word(word, t.text) for word, t in zip(form, row, strict=True)):
            continue
        span = (row[0].start, row[-1].end)
        if len(form) == 1 and not form[0].isupper():
            neighbours = [kept[at] for at in (first - 1, first + 1) if 0 <= at < len(kept)]
            if any(
                n.word and n.capitalised and n.text.casefold() not in _ARTICLES for n in neighbours
            ) or not _whole([row[0]], facts):
                continue
        found.append(span)
    return found


def _same_word(form_word: str, word: str) -> bool:
    """A word of a form as the text writes it: capitals exactly, another word with its
    first capital and maybe an inflection ending."""
    if form_word.isupper():
        return word == form_word
    if not word[:1].isupper():
        return False
    folded, wanted = word.casefold(), form_word.casefold()
    return folded == wanted or any(folded == wanted + ending for ending in _ENDINGS)
