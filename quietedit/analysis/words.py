"""Word-level diffs that read like an editor's markup, and the similarity of two blocks.

A block's text is cut into *tokens*: a word (letters and digits, with inner ``-``, ``'``,
``.``, ``,``, ``:`` or ``/`` so that ``4.2``, ``1,200``, ``12:30`` and ``don't`` stay
whole) or a single punctuation mark, each with the white space after it attached. Joined
back, the tokens are the text exactly. Chinese and Japanese are cut character by
character and Thai by a dictionary, as wikidiff2 does (:mod:`quietedit.analysis.segment`).
Tokens are compared without their white space, with :class:`difflib.SequenceMatcher`
(``autojunk=False``, so frequent words are never junked and results never depend on
length), then a clean-up pass lets a one-word
equality between two changes join them, the way diff-match-patch's semantic clean-up
does, so a rewritten clause reads as one change instead of a comb of fragments.

A word diff is a tuple of *segments* ``(op, text)``: ``"="`` kept, ``"-"`` removed,
``"+"`` added; in every change the removal comes before the addition. Kept text is the
*new* revision's, so joining the ``=`` and ``+`` segments gives the new text exactly and
joining ``=`` and ``-`` gives the old text up to white space.

Similarity between blocks is over words only (folded with the content hash's
:func:`~quietedit.article.fingerprint.fold_text`, case-folded; punctuation left out
because commas and full stops match in any two paragraphs): ``2 * LCS / (len(a) + len(b))``,
the share of words kept in order, computed by rapidfuzz on words interned to single
code points.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Final, TypeAlias

from rapidfuzz.distance import LCSseq

from quietedit.analysis.segment import needs_segmenting, segment_tokens, segment_words
from quietedit.article.fingerprint import fold_text

Segment: TypeAlias = tuple[str, str]
"""One run of a word diff: ``("=", text)``, ``("-", text)`` or ``("+", text)``."""

EQUAL: Final = "="
DELETE: Final = "-"
INSERT: Final = "+"

MAX_WORD_DIFF_COMPLEXITY: Final = 250_000
"""Old tokens by new tokens (after the common start and end are set aside) above which a
pair is not word-diffed: its middle is shown as one removal and one addition. Like
wikidiff2's ``max_word_level_diff_complexity``; 500 by 500 tokens is far beyond a news
paragraph and diffs in about 10 ms here (``bench/diff.py``)."""

_TOKEN: Final = re.compile(r"(?:\w+(?:[-'\u2019.,:/]\w+)*|[^\w\s])\s*|\s+")
_WORD: Final = re.compile(r"\w+")
# Words become code points from plane 1 upwards, so rapidfuzz compares words, not letters.
_CODE_BASE: Final = 0x10000
_CODE_SPAN: Final = 0x110000 - _CODE_BASE


def tokenize(text: str) -> list[str]:
    """The tokens of ``text``; ``"".join(tokenize(text)) == text`` always."""
    return segment_tokens(text) if needs_segmenting(text) else _TOKEN.findall(text)


def words_of(text: str) -> list[str]:
    """The words of ``text``: runs of letters and digits, each CJK character one, Thai
    words as its dictionary cuts them."""
    return segment_words(text) if needs_segmenting(text) else _WORD.findall(text)


def count_words(text: str) -> int:
    """Words in ``text`` (see :func:`words_of`), as the diff summary counts them."""
    return len(words_of(text))


def similarity_codes(texts: Iterable[str]) -> list[str]:
    """Each text's words as a string of code points, one per word, interned across ``texts``.

    Two texts' codes share a code point exactly where they share a folded word. Past
    1,048,576 distinct words (no real article pair has that many) codes wrap around, and
    two different words may then count as the same one: similarity gets rougher, never
    slower.
    """
    table: dict[str, str] = {}
    codes = []
    for text in texts:
        chars = []
        for word in words_of(fold_text(text).casefold()):
            code = table.get(word)
            if code is None:
                code = table[word] = chr(_CODE_BASE + len(table) % _CODE_SPAN)
            chars.append(code)
        codes.append("".join(chars))
    return codes


def common_words(a: str, b: str) -> int:
    """Length of the longest common subsequence of two :func:`similarity_codes` strings."""
    return int(LCSseq.similarity(a, b))


def similarity(common: int, a_words: int, b_words: int) -> float:
    """``2 * common / (a_words + b_words)``: 1.0 for the same words in the same order."""
    total = a_words + b_words
    return 2 * common / total if total else 1.0


def diff_words(old: str, new: str, *, limit: int = MAX_WORD_DIFF_COMPLEXITY) -> WordDiff:
    """The word diff of two texts (see the module docstring); ``.coarse`` if ``limit`` hit."""
    parts, coarse = diff_word_parts((old,), (new,), limit=limit)
    return WordDiff(parts[0], coarse)


@dataclass(frozen=True, slots=True)
class WordDiff:
    """A word diff and whether the complexity limit made it coarse."""

    segments: tuple[Segment, ...]
    coarse: bool = False


def diff_word_parts(
    old_parts: Sequence[str], new_parts: Sequence[str], *, limit: int = MAX_WORD_DIFF_COMPLEXITY
) -> tuple[tuple[tuple[Segment, ...], ...], bool]:
    """Diff texts cut into parts on one side: a block split in several, or several merged.

    One side has a single part, the other one or more. Returns one segment tuple per part
    of the side that has several (per part of ``new_parts`` when both have one), and
    whether the complexity ``limit`` made the diff coarse. Each new part is the ``=`` and
    ``+`` text of its own segments (split), or the new text is the ``=`` and ``+`` text of
    all segments in order (merge); likewise for the old side with ``=`` and ``-``.
    """
    if len(old_parts) > 1 and len(new_parts) > 1:
        raise ValueError("only one side of a word diff may have several parts")
    a_tokens, a_keys = _sequence(old_parts, "old")
    b_tokens, b_keys = _sequence(new_parts, "new")
    opcodes, coarse = _opcodes(a_keys, b_keys, limit=limit)
    split = len(new_parts) > 1
    buckets: list[list[_Group]] = [[] for _ in (new_parts if split else old_parts)]
    part = 0
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":  # never spans a part boundary: boundaries are never equal
            kept = "".join(b_tokens[j1:j2]), "".join(a_tokens[i1:i2])
            buckets[part].append((EQUAL, *kept))
            continue
        for op, tokens, keys, start, stop in (
            (DELETE, a_tokens, a_keys, i1, i2),
            (INSERT, b_tokens, b_keys, j1, j2),
        ):
            run = start
            for index in range(start, stop):
                if keys[index] in _SEPARATORS:
                    _add_change(buckets[part], op, "".join(tokens[run:index]))
                    part += 1
                    run = index + 1
            _add_change(buckets[part], op, "".join(tokens[run:stop]))
    return tuple(_segments(_absorb_short_equalities(groups)) for groups in buckets), coarse


def new_side(segments: Iterable[Segment]) -> str:
    """The new text of a word diff: its ``=`` and ``+`` segments joined."""
    return "".join(text for op, text in segments if op != DELETE)


def old_side(segments: Iterable[Segment]) -> str:
    """The old text of a word diff, up to white space: its ``=`` and ``-`` segments joined."""
    return "".join(text for op, text in segments if op != INSERT)


@dataclass(frozen=True, slots=True)
class Hunk:
    """One change of a word diff, with up to ``CONTEXT_WORDS`` kept words either side.

    ``old_at`` and ``new_at`` are where ``removed`` and ``added`` start (or would start)
    in the diff's old side (:func:`old_side`) and new side (:func:`new_side`).
    """

    removed: str
    added: str
    before: str = ""
    after: str = ""
    old_at: int = 0
    new_at: int = 0

    def markup(self) -> str:
        """The change in wdiff's plain markup, with its context: ``was [-4.2-]{+4.5+} million``."""
        removed, added = self.removed.rstrip(), self.added.rstrip()
        gap = " " if self.removed[len(removed) :] or self.added[len(added) :] else ""
        marks = (f"[-{removed}-]" if removed else "") + (f"{{+{added}+}}" if added else "")
        return f"{self.before}{marks}{gap}{self.after}".strip()


