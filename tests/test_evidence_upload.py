"""The workflows' evidence upload, ``.github/scripts/upload-evidence.sh``, run for real
against a stand-in ``gh`` (tests/fake_gh.py) that keeps releases as files: a file leaves
``evidence/`` only once a release holds its bytes, and nothing on a release is replaced."""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fake_gh import Releases

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / ".github" / "scripts" / "upload-evidence.sh"
FAKE_GH = Path(__file__).resolve().parent / "fake_gh.py"

pytestmark = pytest.mark.skipif(
    shutil.which("jq") is None, reason="the stand-in gh runs jq for --jq, as gh does inside"
)

OCTOBER = "2026-10/quietedit-20261031T231700Z.warc.gz"
NOVEMBER_1 = "2026-11/quietedit-20261101T001700Z.warc.gz"
NOVEMBER_2 = "2026-11/quietedit-20261101T011700Z-shard-2-of-3.warc.gz"


def warc(evidence: Path, name: str, body: str = "<p>Council approves budget</p>") -> bytes:
    """Write a small WARC file (one gzip member per record, as quietedit writes them)."""
    record = (
        "WARC/1.1\r\nWARC-Type: response\r\n"
        f"WARC-Target-URI: https://news.example.org/{name}\r\n\r\n"
        f"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{body}\r\n\r\n"
    )
    data = gzip.compress(record.encode(), mtime=0)
    path = evidence / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return data


