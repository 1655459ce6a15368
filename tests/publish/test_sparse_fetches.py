"""An hourly build in the hourly job's sparse clone: the documents it must read that the
checkout leaves out are fetched at once, not one ``git sparse-checkout add`` each.

The case that made it matter: once the archive is older than ``settings.site.share_days``,
every hour some edits leave the share window, and their documents (first seen a week
before, rarely in the checkout) are rendered again without their image.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quietedit.archive.store import Archive
from quietedit.model import Article, Block, Publisher
from quietedit.publish.share import IMAGE_NAME
from quietedit.revisions import Observation
from tests.conftest import git
from tests.publish.test_committed import clone, origin_of
from tests.publish.test_folding import story
from tests.publish.test_incremental import build, files

OLD_DAY = datetime(2026, 11, 1, 8, 0, tzinfo=UTC)
NEW_DAY = datetime(2026, 11, 3, 8, 0, tzinfo=UTC)
LEFT_OUT = 5


def sparse_adds(trace: Path) -> list[list[str]]:
    """The ``git sparse-checkout add`` commands a GIT_TRACE2_EVENT file recorded."""
    found = []
    for line in trace.read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        argv = event.get("argv", [])
        at = argv.index("sparse-checkout") if "sparse-checkout" in argv else -1
        if event.get("event") == "start" and at > 0 and argv[at + 1 : at + 2] == ["add"]:
            found.append(argv)
    return found


@pytest.mark.parametrize("index", ["checked out", "fetched when read"])
def test_edits_leaving_the_share_window_fetch_their_documents_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, index: str
) -> None:
    data = tmp_path / "origin" / "data"
    archive = Archive(data)
    old = [
        story(archive, f"https://news.example.org/world/2026/11/old{n}", OLD_DAY, edits=1)
        for n in range(LEFT_OUT)
    ]
    new = story(archive, "https://news.example.org/world/2026/11/new", NEW_DAY, edits=1)
    origin = origin_of(data)
    checkout = clone(origin, tmp_path / "clone")
    out = tmp_path / "site"
    assert build(checkout, out).failures == ()
    assert all(any((out / "articles" / doc).rglob(IMAGE_NAME)) for doc in old)
    # a week later, the new story is edited again: the old edits leave the share window
    last = archive.latest_revision(new)
    assert last is not None
    archive.append_revision(
        new,
        Observation(
            url=last.observation.url,
            observed_at=NEW_DAY + timedelta(days=7),
            article=Article(
                last.article.title,
                (*last.article.blocks, Block("A correction was appended.")),
                Publisher(),
            ),
            extractor="tests/1",
        ),
    )
    git(origin, "add", "data")
    git(origin, "commit", "-qm", "a week later")
    repo = checkout.parent
    # the hourly job's clone leaves the index out: a shard is fetched when read (the
    # build's cache places the documents, so theirs are not)
    cone = ["data/index"] if index == "checked out" else []
    git(repo, "sparse-checkout", "set", "--cone", *cone, "data/documents/2026/11/03")
    git(repo, "pull", "-q", "--ff-only")
    assert not any((checkout / "documents" / "2026" / "11" / "01").rglob("*.json"))
    trace = tmp_path / "trace.json"
    monkeypatch.setenv("GIT_TRACE2_EVENT", str(trace))

    report = build(checkout, out)

    monkeypatch.delenv("GIT_TRACE2_EVENT")
    assert report.failures == ()
    assert not any(any((out / "articles" / doc).rglob(IMAGE_NAME)) for doc in old)
    assert all(f"articles/{doc}/index.html" in report.written for doc in old)
    # the five documents left out came in one `sparse-checkout add`, not one each, nor
    # one for their index shards first
    assert len(sparse_adds(trace)) == 1
    fresh = tmp_path / "fresh"
    build(data, fresh)
    assert {p: v[2] for p, v in files(out).items()} == {p: v[2] for p, v in files(fresh).items()}
