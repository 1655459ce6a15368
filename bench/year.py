"""A year of the archive, and what one hourly run costs at day 7, 90 and 365.

Generates a simulated year (``--rate`` articles a day, default 1,000, for ``--days``,
default 365) through the real archive code: every article is registered, checked and
re-checked on the real re-check policy's schedule at hourly runs, its record made with
the ingest's own record functions (:mod:`quietedit.decide.memory`), so simulated
articles retire as real ones do and the active partitions stay few; 27 % of articles are
edited later (1.2 edits each on average, most within hours, some days later), 1 % are
taken down (a ``gone`` event). Each edit is stored when the policy's next check sees it.
The feed records hold the entries the feeds listed, as polls record them (the simulation:
:mod:`year_sim`). Stories are 600-900 words of news-like text on ~300 KB pages
(:mod:`year_newsroom`).

The year is committed day by day into a bare git repository, the origin
(``uploadpack.allowFilter`` on, so blob-less clones work over ``file://``). The workflow
commits every hour, and every hourly version of a partition's checks file (the schedules
each check moves on) and of the trees above what changed stays in git:
``--commits-per-day 24`` keeps them all, as a real archive does, at several times the
generation's cost (each simulated hour's checks are written at its end, as a run does). At each
checkpoint (``--checkpoints``, default 7, 90, 365) generation pauses at 10:00 UTC and one
hourly run is timed as the workflow does it (:mod:`year_hourly`):

1. **clone**: ``update.yml``'s own clone step, run as its script: the newest commit
   without a single tree (``--filter=tree:0 --depth=1``), then the listings of the folders
   every run reads (``data/feeds``, ``data/state``, ``data/index``) and a sparse index;
2. **sparse-paths** and **sparse add**: ``quietedit sparse-paths --fetch-trees`` (the
   folder listings on the way fetched level by level), then ``git sparse-checkout add
   --stdin`` of what it prints (today's and yesterday's partitions, and the documents
   this run's plan reads);
3. **ingest**: ``quietedit ingest --now`` against the loopback newsrooms, which serve
   the feeds and the pages of that hour (the new stories, and every due re-check: the
   page as last archived, or edited, or gone);
4. **verify**: ``quietedit verify --since`` the cloned commit;
5. **commit**: ``git add --sparse -A data`` and ``git commit``;
6. **push**: ``git push`` to the origin (afterwards the origin's branch is set back, so
   the year goes on as generated). The origin's side of it (``git receive-pack``, with the
   ``index-pack`` and connectivity check it runs: GitHub's work in real use) is timed
   apart under ``/usr/bin/time`` and printed below the push.

Printed per checkpoint: documents and revisions so far; the origin's packed size (after
``git gc``) against the zlib-compressed size of every revision record (target: at most
1.3x); what the clone downloaded (its ``.git`` after checkout) and the files it checked
out; the files the run's commit changed and their bytes, by kind of file; seconds per
step (target: day 365 within 1.2x of day 7); and the folder with the most entries in
``data/`` (target: none over 5,000). ``--json FILE`` also writes them as
JSON (``--json -``: JSON on stdout instead of the table).

Generation writes through the real store, whose every write is flushed (``fsync``): on
a disk that costs ~0.5 ms a file, so the work folder goes to ``/dev/shm`` when it has room
(the output says where it ran). Evidence: revisions reference WARC records the bench
does not write (they live outside the branch; only the reference is in ``data/``).

    .venv/bin/python bench/year.py [--rate 1000] [--days 365] [--checkpoints 7,90,365]
        [--workdir DIR] [--json FILE|-] [--commits-per-day 1] [--run-articles 250]
        [--repeats 1] [--full-index] [--snapshot-every N] [--copy-snapshots DIR] [--resume]
        [--no-site] [--no-search] [--site-hours 12]

A year at 1,000 a day takes hours (about half a minute a day to generate, more as it
grows): ``--snapshot-every N`` saves it every N days so that ``--resume`` goes on after a
stop, and ``--copy-snapshots DIR`` keeps the eve of each checkpoint in ``DIR/day-N``, from
which another checkout times that day again without generating the year anew
(:mod:`year_snapshot`)::

    bench/year.py --days 89 --checkpoints 90 --copy-snapshots snaps --workdir /dev/shm/y
    cp -r snaps/day-89 /dev/shm/y89
    bench/year.py --days 90 --checkpoints 90 --workdir /dev/shm/y89 --resume

The site half (a full build and the hourly build at each checkpoint, ``--no-site`` to
leave it out) is :mod:`year_site`.

Reading the figures: until day 28 the archive holds no article old enough to have
retired (the re-check window is ``recheck.observation_window`` times up to four), and
until day 8 no edit has left the share images' window, so the steps that follow them
(``sparse-paths``, the clone's listings, the build's re-renders) cost less at day 7 than
at any later day, at any age. And the search index's week bundles make the hourly build
depend on the weekday (day 7 is a Wednesday, day 90 a Tuesday, day 365 a Thursday). To
see whether a cost grows with age alone, compare checkpoints on one weekday after the
windows fill, such as ``--checkpoints 35,91,364`` (all Wednesdays).

Smoke test: ``--rate 100 --days 30 --checkpoints 7,30``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import year_site
import year_snapshot
from year_hourly import STEPS, Repository, hourly_run, keep_schedules, largest_folder
from year_newsroom import (
    OUTLETS,
    Story,
    check_extraction,
    page_encoding,
)
from year_sim import HOUR, RUN_HOUR, START, WARC_REFERENCES, RecordingArchive, Year

from quietedit.ingest.workers import cpu_count

# -- the year -------------------------------------------------------------------------------


def workdir_for(requested: Path | None, *, need: int) -> tuple[Path, str]:
    """The work folder: ``requested``, else a new one on /dev/shm when it has room for
    ``need`` bytes (and memory to spare), else in the system's temp folder."""
    if requested is not None:
        requested.mkdir(parents=True, exist_ok=True)
        return requested, str(requested)
    shm = Path("/dev/shm")  # noqa: S108 (a new folder made by mkdtemp, not a fixed name)
    if shm.is_dir():
        free = shutil.disk_usage(shm).free
        available = _mem_available()
        if free > 2 * need and available > need + 4 * 2**30:
            return Path(tempfile.mkdtemp(prefix="quietedit-year-", dir=shm)), "tmpfs (/dev/shm)"
    return Path(tempfile.mkdtemp(prefix="quietedit-year-")), "the temp folder (disk)"


