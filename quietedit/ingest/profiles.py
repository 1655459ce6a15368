"""Per-host templates in the ingest: furniture churn is no edit, a new profile no revision (pure).

A host's profile (:class:`~quietedit.article.template.HostProfile`) lists the lines its
pages share: promo lines, "12 comments", "Trending: 4 stories". Revisions are stored as
extracted, profile or not, so what the archive holds never depends on a profile. The
profile only decides *whether* a new observation is news: the versioning rules compare
the new text and every stored revision with the same profile's furniture removed from
both sides. A change in furniture alone is then no edit, and a profile that grows or
shrinks between runs can never make a revision by itself: it acts on both sides alike.

A profile that would remove most of a text is not trusted for that check (a host whose
pages all look alike, say a weather service, would otherwise lose its real paragraphs),
and the comparison falls back to the plain text, again on both sides.

A run learns each host's profile before its checks, from the newest stored revision of
up to ``PROFILE_SAMPLE`` of the host's documents, the first by document id. Stored
revisions never depend on a profile, so the same archive teaches the same profile, and
nothing about profiles needs storing: a host with fewer than ``MIN_PAGES`` stored
articles has none yet.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Final

from quietedit.article.template import MIN_PAGES, HostProfile, learn_host_profile
from quietedit.ingest.state import DocumentState
from quietedit.ingest.versioning import body_words
from quietedit.model import Article

MIN_KEPT_SHARE: Final = 0.5
"""A profile is used for a check only if it keeps at least this share of the body words of
both texts compared; beyond that it would be deciding about the article, not its frame."""

PROFILE_SAMPLE: Final = 40
"""Documents a host's profile is learnt from: enough for a line in 30 % of them to show
(``MIN_SHARE``), few enough that reading their newest revisions stays cheap."""


def without_furniture(article: Article, profile: HostProfile) -> Article:
    """``article`` without the body blocks that are ``profile``'s furniture lines."""
    kept = tuple(block for block in article.blocks if not profile.is_furniture(block.text))
    return article if len(kept) == len(article.blocks) else replace(article, blocks=kept)


def judging_profile(
    profile: HostProfile | None, new: Article, newest: Article | None
) -> HostProfile | None:
    """``profile`` if a check may compare ``new`` with the stored revisions through it
    (``newest`` is the newest revision's article), else ``None`` (compare plain texts)."""
    if profile is None or not profile.furniture:
        return None
    for article in (new, newest):
        if article is None:
            continue
        words = body_words(article)
        if words and body_words(without_furniture(article, profile)) < MIN_KEPT_SHARE * words:
            return None
    return profile


def profile_sample(
    documents: Iterable[DocumentState], *, hosts: Iterable[str]
) -> dict[str, list[str]]:
    """Per host of ``hosts``, the ids of the documents to learn its profile from: those
    with a stored revision, the first ``PROFILE_SAMPLE`` by id."""
    wanted = set(hosts)
    found: dict[str, list[str]] = {}
    for state in documents:
        if state.candidate.host in wanted and state.seen.revisions:
            found.setdefault(state.candidate.host, []).append(state.id)
    return {host: sorted(docs)[:PROFILE_SAMPLE] for host, docs in sorted(found.items())}


def learn_profiles(
    pages: Mapping[str, Sequence[tuple[str, Article]]],
) -> dict[str, HostProfile]:
    """The profiles of the hosts of ``pages`` (host -> (document id, article)) that have at
    least ``MIN_PAGES`` distinct documents; learnt in document order."""
    learnt = {}
    for host, read in sorted(pages.items()):
        documents = dict(sorted(read))
        if len(documents) >= MIN_PAGES:
            # each document counts once: the archive knows they are distinct articles, even
            # when their pages name no canonical URL and share a site-wide title
            distinct = (
                replace(article, publisher=replace(article.publisher, canonical_url=doc))
                for doc, article in documents.items()
            )
            learnt[host] = learn_host_profile(distinct, host=host)
    return learnt
