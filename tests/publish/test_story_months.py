"""Stories grouped month by month: a month none of whose inputs changed keeps its stories
without its sketches being read again, and the result is the one of a fresh grouping."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from quietedit.analysis.stories import StoryArticle
from quietedit.publish import stories
from quietedit.publish.stories import Sketched, StoryState, group_by_month

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


def test_only_the_months_whose_window_changed_are_hashed_and_the_stories_are_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = StoryState(documents=archive())
    group_by_month(state)
    state.save(tmp_path)
    loaded = StoryState.load(tmp_path)
    loaded.documents["d-new"] = Sketched("wire", "2026-11-10T10:00:00Z", sketch(3))
    del loaded.documents["c-2026-08"]
    hashed: list[int] = []
    key = stories._chunk_key

    def counted(articles: list[StoryArticle]) -> str:
        hashed.append(len(articles))
        return key(articles)

    monkeypatch.setattr(stories, "_chunk_key", counted)
    shown = group_by_month(loaded)

    assert len(hashed) == 2  # November (a new article) and August (one dropped)
    fresh = StoryState(documents=dict(loaded.documents))
    assert group_by_month(fresh) == shown
    assert fresh.chunks == loaded.chunks
    november = next(s for s in shown if "d-new" in s.documents)
    assert november.sources == ("courier", "herald", "wire")


def test_a_document_without_a_sketch_is_not_grouped_nor_timed(tmp_path: Path) -> None:
    """A document with no sketch (no text to sketch) has no first sight to place; adding
    or dropping one regroups nothing and fails nothing."""
    state = StoryState(documents={**archive(), "empty": Sketched("wire", "", ())})
    shown = group_by_month(state)
    state.save(tmp_path)
    loaded = StoryState.load(tmp_path)
    loaded.documents["another"] = Sketched("wire", "", ())
    del loaded.documents["empty"]
    assert group_by_month(loaded) == shown
