"""The values the archive keeps of each document: observations, revisions and events (pure).

Apart from :mod:`quietedit.model`'s article values because extracting an article needs
none of them, and making their classes would add about 4% to the start-up of a one-page
``quietedit extract``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Final

from quietedit.model import JSON, Article

SCHEMA_VERSION: Final = 2
"""The archive's file format, written into every file this version writes. Revision and
event files are create-only, so every later version keeps reading the earlier ones
(``CREATE_ONLY_SCHEMAS`` in :mod:`quietedit.archive.records`)."""


@dataclass(frozen=True, slots=True)
class EvidenceRef:
    """Where the raw response behind a revision is kept: a record of a WARC file outside
    the archive (data/README.md, "Evidence").

    ``file`` is the WARC file's name inside the evidence folder (``2026-11/quietedit-
    20261130T081700Z.warc.gz``), ``record`` its ``WARC-Record-ID`` (``urn:uuid:…``) and
    ``sha256`` the ``sha256:`` hash of the record's payload, the body as fetched.
    """

    file: str
    record: str
    sha256: str


@dataclass(frozen=True, slots=True)
class Observation:
    """One fetch of an article as the ingest saw it, before the archive numbers and chains it.

    ``evidence`` says where the raw response is kept: an :class:`EvidenceRef`, or in a
    schema-1 revision the ``sha256:`` hash of a page that was kept inside the archive;
    ``encoding``
    the decoding decision, ``http`` the response facts (status, validators), ``signals``
    what the feeds and sitemaps listing the article claimed at the time (their ``updated``
    and ``lastmod`` dates; data/README.md), ``None`` when nothing was recorded.
    """

    url: str
    observed_at: datetime
    article: Article
    extractor: str
    evidence: EvidenceRef | str | None = None
    encoding: dict[str, JSON] | None = None
    http: dict[str, JSON] | None = None
    signals: dict[str, JSON] | None = None

    def __post_init__(self) -> None:
        if self.observed_at.tzinfo is None:
            raise ValueError("observed_at must be timezone-aware (UTC)")


@dataclass(frozen=True, slots=True)
class Revision:
    """One stored revision: an observation plus its place in the document's hash chain.

    ``hash`` covers every other field, ``previous`` is the predecessor's ``hash`` (``None``
    for revision 1), ``content_hash`` the fingerprint of title and blocks. ``schema`` is
    the file format it was stored in: revision files are never rewritten, so one read back
    keeps its schema to give the same bytes (and hash) again.
    """

    document: str
    number: int
    observation: Observation
    content_hash: str
    fingerprint: int
    previous: str | None
    hash: str
    schema: int = SCHEMA_VERSION

    @property
    def article(self) -> Article:
        return self.observation.article


EVENT_KINDS: Final = frozenset(
    {
        "flip-flop",  # the page went back to an earlier revision's content (A/B test, revert)
        "anomaly",  # a fetch that looked broken: empty, a consent or bot wall, text cut off
        "gone",  # 404 or 410: the article was taken down
        "restored",  # it came back after being gone
        "redirected",  # it now redirects to another article
        "feed-edit",  # the feed changed the entry's title or teaser
        "live-update",  # a live blog's new entries (and, with a revision, its layout)
        "homepage-headlines",  # the headlines a homepage showed for the article, once it left
        "archived",  # the Internet Archive made a copy of a revision's page (quietedit capture)
    }
)
"""What can happen to a document besides a new revision."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something observed about a document that is not a new revision of its text.

    ``revision`` names the revision the event refers to (the one a flip-flop went back
    to, the newest one when the article went away); ``detail`` holds the evidence.
    """

    document: str
    number: int
    kind: str
    observed_at: datetime
    revision: int | None = None
    detail: dict[str, JSON] = field(default_factory=dict)
    schema: int = SCHEMA_VERSION  # as Revision.schema

    def __post_init__(self) -> None:
        if self.kind not in EVENT_KINDS:
            raise ValueError(f"event kind {self.kind!r} is not one of {sorted(EVENT_KINDS)}")
        if self.observed_at.tzinfo is None:
            raise ValueError("observed_at must be timezone-aware (UTC)")
