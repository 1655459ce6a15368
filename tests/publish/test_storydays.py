"""The stories of many days at once are exactly those of each day's window grouped on
its own: the site's cache of days and the export rely on the same grouping."""

from __future__ import annotations

import random
from bisect import bisect_left
from datetime import UTC, datetime, timedelta

import pytest

from quietedit.analysis.stories import STORY_WINDOW, StoryArticle, group_stories
from quietedit.publish.storydays import group_days

START = datetime(2026, 3, 1, tzinfo=UTC)
DAY = timedelta(days=1)


def window_alone(ordered: list[StoryArticle], start: datetime, end: datetime) -> list[list[str]]:
    """A day's stories as grouped from its window alone (``publish.stories.day_groups``)."""
    times = [a.first_seen for a in ordered]
    inputs = ordered[
        bisect_left(times, start - STORY_WINDOW) : bisect_left(times, end + STORY_WINDOW)
    ]
    seen = {a.document: a.first_seen for a in inputs}
    return [list(s.documents) for s in group_stories(inputs) if start <= seen[s.id] < end]


def articles(seed: int) -> list[StoryArticle]:
    """A few sources sharing a small vocabulary: stories, boilerplate runs and hashes
    too common to count, many of them cut by the windows' edges."""
    rng = random.Random(seed)
    sources = rng.randint(2, 6)
    vocabulary = rng.randint(40, 400)
    days = rng.randint(2, 12)
    texts = [sorted(rng.sample(range(vocabulary), rng.randint(3, 12))) for _ in range(20)]
    found = []
    for n in range(rng.randint(20, 300)):
        values = set(rng.choice(texts)) if rng.random() < 0.7 else set()
        values |= set(rng.sample(range(vocabulary), rng.randint(0, 10)))
        when = START + timedelta(seconds=rng.randrange(days * 86400))
        if rng.random() < 0.2:  # on the hour, as ties
            when = START + timedelta(hours=rng.randrange(days * 24))
        source = f"source-{rng.randrange(sources)}"
        found.append(StoryArticle(f"doc-{n:04d}", source, when, tuple(sorted(values))[:32]))
    return sorted(found, key=lambda a: (a.first_seen, a.document))


def day_spans(ordered: list[StoryArticle]) -> list[tuple[datetime, datetime]]:
    days = sorted({a.first_seen.date() for a in ordered})
    starts = [datetime(d.year, d.month, d.day, tzinfo=UTC) for d in days]
    return [(start, start + DAY) for start in starts]


@pytest.mark.parametrize("seed", range(40))
def test_every_day_s_stories_are_those_of_its_window_grouped_alone(seed: int) -> None:
    ordered = articles(seed)
    days = day_spans(ordered)
    expected = [window_alone(ordered, start, end) for start, end in days]
    assert group_days(ordered, days) == expected


@pytest.mark.parametrize("seed", range(40, 60))
def test_some_days_from_a_slice_holding_their_windows_give_the_same(seed: int) -> None:
    ordered = articles(seed)
    rng = random.Random(seed)
    days = [d for d in day_spans(ordered) if rng.random() < 0.5] or day_spans(ordered)[:1]
    times = [a.first_seen for a in ordered]
    low = bisect_left(times, days[0][0] - STORY_WINDOW)
    high = bisect_left(times, days[-1][1] + STORY_WINDOW)
    expected = [window_alone(ordered, start, end) for start, end in days]
    assert group_days(ordered[low:high], days) == expected


def test_a_hash_kept_only_where_a_window_cuts_its_boilerplate_run_still_links() -> None:
    # three herald articles hold the story's hashes within 48 hours: in the whole, its
    # boilerplate; but March 1's window ends before the third, so there the first two
    # keep them and tell the courier's story
    story = tuple(range(100, 132))
    ordered = [
        StoryArticle("c1", "courier", START + timedelta(hours=1), story),
        StoryArticle("h1", "herald", START + timedelta(days=1, hours=6), story),
        StoryArticle("h2", "herald", START + timedelta(days=1, hours=16), story),
        StoryArticle("h3", "herald", START + timedelta(days=3, hours=1), story),
    ]
    days = day_spans(ordered)
    expected = [window_alone(ordered, start, end) for start, end in days]
    assert expected == [[["c1", "h1", "h2"]], [], []]
    assert group_stories(ordered) == ()  # grouped as a whole, no story
    assert group_days(ordered, days) == expected
