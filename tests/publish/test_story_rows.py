"""The stories file read in part by an hourly build (``storyrows``): the stories are a
whole grouping's, only the days around what changed are grouped again, and a file that
another build saved, of another version, damaged or missing is not read in part."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from quietedit.analysis.stories import StoryArticle
from quietedit.archive.store import Archive
from quietedit.publish import stories, storyrows
from quietedit.publish.buildcache import BuildState
from quietedit.publish.paths import CACHE_DIR
from quietedit.publish.stories import STORIES_FILE, Sketched, StoryState, group_by_day
from quietedit.publish.storyrows import StoryRows, group_hours
from tests.analysis.wire_stories import MUSEUM, OUTLET_A, OUTLET_B, OUTLET_C, TRAIN_STRIKE
from tests.publish.test_story_pages import build, store


def sketch(seed: int) -> tuple[int, ...]:
    rng = random.Random(seed)
    return tuple(rng.randrange(2**32) for _ in range(32))


def year() -> dict[str, Sketched]:
    """Every tenth day of a season: one story two outlets told, a lone article, and an
    article with no text to sketch."""
    found = {}
    for n in range(12):
        day = f"2026-{7 + n // 3:02d}-{1 + (n % 3) * 10:02d}"
        found[f"a{n:02d}"] = Sketched("courier", f"{day}T08:00:00Z", sketch(n))
        found[f"b{n:02d}"] = Sketched("herald", f"{day}T09:30:00Z", sketch(n))
        found[f"c{n:02d}"] = Sketched("daily", f"{day}T23:00:00Z", sketch(100 + n))
        found[f"e{n:02d}"] = Sketched("daily", "", ())
    return found


def saved(tmp_path: Path, generation: str = "7") -> StoryState:
    state = StoryState(documents=year())
    group_by_day(state)
    state.save(tmp_path, generation)
    return state


def test_an_hour_groups_only_the_days_around_its_changes_and_finds_the_whole_grouping(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved(tmp_path)
    rows = StoryRows.open(tmp_path, "7")
    assert rows is not None and not rows.documents  # nothing read yet
    hashed: list[list[StoryArticle]] = []
    key = stories.chunk_key

    def counted(articles: list[StoryArticle]) -> str:
        hashed.append(articles)
        return key(articles)

    monkeypatch.setattr(storyrows, "chunk_key", counted)
    # a third outlet joins September 11's story the next evening; July 1's herald
    # article is gone; a new lone article with no sketch
    rows.documents["w"] = Sketched("wire", "2026-09-11T20:00:00Z", sketch(7))
    rows.documents["x"] = Sketched("wire", "", ())
    rows.drop(["b00"])
    shown = group_hours(rows)

    expected = {d: s for d, s in year().items() if d != "b00"}
    expected |= {"w": Sketched("wire", "2026-09-11T20:00:00Z", sketch(7)), "x": rows.documents["x"]}
    whole = StoryState(documents=dict(expected))
    assert shown == group_by_day(whole)
    assert rows.chunks == whole.chunks
    # the days within 48 hours of a change, and only those read: not the season
    assert {a.first_seen.date().isoformat() for batch in hashed for a in batch} <= {
        "2026-06-30", "2026-07-01", "2026-07-02", "2026-07-03",
        "2026-09-10", "2026-09-11", "2026-09-12", "2026-09-13",
    }  # fmt: skip
    # read: the sketches of those days' windows, and the sources of the stories' articles
    lone = {d for d in rows.documents if d.startswith(("c", "e"))}
    assert lone == {"c00", "c07"}
    joined = next(s for s in shown if "w" in s.documents)
    assert joined.documents == ("a07", "b07", "w")
    assert not any("a00" in s.documents for s in shown)  # its other outlet is gone

    rows.save(tmp_path, "8")
    reread = StoryState.load(tmp_path)
    assert {d: (s.source, s.first_seen, s.packed) for d, s in reread.documents.items()} == {
        d: (s.source, s.first_seen, s.packed) for d, s in expected.items()
    }
    assert reread.chunks == whole.chunks
    again = StoryRows.open(tmp_path, "8")
    assert again is not None and group_hours(again) == shown


def test_the_links_read_are_those_set_and_those_saved(tmp_path: Path) -> None:
    state = StoryState(documents=year())
    group_by_day(state)
    state.documents["a03"].story = "a03"
    state.documents["b03"].story = "a03"
    state.save(tmp_path, "1")
    rows = StoryRows.open(tmp_path, "1")
    assert rows is not None
    rows.fetch(["b03", "c04", "nowhere"])
    rows.documents["b03"].story = ""
    rows.documents["c04"].story = "a04"
    assert rows.linked() == {"a03", "c04"}
    rows.save(tmp_path, "2")
    assert {d for d, s in StoryState.load(tmp_path).documents.items() if s.story} == {"a03", "c04"}


def test_a_file_of_another_build_version_damaged_or_missing_is_not_read_in_part(
    tmp_path: Path,
) -> None:
    assert StoryRows.open(tmp_path, "7") is None  # missing
    saved(tmp_path, "7")
    assert StoryRows.open(tmp_path, "7") is not None
    assert StoryRows.open(tmp_path, "8") is None  # saved by another build than the cache's
    assert StoryRows.open(tmp_path, "") is None  # a cache that does not say
    with sqlite3.connect(tmp_path / STORIES_FILE) as db:  # a file of before the generations
        db.execute("DELETE FROM meta WHERE key = 'generation'")
        db.execute("DROP INDEX sketches_seen")
    assert StoryRows.open(tmp_path, "7") is None
    loaded = StoryState.load(tmp_path)  # read whole, as by a full build, and saved
    assert len(loaded.documents) == len(year())
    loaded.save(tmp_path, "7")
    with sqlite3.connect(tmp_path / STORIES_FILE) as db:
        assert db.execute("SELECT name FROM sqlite_master WHERE name = 'sketches_seen'").fetchone()
    assert StoryRows.open(tmp_path, "7") is not None
    path = tmp_path / STORIES_FILE
    with sqlite3.connect(path) as db:  # an older version's file
        db.execute("UPDATE meta SET value = '2:32:400:0.25:24' WHERE key = 'parameters'")
    assert StoryRows.open(tmp_path, "7") is None
    assert StoryState.load(tmp_path).documents == {}  # and loaded whole, it is made again
    saved(tmp_path, "7")
    with sqlite3.connect(path) as db:
        db.execute('UPDATE chunks SET stories = \'{"not": "a list"}\'')
    assert StoryRows.open(tmp_path, "7") is None
    path.write_bytes(b"not a database")
    assert StoryRows.open(tmp_path, "7") is None


def site(root: Path) -> dict[str, bytes]:
    """Every published file (the build cache left out) and its bytes."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and CACHE_DIR not in p.relative_to(root).parts
    }


