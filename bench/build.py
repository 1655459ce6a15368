"""Speed, memory and size of ``quietedit build``: a full build, then hourly ones.

Generates a synthetic archive (DOCS documents, 1,000 a day; 27 % of them edited, with 2 to
REVISIONS revisions, the rest with one; realistic news text edited the way newsrooms edit
it: a changed figure, a rewritten headline, an added, removed or moved paragraph, a
correction note), written directly in the archive's file format and layout
(deterministic JSON, hash-chained, partitions and index; ``quietedit verify`` accepts it)
because going through the Archive API's fsyncs would take longer than the build. Then,
each in a fresh child process so peak memory is the build's own:

1. a full build (``--full``) of the archive, and the figure *site bytes per edited
   document*: every published file (pages, feeds, API, search index, listings, sitemaps;
   the build cache left out) over the documents with two revisions or more;
2. an incremental build with nothing changed;
3. ``--runs`` times (3 by default): one hour's edits at 1,000 articles a day (11 new
   revisions of recent documents and 42 new documents, through the Archive API) and an
   incremental build: files written and seconds should not grow with the archive;
4. with ``--cache-only``: the site deleted but its build cache, one more hour, and a build.

``--sparse-days N`` hides the partitions more than N days older than the newest during the
hourly builds, as the hourly job's sparse checkout of the partitions still observed does.
``--per-day N`` writes N documents a day (and an hour's edits at that rate) instead of
1,000: ``--per-day 100 --docs 36500`` is the year of ``bench/year.py``, without its ingest.
``--clone`` builds each hour from a fresh sparse ``git clone`` of the archive (the
partitions of the last ``--sparse-days`` days, 28 by default), as the hourly job does:
every file checked out gets a new modification time.

Before each hourly build the site is saved and restored as ``update.yml`` does with
``actions/cache`` (``siterestore.carry``: GNU tar in the POSIX format with zstd, extracted
anew, so every file and folder of the site is new, with the times tar kept); what that
costs is printed apart and not counted in the build. ``--keep-site`` builds into the same
folder instead, as a local or self-hosted build does.

Prints seconds (wall and CPU, the render workers and Pagefind included), files written,
pages per second, peak RSS and the load average for each: on a shared machine the wall
time stretches with the load while the CPU time stays put.

    python bench/build.py                                  # 1,000 documents, a quick check
    python bench/build.py --docs 20000                     # twenty days at 1,000 a day
    python bench/build.py --no-search                      # without the Pagefind index
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from build_archive import EDITED_SHARE, append_hour, generate
from siterestore import carry

from quietedit.publish.paths import CACHE_DIR

SITE_GROUPS = (
    ("articles/", "article and diff pages"),
    ("api/", "JSON API"),
    ("search/", "search index"),
    ("sitemap", "sitemaps"),
    ("archive/", "monthly archive pages"),
)


def site_bytes(out: Path) -> dict[str, int]:
    """Bytes of the published site (the build cache left out), by part: the groups of
    :data:`SITE_GROUPS`, ``feeds`` (``*.xml``/``*.rss`` elsewhere), ``listings and other
    pages`` (the rest) and ``total``."""
    sizes: dict[str, int] = {}
    for current, folders, names in os.walk(out):
        folders[:] = [f for f in folders if not f.startswith(".")]
        for name in names:
            path = os.path.join(current, name)
            relative = os.path.relpath(path, out).replace(os.sep, "/")
            group = next((g for prefix, g in SITE_GROUPS if relative.startswith(prefix)), None)
            if name == "share.png":  # an edit's share image (settings.site.share_days)
                group = "share images"
                sizes["share image count"] = sizes.get("share image count", 0) + 1
            if group is None:
                feed = relative.endswith((".xml", ".rss"))
                group = "feeds" if feed else "listings and other pages"
            size = os.path.getsize(path)
            sizes[group] = sizes.get(group, 0) + size
            sizes["total"] = sizes.get("total", 0) + size
    return sizes


def show_size(out: Path, *, edited: int) -> None:
    """Print the figure "site bytes per edited document" (with pages), and its parts."""
    sizes = site_bytes(out)
    # the folded months' archive pages aside, as their documents are (``edited`` counts
    # the documents with pages)
    total = sizes.pop("total", 0) - sizes.pop("monthly archive pages", 0)
    images = sizes.pop("share image count", 0)
    parts = ", ".join(
        f"{name} {size / max(edited, 1) / 1000:.1f}" for name, size in sorted(sizes.items())
    )
    print(
        f"site: {total / 1e6:.1f} MB; site bytes per edited document: "
        f"{total / max(edited, 1) / 1000:.1f} KB ({edited} edited documents; KB each: {parts})"
    )
    if images:
        print(
            f"share images: {images}, {sizes['share images'] / images / 1000:.1f} KB each "
            f"({sizes['share images'] / 1e6:.1f} MB)"
        )


def hide_old_partitions(data: Path, side: Path, *, days: int | None) -> int:
    """Move the partitions more than ``days`` older than the newest out of ``data`` (to
    ``side``), as the hourly job's sparse checkout leaves them out; return how many."""
    if days is None:
        return 0
    found = sorted(data.glob("documents/*/*/*"))
    newest = date.fromisoformat("-".join(found[-1].parts[-3:]))
    moved = 0
    for folder in found:
        day = date.fromisoformat("-".join(folder.parts[-3:]))
        if (newest - day).days > days:
            target = side / folder.relative_to(data)
            target.parent.mkdir(parents=True, exist_ok=True)
            folder.rename(target)
            moved += 1
    return moved


