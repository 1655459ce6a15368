"""The weekly database export, ``.github/workflows/export.yml``, and its upload script
``.github/scripts/publish-database.sh``, run for real against the stand-in ``gh``
(tests/fake_gh.py): each week's database goes to a release of its own, marked latest, and
nothing a release holds is replaced."""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.fake_gh import Releases

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / ".github" / "scripts" / "publish-database.sh"
FAKE_GH = Path(__file__).resolve().parent / "fake_gh.py"

needs_jq = pytest.mark.skipif(
    shutil.which("jq") is None, reason="the stand-in gh runs jq for --jq, as gh does inside"
)


@pytest.fixture
def gh(tmp_path: Path) -> Releases:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "gh"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE_GH}" "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    return Releases(tmp_path / "gh-home")


def export_dir(tmp_path: Path, database: bytes = b"SQLite format 3\0") -> Path:
    folder = tmp_path / "export"
    folder.mkdir(exist_ok=True)
    (folder / "quietedit.db.gz").write_bytes(database)
    (folder / "quietedit.metadata.json").write_text('{"title": "quietedit archive"}\n')
    return folder


def publish(
    gh: Releases, folder: Path, day: str, *, limit: int = 2**31, part_size: int | None = None
) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "DATABASE_ASSET_LIMIT": str(limit),
        **({"DATABASE_PART_SIZE": str(part_size)} if part_size is not None else {}),
        "PATH": f"{gh.home.parent / 'bin'}{os.pathsep}{os.environ['PATH']}",
        "FAKE_GH_HOME": str(gh.home),
        "GH_REPO": "quietedit/quietedit",
    }
    return subprocess.run(
        [str(SCRIPT), str(folder), day], capture_output=True, text=True, env=env, check=False
    )


@needs_jq
def test_each_export_goes_to_a_release_of_its_own_marked_latest(
    gh: Releases, tmp_path: Path
) -> None:
    done = publish(gh, export_dir(tmp_path), "2026-11-30")
    assert done.returncode == 0, done.stderr
    release = gh.release("database-2026-11-30")
    assert release["latest"] is True
    assert sorted(release["assets"]) == ["quietedit.db.gz", "quietedit.metadata.json"]
    assert gh.asset_bytes("database-2026-11-30", "quietedit.db.gz") == b"SQLite format 3\0"
    later = publish(gh, export_dir(tmp_path, b"next week"), "2026-12-07")
    assert later.returncode == 0, later.stderr
    assert gh.tags() == ["database-2026-11-30", "database-2026-12-07"]
    assert gh.asset_bytes("database-2026-11-30", "quietedit.db.gz") == b"SQLite format 3\0"


@needs_jq
def test_a_rerun_replaces_only_an_upload_that_was_cut_off(gh: Releases, tmp_path: Path) -> None:
    gh.create("database-2026-11-30", latest=True)
    gh.add_asset("database-2026-11-30", "quietedit.db.gz", b"SQLite fo", state_name="starter")
    gh.add_asset("database-2026-11-30", "quietedit.metadata.json", b"{}\n")
    done = publish(gh, export_dir(tmp_path), "2026-11-30")
    assert done.returncode == 0, done.stderr
    assert "already holds quietedit.metadata.json" in done.stdout
    assert gh.asset_bytes("database-2026-11-30", "quietedit.db.gz") == b"SQLite format 3\0"
    assert gh.asset_bytes("database-2026-11-30", "quietedit.metadata.json") == b"{}\n"


def test_a_missing_file_or_a_bad_day_stops_before_any_call(gh: Releases, tmp_path: Path) -> None:
    folder = export_dir(tmp_path)
    assert publish(gh, folder, "30 November").returncode == 2
    (folder / "quietedit.metadata.json").unlink()
    done = publish(gh, folder, "2026-11-30")
    assert done.returncode == 2 and "run quietedit export sqlite first" in done.stderr
    assert gh.calls() == []