@pytest.fixture
def gh(tmp_path: Path) -> Releases:
    """The stand-in's releases; its ``gh`` is first on PATH for :func:`upload`."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "gh"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE_GH}" "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    return Releases(tmp_path / "gh-home")


def upload(
    gh: Releases, evidence: Path, *, cut_off: tuple[str, ...] = (), per_release: int = 1000
) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PATH": f"{gh.home.parent / 'bin'}{os.pathsep}{os.environ['PATH']}",
        "FAKE_GH_HOME": str(gh.home),
        "GH_REPO": "newsroom/archive",
        "FAKE_GH_FAIL_UPLOAD": ",".join(Path(name).name for name in cut_off),
        "EVIDENCE_ASSETS_PER_RELEASE": str(per_release),
    }
    return subprocess.run(
        ["bash", str(SCRIPT), str(evidence)],
        cwd=evidence.parent,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def left(evidence: Path) -> list[str]:
    return sorted(p.relative_to(evidence).as_posix() for p in evidence.rglob("*") if p.is_file())


def calls(gh: Releases, *prefix: str) -> list[list[str]]:
    return [call for call in gh.calls() if call[: len(prefix)] == list(prefix)]


def test_uploaded_files_are_removed_and_one_whose_upload_failed_is_kept(
    gh: Releases, tmp_path: Path
) -> None:
    evidence = tmp_path / "evidence"
    october, november_1, november_2 = (warc(evidence, n) for n in (OCTOBER, NOVEMBER_1, NOVEMBER_2))
    gh.create("evidence-2026-10", latest=False)

    done = upload(gh, evidence, cut_off=(NOVEMBER_2,))

    assert done.returncode == 1, done.stdout + done.stderr
    assert f"::error::{evidence / NOVEMBER_2}: the upload to release evidence-2026-11 failed" in (
        done.stdout
    )
    assert left(evidence) == [NOVEMBER_2]
    assert evidence.is_dir() and not (evidence / "2026-10").exists()
    assert gh.asset_bytes("evidence-2026-10", Path(OCTOBER).name) == october
    assert gh.asset_bytes("evidence-2026-11", Path(NOVEMBER_1).name) == november_1
    # the month's release was created once, and never marked the repository's latest
    assert [call[2] for call in calls(gh, "release", "create")] == ["evidence-2026-11"]
    assert gh.release("evidence-2026-11")["latest"] is False
    assert "verify --evidence" in gh.release("evidence-2026-11")["body"]
    assert gh.release("evidence-2026-11")["assets"][Path(NOVEMBER_2).name]["state"] == "starter"

    # the next run deletes the half-uploaded asset, uploads the file again and removes it
    again = upload(gh, evidence)

    assert again.returncode == 0, again.stdout + again.stderr
    assert left(evidence) == []
    assert evidence.is_dir()  # kept, so the cache that carries it is saved empty
    assert gh.asset_bytes("evidence-2026-11", Path(NOVEMBER_2).name) == november_2
    assert gh.release("evidence-2026-11")["assets"][Path(NOVEMBER_2).name]["state"] == "uploaded"
    assert len(calls(gh, "api", "-X", "DELETE")) == 1
    assert len(calls(gh, "release", "create")) == 1


def test_a_file_a_release_already_holds_is_removed_without_a_second_upload(
    gh: Releases, tmp_path: Path
) -> None:
    """An earlier run was cut off between its upload and removing the file."""
    evidence = tmp_path / "evidence"
    data = warc(evidence, NOVEMBER_1)
    gh.create("evidence-2026-11", latest=False)
    gh.add_asset("evidence-2026-11", Path(NOVEMBER_1).name, data)

    done = upload(gh, evidence)

    assert done.returncode == 0, done.stdout + done.stderr
    assert left(evidence) == []
    assert calls(gh, "release", "upload") == []
    assert "evidence-2026-11 already holds" in done.stdout


@pytest.mark.parametrize("other", ["of another size", "of the same size"])
def test_an_asset_of_the_same_name_with_other_bytes_is_never_replaced(
    gh: Releases, tmp_path: Path, other: str
) -> None:
    evidence = tmp_path / "evidence"
    ours = warc(evidence, NOVEMBER_1)
    if other == "of the same size":
        theirs = ours[:-8] + bytes(b ^ 0xFF for b in ours[-8:])
    else:
        theirs = warc(tmp_path / "elsewhere", NOVEMBER_1, body="<p>Council rejects budget</p>")
    assert (len(theirs) == len(ours)) == (other == "of the same size")
    gh.create("evidence-2026-11", latest=False)
    gh.add_asset("evidence-2026-11", Path(NOVEMBER_1).name, theirs)

    done = upload(gh, evidence)

    assert done.returncode == 1
    assert "never replaced" in done.stdout
    assert left(evidence) == [NOVEMBER_1]
    assert gh.asset_bytes("evidence-2026-11", Path(NOVEMBER_1).name) == theirs
    assert calls(gh, "release", "upload") == [] and calls(gh, "api", "-X", "DELETE") == []
    downloads = calls(gh, "api", "-H", "Accept: application/octet-stream")
    assert len(downloads) == (1 if other == "of the same size" else 0)  # sizes differ: no need


def test_a_full_release_goes_on_in_the_months_next_release(gh: Releases, tmp_path: Path) -> None:
    """GitHub holds at most 1,000 assets per release; here 3, listed 2 to a page."""
    evidence = tmp_path / "evidence"
    gh.create("evidence-2026-11", latest=False)
    for hour in range(3):
        gh.add_asset("evidence-2026-11", f"quietedit-20261101T0{hour}0000Z.warc.gz", b"x")
    first, second = warc(evidence, NOVEMBER_1), warc(evidence, NOVEMBER_2)

    done = upload(gh, evidence, per_release=3)

    assert done.returncode == 0, done.stdout + done.stderr
    assert left(evidence) == []
    assert len(gh.release("evidence-2026-11")["assets"]) == 3
    assert gh.asset_bytes("evidence-2026-11-2", Path(NOVEMBER_1).name) == first
    assert gh.asset_bytes("evidence-2026-11-2", Path(NOVEMBER_2).name) == second
    assert gh.release("evidence-2026-11-2")["latest"] is False

    # a copy found in the month's second release counts as uploaded there
    warc(evidence, NOVEMBER_1)
    again = upload(gh, evidence, per_release=3)
    assert again.returncode == 0 and left(evidence) == []
    assert len(calls(gh, "release", "upload")) == 2


def test_a_file_outside_a_month_folder_is_kept_and_reported(gh: Releases, tmp_path: Path) -> None:
    evidence = tmp_path / "evidence"
    warc(evidence, "misc/quietedit-20261101T001700Z.warc.gz")

    done = upload(gh, evidence)

    assert done.returncode == 1
    assert "not a month's WARC file" in done.stdout
    assert left(evidence) == ["misc/quietedit-20261101T001700Z.warc.gz"]
    assert gh.calls() == []


def test_no_evidence_folder_is_nothing_to_upload(gh: Releases, tmp_path: Path) -> None:
    done = upload(gh, tmp_path / "evidence")

    assert done.returncode == 0
    assert gh.calls() == []
