"""``bench/buckets.py``: a small cache, the buckets' ids made from the stamps and read
from the table, the same answers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "buckets.py"


def test_a_small_run_compares_the_two_ways_and_prints_its_figures() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--days", "6", "--per-day", "300", "--moved", "3",
         "--touched", "20", "--repeats", "2"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    lines = done.stdout.splitlines()
    assert lines[0].startswith("cache: 1,800 documents in ")
    assert lines[1].startswith("an hour's moved partitions: 3 (") and "same answers" in lines[1]
    assert "before" in lines[2] and "now" in lines[3]
    assert lines[4].startswith("table made anew for 20 of those buckets")
    assert lines[5].startswith("table made whole")