def machine() -> dict[str, Any]:
    """What the figures depend on besides the code's work: the processor, the CPUs the
    ingest gives page readers (one each), the Python and the checkout's commit."""
    cpu = "unknown processor"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    here = Path(__file__).resolve().parent
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=here, capture_output=True, text=True
    ).stdout.strip()
    return {
        "cpu": cpu,
        "cpus": cpu_count(),  # as the ingest counts them
        "python": platform.python_version(),
        "commit": commit or "unknown",
    }


def _mem_available() -> int:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run(args: argparse.Namespace) -> dict[str, Any]:
    need = args.rate * args.days * 20_000  # ~20 KB an article: files, blocks, objects
    workdir, where = workdir_for(args.workdir, need=need)
    checkpoints = sorted({day for day in args.checkpoints if 1 <= day <= args.days})
    if args.resume:
        snapshot, repo = year_snapshot.load(workdir, args)
        year, first_day = snapshot.year, snapshot.days
        result, generation = snapshot.result, snapshot.generation_seconds
        result["days"] = args.days
        _progress(args, f"resumed after day {first_day} (commit {snapshot.head[:7]})")
    else:
        repo = Repository(workdir)
        year = start(repo, args)
        first_day, generation = 0, 0.0
        result = {
            "rate": args.rate,
            "days": args.days,
            "workdir": where,
            "commits_per_day": args.commits_per_day,
            "run_articles": args.run_articles,
            "sparse_index": not args.full_index,
            "evidence": "WARC references (the WARC files are not written)"
            if WARC_REFERENCES
            else "none (this quietedit keeps no WARC references)",
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "machine": machine(),
            "checkpoints": [],
        }
    archive = year.archive
    per_commit = 24 // args.commits_per_day
    site = year_site.SiteBench(workdir, args)
    started = time.perf_counter()
    for day in range(first_day, args.days):
        timed_now = day + 1 in checkpoints
        for hour in range(day * 24, day * 24 + 24):
            if timed_now and hour == day * 24 + RUN_HOUR:
                generation += time.perf_counter() - started
                result_day = checkpoint(year, repo, workdir, day=day + 1, hour=hour, args=args)
                result_day["site"] = site.hourly(repo, START + hour * HOUR)
                result_day["machine"] = machine()  # a resumed year may run on other code
                result["checkpoints"].append(result_day)
                _progress(args, f"day {day + 1}: {json.dumps(result_day)}")
                started = time.perf_counter()
            elif timed_now and site.times(hour - day * 24):
                # the hours after it, each committed at its end as the workflow's run is,
                # each built from the site the build before left
                generation += time.perf_counter() - started
                commit_as_run(year, repo, hour)
                result["checkpoints"][-1]["site"] = site.hourly(repo, START + hour * HOUR)
                _progress(args, f"day {day + 1} {hour % 24}:00: {site.timed[-1]}")
                started = time.perf_counter()
            if timed_now and hour == day * 24 + RUN_HOUR - 1 and site.enabled:
                # the workflow's build follows a commit: the full build reads its tree as
                # the commit's checkout (git tree ids as stamps), as the last hour's did
                commit(year, repo, hour)
                site.before(repo, hour)
            year.run_hour(hour)
            archive.flush_checks()  # as a run does at its end
            if (hour + 1) % per_commit == 0:
                commit(year, repo, hour)
        if (day + 1) % 7 == 0:
            repo.repack()
        if (day + 1) % 10 == 0:
            _progress(
                args,
                f"day {day + 1}: {len(year.docs)} documents, "
                f"{archive.revision_zlib >> 20} MiB of revisions (zlib)",
            )
        # on the eve of a checkpoint (one after --days too) a copy, so that a later
        # checkout can time that day again
        eve = args.copy_snapshots is not None and day + 2 in args.checkpoints
        due = args.snapshot_every > 0 and (day + 1) % args.snapshot_every == 0
        if eve or (due and day + 1 < args.days):
            spent = generation + time.perf_counter() - started
            year_snapshot.save(
                workdir,
                year_snapshot.take(
                    day + 1, year, repo, generation_seconds=spent, result=result, args=args
                ),
            )
            if eve:
                year_snapshot.copy(workdir, args.copy_snapshots / f"day-{day + 1}")
    generation += time.perf_counter() - started
    result["generation_seconds"] = round(generation, 1)
    result["git_seconds"] = round(repo.seconds, 1)
    result["documents"] = len(year.docs)
    result["revisions"] = sum(doc.revisions for doc in year.docs.values())
    result["checks"] = year.checks
    if args.workdir is None and not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    return result


