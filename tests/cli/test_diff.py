"""`quietedit diff`: the report, the JSON, the defaults and the errors, on a real archive."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from quietedit.analysis import classify_change, diff_revisions
from quietedit.analysis.terminal import render_diff
from quietedit.archive.store import Archive
from quietedit.cli import cli
from quietedit.cli.diff import terminal_style
from tests.analysis.stories import BUDGET, story
from tests.conftest import seed_story


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_the_default_is_the_newest_pair_as_a_readable_word_diff(archive: Archive) -> None:
    doc = seed_story(archive)
    code, out, _ = run("diff", "--data", str(archive.root), doc)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == (
        f"{doc}: revision 2 (2026-11-30T07:00:00Z) → revision 3 (2026-11-30T08:00:00Z)"
    )
    assert lines[1] == "substantive · silent: the publisher showed no sign of this edit"
    assert "  facts (substantive)" in lines and "    block 1: 4.3 → 4.4" in lines
    assert "  date-modified: no (no dateModified in either revision)" in lines
    assert "block 1 changed (similarity 0.95)" in lines
    assert "The city council approved a budget of [-4.3-]{+4.4+} million euros" in out
    assert lines[-1] == "(2 blocks kept)"


def test_to_alone_compares_with_its_predecessor(archive: Archive) -> None:
    doc = seed_story(archive)
    code, out, _ = run("diff", "--data", str(archive.root), doc, "--to", "2")
    assert code == 0 and "revision 1 (" in out and "[-4.2-]{+4.3+}" in out


def test_json_prints_the_diff_and_its_classification(archive: Archive) -> None:
    doc = seed_story(archive)
    code, out, _ = run("diff", "--data", str(archive.root), doc, "--from", "1", "--json")
    assert code == 0
    shown = json.loads(out)
    assert shown["document"] == doc
    assert shown["from"] == {"revision": 1, "observed_at": "2026-11-30T06:00:00Z"}
    assert shown["to"] == {"revision": 3, "observed_at": "2026-11-30T08:00:00Z"}
    assert shown["diff"]["blocks"][0]["words"][1:3] == [["-", "4.2 "], ["+", "4.4 "]]
    assert shown["diff"]["summary"]["changed"] == 1
    assert shown["classification"]["kinds"] == ["facts", "lede"]
    assert shown["classification"]["silent"] is True
    again = run("diff", "--data", str(archive.root), doc, "--from", "1", "--json")[1]
    assert again == out


def test_the_data_folder_comes_from_the_configuration(tmp_path: Path) -> None:
    archive = Archive(tmp_path / "archive")
    doc = seed_story(archive, revisions=2)
    config = tmp_path / "feeds.yaml"
    config.write_text("settings:\n  paths:\n    data: archive\n", encoding="utf-8")
    code, out, _ = run("diff", "--config", str(config), doc)
    assert code == 0 and "[-4.2-]{+4.3+}" in out


def test_an_unknown_document_is_a_clear_error_with_a_suggestion(archive: Archive) -> None:
    doc = seed_story(archive)
    code, out, err = run("diff", "--data", str(archive.root), doc[:-1] + "x")
    assert code == 1 and out == ""
    assert f"Error: no document '{doc[:-1]}x' in {archive.root}; did you mean {doc}?" in err
    assert "Traceback" not in err


def test_an_unknown_revision_is_a_clear_error(archive: Archive) -> None:
    doc = seed_story(archive)
    code, _, err = run("diff", "--data", str(archive.root), doc, "--to", "7")
    assert code == 1
    assert f"Error: document '{doc}' has no revision 7; its revisions are 1 to 3" in err


def test_a_document_with_one_revision_has_nothing_to_diff(archive: Archive) -> None:
    doc = seed_story(archive, revisions=1)
    code, _, err = run("diff", "--data", str(archive.root), doc)
    assert code == 1 and "has 1 revision; a diff needs two" in err


def test_from_after_to_is_a_usage_error(archive: Archive) -> None:
    doc = seed_story(archive)
    code, _, err = run("diff", "--data", str(archive.root), doc, "--from", "3", "--to", "2")
    assert code == 2 and "revision 3 is not older than --to 2" in err


def test_a_broken_revision_file_is_reported_not_a_traceback(archive: Archive) -> None:
    doc = seed_story(archive)
    archive.revision_file(doc, 3).write_text("{not json", encoding="utf-8")
    code, _, err = run("diff", "--data", str(archive.root), doc)
    assert code == 1 and "not valid UTF-8 JSON" in err and "Traceback" not in err


def test_on_a_terminal_changes_are_coloured_and_struck_or_underlined() -> None:
    old, new = story(BUDGET), story([BUDGET[0].replace("4.2", "4.5"), *BUDGET[1:]])
    text = render_diff(diff_revisions(old, new), classify_change(old, new), style=terminal_style)
    assert "\x1b[31m\x1b[9m4.2\x1b[0m" in text  # red, struck through
    assert "\x1b[32m\x1b[4m4.5\x1b[0m" in text  # green, underlined
    assert "[-" not in text and "{+" not in text


def test_whole_blocks_added_and_removed_are_marked_as_such() -> None:
    old, new = story(BUDGET[:3]), story([BUDGET[0], BUDGET[2], BUDGET[3]])
    text = render_diff(diff_revisions(old, new), classify_change(old, new))
    assert f"old block 2 removed\n[-{BUDGET[1]}-]" in text
    assert f"block 3 added\n{{+{BUDGET[3]}+}}" in text
