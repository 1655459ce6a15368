"""The about page links the database export where the site says it is published
(``quietedit build --database-url``), and says how to make one where it does not: never a
link to another project's releases."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from quietedit.archive.store import Archive
from quietedit.cli import cli
from tests.publish.test_folding import NOVEMBER, story
from tests.publish.test_incremental import build

RELEASES = "https://github.com/example/watch/releases/latest"
DATA_URL = "https://github.com/example/watch/tree/main/data/"


def about(tmp_path: Path, **options: str | None) -> str:
    data = tmp_path / "data"
    if not data.exists():
        story(Archive(data), "https://courier.example/world/council-01", NOVEMBER, edits=1)
    out = tmp_path / "site"
    report = build(data, out, **options)
    assert not report.failures
    return (out / "about" / "index.html").read_text(encoding="utf-8")


def test_the_about_page_links_the_release_the_build_names(tmp_path: Path) -> None:
    page = about(tmp_path, database_url=RELEASES + "?x=1&y=2")
    assert f'<a href="{RELEASES}?x=1&amp;y=2">SQLite database</a>' in page
    assert "quietedit/quietedit/releases" not in page
    assert "does not publish a database" not in page


def test_without_a_release_the_about_page_says_how_to_make_the_database(
    tmp_path: Path,
) -> None:
    page = about(tmp_path)
    assert "/releases" not in page
    assert "This site does not publish a database export" in page
    assert "<code>quietedit export sqlite quietedit.db</code>" in page
    with_data = about(tmp_path, data_url=DATA_URL)
    assert f'<a href="{DATA_URL}">browse it here</a>' in with_data


def test_the_command_line_passes_the_address_and_refuses_one_that_is_not_http(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    story(Archive(data), "https://courier.example/world/council-02", NOVEMBER, edits=1)
    out = tmp_path / "site"
    args = ["build", "--data", str(data), "--out", str(out)]
    refused = CliRunner().invoke(cli, [*args, "--database-url", "javascript:alert(1)"])
    assert refused.exit_code == 2
    assert "--database-url" in refused.output and "is not an http(s) URL" in refused.output
    assert not out.exists()
    done = CliRunner().invoke(cli, [*args, "--database-url", RELEASES])
    assert done.exit_code == 0, done.output
    assert f'href="{RELEASES}"' in (out / "about" / "index.html").read_text(encoding="utf-8")
