"""``bench/index_growth.py``: the index of a few days, replayed through the real index code
into real git, prints its packed size, a day's growth and a lookup's cost."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from quietedit.archive.layout import INDEX_CHUNK_ENTRIES

BENCH = Path(__file__).resolve().parents[2] / "bench" / "index_growth.py"


def test_a_short_run_prints_its_figures_and_seals_full_files(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--workdir", str(tmp_path), "--days", "2",
         "--rate", "1500", "--checkpoints", "1,2", "--lookups", "10"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    rows = [line.split() for line in done.stdout.splitlines()[1:] if line[:5].strip().isdigit()]
    assert [row[:2] for row in rows] == [["1", "1,500"], ["2", "3,000"]]
    assert all(float(row[2]) > 0 and int(row[3].replace(",", "")) > 0 for row in rows)
    assert [row[4] for row in rows] == ["10", "10"]  # one shard folder per lookup
    assert "CPU s: this process" in done.stdout
    # one open file per shard folder, in the form of this version, within a chunk
    folders = list((tmp_path / "index-growth" / "tree" / "data" / "index").glob("*/*"))
    assert len(folders) > 1_000
    for folder in folders:
        (open_file,) = folder.glob(f"entries-{folder.name}.json")
        assert open_file.read_text().count('"2026/') <= INDEX_CHUNK_ENTRIES