def restore_partitions(data: Path, side: Path) -> None:
    """Put back what :func:`hide_old_partitions` moved."""
    for folder in sorted(side.glob("documents/*/*/*")):
        target = data / folder.relative_to(side)
        target.parent.mkdir(parents=True, exist_ok=True)
        folder.rename(target)
    shutil.rmtree(side, ignore_errors=True)


GIT = ("git", "-c", "user.name=bench", "-c", "user.email=bench@example.org")


def commit_all(repo: Path, message: str) -> None:
    """Commit everything under ``repo/data`` (a repository made on first use)."""
    if not (repo / ".git").is_dir():
        subprocess.run([*GIT, "init", "-q", str(repo)], check=True)
        subprocess.run([*GIT, "config", "uploadpack.allowFilter", "true"], cwd=repo, check=True)
    subprocess.run([*GIT, "add", "-A", "data"], cwd=repo, check=True)
    subprocess.run([*GIT, "commit", "-q", "-m", message], cwd=repo, check=True)


def fresh_clone(origin: Path, target: Path, *, days: int) -> Path:
    """The hourly job's clone of ``origin`` at ``target``: the newest commit, no blobs but
    those checked out, the folders every run reads and the partitions of the last ``days``
    days (every file with a new modification time). Returns its archive folder."""
    shutil.rmtree(target, ignore_errors=True)
    clone = ["git", "clone", "-q", "--filter=blob:none", "--depth=1", "--sparse"]
    subprocess.run([*clone, origin.as_uri(), str(target)], check=True)
    found = sorted((origin / "data").glob("documents/*/*/*"))
    newest = date.fromisoformat("-".join(found[-1].parts[-3:]))
    recent = [
        str(folder.relative_to(origin))
        for folder in found
        if (newest - date.fromisoformat("-".join(folder.parts[-3:]))).days <= days
    ]
    subprocess.run(
        ["git", "sparse-checkout", "set", "--cone", "--sparse-index", "--stdin"],
        cwd=target,
        input="\n".join(["data/feeds", "data/state", "data/index", *recent]),
        text=True,
        check=True,
    )
    return target / "data"


