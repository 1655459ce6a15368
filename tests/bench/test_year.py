"""``bench/year.py`` at a tiny scale: a simulated week committed into a real git origin,
then the hourly run the workflow does (blob-less sparse clone, ingest from the loopback
newsrooms, verify --since, commit, push), timed at two checkpoints."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "year.py"
STEPS = ("clone", "sparse-paths", "sparse add", "ingest", "verify --since", "commit", "push")


def free_port() -> int:
    """A port free on loopback now (the newsrooms bind it on 127.0.0.2 to .31)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.2", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.mark.slow
def test_a_small_year_prints_its_figures_at_each_checkpoint(tmp_path: Path) -> None:
    figures = tmp_path / "figures.json"
    done = subprocess.run(
        [sys.executable, str(BENCH), "--rate", "20", "--days", "8", "--checkpoints", "2,8",
         "--site-hours", "2", "--workdir", str(tmp_path / "work"), "--json", str(figures),
         "--port", str(free_port()), "--page-kb", "20"],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    # the origin packed as GitHub's is, a reverse index beside each pack's index (git
    # before 2.41 writes none unless told)
    packs = tmp_path / "work" / "origin.git" / "objects" / "pack"
    assert {p.stem for p in packs.glob("*.idx")} == {p.stem for p in packs.glob("*.rev")}
    assert list(packs.glob("*.idx"))
    result = json.loads(figures.read_text())
    assert [point["day"] for point in result["checkpoints"]] == [2, 8]
    assert result["generation_seconds"] > 0
    for point in result["checkpoints"]:
        # each step's wall seconds, its CPU seconds (at the clock's 10 ms, maybe 0) and
        # those of the processes it left running (the ingest's page readers, if any)
        cpu = {*(f"{step} cpu" for step in STEPS), *(f"{step} cpu left" for step in STEPS)}
        # and the origin's side (its receive-pack in the push, its upload-pack in every
        # step that fetches), timed apart where /usr/bin/time is
        fetching = ("clone", "sparse-paths", "sparse add", "ingest", "verify --since")
        timed_apart = (
            {"push origin cpu", *(f"{step} origin cpu" for step in fetching)}
            if Path("/usr/bin/time").is_file()
            else set()
        )
        assert set(point["steps"]) == {*STEPS, *cpu, *timed_apart}
        if timed_apart:
            steps = point["steps"]
            assert 0 <= steps["push origin cpu"] <= steps["push cpu"] + 0.02
            for step in fetching:  # the origin's processes are the step's children
                mine = steps[f"{step} cpu"] + steps[f"{step} cpu left"]
                assert 0 <= steps[f"{step} origin cpu"] <= mine + 0.02
        assert all(point["steps"][f"{step} cpu left"] >= 0 for step in STEPS)
        assert all(point["steps"][step] > 0 for step in STEPS)
        assert all(point["steps"][f"{step} cpu"] >= 0 for step in STEPS)
        assert point["steps"]["ingest cpu"] > 0
        # the archive's own figures: text only in the branch, small folders
        assert 0 < point["revisions_zlib_bytes"] < point["packed_bytes"]
        assert point["packed_by_kind"]["revisions"] > 0
        assert 0 < point["largest_folder_entries"] <= 5000
        assert point["clone_bytes"] > 0 and point["files_checked_out"] > 0
        # what the run's commit wrote, by kind: the list's changed parts among it
        by_kind = point["commit_bytes_by_kind"]
        assert sum(by_kind.values()) == point["commit_bytes"] and by_kind["state"] > 0
        # the hourly run found the simulated archive as real runs leave it: the hour's
        # new stories are new documents, and re-checks of unedited pages change nothing
        summary = point["ingest_summary"]
        assert "feeds: 30 polled" in summary, summary
        assert " unchanged" in summary, summary
        # the site half: a full build, then the hourly build from what the cache holds
        hourly = point["site"]["hourly"]
        assert hourly["failures"] == 0 and hourly["repeats"] == 1 and hourly["written"] > 0
        # two hours timed, the second built from the site the first left: it renders
        # only that hour's documents, not every one the full build rendered
        hours = point["site"]["hours"]
        assert [hour["hour"] for hour in hours] == ["10:00", "11:00"] and hourly["hours"] == 2
        assert hourly["written"] == (hours[0]["written"] + hours[1]["written"]) / 2
        assert 0 < hours[1]["rendered"] < point["site"]["full"]["documents"]
        # the origin's side of the build's fetches, counted in its CPU and shown apart
        assert 0 <= hourly["origin_cpu_seconds"] <= hourly["cpu_seconds"] + 0.02
    week = result["checkpoints"][-1]
    assert week["documents"] > result["checkpoints"][0]["documents"]
    assert week["partitions_checked_out"] >= 2
    assert result["machine"]["cpus"] >= 1 and result["machine"]["python"]
    table = done.stdout
    for label in ("packed / revisions zlib", "clone downloads", "files checked out",
                  "ingest (s)", "verify --since (s)", "push (s)", "largest folder",
                  "the origin's upload-pack (GitHub's)"):  # fmt: skip
        assert label in table, table


def _year(work: Path, *args: str, port: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCH), "--rate", "20", "--checkpoints", "99", "--no-site",
         "--workdir", str(work), "--json", str(work.parent / f"{work.name}.json"),
         "--port", str(port), "--page-kb", "20", *args],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip


