"""What the publisher writes about the article inside it: correction notes, update notes
and credit lines (pure).

A *correction* admits an error ("Correction: …", "An earlier version of this article
misstated …", "Korrektur: …", "Rectificatif : …"). An *update note* says the story was
updated and admits none ("This story has been updated with additional reporting",
"Aktualisiert am 13. November: …", "Mis à jour le 4 juin : …"); the 2024 IEEE S&P study
of news edits separates the two, and so does the vocabulary (``correction`` and
``update-note``). A *credit line* names who contributed ("Ana Ruiz and Tom Weber
contributed to this report", "Reporting by …; Editing by …", "Mitarbeit: …"): the byline's
business, never facts or added text.

Phrases are matched after folding and case-folding (typographic apostrophes become ``'``).
Update words that prose also uses ("aktualisiert", "mis à jour", "updated") count only
where a note opens with them; the phrases of a correction are specific enough to count
anywhere. English and German (and the French that came with them) are listed here; French,
Spanish, Italian, Portuguese, Dutch, Polish, Swedish, Japanese, Chinese and Korean come
from the tables of :mod:`quietedit.article.wording` ("Sprostowanie: …", "Fe de errores:
…", "【訂正】…", "Mise à jour du 4 juin : …"). A phrase missing only makes a rule see less.
"""

from __future__ import annotations

import re
from typing import Final

from quietedit.article import languages
from quietedit.article.fingerprint import fold_text

CORRECTION: Final = "correction"
UPDATE: Final = "update"

CORRECTION_PHRASES: Final = (
    "correction:",
    "corrections:",
    "clarification:",
    "an earlier version of this",
    "a previous version of this",
    "an earlier version of the",
    "this article has been corrected",
    "this article was corrected",
    "this story has been corrected",
    "this story was corrected",
    "this article has been amended",
    "this article was amended",
    "we have corrected",
    "an earlier version misstated",
    "a previous version misstated",
    "an earlier version incorrectly",
    "a previous version incorrectly",
    "this article misstated",
    "this story misstated",
    "updated to correct",
    "amended to correct",
    "changed to correct",
    "to correct an error",
    "to correct a mistake",
    "to reflect a correction",
    "has been corrected to",
    "was corrected to",
    "korrektur:",
    "korrekturhinweis",
    "korrigendum",
    "berichtigung:",
    "richtigstellung",
    "in einer früheren version",
    "in einer vorherigen version",
    "correctif",
    "rectificatif",
    "erratum",
    "une version précédente",
    "une précédente version",
)
"""Phrases that admit an error, wherever they stand in a note."""

UPDATE_PHRASES: Final = (
    "this article has been updated",
    "this article was updated",
    "this story has been updated",
    "this story was updated",
    "this post has been updated",
    "this report has been updated",
    "this page has been updated",
    "dieser artikel wurde aktualisiert",
    "dieser artikel wurde ergänzt",
    "dieser beitrag wurde aktualisiert",
    "dieser text wurde aktualisiert",
    "der artikel wurde aktualisiert",
    "der beitrag wurde aktualisiert",
    "der text wurde aktualisiert",
    "der artikel wurde ergänzt",
    "cet article a été mis à jour",
    "cet article a été actualisé",
)
"""Sentences that say the story was updated, wherever they stand in a note."""

_UPDATE_SENTENCE: Final = re.compile(
    r"\b(?:dieser|der)\s+(?:artikel|beitrag|text)\s+wurde\s+um\s[^.;]{1,80}?"
    r"\s(?:ergänzt|erweitert)\b"
)
"""German says what was added in the middle: "Der Artikel wurde um eine Stellungnahme
ergänzt"."""

_UPDATE_OPENING: Final = re.compile(
    r"^(?:update[sd]?|aktualisiert|aktualisierung|ergänzt|mis à jour|mise à jour|actualisé)"
    r"(?=\s*(?:[:(\d-]|at\b|on\b|with\b|am\b|um\b|mit\b|le\b|à\b))"
)
"""How an update note opens ("Update:", "Updated at 14:30 with …", "Aktualisiert am …",
"Mis à jour le …"); prose uses these words too, so only at a note's start and followed by
a time, a date or what was added."""

NOTE_OPENINGS: Final = (
    "editor's note",
    "editors' note",
    "editor's update",
    "note from the editors",
    "anmerkung der redaktion",
    "anm. d. red",
    "hinweis der redaktion",
    "transparenzhinweis",
    "note de la rédaction",
    "note:",
)
"""How an editor's note opens: a correction unless what follows is an update."""

CREDIT_MAX: Final = 300
"""Longest text read as a credit line; a longer one is prose that mentions reporting."""

