"""Replay a news site's RSS history as successive polls and score the feed-entry edits found.

Usage: .venv/bin/python bench/feed_edits.py [--corpus DIR] [--limit N]

The corpus folder ``revisions/spiegel-rss-2022-2023`` holds, for every item of SPIEGEL's
top-headlines feed first seen before 2024, its ordered distinct states (title, teaser,
pubDate, category, link) with the first and last time each state was seen, and
``text_edited`` (title or teaser changed at least once). This script rebuilds the feed
as it stood at every one of those times, renders it as RSS 2.0 bytes, and runs
``parse_feed`` then ``entry_changes`` on each poll exactly as the ingest will, keeping
the newest snapshot of every entry.

It prints precision and recall of the items reported ``edited`` against two truths:
``text_edited`` as recorded, and ``text_edited`` without the items whose only changes are
typographic (a hyphen made an en dash, straight quotes made curly): quietedit folds those
on purpose (``fold_text``), for feed entries as for articles. Also the per-edit counts
and the parse speed.
"""

from __future__ import annotations

import argparse
import gzip
import heapq
import itertools
import json
import resource
import sys
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from quietedit.article.fingerprint import fold_text  # noqa: E402
from quietedit.feeds.edits import EntrySnapshot, entry_changes  # noqa: E402
from quietedit.feeds.parse import parse_feed  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
FEED_URL = "https://www.spiegel.de/schlagzeilen/tops/index.rss"


@dataclass(frozen=True, slots=True)
class State:
    guid: str
    number: int
    start: datetime
    end: datetime
    fields: dict[str, str]


def load(path: Path, limit: int | None) -> tuple[list[State], dict[str, bool], dict[str, int]]:
    """States of every item, ``text_edited`` per guid, and expected text edits per guid."""
    states: list[State] = []
    edited: dict[str, bool] = {}
    expected: dict[str, int] = {}
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for n, line in enumerate(lines):
            if limit is not None and n >= limit:
                break
            item = json.loads(line)
            guid = item["guid"]
            edited[guid] = bool(item["text_edited"])
            folded = [(fold_text(s["title"]), fold_text(s["description"])) for s in item["states"]]
            expected[guid] = sum(a != b for a, b in itertools.pairwise(folded))
            for number, state in enumerate(item["states"]):
                states.append(
                    State(
                        guid=guid,
                        number=number,
                        start=datetime.fromisoformat(state["first_seen"]),
                        end=datetime.fromisoformat(state["last_seen"]),
                        fields=state,
                    )
                )
    return states, edited, expected


def render(states: list[State]) -> bytes:
    """The feed with these item states, as SPIEGEL's RSS 2.0 would carry them."""
    items = [
        "<item>"
        f"<title>{escape(s.fields['title'])}</title>"
        f"<link>{escape(s.fields['link'])}</link>"
        f"<description>{escape(s.fields['description'])}</description>"
        f"<pubDate>{escape(s.fields['pubDate'])}</pubDate>"
        f'<guid isPermaLink="false">{escape(s.guid)}</guid>'
        f"<category>{escape(s.fields['category'])}</category>"
        "</item>"
        for s in states
    ]
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel>'
        "<title>DER SPIEGEL - Schlagzeilen</title><link>https://www.spiegel.de/</link>"
        "<description>Deutschlands führende Nachrichtenseite</description>"
        + "".join(items)
        + "</channel></rss>"
    ).encode("utf-8")


def score(found: set[str], truth: set[str]) -> tuple[float, float]:
    hits = len(found & truth)
    return (hits / len(found) if found else 1.0, hits / len(truth) if truth else 1.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--limit", type=int, default=None, help="read only the first N items")
    args = parser.parse_args()
    path = args.corpus / "revisions" / "spiegel-rss-2022-2023" / "items.jsonl.gz"
    if not path.exists():
        print(f"corpus not found at {path}; pass --corpus")
        return
    states, edited, expected = load(path, args.limit)
    polls = sorted({s.start for s in states} | {s.end for s in states})
    by_start = sorted(states, key=lambda s: s.start)
    active: dict[tuple[str, int], State] = {}
    ending: list[tuple[datetime, str, int]] = []
    previous: dict[str, EntrySnapshot] = {}
    reported: dict[str, int] = {}
    next_state = 0
    parse_seconds = 0.0
    entries_parsed = 0
    metadata = 0
    for moment in polls:
        while next_state < len(by_start) and by_start[next_state].start <= moment:
            state = by_start[next_state]
            active[(state.guid, state.number)] = state
            heapq.heappush(ending, (state.end, state.guid, state.number))
            next_state += 1
        body = render(list(active.values()))
        started = time.perf_counter()
        feed = parse_feed(
            body,
            url=FEED_URL,
            content_type="application/rss+xml; charset=utf-8",
            fetched_at=moment,
        )
        changes = entry_changes(previous, feed)
        parse_seconds += time.perf_counter() - started
        entries_parsed += len(feed.entries)
        if feed.problems:
            raise SystemExit(f"unexpected problems at {moment}: {feed.problems}")
        for change in changes:
            previous[change.entry.id] = change.snapshot(observed_at=moment)
            if change.kind == "edited":
                reported[change.entry.id] = reported.get(change.entry.id, 0) + 1
            elif change.kind == "metadata":
                metadata += 1
        while ending and ending[0][0] <= moment:
            _, guid, number = heapq.heappop(ending)
            active.pop((guid, number), None)

    found = set(reported)
    recorded = {guid for guid, flag in edited.items() if flag}
    folded_truth = {guid for guid, count in expected.items() if count}
    precision, recall = score(found, recorded)
    precision_f, recall_f = score(found, folded_truth)
    typographic = recorded - folded_truth
    exact_counts = sum(reported.get(guid, 0) == count for guid, count in expected.items())
    print(f"items: {len(edited)}, states: {len(states)}, polls replayed: {len(polls)}")
    print(f"items reported edited: {len(found)} ({sum(reported.values())} edits)")
    print(f"against text_edited as recorded ({len(recorded)} items):")
    print(f"  precision {precision:.4f}  recall {recall:.4f}")
    print(
        f"  the {len(recorded - found)} missed items are typographic-only: "
        f"{(recorded - found) <= typographic}"
    )
    print(f"against text_edited minus typographic-only edits ({len(folded_truth)} items):")
    print(f"  precision {precision_f:.4f}  recall {recall_f:.4f}")
    print(
        f"items whose number of reported edits equals the folded state changes: "
        f"{exact_counts}/{len(expected)}"
    )
    print(f"metadata-only changes reported (link/pubDate): {metadata}")
    print(
        f"parse_feed + entry_changes: {parse_seconds:.1f} s for {len(polls)} polls "
        f"({1000 * parse_seconds / max(len(polls), 1):.2f} ms/poll, "
        f"{entries_parsed / parse_seconds:.0f} entries/s)"
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
