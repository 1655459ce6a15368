"""How the URL index's packed size grows with the archive's age.

Replays only the index's side of a simulated archive: RATE new documents a day (ids from
realistic canonical URLs of 30 news sites), each entered through the real index code
(:class:`~quietedit.archive.index.DocumentIndex`), committed day by day into a real git
repository that holds nothing but ``index/``. At each checkpoint day the repository is
packed as a server holds it (``git repack -adf``: every object, deltas searched afresh,
git's default window and depth) and the bench prints the packed bytes, the bytes a day's
commit adds (a week's growth over 7), and what a sparse clone fetches to look up the
documents of one hour (every index file in the shard folders those lookups bring: cone
mode brings a folder whole).

    python bench/index_growth.py --workdir /tmp/ix [--days 730] [--rate 1000]

Writes are atomic but not flushed to disk (this measures bytes, not the disk).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import subprocess
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from quietedit.archive import index as index_module
from quietedit.archive.files import load_json
from quietedit.archive.index import DocumentIndex
from quietedit.archive.layout import Layout, index_shard
from quietedit.article.identity import document_id

SITES = (
    "www.harbourgazette.co.uk", "northfieldcourier.com", "www.eastbrookherald.com",
    "valleychronicle.net", "www.coastlinepost.com", "riversiderecord.org",
    "www.highlandobserver.co.uk", "capitalledger.com", "www.lakesidetimes.com",
    "midlandexpress.co.uk", "www.southportdaily.com", "westgatejournal.com",
    "www.granitecitynews.com", "forestvalemercury.co.uk", "www.ironbridgesentinel.com",
    "bayviewtribune.com", "www.stonehavenpress.co.uk", "marshendbulletin.com",
    "www.kingsmoorecho.com", "oldcastleadvertiser.co.uk", "www.pinecreststandard.com",
    "redcliffgazette.com", "www.silvertondispatch.com", "thornburyclarion.co.uk",
    "www.uptonreporter.com", "willowmerestar.com", "www.ashfordregister.co.uk",
    "brackenridgevoice.com", "www.cobaltcoastreview.com", "dunmoreexaminer.co.uk",
)  # fmt: skip
SECTIONS = ("news", "politics", "business", "world", "sport", "culture", "science")
WORDS = (
    "council", "budget", "minister", "report", "water", "housing", "police", "school",
    "hospital", "river", "road", "court", "election", "storm", "fire", "rail", "strike",
    "plan", "vote", "mayor", "trial", "deal", "prices", "energy",
)  # fmt: skip
START = datetime(2026, 1, 1, tzinfo=UTC)
WEIGHTS = tuple(1 / (n + 1) ** 0.8 for n in range(len(SITES)))  # big outlets publish more


def day_urls(rng: random.Random, day: int, rate: int, first: int) -> list[str]:
    """The canonical URLs of the ``rate`` articles first seen on ``day``."""
    stamp = (START + timedelta(days=day)).strftime("%Y/%m/%d")
    urls = []
    for number in range(first, first + rate):
        site = rng.choices(SITES, weights=WEIGHTS)[0]
        slug = "-".join(rng.choice(WORDS) for _ in range(rng.randint(3, 7)))
        section = SECTIONS[number % len(SECTIONS)]
        urls.append(f"https://{site}/{section}/{stamp}/{slug}-{number}")
    return urls


def git(repo: Path, *args: str) -> str:
    """Run git on the bench's repository (its work tree set apart: ``--tree``)."""
    done = subprocess.run(
        ["git", "-c", "pack.threads=1", "-c", "gc.auto=0", *args],
        cwd=repo,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


def packed_bytes(repo: Path) -> int:
    """The repository's packed size after a server-style full repack."""
    git(repo, "repack", "-adfq")
    return sum(
        path.stat().st_size
        for path in Path(git(repo, "rev-parse", "--git-dir").strip(), "objects", "pack").glob(
            "*.pack"
        )
    )


def lookup_cost(root: Path, documents: list[str]) -> tuple[int, int, int]:
    """Folders, files and bytes a cone-mode sparse checkout brings to look ``documents``
    up: the index folders the index asks for, whole."""
    layout = Layout(root)
    folders = {layout.index_folder(index_shard(doc)) for doc in documents}
    files = [path for folder in folders if folder.is_dir() for path in folder.rglob("*.json")]
    return len(folders), len(files), sum(path.stat().st_size for path in files)


def write_shard(
    layout: Layout,
    shard: str,
    entries: list[tuple[str, str]],
    replace: Callable[[Path, bytes], None],
) -> None:
    """The files of ``shard`` as the index leaves them after entering ``entries`` one by
    one (sealed files of a chunk each and the open file, or one file before sealing)."""
    chunk = getattr(index_module, "INDEX_CHUNK_ENTRIES", None)
    if chunk is None:
        replace(layout.index_file(shard), index_module.index_record(shard, dict(entries)))
        return
    sealed = (len(entries) - 1) // chunk
    for number in range(1, sealed + 1):
        part = dict(entries[(number - 1) * chunk : number * chunk])
        replace(layout.sealed_index_file(shard, number), index_module.index_record(shard, part))
    rest = dict(entries[sealed * chunk :])
    replace(layout.index_file(shard), index_module.index_record(shard, rest))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", type=Path, required=True)
    parser.add_argument("--days", type=int, default=730)
    parser.add_argument("--rate", type=int, default=1000)
    parser.add_argument("--checkpoints", default="7,90,180,365,730")
    parser.add_argument(
        "--tree",
        type=Path,
        help="the work tree's folder (default: beside the repository); a RAM disk spares "
        "the disk a million small writes, and holds ~40 MB at day 730",
    )
    parser.add_argument(
        "--skip-to",
        type=int,
        default=0,
        help="write the index of the days before this one in one commit, then commit day "
        "by day: a day's growth at that age without replaying the history (the packed "
        "totals then lack the history's versions)",
    )
    parser.add_argument("--lookups", type=int, default=60, help="documents looked up an hour")
    args = parser.parse_args()
    checkpoints = sorted(int(day) for day in args.checkpoints.split(",") if int(day) <= args.days)
    repo = args.workdir / "index-growth"
    tree = args.tree or repo / "tree"
    for folder in (repo, tree):
        shutil.rmtree(folder, ignore_errors=True)
    root = tree / "data"
    (root / ".tmp").mkdir(parents=True)
    repo.mkdir(parents=True, exist_ok=True)
    git(repo, "init", "-q", "--separate-git-dir", str(repo / "git"), str(tree))
    repo = tree  # git runs from the work tree, its objects on disk
    git(repo, "config", "user.name", "bench")
    git(repo, "config", "user.email", "bench@example.invalid")
    (repo / ".gitignore").write_text("data/.tmp/\n")
    layout = Layout(root)

    def replace(path: Path, data: bytes) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = root / ".tmp" / f"{path.name}.{os.getpid()}"
        tmp.write_bytes(data)
        os.replace(tmp, path)

    index = DocumentIndex(
        layout, read=lambda p: load_json(p) if p.exists() else None, replace=replace
    )
    rng = random.Random(2026)
    every: list[str] = []
    sizes: dict[int, int] = {}
    wanted = {day for c in checkpoints for day in (c, c - 7) if day >= max(1, args.skip_to)}
    cpu = time.process_time()
    print(f"{'day':>5} {'documents':>10} {'packed MiB':>11} {'bytes/day':>10} "
          f"{'lookup folders/files/bytes':>27}")  # fmt: skip
    if args.skip_to > 1:  # the days before, in one commit: their files as written
        early: dict[str, dict[str, str]] = {}
        for day in range(1, args.skip_to):
            partition = (START + timedelta(days=day - 1)).strftime("%Y/%m/%d")
            for url in day_urls(rng, day, args.rate, len(every)):
                document = document_id(url)
                early.setdefault(index_shard(document), {})[document] = partition
                every.append(document)
        for shard, entries in early.items():
            write_shard(layout, shard, list(entries.items()), replace)
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", f"days 1 to {args.skip_to - 1}")
    for day in range(max(1, args.skip_to), args.days + 1):
        partition = (START + timedelta(days=day - 1)).strftime("%Y/%m/%d")
        record = {"discovered_at": f"{partition.replace('/', '-')}T08:00:00Z"}
        for url in day_urls(rng, day, args.rate, len(every)):
            document = document_id(url)
            index.place(document, dict(record), writer="")
            every.append(document)
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", f"day {day}")
        if day % 15 == 0:
            git(repo, "repack", "-dq")  # bounds the loose objects between checkpoints
        if day in wanted:
            sizes[day] = packed_bytes(repo)
        if day in checkpoints:
            if args.skip_to > 1 and day - 7 < args.skip_to:
                per_day = float("nan")  # no week of daily commits yet
            else:
                per_day = (sizes[day] - sizes.get(day - 7, 0)) / min(7, day)
            # one hour's lookups: a few of the newest documents and old ones reappearing
            probe = random.Random(day)
            looked = every[-args.lookups // 2 :] + probe.sample(every, args.lookups // 2)
            folders, files, size = lookup_cost(root, looked)
            print(
                f"{day:>5} {len(every):>10,} {sizes[day] / 2**20:>11.2f} {per_day:>10,.0f} "
                f"{folders:>9,} / {files:>6,} / {size:>8,}",
                flush=True,
            )
    if args.tree:
        shutil.rmtree(args.tree, ignore_errors=True)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(
        f"CPU s: this process {time.process_time() - cpu:.1f}, "
        f"git {children.ru_utime + children.ru_stime:.1f}"
    )


if __name__ == "__main__":
    main()