def edited_documents(data: Path, *, folded: frozenset[str] = frozenset()) -> int:
    """Documents with two revisions or more (read from file names: no record parsed),
    those first seen in a ``folded`` month (``YYYY/MM``) left out."""
    return sum(
        len(os.listdir(folder)) > 1
        for folder in data.glob("documents/*/*/*/*/*/revisions")  # Y/M/D/bucket/document
        if "/".join(folder.parts[-6:-4]) not in folded
    )


def folded_months(out: Path) -> frozenset[str]:
    """The months (``YYYY/MM``) a built site folded: each has its page ``archive/YYYY/MM/``."""
    return frozenset(
        f"{year.name}/{month.name}"
        for year in (out / "archive").glob("[0-9]*")
        for month in year.iterdir()
        if month.is_dir()
    )


def child(data: Path, out: Path, *, full: bool, search: bool, watch: tuple[str, ...] = ()) -> None:
    """Run one build in this process and print its figures as JSON."""
    from quietedit.publish import BuildOptions, build_site

    started = time.perf_counter()
    report = build_site(
        BuildOptions(
            data=data,
            out=out,
            full=full,
            search=search,
            base_url="https://bench.example/site/",
            watch=watch,
        )
    )
    seconds = time.perf_counter() - started
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)  # render workers, Pagefind
    pages = sum(p.endswith(".html") for p in report.written)
    print(
        json.dumps(
            {
                "seconds": seconds,
                "written": len(report.written),
                "html_written": pages,
                "files": report.files,
                "rendered": report.rendered,
                "documents": report.documents,
                "edits": report.edits,
                "failures": len(report.failures),
                # a child's peak is its own (its workers' and Pagefind's ru_maxrss is at
                # most this process's own peak when they were started, or their own)
                "max_rss_mb": max(own_peak_kib(), kids.ru_maxrss) / 1024,
                "cpu_seconds": own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime,
            }
        )
    )


