"""What one fetched article page says: the CPU-heavy part of a check (pure).

Decoding, extraction and the content hash of a page cost tens of milliseconds on a real
news page, far more than everything else a check does. They depend on the page's bytes
alone, so a large run computes them in worker processes (:mod:`quietedit.ingest.workers`)
while it goes on fetching; everything in and out of :func:`read_page` is a plain value
that crosses a process boundary unchanged, so a page read in a worker and a page read in
the ingesting process give byte-identical records.
"""

from __future__ import annotations

from dataclasses import dataclass

from quietedit.article.encoding import resolve_encoding
from quietedit.article.extract import extract_article
from quietedit.article.fingerprint import content_hash
from quietedit.article.liveblog import LiveLayout, may_be_live, read_live_layout
from quietedit.decide.versioning import body_words
from quietedit.model import JSON, Article


@dataclass(frozen=True, slots=True)
class PageReading:
    """A page's article, its content hash, the encoding decision (as recorded in a
    revision), its body word count (what the versioning rules weigh) and its stream of
    live-blog entries, if it has one (:mod:`quietedit.article.liveblog`)."""

    article: Article
    fingerprint: str
    encoding: dict[str, JSON]
    words: int
    live: LiveLayout | None = None


def read_page(body: bytes, *, url: str, content_type: str | None) -> PageReading:
    """Read the article page ``body`` fetched from ``url``; deterministic in its arguments.

    Raises only what the extraction raises for input it cannot cope with (a bug): the
    caller records that as the check's failure.
    """
    decision = resolve_encoding(body, content_type)
    article = extract_article(body, url=url, content_type=content_type, encoding=decision)
    live = None
    if may_be_live(body):  # most pages are not live blogs: they are not parsed twice
        live = read_live_layout(decision.decode(body), article)
    return PageReading(
        article=article,
        fingerprint=content_hash(article),
        encoding=decision.to_record(),
        words=body_words(article),
        live=live,
    )
