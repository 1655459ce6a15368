"""The ``quietedit build`` command: options, report, and clean errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from quietedit.cli import cli
from tests.publish.conftest import write_archive

BASE = ["--base-url", "https://e.example/r/"]


def test_build_command_writes_the_site_and_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no feeds.yaml here: the defaults apply
    write_archive(tmp_path / "data")
    runner = CliRunner()
    result = runner.invoke(cli, ["build", "--data", "data", "--out", "out", *BASE])
    assert result.exit_code == 0, result.output
    assert "4 documents, 4 edits" in result.stdout
    assert (tmp_path / "out/feed.xml").is_file() and (tmp_path / "out/index.html").is_file()
    again = runner.invoke(cli, ["build", "--data", "data", "--out", "out", *BASE])
    assert "0 written" in again.stdout and "0 documents rendered" in again.stdout
    full = runner.invoke(cli, ["build", "--data", "data", "--out", "out", *BASE, "--full"])
    assert "4 documents rendered" in full.stdout
    assert "pages written per second" in full.stdout


def test_build_errors_are_one_clear_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    missing = runner.invoke(cli, ["build", "--data", "nowhere", "--out", "out"])
    assert missing.exit_code == 1 and "no archive at nowhere" in missing.stderr
    (tmp_path / "data").mkdir()
    bad = runner.invoke(cli, ["build", "--data", "data", "--base-url", "ftp://x/"])
    assert bad.exit_code == 1 and "is not an http(s) URL" in bad.stderr
    assert "Traceback" not in bad.output
