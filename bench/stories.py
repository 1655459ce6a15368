"""How story grouping scales: a year of articles from 30 outlets, wire stories planted.

Run: .venv/bin/python bench/stories.py [--articles 365000] [--sketch-sample 20000]
    [--by-day]

Generates ``--articles`` articles over a year (1,000 a day from 30 sources, each about
450 words drawn from a Zipf-distributed vocabulary, each source's articles ending with
its own boilerplate paragraph). One article in ten is a wire story that three outlets run
within a few hours, each with its own first paragraph, a sentence reworded and the tail cut.
Prints the cost of :func:`story_sketch` per article (measured over ``--sketch-sample``
articles' texts), the time of :func:`group_stories` over the whole year, the candidate
pairs it compared, and how many planted stories it found whole, split or merged.

``--by-day`` times instead the grouping day by day as a full build or export does it
(:func:`~quietedit.publish.stories.group_by_day`, in this process): each day's window
grouped on its own (:func:`~quietedit.publish.stories.day_groups`, as it was done before
the days were grouped in one pass), then in one pass with pieces of 7, 30 (the default,
:data:`~quietedit.publish.stories.PIECE_DAYS`) and 365 days; the CPU seconds of each,
and whether each gives the same stories and the same days' keys.
"""

from __future__ import annotations

import argparse
import random
import time
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from quietedit.analysis import stories
from quietedit.analysis.stories import STORY_WINDOW, StoryArticle, group_stories, story_sketch
from quietedit.model import format_timestamp
from quietedit.publish import stories as publish_stories
from quietedit.publish.stories import (
    PIECE_DAYS,
    DaysMapper,
    DaysWork,
    Sketched,
    StoryState,
    day_groups,
    group_by_day,
    in_order,
)

START = datetime(2026, 1, 1, tzinfo=UTC)
SOURCES = 30
VOCABULARY = 20_000
WORDS = 450
WIRE_SHARE = 0.1  # of the articles, the share that are an outlet's run of a wire story


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--articles", type=int, default=365_000)
    parser.add_argument("--sketch-sample", type=int, default=20_000)
    parser.add_argument("--by-day", action="store_true", help="time the grouping by day")
    arguments = parser.parse_args()
    rng = random.Random(20261202)
    words = [f"w{n}" for n in range(VOCABULARY)]
    weights = [1 / (n + 1) for n in range(VOCABULARY)]
    boilerplate = {
        f"source-{s}": rng.choices(words, weights, k=60) for s in range(SOURCES)
    }  # a subscription box per site
    per_day = 1_000
    articles: list[StoryArticle] = []
    planted: dict[str, str] = {}  # document → wire story
    sketch_seconds = 0.0
    sketched = 0
    wire_text: list[str] = []
    wire_id = ""
    wire_left = 0
    wire_sources: list[str] = []
    wire_time = START
    for n in range(arguments.articles):
        day, slot = divmod(n, per_day)
        when = START + timedelta(days=day, seconds=slot * 86.4)
        if wire_left == 0 and rng.random() < WIRE_SHARE / 3:
            wire_text = rng.choices(words, weights, k=WORDS)
            wire_id = f"wire-{n}"
            wire_left = 3
            wire_sources = rng.sample([f"source-{s}" for s in range(SOURCES)], 3)
            wire_time = when
        wire = bool(wire_left)
        if wire:
            source = wire_sources[3 - wire_left]
            body = rng.choices(words, weights, k=40) + wire_text[40:]  # their own top
            cut = rng.randrange(300, WORDS)
            body = body[:cut]
            body[rng.randrange(60, cut)] = "reworded"
            when = wire_time + timedelta(hours=rng.uniform(0, 6))
            wire_left -= 1
        else:
            source = f"source-{rng.randrange(SOURCES)}"
            body = rng.choices(words, weights, k=WORDS)
        document = f"example-{n:016x}"
        text = " ".join([*body, *boilerplate[source]])
        started = time.perf_counter()
        sketch = story_sketch("", (text,))
        if sketched < arguments.sketch_sample:
            sketch_seconds += time.perf_counter() - started
            sketched += 1
        if wire:
            planted[document] = wire_id
        articles.append(StoryArticle(document, source, when, sketch))
    print(
        f"articles: {len(articles):,} over {arguments.articles // per_day} days, {SOURCES} sources"
    )
    print(
        f"story_sketch: {sketch_seconds / max(sketched, 1) * 1e6:,.0f} µs per article "
        f"({WORDS + 60} words, measured over {sketched:,}); all {len(articles):,}: "
        f"{sketch_seconds / max(sketched, 1) * len(articles):,.0f} s"
    )

    if arguments.by_day:
        by_day(articles)
        return
    compared = Counter[str]()
    original = stories.estimated_similarity

    def counting(a: tuple[int, ...], b: tuple[int, ...]) -> float:
        compared["pairs"] += 1
        return original(a, b)

    stories.estimated_similarity = counting  # type: ignore[assignment]
    started, cpu = time.perf_counter(), time.process_time()
    found = group_stories(articles)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    stories.estimated_similarity = original
    print(
        f"group_stories: {seconds:,.1f} s ({cpu:,.1f} s of CPU) for all, "
        f"{compared['pairs']:,} candidate pairs compared "
        f"({compared['pairs'] / len(articles):.2f} per article; all pairs would be "
        f"{len(articles) * (len(articles) - 1) // 2:,})"
    )
    wires: dict[str, set[str]] = {}
    for document, story in planted.items():
        wires.setdefault(story, set()).add(document)
    groups = [set(story.documents) for story in found]
    whole = sum(1 for members in wires.values() if members in groups)
    split = sum(1 for members in wires.values() if sum(1 for g in groups if g & members) > 1)
    merged = sum(1 for g in groups if len({planted.get(d) for d in g}) > 1)
    print(
        f"planted wire stories: {len(wires):,}; found whole {whole:,} "
        f"({whole / max(len(wires), 1):.1%}), split {split:,}; stories found "
        f"{len(found):,}, of which mixing planted stories or unrelated articles {merged:,}"
    )