def test_hourly_builds_reading_the_stories_in_part_or_whole_make_a_full_build_s_site(
    tmp_path: Path,
) -> None:
    """A third outlet joins a story in an hourly build (the stories read in part); then the
    stories file is one an older build saved (restored apart from the cache: read whole),
    then it is gone: each time the site is the one a full build makes."""
    data, out = tmp_path / "data", tmp_path / "site"
    archive = Archive(data)
    a = store(archive, "a", OUTLET_A, hours=0, edits=1)
    store(archive, "b", OUTLET_B, hours=1.5)
    store(archive, "museum", MUSEUM, hours=3, edits=1)
    build(data, out)
    stories_file = out / CACHE_DIR / STORIES_FILE
    older = stories_file.read_bytes()

    store(archive, "c", OUTLET_C, hours=7)
    hourly = build(data, out)
    assert f"stories/{a}/index.html" in hourly.written
    assert OUTLET_C[0] in (out / f"stories/{a}/index.html").read_text(encoding="utf-8")
    build(data, full := tmp_path / "full")
    assert site(out) == site(full)

    store(archive, "strike", TRAIN_STRIKE, hours=8, edits=1)
    stories_file.write_bytes(older)  # of the build before the last: lacks c
    assert build(data, out).failures == ()
    build(data, again := tmp_path / "again")
    assert site(out) == site(again)
    # saved whole, and by the build that wrote the cache: the next hour reads it in part
    generation = BuildState.load(out / CACHE_DIR).generation
    assert generation == "3" and StoryRows.open(out / CACHE_DIR, generation) is not None
    assert len(StoryState.load(out / CACHE_DIR).documents) == 5

    stories_file.unlink()
    assert build(data, out).written == ()
    assert site(out) == site(again)
