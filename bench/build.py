"""Speed and memory of ``quietedit build``: a full build, then an incremental one.

Generates a synthetic archive (DOCS documents with REVISIONS revisions each, realistic
news text edited the way newsrooms edit it: a changed figure, a rewritten headline, an
added, removed or moved paragraph, a correction note), written directly in the archive's
file format and layout (deterministic JSON, hash-chained, partitions and index;
``quietedit verify`` accepts it) because
going through the Archive API's fsyncs would take longer than the build. Then, each in a
fresh child process so peak memory is the build's own:

1. a full build (``--full``) of the archive,
2. an incremental build with nothing changed,
3. ``--runs`` times (3 by default): one new revision appended to one document, and an
   incremental build (the target: under 2 s at 10,000 documents x 4 revisions).

Prints seconds (wall and CPU, the render workers and Pagefind included), files written,
pages per second, peak RSS and the load average for each: on a shared machine the wall
time stretches with the load while the CPU time stays put.

    python bench/build.py                                  # 1,000 documents, a quick check
    python bench/build.py --docs 10000 --revisions 4       # the target: 40,000 revisions
    python bench/build.py --no-search                      # without the Pagefind index
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from quietedit.archive.layout import Layout, index_shard, partition_of
from quietedit.archive.records import dump_json, new_revision, revision_to_record
from quietedit.article.identity import document_id
from quietedit.errors import UnchangedContentError
from quietedit.model import JSON, Article, Block, Publisher
from quietedit.revisions import SCHEMA_VERSION, Observation, Revision

SOURCES = ("courier", "daily", "herald", "tribune", "wire")
SUBJECTS = (
    "The city council",
    "The health minister",
    "Police",
    "The central bank",
    "Union leaders",
    "The regional government",
    "Prosecutors",
    "The football club",
    "Researchers",
    "Residents",
)
VERBS = (
    "approved",
    "rejected",
    "announced",
    "criticised",
    "postponed",
    "defended",
    "unveiled",
    "questioned",
    "confirmed",
    "denied",
)
OBJECTS = (
    "a budget of {n} million euros",
    "plans for {n} new homes",
    "a {n} per cent rise in fares",
    "the closure of {n} schools",
    "a report on {n} complaints",
    "{n} new officers",
    "a deal worth {n} million",
    "cuts affecting {n} jobs",
)
TAILS = (
    "on Monday",
    "after a late-night debate",
    "despite protests outside",
    "in a statement",
    "following months of talks",
    "according to officials",
    "at a press conference",
)
T0 = datetime(2026, 9, 1, 6, 0, tzinfo=UTC)


def sentence(rng: random.Random) -> str:
    obj = rng.choice(OBJECTS).format(n=rng.randint(2, 950))
    return f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {obj} {rng.choice(TAILS)}."


def paragraph(rng: random.Random) -> str:
    return " ".join(sentence(rng) for _ in range(rng.randint(2, 4)))


def edit(
    rng: random.Random, title: str, blocks: list[str], pub: Publisher
) -> tuple[str, list[str], Publisher]:
    """One newsroom-like edit of the article."""
    blocks = list(blocks)
    roll = rng.random()
    if roll < 0.35:  # a figure corrected
        i = rng.randrange(len(blocks))
        blocks[i] = blocks[i].replace(str(rng.randint(2, 9)), str(rng.randint(10, 99)), 1) + " "
        blocks[i] = blocks[i].strip() + ("" if blocks[i].endswith(".") else ".")
        if blocks[i] == blocks[i - 1]:
            blocks[i] += " Officials later revised the figure."
    elif roll < 0.55:  # a paragraph added
        blocks.insert(rng.randint(1, len(blocks)), paragraph(rng))
    elif roll < 0.65 and len(blocks) > 4:  # a paragraph removed
        blocks.pop(rng.randrange(1, len(blocks)))
    elif roll < 0.8 and len(blocks) > 3:  # a paragraph moved
        blocks.insert(rng.randrange(len(blocks) - 1), blocks.pop(rng.randrange(1, len(blocks))))
        blocks.append(sentence(rng))
    elif roll < 0.9:  # the headline rewritten
        title = sentence(rng).rstrip(".")
    else:  # a correction, admitted
        blocks.append("Correction: an earlier version of this article gave a wrong figure.")
        pub = Publisher(date_published=pub.date_published, date_modified="2026-09-02T10:00:00Z")
    return title, blocks, pub


def generate(root: Path, *, docs: int, revisions: int, seed: int = 8) -> None:
    """Write the synthetic archive at ``root`` in the archive's own file format."""
    rng = random.Random(seed)
    layout = Layout(root)
    index: dict[str, dict[str, str]] = {}
    for n in range(docs):
        source = SOURCES[n % len(SOURCES)]
        url = f"https://www.{source}.example/news/2026/{n:06d}-story"
        doc = document_id(url)
        start = T0 + timedelta(minutes=7 * n)
        index.setdefault(index_shard(doc), {})[doc] = partition_of(start)
        folder = layout.document_dir(doc, partition_of(start))
        (folder / "revisions").mkdir(parents=True)
        record: dict[str, JSON] = {
            "feeds": [source],
            "discovered_at": start.isoformat().replace("+00:00", "Z"),
            "id": doc,
            "schema": SCHEMA_VERSION,
            "type": "document",
            "url": url,
        }
        (folder / "document.json").write_bytes(dump_json(record))
        title = sentence(rng).rstrip(".")
        blocks = [paragraph(rng) for _ in range(rng.randint(6, 12))]
        pub = Publisher(
            date_published=(start - timedelta(minutes=30)).isoformat(), authors=("Staff",)
        )
        previous: Revision | None = None
        for r in range(revisions):
            if r:
                title, blocks, pub = edit(rng, title, blocks, pub)
            observation = Observation(
                url=url,
                observed_at=start + timedelta(hours=3 * r + rng.random()),
                article=Article(title, tuple(Block(b) for b in blocks), pub),
                extractor="bench/1",
            )
            try:
                previous = new_revision(doc, observation, previous=previous)
            except UnchangedContentError:  # an edit that changed nothing: skip it
                continue
            path = folder / "revisions" / f"{previous.number:06d}.json"
            path.write_bytes(dump_json(revision_to_record(previous)))
    layout.index_dir.mkdir(parents=True, exist_ok=True)
    for shard, entries in index.items():
        shard_record: dict[str, JSON] = {
            "documents": dict(sorted(entries.items())),
            "schema": SCHEMA_VERSION,
            "shard": shard,
            "type": "index",
        }
        layout.index_file(shard).write_bytes(dump_json(shard_record))


