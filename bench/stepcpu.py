"""The CPU seconds of a benchmark's steps, each run as child processes: their own, and
those of the processes they leave behind (a fork server and its workers), which only a
process that adopts orphans can wait for and so count."""

from __future__ import annotations

import ctypes
import os
import subprocess
import time
from pathlib import Path
from typing import Final

PR_SET_CHILD_SUBREAPER: Final = 36
"""``prctl`` option (``<linux/prctl.h>``): orphaned descendants are re-parented to the
caller, not to init, so the caller can wait for them and count their CPU."""
ORPHAN_WAIT: Final = 30.0
"""Seconds to wait for a step's orphans to exit (a fork server ends within milliseconds
of its parent; a ``git gc --auto`` in the background may take seconds)."""


def children_cpu() -> float:
    """CPU seconds (user and system) of every finished child process so far: the measure
    a shared machine's load does not inflate as it does wall time."""
    times = os.times()
    return times.children_user + times.children_system


def adopt_orphans() -> bool:
    """Make this process the one that waits for the processes its children leave behind
    (Linux's ``PR_SET_CHILD_SUBREAPER``), so their CPU seconds can be counted: the
    ingest's page readers are children of a fork server that its ingest process never
    waits for, so without this their CPU is in no figure. False where it is not possible
    (not Linux): then only the steps' own processes are counted."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def reap_orphans(*, timeout: float = ORPHAN_WAIT) -> int:
    """Wait until the processes adopted by :func:`adopt_orphans` have exited (a fork server
    ends when the process that started it has), each one's CPU seconds and those of the
    children it waited for then counted in :func:`children_cpu`; the number reaped. One
    still running after ``timeout`` seconds is left (its CPU is not counted)."""
    reaped = 0
    deadline = time.monotonic() + timeout
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:  # none left
            return reaped
        if pid:
            reaped += 1
        elif time.monotonic() > deadline:
            return reaped
        else:
            time.sleep(0.01)


def timed(
    figures: dict[str, float], step: str, *commands: list[str], cwd: Path, stdin: str | None = None
) -> list[str]:
    """Run ``commands``; their wall seconds go to ``figures[step]``, their CPU seconds
    (children's user and system) to ``figures[step + " cpu"]`` and the CPU seconds of
    the processes they left behind (:func:`reap_orphans`: the ingest's page readers) to
    ``figures[step + " cpu left"]``: a step's whole CPU is the sum of the two."""
    started = time.perf_counter()
    cpu = children_cpu()
    outputs = []
    for command in commands:
        done = subprocess.run(command, cwd=cwd, input=stdin, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
        outputs.append(done.stdout + done.stderr)
    figures[step] = time.perf_counter() - started
    figures[f"{step} cpu"] = children_cpu() - cpu
    cpu = children_cpu()
    reap_orphans()
    figures[f"{step} cpu left"] = children_cpu() - cpu
    return outputs


# -- the origin's side of a step (GitHub's, in real use) -------------------------------


def receive_pack_timer(workdir: Path) -> tuple[Path, Path] | None:
    """A ``--receive-pack`` program that runs the origin's ``git receive-pack`` under
    ``/usr/bin/time``, and the file it writes that side's user and system seconds to: the
    push's CPU is mostly the origin's (receive-pack, index-pack, the connectivity check),
    which GitHub bears in real use. ``None`` without ``/usr/bin/time``."""
    return _timed_git(workdir, "receive-pack", append=False)


def upload_pack_timer(workdir: Path) -> tuple[Path, Path] | None:
    """An ``--upload-pack`` program (``remote.origin.uploadpack``) that runs the origin's
    ``git upload-pack`` under ``/usr/bin/time``, and the file each run appends its user
    and system seconds to: what a fetch costs the origin (GitHub, in real use) apart from
    what it costs the clone. ``None`` without ``/usr/bin/time``."""
    return _timed_git(workdir, "upload-pack", append=True)


def _timed_git(workdir: Path, command: str, *, append: bool) -> tuple[Path, Path] | None:
    if not Path("/usr/bin/time").is_file():
        return None
    program, figures = workdir / f"{command}-timed.sh", workdir / f"{command}.cpu"
    flags = "-a " if append else ""
    program.write_text(
        f'#!/bin/sh\nexec /usr/bin/time {flags}-f "%U %S" -o "{figures}" git {command} "$@"\n',
        encoding="utf-8",
    )
    program.chmod(0o755)
    figures.unlink(missing_ok=True)
    return program, figures


def mark_step(upload: tuple[Path, Path] | None, step: str) -> None:
    """End the origin's figures of ``step`` in the upload-pack timer's file."""
    if upload is not None:
        with upload[1].open("a", encoding="utf-8") as handle:
            handle.write(f"step {step}\n")


def upload_cpu(figures: Path) -> dict[str, float]:
    """The origin's upload-pack CPU seconds by step, read from the timer's file."""
    found: dict[str, float] = {}
    spent = 0.0
    lines = figures.read_text(encoding="utf-8").splitlines() if figures.exists() else []
    for line in lines:
        words = line.split()
        if words[:1] == ["step"]:
            found[" ".join(words[1:])] = round(spent, 2)
            spent = 0.0
        elif len(words) == 2:
            spent += float(words[0]) + float(words[1])
    return found
