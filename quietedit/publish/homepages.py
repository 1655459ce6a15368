"""The homepages' pages: the headlines each front showed for each link, and their changes.

For every ``kind: homepage`` source (a feed record of kind ``homepage``), the build writes

- ``api/homepages/<slug>.json``: every link the record holds (on the page now, or gone
  less than ``HOMEPAGE_MEMORY`` ago) with each headline it showed, first and last seen
  (docs/json-api.md, "Homepages"); older histories are events of their articles'
  documents (``homepage-headlines``, in ``api/documents/<id>.json``);
- ``homepages/<slug>/``: the links whose headline changed (A/B tests, retitles), newest
  change first, and ``homepages/<slug>/feed.xml``: one Atom entry per headline that
  replaced another, its id stable for ever;
- ``homepages/``: the list of homepage sources.

Everything comes from the feed records, a few files, so it is read on every build; a page
is rendered only when its inputs changed (``SiteWide.page``), and a JSON file written only
when its bytes did.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.decide.homepage import HOMEPAGE_MEMORY, history_from_record, history_rows
from quietedit.errors import QuieteditError
from quietedit.model import JSON, format_timestamp
from quietedit.publish import api
from quietedit.publish.atom import EPOCH, FEED_ENTRIES, iri_reference
from quietedit.publish.pages import Source, clean_text, safe_http_url
from quietedit.publish.sitewide import SiteWide

logger = logging.getLogger(__name__)

ROOT: Final = "homepages"
PAGE_LINKS: Final = 500
"""Changed links listed on a homepage's page, the most recently changed."""


@dataclass(frozen=True, slots=True)
class Sighting:
    """One headline a link showed: its text, first and last seen (RFC 3339)."""

    text: str
    first_seen: str
    last_seen: str


@dataclass(frozen=True, slots=True)
class LinkView:
    """A link of a homepage: where it points, whether it is on the page, its headlines."""

    url: str
    on_page: bool
    headlines: tuple[Sighting, ...]

    @property
    def changed_at(self) -> str:
        """When its newest headline first showed."""
        return max(h.first_seen for h in self.headlines)

    @property
    def anchor(self) -> str:
        return "l-" + hashlib.sha256(self.url.encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class HeadlineChange:
    """A headline that replaced another on a homepage: one entry of its feed."""

    url: str
    before: str
    after: str
    at: str
    anchor: str

    @property
    def id(self) -> str:
        key = f"{self.url}\0{self.before}\0{self.after}\0{self.at}"
        return hashlib.sha256(key.encode()).hexdigest()[:24]


@dataclass(frozen=True, slots=True)
class HomepageView:
    """A homepage source as its pages show it."""

    source: Source
    polled_at: str | None
    links: tuple[LinkView, ...]

    @property
    def changed(self) -> list[LinkView]:
        moved = [link for link in self.links if len(link.headlines) > 1]
        return sorted(moved, key=lambda link: (link.changed_at, link.url), reverse=True)

    def changes(self) -> list[HeadlineChange]:
        """Every headline that replaced another, newest first."""
        found = []
        for link in self.links:
            ordered = sorted(link.headlines, key=lambda h: (h.first_seen, h.text))
            for before, after in itertools.pairwise(ordered):
                found.append(
                    HeadlineChange(link.url, before.text, after.text, after.first_seen, link.anchor)
                )
        return sorted(found, key=lambda c: (c.at, c.url, c.after), reverse=True)


def homepage_views(archive: Archive, sources: dict[str, Source]) -> list[HomepageView]:
    """The homepage sources of the archive's feed records, by slug; a record that cannot
    be read is logged and left out."""
    views = []
    for slug in archive.feed_slugs():
        try:
            record = archive.read_feed(slug)
        except QuieteditError as exc:
            logger.warning("homepage %s: feed record unreadable: %s", slug, exc)
            continue
        if record is None or record.get("kind") != "homepage":
            continue
        history = history_from_record(record.get("homepage"))
        if history is None:
            continue
        name = record.get("name")
        source = sources.get(slug) or Source(
            slug,
            clean_text(name) if isinstance(name, str) and name.strip() else slug,
            safe_http_url(record.get("url")),
        )
        links = []
        for url, on_page, rows in history_rows(history):
            safe = safe_http_url(url)
            if safe is None:
                continue
            sightings = tuple(
                Sighting(clean_text(text), _time(first), _time(last)) for text, first, last in rows
            )
            links.append(LinkView(iri_reference(safe), on_page, sightings))
        polled = None if history.polled_at is None else _time(history.polled_at)
        views.append(HomepageView(source, polled, tuple(links)))
    return views


def api_file(view: HomepageView) -> dict[str, JSON]:
    """``api/homepages/<slug>.json``."""
    return {
        "schema": api.API_SCHEMA,
        "source": view.source.slug,
        "name": view.source.name,
        "url": view.source.url,
        "polled_at": view.polled_at,
        "memory_days": HOMEPAGE_MEMORY.days,
        "links": [
            {
                "url": link.url,
                "document": document_id(link.url),
                "on_page": link.on_page,
                "headlines": [
                    {"text": h.text, "first_seen": h.first_seen, "last_seen": h.last_seen}
                    for h in link.headlines
                ],
            }
            for link in sorted(
                view.links, key=lambda link: (link.headlines[0].first_seen, link.url)
            )
        ],
    }


def write_homepages(site: SiteWide, archive: Archive, sources: dict[str, Source]) -> None:
    """Write the homepages' files (see the module docstring) through ``site``."""
    views = homepage_views(archive, sources)
    for view in views:
        slug = view.source.slug
        site.writer.write(f"api/{ROOT}/{slug}.json", api.dump(api_file(view)))
        changed = view.changed[:PAGE_LINKS]
        site.page(
            f"{ROOT}/{slug}/",
            "homepage.html",
            view=view,
            links=changed,
            total=len(view.changed),
            tracked=len(view.links),
        )
        changes = view.changes()[:FEED_ENTRIES]
        site.page(
            f"{ROOT}/{slug}/feed.xml",
            "feeds/homepage.xml",
            view=view,
            entries=changes,
            updated=changes[0].at if changes else EPOCH,
            atom_path=f"{ROOT}/{slug}/feed.xml",
            html_path=f"{ROOT}/{slug}/",
        )
    site.page(
        f"{ROOT}/",
        "homepages.html",
        views=[(v.source, len(v.links), len(v.changed), v.polled_at) for v in views],
    )


def _time(moment: datetime) -> str:
    return format_timestamp(moment)
