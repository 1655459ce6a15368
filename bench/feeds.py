"""The filtered feeds' queries of an hourly build, on the build cache's edits at a week's,
a quarter's and a year's size.

Every build, hourly ones included, asks the build cache for the newest entries of every
filtered feed: the site's and each source's silent, headline and significant edits, the
edits of each kind and of each watched term (``edittable.EditTable.newest``; with 30
sources, 16 kinds and 5 terms, 744 queries). Each is read from an index of its own edits
(``buildcache``), newest first, so a feed of a rare kind or term costs the same at any
size of the archive; read as an edit table of every kind (the kind's edits of every
source walked back until enough of one source's were found, every edit's watched terms
read until enough had the term), the rare ones grow with it.

Makes an edits table of N edits the way a year's archive spreads them (30 sources, kinds
at the shares of the year bench's edits, watched terms in 0.2 % of the edits, ``--seed``
fixed) in memory, then times the 744 queries (CPU seconds, the best of ``--repeats``),
in total and by filter, for each size:

    python bench/feeds.py                       # 7,000, 25,000 and 100,000 edits
    python bench/feeds.py --edits 2000,20000 --json -
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import random
import sqlite3
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from quietedit.analysis.findings import KINDS  # noqa: E402
from quietedit.publish.buildcache import create_tables  # noqa: E402
from quietedit.publish.edittable import EVERY, EditTable, Scope, insert_edits  # noqa: E402
from quietedit.publish.feedsets import ENTRIES, FeedFilter  # noqa: E402
from quietedit.publish.listing import EditRef  # noqa: E402

SOURCES = tuple(f"source-{n:02d}" for n in range(30))
TERMS = tuple(f"term-{n}" for n in range(5))
TERM_SHARE = 0.002
"""The share of edits adding or removing a given watched term."""
KIND_WEIGHTS = dict(
    zip(KINDS, (30, 3, 4, 0.2, 25, 8, 0.3, 6, 0.5, 5, 3, 6, 10, 40, 10, 4), strict=True)
)
"""Relative frequency of each kind (``KINDS`` order): rare ones (encoding repairs, index
lines, live updates) a hundred times rarer than style and wording."""
START = datetime(2026, 1, 1, tzinfo=UTC)
PER_YEAR = 110_000
"""Edits a year at 1,000 articles a day (27 % of them edited, some more than once)."""


def edits(count: int, seed: int) -> Iterator[tuple[str, str, list[EditRef]]]:
    """``count`` edits, one a document, spread evenly over time at a year's rate."""
    rng = random.Random(seed)
    step = timedelta(days=365) / PER_YEAR
    kinds, weights = list(KIND_WEIGHTS), list(KIND_WEIGHTS.values())
    for n in range(count):
        at = START + n * step
        day = at.date().isoformat()
        ref = EditRef(
            day=day,
            rank=rng.randint(0, 3),
            observed_at=at.strftime("%Y-%m-%dT%H:%M:%SZ"),
            document=f"doc-{n:08d}",
            number=2,
            source=rng.choice(SOURCES),
            kinds=tuple(sorted(set(rng.choices(kinds, weights, k=rng.randint(1, 3))))),
            delay=rng.randint(0, 5),
            silent=rng.random() < 0.7,
            digest=f"{rng.getrandbits(64):016x}",
            headline=rng.random() < 0.08,
            watched=tuple(t for t in TERMS if rng.random() < TERM_SHARE),
        )
        yield ref.document, day[:7], [ref]


def queries() -> list[tuple[Scope, FeedFilter]]:
    """What a build asks: each filtered feed of the site and of every source."""
    filters = [FeedFilter("silent"), FeedFilter("headlines"), FeedFilter("significant")]
    filters += [FeedFilter("kind", kind) for kind in KINDS]
    filters += [FeedFilter("term", term) for term in TERMS]
    scopes = [EVERY, *(Scope(source=slug) for slug in SOURCES)]
    return [(scope, feed) for scope in scopes for feed in filters]


@dataclasses.dataclass(frozen=True)
class Figures:
    """The queries' CPU seconds on a table of ``edits`` edits, in all and by filter."""

    edits: int
    queries: int
    cpu_seconds: float
    by_filter: dict[str, float]


def measure(count: int, *, seed: int, repeats: int) -> Figures:
    """The queries' CPU seconds on a table of ``count`` edits."""
    with contextlib.closing(sqlite3.connect(":memory:")) as db:
        create_tables(db)
        insert_edits(db, edits(count, seed))
        db.commit()
        table = EditTable(db, frozenset())
        asked = queries()
        best: dict[str, float] = {}
        for _ in range(repeats):
            spent: dict[str, float] = {}
            for scope, feed in asked:
                started = time.process_time()
                table.newest(scope, ENTRIES, feed=feed)
                key = ("source's " if scope.source else "site's ") + feed.what
                spent[key] = spent.get(key, 0.0) + time.process_time() - started
            if not best or sum(spent.values()) < sum(best.values()):
                best = spent
    return Figures(
        edits=count,
        queries=len(asked),
        cpu_seconds=round(sum(best.values()), 4),
        by_filter={key: round(value, 4) for key, value in sorted(best.items())},
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", default="7000,25000,100000", help="sizes, comma-separated")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", metavar="FILE", help="also write the figures ('-': stdout)")
    args = parser.parse_args(argv)
    sizes = [int(n) for n in args.edits.split(",")]
    results = [measure(n, seed=args.seed, repeats=args.repeats) for n in sizes]
    as_json = json.dumps([dataclasses.asdict(r) for r in results], indent=2)
    if args.json == "-":
        print(as_json)
        return 0
    if args.json:
        Path(args.json).write_text(as_json + "\n")
    keys = sorted({key for r in results for key in r.by_filter})
    print(f"{'CPU seconds of the filtered feeds':36}" + "".join(f"{n:>10,}" for n in sizes))
    for key in keys:
        print(f"  {key:34}" + "".join(f"{r.by_filter.get(key, 0):>10.3f}" for r in results))
    print(f"{f'all {results[0].queries} queries':36}", end="")
    print("".join(f"{r.cpu_seconds:>10.3f}" for r in results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
