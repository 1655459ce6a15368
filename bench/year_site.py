"""The site half of ``bench/year.py``: at each checkpoint, a full build of the year so far
and one hourly build starting from only what the workflow caches.

At a checkpoint day, before the hour that precedes the timed run (09:00 UTC), the year's
hourly runs save and commit what they left (:meth:`year_sim.Year.save`), and the whole
archive, as committed, is built with ``--full`` into ``site-day-N/``, in the generator's
work tree seen as a checkout of that commit (see :meth:`SiteBench.before`): size (by kind
of file), files, seconds, peak memory, and *site bytes per edited document* (every
published file: pages, feeds, JSON API, search index, listings, sitemaps; the build cache
left out; over the documents with two revisions or more; a folded month's documents and
its archive page aside, since they have no pages). That site is what the workflow's cache holds for
the next run. The hour 09:00 is then generated and committed with the checkpoint, and the
build's hourly run goes as in ``update.yml``, whose build runs in the clone its ingest
ran in: a clone of the origin by the workflow's own clone step (the newest commit without
trees, then the listings of the folders every run reads); added to its sparse checkout,
what ``quietedit sparse-paths --fetch-trees`` names and the folders the hour wrote (which
the ingest checked out: here the generator wrote them), their trees fetched first; the
previous site copied in as ``actions/cache`` restores it; an incremental build. (A clone
holding every folder listing, as ``--filter=blob:none`` makes one, would make each fetch
of a folder on demand list the whole archive's trees, a cost the workflow's build does
not have; one without the hour's folders would fetch them on demand, which the
workflow's ingest did.)
The hours after it are timed the same way (``--site-hours``, default 12: 10:00 to 21:00
UTC), each committed at its end as the workflow's run commits it and built from the site
the build before left, as the next run's cache holds it. One hour's work is a draw (at
1,000 a day, 6 to 20 edits found, say), so the figures of a single hour compare days
poorly. Printed: seconds (wall and CPU), files written, documents rendered (each the
mean over the hours of the median of ``--repeats`` builds, each in a clone of its own
from a copy of the same site), peak memory (the highest), and each hour's files and CPU
seconds.

Each build runs in a child process (``bench/build.py --child``), its peak memory its own
(``VmHWM``).
``--no-site`` leaves the site half out.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from build import edited_documents, folded_months, run_child
from stepcpu import mark_step, upload_cpu, upload_pack_timer
from year_hourly import Repository, clone_as_workflow, feeds_yaml, git
from year_sim import HOUR, RUN_HOUR, START

from quietedit.archive.gittrees import fetch_trees
from quietedit.archive.layout import CHECKS_NAME_PATTERN, document_path
from quietedit.article.identity import is_document_id

KINDS = (
    (r"articles/[^/]+/index\.html", "article pages"),
    (r"articles/[^/]+/diff/", "diff pages"),
    (r"articles/", "other article files"),
    (r"api/documents/", "API documents"),
    (r"api/", "API days and index"),
    (r"search/", "search index"),
    (r"sitemap", "sitemaps"),
    (r"archive/", "monthly archive pages"),
    (r"static/", "static files"),
    (r".*\.(xml|rss)$", "feeds"),
)
"""Kinds of file by path (the first pattern matching its start); the rest are listings
and other pages."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--no-site", action="store_true", help="leave out the site half (builds at checkpoints)"
    )
    parser.add_argument(
        "--no-search", action="store_true", help="build the site without the Pagefind index"
    )
    parser.add_argument(
        "--site-hours", type=int, default=12, metavar="N",
        help="hourly builds timed at each checkpoint, one after another from 10:00 UTC "
        "(each from the site the one before left; at most 14, to the day's end)",
    )  # fmt: skip


def kind_of(path: str) -> str:
    return next((kind for pattern, kind in KINDS if re.match(pattern, path)), "listings")


def site_sizes(out: Path) -> dict[str, list[int]]:
    """Files and bytes of the published site by kind (the build cache left out)."""
    sizes: dict[str, list[int]] = {}
    for path in out.rglob("*"):
        relative = path.relative_to(out).as_posix()
        if relative.startswith(".") or not path.is_file():
            continue
        entry = sizes.setdefault(kind_of(relative), [0, 0])
        entry[0] += 1
        entry[1] += path.stat().st_size
    return dict(sorted(sizes.items()))


