"""Where a long ``bench/year.py`` stops and goes on: the generator saved at the end of a day.

A year at 1,000 articles a day, with its site half, takes hours. With ``--snapshot-every
N`` the bench saves the simulation (every article, the random stream, the counters, the
figures of the checkpoints timed so far) after every N-th day's commit, in
``snapshot.pickle`` beside the origin, atomically. ``--resume`` goes on from it in the
same work folder: the work tree and the origin's branch are first set back to the
snapshot's commit (a run stopped mid-day wrote files after it), then the next day is
generated exactly as the stopped run would have generated it, and the checkpoints still to
come are timed. A run on a later checkout records that checkout's commit at each
checkpoint, so the table says which figures came from which code.

The store (:class:`year_sim.RecordingArchive`: its locks and its readers are not data) is
not pickled: the resumed run opens a new one on the same files and gives it the counts
the figures need."""

from __future__ import annotations

import argparse
import os
import pickle
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Final

from year_hourly import Repository, git
from year_sim import RecordingArchive, Year

NAME: Final = "snapshot.pickle"
SAME: Final = ("rate", "page_kb", "port", "seed", "commits_per_day")
"""The options a resumed run must share with the snapshot's (the archive depends on them)."""


class SnapshotError(Exception):
    """A snapshot that cannot be resumed from, and why."""


@dataclass
class Snapshot:
    days: int  # days generated and committed
    year: Year
    head: str  # the commit at the end of ``days``
    revision_zlib: int
    revision_bytes: int
    git_seconds: float
    generation_seconds: float
    result: dict[str, Any]  # the figures so far (checkpoints timed before it)
    options: dict[str, Any]
    # the store's state that is not in its files yet: the checks entries of the last
    # hour's record writes (written with the next hour's), the partitions and documents
    # it wrote
    pending_checks: dict[tuple[str, str], dict[str, Any]]
    written_partitions: set[str]
    written_documents: set[tuple[str, str]]


class _Pickler(pickle.Pickler):
    def __init__(self, file: IO[bytes], archive: RecordingArchive) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._archive = archive

    def persistent_id(self, obj: Any) -> str | None:
        return "archive" if obj is self._archive else None


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: IO[bytes], archive: RecordingArchive) -> None:
        super().__init__(file)
        self._archive = archive

    def persistent_load(self, pid: Any) -> Any:
        if pid == "archive":
            return self._archive
        raise pickle.UnpicklingError(f"unknown reference {pid!r}")


def options(args: argparse.Namespace) -> dict[str, Any]:
    return {key: getattr(args, key) for key in SAME}


def take(
    days: int,
    year: Year,
    repo: Repository,
    *,
    generation_seconds: float,
    result: dict[str, Any],
    args: argparse.Namespace,
) -> Snapshot:
    """The snapshot of a year committed to the end of ``days``."""
    archive = year.archive
    if repo.head is None or archive.written:
        raise SnapshotError(f"day {days}: files written since the last commit")
    return Snapshot(
        days=days,
        year=year,
        head=repo.head,
        revision_zlib=archive.revision_zlib,
        revision_bytes=archive.revision_bytes,
        git_seconds=repo.seconds,
        generation_seconds=generation_seconds,
        result=result,
        options=options(args),
        pending_checks=archive.batched_checks.held(),
        written_partitions=set(archive.written_partitions),
        written_documents=set(archive.written_documents),
    )


def save(workdir: Path, snapshot: Snapshot) -> None:
    """Write the snapshot whole or not at all (a stop while writing keeps the last one)."""
    path = workdir / NAME
    partial = path.with_suffix(".partial")
    with partial.open("wb") as file:
        _Pickler(file, snapshot.year.archive).dump(snapshot)
        file.flush()
        os.fsync(file.fileno())
    partial.replace(path)


def copy(workdir: Path, to: Path) -> None:
    """The origin and the snapshot of ``workdir`` copied to ``to`` (replaced if there): a
    work folder :func:`load` resumes from, checking out the work tree anew."""
    if to.exists():
        shutil.rmtree(to)
    partial = to.with_name(to.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    shutil.copytree(workdir / "origin.git", partial / "origin.git", symlinks=True)
    shutil.copyfile(workdir / NAME, partial / NAME)
    partial.replace(to)


def load(workdir: Path, args: argparse.Namespace) -> tuple[Snapshot, Repository]:
    """The snapshot in ``workdir`` and its repository, set back to the snapshot's commit.
    Raises :class:`SnapshotError` when there is none or the options differ."""
    path = workdir / NAME
    if not path.is_file():
        raise SnapshotError(f"{path}: no snapshot to resume from (run with --snapshot-every)")
    repo = Repository.reopen(workdir)
    archive = RecordingArchive(repo.tree / "data")
    try:
        with path.open("rb") as file:
            snapshot = _Unpickler(file, archive).load()
    except (pickle.UnpicklingError, EOFError, AttributeError, ImportError) as error:
        raise SnapshotError(f"{path}: not a snapshot of this bench ({error})") from error
    if not isinstance(snapshot, Snapshot):
        raise SnapshotError(f"{path}: not a snapshot of this bench")
    differ = [
        f"--{key.replace('_', '-')} {snapshot.options[key]} (not {value})"
        for key, value in options(args).items()
        if snapshot.options.get(key) != value
    ]
    if differ:
        raise SnapshotError(f"{path}: the snapshot was made with " + ", ".join(differ))
    archive.revision_zlib = snapshot.revision_zlib
    archive.batched_checks.hold(snapshot.pending_checks)
    archive.written_partitions |= snapshot.written_partitions
    archive.written_documents |= snapshot.written_documents
    archive.revision_bytes = snapshot.revision_bytes
    repo.head = snapshot.head
    repo.seconds = snapshot.git_seconds
    # what a stopped run wrote or committed after the snapshot goes: the files, the
    # index's entries and the origin's branch (objects it added are unreachable, harmless)
    git("update-ref", "refs/heads/main", snapshot.head, env=repo.env)
    repo.tree.mkdir(exist_ok=True)  # a copied snapshot (:func:`copy`): checked out anew
    git("reset", "-q", "--hard", snapshot.head, env=repo.env)
    git("clean", "-q", "-f", "-d", "-x", "--", "data", env=repo.env, cwd=repo.tree)
    return snapshot, repo
