"""``quietedit verify``: check every file of the archive against its schema, hashes and chain.

Reads only; reports every problem it finds as a ``Problem`` (path and message), sorted,
so the same archive always gives the same report. This is the full check, which reads
every file; ``quietedit verify --since REV`` checks only what changed
(:func:`quietedit.archive.audit.verify_since`).
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from quietedit.archive.checks import (
    FLAT_DOCUMENTS,
    INDEX_NAMES,
    LEGACY_INDEX,
    SCHEMA_1_ARCHIVE,
    UNFINISHED_MIGRATION,
    Problem,
    checks_file_documents,
    checks_file_problems,
    departed_problems,
    document_problems,
    event_problems,
    index_entries,
    index_problems,
    link_problems,
    numbered_name_problem,
    parse_record,
    partition_problem,
    revision_problems,
    state_problems,
)
from quietedit.archive.derived import derived_link_problems, derived_problems
from quietedit.archive.layout import (
    DERIVED_FOLDER,
    DOCUMENTS_DIR,
    EVENTS_FOLDER,
    INDEX_DIR,
    REVISION_DIGITS,
    REVISIONS_FOLDER,
    TMP_DIR,
    PathKind,
    bucket_of,
    classify_flat_path,
    classify_legacy_path,
    classify_path,
    index_file_shard,
    legacy_index_path,
    revision_name,
)
from quietedit.archive.records import evidence_from_record
from quietedit.article.identity import is_document_id
from quietedit.model import JSON
from quietedit.revisions import EvidenceRef

__all__ = ["Problem", "VerifyReport", "verify_archive"]


@dataclass
class _Document:
    folder: Path | None = None
    record: Path | None = None
    revisions: dict[int, Path] = field(default_factory=dict)
    events: dict[int, Path] = field(default_factory=dict)
    derived: dict[int, Path] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """What a check looked at and every problem it found, sorted.

    ``documents`` and ``revisions`` count what was read, ``evidence`` the revisions that
    name evidence, ``references`` each of those (the revision file's path, the reference:
    a WARC record, or a schema-1 page hash) for ``verify --evidence`` to look up.
    """

    problems: tuple[Problem, ...]
    documents: int
    revisions: int
    evidence: int
    partitions: int = 0
    references: tuple[tuple[str, EvidenceRef | str], ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


def verify_archive(root: Path) -> VerifyReport:
    """Check the archive at ``root``; a report without problems means it is sound.

    Checked: each file has a place in the layout and is a regular file; every JSON file
    is in the one deterministic form; records match their schema; revision hashes,
    content hashes and the chain of ``previous`` hashes recompute; revisions are numbered
    1..n without gaps, never repeat their predecessor's content and never go back in
    time; no revision or event lacks its document record; each document folder is in the
    partition of its record's ``discovered_at`` and the index names that partition for it
    (an entry whose folder is nowhere is a registration a crash cut short, and allowed);
    index shards are well-formed. A schema-1 archive is one problem: migrate it.
    """
    if not root.is_dir():
        missing = Problem(str(root), "no such archive folder; pass --data or run an ingest first")
        return VerifyReport(problems=(missing,), documents=0, revisions=0, evidence=0)
    checker = _Checker(root)
    checker.run()
    documents = checker.documents.values()
    return VerifyReport(
        problems=tuple(sorted(set(checker.problems))),
        documents=len(checker.documents),
        revisions=sum(len(document.revisions) for document in documents),
        evidence=len(checker.references),
        partitions=len({partition for partition, _ in checker.documents}),
        references=tuple(sorted(checker.references, key=lambda reference: reference[0])),
    )


class _Checker:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.problems: list[Problem] = []
        self.documents: dict[tuple[str, str], _Document] = defaultdict(_Document)
        self.index: dict[str, str] = {}
        self.checks: list[tuple[Path, str, str]] = []  # (checks file, partition, id named)
        self.legacy: set[str] = set()
        self.legacy_state: list[Path] = []  # schema-1 feed and state files
        self.legacy_index: list[Path] = []  # schema-2 index files, index/<hh>.json
        self.flat: set[Path] = set()  # document folders not in their bucket yet
        self.references: list[tuple[str, EvidenceRef | str]] = []

    def report(self, path: Path, message: str) -> None:
        self.problems.append(Problem(str(path), message))

    def run(self) -> None:
        for path in self._files():
            self._check_file(path)
        if self.legacy or self.legacy_state:
            # everything else follows from the migration: one problem says what to do
            started = bool(self.documents) or (self.root / INDEX_DIR).is_dir()
            message = UNFINISHED_MIGRATION if started else SCHEMA_1_ARCHIVE
            count = len(self.legacy)
            if count:
                plural = "s" if count != 1 else ""
                what = f"{count} document folder{plural} in the schema-1 layout documents/<id>/"
            else:  # a migration stopped while it rewrote the feed and state files
                count = len(self.legacy_state)
                what = f"{count} feed or state file{'s' if count != 1 else ''} still schema 1"
            self.problems = [Problem(str(self.root / DOCUMENTS_DIR), f"{message} ({what})")]
            return
        for (partition, name), document in sorted(self.documents.items()):
            self._check_document(partition, name, document)
        self._check_index()
        if self.flat:  # read and checked where they are: one problem says what to do
            count = len(self.flat)
            self.report(
                self.root / DOCUMENTS_DIR,
                f"{count} document folder{'s' * (count != 1)} {FLAT_DOCUMENTS}",
            )
        if self.legacy_index:  # their entries were read: one problem says what to do
            count = len(self.legacy_index)
            self.report(self.root / INDEX_DIR, f"{LEGACY_INDEX} ({count} file{'s' * (count != 1)})")
        for path, partition, name in self.checks:
            if (partition, name) not in self.documents:
                self.report(path, f"documents.{name}: no such document in this partition")

    def _files(self) -> list[Path]:
        found: list[Path] = []
        for folder, dirs, files in os.walk(self.root):
            here = Path(folder)
            if here == self.root and TMP_DIR in dirs:
                dirs.remove(TMP_DIR)  # writes in progress or interrupted: never archive content
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
        if placed is None and legacy_index_path(relative) is not None:
            self.legacy_index.append(path)
            self._check_shard(path, relative, legacy=True)
            return
        if placed is None:
            placed = classify_flat_path(relative)
            if placed is not None:  # read where it is until quietedit migrate moves it
                self.flat.add(path.parents[0 if placed[0] is PathKind.DOCUMENT else 1])
        if placed is None:
            legacy = classify_legacy_path(relative)
            if legacy is not None:
                self.legacy.add(legacy[1]["id"])
            else:
                self.report(
                    path,
                    "unexpected file: the archive layout has no place for it (see data/README.md)",
                )
            return
        kind, parts = placed
        if kind in (PathKind.DOCUMENT, PathKind.REVISION, PathKind.EVENT, PathKind.DERIVED):
            document = self.documents[parts["partition"], parts["id"]]
            folder = path.parents[0 if kind is PathKind.DOCUMENT else 1]
            if document.folder is None:
                document.folder = folder
            elif document.folder != folder:  # in its bucket and directly in its partition
                self.report(folder, f"a second folder of the document; the first is "
                            f"{document.folder}")  # fmt: skip
                return
            if kind is PathKind.DOCUMENT:
                document.record = path
            else:
                what, series = {
                    PathKind.REVISION: ("revision", document.revisions),
                    PathKind.EVENT: ("event", document.events),
                    PathKind.DERIVED: ("derived record", document.derived),
                }[kind]
                problem = numbered_name_problem(
                    parts["number"], what=what, tail=parts.get("tail"), document=parts["id"]
                )
                if problem is not None:
                    self.report(path, problem)
                else:
                    series[int(parts["number"])] = path
        elif kind is PathKind.INDEX:
            self._check_shard(path, relative)
        elif kind is PathKind.CHECKS:
            self._check_checks(path, parts["partition"])
        elif kind is PathKind.FEED:
            self._check_state(path, kind="feed", key="slug", expected=parts["slug"])
        elif kind is PathKind.DEPARTED:
            self._check_departed(path, slug=parts["slug"], day=parts["partition"])
        elif kind is PathKind.STATE:
            self._check_state(path, kind="state", key="name", expected=parts["name"])

    def _load(self, path: Path) -> JSON | None:
        """The parsed file, or ``None`` after reporting why it cannot be read; its form
        (canonical or not) is reported too."""
        try:
            data = path.read_bytes()
        except OSError as exc:
            self.report(path, f"cannot read: {exc.strerror}")
            return None
        record, problems = parse_record(data)
        for message in problems:
            self.report(path, message)
        return record

    def _check_shard(self, path: Path, relative: PurePosixPath, *, legacy: bool = False) -> None:
        """An index file; a schema-2 one (``legacy``) gives its entries, and is reported
        once for all (``quietedit migrate`` moves them)."""
        shard = None if legacy else index_file_shard(relative)
        if shard is None and not legacy:
            self.report(path, f"unexpected file: {INDEX_NAMES}")
            return
        record = self._load(path)
        if record is None:
            return
        for message in [] if shard is None else index_problems(record, shard=shard):
            self.report(path, message)
        for document, partition in index_entries(record).items():
            named = self.index.setdefault(document, partition)
            if named != partition:
                self.report(path, f"documents.{document}: {partition}, but another file of "
                            f"the shard says {named}")  # fmt: skip

    def _check_checks(self, path: Path, partition: str) -> None:
        record = self._load(path)
        if record is None:
            return
        for message in checks_file_problems(record, name=path.name, partition=partition):
            self.report(path, message)
        self.checks.extend((path, partition, doc) for doc in checks_file_documents(record))

    def _check_departed(self, path: Path, *, slug: str, day: str) -> None:
        record = self._load(path)
        if record is not None:
            for message in departed_problems(record, slug=slug, day=day):
                self.report(path, message)

    def _check_state(self, path: Path, *, kind: str, key: str, expected: str) -> None:
        record = self._load(path)
        if isinstance(record, dict) and record.get("schema") == 1 and record.get("type") == kind:
            self.legacy_state.append(path)  # left for quietedit migrate to rewrite
            return
        if record is not None:
            for message in state_problems(record, kind=kind, key=key, expected=expected):
                self.report(path, message)

    def _check_document(self, partition: str, name: str, document: _Document) -> None:
        folder = document.folder or self.root / DOCUMENTS_DIR / partition / name
        problem = partition_problem(partition)
        if problem is not None:
            self.report(self.root / DOCUMENTS_DIR / partition, problem)
            return
        if not is_document_id(name):
            self.report(folder, "folder name is not a document id (<host>-<16 hex digits>)")
            return
        if folder.parent.name != bucket_of(name) and folder not in self.flat:
            self.report(folder, f"in bucket {folder.parent.name}, not {bucket_of(name)} "
                        "(the first two hex digits of the id's hash part)")  # fmt: skip
        if document.record is None:
            self.report(folder, "orphan files: the folder has no document.json")
        else:
            record = self._load(document.record)
            if record is not None:
                for message in document_problems(record, document=name, partition=partition):
                    self.report(document.record, message)
        named = self.index.get(name)
        if named is None:
            self.report(folder, "no index entry: the index does not know this document")
        elif named != partition:
            self.report(folder, f"the index puts this document in partition {named}, not here")
        revisions = self._check_revisions(folder, name, document.revisions)
        self._check_events(folder, name, document.events, revisions=len(document.revisions))
        self._check_derived(folder, name, document.derived, revisions=revisions)

    def _check_index(self) -> None:
        """An entry naming a partition without the folder, while the document's folder
        is in another partition, points readers to the wrong place (reported once, at the
        folder, by ``_check_document``); one document in two partitions is reported here."""
        homes: dict[str, list[str]] = defaultdict(list)
        for partition, name in self.documents:
            homes[name].append(partition)
        for name, partitions in sorted(homes.items()):
            if len(partitions) > 1:
                self.report(
                    self.root / DOCUMENTS_DIR,
                    f"{name} has folders in {len(partitions)} partitions: "
                    f"{', '.join(sorted(partitions))}",
                )

    def _check_revisions(
        self, folder: Path, name: str, paths: dict[int, Path]
    ) -> dict[int, dict[str, JSON]]:
        """Check the revisions; the sound ones' records by number."""
        sound: dict[int, dict[str, JSON]] = {}
        if not paths:
            return sound
        for number in sorted(set(range(1, max(paths) + 1)) - set(paths)):
            self.report(
                folder / REVISIONS_FOLDER / revision_name(name, number),
                "missing: revisions must run 1..n without gaps (deleted?)",
            )
        previous: dict[str, JSON] | None = None
        for number in sorted(paths):
            record = self._check_revision(name, number, paths[number])
            if previous is not None and record is not None and previous["number"] == number - 1:
                for message in link_problems(previous, record):
                    self.report(paths[number], message)
            previous = record
            if record is not None:
                sound[number] = record
        return sound

    def _check_revision(self, name: str, number: int, path: Path) -> dict[str, JSON] | None:
        record = self._load(path)
        if record is None:
            return None
        problems = revision_problems(record, document=name, number=number)
        for message in problems:
            self.report(path, message)
        if problems or not isinstance(record, dict):
            return None
        evidence = evidence_from_record(record["evidence"])
        if evidence is not None:
            self.references.append((str(path), evidence))
        return record

    def _check_events(
        self, folder: Path, name: str, paths: dict[int, Path], *, revisions: int
    ) -> None:
        if not paths:
            return
        for number in sorted(set(range(1, max(paths) + 1)) - set(paths)):
            self.report(
                folder / EVENTS_FOLDER / f"{number:0{REVISION_DIGITS}d}.json",
                "missing: events must run 1..n without gaps (deleted?)",
            )
        for number, path in sorted(paths.items()):
            record = self._load(path)
            if record is None:
                continue
            problems = event_problems(record, document=name, number=number)
            for message in problems:
                self.report(path, message)
            if problems or not isinstance(record, dict):
                continue
            revision = record["revision"]
            if isinstance(revision, int) and revision > revisions:
                self.report(
                    path, f"revision: {revision} does not exist (the document has {revisions})"
                )

    def _check_derived(
        self,
        folder: Path,
        name: str,
        paths: dict[int, Path],
        *,
        revisions: dict[int, dict[str, JSON]],
    ) -> None:
        """The derived series: numbered 1..n, each record sound, naming a revision of the
        document by its hash and its evidence, one record per revision and extractor."""
        if not paths:
            return
        for number in sorted(set(range(1, max(paths) + 1)) - set(paths)):
            self.report(
                folder / DERIVED_FOLDER / revision_name(name, number),
                "missing: derived records must run 1..n without gaps (deleted?)",
            )
        seen: dict[tuple[JSON, JSON], int] = {}
        for number, path in sorted(paths.items()):
            record = self._load(path)
            if record is None:
                continue
            problems = derived_problems(record, document=name, number=number)
            if not problems and isinstance(record, dict):
                revision = record["revision"]
                named = revisions.get(revision) if isinstance(revision, int) else None
                if named is None and isinstance(revision, int) and revision in self._numbers(name):
                    continue  # the revision itself is unsound: reported there
                problems = derived_link_problems(record, named)
                pair = (record["revision"], record["extractor"])
                if pair in seen:
                    problems.append(
                        f"derived record {seen[pair]} already holds revision {pair[0]} as "
                        f"{pair[1]} reads it; a reading is recorded once"
                    )
                seen.setdefault(pair, number)
            for message in problems:
                self.report(path, message)

    def _numbers(self, name: str) -> set[int]:
        return {n for (_, doc), d in self.documents.items() if doc == name for n in d.revisions}
