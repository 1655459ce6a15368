"""An hourly run in the workflow's clone: only the documents still observed are on disk.

The newsroom of :mod:`tests.ingest.test_run` is archived in a work repository for a month,
pushed to a bare origin, and cloned as the hourly job clones it (shallow, blob-less,
cone-mode sparse, then ``quietedit sparse-paths | git sparse-checkout add --stdin``). A
month on, every story has retired, so none is checked out; then the feed renames one, the
run fetches that document alone, checks it, commits and pushes, and the site build keeps
the pages of the documents the clone left out.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from datetime import timedelta
from pathlib import Path

from click.testing import CliRunner

from quietedit.archive.since import verify_since
from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.cli import cli
from quietedit.config import load_config
from quietedit.ingest.run import run_ingest
from tests.conftest import clone_observed, git
from tests.ingest.test_run import T0, Newsroom, config_file, doc_of, newsroom  # noqa: F401

PUSH = Path(__file__).parents[2] / ".github" / "scripts" / "push-data.sh"
IDENTITY = {
    "GIT_AUTHOR_NAME": "Tests",
    "GIT_AUTHOR_EMAIL": "tests@example.org",
    "GIT_COMMITTER_NAME": "Tests",
    "GIT_COMMITTER_EMAIL": "tests@example.org",
}


def build(config: Path, data: Path, out: Path) -> tuple[int, str]:
    done = CliRunner().invoke(
        cli, ["build", "--config", str(config), "--data", str(data), "--out", str(out)]
    )
    return done.exit_code, done.output


def test_an_hourly_run_in_a_clone_of_the_documents_still_observed(
    newsroom: Newsroom,  # noqa: F811
    config_file: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    config = load_config(config_file, environ={})
    work, bare = tmp_path / "work", tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    git(bare, "config", "uploadpack.allowFilter", "true")
    git(tmp_path, "init", "-q", "-b", "main", str(work))
    archive = Archive(work / "data")
    for round_, at in ((1, T0), (2, T0 + timedelta(hours=1))):
        newsroom.round = round_
        run_ingest(config, archive, now=at, simulated=True)
    later = T0 + timedelta(days=30)  # every story retired, the edited ones too
    run_ingest(config, archive, now=later, simulated=True)
    site = tmp_path / "site"
    assert build(config_file, work / "data", site)[0] == 0
    edited = sorted(p.name for p in (site / "articles").iterdir())
    assert edited  # stories with pages of their own
    git(work, "add", "-A")
    git(work, "commit", "-qm", "A month of the newsroom")
    git(work, "push", "-q", str(bare), "main")

    clone = tmp_path / "clone"
    hour = later + timedelta(hours=1)
    clone_observed(bare, clone, now=hour.isoformat())
    partition = clone / "data" / "documents" / "2026" / "11" / "30"
    assert not partition.exists()  # nothing of November is still observed
    before = git(clone, "rev-parse", "HEAD").strip()

    # a month on, the feed lists the budget story alone, with a new headline: a claim
    newsroom.round, newsroom.listed = 3, {"/news/budget"}
    report = run_ingest(config, Archive(clone / "data"), now=hour, simulated=True)

    assert report.errors == []
    budget = doc_of(newsroom, "/news/budget")
    fetched = sorted(p.name for p in partition.glob("*/*") if p.is_dir())
    assert fetched == [budget]  # that document alone came back, with the checks file
    entries = json.loads((partition / "checks.json").read_text())["documents"]
    assert len(entries) == len(Archive(work / "data").document_ids(["2026/11/30"]))
    assert verify_since(clone / "data", before).problems == ()
    pushed = subprocess.run(
        [str(PUSH), "main", "Ingest"],
        cwd=clone,
        env={**os.environ, **IDENTITY},
        capture_output=True,
        text=True,
        check=False,
    )
    assert pushed.returncode == 0, pushed.stdout + pushed.stderr

    # the hourly build, from the previous site: pages of documents left out are kept
    code, output = build(config_file, clone / "data", site)
    assert code == 0, output
    assert sorted(p.name for p in (site / "articles").iterdir()) == edited
    assert sorted(p.name for p in partition.glob("*/*") if p.is_dir()) == [budget]

    git(work, "pull", "-q", str(bare), "main")
    assert verify_archive(work / "data").problems == ()
    fresh = tmp_path / "fresh-site"
    assert build(config_file, work / "data", fresh)[0] == 0
    assert sorted(p.name for p in (fresh / "articles").iterdir()) == edited
    shutil.rmtree(fresh)
