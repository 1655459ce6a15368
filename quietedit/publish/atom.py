"""The recent-edits feeds: Atom 1.0 (RFC 4287) and its RSS 2.0 twin, from Jinja2 templates.

One entry per edit, whose id is the absolute URL of the edit's own address (stable: it
never changes; it redirects to the edit on its article's page, where the entry links) and
whose dates are the archive's (never the build time), so the same archive gives
byte-identical feeds. Feed readers ignore updated entries, which is
why every edit is an entry of its own.
"""

from __future__ import annotations

import heapq
import re
from dataclasses import dataclass, replace
from typing import Final
from urllib.parse import quote

from quietedit.publish.pages import Edit
from quietedit.publish.render import Renderer

FEED_ENTRIES: Final = 50
"""Entries per feed: a reader polling hourly never misses an edit at realistic rates."""

EPOCH: Final = "1970-01-01T00:00:00Z"
"""``<updated>`` of a feed with no entries yet (Atom requires one; the clock is not allowed)."""

_NOT_IN_IRI: Final = re.compile(
    '[\x00-\x20\x7f-\x9f<>"{}|\\\\^`\u200e\u200f\u202a-\u202e\ufdd0-\ufdef\ufffe\uffff]'
    "|%(?![0-9A-Fa-f]{2})"
)
"""What RFC 3987 keeps out of an IRI: spaces, controls, ``<>"{}|\\^```, bidi formatting
characters (§4.1), non-characters, and a ``%`` that starts no escape."""


def iri_reference(url: str) -> str:
    """``url`` with every character an IRI may not hold percent-encoded (RFC 3987 §3.1).

    An archive's URL is usually canonical already; one that is not (an older archive, a
    hand-edited record) would otherwise make ``href`` an invalid IRI and the feed invalid
    (RFC 4287 §4.2.7.1). Idempotent; characters an IRI allows, non-ASCII ones included,
    are kept as they are.
    """
    return _NOT_IN_IRI.sub(lambda m: quote(m.group(), safe=""), url)


def diff_path(edit: Edit) -> str:
    """The edit's own address, its entry's id: it redirects to :func:`edit_path` (an
    event's entry: its place among the article page's events)."""
    if edit.event:
        return edit_path(edit)
    return f"articles/{edit.document}/diff/{edit.number}/"


def edit_path(edit: Edit) -> str:
    """Where the edit is shown: under its revision in the article page's timeline (an
    event listed among the edits: in the page's events, ``#e<n>``)."""
    if edit.event:
        return f"articles/{edit.document}/#e{-edit.number}"
    return f"articles/{edit.document}/#r{edit.number}"


def newest_first(edits: list[Edit], *, limit: int = FEED_ENTRIES) -> list[Edit]:
    """The ``limit`` most recent edits by time (not significance): a feed is chronological."""
    # the same as sorting and cutting, without sorting every edit of the archive
    return heapq.nlargest(limit, edits, key=lambda e: (e.observed_at, e.document, e.number))


@dataclass(frozen=True, slots=True)
class FeedSpec:
    """One feed pair: where it goes, what it is called, which page it stands for."""

    path: str  # without extension: "feed" → feed.xml and feed.rss
    title: str
    page: str  # the HTML page the feed mirrors
    rss: bool = True
    compact: bool = False  # entries without their HTML content (the summary and link only)
    term: str = ""  # a watched term's slug: each entry shows where it was added or removed
    entries: int = FEED_ENTRIES  # the newest this many edits


def render_feed(renderer: Renderer, spec: FeedSpec, edits: list[Edit]) -> dict[str, str]:
    """``{output path: text}`` of the Atom feed (and the RSS twin when ``spec.rss``)."""
    newest = newest_first(edits, limit=spec.entries)
    entries = [replace(e, url=iri_reference(e.url)) if e.url else e for e in newest]
    updated = entries[0].observed_at if entries else EPOCH
    context = {
        "feed": spec,
        "entries": entries,
        "updated": updated,
        "diff_path": diff_path,
        "edit_path": edit_path,
        "atom_path": f"{spec.path}.xml",
        "rss_path": f"{spec.path}.rss",
    }
    out = {f"{spec.path}.xml": renderer.render("feeds/atom.xml", **context)}
    if spec.rss:
        out[f"{spec.path}.rss"] = renderer.render("feeds/rss.xml", **context)
    return out
