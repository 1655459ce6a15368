"""The filtered feeds: each the edits of one kind of interest, for the whole site and per
source, each its newest entries as the build cache's ``edits`` table gives them (``edittable``).

Under ``feeds/`` (the whole site) and ``sources/<slug>/feeds/`` (one source):

``silent.xml``
    the edits judged silent (no sign from the publisher);
``headlines.xml``
    the edits that changed the headline (each entry says the old and the new one);
``significant.xml``
    the edits of significance *substantive*;
``kinds/<kind>.xml``
    one per kind of the vocabulary, where it has edits;
``watch/<term-slug>.xml``
    the edits that added or removed a watched term (``settings.watch``, and a feed's own
    ``watch:`` for its source), the term marked in each entry.

The site-wide silent, headlines, significant and watch feeds always exist (a reader can
subscribe before the first edit); a kind's feed and a source's feeds exist where they
have entries. Each is Atom only, its :data:`ENTRIES` newest entries as ``feed.xml``'s
without their HTML content (a watched term's: the words around it), and is rendered again
only when its newest entries changed (``SiteWide._feeds``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from quietedit.analysis.watch import term_slug
from quietedit.publish.atom import FeedSpec
from quietedit.publish.listing import EditRef
from quietedit.publish.pages import significance_rank

SIGNIFICANT: Final = significance_rank("substantive")
"""The lowest significance of ``significant.xml``."""
ENTRIES: Final = 20
"""Entries per filtered feed: each holds a fraction of the site's edits, so 20 reach back
further than ``feed.xml``'s 50 (a reader polling daily misses none at 1,000 articles a
day), and the feeds of a site with many sources and kinds stay small."""
FOLDER: Final = "feeds"


@dataclass(frozen=True, slots=True)
class FeedSet:
    """The filtered feeds of one listing (the site, or a source), each with its entries;
    ``links``: (title, path) of each, for the ``<link rel="alternate">`` of its pages."""

    feeds: tuple[tuple[FeedSpec, list[EditRef]], ...]

    def links(self, *, kinds: bool = False) -> list[tuple[str, str]]:
        """The feeds' titles and paths (without the kinds' unless ``kinds``: a kind's feed
        is linked from that kind's page)."""
        return [
            (spec.title, f"{spec.path}.xml")
            for spec, _ in self.feeds
            if kinds or f"/{FOLDER}/kinds/" not in f"/{spec.path}"
        ]

    def kind_links(self, slug: str) -> list[tuple[str, str]]:
        """The title and path of the feed of the kind ``slug``, if it has one."""
        path = f"{FOLDER}/kinds/{slug}"
        return [(spec.title, f"{path}.xml") for spec, _ in self.feeds if spec.path == path]


def watched(*lists: Iterable[str]) -> dict[str, str]:
    """Slug → term of the terms of ``lists``, a slug's first term kept."""
    terms: dict[str, str] = {}
    for items in lists:
        for term in items:
            terms.setdefault(term_slug(term), term)
    return terms


@dataclass(frozen=True, slots=True)
class FeedFilter:
    """Which edits a filtered feed holds (never the events): ``silent``, ``headlines``,
    ``significant`` (of :data:`SIGNIFICANT` or more), ``kind`` (of the kind ``value``) or
    ``term`` (adding or removing the watched term of slug ``value``)."""

    what: str
    value: str = ""


Newest = Callable[[FeedFilter, int], list[EditRef]]
"""The newest edits (by time, at most the count given) of a listing that a filter keeps:
asked of the build cache's ``edits`` table (``edittable``), not of every edit in Python."""


def feed_set(
    base: str,
    name: str,
    newest: Newest,
    *,
    kinds: Iterable[tuple[str, str]],
    terms: Mapping[str, str],
    always: bool = False,
) -> FeedSet:
    """The filtered feeds of a listing under ``base`` ("" or ``sources/<slug>/``), titled
    after ``name``, each with the :data:`ENTRIES` newest of its edits (``newest``);
    ``kinds``: (kind, slug) of the vocabulary's kinds with edits anywhere; ``terms``:
    slug → term watched here; ``always``: make the silent, headlines, significant and watch
    feeds even when empty (the site's), else only with entries."""
    folder = f"{base}{FOLDER}"
    chosen = []
    for path, title in (
        ("silent", "silent edits"),
        ("headlines", "headline changes"),
        ("significant", "substantive edits"),
    ):
        entries = newest(FeedFilter(path), ENTRIES)
        if entries or always:
            chosen.append((_spec(f"{folder}/{path}", f"{name}: {title}", base), entries))
    for kind, slug in kinds:
        entries = newest(FeedFilter("kind", kind), ENTRIES)
        if entries:
            spec = _spec(f"{folder}/kinds/{slug}", f"{name}: edits of kind “{kind}”", base)
            chosen.append((spec, entries))
    for slug, term in sorted(terms.items()):
        entries = newest(FeedFilter("term", slug), ENTRIES)
        if entries or always:
            title = f"{name}: edits adding or removing “{term}”"
            chosen.append((_spec(f"{folder}/watch/{slug}", title, base, term=slug), entries))
    return FeedSet(tuple(chosen))


def _spec(path: str, title: str, page: str, *, term: str = "") -> FeedSpec:
    """A filtered feed: Atom only, the newest :data:`ENTRIES`, each entry its title, summary
    and links (a headline change's summary says the old and the new headline) and, in a
    watched term's feed, the words around the term with the term marked."""
    return FeedSpec(path, title, page, rss=False, compact=True, term=term, entries=ENTRIES)
