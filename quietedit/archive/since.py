"""``quietedit verify --since REV``: check what changed since ``REV``, in time proportional
to the change, not to the archive.

Git names the changed files: ``git diff REV`` for tracked changes (committed, staged or
not) and ``git ls-files --others`` for new files not yet added. Each changed file gets
the checks the full walk gives it (:mod:`quietedit.archive.checks`): its place in the
layout, canonical JSON, schema, own hash; a revision also its link to revision
number - 1 (read from disk) and its document record; an event its predecessor, its
record and the revision it names; a document record its partition and index entry; an
index shard the entries added since ``REV`` (well-formed, and the folder at the named
partition holds that document when present) and that none was changed or removed; a
schema-2 index file removed, that each of its entries is in the index's shard folders
(``quietedit migrate`` moved it). Then
the git audit of the range (:mod:`quietedit.archive.audit`). Files git shows unchanged
are never opened: they were checked when they changed, and git proves they did not since.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from quietedit.archive.audit import (
    Change,
    Repository,
    audit_repository,
    files_at_commit,
    open_repository,
    working_tree_changes,
)
from quietedit.archive.checks import (
    INDEX_NAMES,
    LEGACY_INDEX,
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
from quietedit.archive.files import listdir
from quietedit.archive.layout import (
    DOCUMENT_FILE,
    INDEX_DIR,
    INDEX_NAME_PATTERN,
    REVISION_DIGITS,
    REVISIONS_FOLDER,
    Layout,
    PathKind,
    bucket_of,
    classify_flat_path,
    classify_legacy_path,
    classify_path,
    index_file_shard,
    index_shard,
    legacy_index_path,
    revision_name,
)
from quietedit.archive.records import evidence_from_record
from quietedit.archive.since_checkout import bring_index_shards, documents_left_out
from quietedit.archive.sparse import Cone, checkout_cone
from quietedit.archive.verify import VerifyReport
from quietedit.article.identity import is_document_id
from quietedit.model import JSON
from quietedit.revisions import EvidenceRef


def verify_since(root: Path, since: str) -> VerifyReport:
    """Check the files of ``root`` changed since the git revision ``since``, and audit the
    range with git; ``documents`` and ``revisions`` in the report count what was checked.

    Raises ``AuditError`` when ``root`` is not inside a git work tree or ``since`` names
    no commit.
    """
    repository = open_repository(root, since)
    changes = working_tree_changes(repository)
    bring_index_shards(root, changes)  # in a sparse checkout, those it left out, at once
    checker = _ChangeChecker(root, repository)
    shards = [change.path for change in changes if change.path.parts[:1] == (INDEX_DIR,)]
    checker.before = files_at_commit(repository, shards)
    for change in sorted(changes, key=lambda change: change.path):
        checker.check(change)
    problems = checker.problems + audit_repository(root, repository, since=since, changes=changes)
    return VerifyReport(
        problems=tuple(sorted(set(problems))),
        documents=len(checker.documents),
        revisions=checker.revisions,
        evidence=len(checker.references),
        partitions=len({partition for partition, _ in checker.documents}),
        references=tuple(sorted(checker.references, key=lambda reference: reference[0])),
    )


@dataclass
class _ChangeChecker:
    root: Path
    repository: Repository
    problems: list[Problem] = field(default_factory=list)
    documents: set[tuple[str, str]] = field(default_factory=set)
    revisions: int = 0
    references: list[tuple[str, EvidenceRef | str]] = field(default_factory=list)
    shards: dict[str, dict[str, str]] = field(default_factory=dict)
    before: dict[str, bytes] = field(default_factory=dict)
    """Changed index files as they were at the commit, by path relative to the archive."""
    index_files: dict[str, list[Path]] = field(default_factory=dict)
    """The files of each index shard read, by shard (each folder listed once)."""
    legacy_files: dict[str, list[Path]] | None = None
    """The schema-2 index files on disk, by their two-digit shard (listed once)."""
    cone: Cone | None = None
    """What the sparse checkout holds (read once, when a document is missing)."""
    cone_read: bool = False

    def report(self, path: Path, message: str) -> None:
        self.problems.append(Problem(str(path), message))

    def check(self, change: Change) -> None:
        path = self.root / change.path
        # a document folder quietedit migrate has not moved into its bucket yet is checked
        # where it is (the full check names it): hourly runs go on until the migration
        placed = classify_path(change.path) or classify_flat_path(change.path)
        if change.status == "D":
            if placed is not None:
                self._check_removal(path, *placed)
            elif legacy_index_path(change.path) is not None:
                self._check_index_moved(path)
            return
        if placed is None and legacy_index_path(change.path) is not None:
            self.report(path, LEGACY_INDEX)
            return
        if placed is None:
            if classify_legacy_path(change.path) is not None:
                self.report(path, "schema-1 layout: run quietedit migrate")
            else:
                self.report(
                    path,
                    "unexpected file: the archive layout has no place for it (see data/README.md)",
                )
            return
        kind, parts = placed
        if kind in (PathKind.README, PathKind.TEMP):
            return
        if path.is_symlink() or not path.is_file():
            self.report(path, "is not a regular file; the archive holds only regular files")
            return
        if kind is PathKind.INDEX:
            self._check_shard(path, change.path)
        elif kind is PathKind.CHECKS:
            self._check_checks(path, parts["partition"])
        elif kind is PathKind.FEED:
            self._check_state(path, kind="feed", key="slug", expected=parts["slug"])
        elif kind is PathKind.DEPARTED:
            self._check_departed(path, slug=parts["slug"], day=parts["partition"])
        elif kind is PathKind.STATE:
            self._check_state(path, kind="state", key="name", expected=parts["name"])
        elif self._check_home(
            path.parents[0 if kind is PathKind.DOCUMENT else 1],
            parts["partition"],
            parts["id"],
            bucket=parts.get("bucket"),
        ):
            if kind is PathKind.DOCUMENT:
                self._check_document(path, parts["partition"], parts["id"])
            elif kind is PathKind.REVISION:
                self._check_revision(path, parts)
            elif kind is PathKind.EVENT:
                self._check_event(path, parts)
            elif kind is PathKind.DERIVED:
                self._check_derived(path, parts)

    # -- reading ---------------------------------------------------------------------

    def _load(self, path: Path, *, report: bool = True) -> JSON | None:
        try:
            data = path.read_bytes()
        except OSError as exc:
            self.report(path, f"cannot read: {exc.strerror}")
            return None
        record, problems = parse_record(data)
        if report:
            for message in problems:
                self.report(path, message)
        return record

    def _index(self, shard: str) -> dict[str, str]:
        """The entries of one index shard on disk, from every file of the shard (an
        unsharded run's and each ingest shard's, and a schema-2 file not moved yet), read
        once."""
        if shard not in self.shards:
            entries: dict[str, str] = {}
            for path in self._shard_files(shard):
                found = index_entries(self._load(path, report=False))
                entries.update((doc, p) for doc, p in found.items() if index_shard(doc) == shard)
            self.shards[shard] = entries
        return self.shards[shard]

    def _shard_files(self, shard: str) -> list[Path]:
        """The files holding entries of index ``shard``: its folder's, then any schema-2
        file of its first two digits."""
        if self.legacy_files is None:
            layout = Layout(self.root)
            self.legacy_files = {}
            for name in listdir(layout.index_dir):
                old = legacy_index_path(PurePosixPath(INDEX_DIR, name))
                if old is not None:
                    self.legacy_files.setdefault(old, []).append(layout.index_dir / name)
        if shard not in self.index_files:
            folder = Layout(self.root).index_folder(shard)
            self.index_files[shard] = [
                folder / name for name in listdir(folder) if INDEX_NAME_PATTERN.fullmatch(name)
            ]
        return [*self.index_files[shard], *self.legacy_files.get(shard[:2], [])]

    # -- one document's files ---------------------------------------------------------

    def _check_home(
        self, folder: Path, partition: str, document: str, *, bucket: str | None
    ) -> bool:
        """Whether the ``folder`` of a changed document file is a valid place, reporting
        why not (``bucket``: the one it is in; ``None``, directly in its partition, as
        before ``quietedit migrate``); the index must name its partition (checked once per
        document)."""
        problem = partition_problem(partition)
        if problem is not None:
            self.report(self.root / "documents" / partition, problem)
            return False
        if not is_document_id(document):
            self.report(folder, "folder name is not a document id (<host>-<16 hex digits>)")
            return False
        if bucket is not None and bucket != bucket_of(document):
            self.report(folder, f"in bucket {bucket}, not {bucket_of(document)} "
                        "(the first two hex digits of the id's hash part)")  # fmt: skip
            return False
        if (partition, document) not in self.documents:
            self.documents.add((partition, document))
            named = self._index(index_shard(document)).get(document)
            if named is None:
                self.report(folder, "no index entry: the index does not know this document")
            elif named != partition:
                self.report(folder, f"the index puts this document in partition {named}, not here")
            if not (folder / DOCUMENT_FILE).is_file():
                self.report(folder, "orphan files: the folder has no document.json")
        return True

    def _check_document(self, path: Path, partition: str, document: str) -> None:
        record = self._load(path)
        if record is not None:
            for message in document_problems(record, document=document, partition=partition):
                self.report(path, message)

    def _check_revision(self, path: Path, parts: dict[str, str]) -> None:
        problem = numbered_name_problem(
            parts["number"], what="revision", tail=parts.get("tail"), document=parts["id"]
        )
        if problem is not None:
            self.report(path, problem)
            return
        number = int(parts["number"])
        self.revisions += 1
        record = self._load(path)
        if record is None:
            return
        problems = revision_problems(record, document=parts["id"], number=number)
        for message in problems:
            self.report(path, message)
        if problems or not isinstance(record, dict):
            return
        evidence = evidence_from_record(record["evidence"])
        if evidence is not None:
            self.references.append((str(path), evidence))
        if number == 1:
            return
        before_path = path.with_name(revision_name(parts["id"], number - 1))
        if not before_path.is_file():
            self.report(before_path, "missing: revisions must run 1..n without gaps (deleted?)")
            return
        before = self._load(before_path, report=False)
        # its own hash, not its content hash: it was checked in full when it was added
        if before is None or revision_problems(
            before, document=parts["id"], number=number - 1, deep=False
        ):
            self.report(path, f"revision {number - 1} is not a sound revision to link to")
            return
        if isinstance(before, dict):
            for message in link_problems(before, record):
                self.report(path, message)

    def _check_event(self, path: Path, parts: dict[str, str]) -> None:
        problem = numbered_name_problem(parts["number"], what="event")
        if problem is not None:
            self.report(path, problem)
            return
        number = int(parts["number"])
        if number > 1:
            before = path.with_name(f"{number - 1:0{REVISION_DIGITS}d}.json")
            if not before.is_file():
                self.report(before, "missing: events must run 1..n without gaps (deleted?)")
        record = self._load(path)
        if record is None:
            return
        problems = event_problems(record, document=parts["id"], number=number)
        for message in problems:
            self.report(path, message)
        if problems or not isinstance(record, dict):
            return
        revision = record["revision"]
        if isinstance(revision, int):
            named = path.parent.parent / "revisions" / revision_name(parts["id"], revision)
            if not named.is_file():
                self.report(path, f"revision: {revision} does not exist")

    def _check_derived(self, path: Path, parts: dict[str, str]) -> None:
        document = parts["id"]
        problem = numbered_name_problem(
            parts["number"], what="derived record", tail=parts.get("tail"), document=document
        )
        if problem is not None:
            self.report(path, problem)
            return
        number = int(parts["number"])
        if (
            number > 1
            and not (before := path.with_name(revision_name(document, number - 1))).is_file()
        ):
            self.report(before, "missing: derived records must run 1..n without gaps (deleted?)")
        record = self._load(path)
        if record is None:
            return
        problems = derived_problems(record, document=document, number=number)
        if not problems and isinstance(record, dict):
            revision = record["revision"]
            named = (
                path.parent.parent / REVISIONS_FOLDER / revision_name(document, int(str(revision)))
            )
            found = self._load(named, report=False) if named.is_file() else None
            problems = derived_link_problems(record, found)
            for other in sorted(path.parent.glob("*.json")):
                earlier = self._load(other, report=False) if other.name < path.name else None
                if isinstance(earlier, dict) and (
                    earlier.get("revision"),
                    earlier.get("extractor"),
                ) == (
                    revision,
                    record["extractor"],
                ):
                    problems.append(
                        f"{other.name} already holds revision {revision} as "
                        f"{record['extractor']} reads it; a reading is recorded once"
                    )
        for message in problems:
            self.report(path, message)

    # -- shared files ----------------------------------------------------------------

    def _check_checks(self, path: Path, partition: str) -> None:
        record = self._load(path)
        if record is None:
            return
        for message in checks_file_problems(record, name=path.name, partition=partition):
            self.report(path, message)
        missing = [
            name
            for name in checks_file_documents(record)
            if is_document_id(name)
            and not (path.parent / bucket_of(name) / name / DOCUMENT_FILE).is_file()
            and not (path.parent / name / DOCUMENT_FILE).is_file()  # not in its bucket yet
        ]
        # a sparse checkout holds only some documents of a partition: those it leaves out
        # are looked up in the commit checked out (its trees; no file is fetched)
        left_out = self._left_out(path.parent, missing)
        for name in missing:
            if name not in left_out:
                self.report(path, f"documents.{name}: no such document in this partition")

    def _left_out(self, partition: Path, names: list[str]) -> set[str]:
        """Which of ``names`` (documents of the ``partition`` folder, not on disk) are
        outside the sparse checkout and have a record in the commit checked out."""
        if not self.cone_read:
            self.cone, self.cone_read = checkout_cone(self.root), True
        return documents_left_out(self.repository, self.cone, partition, names)

    def _check_departed(self, path: Path, *, slug: str, day: str) -> None:
        record = self._load(path)
        if record is not None:
            for message in departed_problems(record, slug=slug, day=day):
                self.report(path, message)

    def _check_state(self, path: Path, *, kind: str, key: str, expected: str) -> None:
        record = self._load(path)
        if record is not None:
            for message in state_problems(record, kind=kind, key=key, expected=expected):
                self.report(path, message)

    def _check_shard(self, path: Path, relative: PurePosixPath) -> None:
        shard = index_file_shard(relative)
        if shard is None:
            self.report(path, f"unexpected file: {INDEX_NAMES}")
            return
        record = self._load(path)
        if record is None:
            return
        for message in index_problems(record, shard=shard):
            self.report(path, message)
        entries = index_entries(record)
        before = self._entries_at_commit(path)
        others = self._other_files(shard, path)
        for document, partition in sorted(before.items()):
            if document not in entries:
                if any(found.get(document) == partition for _, found in others):
                    continue  # the open file was sealed: its entries are in a sealed file
                self.report(path, f"documents.{document}: removed since {self._since}; "
                            "index entries are never removed")  # fmt: skip
            elif entries[document] != partition:
                self.report(
                    path,
                    f"documents.{document}: changed from {partition} to {entries[document]} "
                    f"since {self._since}; index entries are never changed",
                )
        for document, partition in sorted(entries.items()):
            if document in before:
                continue
            # a document is entered once: a second entry in another file of the shard would
            # move it to another folder (the one readers take), unseen by this file's history;
            # the same entry twice is a seal (or a write killed mid-seal)
            for other, found in others:
                if found.get(document, partition) != partition:
                    self.report(
                        path,
                        f"documents.{document}: new since {self._since}, but {other.name} "
                        f"already places it in {found[document]}; a document is indexed once",
                    )
            folder = Layout(self.root).document_dir(document, partition)
            if not folder.is_dir():  # or where it was before quietedit migrate moves it
                folder = Layout(self.root).flat_document_dir(document, partition)
            if folder.is_dir() and not (folder / DOCUMENT_FILE).is_file():
                self.report(
                    path, f"documents.{document}: the folder in {partition} has no document.json"
                )

    def _other_files(self, shard: str, path: Path) -> list[tuple[Path, dict[str, str]]]:
        """The entries of every other file of index ``shard`` on disk, by file."""
        return [
            (other, index_entries(self._load(other, report=False)))
            for other in self._shard_files(shard)
            if other != path
        ]

    def _check_removal(self, path: Path, kind: PathKind, parts: dict[str, str]) -> None:
        """A removed document record leaves its files orphans; a removed shard its
        entries gone. (Removed revisions and events are the git audit's.)"""
        relative = PurePosixPath(path.relative_to(self.root).as_posix())
        shard = index_file_shard(relative) if kind is PathKind.INDEX else None
        if shard is not None:
            # quietedit migrate renames schema 3's open files as sealed ones: the entries
            # are then all in the shard's files on disk, in the same partitions
            held = self._index(shard)
            if any(held.get(doc) != part for doc, part in self._entries_at_commit(path).items()):
                self.report(path, f"deleted since {self._since}; index entries are never removed")
        elif kind is PathKind.DOCUMENT and path.parent.is_dir():
            leftovers = [p for p in path.parent.rglob("*.json") if p.is_file()]
            if leftovers:
                self.report(path.parent, "orphan files: the folder has no document.json")

    def _check_index_moved(self, path: Path) -> None:
        """A schema-2 index file removed: each entry it held at the commit must be in the
        index's shard folders, in the same partition (``quietedit migrate`` moved it)."""
        for document, partition in sorted(self._entries_at_commit(path).items()):
            found = self._index(index_shard(document)).get(document)
            if found != partition:
                where = "is in no shard folder" if found is None else f"is now in {found}"
                self.report(
                    path,
                    f"deleted since {self._since}, but its entry documents.{document} "
                    f"({partition}) {where}; index entries are never removed or changed",
                )

    def _entries_at_commit(self, path: Path) -> dict[str, str]:
        """The index entries ``path`` held at the commit ``--since`` names."""
        data = self.before.get(path.relative_to(self.root).as_posix())
        if data is None:
            return {}  # the file is new since then
        try:
            record: JSON = json.loads(data.decode("utf-8"))
        except ValueError:
            return {}
        return index_entries(record)

    @property
    def _since(self) -> str:
        return self.repository.commit[:12]