_LEADING: Final = " *-([•·>"  # after folding, every dash is "-" and every space " "
_CREDIT: Final = re.compile(
    r"\b(?:contributed|contributing)\s+(?:reporting\s+)?(?:to\s+)?(?:this\s+)?"
    r"(?:report|reporting|story|article|coverage)(?:\s+from\s+[^.;]{1,40})?[\s.]*$"
    r"|^(?:additional\s+|with\s+)?reporting\s+(?:by|from)\s"
    r"|^(?:writing|written|editing|edited|compiled|produced|graphics)\s+by\s"
    r"|;\s*(?:writing|editing)\s+by\s"
    r"|^(?:mitarbeit|unter\s+mitarbeit\s+von|mit\s+material\s+von)\b"
    r"|^avec\s+(?:l'|l')?(?:afp|reuters|ap|ansa|dpa)\b",
    re.IGNORECASE,
)


def note_kind(text: str) -> str | None:
    """``"correction"``, ``"update"`` or None: what kind of note ``text`` is, if any."""
    folded = fold_text(text).casefold().lstrip(_LEADING)
    if (
        any(phrase in folded for phrase in CORRECTION_PHRASES)
        or languages.CORRECTION_ANYWHERE.search(folded)
        or languages.CORRECTION_OPENING.match(folded)
    ):
        return CORRECTION
    if (
        any(phrase in folded for phrase in UPDATE_PHRASES)
        or languages.UPDATE_ANYWHERE.search(folded)
        or _UPDATE_SENTENCE.search(folded)
    ):
        return UPDATE
    opener = next((o for o in NOTE_OPENINGS if folded.startswith(o)), None)
    if opener is None and (label := languages.NOTE_LABEL_OPENING.match(folded)) is not None:
        opener = label.group()
    rest = folded[len(opener) :].lstrip(" :\uff1a.-") if opener else folded
    if (
        _UPDATE_OPENING.match(rest)
        or _updated_to(rest, noted=opener is not None)
        or languages.UPDATE_OPENING.match(rest)
    ):
        return UPDATE
    return CORRECTION if opener else None


_UPDATED_START: Final = re.compile(
    r"^(?:updated\s+(?:to\s+include|with)\b"
    r"|(?:this|the)\s+(?:story|article|post|report|page|piece|text)\s+"
    r"(?:has\s+been|had\s+been|was|is\s+being)\s+updated\b)"
)


def _updated_to(text: str, *, noted: bool) -> bool:
    """ "This article has been updated to include …" said shorter: "updated to include",
    anywhere near the start of an editor's note (``noted``); elsewhere only where the text
    opens with it, since prose says "the timetable will be updated with …" too."""
    if noted:
        head = text[:80]
        return "updated to include" in head or "updated with" in head
    return _UPDATED_START.match(text) is not None


def note_opening(text: str) -> str:
    """The words of a note that say what it is ("Correction:", "has been updated"), as
    they stand in ``text``, or "" when none do."""
    text = fold_text(text)
    lowered = text.lower()  # unlike casefold, keeps every position where it was
    found = [(lowered.find(p), p) for p in CORRECTION_PHRASES + UPDATE_PHRASES if p in lowered]
    found += [(lowered.find(p), p) for p in NOTE_OPENINGS if p in lowered]
    opening = _UPDATE_OPENING.match(lowered.lstrip(_LEADING))
    if opening:
        found.append((len(lowered) - len(lowered.lstrip(_LEADING)), opening.group()))
    for pattern in (languages.CORRECTION_ANYWHERE, languages.UPDATE_ANYWHERE):
        if (match := pattern.search(text)) is not None:
            found.append((match.start(), match.group()))
    for pattern in (
        languages.CORRECTION_OPENING, languages.NOTE_LABEL_OPENING, languages.UPDATE_OPENING,
    ):  # fmt: skip
        if (match := pattern.match(text)) is not None:
            words = match.group().lstrip(languages.SKIPPED)
            found.append((match.end() - len(words), words))
    if not found:
        return ""
    start, phrase = min(found)
    return text[start : start + len(phrase)].strip()


def is_credit_line(text: str) -> bool:
    """Whether ``text`` is a credit line ("Kevin Liu and Sara Okafor contributed to this
    report", "Reporting by Ana Ruiz; Editing by Tom Weber", "Mitarbeit: Lena Vogt")."""
    folded = fold_text(text).lstrip(_LEADING)
    return 0 < len(folded) <= CREDIT_MAX and _CREDIT.search(folded) is not None


_AUTHOR: Final = r"[A-ZÀ-ÖØ-Þ][\w'\u2019.-]+"
_AUTHORS: Final = rf"{_AUTHOR}(?:\s+{_AUTHOR}){{0,3}}"
_HEADLINE_CREDIT: Final = re.compile(
    r"(?:Kolumne|Kommentar|Gastbeitrag|Essay|Analyse|Podcast|Column|Opinion|Chronique)"
    rf"[\s,]*(?:von|by|par|de)\s+{_AUTHORS}(?:\s+(?:und|and|et)\s+{_AUTHORS})?\s*$"
)
"""The author named at the end of a headline, after what the piece is."""


def headline_credit(before: str, words: str) -> bool:
    """``words``, following ``before`` at the end of a headline, name its author: "… -
    Kolumne {+von Nikolaus Blome+}", "… | Column by Ana Ruiz"."""
    return bool(words.strip()) and _HEADLINE_CREDIT.search(fold_text(before + words)) is not None
