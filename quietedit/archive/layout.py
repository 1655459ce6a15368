"""Where each kind of file lives in ``data/`` — the one module that knows the layout (pure).

::

    README.md                                   what this folder is (data/README.md)
    documents/<id>/document.json                the document's mutable record (atomic rewrites)
    documents/<id>/revisions/<NNNNNN>.json      one observed revision (create-only)
    documents/<id>/events/<NNNNNN>.json         one event: flip-flop, anomaly, gone (create-only)
    documents/<id>/evidence/<sha256>-<id>.html  raw fetched bytes, content-addressed (create-only)
    feeds/<slug>.json                           one feed's mutable state (atomic rewrites)
    state/<name>.json                           run-level mutable state (atomic rewrites)
    .tmp/                                       temp files of writes in progress (never committed)

Every path is built from validated parts, so no id, slug or name can leave the folder.
"""

from __future__ import annotations

import re
from enum import Enum
from pathlib import Path, PurePosixPath
from typing import Final

from quietedit.archive.records import HASH_PATTERN
from quietedit.article.identity import is_document_id
from quietedit.errors import UnsafePathError

REVISION_DIGITS: Final = 6
SLUG_PATTERN: Final = re.compile(r"[a-z0-9][a-z0-9-]{0,62}")
STATE_NAME_PATTERN: Final = SLUG_PATTERN
TMP_DIR: Final = ".tmp"
DOCUMENT_FILE: Final = "document.json"
REVISIONS_FOLDER: Final = "revisions"
EVENTS_FOLDER: Final = "events"


class PathKind(Enum):
    """What a path inside the archive is, and so which rules apply to it."""

    README = "readme"
    DOCUMENT = "document"
    REVISION = "revision"
    EVENT = "event"
    EVIDENCE = "evidence"
    FEED = "feed"
    STATE = "state"
    TEMP = "temp"

    @property
    def create_only(self) -> bool:
        """Whether files of this kind are written once and never modified or deleted."""
        return self in (PathKind.REVISION, PathKind.EVENT, PathKind.EVIDENCE)


_PATTERNS: Final = (
    (PathKind.README, re.compile(r"README\.md")),
    (PathKind.DOCUMENT, re.compile(r"documents/(?P<id>[^/]+)/document\.json")),
    (
        PathKind.REVISION,
        re.compile(r"documents/(?P<id>[^/]+)/revisions/(?P<number>[0-9]{6,})\.json"),
    ),
    (
        PathKind.EVENT,
        re.compile(r"documents/(?P<id>[^/]+)/events/(?P<number>[0-9]{6,})\.json"),
    ),
    (
        PathKind.EVIDENCE,
        re.compile(r"documents/(?P<id>[^/]+)/evidence/(?P<hex>[0-9a-f]{64})-(?P<tail>[^/]+)\.html"),
    ),
    (PathKind.FEED, re.compile(r"feeds/(?P<slug>[^/]+)\.json")),
    (PathKind.STATE, re.compile(r"state/(?P<name>[^/]+)\.json")),
    (PathKind.TEMP, re.compile(rf"{re.escape(TMP_DIR)}/.*")),
)


def classify_path(relative: PurePosixPath) -> tuple[PathKind, dict[str, str]] | None:
    """The kind of a file at ``relative`` (POSIX, relative to the archive) and its parts.

    ``None`` when the layout has no place for such a file. Parts are not validated here:
    a document folder with an invalid id is classified, then reported by ``verify``.
    """
    text = relative.as_posix()
    for kind, pattern in _PATTERNS:
        match = pattern.fullmatch(text)
        if match:
            return kind, match.groupdict()
    return None


class Layout:
    """Builds the path of every archive file below ``root`` from validated parts."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def tmp_dir(self) -> Path:
        return self.root / TMP_DIR

    @property
    def documents_dir(self) -> Path:
        return self.root / "documents"

    def document_dir(self, document: str) -> Path:
        if not is_document_id(document):
            raise UnsafePathError(
                self.documents_dir / repr(document),
                f"{document!r} is not a document id (expected <host>-<16 hex digits>)",
            )
        return self.documents_dir / document

    def document_file(self, document: str) -> Path:
        return self.document_dir(document) / DOCUMENT_FILE

    def revisions_dir(self, document: str) -> Path:
        return self.document_dir(document) / REVISIONS_FOLDER

    def revision_file(self, document: str, number: int) -> Path:
        if number < 1:
            raise UnsafePathError(self.revisions_dir(document), f"revision {number} < 1")
        return self.revisions_dir(document) / f"{number:0{REVISION_DIGITS}d}.json"

    def events_dir(self, document: str) -> Path:
        return self.document_dir(document) / EVENTS_FOLDER

    def event_file(self, document: str, number: int) -> Path:
        if number < 1:
            raise UnsafePathError(self.events_dir(document), f"event {number} < 1")
        return self.events_dir(document) / f"{number:0{REVISION_DIGITS}d}.json"

    def evidence_dir(self, document: str) -> Path:
        return self.document_dir(document) / "evidence"

    def evidence_file(self, document: str, hash_: str) -> Path:
        """Where the raw bytes hashing to ``hash_`` observed for ``document`` are kept.

        The name ends with the document id because git pairs files for delta compression
        by the end of their path: successive pages of one article then pack as deltas of
        each other (bench/archive_growth.py: about 6x smaller than hash-only names).
        """
        if not HASH_PATTERN.fullmatch(hash_):
            raise UnsafePathError(
                self.evidence_dir(document), f"{hash_!r} is not a sha256:<64 hex digits> hash"
            )
        hex_ = hash_.removeprefix("sha256:")
        return self.evidence_dir(document) / f"{hex_}-{document}.html"

    def feed_file(self, slug: str) -> Path:
        if not SLUG_PATTERN.fullmatch(slug):
            raise UnsafePathError(
                self.root / "feeds",
                f"{slug!r} is not a feed slug ([a-z0-9-], 1-63 chars)",
            )
        return self.root / "feeds" / f"{slug}.json"

    def state_file(self, name: str) -> Path:
        if not STATE_NAME_PATTERN.fullmatch(name):
            raise UnsafePathError(
                self.root / "state",
                f"{name!r} is not a state name ([a-z0-9-], 1-63 chars)",
            )
        return self.root / "state" / f"{name}.json"