class SiteBench:
    """The site half: :meth:`before` at the hour before the timed run, :meth:`hourly` after
    the checkpoint committed it."""

    def __init__(self, workdir: Path, args: argparse.Namespace) -> None:
        self.workdir = workdir
        self.enabled = not args.no_site
        self.search = not args.no_search
        self.port = args.port
        self.repeats = max(1, args.repeats)
        self.hours = min(max(1, args.site_hours), 24 - RUN_HOUR)
        self.site: Path | None = None
        self.built = ""  # the commit the last build read
        self.full: dict[str, Any] = {}
        self.timed: list[dict[str, Any]] = []  # the checkpoint's hourly builds so far

    def before(self, repo: Repository, hour: int) -> None:
        """A full build of the archive as the runs before ``hour`` left it and committed.

        The build runs in the generator's work tree with its git repository named in the
        environment (``Repository.env``), so it sees a checkout of the commit, as every
        build of the workflow does: it stamps each document with its folder's tree id and
        records the partitions' tree ids, and the hourly build after it lists only the
        buckets that moved. Outside git it would stamp file times and record no tree ids,
        and the hourly build after it would list every bucket of the archive (at day 90,
        24 of its 30 ``git ls-tree`` calls; its CPU went from 5.42 to 5.04 s without
        them)."""
        if not self.enabled:
            return
        data = repo.tree / "data"
        self.built = repo.head or ""
        self.timed = []
        self.site = self.workdir / f"site-{START + hour * HOUR:%Y%m%d}"
        shutil.rmtree(self.site, ignore_errors=True)
        figures = run_child(data, self.site, full=True, search=self.search, env=repo.env)
        sizes = site_sizes(self.site)
        # per edited document with pages: the folded months' documents and their archive
        # pages aside (with them, a folded site looks cheaper the more it folds)
        folded = folded_months(self.site)
        edited = edited_documents(data, folded=folded)
        total = sum(size for _, size in sizes.values())
        paged = total - sizes.get("monthly archive pages", [0, 0])[1]
        self.full = {
            "seconds": round(figures["seconds"], 1),
            "cpu_seconds": round(figures["cpu_seconds"], 1),
            "max_rss_mb": round(figures["max_rss_mb"]),
            "files": sum(count for count, _ in sizes.values()),
            "bytes": total,
            "documents": int(figures["documents"]),
            "folded_months": len(folded),
            "edited_documents": edited,
            "bytes_per_edited": round(paged / max(edited, 1)),
            "by_kind": sizes,
        }

    def times(self, hour_of_day: int) -> bool:
        """Whether an hourly build is timed at ``hour_of_day`` of a checkpoint day."""
        return self.site is not None and RUN_HOUR <= hour_of_day < RUN_HOUR + self.hours

    def hourly(self, repo: Repository, now: datetime) -> dict[str, Any]:
        """The hourly build as ``update.yml`` runs it, after one hour more, from the site
        the build before left (the full build's, for the checkpoint's first hour): returns
        the checkpoint's site figures so far (the full build's too)."""
        if not self.enabled or self.site is None:
            return {}
        head = git("rev-parse", "main", cwd=repo.origin).strip()
        last = self.repeats - 1
        runs = [self._hourly_once(repo, now, self.site, keep=n == last) for n in range(last + 1)]
        # each figure's median over the repeats (the machine may be shared)
        self.timed.append(
            {key: _median([run[key] for run in runs]) for key in runs[0]} | {"hour": f"{now:%H:%M}"}
        )
        self.site, self.built = self.workdir / f"site-{now:%Y%m%dT%H}", head
        if len(self.timed) == self.hours:
            shutil.rmtree(self.site)
            self.site = None
        return self.figures()

    def figures(self) -> dict[str, Any]:
        """The full build's figures, and the hourly builds': each figure's mean over the
        hours timed (one hour's work is a draw: 6 to 20 edits, say, at 1,000 a day),
        peak memory their highest, and every hour's own."""
        hours = self.timed
        means = {
            key: _round(statistics.fmean(hour[key] for hour in hours))
            for key in hours[0]
            if key not in ("hour", "max_rss_mb")
        }
        return {
            "full": self.full,
            "hourly": means
            | {
                "max_rss_mb": max(hour["max_rss_mb"] for hour in hours),
                "repeats": self.repeats,
                "hours": len(hours),
            },
            "hours": hours,
        }

    def _hourly_once(
        self, repo: Repository, now: datetime, site: Path, *, keep: bool
    ) -> dict[str, Any]:
        """One hourly build in a clone of its own, on a copy of ``site`` (``keep``: on
        ``site`` itself, moved in, and kept afterwards as the next hour's cache)."""
        clone = self.workdir / f"site-clone-{now:%Y%m%dT%H}"
        config = self.workdir / "site-feeds.yaml"
        feeds_yaml(config, port=self.port, articles=0)
        started = time.perf_counter()
        clone.mkdir()
        head = git("rev-parse", "main", cwd=repo.origin).strip()
        clone_as_workflow(clone, repo.origin, head)
        git("config", "index.sparse", "true", cwd=clone)
        quietedit = str(Path(sys.executable).with_name("quietedit"))
        paths = subprocess.run(
            [quietedit, "sparse-paths", "--fetch-trees", "--config", str(config),
             "--data", "data", "--now", now.strftime("%Y-%m-%dT%H:%M:%SZ")],
            cwd=clone, check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip
        # and what the hour's ingest checked out, in whose clone the workflow builds: the
        # folders it wrote (here the generator wrote them), fetched as the ingest fetched
        # them, not left to the build to fetch on demand
        written = written_folders(repo.origin, self.built, head)
        fetch_trees(clone, written)
        listed = [*paths.split(), *written]
        git("sparse-checkout", "add", "--stdin", cwd=clone, stdin="".join(f"{p}\n" for p in listed))
        checkout = time.perf_counter() - started
        # the origin's side of the build's fetches (the documents a sparse checkout left
        # out: GitHub's upload-pack in real use) timed apart, as the archive half's are
        upload = upload_pack_timer(self.workdir)
        if upload is not None:
            git("config", "remote.origin.uploadpack", str(upload[0]), cwd=clone)
        out = clone / "_site"
        if keep:  # what actions/cache restores
            site.rename(out)
        else:
            shutil.copytree(site, out, symlinks=True)
        figures = run_child(clone / "data", out, full=False, search=self.search)
        mark_step(upload, "build")
        origin = upload_cpu(upload[1]).get("build", 0.0) if upload is not None else 0.0
        if keep:
            out.rename(self.workdir / f"site-{now:%Y%m%dT%H}")
        shutil.rmtree(clone)
        return {
            "checkout_seconds": round(checkout, 1),
            "seconds": round(figures["seconds"], 2),
            "cpu_seconds": round(figures["cpu_seconds"], 2),
            # counted in cpu_seconds: over file:// the origin's git is the build's child
            "origin_cpu_seconds": round(origin, 2),
            "written": int(figures["written"]),
            "rendered": int(figures["rendered"]),
            "max_rss_mb": round(figures["max_rss_mb"]),
            "failures": int(figures["failures"]),
        }


def written_folders(origin: Path, before: str, after: str) -> list[str]:
    """The folders of the files that changed in ``origin`` from ``before`` to ``after``
    below ``data/``: a document's own folder for its files, the file's folder outside
    ``data/documents`` (an index shard's). A partition whose checks file changed had a
    document of it checked out by the run that checked it, changed or not, retired since
    or not (``quietedit sparse-paths`` after the run leaves out those it retired): the
    first document whose entry changed stands for those, so the partition's listing is in
    the clone as in the workflow's, and the build does not make git fetch the partition's
    every folder listing to read it. Not each of them: the generator checks every document
    due in an hour, more than a run's ``max_articles`` would. A partition's own files come
    in cone mode with any document folder below it."""
    changed = git("diff", "--name-only", before, after, "--", "data", cwd=origin).split()
    folders = set()
    for path in changed:
        parts = path.split("/")
        document = next((n for n, part in enumerate(parts) if is_document_id(part)), None)
        if document is not None:
            folders.add("/".join(parts[: document + 1]))
        elif path.startswith("data/documents/") and CHECKS_NAME_PATTERN.fullmatch(parts[-1]):
            partition = "/".join(parts[2:-1])
            checked = checked_documents(origin, before, after, path)
            if checked:
                folders.add(f"data/{document_path(checked[0], partition)}")
        elif not path.startswith("data/documents/"):
            folders.add("/".join(parts[:-1]))
    return sorted(folders)


def checked_documents(origin: Path, before: str, after: str, path: str) -> list[str]:
    """The documents whose entries in the checks file at ``path`` differ from ``before``
    to ``after`` (added, changed or removed)."""
    old, new = _entries(origin, before, path), _entries(origin, after, path)
    return sorted(doc for doc in old.keys() | new.keys() if old.get(doc) != new.get(doc))


def _entries(origin: Path, revision: str, path: str) -> dict[str, Any]:
    try:
        text = git("show", f"{revision}:{path}", cwd=origin)
    except subprocess.CalledProcessError:  # not in that commit
        return {}
    documents = json.loads(text).get("documents", {})
    return {doc: entry for doc, entry in documents.items() if is_document_id(doc)}


def _median(values: list[float]) -> float:
    return _round(statistics.median(values))


def _round(value: float) -> float:
    value = round(value, 2)
    return int(value) if value == int(value) else value


def table(result: dict[str, Any]) -> Iterator[str]:
    """The site half's lines of the report."""
    points = [p for p in result["checkpoints"] if p.get("site")]
    if not points:
        return
    rows: list[tuple[str, ...]] = [("site: day", *(str(p["day"]) for p in points))]

    def row(label: str, part: str, key: str, fmt: str = "{}", scale: float = 1.0) -> None:
        values = [p["site"][part].get(key) for p in points]  # a resumed year's older figures
        rows.append(
            (label, *("-" if v is None else fmt.format(v / scale if scale != 1.0 else v)
                      for v in values))
        )  # fmt: skip

    row("documents", "full", "documents")
    row("months folded", "full", "folded_months")
    row("edited documents with pages (2+ revisions)", "full", "edited_documents")
    row("full build: site (MB)", "full", "bytes", "{:.1f}", 1e6)
    row("full build: files", "full", "files")
    row("full build: seconds (wall)", "full", "seconds")
    row("full build: CPU seconds", "full", "cpu_seconds")
    row("full build: peak RSS (MB)", "full", "max_rss_mb")
    label = "site bytes per edited document (KB, folded months aside)"
    row(label, "full", "bytes_per_edited", "{:.2f}", 1000)
    kinds = sorted({k for p in points for k in p["site"]["full"]["by_kind"]})
    for kind in kinds:
        values = []
        for p in points:
            _, size = p["site"]["full"]["by_kind"].get(kind, [0, 0])
            values.append(f"{size / max(p['site']['full']['edited_documents'], 1) / 1000:.2f}")
        rows.append((f"  of it {kind} (KB per edited)", *values))
    row("hourly builds timed (from 10:00 UTC)", "hourly", "hours")
    row("hourly build: clone and sparse checkout (s)", "hourly", "checkout_seconds")
    row("hourly build: seconds (wall)", "hourly", "seconds")
    row("hourly build: CPU seconds", "hourly", "cpu_seconds")
    row("  of it the origin's upload-pack (GitHub's)", "hourly", "origin_cpu_seconds")
    row("hourly build: files written", "hourly", "written")
    row("hourly build: documents rendered", "hourly", "rendered")
    row("hourly build: peak RSS (MB)", "hourly", "max_rss_mb")
    row("hourly build: failures", "hourly", "failures")
    width = max(len(r[0]) for r in rows)
    cols = [max(len(r[i]) for r in rows) for i in range(1, len(rows[0]))]
    for r in rows:
        yield "  ".join(
            [r[0].ljust(width), *(v.rjust(c) for v, c in zip(r[1:], cols, strict=True))]
        )
    for p in points:
        hours = p["site"].get("hours", [])
        if len(hours) > 1:
            yield (
                f"site: day {p['day']}, each hour's files written / CPU s: "
                + ", ".join(f"{h['written']}/{h['cpu_seconds']:.2f}" for h in hours)
            )
    if len(points) > 1:
        a, b = points[0]["site"]["hourly"], points[-1]["site"]["hourly"]
        yield (
            f"site: hourly build day {points[-1]['day']} / day {points[0]['day']} "
            f"(target <= 1.2x): seconds {b['seconds'] / max(a['seconds'], 1e-9):.2f}x, "
            f"CPU {b['cpu_seconds'] / max(a['cpu_seconds'], 1e-9):.2f}x, "
            f"files written {b['written'] / max(a['written'], 1):.2f}x"
        )
        if "origin_cpu_seconds" in a and "origin_cpu_seconds" in b:
            own_a = a["cpu_seconds"] - a["origin_cpu_seconds"]
            own_b = b["cpu_seconds"] - b["origin_cpu_seconds"]
            yield (
                f"site: hourly build CPU without the origin's upload-pack: {own_a:.2f} -> "
                f"{own_b:.2f} s ({own_b / max(own_a, 1e-9):.2f}x)"
            )
