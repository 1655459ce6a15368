"""``bench/export.py`` at a tiny scale: the simulated archive it generates is the same for
the same seed whether one process or several make it, the store finds it sound, and the
export it times is the same database either way."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from quietedit.export.datasette import QUERIES

BENCH = Path(__file__).resolve().parents[2] / "bench" / "export.py"
QUIETEDIT = Path(sys.executable).with_name("quietedit")


def generate(work: Path, *, jobs: int, seed: int = 16) -> dict[str, object]:
    figures = work / "figures.json"
    done = subprocess.run(
        [sys.executable, str(BENCH), "--rate", "40", "--days", "4", "--jobs", str(jobs),
         "--seed", str(seed), "--workdir", str(work), "--no-newsedits",
         "--json", str(figures)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(figures.read_text())
    return result


def files(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_the_same_seed_makes_the_same_archive_with_any_number_of_processes(
    tmp_path: Path,
) -> None:
    one = generate(tmp_path / "one", jobs=1)
    three = generate(tmp_path / "three", jobs=3)
    serial, parallel = files(tmp_path / "one" / "data"), files(tmp_path / "three" / "data")
    assert serial == parallel
    assert (tmp_path / "one" / "quietedit.db").read_bytes() == (
        tmp_path / "three" / "quietedit.db"
    ).read_bytes()
    counts = ("documents", "revisions", "edited_documents", "archive_bytes")
    archive = one["archive"]
    assert isinstance(archive, dict) and isinstance(three["archive"], dict)
    assert [archive[key] for key in counts] == [three["archive"][key] for key in counts]
    # each example query is timed on the database, with the same rows either way
    queries, other = one["queries"], three["queries"]
    assert isinstance(queries, dict) and isinstance(other, dict)
    assert sorted(queries) == sorted(q.name for q in QUERIES)
    assert [q["rows"] for q in queries.values()] == [q["rows"] for q in other.values()]
    assert queries["removed_text"]["rows"] > 0  # :phrase "said", taken out somewhere
    # every document is indexed, has its checks entry (the last day's too) and its
    # revisions; the feed records and the active-partition list are there
    documents = [name for name in serial if name.endswith("/document.json")]
    assert len(documents) == archive["documents"] > 100
    indexed: dict[str, str] = {}
    for name, data in serial.items():
        if name.startswith("index/"):
            indexed.update(json.loads(data)["documents"])
    checked: set[str] = set()
    for name, data in serial.items():
        if name.endswith("/checks.json"):
            checked.update(json.loads(data)["documents"])
    ids = {name.split("/")[5] for name in documents}  # documents/Y/M/D/<bb>/<id>/…
    assert set(indexed) == ids == checked
    assert sum(name.startswith("feeds/") for name in serial) == 30
    assert "state/partitions.json" in serial
    verify = subprocess.run(
        [str(QUIETEDIT), "verify", "--data", str(tmp_path / "three" / "data")],
        capture_output=True, text=True, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert verify.returncode == 0, verify.stdout + verify.stderr


def test_another_seed_makes_another_archive(tmp_path: Path) -> None:
    generate(tmp_path / "a", jobs=2, seed=16)
    generate(tmp_path / "b", jobs=2, seed=17)
    assert files(tmp_path / "a" / "data") != files(tmp_path / "b" / "data")
