"""``quietedit extract``: readable and JSON output, argument order, errors that name the file."""

from __future__ import annotations

import json
import shutil
import unicodedata
from pathlib import Path

from click.testing import CliRunner
from pytest_httpserver import HTTPServer

from quietedit.cli import cli
from tests.article.conftest import PAGES


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["extract", *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def copy(tmp_path: Path, *names: str) -> list[str]:
    paths = []
    for name in names:
        target = tmp_path / name
        shutil.copyfile(PAGES / name, target)
        paths.append(str(target))
    return paths


def test_json_prints_one_object_per_file_in_argument_order(tmp_path: Path) -> None:
    files = copy(tmp_path, "drupal-news.html", "wordpress-news.html", "live-blog.html")
    code, out, _ = run("--json", *files)
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [row["input"] for row in rows] == files
    assert [row["title"] for row in rows] == [
        "County to test hundreds of private wells near old airfield",
        "Riverside council approves flood barrier after four-hour debate",
        "Storm Ida live: bridge reopens as winds ease \u2013 latest updates",
    ]
    wordpress = rows[1]
    assert set(wordpress) == {"input", "title", "paragraphs", "blocks", "metadata"}
    assert wordpress["paragraphs"] == [block["text"] for block in wordpress["blocks"]]
    assert wordpress["blocks"][3] == {"kind": "heading", "text": "Opposition from the west bank"}
    assert wordpress["metadata"]["updated_line"] == "Updated November 30, 2026 at 10:12 am"


def test_url_resolves_the_pages_relative_links(tmp_path: Path) -> None:
    (page,) = copy(tmp_path, "drupal-news.html")
    code, out, _ = run("--json", "--url", "https://radio.example/news/x", page)
    assert code == 0
    metadata = json.loads(out)["metadata"]
    assert metadata["canonical_url"] == (
        "https://radio.example/news/2026/11/county-to-test-wells-near-airfield"
    )


def test_url_with_several_files_is_a_usage_error(tmp_path: Path) -> None:
    files = copy(tmp_path, "drupal-news.html", "live-blog.html")
    code, _, err = run("--url", "https://radio.example/x", *files)
    assert code == 2
    assert "--url names the address of one FILE, but 2 were given" in err


def test_a_missing_file_is_named_and_the_other_files_are_still_extracted(
    tmp_path: Path,
) -> None:
    (page,) = copy(tmp_path, "paywall-teaser.html")
    missing = str(tmp_path / "gone.html")
    code, out, err = run("--json", missing, page)
    assert code == 1
    assert err.strip() == f"Error: {missing}: cannot read the file (No such file or directory)"
    first, second = (json.loads(line) for line in out.splitlines())
    assert first == {"input": missing, "error": f"{missing}: cannot read the file (No such "
                     "file or directory)"}  # fmt: skip
    assert second["title"] == "Inside the deal that saved the shipyard"


def test_a_folder_or_a_blocked_url_is_a_clear_one_line_error(
    tmp_path: Path, httpserver: HTTPServer
) -> None:
    code, out, err = run(str(tmp_path), httpserver.url_for("/a"))
    assert code == 1
    assert out == ""
    lines = err.strip().splitlines()
    assert lines[0].startswith(f"Error: {tmp_path}: cannot read the file (")
    assert lines[1].startswith(f"Error: {httpserver.url_for('/a')}: ")
    assert "refused by the SSRF guard" in lines[1]  # loopback, refused by default


def test_a_url_is_fetched_and_extracted(tmp_path: Path, httpserver: HTTPServer) -> None:
    (page,) = copy(tmp_path, "german-cp1252.html")
    httpserver.expect_request("/a").respond_with_data(
        Path(page).read_bytes(), content_type="text/html; charset=windows-1252"
    )
    config = tmp_path / "feeds.yaml"
    config.write_text("settings:\n  allow_private_addresses: true\n", encoding="utf-8")
    code, out, _ = run("--json", "--config", str(config), httpserver.url_for("/a"))
    assert code == 0
    record = json.loads(out)
    assert record["input"] == httpserver.url_for("/a")
    _, saved_out, _ = run("--json", page)
    assert record["title"] == json.loads(saved_out)["title"]


def test_readable_output_shows_title_metadata_and_marked_blocks(tmp_path: Path) -> None:
    (page,) = copy(tmp_path, "german-cp1252.html")
    code, out, _ = run(page)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == f"==> {page}"
    assert lines[1] == "# Stadtrat beschließt Haushalt: Schwimmbad bleibt offen"
    assert "updated line: Aktualisiert am 30.11.2026, 10:12 Uhr" in lines
    assert "authors: Max Mustermann" in lines
    assert "## Was sich für Bürger ändert" in lines
    assert not any(line.startswith("headline:") for line in lines)  # empty fields are left out


def test_a_binary_file_extracts_without_error_or_control_characters(tmp_path: Path) -> None:
    junk = tmp_path / "junk.bin"
    junk.write_bytes(bytes(range(256)) * 4)
    code, out, _ = run("--json", str(junk))
    assert code == 0
    text = "".join(json.loads(out)["paragraphs"])
    assert text and not any(unicodedata.category(character) == "Cc" for character in text)


def test_jobs_extract_in_parallel_with_the_same_output_in_the_same_order(tmp_path: Path) -> None:
    names = sorted(path.name for path in PAGES.glob("*.html"))
    files = [*copy(tmp_path, *names), str(tmp_path / "missing.html")]
    code_one, one, _ = run("--json", *files)
    code_two, two, _ = run("--json", "--jobs", "2", *files)
    assert (code_one, code_two) == (1, 1)
    assert two == one
    assert [json.loads(line)["input"] for line in two.splitlines()] == files


def test_a_json_line_escapes_control_characters_so_it_is_written_as_it_is(
    tmp_path: Path,
) -> None:
    # JSON lines skip click's stripping of terminal colour codes: they can hold none.
    (name,) = copy(tmp_path, "drupal-news.html")
    coloured = str(tmp_path / "red\x1b[31m.html")
    Path(name).rename(coloured)
    code, out, _ = run("--json", coloured)
    assert code == 0
    assert "\x1b" not in out and "\\u001b[31m" in out
    assert json.loads(out)["input"] == coloured
