"""Watched terms: which edits added or removed a term a reader watches (pure: no I/O).

A term is matched as a whole word (or whole words, for a phrase), case-insensitively,
on the NFC form of both the term and the text, with Unicode's notion of a word character
(``re``'s ``\\w`` on ``str``): "Merz" is found in "Merz sagte" and in "Merz-Regierung" (a
hyphen ends a word), not in "Merzig" or "Kommerz". German closed compounds and plurals
are therefore not matched by their stem; a term that ends in ``*`` matches any word
that begins with it ("Klima*": "Klima", "Klimawandel", "Klimas"). Case is folded by
``re.IGNORECASE`` (simple case folding: "ä" matches "Ä"; "ß" does not match "SS").

An edit *changed* a term when the term occurs a different number of times in the new
revision's headline and body than in the old one: more is "added", fewer "removed".
A term merely present in both, as often as before, is not a change of it.

Each term has a *slug* for its feed's file name (:func:`term_slug`): lower-case ASCII
letters, digits and hyphens only (no path can be made of it), case folded ("ß" is "ss")
and the accents of Latin letters dropped; a term with other letters (Cyrillic, CJK) gets
a short stable hash of its folded form appended, so that it has an address of its own.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

MAX_TERM_LENGTH: Final = 100
"""Characters of a watched term at most: a name or a phrase, not a paragraph."""
MAX_SLUG_LENGTH: Final = 48
"""Characters of a term's slug before its hash, if any (a file name, kept short)."""
SNIPPET_WORDS: Final = 6
"""Words kept on each side of the term in an entry's excerpt."""
PREFIX_MARK: Final = "*"


@dataclass(frozen=True, slots=True)
class TermChange:
    """A watched term an edit added or removed, and where: the words around one occurrence
    (in the new text when added, the old when removed), the occurrence itself apart."""

    term: str
    slug: str
    change: str  # "added" or "removed"
    before: str
    match: str
    after: str


def normal(text: str) -> str:
    """``text`` in NFC with its runs of blanks made one space, stripped."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def term_problem(term: str) -> str | None:
    """What is wrong with ``term`` as a watched term (already :func:`normal`), or ``None``."""
    if not term or term == PREFIX_MARK:
        return "is empty; write a word or a phrase"
    if len(term) > MAX_TERM_LENGTH:
        return f"is longer than {MAX_TERM_LENGTH} characters; watch a word or a short phrase"
    if any(unicodedata.category(c) in {"Cc", "Cf"} for c in term):
        return "contains a control or formatting character; write plain text"
    if PREFIX_MARK in term.removesuffix(PREFIX_MARK):
        return f"has {PREFIX_MARK!r} inside it; it may only end a term (a prefix: 'Klima*')"
    if not any(c.isalnum() for c in term):
        return "has no letter or digit; write a word"
    return None


def term_slug(term: str) -> str:
    """The term's slug: ASCII ``[a-z0-9-]``, stable, never empty (see the module's text)."""
    folded = normal(term).casefold()
    decomposed = unicodedata.normalize("NFKD", folded)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    ascii_part = re.sub(r"[^a-z0-9]+", "-", plain.replace(PREFIX_MARK, "-prefix")).strip("-")
    ascii_part = ascii_part[:MAX_SLUG_LENGTH].strip("-")
    if plain.replace(PREFIX_MARK, "").isascii() and ascii_part:
        return ascii_part
    digest = hashlib.blake2b(folded.encode(), digest_size=4).hexdigest()
    return f"{ascii_part or 'term'}-{digest}"


@lru_cache(maxsize=256)
def term_pattern(term: str) -> re.Pattern[str]:
    """The pattern that finds ``term`` (see the module's text for what matches)."""
    text = normal(term)
    prefix = text.endswith(PREFIX_MARK)
    words = text.removesuffix(PREFIX_MARK).split()
    body = r"\s+".join(re.escape(w) for w in words)
    tail = r"\w*" if prefix else ""
    return re.compile(rf"(?<!\w){body}{tail}(?!\w)", re.IGNORECASE)


def term_changes(
    terms: Sequence[str], old: Sequence[str], new: Sequence[str]
) -> tuple[TermChange, ...]:
    """The ``terms`` whose count differs between the ``old`` and ``new`` texts (headline
    and blocks of each revision), each with the words around an occurrence that is new
    (added) or gone (removed): in a block the other side does not have, if there is one."""
    old_texts = [normal(t) for t in old]
    new_texts = [normal(t) for t in new]
    changes = []
    for term in terms:
        pattern = term_pattern(term)
        before = sum(len(pattern.findall(t)) for t in old_texts)
        after = sum(len(pattern.findall(t)) for t in new_texts)
        if before == after:
            continue
        added = after > before
        side, other = (new_texts, set(old_texts)) if added else (old_texts, set(new_texts))
        found = _where(pattern, [t for t in side if t not in other]) or _where(pattern, side)
        if found is None:  # unreachable: the counts differ, so the side has a match
            continue
        head, match, tail = found
        changes.append(
            TermChange(term, term_slug(term), "added" if added else "removed", head, match, tail)
        )
    return tuple(changes)


def _where(pattern: re.Pattern[str], texts: list[str]) -> tuple[str, str, str] | None:
    for text in texts:
        found = pattern.search(text)
        if found:
            before, after = text[: found.start()], text[found.end() :]
            head, tail = before.split(), after.split()
            lead = ("… " if len(head) > SNIPPET_WORDS else "") + " ".join(head[-SNIPPET_WORDS:])
            rest = " ".join(tail[:SNIPPET_WORDS]) + (" …" if len(tail) > SNIPPET_WORDS else "")
            # a word the term is joined to ("Merz-Regierung") stays joined
            lead += " " if before[-1:].isspace() else ""
            rest = (" " if after[:1].isspace() else "") + rest
            return lead, found.group(), rest
    return None