def start(repo: Repository, args: argparse.Namespace) -> Year:
    """A new year on an empty repository: the extractor checked on sample pages first."""
    archive = RecordingArchive(repo.tree / "data")
    year = Year(archive, args.rate, args.port, args.page_kb, random.Random(args.seed))
    sample = year.new_stories(0)[:3] or [Story(0, OUTLETS[0], 1, START, START - HOUR)]
    year.numbers = 0
    check_extraction(sample, port=args.port, page_kb=args.page_kb)
    year.encoding = page_encoding(port=args.port, page_kb=args.page_kb, story=sample[0])
    readme = Path(__file__).resolve().parents[1] / "data" / "README.md"
    if readme.is_file():
        archive.root.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(readme, archive.root / "README.md")
        archive.written.add(archive.root / "README.md")
    return year


def commit(year: Year, repo: Repository, hour: int) -> None:
    now = START + hour * HOUR
    year.save(now)
    repo.commit(year.archive.written, f"Ingest {now:%Y-%m-%dT%H:%M:%SZ}")
    year.archive.written = set()


def commit_as_run(year: Year, repo: Repository, hour: int) -> None:
    """Commit what the hours before ``hour`` wrote, and the list as the run of the hour
    before saves it: with its documents' schedule entries."""
    commit(year, repo, hour - 1)
    listed = keep_schedules(year.archive.root, now=START + (hour - 1) * HOUR)
    repo.commit(listed, "The documents' schedule entries")


