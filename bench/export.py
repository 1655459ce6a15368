"""The research exports at a year's scale: ``quietedit export sqlite`` and ``newsedits``.

Generates a simulated archive with ``bench/year.py``'s own generator (:mod:`year_sim`:
``--rate`` articles a day, default 1,000, for ``--days``, default 365; 27 % edited later,
records and retirements by the real re-check policy, 600-900 word stories, feed records
with their entries), without the git repository and the timed hourly runs, then runs each
export as the command line does, in a child process, and prints its wall time, CPU time,
peak memory and output size, with the archive's size beside them, and the time of each
example query on the database (``removed_text`` with ``--phrase``). Targets: the SQLite
export of a year (1,000 a day) within 5 minutes; each example query within Datasette's
default limit of 1 s.

    .venv/bin/python bench/export.py [--rate 1000] [--days 365] [--jobs N] [--workdir DIR]
        [--out DIR] [--keep] [--no-newsedits] [--json FILE|-] [--archive DATA]
        [--cache SITE/.quietedit-cache] [--phrase WORD]
    .venv/bin/python bench/export.py --db quietedit.db [--phrase WORD]  # the queries alone

Smoke test: ``--rate 100 --days 30``. Generation writes through the real store (each
write flushed), so the work folder goes to ``/dev/shm`` when it has room; ``--out`` puts
the database elsewhere (a disk folder: a year's is several GB). The year's random draws
are made first, in one stream; ``--jobs N`` then simulates the outlets in N groups, one
process each, and merges their archives into the one a single process writes, byte for
byte (``tests/bench/test_export.py``). Each day's document records and revisions are
written as the day's runs would leave them; the files every run rewrites whole (index
shards, checks files, feed records, the active-partition list) once, at the end, as the
last run leaves them: no commit in between would see the others. Keep the work folder
(``--workdir``, ``--keep``) to time the export again on it with ``--archive DIR/data``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from year import workdir_for
from year_newsroom import OUTLETS, Outlet, Story, check_extraction, page_encoding
from year_sim import HOUR, START, Planned, RecordingArchive, Year, save_partitions

from quietedit.archive.records import dump_json
from quietedit.archive.store import Archive
from quietedit.export.datasette import QUERIES
from quietedit.model import JSON


def generate(data: Path, args: argparse.Namespace) -> dict[str, Any]:
    """The simulated archive in ``data``: by one process (``--jobs 1``), else by
    ``--jobs`` processes, each simulating a group of outlets in a folder of its own, merged
    at the end into the archive one process writes, byte for byte (the year's random
    draws are made first, in one stream, the order one process makes them)."""
    planner = Year(RecordingArchive(data), args.rate, args.port, 300, random.Random(args.seed))
    sample = planner.new_stories(0)[:3] or [Story(0, OUTLETS[0], 1, START, START - HOUR)]
    planner.numbers = 0
    check_extraction(sample, port=args.port, page_kb=300)
    encoding = page_encoding(port=args.port, page_kb=300, story=sample[0])
    started = time.perf_counter()
    hours = args.days * 24
    if args.jobs <= 1:
        planner.encoding, planner.list_partitions = encoding, False
        parts = [_simulate(planner, hours, None, verbose=args.verbose)]
    else:
        plan = [planner.plan_hour(hour) for hour in range(hours)]
        groups = outlet_groups(args.jobs)
        folders = [data.parent / f"{data.name}.part-{n}" for n in range(len(groups))]
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)
        _WORK.update(plan=plan, args=args, encoding=encoding, hours=hours)
        with multiprocessing.get_context("fork").Pool(len(groups)) as pool:
            parts = pool.starmap(_part, zip(groups, folders, strict=True))
        _WORK.clear()
        merge(folders, data)
    # the active-partition list the last run leaves (each day's is rewritten whole)
    now = START + (hours - 1) * HOUR
    observed = [found for part in parts for found in part["observed"]]
    touched = {found for part in parts for found in part["touched"]}
    save_partitions(Archive(data), observed, touched, policy=planner.policy, now=now)
    return {
        "generation_seconds": round(time.perf_counter() - started, 1),
        "generation_cpu_seconds": round(time.process_time() + _children_cpu(), 1),
        "jobs": max(args.jobs, 1),
        "documents": sum(part["documents"] for part in parts),
        "revisions": sum(part["revisions"] for part in parts),
        "edited_documents": sum(part["edited"] for part in parts),
        "archive_bytes": folder_size(data),
    }


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


_WORK: dict[str, Any] = {}
"""What the generating processes inherit (forked): the plan, the arguments."""


def _part(outlets: tuple[Outlet, ...], folder: Path) -> dict[str, Any]:
    """One process's share: the stories of ``outlets``, simulated into ``folder``."""
    args = _WORK["args"]
    year = Year(RecordingArchive(folder / "data"), args.rate, args.port, 300, random.Random(0))
    year.outlets, year.list_partitions, year.encoding = outlets, False, _WORK["encoding"]
    mine = {outlet.index for outlet in outlets}
    plan = (
        [found for found in planned if found.story.outlet.index in mine]
        for planned in _WORK["plan"]
    )
    return _simulate(year, _WORK["hours"], plan, verbose=args.verbose and 0 in mine)


