"""The publisher's own signals of an edit, and the "silent" verdict.

The *notice* tells how it showed them (:func:`notice_of`): a technical one, where only a
date moved, or a proper one, a note a reader can read.

An edit is *silent* when the publisher showed none of the signals a reader or a machine
could notice: a new ``dateModified``, a visible "Updated …" line that appeared or
changed, a correction or editor's note added (in the page's notes or in the text), a
changed ``<lastmod>`` in the sitemap, or a changed ``updated`` in the feed. The last two
come from the feed stage (:class:`ExternalSignals`); when they were not checked, the
signal says so (``seen`` is ``None``) and does not count either way.

Known blind spot: a CMS that stamps ``dateModified`` with the time of every render
makes every edit look admitted; the evidence string shows the two values so a reader can
judge.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from quietedit.analysis.notes import note_kind
from quietedit.article.fingerprint import fold_text
from quietedit.model import JSON, Article

DATE_MODIFIED: Final = "date-modified"
UPDATED_LINE: Final = "updated-line"
NOTE: Final = "note"
SITEMAP_LASTMOD: Final = "sitemap-lastmod"
FEED_UPDATED: Final = "feed-updated"
SIGNAL_NAMES: Final = (DATE_MODIFIED, UPDATED_LINE, NOTE, SITEMAP_LASTMOD, FEED_UPDATED)

NO_NOTICE: Final = "none"
TECHNICAL: Final = "technical"
PROPER: Final = "proper"
NOTICES: Final = (NO_NOTICE, TECHNICAL, PROPER)
"""How the publisher told of an edit, after the 2024 IEEE S&P study of news edits: not at
all; a *technical* notice (only a date moved: ``dateModified``, an "Updated …" line, the
sitemap's ``<lastmod>``, the feed's ``updated``); or a *proper* notice (a correction,
update or editor's note a reader can read)."""

_NOTE_EXCERPT: Final = 120

NOTHING_SEEN: Final = {
    DATE_MODIFIED: "no dateModified in either revision",
    UPDATED_LINE: "no “Updated” line",
    NOTE: "no correction, update or editor's note added",
}
"""A signal's evidence when there was nothing of it in either revision: it says no more
than its name and ``seen`` False, so a page can say it in a short list."""

UNCHECKED: Final = {
    SITEMAP_LASTMOD: "the sitemap's <lastmod>",
    FEED_UPDATED: "the feed entry's updated date",
}
"""What the feed stage's signals look at; one not checked says ``<what> was not checked``."""


@dataclass(frozen=True, slots=True)
class ExternalSignals:
    """What the feed stage saw about the edit, each ``None`` when it was not checked.

    ``sitemap_lastmod_changed``: the article's ``<lastmod>`` in the publisher's sitemap
    changed between the two fetches. ``feed_updated_changed``: the feed entry's
    ``updated``/``dateModified`` changed.
    """

    sitemap_lastmod_changed: bool | None = None
    feed_updated_changed: bool | None = None


@dataclass(frozen=True, slots=True)
class Signal:
    """One publisher signal: ``seen`` True (shown), False (checked, not shown) or None."""

    name: str
    seen: bool | None
    evidence: str

    def to_dict(self) -> dict[str, JSON]:
        return {"name": self.name, "seen": self.seen, "evidence": self.evidence}


def publisher_signals(
    old: Article,
    new: Article,
    *,
    added_text: Iterable[str] = (),
    external: ExternalSignals | None = None,
) -> tuple[Signal, ...]:
    """Every signal, in ``SIGNAL_NAMES`` order, with what was seen as evidence.

    ``added_text`` is the text the edit added to the body (added blocks and inserted
    words), searched for correction and update notes.
    """
    facts = external or ExternalSignals()
    return (
        _date_modified(old.publisher.date_modified, new.publisher.date_modified),
        _updated_line(old.publisher.updated_line, new.publisher.updated_line),
        _note(old.publisher.notes, new.publisher.notes, list(added_text)),
        _external(SITEMAP_LASTMOD, facts.sitemap_lastmod_changed),
        _external(FEED_UPDATED, facts.feed_updated_changed),
    )


def is_silent(signals: Iterable[Signal], *, edited: bool) -> bool:
    """An edit with no signal seen is silent; no edit is never silent."""
    return edited and not any(signal.seen for signal in signals)


def notice_of(signals: Iterable[Signal]) -> str:
    """``proper`` when a note was added, ``technical`` when only a date moved, else
    ``none`` (:data:`NOTICES`)."""
    seen = {signal.name for signal in signals if signal.seen}
    if NOTE in seen:
        return PROPER
    return TECHNICAL if seen else NO_NOTICE


def new_notes(old: Iterable[str], new: Iterable[str]) -> list[str]:
    """Publisher notes in ``new`` that ``old`` did not have (compared folded)."""
    seen = {fold_text(note).casefold() for note in old}
    return [note for note in new if fold_text(note) and fold_text(note).casefold() not in seen]


def excerpt(text: str, size: int = _NOTE_EXCERPT) -> str:
    """``text`` on one line, cut to ``size`` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= size else flat[: size - 1].rstrip() + "…"


# -- the signals ------------------------------------------------------------------------


def _date_modified(old: str | None, new: str | None) -> Signal:
    if not new:
        detail = f"dateModified removed (was {old})" if old else NOTHING_SEEN[DATE_MODIFIED]
        return Signal(DATE_MODIFIED, False, detail)
    if not old:
        return Signal(DATE_MODIFIED, True, f"dateModified appeared: {new}")
    if _instant(old) == _instant(new):
        return Signal(DATE_MODIFIED, False, f"dateModified unchanged: {new}")
    return Signal(DATE_MODIFIED, True, f"dateModified changed: {old} → {new}")


def _instant(text: str) -> datetime | str:
    """The moment a date stands for, so that ``Z`` and ``+00:00`` compare equal."""
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        return fold_text(text)
    return moment.astimezone(UTC) if moment.tzinfo is not None else moment


def _updated_line(old: str | None, new: str | None) -> Signal:
    if not new:
        detail = f"“Updated” line removed (was “{old}”)" if old else NOTHING_SEEN[UPDATED_LINE]
        return Signal(UPDATED_LINE, False, detail)
    if not old:
        return Signal(UPDATED_LINE, True, f"“{excerpt(new)}” appeared")
    if fold_text(old) == fold_text(new):
        return Signal(UPDATED_LINE, False, f"“Updated” line unchanged: “{excerpt(new)}”")
    return Signal(UPDATED_LINE, True, f"“{excerpt(old)}” → “{excerpt(new)}”")


def _note(old: tuple[str, ...], new: tuple[str, ...], added_text: list[str]) -> Signal:
    notes = new_notes(old, new)
    if notes:
        return Signal(NOTE, True, f"note added: “{excerpt(notes[0])}”")
    in_text = [text for text in added_text if note_kind(text) is not None]
    if in_text:
        return Signal(NOTE, True, f"note added in the text: “{excerpt(fold_text(in_text[0]))}”")
    return Signal(NOTE, False, NOTHING_SEEN[NOTE])


def _external(name: str, changed: bool | None) -> Signal:
    what = UNCHECKED[name]
    if changed is None:
        return Signal(name, None, f"{what} was not checked")
    return Signal(name, changed, f"{what} {'changed' if changed else 'did not change'}")


def is_plain(name: str, seen: bool | None, evidence: str) -> bool:
    """Whether a signal's evidence says no more than its name and ``seen``: nothing of it
    in either revision (:data:`NOTHING_SEEN`), or not checked (:data:`UNCHECKED`)."""
    if seen is False:
        return NOTHING_SEEN.get(name) == evidence
    return seen is None and name in UNCHECKED and evidence == f"{UNCHECKED[name]} was not checked"