def checkpoint(
    year: Year, repo: Repository, workdir: Path, *, day: int, hour: int, args: argparse.Namespace
) -> dict[str, Any]:
    """Commit what the hours before ``hour`` wrote, pack the origin, time one hourly run."""
    commit_as_run(year, repo, hour)
    gc = repo.gc()
    packed = repo.packed_size()
    kinds = repo.packed_by_kind()
    now = START + hour * HOUR
    load = os.getloadavg()[0]
    runs = [
        hourly_run(
            year.site(hour),
            repo,
            workdir,
            now=now,
            articles=args.run_articles,
            sparse_index=not args.full_index,
        )
        for _ in range(args.repeats)
    ]
    # each step's median over the repeats (the machine may be shared); the rest from the first
    run_figures = runs[0] | {
        "steps": {
            step: statistics.median(run["steps"][step] for run in runs) for step in runs[0]["steps"]
        },
        "load_average": round(load, 2),
    }
    folder, entries = largest_folder(year.archive.root)
    return {
        "day": day,
        "documents": len(year.docs),
        "revisions": sum(doc.revisions for doc in year.docs.values()),
        "still_observed": len(year.observed),
        "packed_bytes": packed,
        "revisions_zlib_bytes": year.archive.revision_zlib,
        "packed_ratio": round(packed / max(year.archive.revision_zlib, 1), 2),
        "gc_seconds": round(gc, 1),
        "packed_by_kind": kinds,
        "largest_folder": folder,
        "largest_folder_entries": entries,
        **run_figures,
    }


def _progress(args: argparse.Namespace, text: str) -> None:
    if args.verbose:
        print(text, file=sys.stderr, flush=True)


# -- output -----------------------------------------------------------------------------------


