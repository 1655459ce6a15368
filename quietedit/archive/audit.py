"""The git audit: create-only files stay untouched, with the one move the migration makes.

Revisions, events and (in schema 1) evidence pages are created once and never modified or
deleted. Git's history is the witness: between ``REV`` and the working tree, and in every
commit after ``REV``, such a file may only ever be *added*. A file modified and later
restored is still reported, because the commit that modified it is part of the published
history.

The one exception is the change that migrates an older layout (``quietedit migrate``):
in one change (a commit, or the working tree against ``REV``), a revision, event or
derived file of schema 1 (``documents/<id>/``) or of a partition without buckets
(``documents/<YYYY>/<MM>/<DD>/<id>/``) deleted while the same blob is added at the
current path of the same document, kind and number is a *move*; and the schema-1
evidence pages of a document moved in that same change may go (they were appended to the
WARC evidence). Nothing else.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Final

from quietedit.archive.checks import Problem
from quietedit.archive.gitcmd import git
from quietedit.archive.layout import (
    PathKind,
    classify_flat_path,
    classify_legacy_path,
    classify_path,
)
from quietedit.errors import AuditError

_VERBS: Final = {"M": "modified", "D": "deleted", "T": "changed type"}
_NO_BLOB: Final = frozenset({"0" * 40, "0" * 64})


@dataclass(frozen=True, slots=True)
class Change:
    """One path changed between two trees: git's status letter (``A``, ``M``, ``D``,
    ``T``), the path relative to the archive, and the blob ids before and after (``""``
    when there is none or git did not hash the working-tree file)."""

    status: str
    path: PurePosixPath
    before: str = ""
    after: str = ""


@dataclass(frozen=True, slots=True)
class Repository:
    """The git work tree holding an archive: its top, the archive's path inside it, and
    the commit ``--since`` resolved to."""

    top: Path
    prefix: str
    commit: str

    def git(self, *args: str) -> str:
        return run_git(self.top, *args)

    def pathspec(self) -> list[str]:
        return ["--", self.prefix]

    def relative(self, path: str) -> PurePosixPath:
        """A path git printed (relative to the top) as relative to the archive."""
        relative = PurePosixPath(path)
        return relative if self.prefix == "." else relative.relative_to(self.prefix)


def open_repository(root: Path, since: str) -> Repository:
    """The repository of the archive ``root`` with ``since`` resolved to a commit.

    Raises ``AuditError`` when ``root`` is not inside a git work tree or ``since`` names
    no commit."""
    top = Path(run_git(root, "rev-parse", "--show-toplevel").strip())
    try:
        prefix = root.resolve().relative_to(top.resolve()).as_posix()
    except ValueError as exc:  # pragma: no cover - rev-parse ran inside root
        raise AuditError(f"{root} is not inside the git work tree {top}") from exc
    if since.startswith("-"):
        raise AuditError(f"--since {since!r} is not a git revision")
    commit = run_git(top, "rev-parse", "--verify", "--quiet", since + "^{commit}").strip()
    return Repository(top=top, prefix=prefix, commit=commit)


def audit_since(root: Path, since: str) -> list[Problem]:
    """Problems for every create-only file of ``root`` changed or removed since ``since``.

    ``since`` is any git revision (a commit id, tag or ``HEAD~3``). Raises ``AuditError``
    when ``root`` is not inside a git work tree or ``since`` names no commit.
    """
    repository = open_repository(root, since)
    return audit_repository(root, repository, since=since)


def audit_repository(
    root: Path, repository: Repository, *, since: str, changes: list[Change] | None = None
) -> list[Problem]:
    """:func:`audit_since` for an opened repository: the net change from the commit to
    the working tree (``changes``, when the caller has them already), then every commit in
    between."""
    if changes is None:
        changes = working_tree_changes(repository)
    problems = create_only_violations(root, changes, where=f"since {since}")
    # --full-history: a change made and undone on a merged branch is still a change
    commits = repository.git(
        "rev-list", "--full-history", "--reverse", f"{repository.commit}..HEAD",
        *repository.pathspec(),
    ).split()  # fmt: skip
    for sha in commits:
        output = repository.git(
            "diff-tree", "-r", "--no-commit-id", "--no-renames", "--raw", "--no-abbrev", "-z",
            "-m", "--first-parent", sha, *repository.pathspec(),
        )  # fmt: skip
        changes = parse_raw(output, repository)
        problems += create_only_violations(root, changes, where=f"in commit {sha[:12]}")
    return sorted(set(problems))


def working_tree_changes(repository: Repository) -> list[Change]:
    """The net change from the commit to the working tree, staged or not, untracked files
    included (as added); blob ids of working-tree files are hashed where a move needs them."""
    output = repository.git(
        "diff", "--no-renames", "--raw", "--no-abbrev", "-z", repository.commit,
        *repository.pathspec(),
    )  # fmt: skip
    changes = parse_raw(output, repository)
    untracked = repository.git(
        "ls-files", "--others", "--exclude-standard", "-z", *repository.pathspec()
    )
    changes += [Change("A", repository.relative(path)) for path in untracked.split("\0") if path]
    return changes


def parse_raw(output: str, repository: Repository) -> list[Change]:
    """Changes from ``git diff --raw -z --no-abbrev`` output."""
    fields = output.split("\0")
    changes = []
    for header, path in zip(fields[0::2], fields[1::2], strict=False):
        parts = header.split()
        if len(parts) < 5:
            continue
        before, after, status = parts[2], parts[3], parts[4][:1]
        changes.append(
            Change(
                status,
                repository.relative(path),
                before="" if before in _NO_BLOB else before,
                after="" if after in _NO_BLOB else after,
            )
        )
    return changes


def create_only_violations(root: Path, changes: list[Change], *, where: str) -> list[Problem]:
    """Problems for create-only files modified or deleted in one change, but for the
    moves and evidence removals of a migration (module docstring)."""
    moved = _migration_moves(root, changes)
    moved_documents = {document for document, _ in moved.values()}
    moved_documents |= _moved_records(changes)
    found = []
    for change in changes:
        verb = _VERBS.get(change.status)
        if verb is None:  # added files are what an archive is for
            continue
        placed = _classify_old(change.path) or classify_path(change.path)
        if placed is None or not placed[0].create_only:
            continue
        kind, parts = placed
        if change.status == "D" and change.path in moved:
            continue
        if change.status == "D" and kind is PathKind.EVIDENCE and parts["id"] in moved_documents:
            continue
        found.append(
            Problem(
                str(root / change.path),
                f"{verb} {where}; "
                + (
                    "derived records, like revisions, are create-only"
                    if kind is PathKind.DERIVED
                    else "revisions, events and evidence are create-only"
                ),
            )
        )
    return found


def _migration_moves(root: Path, changes: list[Change]) -> dict[PurePosixPath, tuple[str, str]]:
    """The revision, event and derived files of an older layout (:func:`_classify_old`)
    in ``changes`` deleted while the same blob is added at the current path of the same
    document, kind and number: path → (document, new path)."""
    added: dict[tuple[PathKind, str, str], Change] = {}
    for change in changes:
        placed = classify_path(change.path)
        if change.status == "A" and placed is not None and placed[0].create_only:
            kind, parts = placed
            added[kind, parts["id"], parts["number"]] = change
    candidates: list[tuple[Change, Change, str]] = []
    for change in changes:
        legacy = _classify_old(change.path)
        if change.status != "D" or legacy is None or legacy[0] is PathKind.EVIDENCE:
            continue
        kind, parts = legacy
        if not legacy[0].create_only:
            continue
        target = added.get((kind, parts["id"], parts["number"]))
        if target is not None and change.before:
            candidates.append((change, target, parts["id"]))
    blobs = _blob_ids(root, [target for _, target, _ in candidates if not target.after])
    moves = {}
    for old, new, document in candidates:
        if (new.after or blobs.get(new.path)) == old.before:
            moves[old.path] = (document, str(new.path))
    return moves


def _classify_old(path: PurePosixPath) -> tuple[PathKind, dict[str, str]] | None:
    """The kind and parts of a document file of schema 1 or of a partition without
    buckets, which ``quietedit migrate`` moves; ``None`` for any other path."""
    return classify_legacy_path(path) or classify_flat_path(path)


def _moved_records(changes: Iterable[Change]) -> set[str]:
    """Documents whose ``document.json`` of an older layout went while one at its current
    path came."""
    gone, came = set(), set()
    for change in changes:
        legacy = _classify_old(change.path)
        placed = classify_path(change.path)
        if change.status == "D" and legacy is not None and legacy[0] is PathKind.DOCUMENT:
            gone.add(legacy[1]["id"])
        if change.status == "A" and placed is not None and placed[0] is PathKind.DOCUMENT:
            came.add(placed[1]["id"])
    return gone & came


def _blob_ids(root: Path, changes: list[Change]) -> dict[PurePosixPath, str]:
    """Git's blob ids of working-tree files (``git hash-object``, which applies the same
    filters as ``git add``), in one call."""
    if not changes:
        return {}
    paths = "\n".join(str(root / change.path) for change in changes) + "\n"
    output = run_git(root, "hash-object", "--stdin-paths", stdin=paths)
    return dict(zip((change.path for change in changes), output.split(), strict=False))


def files_at_commit(repository: Repository, paths: list[PurePosixPath]) -> dict[str, bytes]:
    """The bytes of each of ``paths`` (relative to the archive) at the commit ``--since``
    names, in one ``git cat-file --batch`` call; paths absent there are left out."""
    if not paths:
        return {}
    names = [
        path.as_posix() if repository.prefix == "." else f"{repository.prefix}/{path.as_posix()}"
        for path in paths
    ]
    request = "".join(f"{repository.commit}:{name}\n" for name in names).encode("utf-8")
    try:
        done = subprocess.run(
            ["git", "cat-file", "--batch"],  # noqa: S607 - git as found on PATH
            cwd=repository.top,
            input=request,
            capture_output=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError) as exc:
        raise AuditError(f"git cat-file failed: {exc}") from exc
    found: dict[str, bytes] = {}
    output, at = done.stdout, 0
    for path in paths:
        end = output.index(b"\n", at)
        header = output[at:end].split()
        at = end + 1
        if len(header) != 3 or header[1] != b"blob":
            continue  # "<name> missing": not there at that commit
        size = int(header[2])
        found[path.as_posix()] = output[at : at + size]
        at += size + 1
    return found


def run_git(cwd: Path, *args: str, stdin: str | None = None) -> str:
    """Git's output; ``AuditError`` with a message that says what to do when it fails."""
    done = git(cwd, *args, stdin=stdin)
    if done is None:
        if not cwd.is_dir():
            raise AuditError(f"{cwd} is not a folder")
        raise AuditError("--since needs git, and no git command was found on PATH")
    if done.returncode != 0:
        if args[0] == "rev-parse" and "--show-toplevel" in args:
            raise AuditError(f"{cwd} is not inside a git repository; --since needs one")
        if args[0] == "rev-parse":
            raise AuditError(f"--since {args[-1].removesuffix('^{commit}')!r} names no commit")
        raise AuditError(f"git {args[0]} failed: {done.stderr.strip()}")
    return done.stdout