def _tree(work: Path) -> str:
    """The tree of the origin's branch: the archive as committed (commits carry times)."""
    return subprocess.run(
        ["git", "rev-parse", "main^{tree}"], cwd=work / "origin.git",
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip


@pytest.mark.slow
def test_a_year_stopped_after_its_snapshot_goes_on_to_the_same_archive(tmp_path: Path) -> None:
    port = free_port()
    whole = _year(tmp_path / "whole", "--days", "4", port=port)
    assert whole.returncode == 0, whole.stderr
    # a run that saved the year after day 2, then went on into day 3 and stopped there
    # (its files and commit of day 3 are after the snapshot: set back on resuming)
    stopped = _year(tmp_path / "parts", "--days", "3", "--snapshot-every", "2", port=port)
    assert stopped.returncode == 0, stopped.stderr
    (tmp_path / "parts" / "year" / "data" / "stray.json").write_text("{}")
    resumed = _year(tmp_path / "parts", "--days", "4", "--resume", port=port)
    assert resumed.returncode == 0, resumed.stderr
    assert _tree(tmp_path / "parts") == _tree(tmp_path / "whole")
    assert not (tmp_path / "parts" / "year" / "data" / "stray.json").exists()
    figures = json.loads((tmp_path / "parts.json").read_text())
    assert figures["documents"] == json.loads((tmp_path / "whole.json").read_text())["documents"]
    # a copy made on the eve of a checkpoint, resumed in a work folder of its own (the
    # work tree checked out anew): the same archive again
    copies = tmp_path / "copies"
    eve = _year(
        tmp_path / "eve", "--days", "2", "--checkpoints", "3", "--copy-snapshots", str(copies),
        port=port,
    )  # fmt: skip
    assert eve.returncode == 0, eve.stderr
    assert sorted(path.name for path in copies.iterdir()) == ["day-2"]
    shutil.copytree(copies / "day-2", tmp_path / "again")
    again = _year(tmp_path / "again", "--days", "4", "--resume", port=port)
    assert again.returncode == 0, again.stderr
    assert _tree(tmp_path / "again") == _tree(tmp_path / "whole")
    # another rate or seed would make another archive: refused, naming the option
    other = _year(tmp_path / "parts", "--days", "5", "--resume", "--seed", "3", port=port)
    assert other.returncode != 0 and "--seed 16 (not 3)" in other.stderr, other.stderr


def test_resuming_needs_a_snapshot(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    done = _year(tmp_path / "empty", "--days", "2", "--resume", port=free_port())
    assert done.returncode != 0
    assert "no snapshot to resume from" in done.stderr and "Traceback" not in done.stderr