def _simulate(
    year: Year, hours: int, plan: Iterator[list[Planned]] | None, *, verbose: bool
) -> dict[str, Any]:
    """``hours`` hourly runs of ``year`` (its stories from ``plan``, else drawn as it
    goes), saved at the end of each day as the day's last commit would."""
    archive = year.archive
    archive.measure = False
    for hour in range(hours):
        year.run_hour(hour, None if plan is None else next(plan))
        if (hour + 1) % 24 == 0 or hour + 1 == hours:
            # each day's document records; the feed records, index and checks entries
            # (rewritten whole by each run) once, at the end: the files the last run
            # leaves (no commit between to see the others)
            last = hour + 1 == hours
            year.save(START + hour * HOUR, feeds=last)
            if last:
                archive.flush_checks()
            archive.written = set()
            if verbose and (hour + 1) % (24 * 10) == 0:
                print(f"day {(hour + 1) // 24}: {len(year.docs)} documents", file=sys.stderr)
    return {
        "documents": len(year.docs),
        "revisions": sum(doc.revisions for doc in year.docs.values()),
        "edited": sum(doc.revisions > 1 for doc in year.docs.values()),
        "observed": year.still_observed(),
        "touched": year.written_now,
    }


def outlet_groups(jobs: int) -> list[tuple[Outlet, ...]]:
    """The outlets in ``jobs`` groups of about equal output (largest first, each to the
    group with the least so far)."""
    groups: list[list[Outlet]] = [[] for _ in range(min(jobs, len(OUTLETS)))]
    for outlet in sorted(OUTLETS, key=lambda o: -o.weight):
        min(groups, key=lambda g: sum(o.weight for o in g)).append(outlet)
    return [tuple(group) for group in groups]


def merge(folders: list[Path], data: Path) -> None:
    """The parts' archives as one in ``data``: document folders and feed records moved
    (each part has its own), each partition's checks file and each index shard joined
    (the file one writer of every document leaves: the same sorted object)."""
    archive = Archive(data)
    joined: dict[Path, dict[str, JSON]] = {}
    for folder in folders:
        part = folder / "data"
        for path in sorted(part.rglob("*.json")):
            relative = path.relative_to(part)
            if relative.parts[0] == "index" or path.name == "checks.json":
                record = json.loads(path.read_bytes())
                into = joined.setdefault(relative, {**record, "documents": {}})
                documents = into["documents"]
                assert isinstance(documents, dict)  # noqa: S101 (a check of our own files)
                documents.update(record["documents"])
        for feed in sorted((part / "feeds").glob("*.json")):
            archive._replace(data / "feeds" / feed.name, feed.read_bytes(), final=True)
        for bucket in sorted(part.glob("documents/*/*/*/*")):  # year/month/day/bucket
            if not bucket.is_dir():
                continue
            target = data / bucket.relative_to(part)
            target.mkdir(parents=True, exist_ok=True)
            for document in sorted(p for p in bucket.iterdir() if p.is_dir()):
                document.rename(target / document.name)
    for relative, record in sorted(joined.items()):
        documents = record["documents"]
        assert isinstance(documents, dict)  # noqa: S101
        record["documents"] = dict(sorted(documents.items()))
        archive._replace(data / relative, dump_json(record), final=True)
    for folder in folders:
        shutil.rmtree(folder)