CONTEXT_WORDS: Final = 3
"""Kept tokens shown on each side of a change in evidence."""


def hunks(segments: Sequence[Segment]) -> list[Hunk]:
    """The changes of a word diff in reading order, each with its kept context."""
    found: list[Hunk] = []
    removed = added = ""
    before = ""
    old_at = new_at = 0  # where the pending change starts on each side
    for index, (op, text) in enumerate(segments):
        if op == EQUAL:
            if removed or added:
                found.append(Hunk(removed, added, before, _head(text), old_at, new_at))
            old_at += len(removed) + len(text)
            new_at += len(added) + len(text)
            removed = added = ""
            before = _tail(text)
        elif op == DELETE:
            removed += text
        else:
            added += text
        if index == len(segments) - 1 and (removed or added):
            found.append(Hunk(removed, added, before, "", old_at, new_at))
    return found


def _head(text: str) -> str:
    return "".join(tokenize(text)[:CONTEXT_WORDS])


def _tail(text: str) -> str:
    return "".join(tokenize(text)[-CONTEXT_WORDS:])


# -- internals -------------------------------------------------------------------------

# Part boundaries; no token's key can equal them (a NUL is a token of its own), and the
# two sides' differ, so a boundary is never "kept".
_SEPARATOR: Final = "\x00part"
_SEPARATOR_NEW: Final = "\x00part-new"
_SEPARATORS: Final = frozenset({_SEPARATOR, _SEPARATOR_NEW})


