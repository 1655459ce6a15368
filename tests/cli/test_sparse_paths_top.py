"""``sparse-paths --all`` when the archive is the top of its git work tree (a repository
of the archive alone): what it prints is usable by ``git sparse-checkout add`` in cone
mode, which takes no ``.``, and brings back every folder of the archive."""

from __future__ import annotations

import subprocess
from pathlib import Path

from click.testing import CliRunner

from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.cli import cli
from tests.conftest import git, observation


def test_all_of_an_archive_at_the_top_of_its_work_tree_is_its_folders(tmp_path: Path) -> None:
    origin = tmp_path / "origin"
    origin.mkdir()
    git(origin, "init", "-q", "-b", "main")
    archive = Archive(origin)
    url = "https://news.example.org/world/2026/10/02/story"
    doc = document_id(url)
    archive.write_document(doc, {"url": url, "discovered_at": "2026-10-02T06:00:00Z"})
    archive.append_revision(doc, observation(url=url))
    archive.write_state("partitions", {"active": []})
    git(origin, "add", "-A")
    git(origin, "commit", "-qm", "archive")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", "--no-checkout", str(origin), str(clone))
    git(clone, "sparse-checkout", "set", "--cone", "state")
    git(clone, "checkout", "-q", "main")
    assert not list((clone / "documents").rglob("document.json"))

    shown = CliRunner().invoke(cli, ["sparse-paths", "--data", str(clone), "--all"])

    assert shown.exit_code == 0, shown.output
    assert shown.output.split() == ["feeds", "state", "index", "documents", "departed"]
    subprocess.run(
        ["git", "sparse-checkout", "add", "--stdin"],
        cwd=clone,
        input=shown.output,
        text=True,
        check=True,
    )
    assert len(list((clone / "documents").rglob("document.json"))) == 1
    assert (clone / "index").is_dir()


def test_all_of_an_archive_below_the_top_is_its_own_folder(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q", "-b", "main")
    shown = CliRunner().invoke(cli, ["sparse-paths", "--data", str(tmp_path / "data"), "--all"])
    assert shown.exit_code == 0 and shown.output == "data\n"
