"""The command line: version, logging, verify's exit codes and messages, config output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from quietedit import __version__
from quietedit.archive.layout import Layout
from quietedit.cli import cli
from tests.archive.builders import write_story
from tests.conftest import git

DAY = "2026/11/30"


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_version_and_help() -> None:
    code, out, _ = run("--version")
    assert (code, out) == (0, f"quietedit, version {__version__}\n")
    code, out, _ = run("--help")
    assert code == 0
    assert "verify" in out and "config" in out


def test_python_dash_m_runs_the_same_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "quietedit", "--version"], capture_output=True, text=True
    )
    assert done.returncode == 0
    assert done.stdout == f"quietedit, version {__version__}\n"


def test_verify_clean_archive_exits_0_and_logs_a_summary(tmp_path: Path) -> None:
    write_story(tmp_path / "data")
    code, out, err = run("verify", "--data", str(tmp_path / "data"))
    assert (code, out) == (0, "")
    assert "checked 1 documents, 3 revisions (3 naming evidence): no problems" in err


def test_verify_prints_one_line_per_problem_and_exits_1(tmp_path: Path) -> None:
    root = tmp_path / "data"
    doc = write_story(root)
    first = Layout(root).revision_file(doc, DAY, 1)
    first.unlink()
    (root / "stray.bin").write_bytes(b"\x00")
    code, out, err = run("verify", "--data", str(root))
    assert code == 1
    lines = out.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"{first}: missing")
    assert lines[1].startswith(f"{root / 'stray.bin'}: unexpected file")
    assert "2 problem(s)" in err


def test_verify_evidence_reports_each_revision_whose_warc_file_is_missing(
    tmp_path: Path,
) -> None:
    root = tmp_path / "data"
    doc = write_story(root)
    (tmp_path / "evidence").mkdir()
    code, out, err = run("verify", "--data", str(root), "--evidence", str(tmp_path / "evidence"))
    assert code == 1
    warc = "2026-11/quietedit-20261130T060000Z.warc.gz"
    assert out.splitlines() == [
        f"{Layout(root).revision_file(doc, DAY, n)}: missing: evidence file {warc} is not in "
        f"{tmp_path / 'evidence'} (download it from the release evidence-2026-11)"
        for n in (1, 2, 3)
    ]
    assert f"and their evidence in {tmp_path / 'evidence'}: 3 problem(s)" in err
    code, out, _ = run("verify", "--data", str(root))  # plain verify needs no WARC
    assert (code, out) == (0, "")


def test_quiet_silences_the_summary(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    code, _, err = run("-q", "verify", "--data", str(tmp_path / "data"))
    assert (code, err) == (0, "")
    code, _, err = run("-v", "verify", "--data", str(tmp_path / "data"))
    assert "checked 0 documents" in err


def test_verify_since_reports_git_tampering(repo: Path) -> None:
    root = repo / "data"
    doc = write_story(root)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "ingest")
    newest = Layout(root).revision_file(doc, DAY, 3)
    newest.unlink()
    code, out, err = run("verify", "--data", str(root), "--since", "HEAD")
    assert code == 1
    assert out == (
        f"{newest}: deleted since HEAD; revisions, events and evidence are create-only\n"
    )
    assert "checked 0 documents, 0 revisions (0 naming evidence), changed since HEAD" in err


def test_verify_since_without_git_is_a_clear_error_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    code, out, err = run("verify", "--data", str(tmp_path / "data"), "--since", "HEAD")
    assert code == 1
    assert out == ""
    assert err == f"Error: {tmp_path / 'data'} is not inside a git repository; --since needs one\n"


def test_verify_takes_the_data_folder_from_the_config(tmp_path: Path) -> None:
    config = tmp_path / "site.yaml"
    config.write_text("settings:\n  paths:\n    data: archive\n", encoding="utf-8")
    write_story(tmp_path / "archive", revisions=1)
    code, _, err = run("verify", "--config", str(config))
    assert code == 0
    assert "checked 1 documents, 1 revisions" in err


def test_bad_config_lists_every_problem_and_exits_1(tmp_path: Path) -> None:
    config = tmp_path / "feeds.yaml"
    config.write_text(
        "feeds:\n  - url: ftp://example.org/feed\n    name: Desk\n"
        "settings:\n  fetch:\n    timout: 5s\n",
        encoding="utf-8",
    )
    code, out, err = run("config", "--config", str(config))
    assert code == 1
    assert out == ""
    assert "2 configuration problems" in err
    assert "feeds[0].url" in err and "settings.fetch.timout" in err
    assert "Traceback" not in err


def test_config_prints_effective_settings_and_redacts_headers(tmp_path: Path) -> None:
    config = tmp_path / "feeds.yaml"
    config.write_text(
        "feeds:\n  - url: https://news.example.org/rss.xml\n    name: City Desk\n"
        "    render: chromium\n"
        "    headers:\n      Authorization: Bearer ${DESK_TOKEN}\n",
        encoding="utf-8",
    )
    env = {"DESK_TOKEN": "s3cret", "QUIETEDIT_RUN_MAX_ARTICLES": "7"}
    code, out, _ = run("config", "--config", str(config), env=env)
    assert code == 0
    shown = json.loads(out)
    assert shown["feeds"][0]["headers"] == {"Authorization": "<redacted>"}
    assert shown["feeds"][0]["slug"] == "city-desk"
    assert shown["feeds"][0]["render"] == "chromium"
    assert shown["settings"]["run"]["max_articles"] == 7
    assert "s3cret" not in out


@pytest.mark.parametrize("command", ["verify", "config"])
def test_missing_explicit_config_is_a_clear_error(command: str, tmp_path: Path) -> None:
    code, _, err = run(command, "--config", str(tmp_path / "nope.yaml"))
    assert code == 1
    assert "nope.yaml" in err
    assert "Traceback" not in err
