"""``bench/feeds.py``: the filtered feeds' queries on edits tables of a few sizes print
their CPU seconds by filter, each feed's entries found."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "feeds.py"


def test_a_short_run_prints_its_figures(tmp_path: Path) -> None:
    out = tmp_path / "feeds.json"
    done = subprocess.run(
        [sys.executable, str(BENCH), "--edits", "300,3000", "--repeats", "1",
         "--json", str(out)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "all 744 queries" in done.stdout
    figures = json.loads(out.read_text())
    assert [f["edits"] for f in figures] == [300, 3000]
    for f in figures:
        assert f["queries"] == 31 * (3 + 16 + 5)  # the site and 30 sources, each feed
        assert f["cpu_seconds"] > 0
        assert set(f["by_filter"]) == {
            f"{whose} {what}"
            for whose in ("site's", "source's")
            for what in ("silent", "headlines", "significant", "kind", "term")
        }
