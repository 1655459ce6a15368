"""The build cache: what the previous build made, and from which inputs.

It lives in ``<out>/.quietedit-cache/`` (a dot-folder: the Pages upload and ``quietedit
serve`` leave it out):

``state.json``
    a header line (schema, site-wide files) and then one line per document,
    ``<id> <stamp> <content key> <key> <files> <source> <JSON>`` (tab-separated), so that a build
    decides what to render before parsing any JSON, and re-serialises only the documents
    it rendered. Per document: its *stamp* (modification times of its folders: a cheap "unchanged"
    test), its *content key* (a hash of its record, newest revision file and newest
    event file: create-only, numbered files whose newest one fixes the series), its
    *key* (the content key with the build's fingerprint), how many files it has, its
    summary and its edits; per site-wide file the SHA-256 of its bytes and the key of its
    inputs.
``diffs/<id>.json``
    the document's computed comparisons, keyed by both revisions' hashes and the
    analysis version, so each diff is computed once.

The stamp only says when to recompute the content key; the content key is what decides.
A cache that cannot be read, or is of another schema, counts as absent: the build is
then a full one (every page rendered and compared with the bytes on disk); a document
whose summary or edits turn out damaged is rendered again.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from quietedit.model import JSON
from quietedit.publish.listing import DocumentSummary
from quietedit.publish.pages import Edit

logger = logging.getLogger(__name__)

CACHE_SCHEMA: Final = 2
STATE_FILE: Final = "state.json"
_OLD_FILES: Final = ("manifest.json", "summaries.json")  # schema 1's files


@dataclass(slots=True)
class DocumentEntry:
    """One document as a build left it. Read from the cache, its summary and edits stay
    JSON text until :meth:`parse` (the build looks at keys first, at edits later)."""

    stamp: str
    content: str
    key: str
    files: int
    source: str  # its source's slug (the search shards are planned before any parsing)
    parsed: tuple[DocumentSummary, list[Edit]] | None = None
    raw: str | None = None  # the JSON it was read from, written back as it was

    @classmethod
    def of(
        cls, stamp: str, content: str, key: str, files: int, *, summary: DocumentSummary,
        edits: list[Edit],
    ) -> DocumentEntry:  # fmt: skip
        """The entry of a document this build rendered."""
        return cls(stamp, content, key, files, summary.source, (summary, edits))

    def readable(self) -> bool:
        """Whether its summary and edits parse (a damaged entry is rendered again)."""
        try:
            self.parse()
        except (KeyError, IndexError, TypeError, ValueError):
            return False
        return True

    @property
    def summary(self) -> DocumentSummary:
        return self.parse()[0]

    @property
    def edits(self) -> list[Edit]:
        return self.parse()[1]

    def parse(self) -> tuple[DocumentSummary, list[Edit]]:
        """The summary and edits; ``ValueError`` when the cached JSON is damaged."""
        if self.parsed is None:
            row = json.loads(self.raw or "null")
            if not isinstance(row, list) or len(row) != 2:
                raise ValueError("document entry: not a summary and edits")
            summary, edits = row
            if not isinstance(summary, dict) or not isinstance(edits, list):
                raise ValueError("document entry: summary or edits of the wrong type")
            self.parsed = DocumentSummary.from_record(summary), [Edit.from_row(e) for e in edits]
        return self.parsed

    def line(self, doc: str) -> str:
        """Its line in ``state.json``."""
        raw = self.raw
        if raw is None:
            summary, edits = self.parse()
            row = [summary.to_record(), [edit.to_row() for edit in edits]]
            raw = json.dumps(row, separators=(",", ":"))
        fields = (doc, self.stamp, self.content, self.key, str(self.files), self.source, raw)
        return "\t".join(fields)

    @classmethod
    def from_line(cls, line: str) -> tuple[str, DocumentEntry]:
        """Read :meth:`line`'s output; ``ValueError`` when it is not one."""
        doc, stamp, content, key, files, source, raw = line.split("\t")
        return doc, cls(stamp, content, key, int(files), source, raw=raw)


@dataclass(slots=True)
class BuildState:
    """The cache's ``state.json``: documents by id and site-wide files by output path."""

    documents: dict[str, DocumentEntry] = field(default_factory=dict)
    site: dict[str, tuple[str, str]] = field(default_factory=dict)  # path → (digest, key)
    loaded: bool = False  # False: there was no usable cache

    @classmethod
    def load(cls, cache_root: Path) -> BuildState:
        """The previous build's state, or an empty one when absent, damaged or of another
        schema (logged: the build then renders everything)."""
        path = cache_root / STATE_FILE
        try:
            lines = path.read_text(encoding="utf-8").split("\n")
        except FileNotFoundError:
            return cls()
        except (OSError, ValueError) as exc:
            logger.warning("build cache %s unreadable (%s); building in full", path, exc)
            return cls()
        try:
            header = json.loads(lines[0])
            if not isinstance(header, dict) or header.get("schema") != CACHE_SCHEMA:
                raise ValueError(f"schema is not {CACHE_SCHEMA}")
            site = header["site"]
            if not isinstance(site, dict) or lines[-1] != "":
                raise ValueError("site is not an object, or the file is cut short")
            documents = dict(DocumentEntry.from_line(line) for line in lines[1:-1])
            return cls(documents, {p: _site_entry(entry) for p, entry in site.items()}, loaded=True)
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            logger.warning("build cache %s damaged (%s); building in full", path, exc)
            return cls()

    def save(self, cache_root: Path) -> None:
        """Write ``state.json`` atomically (and drop the files of the older schema)."""
        header = {
            "schema": CACHE_SCHEMA,
            "site": {path: list(entry) for path, entry in sorted(self.site.items())},
        }
        parts = [json.dumps(header, separators=(",", ":"))]
        parts += [entry.line(doc) for doc, entry in sorted(self.documents.items())]
        cache_root.mkdir(parents=True, exist_ok=True)
        tmp = cache_root / f"{STATE_FILE}.{os.getpid()}.tmp"
        tmp.write_text("\n".join(parts) + "\n", encoding="utf-8")
        tmp.replace(cache_root / STATE_FILE)
        for name in _OLD_FILES:
            (cache_root / name).unlink(missing_ok=True)


def _site_entry(entry: JSON) -> tuple[str, str]:
    if not isinstance(entry, list) or len(entry) != 2:
        raise ValueError("site entry: not a pair")
    return str(entry[0]), str(entry[1])


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
