"""The weekly update of the SQLite export: ``quietedit export sqlite --update``.

Takes a simulated archive (generated here as ``bench/export.py`` generates one: ``--rate``
articles a day for ``--days``; or an existing one, ``--archive DATA``), and rewinds a
working copy of it by ``--week`` days: the documents first seen in the last week and the
revisions, events and derived records observed in it are moved aside. Then, in a git
repository as the weekly workflow's checkout is (``--no-git``: outside one, documents
stamped by their content):

1. exports last week's archive whole (``last.db``: last week's release asset);
2. puts the week back (and commits it), and updates a copy of ``last.db`` with the week;
3. updates it again with nothing changed: the fixed cost of finding what changed;
4. exports this week's archive whole, and checks that the update holds the same rows.

Prints each run's wall and CPU seconds (the child's, as ``getrusage`` counts them) and
peak memory, the documents the update read again, the cost per document read again
((update - no-change update) / documents), and the load average: on a shared machine
CPU seconds are the figure to compare.

    .venv/bin/python bench/export_update.py [--rate 1000] [--days 37] [--week 7]
        [--archive DATA] [--workdir DIR] [--no-git] [--jobs N] [--json FILE|-]

The working copy is made of hard links (the archive's files are replaced by rename, never
written in place, so the source stays as it is).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from export import generate, timed

from quietedit.export.schema import TABLES
from quietedit.export.state import NAMES

SERIES = ("revisions", "events", "derived")


def rewind(data: Path, stash: Path, week: int) -> dict[str, int]:
    """Move the last ``week`` days of ``data`` to ``stash`` (same relative paths)."""
    partitions = sorted(p for p in (data / "documents").glob("*/*/*") if p.is_dir())
    newest = date.fromisoformat("-".join(partitions[-1].relative_to(data / "documents").parts))
    cut = newest - timedelta(days=week - 1)
    cut_text = cut.isoformat()
    moved = {"documents": 0, "files": 0}
    for partition in partitions:
        day = date.fromisoformat("-".join(partition.relative_to(data / "documents").parts))
        if day >= cut:
            moved["documents"] += sum(1 for _ in partition.glob("*/*/document.json"))
            _move(data, stash, partition)
            continue
        for home in partition.glob("*/*"):  # bucket/document
            for series in SERIES:
                for path in sorted((home / series).glob("*.json")):
                    record = json.loads(path.read_bytes())
                    when = record.get("observed_at") or record.get("derived_at") or ""
                    if isinstance(when, str) and when[:10] >= cut_text:
                        _move(data, stash, path)
                        moved["files"] += 1
    return moved


def _move(data: Path, stash: Path, path: Path) -> None:
    target = stash / path.relative_to(data)
    target.parent.mkdir(parents=True, exist_ok=True)
    path.rename(target)


def restore(data: Path, stash: Path) -> None:
    for path in sorted(stash.rglob("*")):
        if path.is_file():
            target = data / path.relative_to(stash)
            target.parent.mkdir(parents=True, exist_ok=True)
            path.rename(target)


def git(root: Path, *args: str) -> None:
    subprocess.run(
        [
            "git",
            "-c",
            "user.name=bench",
            "-c",
            "user.email=bench@example.org",
            "-c",
            "gc.auto=0",
            *args,
        ],
        cwd=root,
        check=True,
        capture_output=True,
    )


def rows_digest(db: Path) -> dict[str, str]:
    """A digest of each table's rows in key order (the update's own tables included)."""
    found = {}
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        for name in [t.name for t in TABLES] + list(NAMES):
            digest = hashlib.sha256()
            columns = [row[1] for row in conn.execute(f'pragma table_info("{name}")')]
            order = ", ".join(f'"{c}"' for c in columns)
            for row in conn.execute(f'select * from "{name}" order by {order}'):  # noqa: S608
                digest.update(repr(row).encode())
            found[name] = digest.hexdigest()
    return found


def run(args: argparse.Namespace) -> dict[str, Any]:
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="export-update-"))
    workdir.mkdir(parents=True, exist_ok=True)
    result: dict[str, Any] = {"git": not args.no_git, "week": args.week}
    source = args.archive
    if source is None:
        source = workdir / "generated" / "data"
        if not source.is_dir():
            result["archive"] = generate(source, args)
    data, stash = workdir / "data", workdir / "stash"
    for folder in (data, stash):
        shutil.rmtree(folder, ignore_errors=True)
    subprocess.run(["cp", "-al", str(source), str(data)], check=True)
    result["moved"] = rewind(data, stash, args.week)
    if not args.no_git:
        git(data, "init", "-q")
        git(data, "add", "-A")
        git(data, "commit", "-q", "-m", "last week")
    quietedit = str(Path(sys.executable).with_name("quietedit"))
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []

    def export(out: Path, *extra: str) -> dict[str, Any]:
        return timed(
            [quietedit, "export", "sqlite", str(out), "--data", str(data), *jobs, *extra],
            cwd=workdir,
        )

    last = workdir / "last.db"
    result["full_last_week"] = export(last)
    restore(data, stash)
    if not args.no_git:
        git(data, "add", "-A")
        git(data, "commit", "-q", "-m", "this week")
    weekly = workdir / "weekly.db"
    shutil.copyfile(last, weekly)
    result["update"] = export(weekly, "--update")
    result["no_change_update"] = export(weekly, "--update")
    full = workdir / "full.db"
    result["full_this_week"] = export(full)
    result["same_rows"] = rows_digest(weekly) == rows_digest(full)
    result["bytes"] = {"weekly": weekly.stat().st_size, "full": full.stat().st_size}
    result["load_average"] = [round(x, 2) for x in os.getloadavg()]
    return result


def read_again(stdout: str) -> int:
    """The documents an update says it read again."""
    marker = "updated: "
    text = stdout[stdout.index(marker) + len(marker) :]
    return int(text.split(" ", 1)[0])


def table(result: dict[str, Any]) -> list[str]:
    lines = [
        f"{'in a git repository' if result['git'] else 'outside git'}; the last "
        f"{result['week']} days moved aside: {result['moved']['documents']:,} new documents, "
        f"{result['moved']['files']:,} revision/event/derived files of older ones"
    ]
    for name in ("full_last_week", "update", "no_change_update", "full_this_week"):
        run = result[name]
        lines.append(
            f"{name}: {run['seconds']:,.1f} s wall, {run['cpu_seconds']:,.1f} s CPU, "
            f"peak {run['max_rss_mb']:,} MB"
        )
        lines.append(f"  {run['stdout'].splitlines()[0] if run['stdout'] else ''}"[:400])
    docs = read_again(result["update"]["stdout"])
    fixed = result["no_change_update"]["cpu_seconds"]
    each = (result["update"]["cpu_seconds"] - fixed) / docs if docs else 0.0
    lines.append(
        f"documents read again: {docs:,}; CPU per document read again: {each * 1000:.1f} ms "
        f"((update - no-change update) / documents)"
    )
    lines.append(f"the update holds the same rows as the full export: {result['same_rows']}")
    lines.append(
        f"sizes: updated {result['bytes']['weekly'] / 2**20:,.0f} MiB, full "
        f"{result['bytes']['full'] / 2**20:,.0f} MiB"
    )
    lines.append(f"load average at the end: {result['load_average']}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=int, default=1000, help="articles a day")
    parser.add_argument("--days", type=int, default=37)
    parser.add_argument("--week", type=int, default=7, help="days moved aside, then back")
    parser.add_argument("--archive", type=Path, help="an archive made before (left as it is)")
    parser.add_argument("--workdir", type=Path, help="default: a new temporary folder")
    parser.add_argument("--no-git", action="store_true", help="no git repository")
    parser.add_argument("--jobs", type=int, default=0, help="export --jobs (0: its default)")
    parser.add_argument("--json", help="also write the figures as JSON to FILE (- for stdout)")
    parser.add_argument("--port", type=int, default=28491)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("-v", "--verbose", action="store_true", help="progress on stderr")
    args = parser.parse_args()
    result = run(args)
    if args.json == "-":
        print(json.dumps(result, indent=2, sort_keys=True))
        return
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
    print("\n".join(table(result)))


if __name__ == "__main__":
    main()
