"""parse_feed over the shared corpus and over hostile feeds: counts, problems, speed, memory.

Usage: .venv/bin/python bench/feed_parse.py [--corpus DIR]

1. Every feed in ``feeds/real`` and every case of ``feeds/feedparser-tests`` (with the
   HTTP content type its index gives): parsed, refused (FeedParseError) or crashed
   (anything else — must be 0), entries and problems, the most common problems.
2. Hostile and large feeds built here: tens of thousands of entries, an entity bomb, a
   body at the 10 MiB limit — time and peak memory of each.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from quietedit.errors import FeedParseError  # noqa: E402
from quietedit.feeds.parse import MAX_FEED_BYTES, parse_feed  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"


def corpus_cases(corpus: Path) -> list[tuple[str, Path, str | None]]:
    feeds = corpus / "feeds"
    cases: list[tuple[str, Path, str | None]] = [
        ("real", path, None)
        for path in sorted((feeds / "real").iterdir())
        if path.is_file() and path.name != "index.json"
    ]
    index = json.loads((feeds / "feedparser-tests" / "index.json").read_text(encoding="utf-8"))
    for name, case in sorted(index["cases"].items()):
        content_type = None
        for header in case.get("headers", []):
            key, _, value = header.partition(":")
            if key.strip().lower() == "content-type":
                content_type = value.strip()
        cases.append(("feedparser-tests", feeds / "feedparser-tests" / name, content_type))
    return cases


def run_corpus(corpus: Path) -> None:
    stats: collections.Counter[str] = collections.Counter()
    problems: collections.Counter[str] = collections.Counter()
    refused: list[str] = []
    crashed: list[str] = []
    started = time.perf_counter()
    for group, path, content_type in corpus_cases(corpus):
        try:
            feed = parse_feed(
                path.read_bytes(), url=f"http://example.com/{path.name}", content_type=content_type
            )
        except FeedParseError as error:
            refused.append(f"{group}/{path.name}: {error.reason[:90]}")
            continue
        except Exception as error:  # noqa: BLE001 - the point is to count them
            crashed.append(f"{group}/{path.name}: {type(error).__name__}: {error}")
            continue
        stats[f"{group} parsed"] += 1
        stats[f"{group} entries"] += len(feed.entries)
        stats[f"{group} problems"] += len(feed.problems)
        stats[f"{group} with problems"] += bool(feed.problems)
        for problem in feed.problems:
            problems[problem.split("(")[0].split(":")[0][:70]] += 1
    elapsed = time.perf_counter() - started
    print("== corpus ==")
    for key in sorted(stats):
        print(f"  {key}: {stats[key]}")
    print(f"  refused (FeedParseError): {len(refused)}")
    for line in refused:
        print(f"    {line}")
    print(f"  crashed (any other exception): {len(crashed)}")
    for line in crashed:
        print(f"    {line}")
    print("  most common problems:")
    for text, count in problems.most_common(12):
        print(f"    {count:5}  {text}")
    print(f"  time: {elapsed:.1f} s")


def rss(items: int, *, title: str = "Story") -> bytes:
    body = "".join(
        f"<item><guid isPermaLink='false'>id-{n}</guid><title>{title} {n}</title>"
        f"<link>https://news.example/{n}</link><description>Teaser {n}.</description>"
        "<pubDate>Mon, 30 Nov 2026 08:00:00 +0100</pubDate></item>"
        for n in range(items)
    )
    return f"<rss version='2.0'><channel><title>Big</title>{body}</channel></rss>".encode()


def measure(name: str, action: Callable[[], str]) -> None:
    """Time ``action`` on its own, then run it again under tracemalloc for the peak."""
    started = time.perf_counter()
    try:
        outcome = action()
    except FeedParseError as error:
        outcome = f"FeedParseError: {error.reason[:60]}"
    elapsed = time.perf_counter() - started
    tracemalloc.start()
    with contextlib.suppress(FeedParseError):
        action()
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    print(f"  {name:44} {elapsed * 1000:7.0f} ms  peak {peak:6.1f} MiB  {outcome}")


def run_hostile() -> None:
    print("== large and hostile feeds ==")
    typical = rss(100)
    measure(
        "typical news feed, 100 entries",
        lambda: f"{len(parse_feed(typical, url='https://news.example/rss').entries)} entries",
    )
    runs = 20
    started = time.perf_counter()
    for _ in range(runs):
        parse_feed(typical, url="https://news.example/rss")
    per_feed = (time.perf_counter() - started) / runs
    print(f"  {'  throughput':44} {100 / per_feed:9.0f} entries/s")
    huge = rss(30_000)
    measure(
        f"30,000 entries ({len(huge) / 2**20:.1f} MiB), default cap",
        lambda: f"{len(parse_feed(huge, url='https://news.example/rss').entries)} entries kept",
    )
    laughs = (
        "<?xml version='1.0'?><!DOCTYPE rss [<!ENTITY a0 'lol'>"
        + "".join(f"<!ENTITY a{n} '{f'&a{n - 1};' * 10}'>" for n in range(1, 10))
        + "]><rss version='2.0'><channel><title>&a9;</title>"
        + "<item><title>&a9;&a9;</title><guid>x</guid></item></channel></rss>"
    ).encode()
    measure(
        "billion laughs",
        lambda: f"title {parse_feed(laughs, url='https://news.example/rss').title!r}",
    )
    blowup = (
        "<?xml version='1.0'?><!DOCTYPE rss [\n<!ENTITY big '"
        + "A" * 50_000
        + "'>\n]><rss version='2.0'><channel><title>t</title><item><guid>x</guid><title>"
        + "&big;" * 50_000
        + "<unclosed></title></item></channel></rss>"
    ).encode()
    measure(
        "quadratic blow-up (2.5 GB if expanded)",
        lambda: (
            f"title length {len(parse_feed(blowup, url='https://news.example/rss').entries[0].title)}"
        ),
    )
    head, tail = rss(1).removesuffix(b"</channel></rss>"), b"--></channel></rss>"
    limit = head + b"<!--" + b"x" * (MAX_FEED_BYTES - len(head) - len(tail) - 4) + tail
    measure(
        f"body of {len(limit) / 2**20:.1f} MiB (just under the limit)",
        lambda: f"{len(parse_feed(limit, url='https://news.example/rss').entries)} entries",
    )
    over = limit + b" "
    measure("body over the limit", lambda: str(parse_feed(over, url="https://news.example/rss")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    args = parser.parse_args()
    if (args.corpus / "feeds").is_dir():
        run_corpus(args.corpus)
    else:
        print(f"corpus not found at {args.corpus}; pass --corpus (hostile part runs anyway)")
    run_hostile()


if __name__ == "__main__":
    main()
