"""``bench/export_profile.py`` at a tiny scale: it times each step of every sampled
document and exports the whole archive, and the database it leaves is the export's own,
byte for byte (its timers change nothing)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from quietedit.archive.store import Archive
from quietedit.export.sqlite import export_sqlite
from tests.export.conftest import write_archive

BENCH = Path(__file__).resolve().parents[2] / "bench" / "export_profile.py"


def test_each_step_and_phase_is_timed_and_the_database_is_the_export_s_own(
    tmp_path: Path,
) -> None:
    archive = tmp_path / "data"
    write_archive(archive)
    figures = tmp_path / "figures.json"
    done = subprocess.run(
        [sys.executable, str(BENCH), "--archive", str(archive), "--sample", "3",
         "--jobs", "2", "--workdir", str(tmp_path / "work"), "--json", str(figures)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(figures.read_text())
    listed = Archive(archive).documents()
    assert result["per_document"]["documents"] == 3
    assert set(result["per_document"]["ms_per_document"]) == {
        "read", "compare", "sketch", "rows", "pickle",
    }  # fmt: skip
    whole = result["per_phase"]
    assert whole["documents"] == len(listed)
    assert set(whole["phases"]) == {
        "listing", "git stamps", "write batches", "stories and feed entries",
        "update tables", "finish: sort, full-text, indexes",
    }  # fmt: skip
    export_sqlite(Archive(archive), tmp_path / "plain.db", jobs=1)
    profiled = (tmp_path / "work" / "profile.db").read_bytes()
    assert profiled == (tmp_path / "plain.db").read_bytes()
