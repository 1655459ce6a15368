"""``quietedit verify``: check every file of the archive against its schema, hashes and chain.

Reads only; reports every problem it finds as a ``Problem`` (path and message), sorted,
so the same archive always gives the same report.
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from quietedit.archive.layout import (
    REVISION_DIGITS,
    SLUG_PATTERN,
    PathKind,
    classify_path,
)
from quietedit.archive.records import (
    check_event_record,
    check_revision_record,
    check_state_record,
    digest,
    dump_json,
)
from quietedit.archive.store import load_json
from quietedit.article.identity import document_id, is_document_id
from quietedit.errors import ArchiveError
from quietedit.model import JSON, parse_timestamp


@dataclass(frozen=True, slots=True, order=True)
class Problem:
    """One thing wrong with one file (or folder) of the archive."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


@dataclass
class _Document:
    record: Path | None = None
    revisions: dict[int, Path] = field(default_factory=dict)
    events: dict[int, Path] = field(default_factory=dict)
    evidence: bool = False


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """What ``verify_archive`` looked at and every problem it found, sorted."""

    problems: tuple[Problem, ...]
    documents: int
    revisions: int
    evidence: int

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_archive(root: Path) -> VerifyReport:
    """Check the archive at ``root``; a report without problems means it is sound.

    Checked: each file has a place in the layout and is a regular file; every JSON file
    is in the one deterministic form; records match their schema; revision hashes,
    content hashes and the chain of ``previous`` hashes recompute; revisions are numbered
    1..n without gaps, never repeat their predecessor's content and never go back in
    time; no revision lacks its document record or references missing evidence; every
    evidence file's name starts with the hash of its bytes.
    """
    if not root.is_dir():
        missing = Problem(str(root), "no such archive folder; pass --data or run an ingest first")
        return VerifyReport(problems=(missing,), documents=0, revisions=0, evidence=0)
    checker = _Checker(root)
    checker.run()
    return VerifyReport(
        problems=tuple(sorted(set(checker.problems))),
        documents=len(checker.documents),
        revisions=sum(len(document.revisions) for document in checker.documents.values()),
        evidence=checker.evidence_files,
    )