def table(result: dict[str, Any]) -> Iterator[str]:
    points = result["checkpoints"]
    yield (
        f"{result['rate']} articles a day for {result['days']} days on {result['workdir']}; "
        f"generated in {result['generation_seconds']} s ({result['documents']} documents, "
        f"{result['revisions']} revisions, {result['checks']} checks); "
        f"{result['commits_per_day']} commit(s) a day; the clone's index "
        + ("sparse, as the workflow's" if result["sparse_index"] else "full (--full-index)")
    )
    yield (
        f"  of the generation, git (update-index, write-tree, commit, repack): "
        f"{result['git_seconds']} s; the store flushes every file it writes (fsync), "
        "free on tmpfs, ~0.5 ms a file on disk"
    )
    yield (
        f"  evidence: {result['evidence']}; the timed run fetches at most "
        f"{result['run_articles']} articles; load average at the start "
        f"{' '.join(map(str, result['load_average']))} on {os.cpu_count()} CPUs"
    )
    if "machine" in result:  # what figures of another machine or checkout differ by
        found = result["machine"]
        yield (
            f"  machine: {found['cpu']}, {found['cpus']} CPUs; Python {found['python']}; "
            f"checkout {found['commit']}"
        )
    rows: list[tuple[str, ...]] = [("day", *(str(p["day"]) for p in points if isinstance(p, dict)))]

    def row(label: str, key: str, fmt: str = "{}", scale: float = 1.0) -> None:
        values = []
        for point in points:
            value = point[key]
            if isinstance(value, (int, float)) and scale != 1.0:
                value = value / scale
            values.append(fmt.format(value))
        rows.append((label, *values))

    row("documents", "documents")
    row("revisions", "revisions")
    row("still observed", "still_observed")
    row("packed (MiB, origin after gc)", "packed_bytes", "{:.1f}", 2**20)
    kinds = sorted({kind for point in points for kind in point["packed_by_kind"]})
    for kind in kinds:
        sizes = [point["packed_by_kind"].get(kind, 0) / 2**20 for point in points]
        rows.append((f"  of it {kind} (MiB)", *(f"{size:.2f}" for size in sizes)))
    row("revisions zlib (MiB)", "revisions_zlib_bytes", "{:.1f}", 2**20)
    row("packed / revisions zlib (<= 1.3)", "packed_ratio")
    row("clone downloads (MiB, .git/objects)", "clone_bytes", "{:.2f}", 2**20)
    row("clone's .git/index (MiB)", "clone_index_bytes", "{:.2f}", 2**20)
    row("files checked out", "files_checked_out")
    row("partitions checked out whole", "partitions_checked_out")
    row("partitions checked out in part", "partitions_in_part")
    row("documents of those checked out", "documents_in_part")
    row("folder listings fetched (sparse-paths)", "listings_fetched")
    row("requests for them", "listing_requests")
    row("bytes checked out (MiB)", "bytes_checked_out", "{:.2f}", 2**20)
    row("  of it feed records (MiB)", "feed_records_bytes", "{:.2f}", 2**20)
    row("  of it feeds' day files (MiB)", "day_files_bytes", "{:.2f}", 2**20)
    row("files the run's commit changed", "commit_files")
    row("their bytes (MiB, before deltas)", "commit_bytes", "{:.2f}", 2**20)
    changed = sorted({kind for point in points for kind in point.get("commit_bytes_by_kind", {})})
    for kind in changed:
        sizes = [point.get("commit_bytes_by_kind", {}).get(kind, 0) / 2**20 for point in points]
        rows.append((f"  of it {kind} (MiB)", *(f"{size:.2f}" for size in sizes)))
    row("folders fetched on demand", "fetched_on_demand")
    row("pages served", "pages_served")
    row("pages served (MB)", "megabytes_served")
    for step in STEPS:
        for suffix, label in (("", "s"), (" cpu", "CPU s")):
            values = [f"{point['steps'][step + suffix]:.2f}" for point in points]
            rows.append((f"{step} ({label})", *values))
        # the processes a step leaves behind (the ingest's page readers): counted apart, so
        # the figure above stays comparable with runs of the bench that did not count them
        left = [point["steps"].get(f"{step} cpu left", 0.0) for point in points]
        if any(left):
            rows.append(("  + processes it left (CPU s)", *(f"{cpu:.2f}" for cpu in left)))
    if all("push origin cpu" in point["steps"] for point in points):
        values = [f"{point['steps']['push origin cpu']:.2f}" for point in points]
        rows.append(("  of push CPU s, the origin's receive-pack", *values))
    row("load average (1 min) at the run", "load_average")
    row("largest folder (entries, <= 5000)", "largest_folder_entries")
    row("  which", "largest_folder")
    width = max(len(r[0]) for r in rows)
    cols = [max(len(r[i]) for r in rows) for i in range(1, len(rows[0]))]
    for r in rows:
        yield "  ".join(
            [r[0].ljust(width), *(v.rjust(c) for v, c in zip(r[1:], cols, strict=True))]
        )
    if len(points) > 1:
        first, last = points[0], points[-1]
        a, b = first["steps"], last["steps"]
        for suffix, label in (("", "wall"), (" cpu", "CPU")):
            ratios = ", ".join(
                f"{s} {float(b[s + suffix]) / max(float(a[s + suffix]), 1e-9):.2f}x" for s in STEPS
            )
            yield f"day {last['day']} / day {first['day']}, {label} (target <= 1.2x): {ratios}"
        if "push origin cpu" in a and "push origin cpu" in b:
            mine = [float(s["push cpu"]) - float(s["push origin cpu"]) for s in (a, b)]
            yield (
                f"day {last['day']} / day {first['day']}, push CPU without the origin's side: "
                f"{mine[1] / max(mine[0], 1e-9):.2f}x ({mine[0]:.2f} -> {mine[1]:.2f} s)"
            )
    for point in points:
        whole = ", ".join(f"{step} {step_cpu(point['steps'], step):.2f}" for step in STEPS)
        yield f"CPU s at day {point['day']}, with the processes each step left: {whole}"
    for point in points:
        yield f"ingest at day {point['day']}: {point['ingest_summary']}"