def own_peak_kib() -> int:
    """This process's own peak resident memory in KiB: the kernel's high-water mark of
    its address space (``VmHWM``), which ``exec`` starts anew. ``ru_maxrss`` of
    ``RUSAGE_SELF`` is not that: Linux carries over into it the peak of the address space
    the process had before ``exec``, which for a child that ``subprocess`` started is the
    parent's (measured: an hourly build of 131 MB started by a bench process of 621 MB
    reported 634 MB). Falls back to ``ru_maxrss`` where ``/proc`` is absent."""
    try:
        status = Path("/proc/self/status").read_text(encoding="ascii")
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def run_child(
    data: Path,
    out: Path,
    *,
    full: bool,
    search: bool,
    watch: tuple[str, ...] = (),
    env: dict[str, str] | None = None,
) -> dict[str, float]:
    """One build in a child process (``env``: variables added to its environment); its
    figures."""
    args = [sys.executable, __file__, "--child", "--data", str(data), "--out", str(out)]
    args += ["--watch", ",".join(watch)] if watch else []
    args += ["--full"] if full else []
    args += [] if search else ["--no-search"]
    done = subprocess.run(
        args, capture_output=True, text=True, check=True, env={**os.environ, **(env or {})}
    )
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def show(label: str, figures: dict[str, float]) -> None:
    rate = figures["html_written"] / figures["seconds"] if figures["seconds"] else 0.0
    load = ", ".join(f"{n:.2f}" for n in os.getloadavg())
    print(
        f"{label}: {figures['seconds']:.2f} s wall, {figures['cpu_seconds']:.2f} s CPU, "
        f"{figures['written']:.0f} files written "
        f"({figures['html_written']:.0f} pages, {rate:,.0f} pages/s) of {figures['files']:.0f}; "
        f"{figures['rendered']:.0f} documents rendered; peak RSS {figures['max_rss_mb']:.0f} MB"
        + (f"; {figures['failures']:.0f} FAILURES" if figures["failures"] else "")
        + f" (load average {load}: a shared machine stretches wall time, not CPU time)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--docs", type=int, default=1000)
    parser.add_argument(
        "--revisions", type=int, default=4, help="most revisions of an edited document"
    )
    parser.add_argument(
        "--edited", type=float, default=EDITED_SHARE, help="share of documents edited"
    )
    parser.add_argument(
        "--sparse-days",
        type=int,
        help="for the hourly builds, hide the partitions more than this many days older than "
        "the newest (the hourly job's sparse checkout of the partitions still observed)",
    )
    parser.add_argument(
        "--cache-only",
        action="store_true",
        help="last, one more hour's build from the build cache alone (the site deleted)",
    )
    parser.add_argument("--per-day", type=int, default=1000, help="documents a day")
    parser.add_argument(
        "--clone",
        action="store_true",
        help="build each hour from a fresh sparse git clone of the archive, as the hourly job",
    )
    parser.add_argument(
        "--keep-site",
        action="store_true",
        help="build each hour into the same site folder, not one restored as actions/cache does",
    )
    parser.add_argument("--no-search", action="store_true")
    parser.add_argument(
        "--watch",
        default="",
        help="comma-separated watched terms (settings.watch), e.g. budget,Prosecutors",
    )
    parser.add_argument(
        "--runs", type=int, default=3, help="incremental builds after one new revision each"
    )
    parser.add_argument("--keep", type=Path, help="keep the archive and site in this folder")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--data", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--full", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    watch = tuple(t.strip() for t in args.watch.split(",") if t.strip())
    if args.child:
        child(args.data, args.out, full=args.full, search=not args.no_search, watch=watch)
        return
    work = args.keep or Path(tempfile.mkdtemp(prefix="quietedit-bench-"))
    data, out = (work / "origin" / "data" if args.clone else work / "data"), work / "site"
    try:
        if not data.exists():
            started = time.perf_counter()
            generate(
                data,
                docs=args.docs,
                revisions=args.revisions,
                edited=args.edited,
                per_day=args.per_day,
            )
            if args.clone:
                commit_all(data.parent, "the archive")
            print(
                f"generated {args.docs} documents ({args.edited:.0%} edited, up to "
                f"{args.revisions} revisions) "
                f"in {time.perf_counter() - started:.1f} s"
            )
        search = not args.no_search
        full = run_child(data, out, full=True, search=search, watch=watch)
        show("full build       ", full)
        show_size(out, edited=edited_documents(data, folded=folded_months(out)))
        show("no-change rebuild", run_child(data, out, full=False, search=search, watch=watch))
        if args.clone:
            for run in range(1, args.runs + 1):
                touched = append_hour(data, run=run, per_day=args.per_day)
                commit_all(data.parent, f"hour {run}")
                clone = fresh_clone(data.parent, work / "clone", days=args.sparse_days or 28)
                if not args.keep_site:
                    print(carry(out, work=work / "cache"))
                figures = run_child(clone, out, full=False, search=search, watch=watch)
                show(f"one hour's edits, fresh clone, run {run} ({touched} documents)", figures)
            return
        hidden = hide_old_partitions(data, work / "hidden", days=args.sparse_days)
        if hidden:
            print(f"sparse checkout: {hidden} partitions older than {args.sparse_days} days hidden")
        for run in range(1, args.runs + 1):
            touched = append_hour(data, run=run, per_day=args.per_day)
            if not args.keep_site:
                print(carry(out, work=work / "cache"))
            figures = run_child(data, out, full=False, search=search, watch=watch)
            show(f"one hour's edits, run {run} ({touched} documents)", figures)
        restore_partitions(data, work / "hidden")
        if args.cache_only:
            for item in out.iterdir():  # what a workflow restoring only the cache starts from
                if item.name != CACHE_DIR:
                    shutil.rmtree(item) if item.is_dir() else item.unlink()
            append_hour(data, run=args.runs + 1)
            show(
                "one hour's edits onto the cache alone",
                run_child(data, out, full=False, search=search, watch=watch),
            )
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