class _Checker:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.problems: list[Problem] = []
        self.documents: dict[str, _Document] = defaultdict(_Document)
        self.evidence_referenced: dict[tuple[str, str], Path] = {}
        self.evidence_files = 0

    def report(self, path: Path, message: str) -> None:
        self.problems.append(Problem(str(path), message))

    def run(self) -> None:
        for path in self._files():
            self._check_file(path)
        for name in sorted(self.documents):
            self._check_document(name, self.documents[name])
        for (name, hash_), referrer in sorted(self.evidence_referenced.items()):
            hex_ = hash_.removeprefix("sha256:")
            stored = self.root / "documents" / name / "evidence" / f"{hex_}-{name}.html"
            if not stored.is_file():
                self.report(referrer, f"evidence {hash_} is missing from the document's evidence/")

    def _files(self) -> list[Path]:
        found: list[Path] = []
        for folder, dirs, files in os.walk(self.root):
            here = Path(folder)
            if here == self.root and ".tmp" in dirs:
                dirs.remove(".tmp")  # writes in progress or interrupted: never archive content
            for name in sorted(dirs):
                if (here / name).is_symlink():
                    self.report(
                        here / name,
                        "is a symbolic link; the archive holds only real folders",
                    )
                    dirs.remove(name)
            found.extend(here / name for name in files)
        return sorted(found)

    def _check_file(self, path: Path) -> None:
        relative = PurePosixPath(path.relative_to(self.root).as_posix())
        if path.is_symlink() or not path.is_file():
            self.report(path, "is not a regular file; the archive holds only regular files")
            return
        placed = classify_path(relative)
        if placed is None:
            self.report(
                path,
                "unexpected file: the archive layout has no place for it (see data/README.md)",
            )
            return
        kind, parts = placed
        if kind is PathKind.DOCUMENT:
            self.documents[parts["id"]].record = path
        elif kind is PathKind.REVISION:
            number = int(parts["number"])
            if parts["number"] != f"{number:0{REVISION_DIGITS}d}" or number < 1:
                self.report(
                    path,
                    f"revision file name must be {REVISION_DIGITS} digits from 000001",
                )
            else:
                self.documents[parts["id"]].revisions[number] = path
        elif kind is PathKind.EVENT:
            number = int(parts["number"])
            if parts["number"] != f"{number:0{REVISION_DIGITS}d}" or number < 1:
                self.report(path, f"event file name must be {REVISION_DIGITS} digits from 000001")
            else:
                self.documents[parts["id"]].events[number] = path
        elif kind is PathKind.EVIDENCE:
            self._check_evidence(path, parts)
        elif kind is PathKind.FEED:
            self._check_state(path, kind="feed", key="slug", expected=parts["slug"])
        elif kind is PathKind.STATE:
            self._check_state(path, kind="state", key="name", expected=parts["name"])

    def _load(self, path: Path) -> JSON | None:
        """The parsed file, or ``None`` after reporting why it cannot be read."""
        try:
            record = load_json(path)
        except ArchiveError as exc:
            self.report(path, exc.message)
            return None
        try:
            canonical = dump_json(record) if isinstance(record, dict) else None
        except ValueError:
            canonical = None
        if canonical is not None and canonical != path.read_bytes():
            self.report(
                path,
                "not in canonical form (sorted keys, 2-space indent, final newline); "
                "was it edited by hand?",
            )
        return record

    def _check_evidence(self, path: Path, parts: dict[str, str]) -> None:
        self.evidence_files += 1
        self.documents[parts["id"]].evidence = True
        if parts["tail"] != parts["id"]:
            self.report(path, f"evidence of this folder must be named <sha256>-{parts['id']}.html")
        actual = digest(path.read_bytes())
        if actual != "sha256:" + parts["hex"]:
            self.report(path, f"evidence bytes hash to {actual}, not to the file's name")

    def _check_state(self, path: Path, *, kind: str, key: str, expected: str) -> None:
        if not SLUG_PATTERN.fullmatch(expected):
            self.report(path, f"{expected!r} is not a valid {key} ([a-z0-9-], 1-63 chars)")
        record = self._load(path)
        if record is None:
            return
        for message in check_state_record(record, kind=kind):
            self.report(path, message)
        if isinstance(record, dict) and record.get(key) != expected:
            self.report(path, f"{key}: {record.get(key)!r} does not match the file name")

    def _check_document(self, name: str, document: _Document) -> None:
        folder = self.root / "documents" / name
        if not is_document_id(name):
            self.report(folder, "folder name is not a document id (<host>-<16 hex digits>)")
            return
        if document.record is None:
            if document.revisions or document.events or document.evidence:
                self.report(folder, "orphan files: the folder has no document.json")
        else:
            self._check_document_record(name, document.record)
        self._check_revisions(name, document.revisions)
        self._check_events(name, document.events, revisions=len(document.revisions))

    def _check_document_record(self, name: str, path: Path) -> None:
        record = self._load(path)
        if record is None:
            return
        for message in check_state_record(record, kind="document"):
            self.report(path, message)
        if not isinstance(record, dict):
            return
        if record.get("id") != name:
            self.report(path, f"id: {record.get('id')!r} does not match the folder name")
        url = record.get("url")
        if not isinstance(url, str):
            self.report(path, f"url: {url!r} is not a string")
        elif document_id(url) != name:
            self.report(path, f"url: {url!r} has id {document_id(url)}, not the folder's")

    def _check_revisions(self, name: str, paths: dict[int, Path]) -> None:
        if not paths:
            return
        folder = self.root / "documents" / name / "revisions"
        missing = sorted(set(range(1, max(paths) + 1)) - set(paths))
        for number in missing:
            self.report(
                folder / f"{number:0{REVISION_DIGITS}d}.json",
                "missing: revisions must run 1..n without gaps (deleted?)",
            )
        previous: dict[str, JSON] | None = None
        for number in sorted(paths):
            record = self._check_revision(name, number, paths[number])
            if previous is not None and record is not None and previous["number"] == number - 1:
                self._check_link(paths[number], previous, record)
            previous = record

    def _check_events(self, name: str, paths: dict[int, Path], *, revisions: int) -> None:
        if not paths:
            return
        folder = self.root / "documents" / name / "events"
        for number in sorted(set(range(1, max(paths) + 1)) - set(paths)):
            self.report(
                folder / f"{number:0{REVISION_DIGITS}d}.json",
                "missing: events must run 1..n without gaps (deleted?)",
            )
        for number, path in sorted(paths.items()):
            record = self._load(path)
            if record is None:
                continue
            problems = check_event_record(record)
            for message in problems:
                self.report(path, message)
            if problems or not isinstance(record, dict):
                continue
            if record["document"] != name:
                self.report(path, f"document: {record['document']!r} is not this folder's id")
            if record["number"] != number:
                self.report(path, f"number: {record['number']!r} does not match the file name")
            revision = record["revision"]
            if isinstance(revision, int) and revision > revisions:
                self.report(
                    path, f"revision: {revision} does not exist (the document has {revisions})"
                )

    def _check_revision(self, name: str, number: int, path: Path) -> dict[str, JSON] | None:
        record = self._load(path)
        if record is None:
            return None
        problems = check_revision_record(record)
        for message in problems:
            self.report(path, message)
        if problems or not isinstance(record, dict):
            return None
        if record["document"] != name:
            self.report(path, f"document: {record['document']!r} is not this folder's id")
        if record["number"] != number:
            self.report(path, f"number: {record['number']!r} does not match the file name")
            return None
        if record["evidence"] is not None:
            self.evidence_referenced.setdefault((name, str(record["evidence"])), path)
        return record

    def _check_link(self, path: Path, before: dict[str, JSON], after: dict[str, JSON]) -> None:
        if after["previous"] != before["hash"]:
            self.report(
                path,
                f"previous: {after['previous']} breaks the chain; "
                f"revision {before['number']} has hash {before['hash']}",
            )
        if after["content_hash"] == before["content_hash"]:
            self.report(
                path,
                f"content_hash equals revision {before['number']}'s: "
                "a revision must change the content",
            )
        if parse_timestamp(str(after["observed_at"])) < parse_timestamp(str(before["observed_at"])):
            self.report(
                path,
                f"observed_at {after['observed_at']} is earlier than revision {before['number']}'s",
            )