def by_day(articles: list[StoryArticle]) -> None:
    """The day-by-day grouping's CPU: each window alone, then in one pass by pieces."""
    documents = {
        a.document: Sketched(a.source, format_timestamp(a.first_seen), a.sketch) for a in articles
    }

    def window_by_window(
        func: Callable[[DaysWork], list[list[list[str]]]], items: list[DaysWork]
    ) -> list[list[list[list[str]]]]:
        del func  # each day's window on its own, as before the one pass
        found = []
        for days, ordered in items:
            times = [a.first_seen for a in ordered]
            found.append(
                [
                    day_groups(
                        (
                            start,
                            end,
                            ordered[
                                bisect_left(times, start - STORY_WINDOW) : bisect_left(
                                    times, end + STORY_WINDOW
                                )
                            ],
                        )
                    )
                    for start, end in days
                ]
            )
        return found

    runs: list[tuple[str, int, DaysMapper]] = [
        ("each day's window alone", 365, window_by_window),
        ("one pass, pieces of 7 days", 7, in_order),
        (f"one pass, pieces of {PIECE_DAYS} days", PIECE_DAYS, in_order),
        ("one pass, pieces of 365 days", 365, in_order),
    ]
    reference: tuple[object, object] | None = None
    for label, days, mapper in runs:
        state = StoryState(documents=dict(documents))
        saved, publish_stories.PIECE_DAYS = publish_stories.PIECE_DAYS, days  # type: ignore[misc]
        try:
            cpu = time.process_time()
            found = group_by_day(state, mapper=mapper)
            cpu = time.process_time() - cpu
        finally:
            publish_stories.PIECE_DAYS = saved  # type: ignore[misc]
        result = (found, state.chunks)
        reference = reference or result
        print(
            f"group_by_day, {label}: {cpu:,.1f} s CPU, {len(found):,} stories, "
            f"same stories and keys: {result == reference}"
        )


if __name__ == "__main__":
    main()
