"""Whether a revision's page, read again by the current extractor, gives a new reading (pure).

``quietedit reextract`` (:mod:`quietedit.archive.reextract`) gathers a revision, its
current derived reading and what the extractor now makes of its stored page; this decides
whether a derived record is written.
"""

from __future__ import annotations

from quietedit.archive.derived import DerivedReading
from quietedit.model import Article
from quietedit.revisions import Revision


def plan_reading(
    revision: Revision, current: DerivedReading | None, article: Article
) -> Article | None:
    """The reading to keep for ``revision`` now that its page reads as ``article``: the
    article when its title or blocks differ from the current reading (``current``'s, else
    the revision's own), ``None`` when nothing is new. Publisher metadata alone is kept
    with a new reading but never makes one."""
    recorded = current.article if current is not None else revision.article
    if (article.title, article.blocks) == (recorded.title, recorded.blocks):
        return None
    return article
