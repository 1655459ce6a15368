"""What of an article page the search index reads (pure): its language and the header
the template marks ``data-pagefind-body``, less the facts it marks ``data-pagefind-ignore``.

An article page changes with every revision (its timeline, its facts, its share image),
but Pagefind indexes only the outlet, headline, byline and notes of its header
(``templates/article.html``). A search bundle whose articles' pages changed only outside
that part would come out of Pagefind as it is: an hourly build keeps it instead of
indexing its articles again (``search.SearchIndexing``). At a year's scale most
revisions are of articles first seen weeks before, in the older bundles of up to
:data:`~quietedit.publish.search.SHARD_SIZE` articles; most change no headline.

A page whose marked header cannot be found is compared whole."""

from __future__ import annotations

import re
from typing import Final

BODY_START: Final = b"<header data-pagefind-body>"
"""Where the part Pagefind indexes begins (``templates/article.html``)."""
BODY_END: Final = b"</header>"
IGNORED: Final = re.compile(rb'<dl class="facts" data-pagefind-ignore>.*?</dl>', re.DOTALL)
"""The facts list inside it that Pagefind leaves out (it holds no metadata or filter)."""


def search_part(page: bytes) -> bytes:
    """The bytes of ``page`` that decide what Pagefind makes of it: the ``<html>`` tag
    (its language) and the marked header without the ignored facts; the whole page when
    either cannot be found."""
    start = page.find(BODY_START)
    end = page.find(BODY_END, start)
    html = page.find(b"<html")
    opened = page.find(b">", html)
    if start < 0 or end < 0 or html < 0 or opened < 0:
        return page
    return page[html : opened + 1] + IGNORED.sub(b"", page[start:end])
