"""Which months the site folds into compact archive pages, to stay under its size (pure).

GitHub Pages publishes at most 1 GB. The site is bounded by ``settings.site.max_bytes``:
when its estimated size passes the bound, the oldest months (by the archive partition,
the month a document was first seen) are *folded*: their documents lose their own pages,
API files, listing entries, sitemap lines and search entries, and the month gets one
archive page listing its edited documents with links to their data. Nothing leaves the
archive; statistics still count every document.

The choice depends on the archive alone (each document's published bytes, which the
build measures by rendering it, and its edits), never on an earlier build, so the same
archive always gives the same site. The newest month is never folded.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from quietedit.publish.listing import EditRef

LISTING_BYTES_PER_EDIT: Final = 400
"""An edit's item on the home archive's page (measured on a year at 1,000 a day: 320
bytes with its excerpt), with its share of the small redirect pages of its source's and
kinds' archives. Counted once: the source and kind listings hold only their newest edits,
in pages that do not grow with the archive."""
SEARCH_BYTES_PER_PAGE: Final = 350
"""Pagefind's index of one article page, its outlet, headline and byline (measured on a
month at 1,000 a day: 330 bytes; 710 while it indexed the page's dates and edits too)."""
INDEX_BYTES_PER_DOCUMENT: Final = 80
"""A document's entry in its API day file, edited or not (measured: 69 bytes)."""
FOLDED_BYTES_PER_DOCUMENT: Final = 500
"""An edited document's line on its month's archive page (measured: 480 bytes)."""
RESERVE_SHARE: Final = 0.05
"""Of ``max_bytes``, kept for what does not fold: static files, Pagefind's code, the
newest listing pages, feeds, the stats page (a few MB on a year's site)."""


@dataclass(frozen=True, slots=True)
class MonthSize:
    """A month's estimated bytes with pages (``open``) and folded (``folded``)."""

    open: int = 0
    folded: int = 0


def document_size(published: bool, refs: Iterable[EditRef], size: int) -> tuple[int, int]:
    """The estimated bytes a document adds to the site with its pages and folded:
    ``size`` is what its own files measure; ``published``: whether it has pages
    (:attr:`~quietedit.publish.listing.DocumentSummary.published`)."""
    if not published:
        return INDEX_BYTES_PER_DOCUMENT, 0
    open_ = size + LISTING_BYTES_PER_EDIT * sum(1 for _ in refs) + SEARCH_BYTES_PER_PAGE
    return open_ + INDEX_BYTES_PER_DOCUMENT, FOLDED_BYTES_PER_DOCUMENT


def month_sizes(
    documents: Iterable[tuple[str, tuple[int, int]]],
) -> dict[str, MonthSize]:
    """Each month's :class:`MonthSize` from its documents' months (``2026-09``) and
    ``(open, folded)`` sizes."""
    totals: dict[str, tuple[int, int]] = {}
    for month, (open_, folded) in documents:
        before = totals.get(month, (0, 0))
        totals[month] = (before[0] + open_, before[1] + folded)
    return {month: MonthSize(*totals[month]) for month in sorted(totals)}


def months_to_fold(months: dict[str, MonthSize], *, max_bytes: int) -> frozenset[str]:
    """The oldest months to fold so that the estimate stays within ``max_bytes`` less the
    reserve; none while it fits, and never the newest month."""
    budget = max_bytes * (1 - RESERVE_SHARE)
    total = sum(m.open for m in months.values())
    folded: list[str] = []
    for month in sorted(months)[:-1]:
        if total <= budget:
            break
        total += months[month].folded - months[month].open
        folded.append(month)
    return frozenset(folded)
