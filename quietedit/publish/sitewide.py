"""The site-wide pages: listings, sources, kinds, stats, feeds, API index, sitemap, search.

Each page is rendered only when the key of its inputs differs from the previous build's
(a hash of the template name and the page's context, where an edit stands for itself by
the digest of everything it shows; a feed's, of its newest edits; the API index's, of
every document's key), so an incremental build renders the listing pages whose edits
changed, the affected source and kind pages and feeds, and little else. Edits come in as
:class:`~quietedit.publish.listing.EditRef` values; a full ``Edit`` is asked for only to
render it. The indexes of the documents (the JSON API's index and day files, the
sitemap, the folded months' pages) are written by :mod:`~quietedit.publish.siteindexes`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import heapq
import logging
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from markupsafe import Markup

from quietedit.archive.store import Archive
from quietedit.errors import QuieteditError
from quietedit.publish import charts
from quietedit.publish import listing as listings_module
from quietedit.publish.atom import FeedSpec, render_feed
from quietedit.publish.edittable import EVERY, EditTable, Scope
from quietedit.publish.feedsets import FeedFilter, feed_set, watched
from quietedit.publish.listing import EditRef, ListingPage, source_health
from quietedit.publish.listingpages import first_changed, listing_pages
from quietedit.publish.pages import Edit, Source
from quietedit.publish.paths import SiteWriter
from quietedit.publish.render import Renderer, output_file
from quietedit.publish.search import SearchIndexing, Shard
from quietedit.publish.siteindexes import (
    FOLDED_ROOT,
    DayChanges,
    SiteData,
    write_api,
    write_folded,
    write_sitemap,
)

logger = logging.getLogger(__name__)

_BY_TIME: Final = listings_module.BY_TIME
AFTER_ALL: Final = ("\U0010ffff", "")
"""A place (``(first_seen, id)``) after every document's."""


