"""Stories grouped day by day: a day none of whose inputs changed keeps its stories
without its sketches being read again, and the result is the one of a fresh grouping."""

from __future__ import annotations

import random
from collections.abc import Iterable
from pathlib import Path

import pytest

from quietedit.publish import stories
from quietedit.publish.stories import Sketched, StoryState, group_by_day

MONTHS = ("2026-08", "2026-09", "2026-10", "2026-11")


def sketch(seed: int) -> tuple[int, ...]:
    rng = random.Random(seed)
    return tuple(rng.randrange(2**32) for _ in range(32))


def archive() -> dict[str, Sketched]:
    """In each month, one story told by two outlets (the same sketch) and a lone article."""
    found = {}
    for n, month in enumerate(MONTHS):
        found[f"a-{month}"] = Sketched("courier", f"{month}-10T08:00:00Z", sketch(n))
        found[f"b-{month}"] = Sketched("herald", f"{month}-10T09:00:00Z", sketch(n))
        found[f"c-{month}"] = Sketched("daily", f"{month}-15T09:00:00Z", sketch(100 + n))
    return found


def test_only_the_days_whose_window_changed_are_hashed_and_the_stories_are_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = StoryState(documents=archive())
    group_by_day(state)
    state.save(tmp_path)
    loaded = StoryState.load(tmp_path)
    loaded.documents["d-new"] = Sketched("wire", "2026-11-10T10:00:00Z", sketch(3))
    del loaded.documents["b-2026-08"]
    hashed: list[int] = []
    key = stories.parts_key

    def counted(parts: Iterable[bytes]) -> str:
        made = list(parts)
        hashed.append(len(made))
        return key(made)

    monkeypatch.setattr(stories, "parts_key", counted)
    shown = group_by_day(loaded)

    # November 10 (a new article) and August 10 (one dropped); November 15, more than 48
    # hours after the new article, and every other day are kept as they were
    assert len(hashed) == 2
    fresh = StoryState(documents=dict(loaded.documents))
    assert group_by_day(fresh) == shown
    assert fresh.chunks == loaded.chunks
    november = next(s for s in shown if "d-new" in s.documents)
    assert november.sources == ("courier", "herald", "wire")


def test_a_document_without_a_sketch_is_not_grouped_nor_timed(tmp_path: Path) -> None:
    """A document with no sketch (no text to sketch) has no first sight to place; adding
    or dropping one regroups nothing and fails nothing."""
    state = StoryState(documents={**archive(), "empty": Sketched("wire", "", ())})
    shown = group_by_day(state)
    state.save(tmp_path)
    loaded = StoryState.load(tmp_path)
    loaded.documents["another"] = Sketched("wire", "", ())
    del loaded.documents["empty"]
    assert group_by_day(loaded) == shown


def test_a_story_across_midnight_is_one_story_and_a_later_outlet_joins_it(
    tmp_path: Path,
) -> None:
    """Two outlets either side of midnight tell one story (the earlier day's); a third
    outlet the next evening joins it, in an hourly grouping as in a fresh one."""
    state = StoryState(
        documents={
            "a": Sketched("courier", "2026-09-10T23:30:00Z", sketch(7)),
            "b": Sketched("herald", "2026-09-11T00:30:00Z", sketch(7)),
            "lone": Sketched("daily", "2026-09-11T12:00:00Z", sketch(8)),
        }
    )
    (story,) = group_by_day(state)
    assert (story.id, story.documents) == ("a", ("a", "b"))
    state.save(tmp_path)
    loaded = StoryState.load(tmp_path)
    loaded.documents["c"] = Sketched("wire", "2026-09-11T20:00:00Z", sketch(7))
    (joined,) = group_by_day(loaded)
    assert joined.documents == ("a", "b", "c")
    assert group_by_day(StoryState(documents=dict(loaded.documents))) == (joined,)
