"""Encoding repairs: broken characters in the old revision that the new revision fixed.

Two kinds of damage come from decoding a page with the wrong charset and are fixed when
a later fetch decodes it right:

* **mojibake**, UTF-8 bytes read as Windows-1252 or Latin-1 (``ZÃ¼rich`` for
  ``Zürich``, ``donâ€™t`` for ``don't`` with a typographic apostrophe): runs of such
  characters are turned back into bytes and decoded as UTF-8;
* **replacement characters** (U+FFFD) where bytes were invalid: a word with them is
  matched against the new text's words, the U+FFFD standing for any non-ASCII letters.

A repair is claimed only where the repaired text really is in the new revision's
matching block, so a block the publisher left broken stays as it is, and text that was
clean before (a page that moved from one clean charset to another) is never "repaired".
The classifier then diffs the *repaired* old revision against the new one, so an edit
shipped in the same revision as a repair is still seen, and classified, as an edit.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Final

from quietedit.analysis.align import KEPT
from quietedit.analysis.diff import RevisionDiff
from quietedit.article.fingerprint import fold_text
from quietedit.model import Article, Block

# Characters of Windows-1252's upper half (and Latin-1's C1 controls): what UTF-8 bytes
# look like when read with the wrong charset.
_SUSPECT_RUN: Final = re.compile(
    "[\u0080-\u00ff\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc"
    "\u2013\u2014\u2018-\u201a\u201c-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122]{2,}"
)
_UTF8_SEQUENCE: Final = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}"
)
_REPLACEMENT: Final = "\ufffd"
_BROKEN_WORD: Final = re.compile(r"[\w\ufffd]*\ufffd[\w\ufffd]*")
_TARGET_WORD: Final = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class Repair:
    """Broken text in the old revision (``where``: ``title`` or ``block N``) and its fix."""

    where: str
    broken: str
    fixed: str


def repair_article(
    old: Article, new: Article, diff: RevisionDiff
) -> tuple[Article, tuple[Repair, ...]]:
    """``old`` with the encoding damage repaired that ``new`` shows repaired, and the repairs.

    Only blocks the diff pairs with a changed new block are looked at (kept blocks are
    equal already); the title likewise.
    """
    repairs: list[Repair] = []
    title = old.title
    if diff.title.op != KEPT:
        title, found = repair_text(old.title, new.title)
        repairs += [Repair("title", broken, fixed) for broken, fixed in found]
    texts = [block.text for block in old.blocks]
    for entry in diff.blocks:
        if not entry.words or not entry.old:
            continue
        target = " ".join(new.blocks[j].text for j in entry.new)
        for i in entry.old:
            texts[i], found = repair_text(texts[i], target)
            repairs += [Repair(f"block {i + 1}", broken, fixed) for broken, fixed in found]
    if not repairs:
        return old, ()
    blocks = tuple(
        block if block.text == text else Block(text, block.kind)
        for block, text in zip(old.blocks, texts, strict=True)
    )
    return replace(old, title=title, blocks=blocks), tuple(repairs)


def repair_text(text: str, target: str) -> tuple[str, list[tuple[str, str]]]:
    """``text`` with mojibake and U+FFFD words fixed where the fix occurs in ``target``."""
    found: list[tuple[str, str]] = []
    folded_target = fold_text(target)

    def fix_run(match: re.Match[str]) -> str:
        run = match.group(0)
        fixed = _unmangle(run)
        if fixed is None or fixed == run:
            return run
        repaired = [c for c in fixed if ord(c) > 0x7F and c not in run]
        if not repaired or not all(fold_text(c) in folded_target for c in repaired):
            return run
        found.append((run, fixed))
        return fixed

    text = _SUSPECT_RUN.sub(fix_run, text)
    if _REPLACEMENT in text:
        text = _fill_replacements(text, target, found)
    return text, found


def summarise(repairs: tuple[Repair, ...]) -> list[str]:
    """One evidence line per distinct repair, with a count when it recurs."""
    counts = Counter((r.where, r.broken, r.fixed) for r in repairs)
    lines = []
    for (where, broken, fixed), count in counts.items():
        times = f" ({count} times)" if count > 1 else ""
        lines.append(f"{where}: “{broken}” → “{fixed}”{times}")
    return lines


def _unmangle(run: str) -> str | None:
    """Read ``run`` back as the bytes it was decoded from and decode the UTF-8 in them."""
    data = bytearray()
    for char in run:
        try:
            data += char.encode("cp1252")
        except UnicodeEncodeError:
            if ord(char) > 0xFF:
                return None
            data.append(ord(char))  # a C1 control: Latin-1 read it, Windows-1252 has no char
    pieces = []
    position = 0
    for match in _UTF8_SEQUENCE.finditer(bytes(data)):
        pieces.append(run[position : match.start()])  # one character per byte
        try:
            pieces.append(match.group(0).decode("utf-8"))
        except UnicodeDecodeError:
            pieces.append(run[match.start() : match.end()])
        position = match.end()
    pieces.append(run[position:])
    return "".join(pieces)


def _fill_replacements(text: str, target: str, found: list[tuple[str, str]]) -> str:
    candidates: list[str] = sorted(set(_TARGET_WORD.findall(target)))

    def fill(match: re.Match[str]) -> str:
        word = match.group(0)
        pattern = _wildcard(word)
        matches = [c for c in candidates if pattern.fullmatch(c)]
        if len(matches) != 1:
            return word  # none, or ambiguous: leave it broken
        found.append((word, matches[0]))
        return matches[0]

    return _BROKEN_WORD.sub(fill, text)


def _wildcard(word: str) -> re.Pattern[str]:
    """A pattern for ``word`` in which each run of U+FFFD stands for as many non-ASCII chars."""
    pieces = []
    for piece in re.findall(f"{_REPLACEMENT}+|[^{_REPLACEMENT}]+", word):
        if piece[0] == _REPLACEMENT:
            pieces.append(f"[^\\x00-\\x7f]{{1,{len(piece)}}}")
        else:
            pieces.append(re.escape(piece))
    return re.compile("".join(pieces))
