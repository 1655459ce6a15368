"""One ingest run at a time, and a crashed run never leaves the archive locked."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from quietedit.archive.lock import RunLock
from quietedit.archive.verify import verify_archive
from quietedit.errors import ArchiveLockedError
from tests.conftest import T0

HOLDER = r"""
import sys, time
from datetime import UTC, datetime
from pathlib import Path
from quietedit.archive.lock import RunLock
with RunLock(Path(sys.argv[1]), now=datetime(2026, 11, 30, 6, 0, tzinfo=UTC)):
    print("locked", flush=True)
    time.sleep(60)
"""


def test_a_second_run_is_refused_while_the_first_holds_the_lock(tmp_path: Path) -> None:
    second = RunLock(tmp_path, now=T0)
    with (
        RunLock(tmp_path, now=T0),
        pytest.raises(ArchiveLockedError, match=f"pid {os.getpid()} on .* since"),
    ):
        second.__enter__()
    with RunLock(tmp_path, now=T0):  # released on exit
        pass


def test_a_killed_run_releases_the_lock(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(tmp_path)], stdout=subprocess.PIPE, env=env
    )
    assert holder.stdout is not None
    assert holder.stdout.readline() == b"locked\n"
    with pytest.raises(ArchiveLockedError, match=f"pid {holder.pid} "):
        RunLock(tmp_path, now=T0).__enter__()
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    holder.stdout.close()
    with RunLock(tmp_path, now=T0):
        pass
    assert verify_archive(tmp_path).problems == ()  # the lock file is no archive content
