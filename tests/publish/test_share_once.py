"""An hourly build renders each document once, even on the hour the share images'
window moves: the cutoff is decided before the workers render, from the previous build's
rows and the latest revisions of the documents it renders.

The case that made it matter: a week-old document revised again in the hour the window
moves was rendered by the workers under the previous cutoff (its old edit still with its
image), then again once every row was written, under the new one.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

from quietedit.archive.store import Archive
from quietedit.model import Article, Block, Publisher
from quietedit.publish.share import IMAGE_NAME
from quietedit.revisions import Observation
from tests.publish.test_folding import story
from tests.publish.test_incremental import build, files

OLD_DAY = datetime(2026, 11, 1, 8, 0, tzinfo=UTC)
NEW_DAY = datetime(2026, 11, 3, 8, 0, tzinfo=UTC)
REVISED = 3  # week-old documents revised again in the hour the window moves
LEFT = 2  # week-old documents not revised: their pages change, they are rendered once


def revise(archive: Archive, doc: str, at: datetime) -> None:
    """A paragraph appended to ``doc``'s latest revision, observed ``at``."""
    last = archive.latest_revision(doc)
    assert last is not None
    article = Article(
        last.article.title, (*last.article.blocks, Block(f"Corrected at {at:%H:%M}.")), Publisher()
    )
    archive.append_revision(
        doc, Observation(url=last.observation.url, observed_at=at, article=article, extractor="t/1")
    )


def test_a_document_revised_as_the_share_window_moves_is_rendered_once(tmp_path: Path) -> None:
    data = tmp_path / "data"
    archive = Archive(data)
    old = [
        story(archive, f"https://news.example.org/world/2026/11/old{n}", OLD_DAY, edits=1)
        for n in range(REVISED + LEFT)
    ]
    new = story(archive, "https://news.example.org/world/2026/11/new", NEW_DAY, edits=1)
    out = tmp_path / "site"
    assert build(data, out).failures == ()
    before = {p for doc in old for p in (out / "articles" / doc).rglob(IMAGE_NAME)}
    assert {p.parts[-4] for p in before} == set(old)  # articles/<doc>/diff/<n>/share.png
    # a week later: the old edits leave the window, and some of their documents change
    later = NEW_DAY + timedelta(days=7)
    for doc in (new, *old[:REVISED]):
        revise(archive, doc, later)

    report = build(data, out)

    assert report.failures == ()
    # each changed page rendered once: the revised documents (the new story's too) and
    # those whose old edit lost its image (the old code rendered the revised ones twice)
    assert report.rendered == 1 + REVISED + LEFT
    assert not any(p.exists() for p in before)  # the old edits' images are gone
    assert all(f"articles/{doc}/index.html" in report.written for doc in old)
    fresh = tmp_path / "fresh"
    build(data, fresh)
    assert {p: v[2] for p, v in files(out).items()} == {p: v[2] for p, v in files(fresh).items()}


def test_a_cutoff_wrong_before_rendering_is_put_right_after(tmp_path: Path) -> None:
    """The newest row of the previous build was a document since deleted: the cutoff
    made before rendering is a week too late, and the pages rendered under it are made
    again once every row is written. The site equals a full build."""
    data = tmp_path / "data"
    archive = Archive(data)
    old = story(archive, "https://news.example.org/world/2026/11/old0", OLD_DAY, edits=1)
    story(archive, "https://news.example.org/world/2026/11/new", NEW_DAY, edits=1)
    late = story(archive, "https://news.example.org/world/2026/11/late", NEW_DAY, edits=0)
    revise(archive, late, NEW_DAY + timedelta(days=7))
    out = tmp_path / "site"
    assert build(data, out).failures == ()
    assert not any((out / "articles" / old).rglob(IMAGE_NAME))  # out of the window
    shutil.rmtree(archive.document_dir(late))
    revise(archive, old, NEW_DAY + timedelta(hours=1))

    report = build(data, out)

    assert report.failures == ()
    assert any((out / "articles" / old).rglob(IMAGE_NAME))  # in the window again
    fresh = tmp_path / "fresh"
    build(data, fresh)
    assert {p: v[2] for p, v in files(out).items()} == {p: v[2] for p, v in files(fresh).items()}
