"""Speed of ``quietedit verify --since``: the check of one hour's change on a large archive.

Generates a synthetic schema-2 archive (DOCS documents at 1,000 a day, REVISIONS revisions
each, written directly in the archive's file format: hash-chained, partitions and index;
``quietedit verify`` accepts it), commits it to a fresh git repository, then makes one
hour's change the way an hourly run does (new documents, new revisions of older ones,
their index entries; not committed, as the workflow verifies before it commits) and times:

1. what ``verify --since HEAD`` did before #16: the full walk of every file plus the git
   audit (``verify_archive`` + ``audit_since``),
2. ``verify --since HEAD`` now: only the files git shows changed, plus the audit
   (``verify_since``),
3. the same in a sparse checkout of the index and the last eight days' partitions, as
   the hourly job checks out (git's own scan of the work tree then shrinks too),

each in a fresh child process, printing seconds (wall and CPU) and files checked.

    python bench/verify_since.py                     # 20,000 documents, 3 revisions each
    python bench/verify_since.py --docs 2000         # a quick check
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from quietedit.archive.layout import INDEX_SCHEMA, Layout, index_shard, partition_of
from quietedit.archive.records import (
    dump_json,
    new_revision,
    revision_from_record,
    revision_to_record,
)
from quietedit.article.identity import document_id
from quietedit.model import JSON, Article, Block
from quietedit.revisions import Observation, Revision

START = datetime(2026, 1, 1, tzinfo=UTC)
PER_DAY = 1000
PARAGRAPH = (
    "The city council approved a budget of {n} million euros on Monday, after a debate that "
    "ran past midnight and left the northern districts asking for more money for buses."
)

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
root, mode = Path(sys.argv[1]), sys.argv[2]
started, cpu = time.perf_counter(), time.process_time()
if mode == "before":
    from quietedit.archive.audit import audit_since
    from quietedit.archive.verify import verify_archive
    report = verify_archive(root)
    problems = list(report.problems) + audit_since(root, "HEAD")
else:
    from quietedit.archive.since import verify_since
    report = verify_since(root, "HEAD")
    problems = list(report.problems)
children = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({
    "wall": time.perf_counter() - started,
    "cpu": time.process_time() - cpu + children.ru_utime + children.ru_stime,
    "documents": report.documents, "revisions": report.revisions, "problems": len(problems),
}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=20_000)
    parser.add_argument("--revisions", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="verify-since-") as folder:
        repo = Path(folder)
        root = repo / "data"
        started = time.perf_counter()
        index: dict[str, dict[str, JSON]] = {}
        for n in range(args.docs):
            write_document(root, n, revisions=args.revisions, index=index)
        write_index(root, index)
        git(repo, "init", "-q", "-b", "main")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "archive")
        print(f"archive: {args.docs:,} documents x {args.revisions} revisions, "
              f"written and committed in {time.perf_counter() - started:.0f} s")  # fmt: skip
        # one hour at 1,000 articles a day: ~42 new documents, and edits of older ones
        for n in range(args.docs, args.docs + 42):
            write_document(root, n, revisions=1, index=index)
        # edits of articles first seen in the last week (the re-check policy's window)
        recent = range(max(0, args.docs - 7 * PER_DAY), args.docs)
        for n in recent[:: max(1, len(recent) // 20)][:20]:
            append_revision(root, n, index=index)
        write_index(root, index)
        for mode, label in (
            ("before", "full walk + audit (before)"),
            ("after", "changed files + audit"),
            ("sparse", "the same, sparse checkout"),
        ):
            if mode == "sparse":  # what the hourly job checks out: the last 8 days' partitions
                days = {partition_of(START + timedelta(days=n // PER_DAY)) for n in recent}
                days.add(partition_of(START + timedelta(days=args.docs // PER_DAY)))
                folders = [f"data/documents/{day}" for day in sorted(days)]
                git(repo, "sparse-checkout", "set", "--cone", "data/index", *folders)
            done = subprocess.run(
                [sys.executable, "-c", CHILD, str(root), "before" if mode == "before" else "after"],
                capture_output=True, text=True, check=True,
            )  # fmt: skip
            figures = json.loads(done.stdout)
            print(
                f"{label:28} {figures['wall']:7.2f} s wall {figures['cpu']:7.2f} s CPU  "
                f"{figures['documents']:>6,} documents {figures['revisions']:>6,} revisions "
                f"checked, {figures['problems']} problems"
            )


def url_of(n: int) -> str:
    return f"https://news.example.org/2026/story-{n}"


def write_document(
    root: Path, n: int, *, revisions: int, index: dict[str, dict[str, JSON]]
) -> None:
    layout = Layout(root)
    url, doc = url_of(n), document_id(url_of(n))
    seen = START + timedelta(days=n // PER_DAY, seconds=n % PER_DAY * 80)
    partition = partition_of(seen)
    index.setdefault(index_shard(doc), {})[doc] = partition
    record: dict[str, JSON] = {
        "discovered_at": seen.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "id": doc,
        "schema": 2,
        "type": "document",
        "url": url,
    }
    write(layout.document_file(doc, partition), dump_json(record))
    previous: Revision | None = None
    for number in range(1, revisions + 1):
        previous = store_revision(root, doc, partition, url, number, previous, seen)


def append_revision(root: Path, n: int, *, index: dict[str, dict[str, JSON]]) -> None:
    url, doc = url_of(n), document_id(url_of(n))
    partition = str(index[index_shard(doc)][doc])
    folder = Layout(root).revisions_dir(doc, partition)
    newest = max(folder.glob("*.json"))
    previous = revision_from_record(json.loads(newest.read_text(encoding="utf-8")))
    seen = previous.observation.observed_at + timedelta(days=1)
    store_revision(root, doc, partition, url, previous.number + 1, previous, seen)


def store_revision(
    root: Path,
    doc: str,
    partition: str,
    url: str,
    number: int,
    previous: Revision | None,
    seen: datetime,
) -> Revision:
    article = Article(
        title=f"Council approves budget, version {number}",
        blocks=tuple(Block(PARAGRAPH.format(n=number * 10 + k)) for k in range(8)),
    )
    observed = Observation(url=url, observed_at=seen + timedelta(hours=number), article=article,
                           extractor="bench/1")  # fmt: skip
    revision = new_revision(doc, observed, previous=previous)
    path = Layout(root).revision_file(doc, partition, number)
    write(path, dump_json(revision_to_record(revision)))
    return revision


def write_index(root: Path, index: dict[str, dict[str, JSON]]) -> None:
    for shard, entries in index.items():
        record: dict[str, JSON] = {
            "documents": dict(sorted(entries.items())),
            "schema": INDEX_SCHEMA,
            "shard": shard,
            "type": "index",
        }
        write(Layout(root).index_file(shard), dump_json(record))


def write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=Bench", "-c", "user.email=bench@example.org", *args],
        cwd=repo, check=True, capture_output=True,
    )  # fmt: skip


if __name__ == "__main__":
    main()