def described(data: Path) -> dict[str, Any]:
    """An existing archive's size, counted from its folders (no generation time)."""
    documents = revisions = edited = 0
    for folder in (data / "documents").glob("*/*/*/*/*/"):  # year/month/day/bucket/document
        found = len(list((folder / "revisions").glob("*.json")))
        documents += 1
        revisions += found
        edited += found > 1
    return {
        "generation_seconds": 0.0,
        "generation_cpu_seconds": 0.0,
        "jobs": 0,
        "documents": documents,
        "revisions": revisions,
        "edited_documents": edited,
        "archive_bytes": folder_size(data),
    }


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def timed(command: list[str], *, cwd: Path) -> dict[str, Any]:
    """Run ``command`` in ``cwd`` (no feeds.yaml there: the archive's feed records name
    the sources); wall and CPU seconds and the peak memory of the child.

    The peak is read by GNU ``time`` (``%M``), which starts the command from its own small
    process: a child started from this one directly would carry this process's peak into
    its ``ru_maxrss`` (Linux keeps it across ``exec``), and this process holds the whole
    simulated year when it generated it alone. Without ``/usr/bin/time``, the largest
    child's ``ru_maxrss`` so far (an upper bound)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    with tempfile.NamedTemporaryFile(prefix="export-peak-", suffix=".txt") as peak:
        timer = ["/usr/bin/time", "-f", "%M", "-o", peak.name]
        wrapped = [*timer, *command] if Path(timer[0]).is_file() else command
        done = subprocess.run(wrapped, capture_output=True, text=True, check=False, cwd=cwd)
        reported = Path(peak.name).read_text(encoding="ascii").split()
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    peak_kib = int(reported[-1]) if reported and reported[-1].isdigit() else after.ru_maxrss
    return {
        "seconds": round(wall, 1),
        "cpu_seconds": round(
            after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, 1
        ),
        "max_rss_mb": round(peak_kib / 1024),
        "stdout": done.stdout.strip(),
    }


def time_queries(db: Path, phrase: str, repeats: int = 3) -> dict[str, dict[str, Any]]:
    """Each example query of the export (its metadata's), run ``repeats`` times on ``db``
    (``:phrase`` = ``phrase``): the median of its wall times, its CPU time, and its rows.
    The first run reads the pages from disk; the median is of a warm cache, as a
    Datasette instance that keeps the file open answers."""
    found: dict[str, dict[str, Any]] = {}
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        for query in QUERIES:
            walls, cpus, count = [], [], 0
            for _ in range(repeats):
                started, cpu = time.perf_counter(), time.process_time()
                count = len(conn.execute(query.sql, {"phrase": phrase}).fetchall())
                walls.append(time.perf_counter() - started)
                cpus.append(time.process_time() - cpu)
            found[query.name] = {
                "seconds": round(statistics.median(walls), 3),
                "first_seconds": round(walls[0], 3),
                "cpu_seconds": round(statistics.median(cpus), 3),
                "rows": count,
            }
    return found


def run(args: argparse.Namespace) -> dict[str, Any]:
    workdir, where = workdir_for(args.workdir, need=args.rate * args.days * 40_000)
    result: dict[str, Any] = {"rate": args.rate, "days": args.days, "workdir": where}
    if args.archive is not None:  # an archive made before: time the exports alone
        data = args.archive.resolve()
        result.update(rate=None, days=None, workdir=str(data))  # not generated here
        result["archive"] = described(data)
    else:
        data = workdir / "data"
        result["archive"] = generate(data, args)
    quietedit = str(Path(sys.executable).with_name("quietedit"))
    out = (args.out or workdir) / "quietedit.db"
    out.parent.mkdir(parents=True, exist_ok=True)
    cache = ["--cache", str(args.cache.resolve())] if args.cache is not None else []
    figures = timed(
        [quietedit, "export", "sqlite", str(out), "--data", str(data), *cache], cwd=workdir
    )
    figures["bytes"] = out.stat().st_size
    started = time.perf_counter()
    subprocess.run(["gzip", "-6", "--no-name", "--keep", str(out)], check=True)
    figures["gzip_seconds"] = round(time.perf_counter() - started, 1)
    figures["gzip_bytes"] = out.with_suffix(".db.gz").stat().st_size
    result["sqlite"] = figures
    result["queries"] = time_queries(out, args.phrase)
    result["phrase"] = args.phrase
    if not args.no_newsedits:
        lines = workdir / "edits.jsonl"
        news = timed(
            [quietedit, "export", "newsedits", str(lines), "--data", str(data)], cwd=workdir
        )
        news["bytes"] = lines.stat().st_size
        result["newsedits"] = news
    result["load_average"] = [round(x, 2) for x in os.getloadavg()]
    if args.workdir is None and not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    return result


def table(result: dict[str, Any]) -> list[str]:
    archive, sqlite = result["archive"], result["sqlite"]
    made = (
        f"{result['rate']:,} articles a day for {result['days']} days"
        if result["days"] is not None
        else "made before"
    )
    lines = [
        f"archive: {made} ({result['workdir']}): {archive['documents']:,} documents, "
        f"{archive['revisions']:,} revisions, {archive['edited_documents']:,} edited, "
        f"{archive['archive_bytes'] / 2**20:,.0f} MiB of files, generated in "
        f"{archive['generation_seconds']:,.0f} s ({archive.get('generation_cpu_seconds', 0):,.0f}"
        f" s CPU, {archive.get('jobs', 0)} process(es))",
        f"export sqlite: {sqlite['seconds']:,.1f} s wall, {sqlite['cpu_seconds']:,.1f} s CPU, "
        f"peak {sqlite['max_rss_mb']:,} MB; {sqlite['bytes'] / 2**20:,.0f} MiB "
        f"({sqlite['gzip_bytes'] / 2**20:,.0f} MiB gzipped in {sqlite['gzip_seconds']:,.0f} s)",
        f"  {sqlite['stdout']}",
    ]
    for name, query in result.get("queries", {}).items():
        lines.append(
            f"  query {name}: {query['seconds']:.3f} s (median of 3; first "
            f"{query['first_seconds']:.3f} s; {query['cpu_seconds']:.3f} s CPU), "
            f"{query['rows']:,} rows"
            + (f" (:phrase = {result['phrase']!r})" if name == "removed_text" else "")
        )
    if "newsedits" in result:
        news = result["newsedits"]
        lines.append(
            f"export newsedits: {news['seconds']:,.1f} s wall, {news['cpu_seconds']:,.1f} s "
            f"CPU; {news['bytes'] / 2**20:,.0f} MiB"
        )
    lines.append(f"load average at the end: {result['load_average']}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=int, default=1000, help="articles a day")
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--workdir", type=Path, help="default: a new folder on /dev/shm or /tmp")
    parser.add_argument("--keep", action="store_true", help="keep the default work folder")
    parser.add_argument("--no-newsedits", action="store_true", help="time the SQLite export only")
    parser.add_argument("--json", help="also write the figures as JSON to FILE (- for stdout)")
    parser.add_argument("--archive", type=Path, help="time the exports of this archive folder")
    parser.add_argument(
        "--cache", type=Path, help="a site build's cache folder for export sqlite --cache"
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="processes generating the archive (by outlet)"
    )
    parser.add_argument(
        "--out", type=Path, help="the folder of the database (default: the work folder)"
    )
    parser.add_argument(
        "--phrase", default="said", help="the :phrase of the example query removed_text"
    )
    parser.add_argument("--port", type=int, default=28490)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("-v", "--verbose", action="store_true", help="progress on stderr")
    parser.add_argument(
        "--db", type=Path, help="only time the example queries on this exported database"
    )
    args = parser.parse_args()
    if args.db is not None:
        queries = time_queries(args.db, args.phrase)
        print(json.dumps({"phrase": args.phrase, "queries": queries}, indent=2))
        return
    result = run(args)
    if args.json == "-":
        print(json.dumps(result, indent=2, sort_keys=True))
        return
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
    print("\n".join(table(result)))


if __name__ == "__main__":
    main()
