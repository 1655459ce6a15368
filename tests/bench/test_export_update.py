"""``bench/export_update.py`` at a tiny scale: it rewinds an archive by a week and puts the
week back file for file, and the update it times holds the same rows as the full export."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.export.conftest import write_archive

BENCH = Path(__file__).resolve().parents[2] / "bench" / "export_update.py"


def files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_the_week_is_moved_aside_then_back_and_the_update_matches_a_full_export(
    tmp_path: Path,
) -> None:
    archive = tmp_path / "archive" / "data"
    write_archive(archive)
    before = files(archive)
    figures = tmp_path / "figures.json"
    done = subprocess.run(
        [sys.executable, str(BENCH), "--archive", str(archive), "--week", "2",
         "--workdir", str(tmp_path / "work"), "--json", str(figures)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(figures.read_text())
    # the test archive's last two days: two articles first seen, an event of an older one
    assert result["moved"] == {"documents": 2, "files": 1}
    assert result["same_rows"] is True
    assert "updated: 3 documents read again" in result["update"]["stdout"]
    assert "updated: 0 documents read again" in result["no_change_update"]["stdout"]
    work = files(tmp_path / "work" / "data")
    assert {k: v for k, v in work.items() if not k.startswith(".git/")} == before
    assert files(archive) == before  # the archive it was given is left as it was
