"""The build cache: what the previous build made, and from which inputs.

It lives in ``<out>/.quietedit-cache/`` (a dot-folder: the Pages upload and ``quietedit
serve`` leave it out):

``state.bin``
    a magic line, a JSON header line (schema, Python version, payload size and CRC-32)
    and a ``marshal`` payload: per site-wide file the SHA-256 of its bytes and the
    key of its inputs; per document its *stamp* (modification times of its folders: a
    cheap "unchanged" test), its *content key* (a hash of its record, newest revision file
    and newest event file: create-only, numbered files whose newest one fixes the series),
    its *key* (the content key with the build's fingerprint), how many files it has, its
    summary, one :class:`~quietedit.publish.listing.EditRef` per edit and the edits' rows.
``diffs/<id>.json``
    the document's computed comparisons, keyed by both revisions' hashes and the
    analysis version, so each diff is computed once.

Why ``marshal``: the file holds every edit of the archive (30,000 at 10,000 documents) and
is read by every build; ``marshal`` reads tuples of strings ten times faster than JSON. It
runs no code (only tuples, lists and strings pass the checks); the checksum is against
damage, not forgery: the cache is as trusted as the site folder that holds it. The file
is private to the build and tied to the Python version (part of the header), and checked
before it is read: a cache that is absent, damaged (checksum), cut short (size), of another
schema or Python version, or of an unexpected shape counts as absent, and the build is
then a full one (every page rendered and compared with the bytes on disk).

The stamp only says when to recompute the content key; the content key is what decides.
Full :class:`~quietedit.publish.pages.Edit` values are made from the rows only for the
edits a build renders again (listing pages and feeds that changed).
"""

from __future__ import annotations

import hashlib
import json
import logging
import marshal
import os
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from quietedit.model import JSON
from quietedit.publish.listing import DocumentSummary, EditRef
from quietedit.publish.pages import Edit

logger = logging.getLogger(__name__)

CACHE_SCHEMA: Final = 3
STATE_FILE: Final = "state.bin"
_MAGIC: Final = b"quietedit build cache\n"
_PYTHON: Final = "{}.{}".format(*sys.version_info[:2])  # marshal's format may change with it
_OLD_FILES: Final = ("manifest.json", "summaries.json", "state.json")  # older schemas' files
_ROW_LENGTH: Final = len(Edit.__dataclass_fields__)

Record = tuple[Any, ...]
"""One document's entry as ``marshal`` stores it."""


