"""The headlines a homepage showed for each article, with first and last seen (pure).

A ``kind: homepage`` source keeps, in its feed record, the history of every article link
on the page now or within the last :data:`HOMEPAGE_MEMORY`: each distinct headline shown
for it, in order of first appearance, with the first and last poll that showed it. A/B
tests (two headlines taking turns), retitles and a story leaving and coming back are all
visible, and the history grows only when something changes:

- a headline is stored once per link, however often it comes back; only its ``last_seen``
  moves;
- the headline a link shows *now* keeps no ``last_seen`` of its own, nor does the link:
  both are the record's ``polled_at``, the last successful poll, which the feed record
  writes anyway. A poll that changes nothing changes no link, so the record's history is
  rewritten only where the page changed;
- a link that left the page more than :data:`HOMEPAGE_MEMORY` ago is *closed*: taken out of
  the record and handed to the caller, which keeps it as a ``homepage-headlines`` event
  of the article's document (create-only, once). So the record stays the size of a few
  days of the page (about 190 KB for a 300-link front taking four new stories an hour,
  ``bench/homepage.py``), however long it is polled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Final

from quietedit.feeds.homepage import HomepageLink
from quietedit.model import JSON, format_timestamp, parse_timestamp

HOMEPAGE_MEMORY: Final = timedelta(days=3)
"""How long a link that left the page keeps its history in the record: a story promoted
again the next day (or after a weekend) continues its history rather than starting anew."""
MAX_HEADLINES: Final = 20
"""Distinct headlines kept per link (A/B tests run two to four); past it the one seen
longest ago gives way."""
EVENT_KIND: Final = "homepage-headlines"


@dataclass(frozen=True, slots=True)
class Headline:
    """A headline shown for a link: first and last seen (``None``: shown now, so last seen
    at the history's ``polled_at``)."""

    text: str
    first_seen: datetime
    last_seen: datetime | None = None


@dataclass(frozen=True, slots=True)
class LinkHistory:
    """The headlines of one link, and the one on the page now (``shown``, an index) or,
    for a link no longer on the page, the last poll that showed it (``left``)."""

    headlines: tuple[Headline, ...]
    shown: int | None
    left: datetime | None = None


@dataclass(frozen=True, slots=True)
class HeadlineHistory:
    """A homepage's links and their headlines as of the poll at ``polled_at``."""

    polled_at: datetime | None = None
    links: Mapping[str, LinkHistory] | None = None

    def link_items(self) -> list[tuple[str, LinkHistory]]:
        return sorted((self.links or {}).items())


@dataclass(frozen=True, slots=True)
class ClosedLink:
    """A link gone from the page longer than :data:`HOMEPAGE_MEMORY`: its whole history."""

    url: str
    headlines: tuple[Headline, ...]

    def detail(self, source: str) -> dict[str, JSON]:
        """The ``detail`` of its ``homepage-headlines`` event."""
        return {
            "source": source,
            "headlines": [
                {
                    "text": h.text,
                    "first_seen": format_timestamp(h.first_seen),
                    "last_seen": format_timestamp(h.last_seen or h.first_seen),
                }
                for h in self.headlines
            ],
        }


def headline_history(
    history: HeadlineHistory | None, links: Sequence[HomepageLink], *, now: datetime
) -> tuple[HeadlineHistory, tuple[ClosedLink, ...]]:
    """The history after a successful poll at ``now`` that found ``links``, and the links
    it closes (see the module docstring)."""
    before = history.polled_at if history is not None else None
    known = dict(history.links or {}) if history is not None else {}
    seen_last = before or now  # when the links shown at the previous poll were last seen
    found: dict[str, LinkHistory] = {}
    for link in links:
        if link.url in found:
            continue
        found[link.url] = _shown(known.get(link.url), link.headline, now=now, before=seen_last)
    closed = []
    for url, entry in known.items():
        if url in found:
            continue
        if entry.shown is not None:  # it left the page since the previous poll
            entry = LinkHistory(
                _with_last_seen(entry.headlines, entry.shown, seen_last), None, seen_last
            )
        if now - (entry.left or seen_last) > HOMEPAGE_MEMORY:
            closed.append(ClosedLink(url, entry.headlines))
        else:
            found[url] = entry
    return HeadlineHistory(now, found), tuple(sorted(closed, key=lambda c: c.url))


def _shown(entry: LinkHistory | None, text: str, *, now: datetime, before: datetime) -> LinkHistory:
    """``entry`` once the page shows ``text`` for its link at ``now``."""
    if entry is None:
        return LinkHistory((Headline(text, now),), 0)
    headlines = entry.headlines
    if entry.shown is not None and headlines[entry.shown].text == text:
        return entry
    if entry.shown is not None:  # another headline was shown at the previous poll
        headlines = _with_last_seen(headlines, entry.shown, before)
    texts = [h.text for h in headlines]
    if text in texts:
        index = texts.index(text)
        headlines = (*headlines[:index], replace(headlines[index], last_seen=None),
                     *headlines[index + 1 :])  # fmt: skip
        return LinkHistory(headlines, index)
    if len(headlines) >= MAX_HEADLINES:
        oldest = min(range(len(headlines)), key=lambda i: headlines[i].last_seen or now)
        headlines = headlines[:oldest] + headlines[oldest + 1 :]
    return LinkHistory((*headlines, Headline(text, now)), len(headlines))


def _with_last_seen(
    headlines: tuple[Headline, ...], index: int, moment: datetime
) -> tuple[Headline, ...]:
    changed = replace(headlines[index], last_seen=moment)
    return (*headlines[:index], changed, *headlines[index + 1 :])


def history_to_record(history: HeadlineHistory) -> dict[str, JSON]:
    """The ``homepage`` object of a feed record (links sorted, compact lists)."""
    return {
        "polled_at": None if history.polled_at is None else format_timestamp(history.polled_at),
        "links": {
            url: {
                "headlines": [
                    [
                        h.text,
                        format_timestamp(h.first_seen),
                        None if h.last_seen is None else format_timestamp(h.last_seen),
                    ]
                    for h in entry.headlines
                ],
                "shown": entry.shown,
                "left": None if entry.left is None else format_timestamp(entry.left),
            }
            for url, entry in history.link_items()
        },
    }


def history_from_record(value: JSON | None) -> HeadlineHistory | None:
    """Read :func:`history_to_record`'s output back; a malformed link is left out (it
    starts its history again), never an error."""
    if not isinstance(value, dict):
        return None
    links: dict[str, LinkHistory] = {}
    stored = value.get("links")
    for url, entry in stored.items() if isinstance(stored, dict) else ():
        found = _link_from_record(entry)
        if found is not None:
            links[url] = found
    return HeadlineHistory(_time(value.get("polled_at")), links)


def _link_from_record(entry: JSON) -> LinkHistory | None:
    if not isinstance(entry, dict):
        return None
    raw = entry.get("headlines")
    if not isinstance(raw, list):
        return None
    headlines = []
    for item in raw[:MAX_HEADLINES]:
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], str)):
            return None
        first = _time(item[1])
        if first is None:
            return None
        headlines.append(Headline(item[0], first, _time(item[2])))
    shown = entry.get("shown")
    left = _time(entry.get("left"))
    if shown is None:
        if left is None:
            return None
    elif not (
        isinstance(shown, int) and not isinstance(shown, bool) and 0 <= shown < len(headlines)
    ):
        return None
    return LinkHistory(tuple(headlines), shown, None if shown is not None else left)


def history_rows(
    history: HeadlineHistory,
) -> list[tuple[str, bool, list[tuple[str, datetime, datetime]]]]:
    """Each link (sorted), whether it is on the page, and its headlines as (text, first
    seen, last seen): a shown headline was last seen at the last poll."""
    rows = []
    for url, entry in history.link_items():
        headlines = [
            (
                h.text,
                h.first_seen,
                h.last_seen or (history.polled_at if i == entry.shown else None) or h.first_seen,
            )
            for i, h in enumerate(entry.headlines)
        ]
        rows.append((url, entry.shown is not None, headlines))
    return rows


def _time(value: JSON | None) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return parse_timestamp(value)
    except ValueError:
        return None