@needs_jq
def test_a_database_over_github_s_asset_limit_goes_up_in_parts_with_their_checksums(
    gh: Releases, tmp_path: Path
) -> None:
    database = bytes(range(250)) * 4  # 1,000 bytes: limit 400, parts of 400 - 400 // 16 = 375
    folder = export_dir(tmp_path, database)
    done = publish(gh, folder, "2026-11-30", limit=400)
    assert done.returncode == 0, done.stderr
    assert "quietedit.db.gz is 1000 bytes, over GitHub's limit of 400" in done.stdout
    parts = ["quietedit.db.gz.part-000", "quietedit.db.gz.part-001", "quietedit.db.gz.part-002"]
    release = gh.release("database-2026-11-30")
    assert sorted(release["assets"]) == [
        *parts,
        "quietedit.db.gz.sha256",
        "quietedit.metadata.json",
    ]
    assert "cat quietedit.db.gz.part-* | gunzip > quietedit.db" in release["body"]
    sizes = [len(gh.asset_bytes("database-2026-11-30", name)) for name in parts]
    assert sizes == [375, 375, 250]
    # what a reader does: download, check, join
    download = tmp_path / "download"
    download.mkdir()
    for name in [*parts, "quietedit.db.gz.sha256"]:
        (download / name).write_bytes(gh.asset_bytes("database-2026-11-30", name))
    checked = subprocess.run(
        ["sha256sum", "--ignore-missing", "-c", "quietedit.db.gz.sha256"],
        cwd=download,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert b"".join((download / name).read_bytes() for name in sorted(parts)) == database
    # a rerun finds every part uploaded: the same file splits the same way
    again = publish(gh, folder, "2026-11-30", limit=400)
    assert again.returncode == 0, again.stderr
    assert again.stdout.count("already holds") == 5


def test_a_part_size_at_the_limit_or_a_metadata_file_over_it_is_refused_before_any_call(
    gh: Releases, tmp_path: Path
) -> None:
    folder = export_dir(tmp_path, b"x" * 10)
    refused = publish(gh, folder, "2026-11-30", limit=100, part_size=100)
    assert refused.returncode == 2 and "DATABASE_PART_SIZE must be between" in refused.stderr
    (folder / "quietedit.metadata.json").write_bytes(b"{}" * 60)
    done = publish(gh, folder, "2026-11-30", limit=100)
    assert done.returncode == 1
    assert "quietedit.metadata.json is 120 bytes, over GitHub's limit of 100" in done.stderr
    assert gh.calls() == []


def test_the_weekly_workflow_exports_the_whole_archive_and_attaches_it() -> None:
    workflow: dict[Any, Any] = yaml.safe_load(
        (ROOT / ".github" / "workflows" / "export.yml").read_text(encoding="utf-8")
    )
    assert workflow["permissions"] == {}
    assert workflow[True]["schedule"]  # "on:" reads as True in YAML 1.1
    job = workflow["jobs"]["export"]
    assert job["permissions"] == {"contents": "write"}
    steps = job["steps"]
    checkout = steps[0]
    assert checkout["uses"].startswith("actions/checkout@")
    assert checkout["with"]["persist-credentials"] is False
    assert "sparse-checkout" not in checkout["with"]  # the export reads every document
    scripts = [step.get("run", "") for step in steps]
    export = next(i for i, s in enumerate(scripts) if "quietedit export sqlite" in s)
    upload = next(i for i, s in enumerate(scripts) if "publish-database.sh" in s)
    assert export < upload
    assert "gzip -6 --no-name export/quietedit.db" in scripts[export]
    assert "quietedit export sqlite export/quietedit.db " in scripts[export]  # metadata beside


DOWNLOAD = ROOT / ".github" / "scripts" / "download-database.sh"


def download(gh: Releases, folder: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PATH": f"{gh.home.parent / 'bin'}{os.pathsep}{os.environ['PATH']}",
        "FAKE_GH_HOME": str(gh.home),
        "GH_REPO": "quietedit/quietedit",
    }
    return subprocess.run(
        [str(DOWNLOAD), str(folder)], capture_output=True, text=True, env=env, check=False
    )


def gzipped(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


LAST_WEEK = b"SQLite format 3\0" + b"".join(  # incompressible: gzipped, several parts
    hashlib.sha256(str(n).encode()).digest() for n in range(400)
)


@needs_jq
@pytest.mark.parametrize("limit", [2**31, 4000], ids=["one-file", "in-parts"])
def test_last_week_s_database_is_downloaded_and_unpacked(
    gh: Releases, tmp_path: Path, limit: int
) -> None:
    done = publish(gh, export_dir(tmp_path, gzipped(LAST_WEEK)), "2026-11-30", limit=limit)
    assert done.returncode == 0, done.stderr
    assert (len(gh.release("database-2026-11-30")["assets"]) > 2) == (limit < 2**31)
    folder = tmp_path / "next"
    got = download(gh, folder)
    assert got.returncode == 0, got.stderr
    assert (folder / "quietedit.db").read_bytes() == LAST_WEEK
    assert "last week's database: database-2026-11-30" in got.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["quietedit.db"]  # nothing else left


@needs_jq
def test_no_usable_database_of_last_week_leaves_none(gh: Releases, tmp_path: Path) -> None:
    folder = tmp_path / "next"
    nothing = download(gh, folder)
    assert nothing.returncode == 1 and "no latest release" in nothing.stderr
    gh.create("evidence-2026-11", latest=True)
    other = download(gh, folder)
    assert other.returncode == 1 and "'evidence-2026-11', is not a database" in other.stderr
    publish(gh, export_dir(tmp_path, gzipped(LAST_WEEK)), "2026-11-30", limit=4000)
    # a part damaged on the way
    tag = "database-2026-11-30"
    part = gh.release(tag)["assets"]["quietedit.db.gz.part-001"]
    path = gh.home / "assets" / str(part["id"])
    path.write_bytes(b"x" + path.read_bytes()[1:])
    damaged = download(gh, folder)
    assert damaged.returncode == 1 and "does not match its checksum" in damaged.stderr
    publish(gh, export_dir(tmp_path, b"not gzip at all"), "2026-12-07")
    broken = download(gh, folder)
    assert broken.returncode == 1 and "cannot be unpacked" in broken.stderr
    assert not (folder / "quietedit.db").exists()
    assert sorted(p.name for p in folder.iterdir()) == []


def test_the_weekly_workflow_updates_last_week_s_database() -> None:
    workflow: dict[Any, Any] = yaml.safe_load(
        (ROOT / ".github" / "workflows" / "export.yml").read_text(encoding="utf-8")
    )
    scripts = [step.get("run", "") for step in workflow["jobs"]["export"]["steps"]]
    fetch = next(i for i, s in enumerate(scripts) if "download-database.sh export" in s)
    export = next(i for i, s in enumerate(scripts) if "quietedit export sqlite" in s)
    assert fetch < export
    assert "download-database.sh export || true" in scripts[fetch]  # a failure: export whole
    assert "quietedit export sqlite export/quietedit.db --update" in scripts[export]


@pytest.mark.parametrize(("day", "optimized"), [("1", True), ("7", True), ("8", False)])
def test_the_first_week_of_a_month_updates_and_merges_the_full_text_indexes(
    tmp_path: Path, day: str, optimized: bool
) -> None:
    workflow: dict[Any, Any] = yaml.safe_load(
        (ROOT / ".github" / "workflows" / "export.yml").read_text(encoding="utf-8")
    )
    scripts = [step.get("run", "") for step in workflow["jobs"]["export"]["steps"]]
    fetch = next(s for s in scripts if "download-database.sh export" in s)
    export = next(s for s in scripts if "quietedit export sqlite" in s)
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "date").write_text(f"#!/bin/sh\necho {day}\n", encoding="utf-8")
    (fake / "quietedit").write_text('#!/bin/sh\necho "$@" > args\n: > "$3"\n', encoding="utf-8")
    (fake / "gzip").write_text("#!/bin/sh\n", encoding="utf-8")
    script = tmp_path / ".github" / "scripts" / "download-database.sh"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\ntouch downloaded\n", encoding="utf-8")
    for path in (fake / "date", fake / "quietedit", fake / "gzip", script):
        path.chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}"}
    for step in (fetch, export):
        done = subprocess.run(
            ["bash", "-e", "-o", "pipefail", "-c", step],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
    assert (tmp_path / "downloaded").exists()  # every week starts from last week's
    args = (tmp_path / "args").read_text(encoding="utf-8").split()
    assert args[:4] == ["export", "sqlite", "export/quietedit.db", "--update"]
    assert ("--optimize" in args) == optimized