def _sequence(parts: Sequence[str], side: str) -> tuple[list[str], list[str]]:
    tokens: list[str] = []
    keys: list[str] = []
    for number, part in enumerate(parts):
        if number:
            tokens.append("")
            keys.append(_SEPARATOR if side == "old" else _SEPARATOR_NEW)
        found = tokenize(part)
        tokens.extend(found)
        keys.extend(token.rstrip() for token in found)
    return tokens, keys


def _opcodes(
    a: list[str], b: list[str], *, limit: int
) -> tuple[list[tuple[str, int, int, int, int]], bool]:
    """SequenceMatcher's opcodes, with the common start and end set aside first."""
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        start += 1
    end = 0
    while end < len(a) - start and end < len(b) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    a_mid, b_mid = a[start : len(a) - end], b[start : len(b) - end]
    coarse = len(a_mid) * len(b_mid) > limit
    if coarse or not a_mid or not b_mid:
        tag = "replace" if a_mid and b_mid else "delete" if a_mid else "insert"
        middle: Sequence[tuple[str, int, int, int, int]] = (
            [(tag, 0, len(a_mid), 0, len(b_mid))] if a_mid or b_mid else []
        )
    else:
        matcher = SequenceMatcher(None, a_mid, b_mid, autojunk=False)
        middle = matcher.get_opcodes()
    ops = [("equal", 0, start, 0, start)] if start else []
    ops += [(t, i1 + start, i2 + start, j1 + start, j2 + start) for t, i1, i2, j1, j2 in middle]
    if end:
        ops.append(("equal", len(a) - end, len(a), len(b) - end, len(b)))
    return ops, coarse


_Group: TypeAlias = tuple[str, str, str]
"""``("=", new text, old text)`` or ``("~", removed, added)``: a kept run or one change."""
_CHANGE: Final = "~"


def _add_change(groups: list[_Group], op: str, text: str) -> None:
    if not text:
        return
    if not groups or groups[-1][0] != _CHANGE:
        groups.append((_CHANGE, "", ""))
    _, removed, added = groups[-1]
    groups[-1] = (
        (_CHANGE, removed + text, added) if op == DELETE else (_CHANGE, removed, added + text)
    )


def _absorb_short_equalities(groups: list[_Group]) -> list[_Group]:
    """Let a kept run of at most one word join the changes on both sides of it.

    diff-match-patch's semantic rule: an equality no longer than the larger edit on
    each side of it is noise (``the``, ``said``, a comma). Limited to one word so that a
    kept phrase ("the claims in") always stays visible. The old side takes the kept
    run's old text, the new side its new text, so both stay exact.
    """
    result: list[_Group] = []
    index = 0
    while index < len(groups):
        group = groups[index]
        after = groups[index + 1] if index + 1 < len(groups) else None
        before = result[-1] if result else None
        if (
            group[0] == EQUAL
            and before is not None
            and before[0] == _CHANGE
            and after is not None
            and count_words(group[1]) <= 1
            and _absorbable(len(group[1].strip()), before, after)
        ):
            _, new_text, old_text = group
            result[-1] = (_CHANGE, before[1] + old_text + after[1], before[2] + new_text + after[2])
            index += 2
            continue
        result.append(group)
        index += 1
    return result


def _segments(groups: list[_Group]) -> tuple[Segment, ...]:
    out: list[Segment] = []
    for kind, first, second in groups:
        if kind == EQUAL:
            if out and out[-1][0] == EQUAL:
                out[-1] = (EQUAL, out[-1][1] + first)
            elif first:
                out.append((EQUAL, first))
        else:
            out.extend(s for s in ((DELETE, first), (INSERT, second)) if s[1])
    return tuple(out)


def _absorbable(size: int, before: tuple[str, str, str], after: tuple[str, str, str]) -> bool:
    return size <= max(len(before[1]), len(before[2])) and size <= max(len(after[1]), len(after[2]))


def realign(approx: str, actual: str) -> list[int]:
    """For each position of ``approx`` (and its end), the same place in ``actual``, the
    two differing only in white space."""
    if approx == actual:
        return list(range(len(approx) + 1))
    mapping = []
    j = 0
    for char in approx:
        while j < len(actual) and actual[j] != char and actual[j].isspace():
            j += 1
        mapping.append(j)
        if j < len(actual) and actual[j] == char:
            j += 1
    mapping.append(j)
    return mapping
