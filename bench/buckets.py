"""What the build cache's ``buckets`` table saves an hourly build.

Each hour the checks of the documents still observed move the tree ids of the partitions
they live in (35 to 40 at 1,000 articles a day once the re-check window is full), and an
hourly build keeps unread each bucket of those partitions whose git tree id is the one
its documents' recorded stamps make (``committed.built_buckets``). Before the table, the
build made those ids anew every hour from every document of the moved partitions; now it
reads them from the cache, which makes anew only those of the buckets whose documents a
build wrote (``buckets.refresh``).

A build cache of the real schema is filled with ``--days`` partitions of ``--per-day``
documents (default: a year at 1,000 articles a day), each stamped with a tree id, as an
hourly job's clone stamps them; then, alternated ``--repeats`` times, the ids of the
buckets of the ``--moved`` newest partitions are made from the stamps (as before) and
read from the table (now), and the two answers compared. Also timed: the table made
whole (a cache written whole: a full build) and made anew for ``--touched`` buckets (an
hour's rendered documents, in place). Medians of CPU time in this process.

    .venv/bin/python bench/buckets.py [--days 365] [--per-day 1000] [--moved 38]
        [--touched 250] [--repeats 15]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from quietedit.publish import buckets
from quietedit.publish.buildcache import create_tables

_ROW = "INSERT INTO documents VALUES (?, ?, '', '', 1, NULL, 't', 's', 1, ?, ?, '{}', '[]',"
_ROW += " '[]', ?, 0, 1, 0, 0, 0, 0)"


def fill(db: sqlite3.Connection, *, days: int, per_day: int) -> list[str]:
    """Document rows of ``days`` partitions; the partitions, oldest first."""
    first = date(2026, 1, 1)
    partitions = []
    db.execute("BEGIN")
    for n in range(days):
        partition = (first + timedelta(days=n)).strftime("%Y/%m/%d")
        partitions.append(partition)
        rows = []
        for k in range(per_day):
            seed = f"{partition}/{k}".encode()
            doc = "news-example-org-" + hashlib.sha256(seed).hexdigest()[:16]
            stamp = "git " + hashlib.sha1(seed, usedforsecurity=False).hexdigest()
            seen = partition.replace("/", "-") + "T08:00:00Z"
            rows.append((doc, stamp, seen, seen, partition))
        db.executemany(_ROW, rows)
    db.execute("COMMIT")
    return partitions


def cpu(action: Callable[[], Any]) -> tuple[float, Any]:
    started = time.process_time()
    result = action()
    return time.process_time() - started, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--per-day", type=int, default=1000)
    parser.add_argument("--moved", type=int, default=38)
    parser.add_argument("--touched", type=int, default=250)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "state.sqlite"
        db = sqlite3.connect(path, isolation_level=None)
        create_tables(db)
        partitions = fill(db, days=args.days, per_day=args.per_day)
        db.execute("BEGIN")
        whole, _ = cpu(lambda: buckets.refresh(db, None))
        db.execute("COMMIT")
        moved = json.dumps(partitions[-args.moved :])
        stamps = "SELECT id, stamp, partition FROM documents"
        stamps += " WHERE partition IN (SELECT value FROM json_each(?))"

        def made() -> dict[str, str]:
            return buckets.bucket_trees(db.execute(stamps, (moved,)))

        def read() -> dict[str, str]:
            return dict(db.execute(buckets.IN_PARTITIONS, (moved,)))

        before, now = [], []
        for _ in range(args.repeats):
            seconds, old = cpu(made)
            before.append(seconds)
            seconds, new = cpu(read)
            now.append(seconds)
            if old != new:
                sys.exit("the table and the stamps disagree")
        # an hour renders documents of the partitions its checks moved
        window = sorted(old)
        touched = window[:: max(1, len(window) // args.touched)][: args.touched]
        db.execute("BEGIN")
        anew, _ = cpu(lambda: buckets.refresh(db, touched))
        db.execute("COMMIT")
        documents = db.execute("SELECT COUNT(*) FROM documents").fetchone()[0]
        (every,) = db.execute("SELECT COUNT(*) FROM buckets").fetchone()
        db.close()
    print(f"cache: {documents:,} documents in {every:,} buckets of {args.days} partitions")
    print(f"an hour's moved partitions: {args.moved} ({len(old):,} buckets); same answers")
    print(f"  ids made from the stamps (before): {statistics.median(before) * 1000:.1f} ms CPU")
    print(f"  ids read from the table (now):     {statistics.median(now) * 1000:.1f} ms CPU")
    hour = f"{len(touched)} of those buckets (an hour's, in place)"
    print(f"table made anew for {hour}: {anew * 1000:.1f} ms CPU")
    print(f"table made whole (a cache written whole): {whole:.2f} s CPU")


if __name__ == "__main__":
    main()