def kind_slug(kind: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", kind.lower()).strip("-")[:63] or "other"


@dataclass(slots=True)
class SiteWide:
    """Writes every page that depends on more than one document."""

    renderer: Renderer
    writer: SiteWriter
    archive: Archive
    fingerprint: str
    keys: dict[str, str]  # previous build: output path → input key
    edit_of: Callable[[EditRef], Edit]  # the full edit, to render it
    new_keys: dict[str, str] = field(default_factory=dict)  # this build's, filled in here
    items: dict[tuple[str, int], str] = field(default_factory=dict)  # rendered list items
    compact_items: dict[tuple[str, int], str] = field(default_factory=dict)  # and without excerpt
    names: dict[str, str] = field(default_factory=dict)
    doc_keys: dict[str, str] = field(default_factory=dict)  # document → its input key (API)
    reprs: dict[int, tuple[object, str]] = field(default_factory=dict)
    watch: tuple[str, ...] = ()  # terms watched in every source (settings.watch)
    # the digest of what every listing page shows besides its edits (the page size, the
    # fold, the navigation), made by ``write_all`` and kept in the cache for the next build
    listings_key: str = ""

    def _key_text(self, context: dict[str, Any]) -> str:
        """The page's inputs as text for its key. A listing stands for its edits by their
        digests (which cover everything an edit shows); other values by their ``repr``,
        computed once per object (the navigation is shared by every page)."""
        parts = []
        for name in sorted(context):
            value = context[name]
            if isinstance(value, ListingPage):
                edits = " ".join([e.digest for e in value.edits])  # what each shows
                head = (value.path, value.heading, value.total, value.number, value.older)
                text = repr((*head, value.newer, value.compact)) + edits
            else:
                memo = self.reprs.get(id(value))
                if memo is None or memo[0] is not value:
                    memo = self.reprs[id(value)] = (value, repr(value))
                text = memo[1]
            parts.append(f"{name}={text}")
        return "\0".join(parts)

    def groups(self, listing: ListingPage) -> list[tuple[str, list[Markup]]]:
        """The listing's edits as list items, each rendered once per build and reused on
        every listing it appears in (home, its source, each of its kinds)."""
        out = []
        items = self.compact_items if listing.compact else self.items
        for day, edits in listing.groups:
            rendered = []
            for ref in edits:
                key = (ref.document, ref.number)
                if key not in items:
                    edit = self.edit_of(ref)
                    items[key] = self.renderer.render(
                        "_edit_item.html", edit=edit, names=self.names, compact=listing.compact
                    )
                rendered.append(Markup(items[key]))  # noqa: S704 - rendered with autoescape
            out.append((day, rendered))
        return out

    def _to_home_archive(self, listing: ListingPage, table: EditTable) -> None:
        """A filter's archive page (``sources/<slug>/edits/N/``, ``kinds/<kind>/edits/N/``)
        as a redirect to the home archive's page that holds its newest edit, at that
        edit's day: a filter's older edits are read in the one listing of every edit, not
        listed a second time."""
        newest = max(listing.edits, key=listings_module.BY_TIME)
        before = table.position(EVERY, listings_module.BY_TIME(newest))
        place = before // listings_module.PAGE_SIZE + 1
        self.page(
            listing.path + "/",
            "redirect.html",
            title=listing.heading,
            page=f"edits/{place}/",
            # relative: the same under any base path
            target=f"../../../../edits/{place}/#d-{newest.day}",
        )

    def page(self, path: str, template: str, **context: Any) -> None:
        """Render ``template`` to the site path ``path`` unless its inputs are unchanged.

        A ``ListingPage`` in the context brings its rendered edit items as ``groups``;
        they are made only when the page is rendered (its key is the listing itself).
        """
        target = output_file(path)
        if self.kept((target,), f"{template}\0{path}\0{self._key_text(context)}"):
            return
        listing = context.get("listing")
        if isinstance(listing, ListingPage):
            context["groups"] = self.groups(listing)
        self.writer.write(target, self.renderer.render(template, page_path=path, **context))

    def reused(self, target: str) -> bool:
        """Keep ``target`` as the previous build made it, with its key, when it is still
        there (for a page whose inputs are known not to have changed); claims it if so."""
        key, digest = self.keys.get(target), self.writer.known.get(target)
        if key and digest and os.path.isfile(os.path.join(self.writer.root, target)):
            self.new_keys[target] = key
            self.writer.claim(target, digest)
            return True
        return False

    def kept(self, targets: tuple[str, ...], inputs: str) -> bool:
        """Whether ``targets`` (made together from ``inputs``) can stay as they are: the
        same inputs as last time and every file still there. Claims them if so."""
        key = hashlib.sha256(f"{self.fingerprint}\0{inputs}".encode()).hexdigest()
        for target in targets:
            self.new_keys[target] = key
        digests = [self.writer.known.get(t) for t in targets]
        if all(
            self.keys.get(t) == key
            and d
            and os.path.isfile(os.path.join(self.writer.root, t))  # claim() checks the path
            for t, d in zip(targets, digests, strict=True)
        ):
            for target, digest in zip(targets, digests, strict=True):
                self.writer.claim(target, str(digest))
            return True
        return False

    def write_all(
        self,
        documents: SiteData,
        table: EditTable,
        *,
        sources: dict[str, Source],
        indexing: SearchIndexing | None,
        folded: frozenset[str] = frozenset(),
        data_url: str | None = None,
        database_url: str | None = None,
        changed: set[str] | None = None,
        since: tuple[str, str] | None = None,
        changes: set[EditRef] | None = None,
        listings: str = "",
        day_changes: DayChanges | None = None,
    ) -> list[str]:
        """Write the site-wide pages, and the search index that ``indexing`` has been
        making; returns failures that did not stop the build. ``table``: every edit
        (``edittable``); the edits of documents of the ``folded`` months are left out of
        listings, feeds and sitemaps (statistics count them) and each such month gets its
        archive page, linking to ``data_url`` (where the archive folder can be browsed)
        when given; the Markdown pages get both URLs, ``database_url`` being where the
        database export is published. ``changed``: the partitions whose documents changed
        since the previous build (``None``: any may have); the API day files of the others
        are kept as they are; ``since``: with ``changed``, the place (``(first_seen,
        id)``) of the earliest document whose row changed (:data:`AFTER_ALL` when none
        did), before which the sitemap's chunks of articles are kept as they are.
        ``changes``: the edits added, removed or changed since the previous build
        (``None``: any may have), whose listings' archive pages before the earliest of
        them are kept as they are while what every listing page shows besides its edits
        is what the previous build's showed (``listings``, its digest: see
        :attr:`listings_key`)."""
        failures: list[str] = []
        kind_counts = table.kinds()
        kinds = [(kind, kind_slug(kind), count) for kind, count in kind_counts]
        source_list = sorted(sources.values(), key=lambda s: (s.name.casefold(), s.slug))
        self.names = {s.slug: s.name for s in source_list}
        # no counts in the navigation: it is on every listing page, which must not change
        # when an edit lands elsewhere
        nav: dict[str, Any] = {
            "sources": source_list,
            "kinds": [(kind, slug) for kind, slug, _ in kinds],
            "names": self.names,
        }
        self.listings_key = hashlib.sha256(
            f"{listings_module.PAGE_SIZE}\0{folded!r}\0{nav!r}".encode()
        ).hexdigest()
        if listings != self.listings_key:
            changes = None
        kind_slugs = nav["kinds"]  # (kind, slug)
        # the site's filtered feeds: of the terms watched everywhere and each source's own
        terms = watched(self.watch, *(s.watch for s in source_list))

        def newest_of(scope: Scope) -> Callable[[FeedFilter, int], list[EditRef]]:
            return lambda feed, limit: table.newest(scope, limit, feed=feed)

        site_feeds = feed_set(
            "", "quietedit", newest_of(EVERY), kinds=kind_slugs, terms=terms, always=True
        )
        for listing in self._listing(table, EVERY, "", "Recent edits", changes):
            self.page(
                listing.path + ("/" if listing.path else ""),
                "listing.html",
                listing=listing,
                alternates=site_feeds.links() if listing.number is None else [],
                **nav,
            )
        totals = documents.source_totals()
        edit_counts = table.source_counts()
        healths = []
        for source in source_list:
            scope = Scope(source=source.slug)
            count, revisions, events = totals.get(source.slug, (0, 0, {}))
            # the figures the cache sums, the rest (its feed's state) as source_health has it
            health = dataclasses.replace(
                source_health(
                    source, [], edit_counts.get(source.slug, 0), self._feed_state(source.slug)
                ),
                documents=count,
                revisions=revisions,
                events=events,
            )
            healths.append(health)
            own = watched(self.watch, source.watch)
            base = f"sources/{source.slug}/"
            source_feeds = feed_set(
                base, source.name, newest_of(scope), kinds=kind_slugs, terms=own
            )
            spec = FeedSpec(
                f"sources/{source.slug}/feed", f"Edits: {source.name}", f"sources/{source.slug}/"
            )
            feed = table.newest(scope, spec.entries)
            for listing in self._listing(
                table, scope, f"sources/{source.slug}", source.name, changes, every=True
            ):
                if listing.number is not None:
                    self._to_home_archive(listing, table)
                    continue
                self.page(
                    listing.path + "/",
                    "source.html",
                    listing=listing,
                    health=health,
                    source=source,
                    has_feed=bool(feed),
                    alternates=source_feeds.links(kinds=True),
                    **nav,
                )
            if feed:  # a feed only where it has entries
                self._feeds(spec, feed)
            for filtered, entries in source_feeds.feeds:
                self._feeds(filtered, entries)
        self.page("sources/", "sources.html", healths=healths, **nav)
        for kind, slug, _ in kinds:
            for listing in self._listing(
                table,
                Scope(kind=kind),
                f"kinds/{slug}",
                f"Edits of kind “{kind}”",
                changes,
                every=True,
            ):
                if listing.number is not None:
                    self._to_home_archive(listing, table)
                    continue
                self.page(
                    listing.path + "/",
                    "listing.html",
                    listing=listing,
                    alternates=site_feeds.kind_links(slug),
                    # past its newest page, a kind's edits are read among all the others
                    older_label="Older edits, of every kind",
                    **nav,
                )
        self.page("kinds/", "kinds.html", **{**nav, "kinds": kinds})
        self._stats(table, documents, source_list)
        for name in self.renderer.markdown_names():
            if re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
                title, body = self.renderer.markdown_page(
                    name, data_url=data_url, database_url=database_url
                )
                self.page(f"{name}/", "markdown.html", title=title, body=body, **nav)
        spec = FeedSpec("feed", "quietedit: recent edits", "")
        self._feeds(spec, table.newest(EVERY, spec.entries))
        for filtered, entries in site_feeds.feeds:
            self._feeds(filtered, entries)
        self.page("compare/", "compare.html", **nav)
        self.page("404.html", "404.html", **nav)
        api_counts = table.source_counts(edits_only=True)
        write_api(
            self, documents, sources, totals, api_counts, folded, changed, day_changes
        )  # fmt: skip
        write_folded(self, documents, folded, data_url, nav)
        write_sitemap(
            self, documents, source_list, kinds, folded, since if changed is not None else None
        )
        self.writer.write("robots.txt", self.renderer.render("robots.txt", page_path="robots.txt"))
        for path, data in self.renderer.static_files().items():
            self.writer.write(path, data)
        bundles: list[Shard] = []
        if indexing is not None:
            try:
                bundles = indexing.finish()
            except QuieteditError as exc:
                logger.error("%s", exc)
                failures.append(str(exc))
        self.page(
            "search/",
            "search.html",
            bundles=[(b.path, self.names.get(b.source, b.source)) for b in bundles],
            **nav,
        )
        return failures

    def _listing(
        self,
        table: EditTable,
        scope: Scope,
        base: str,
        heading: str,
        changes: set[EditRef] | None,
        *,
        every: bool = False,
    ) -> list[ListingPage]:
        """The listing's pages to render (``listingpages``): the front page and the
        archive pages from its earliest change on; those before are kept and claimed.
        ``every``: from the earliest change of any edit on (a filter's archive pages,
        which redirect into the listing of every edit, move with it)."""
        # the page size is looked up on each build, not bound once, so that the tests can
        # have archive pages from a small archive
        size = listings_module.PAGE_SIZE
        return listing_pages(
            table,
            scope,
            base=base,
            heading=heading,
            size=size,
            folded_root=FOLDED_ROOT,
            first=first_changed(table, scope, changes, size=size, every=every),
            reuse=lambda folder: self.reused(output_file(folder + "/")),
        )

    def _feeds(self, spec: FeedSpec, edits: list[EditRef]) -> None:
        """A feed pair, rendered only when its spec or its newest edits changed."""
        # the feed's entries (atom.newest_first's choice), without a full edit each
        newest = heapq.nlargest(spec.entries, edits, key=_BY_TIME)
        entries = " ".join(e.digest for e in newest)
        targets = (f"{spec.path}.xml", f"{spec.path}.rss") if spec.rss else (f"{spec.path}.xml",)
        if self.kept(targets, f"feed\0{spec!r}\0{entries}"):
            return
        full = [self.edit_of(e) for e in newest]
        for path, text in render_feed(self.renderer, spec, full).items():
            self.writer.write(path, text)

    def _feed_state(self, slug: str) -> dict[str, Any] | None:
        try:
            return self.archive.read_feed(slug)
        except QuieteditError as exc:
            logger.warning("source %s: feed state unreadable: %s", slug, exc)
            return None

    def _stats(self, table: EditTable, documents: SiteData, sources: list[Source]) -> None:
        count, revisions, _ = documents.totals()
        stats = dataclasses.replace(
            table.stats(),  # the documents' figures summed by the cache
            documents=count,
            revisions=revisions,
        )
        names = {s.slug: s.name for s in sources}
        series = [(names.get(slug, slug), counts) for slug, counts in stats.per_day.items()]
        per_day = charts.stacked_columns(
            stats.days,
            series,
            chart_id="per-day",
            title="Edits per day, by source",
            description=f"Edits observed on each of the {len(stats.days)} days "
            "up to the newest edit.",
        )
        delays = charts.horizontal_bars(
            stats.delays,
            chart_id="delay",
            title="Time from publication to edit",
            description="How long after the publisher's stated publication time "
            "each edit was observed.",
        )
        kinds = charts.horizontal_bars(
            stats.kinds,
            chart_id="kinds",
            title="Kinds of edits",
            description="How many edits were of each kind; an edit can be of several kinds.",
        )
        self.page(
            "stats/",
            "stats.html",
            stats=stats,
            series=series,
            charts={"per_day": per_day, "delays": delays, "kinds": kinds},
        )
