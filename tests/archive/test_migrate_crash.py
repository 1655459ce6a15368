"""`quietedit migrate` killed with SIGKILL at any point, then run again, leaves a sound
archive with every revision and event byte for byte, and every raw page kept."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from quietedit.archive.checks import SCHEMA_1_ARCHIVE, UNFINISHED_MIGRATION
from quietedit.archive.verify import verify_archive
from tests.archive.builders import story_url, write_legacy_state, write_legacy_story
from tests.archive.test_migrate import snapshot

pytestmark = pytest.mark.slow  # processes killed at many points

# Runs the migration with a real WARC keeper; prints "ready" once imports are done.
MIGRATOR = r"""
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from quietedit.archive.migrate import WarcPageKeeper, migrate_archive
import warcio.warcwriter  # imported before "ready": the kills land in the migration

root, evidence = Path(sys.argv[1]), Path(sys.argv[2])
if sys.argv[3:] == ["stop-half-moved"]:
    # stop (for the test's SIGKILL) once a document's files are in both layouts: its
    # copies linked in the partition, its schema-1 files not yet removed
    import os
    import signal

    from quietedit.archive import migrate

    def stop(folder):
        os.kill(os.getpid(), signal.SIGSTOP)

    migrate.fsync_dir = stop
keeper = WarcPageKeeper(evidence, now=datetime.now(UTC))
sys.stdout.write("ready\n")
sys.stdout.flush()
report = migrate_archive(root, keep_page=keeper)
sys.exit(1 if report.problems else 0)
"""

STILL_TO_MIGRATE = (SCHEMA_1_ARCHIVE, UNFINISHED_MIGRATION)
DOCUMENTS = 120
KILLS = 12


def test_migrate_killed_at_many_points_then_rerun_leaves_a_sound_archive(tmp_path: Path) -> None:
    root, evidence = tmp_path / "data", tmp_path / "evidence"
    for n in range(DOCUMENTS):
        write_legacy_story(root, story_url(n), revisions=3, events=1)
    write_legacy_state(root)
    before = snapshot(root, "documents/*/*/*.json")
    pages = {p.read_bytes() for p in root.glob("documents/*/evidence/*.html")}
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    rng = random.Random(20261202)
    killed = inside = 0
    for attempt in range(KILLS):
        half_moved = attempt % 3 == 2  # the kill lands inside a document's move, for sure
        migrator = subprocess.Popen(
            [sys.executable, "-c", MIGRATOR, str(root), str(evidence)]
            + (["stop-half-moved"] if half_moved else []),
            stdout=subprocess.PIPE,
            env=env,
        )
        assert migrator.stdout is not None
        assert migrator.stdout.readline() == b"ready\n"
        if half_moved:
            _wait_until_stopped(migrator.pid)
        else:
            time.sleep(rng.uniform(0.0, 0.25))  # anywhere
        migrator.send_signal(signal.SIGKILL)
        killed += migrator.wait() == -signal.SIGKILL
        migrator.stdout.close()
        # an interrupted migration is one problem that says to run it again
        messages = {p.message for p in verify_archive(root).problems}
        inside += bool(_in_both_layouts(root))
        assert all(m.startswith(STILL_TO_MIGRATE) for m in messages), messages
    assert killed >= KILLS // 2, "the migration finished before most kills"
    assert inside >= 1, "no kill landed while a document was half moved"
    done = subprocess.run(
        [sys.executable, "-c", MIGRATOR, str(root), str(evidence)], env=env, check=False
    )
    assert done.returncode == 0
    assert verify_archive(root).problems == ()
    assert snapshot(root, "documents/*/*/*/*/*/*/*.json") == before
    kept = _payloads(evidence)
    assert pages <= kept  # every page kept; one kept twice when a kill fell in between


def _wait_until_stopped(pid: int) -> None:
    """Return once the process ``pid`` has stopped itself, has ended, or after 10 s."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, IndexError):
            return
        if state in {"T", "t", "Z"}:
            return
        time.sleep(0.005)


def _in_both_layouts(root: Path) -> set[str]:
    """Documents with files in the schema-1 folder and in a partition: half moved."""
    old = {p.name for p in (root / "documents").glob("*-*")}
    new = {p.name for p in (root / "documents").glob("*/*/*/*/*-*")}  # Y/M/D/bucket/id
    return old & new


def _payloads(folder: Path) -> set[bytes]:
    from warcio.archiveiterator import ArchiveIterator

    found = set()
    for path in folder.rglob("*.warc.gz"):
        with path.open("rb") as handle:
            try:
                for record in ArchiveIterator(handle):
                    found.add(record.content_stream().read())
            except Exception:  # noqa: BLE001, S112 - a record cut off by a kill ends the file
                continue
    return found