def append_one(root: Path) -> str:
    """Append one revision (an added paragraph) to the most recently seen document, an
    hour after the archive's newest observation (new edits are the newest); return its id."""
    from quietedit.archive.store import Archive  # the real API for the one new revision

    archive = Archive(root)
    latest = [archive.latest_revision(d) for d in archive.document_ids()]
    last = max((r for r in latest if r is not None), key=lambda r: r.observation.observed_at)
    doc = last.document
    article = Article(
        last.article.title,
        (*last.article.blocks, Block("A late update came in.")),
        last.article.publisher,
    )
    archive.append_revision(
        doc,
        Observation(
            url=last.observation.url,
            observed_at=last.observation.observed_at + timedelta(hours=1),
            article=article,
            extractor="bench/1",
        ),
    )
    return doc


def child(data: Path, out: Path, *, full: bool, search: bool) -> None:
    """Run one build in this process and print its figures as JSON."""
    from quietedit.publish import BuildOptions, build_site

    started = time.perf_counter()
    report = build_site(
        BuildOptions(
            data=data, out=out, full=full, search=search, base_url="https://bench.example/site/"
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
                "max_rss_mb": max(own.ru_maxrss, kids.ru_maxrss) / 1024,
                "cpu_seconds": own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime,
            }
        )
    )


def run_child(data: Path, out: Path, *, full: bool, search: bool) -> dict[str, float]:
    args = [sys.executable, __file__, "--child", "--data", str(data), "--out", str(out)]
    args += ["--full"] if full else []
    args += [] if search else ["--no-search"]
    done = subprocess.run(args, capture_output=True, text=True, check=True)
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def show(label: str, figures: dict[str, float]) -> None:
    rate = figures["html_written"] / figures["seconds"] if figures["seconds"] else 0.0
    load = ", ".join(f"{n:.2f}" for n in os.getloadavg())
    print(
        f"{label}: {figures['seconds']:.2f} s wall, {figures['cpu_seconds']:.1f} s CPU, "
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
    parser.add_argument("--revisions", type=int, default=4, help="revisions per document")
    parser.add_argument("--no-search", action="store_true")
    parser.add_argument(
        "--runs", type=int, default=3, help="incremental builds after one new revision each"
    )
    parser.add_argument("--keep", type=Path, help="keep the archive and site in this folder")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--data", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--full", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.data, args.out, full=args.full, search=not args.no_search)
        return
    work = args.keep or Path(tempfile.mkdtemp(prefix="quietedit-bench-"))
    data, out = work / "data", work / "site"
    try:
        if not data.exists():
            started = time.perf_counter()
            generate(data, docs=args.docs, revisions=args.revisions)
            print(
                f"generated {args.docs} documents x {args.revisions} revisions "
                f"in {time.perf_counter() - started:.1f} s"
            )
        search = not args.no_search
        show("full build       ", run_child(data, out, full=True, search=search))
        show("no-change rebuild", run_child(data, out, full=False, search=search))
        for run in range(1, args.runs + 1):
            doc = append_one(data)
            figures = run_child(data, out, full=False, search=search)
            show(f"one new revision, run {run} ({doc})", figures)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
