"""Shared fixtures: archives on real folders, observations that look like real fetches."""

from __future__ import annotations

import os
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import settings

from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.cli import cli
from quietedit.model import Article, Block, Publisher
from quietedit.revisions import EvidenceRef, Observation

# Hypothesis fails an example that takes over 200 ms by default; on a loaded 2-core
# machine a pause of the scheduler's is not the code's. Speed is measured in bench/.
settings.register_profile("quietedit", deadline=None)
settings.load_profile("quietedit")

SLOW_MODULES = (
    "publish/browser/",  # a real Chromium, axe-core and the HTML validator on the demo site
    "article/test_extraction_quality.py",  # the real-world corpora (when present)
    "article/test_stability.py",
    "feeds/test_corpus.py",
    "cli/test_extract_batches.py",
    "archive/test_crash_safety.py",  # processes killed at many points
    "archive/test_lock.py",
    "ingest/test_worker_failures.py",  # workers crashed, hung and killed
    "ingest/test_workers.py",
    "ingest/test_shards.py",  # three shards pushing through a real git remote
    "test_pool.py",  # worker processes killed and dying
    "publish/test_build_failure.py",
)
"""Test modules ``pytest -m "not slow"`` (the quick loop) leaves out; single slow tests
elsewhere carry ``@pytest.mark.slow`` themselves."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    root = Path(__file__).parent
    for item in items:
        relative = item.path.relative_to(root).as_posix()
        if relative.startswith(SLOW_MODULES):
            item.add_marker(pytest.mark.slow)


T0 = datetime(2026, 11, 30, 6, 0, tzinfo=UTC)
STORY_URL = "https://news.example.org/politics/2026/11/30/council-budget-vote"

STORY = (
    "The city council approved a budget of 4.2 million euros on Monday, after a debate "
    "that ran past midnight.",
    "Council leader Maria Okafor said the vote was “a fair compromise” between the districts.",
    "Opposition members had asked for more money for the northern bus lines.",
)


def observation(
    *paragraphs: str,
    title: str = "Council approves budget after late-night debate",
    at: datetime = T0,
    url: str = STORY_URL,
    evidence: EvidenceRef | None = None,
) -> Observation:
    """An observation of the story as a fetch would make it (paragraphs default to STORY)."""
    return Observation(
        url=url,
        observed_at=at,
        article=Article(
            title=title,
            blocks=tuple(Block(p) for p in paragraphs or STORY),
            publisher=Publisher(date_published="2026-11-30T05:40:00Z", authors=("Ana Ruiz",)),
        ),
        extractor="tests/1",
        evidence=evidence,
        encoding={"encoding": "utf-8", "overruled": [], "source": "http"},
        http={"etag": '"v1"', "last_modified": None, "status": 200},
    )


def seed_story(archive: Archive, revisions: int = 3) -> str:
    """Store the story with ``revisions`` successive edits; return its document id."""
    doc = document_id(STORY_URL)
    archive.write_document(doc, {"url": STORY_URL, "first_seen": "2026-11-30T06:00:00Z"})
    for n in range(revisions):
        lede = STORY[0].replace("4.2", f"4.{2 + n}")
        archive.append_revision(doc, observation(lede, *STORY[1:], at=T0 + timedelta(hours=n)))
    return doc


@pytest.fixture(autouse=True)
def clean_environ(monkeypatch: pytest.MonkeyPatch) -> None:
    """No QUIETEDIT_* variable of the machine running the tests leaks into them."""
    for name in list(os.environ):
        if name.startswith("QUIETEDIT_"):
            monkeypatch.delenv(name)


@pytest.fixture
def archive(tmp_path: Path) -> Archive:
    return Archive(tmp_path / "data")


def git(repo: Path, *args: str) -> str:
    """Run git in ``repo`` with a fixed identity and return its stdout."""
    done = subprocess.run(
        ["git", "-c", "user.name=Tests", "-c", "user.email=tests@example.org", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A fresh git repository with an archive at ``data/``."""
    git(tmp_path, "init", "-q", "-b", "main")
    return tmp_path


def clone_observed(bare: Path, target: Path, *, now: str) -> Path:
    """The hourly job's clone: the newest commit, no blobs but those checked out, the
    folders every run reads, then what ``sparse-paths`` prints."""
    subprocess.run(
        [
            "git",
            "clone",
            "-q",
            "--filter=blob:none",
            "--depth=1",
            "--sparse",
            bare.as_uri(),
            target,
        ],
        check=True,
        capture_output=True,
    )
    git(target, "sparse-checkout", "set", "--cone", "--sparse-index", "data/feeds", "data/state")
    git(target, "sparse-checkout", "add", "data/index")
    paths = CliRunner().invoke(
        cli, ["sparse-paths", "--data", str(target / "data"), f"--now={now}"]
    )
    assert paths.exit_code == 0, paths.output
    subprocess.run(
        ["git", "sparse-checkout", "add", "--stdin"],
        cwd=target,
        input=paths.output,
        text=True,
        check=True,
        capture_output=True,
    )
    return target
