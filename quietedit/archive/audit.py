"""``quietedit verify --since REV``: prove with git that create-only files stayed untouched.

Revisions and evidence are created once and never modified or deleted. Git's history is
the witness: between ``REV`` and the working tree, and in every commit after ``REV``,
such a file may only ever be *added*. A file modified and later restored is still
reported, because the commit that modified it is part of the published history.
"""

from __future__ import annotations

import subprocess
from pathlib import Path, PurePosixPath

from quietedit.archive.layout import classify_path
from quietedit.archive.verify import Problem
from quietedit.errors import AuditError

_VERBS = {"M": "modified", "D": "deleted", "T": "changed type"}


def audit_since(root: Path, since: str) -> list[Problem]:
    """Problems for every create-only file of ``root`` changed or removed since ``since``.

    ``since`` is any git revision (a commit id, tag or ``HEAD~3``). Raises ``AuditError``
    when ``root`` is not inside a git work tree or ``since`` names no commit.
    """
    top = Path(_git(root, "rev-parse", "--show-toplevel").strip())
    try:
        prefix = root.resolve().relative_to(top.resolve()).as_posix()
    except ValueError as exc:  # pragma: no cover - rev-parse ran inside root
        raise AuditError(f"{root} is not inside the git work tree {top}") from exc
    if since.startswith("-"):
        raise AuditError(f"--since {since!r} is not a git revision")
    commit = _git(top, "rev-parse", "--verify", "--quiet", since + "^{commit}")
    commit = commit.strip()
    pathspec = ["--", prefix if prefix != "." else "."]
    problems: list[Problem] = []
    # the net change from `since` to the working tree, staged and unstaged alike
    net = _git(top, "diff", "--no-renames", "--name-status", "-z", commit, *pathspec)
    problems += _violations(net, top=top, prefix=prefix, where=f"since {since}")
    # and every commit in between: a modification later undone still happened
    # --full-history: a change made and undone on a merged branch is still a change
    commits = _git(
        top, "rev-list", "--full-history", "--reverse", f"{commit}..HEAD", *pathspec
    ).split()
    for sha in commits:
        changes = _git(
            top, "diff-tree", "-r", "--no-commit-id", "--no-renames", "--name-status", "-z",
            "-m", "--first-parent", sha, *pathspec,
        )  # fmt: skip
        problems += _violations(changes, top=top, prefix=prefix, where=f"in commit {sha[:12]}")
    return sorted(set(problems))


def _violations(output: str, *, top: Path, prefix: str, where: str) -> list[Problem]:
    fields = output.split("\0")
    found = []
    for status, path in zip(fields[0::2], fields[1::2], strict=False):
        verb = _VERBS.get(status[:1])
        if verb is None:  # added files are what an archive is for
            continue
        relative = PurePosixPath(path)
        if prefix != ".":
            relative = relative.relative_to(prefix)
        placed = classify_path(relative)
        if placed is not None and placed[0].create_only:
            found.append(
                Problem(
                    str(top / path),
                    f"{verb} {where}; revisions, events and evidence are create-only",
                )
            )
    return found


def _git(cwd: Path, *args: str) -> str:
    try:
        done = subprocess.run(  # noqa: S603 - fixed git arguments, no shell
            ["git", "-c", "core.quotepath=off", *args],  # noqa: S607 - git as found on PATH
            cwd=cwd,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="surrogateescape",
            check=False,
        )
    except FileNotFoundError as exc:
        raise AuditError("--since needs git, and no git command was found on PATH") from exc
    except NotADirectoryError as exc:
        raise AuditError(f"{cwd} is not a folder") from exc
    if done.returncode != 0:
        if args[0] == "rev-parse" and "--show-toplevel" in args:
            raise AuditError(f"{cwd} is not inside a git repository; --since needs one")
        if args[0] == "rev-parse":
            raise AuditError(f"--since {args[-1].removesuffix('^{commit}')!r} names no commit")
        raise AuditError(f"git {args[0]} failed: {done.stderr.strip()}")
    return done.stdout
