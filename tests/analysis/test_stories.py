"""One story across outlets: grouping by shared shingles within a time window."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from quietedit.analysis.stories import (
    StoryArticle,
    estimated_similarity,
    group_stories,
    story_sketch,
)
from tests.analysis.wire_stories import (
    BRIEFS,
    MUSEUM,
    OUTLET_A,
    OUTLET_B,
    OUTLET_C,
    TRAIN_STRIKE,
)

T0 = datetime(2026, 11, 30, 21, 30, tzinfo=UTC)


def article(
    document: str, source: str, text: tuple[str, tuple[str, ...]], *, hours: float = 0
) -> StoryArticle:
    title, blocks = text
    return StoryArticle(document, source, T0 + timedelta(hours=hours), story_sketch(title, blocks))


WIRE_RUNS = [
    article("north-example-com-0000000000000001", "north-herald", OUTLET_A),
    article("coast-example-net-0000000000000002", "coast-times", OUTLET_B, hours=1.5),
    article("daily-example-org-0000000000000003", "daily-post", OUTLET_C, hours=7),
]


def test_the_same_wire_story_run_by_three_outlets_is_one_story() -> None:
    stories = group_stories(WIRE_RUNS)
    assert len(stories) == 1
    story = stories[0]
    assert story.documents == tuple(a.document for a in WIRE_RUNS)
    assert story.sources == ("coast-times", "daily-post", "north-herald")
    assert story.id == "north-example-com-0000000000000001"  # the earliest article


def test_unrelated_stories_sharing_boilerplate_are_not_grouped() -> None:
    # each site's articles of the day end with the same subscription box and copyright line
    strike = article("coast-example-net-00000000000000aa", "coast-times", TRAIN_STRIKE)
    museum = article("daily-example-org-00000000000000bb", "daily-post", MUSEUM, hours=2)
    assert estimated_similarity(strike.sketch, museum.sketch) > 0.25  # the furniture alone
    days_news = [
        article(f"{site}-{n:016x}", source, BRIEFS[n % len(BRIEFS)], hours=n)
        for n, (site, source) in enumerate(
            [("coast-example-net", "coast-times"), ("daily-example-org", "daily-post")] * 2
        )
    ]
    assert group_stories([strike, museum, *days_news]) == ()
    stories = group_stories([*WIRE_RUNS, strike, museum, *days_news])
    assert [story.documents for story in stories] == [tuple(a.document for a in WIRE_RUNS)]


def test_one_sources_two_articles_are_not_a_story() -> None:
    first = article("north-example-com-0000000000000001", "north-herald", OUTLET_A)
    again = article("north-example-com-0000000000000009", "north-herald", OUTLET_A, hours=3)
    assert estimated_similarity(first.sketch, again.sketch) == 1.0
    assert group_stories([first, again]) == ()


def test_articles_too_far_apart_in_time_are_not_grouped() -> None:
    late = article("coast-example-net-0000000000000002", "coast-times", OUTLET_B, hours=60)
    assert group_stories([WIRE_RUNS[0], late]) == ()
    assert len(group_stories([WIRE_RUNS[0], late], window=timedelta(hours=72))) == 1


def test_the_grouping_does_not_depend_on_the_order_of_the_articles() -> None:
    noise = [
        article(f"other-example-com-{n:016x}", f"outlet-{n % 5}", (f"Item {n}", (f"{n} " * 30,)))
        for n in range(40)
    ]
    everything = [*WIRE_RUNS, *noise]
    expected = group_stories(everything)
    for seed in range(5):
        shuffled = everything[:]
        random.Random(seed).shuffle(shuffled)
        assert group_stories(shuffled) == expected


def test_sketches_are_stable_values_not_process_hashes() -> None:
    # CRC-32 of the shingles: the same in every process and version of Python
    sketch = story_sketch("A headline of five words here", ())
    assert sketch == story_sketch("A headline of five words here", ())
    assert len(sketch) == 2 and all(0 <= value < 2**32 for value in sketch)
    assert story_sketch("Too short", ()) == ()


@given(
    st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 200), st.integers(0, 3)),
        max_size=30,
        unique_by=lambda t: t[1],
    )
)
@settings(max_examples=60, deadline=None)
def test_every_story_has_two_sources_and_each_article_one_story(
    items: list[tuple[int, int, int]],
) -> None:
    texts = [OUTLET_A, OUTLET_B, OUTLET_C, TRAIN_STRIKE, MUSEUM]
    articles = [
        article(
            f"site-example-com-{n:016x}",
            f"source-{source}",
            texts[n % len(texts)],
            hours=hours * 10,
        )
        for source, n, hours in items
    ]
    stories = group_stories(articles)
    seen: set[str] = set()
    for story in stories:
        assert len(story.sources) >= 2
        assert not seen & set(story.documents)
        seen |= set(story.documents)
        assert story.id == story.documents[0]