def step_cpu(steps: dict[str, float], step: str) -> float:
    """A step's whole CPU seconds: its processes' and those of the processes it left."""
    return steps[f"{step} cpu"] + steps.get(f"{step} cpu left", 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=int, default=1000, help="articles a day")
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument(
        "--checkpoints", type=lambda t: [int(x) for x in t.split(",")], default=[7, 90, 365],
        help="days after which an hourly run is timed, e.g. 7,90,365",
    )  # fmt: skip
    parser.add_argument("--workdir", type=Path, help="default: a new folder on /dev/shm or /tmp")
    parser.add_argument("--keep", action="store_true", help="keep the default work folder")
    parser.add_argument(
        "--commits-per-day", type=int, default=1, choices=(1, 2, 3, 4, 6, 8, 12, 24)
    )
    parser.add_argument(
        "--run-articles", type=int, default=250, help="the timed run's max_articles"
    )
    parser.add_argument(
        "--repeats", type=int, default=1, help="time each checkpoint's run N times (median)"
    )
    parser.add_argument(
        "--full-index",
        action="store_true",
        help="the clone's index lists every path of the tree (the workflow's is sparse)",
    )
    parser.add_argument("--page-kb", type=int, default=300, help="page weight around the text")
    parser.add_argument("--port", type=int, default=28470)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument(
        "--json", metavar="FILE", help="also write the figures as JSON to FILE ('-': stdout only)"
    )
    parser.add_argument(
        "--snapshot-every", type=int, default=0, metavar="N",
        help="save the year after every N-th day in the work folder (--resume goes on from it)",
    )  # fmt: skip
    parser.add_argument(
        "--copy-snapshots", type=Path, metavar="DIR",
        help="also save the year on the eve of each checkpoint in DIR/day-N (the origin "
        "and the snapshot: copy one to a work folder and --resume it to time that day again)",
    )  # fmt: skip
    parser.add_argument(
        "--resume", action="store_true",
        help="go on from the snapshot in --workdir (same --rate, --seed, --port, --page-kb)",
    )  # fmt: skip
    year_site.add_arguments(parser)
    parser.add_argument("-v", "--verbose", action="store_true", help="progress on stderr")
    args = parser.parse_args()
    if args.resume and args.workdir is None:
        parser.error("--resume needs the --workdir of the run to go on from")
    try:
        result = run(args)
    except year_snapshot.SnapshotError as error:
        sys.exit(f"year.py: {error}")
    figures = json.dumps(result, indent=2, sort_keys=True)
    if args.json == "-":
        print(figures)
        return
    if args.json:
        Path(args.json).write_text(figures + "\n")
    for line in [*table(result), *year_site.table(result)]:
        print(line)


if __name__ == "__main__":
    main()
