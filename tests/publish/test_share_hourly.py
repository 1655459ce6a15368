"""The share images' window moves by whole hours: each hourly build renders again the
documents of the edits that left it in that hour, never a whole day's at once.

The case that made it matter: with a window of whole days, the first build of each day
rendered again every document edited on the day a week before (288 at 1,000 articles a
day), and the other builds of the day none; at day 7 no edit is that old yet, so the
hourly build cost more from day 8 on than on day 7.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from quietedit.archive.store import Archive
from quietedit.publish.share import IMAGE_NAME
from tests.publish.test_folding import story
from tests.publish.test_incremental import build, files
from tests.publish.test_share_once import revise

SEEN = datetime(2026, 11, 1, 18, 30, tzinfo=UTC)  # a story's edit is 3 hours after it
OLD = 4  # week-old stories, one edited in each hour from 21:30 to 00:30
WEEK = timedelta(days=7)


def test_an_hourly_build_renders_only_the_documents_of_the_hour_that_left_the_window(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    archive = Archive(data)
    old = [
        story(archive, f"https://news.example.org/world/2026/11/old{n}", seen, edits=1)
        for n, seen in enumerate(SEEN + timedelta(hours=n) for n in range(OLD))
    ]
    edited = [SEEN + timedelta(hours=n + 3) for n in range(OLD)]  # 21:30 … 00:30
    first = edited[0] + WEEK - timedelta(hours=3)  # its edit: the newest observation
    new = story(archive, "https://news.example.org/world/2026/11/new", first, edits=1)
    out = tmp_path / "site"
    assert build(data, out).failures == ()
    shared = {doc for doc in old if any((out / "articles" / doc).rglob(IMAGE_NAME))}
    assert shared == set(old)  # the newest observation: 21:30, a week after the first

    # each hour the newest observation moves on by an hour: one old edit leaves the window
    rendered = []
    for hour in range(1, OLD):
        revise(archive, new, edited[hour] + WEEK + timedelta(minutes=15))
        report = build(data, out)
        assert report.failures == ()
        rendered.append(report.rendered)
        gone = old[:hour]
        assert not any(any((out / "articles" / doc).rglob(IMAGE_NAME)) for doc in gone)
        assert all(any((out / "articles" / doc).rglob(IMAGE_NAME)) for doc in old[hour:])

    # the revised story and the one document whose edit left in that hour; a window of
    # whole days rendered the three edited before midnight together, at 00:45
    assert rendered == [2, 2, 2]
    fresh = tmp_path / "fresh"
    build(data, fresh, full=True)
    assert {p: v[2] for p, v in files(out).items()} == {p: v[2] for p, v in files(fresh).items()}
