"""Per-host templates in the ingest: furniture churn is no edit, a new profile no revision (pure).

A host's profile (:class:`~quietedit.article.template.HostProfile`) lists the lines its
pages share: promo lines, "12 comments", "Trending: 4 stories". Revisions are stored as
extracted, profile or not, so what the archive holds never depends on a profile. The
profile only decides *whether* a new observation is news: the versioning rules compare
the new text and every stored revision with the same profile's furniture removed from
both sides. A change in furniture alone is then no edit, and a profile that grows or
shrinks between runs can never make a revision by itself: it acts on both sides alike.

What a document's record remembers of its last observation (``seen``: the page's content
hash, the cut-down text being confirmed) is always in plain content hashes, whatever
profile judged it, and is translated into the profile's terms for each check
(:func:`judge_observation`). A page that is exactly the last observation, which was not
stored then, is no revision now either, even if the profile changed meanwhile: a line the
profile covered then and no longer covers (furniture that changed while it was covered)
would otherwise look like an edit.

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

from quietedit.article.fingerprint import content_hash
from quietedit.article.template import MIN_PAGES, HostProfile, learn_host_profile
from quietedit.decide.memory import DocumentState, Seen
from quietedit.decide.versioning import Known, Verdict, body_words, judge, next_known
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


def judge_observation(
    article: Article,
    *,
    plain: str,
    words: int,
    revisions: Sequence[tuple[str, Article]],
    seen: Seen,
    profile: HostProfile | None,
) -> tuple[Verdict, Seen]:
    """The verdict on a new observation of ``article`` (content hash ``plain``, ``words``
    body words) of a document whose stored ``revisions`` are (content hash, article) in
    order and whose record says ``seen``, compared through ``profile``; and the ``seen``
    state to record after it (plain content hashes)."""
    newest = revisions[-1][1] if revisions else None
    judging = judging_profile(profile, article, newest)
    plains = tuple(stored for stored, _ in revisions)
    if judging is None:
        hashes, fingerprint = plains, plain
    else:
        hashes = tuple(content_hash(without_furniture(a, judging)) for _, a in revisions)
        fingerprint = content_hash(without_furniture(article, judging))
    # plain hashes of this page and of the revisions, in this check's terms; any other
    # plain hash (or one a record of an older version kept in other terms) matches nothing
    terms = {**dict(zip(plains, hashes, strict=True)), plain: fingerprint}
    behind = len(revisions) > seen.revisions  # a run died after storing a revision
    last = plains[-1] if behind else seen.last_seen
    last_seen = terms.get(last, last) if last is not None else None
    if hashes and last_seen == hashes[-1]:
        # the newest revision's text: no switch to come back from (a profile can make two
        # revisions look alike, and the earlier one must not make this a flip-flop)
        last_seen = None
    anomaly = None if behind else seen.anomaly_hash
    known = Known(
        revision_hashes=hashes,
        newest_words=body_words(newest) if newest is not None else 0,
        last_seen=last_seen,
        anomaly_hash=terms.get(anomaly, anomaly) if anomaly is not None else None,
        anomaly_count=0 if behind else seen.anomaly_count,
    )
    verdict = judge(article, fingerprint=fingerprint, known=known)
    if (
        verdict.action == "store"
        and hashes
        and last == plain
        and fingerprint != known.anomaly_hash  # not a cut-down text confirmed by repetition
    ):
        verdict = Verdict(
            "unchanged", "same page as the last observation, not stored then", record_event=False
        )
    after = next_known(known, verdict, fingerprint=fingerprint, words=words)
    return verdict, Seen(
        plain,  # next_known keeps this observation as the last one, in its terms
        plain if after.anomaly_hash is not None else None,
        after.anomaly_count,
        revisions=len(after.revision_hashes),
    )


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