@dataclass(slots=True)
class DocumentEntry:
    """One document as a build left it: keys, summary and edit references at once, the
    full edits (:attr:`edits`) only when asked for."""

    stamp: str
    content: str
    key: str
    files: int
    summary: DocumentSummary
    refs: tuple[EditRef, ...]  # one per edit, in the document's order
    rows: list[list[JSON]] | None = None  # the edits as read from the cache
    parsed: list[Edit] | None = None
    record: Record | None = None  # what it was read from, written back as it was

    @classmethod
    def of(
        cls, stamp: str, content: str, key: str, files: int, *, summary: DocumentSummary,
        edits: list[Edit], refs: tuple[EditRef, ...],
    ) -> DocumentEntry:  # fmt: skip
        """The entry of a document this build rendered."""
        return cls(stamp, content, key, files, summary, refs, parsed=edits)

    @property
    def source(self) -> str:
        return self.summary.source

    @property
    def edits(self) -> list[Edit]:
        """The document's edits (made from the cached rows on first use)."""
        if self.parsed is None:
            self.parsed = [Edit.from_row(row) for row in self.rows or ()]
        return self.parsed

    def edit(self, number: int) -> Edit:
        """The edit whose newer revision is ``number`` (``KeyError`` when there is none)."""
        for edit in self.edits:
            if edit.number == number:
                return edit
        raise KeyError(number)

    def restamped(self, stamp: str) -> DocumentEntry:
        """The entry under a new stamp (its folders' times moved, its content did not):
        recorded, so that the next build need not hash its content again."""
        if stamp == self.stamp:
            return self
        return DocumentEntry(
            stamp, self.content, self.key, self.files, self.summary, self.refs, self.rows,
            self.parsed,
        )  # fmt: skip

    def to_record(self, doc: str) -> Record:
        """Its record in ``state.bin``."""
        if self.record is not None:
            return self.record
        s = self.summary
        summary = (s.id, s.url, s.title, s.source, s.revisions, s.first_seen, s.last_seen,
                   tuple(sorted(s.events.items())))  # fmt: skip
        rows = [edit.to_row() for edit in self.edits]
        refs = tuple(tuple(ref) for ref in self.refs)
        return (doc, self.stamp, self.content, self.key, self.files, summary, refs, rows)

    @classmethod
    def from_record(cls, record: object) -> tuple[str, DocumentEntry]:
        """Read :meth:`to_record`'s output; ``ValueError`` when it is not one."""
        if not isinstance(record, tuple) or len(record) != 8:
            raise ValueError("document entry: not an 8-tuple")
        doc, stamp, content, key, files, summary, refs, rows = record
        # type() rather than isinstance(): ten thousand entries, and marshal makes no subclasses
        if not (type(doc) is type(stamp) is type(content) is type(key) is str):
            raise ValueError("document entry: id, stamp or keys are not text")
        if not isinstance(files, int) or not isinstance(summary, tuple) or len(summary) != 8:
            raise ValueError("document entry: files or summary of the wrong type")
        sid, url, title, source, revisions, first_seen, last_seen, events = summary
        if sid != doc or not isinstance(revisions, int) or not isinstance(events, tuple):
            raise ValueError("document entry: summary of another document, or of the wrong type")
        if not (type(title) is type(source) is type(first_seen) is type(last_seen) is str):
            raise ValueError("document entry: summary fields are not text")
        summary_value = DocumentSummary(
            doc, url if isinstance(url, str) else None, title, source, revisions, first_seen,
            last_seen, {str(k): int(v) for k, v in events},
        )  # fmt: skip
        if not isinstance(refs, tuple) or not isinstance(rows, list) or len(refs) != len(rows):
            raise ValueError("document entry: edit references and rows do not match")
        edit_refs = tuple([_ref(r, doc) for r in refs])
        if len({r.number for r in edit_refs}) != len(edit_refs):
            raise ValueError("document entry: two edits of one number")
        return doc, cls(
            stamp, content, key, files, summary_value, edit_refs, [_row(r) for r in rows],
            record=record,
        )  # fmt: skip


def _ref(value: object, doc: str) -> EditRef:
    # compared with one another when sorted: every field must have its type
    if not isinstance(value, tuple) or len(value) != len(EditRef._fields):
        raise ValueError("edit reference: wrong shape")
    ref = EditRef._make(value)
    if not (
        type(ref.day) is str
        and type(ref.rank) is int
        and type(ref.observed_at) is str
        and ref.document == doc
        and type(ref.number) is int
        and type(ref.source) is str
        and type(ref.kinds) is tuple
        and type(ref.delay) is int
        and type(ref.digest) is str
    ):
        raise ValueError("edit reference: a field of the wrong type")
    return ref


def _row(value: object) -> list[JSON]:
    # the checks Edit.from_row makes, done now so that reading the edits later cannot fail
    if not (
        type(value) is list
        and len(value) == _ROW_LENGTH
        and type(value[1]) is int
        and type(value[10]) is int
        and type(value[8]) is list
        and type(value[12]) is list
    ):
        raise ValueError("edit row: wrong shape")
    return value


