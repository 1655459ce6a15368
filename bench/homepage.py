"""A 300-link front page polled hourly for a month: what its headline history costs.

Usage: .venv/bin/python bench/homepage.py [--days 30] [--links 300] [--seed 1]

A simulated front (cards as tests/homepage_site.py builds them, with relative times that
change every poll) shows ``--links`` stories; about four new ones arrive every hour and
push the oldest off; one story in ten is A/B tested (two headlines served at random each
poll) and one in twenty is retitled once. Every hour the page is rendered, read
(``read_homepage``) and its history updated (``headline_history``) exactly as a poll does,
and the feed record's ``homepage`` object serialised as the archive writes it. It prints,
at a few points and at the end: the record's size, how many of its lines each poll
changed (what git stores per commit), the links closed into ``homepage-headlines`` events
and their bytes, and the time a poll's reading takes.
"""

from __future__ import annotations

import argparse
import difflib
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from quietedit.archive.records import dump_json  # noqa: E402
from quietedit.decide.homepage import headline_history, history_to_record  # noqa: E402
from quietedit.feeds.homepage import read_homepage  # noqa: E402
from tests.homepage_site import START, Story, front_page  # noqa: E402

URL = "https://www.northernchronicle.example/"
WORDS = (
    "council", "storm", "bridge", "power", "school", "rail", "budget", "hospital", "police",
    "river", "harbour", "minister", "strike", "festival", "match", "court", "market", "fire",
)  # fmt: skip


def headline(rng: random.Random) -> str:
    words = rng.sample(WORDS, 5)
    return f"{words[0].title()} {words[1]} after {words[2]} {words[3]} {words[4]} row"


def stories(rng: random.Random, *, links: int, hours: int) -> list[Story]:
    """Every story of the run: ``links`` on the page at the start, four more an hour."""
    made = []
    for number in range(links + 4 * hours):
        arrival = max(0, (number - links) // 4 + 1)
        variants: tuple[str, ...] = (headline(rng),)
        if rng.random() < 0.1:
            variants = (variants[0], headline(rng))
        retitled = (arrival + rng.randint(1, 12), headline(rng)) if rng.random() < 0.05 else None
        made.append(
            Story(
                f"/news/2026/11/30/story-{number:06d}",
                variants,
                first_hour=arrival,
                retitled=retitled,
                kicker=rng.choice(("News", "Politics", "Sport", "Business")),
            )
        )
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--links", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    hours = args.days * 24
    everything = stories(rng, links=args.links, hours=hours)
    history = None
    previous: list[str] = []
    changed_lines: list[int] = []
    read_seconds: list[float] = []
    closed = closed_bytes = 0
    marks = {24, 24 * 7, hours}
    for hour in range(hours + 1):
        # the page shows the newest ``links`` stories that have arrived
        arrived = [s for s in everything if s.first_hour <= hour][-args.links :]
        shown = []
        for story in arrived:  # an A/B test serves a random variant each poll
            text = story.headlines[rng.randrange(len(story.headlines))]
            if story.retitled is not None and hour >= story.retitled[0]:
                text = story.retitled[1]
            shown.append(Story(story.path, (text,), kicker=story.kicker))
        page = front_page(shown, hour).encode()
        started = time.perf_counter()
        found = read_homepage(page, url=URL, content_type="text/html; charset=utf-8")
        history, gone = headline_history(history, found.links, now=START + timedelta(hours=hour))
        read_seconds.append(time.perf_counter() - started)
        closed += len(gone)
        closed_bytes += sum(len(dump_json(c.detail("front"))) for c in gone)
        lines = dump_json(history_to_record(history)).decode().splitlines()
        if previous:
            diff = difflib.unified_diff(previous, lines, n=0, lineterm="")
            # lines written new (changed or added), the header line left out
            changed_lines.append(sum(1 for line in diff if line[:1] == "+") - 1)
        previous = lines
        if hour in marks:
            size = sum(len(line) + 1 for line in lines)
            links = len(history.links or {})
            print(
                f"after {hour // 24:>3} days: record {size / 1000:,.0f} KB for {links} links "
                f"({len(found.links)} on the page); lines rewritten per poll: median "
                f"{statistics.median(changed_lines or [0]):.0f}, max {max(changed_lines or [0])}; "
                f"links closed into events: {closed} ({closed_bytes / 1000:,.0f} KB)"
            )
    print(
        f"reading a {len(page) / 1000:,.0f} KB front with {len(found.links)} articles and "
        f"updating the history: median {statistics.median(read_seconds) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