@dataclass(slots=True)
class BuildState:
    """The cache's ``state.bin``: documents by id and site-wide files by output path."""

    documents: dict[str, DocumentEntry] = field(default_factory=dict)
    site: dict[str, tuple[str, str]] = field(default_factory=dict)  # path → (digest, key)
    loaded: bool = False  # False: there was no usable cache

    @classmethod
    def load(cls, cache_root: Path) -> BuildState:
        """The previous build's state, or an empty one when absent, damaged or of another
        schema or Python version (logged: the build then renders everything)."""
        path = cache_root / STATE_FILE
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return cls()
        except OSError as exc:
            logger.warning("build cache %s unreadable (%s); building in full", path, exc)
            return cls()
        try:
            return cls._parse(data)
        except (EOFError, KeyError, IndexError, TypeError, ValueError) as exc:
            logger.warning("build cache %s not usable (%s); building in full", path, exc)
            return cls()

    @classmethod
    def _parse(cls, data: bytes) -> BuildState:
        if not data.startswith(_MAGIC):
            raise ValueError("not a build cache file")
        end = data.find(b"\n", len(_MAGIC))
        header = json.loads(data[len(_MAGIC) : end]) if end > 0 else None
        payload = memoryview(data)[end + 1 :]  # not copied: it is most of the file
        if not isinstance(header, dict):
            raise ValueError("no header")
        if header.get("schema") != CACHE_SCHEMA or header.get("python") != _PYTHON:
            raise ValueError(
                f"schema {header.get('schema')} for Python {header.get('python')}, "
                f"not {CACHE_SCHEMA} for {_PYTHON}"
            )
        if header.get("size") != len(payload) or header.get("crc32") != zlib.crc32(payload):
            raise ValueError("cut short or damaged (size or checksum differs)")
        site, documents = marshal.loads(payload)  # noqa: S302 - checked, our own file
        if not isinstance(site, tuple) or not isinstance(documents, tuple):
            raise ValueError("payload of the wrong shape")
        site_entries = {}
        for entry in site:
            path, digest, key = entry
            if not all(isinstance(v, str) for v in entry):
                raise ValueError("site entry: not text")
            site_entries[path] = (digest, key)
        docs = dict(DocumentEntry.from_record(record) for record in documents)
        return cls(docs, site_entries, loaded=True)

    def save(self, cache_root: Path) -> None:
        """Write ``state.bin`` atomically (and drop the files of older schemas)."""
        site = tuple((p, d, k) for p, (d, k) in sorted(self.site.items()))
        documents = tuple(e.to_record(doc) for doc, e in sorted(self.documents.items()))
        payload = marshal.dumps((site, documents), 4)
        header = {
            "crc32": zlib.crc32(payload),
            "python": _PYTHON,
            "schema": CACHE_SCHEMA,
            "size": len(payload),
        }
        head = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
        cache_root.mkdir(parents=True, exist_ok=True)
        tmp = cache_root / f"{STATE_FILE}.{os.getpid()}.tmp"
        with open(tmp, "wb") as handle:
            handle.write(_MAGIC + head + b"\n")
            handle.write(payload)
        tmp.replace(cache_root / STATE_FILE)
        for name in _OLD_FILES:
            (cache_root / name).unlink(missing_ok=True)


def document_key(fingerprint: str, content: str) -> str:
    """The key of a document's pages: its content key under this build's fingerprint."""
    return hashlib.sha256(f"{fingerprint}\0{content}".encode()).hexdigest()


def stamp(home: str) -> str | None:
    """Modification times of the document's record and its revision and event folders, or
    ``None`` when ``home`` holds no ``document.json`` (not a document).

    A new revision or event changes its folder's time, a rewritten record (replaced by a
    rename) its own; so an unchanged stamp means unchanged files, short of someone
    resetting times by hand (``--full`` is for that).
    """
    try:
        times = [str(os.stat(os.path.join(home, "document.json")).st_mtime_ns)]
    except FileNotFoundError:
        return None
    for name in ("revisions", "events"):
        try:
            times.append(str(os.stat(os.path.join(home, name)).st_mtime_ns))
        except FileNotFoundError:
            times.append("-")
    return " ".join(times)


def content_key(home: str) -> str:
    """Hash of everything a document's pages depend on, without parsing its revisions."""
    digest = hashlib.sha256()
    with open(os.path.join(home, "document.json"), "rb") as handle:
        digest.update(handle.read())
    for kind in ("revisions", "events"):
        folder = os.path.join(home, kind)
        try:
            names = [n for n in os.listdir(folder) if n.endswith(".json")]
        except FileNotFoundError:
            names = []
        digest.update(f"\0{len(names)}\0".encode())
        if names:
            # create-only files: the names fix the set, the newest file's bytes (its
            # hash chains every older revision) fix the content
            newest = max(names, key=lambda n: (len(n), n))  # numbers may outgrow the padding
            digest.update(newest.encode() + b"\0")
            with open(os.path.join(folder, newest), "rb") as handle:
                digest.update(handle.read())
    return digest.hexdigest()


def code_fingerprint(folder: Path) -> str:
    """A hash of the ``*.py`` files in ``folder``: changed code re-renders every page."""
    digest = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()
