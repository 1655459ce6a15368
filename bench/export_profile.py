"""Where a full ``quietedit export sqlite`` spends its CPU, phase by phase.

Two measurements on an existing archive (``--archive DATA``, e.g. the one
``bench/export_update.py`` or ``bench/export.py --keep`` generated), both in this process:

1. **Per document**, on the first ``--sample`` documents (default 2,000), each step the
   worker processes take for a document, timed on its own in CPU seconds: reading its
   files (``read_listed``), comparing its consecutive revisions (``compare_revisions``:
   diff and classification, what ``--cache`` saves), its story sketch (also saved by
   ``--cache``), the rest of its rows, and pickling them (what crosses from a worker to
   the writer).
2. **Per phase**, one whole export (``--jobs``, default 2, as on a 2-core runner; the
   database goes to ``--workdir``): the writer process's own CPU in each phase (listing
   the documents, the git stamps, writing the batches, the stories and feed entries,
   the update tables, and ``finish``: the staged tables sorted in, the full-text indexes
   and the other indexes), and the worker processes' CPU together.

Prints the figures with the load average (CPU seconds are the figure to compare on a
shared machine); ``--json FILE|-`` writes them too.

    .venv/bin/python bench/export_profile.py --archive DATA [--sample 2000] [--jobs 2]
        [--documents N] [--workdir DIR] [--json FILE|-]

``--documents N`` exports only the first N documents of the listing (a quicker look at
the shape; the per-phase figures of a cut archive understate the sorts and indexes).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import pickle
import resource
import shutil
import tempfile
import time
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

from quietedit.analysis.stories import story_sketch
from quietedit.archive.store import Archive
from quietedit.export import numbering, state, writer
from quietedit.export import sqlite as export
from quietedit.export.reading import read_listed
from quietedit.export.rows import DocumentData
from quietedit.publish.changes import compare_revisions
from quietedit.publish.live import live_pairs

PHASES = (
    ("listing", Archive, "documents"),
    ("git stamps", export, "prepared"),
    ("write batches", writer.Writer, "flush"),
    ("stories and feed entries", export, "shared_rows"),
    ("update tables", state, "write_documents"),
    ("finish: sort, full-text, indexes", writer.Writer, "finish"),
)


class CutArchive(Archive):
    """An archive whose listing stops after ``limit`` documents (0: all of them)."""

    limit = 0

    def documents(self, partitions: Any = None) -> list[tuple[str, str]]:
        found = super().documents(partitions)
        return found[: self.limit] if self.limit else found


def cpu() -> float:
    return time.process_time()


def per_document(archive: Archive, sample: int) -> dict[str, Any]:
    """Each worker step's CPU per document (ms), on the first ``sample`` documents."""
    listed = archive.documents()
    slots = numbering.slots(listed)
    chosen = listed[:sample]
    totals = dict.fromkeys(("read", "compare", "sketch", "rows", "pickle"), 0.0)
    pairs = 0
    for partition, doc in chosen:
        started = cpu()
        read = read_listed(archive, partition, doc)
        totals["read"] += cpu() - started
        started = cpu()
        live = live_pairs(read.events)
        comparisons = []
        for old, new in pairwise(read.revisions):
            found = compare_revisions(old, new, live=live(old.number, new.number))
            comparisons.append((found.diff, found.classification))
        pairs += len(comparisons)
        totals["compare"] += cpu() - started
        if not read.revisions:
            continue
        first = read.revisions[0].article
        started = cpu()
        sketch = story_sketch(first.title, [block.text for block in first.blocks])
        totals["sketch"] += cpu() - started
        data = DocumentData(
            doc, partition, "", read.record, read.revisions, read.events, comparisons, read.derived
        )
        started = cpu()
        rows = export.document_rows(data, slot=slots[doc], sketch=sketch)
        totals["rows"] += cpu() - started
        started = cpu()
        pickle.loads(pickle.dumps(rows))  # noqa: S301 - our own rows, as the pool does
        totals["pickle"] += cpu() - started
    return {
        "documents": len(chosen),
        "pairs": pairs,
        "ms_per_document": {k: round(v / max(len(chosen), 1) * 1000, 3) for k, v in totals.items()},
    }


def per_phase(data: Path, out: Path, *, jobs: int, documents: int) -> dict[str, Any]:
    """One whole export: the writer process's CPU per phase, the workers' CPU."""
    spent: dict[str, float] = {}
    originals: list[tuple[Any, str, Callable[..., Any]]] = []
    for label, owner, name in PHASES:
        original = getattr(owner, name)
        originals.append((owner, name, original))
        setattr(owner, name, _timed(original, label, spent))
    CutArchive.limit = documents
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall, started = time.perf_counter(), cpu()
    try:
        report = export.export_sqlite(CutArchive(data), out, jobs=jobs)
    finally:
        for owner, name, original in originals:
            setattr(owner, name, original)
    wall, main = time.perf_counter() - wall, cpu() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    workers = after.ru_utime - children.ru_utime + after.ru_stime - children.ru_stime
    return {
        "jobs": jobs,
        "documents": report.rows.get("documents", 0),
        "wall_seconds": round(wall, 1),
        "writer_cpu_seconds": round(main, 1),
        "workers_cpu_seconds": round(workers, 1),
        "phases": {label: round(spent.get(label, 0.0), 1) for label, _, _ in PHASES},
        "bytes": out.stat().st_size,
    }


def _timed(func: Callable[..., Any], label: str, spent: dict[str, float]) -> Callable[..., Any]:
    @functools.wraps(func)
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = cpu()
        try:
            return func(*args, **kwargs)
        finally:
            spent[label] = spent.get(label, 0.0) + cpu() - started

    return timed


def table(result: dict[str, Any]) -> list[str]:
    each, whole = result["per_document"], result["per_phase"]
    steps = each["ms_per_document"]
    lines = [
        f"per document (first {each['documents']:,} documents, {each['pairs']:,} revision "
        f"pairs), CPU ms: "
        + ", ".join(f"{name} {ms:.2f}" for name, ms in steps.items())
        + f"; total {sum(steps.values()):.2f}",
        f"whole export of {whole['documents']:,} documents, --jobs {whole['jobs']}: "
        f"{whole['wall_seconds']:,.1f} s wall, "
        f"{whole['writer_cpu_seconds'] + whole['workers_cpu_seconds']:,.1f} s CPU "
        f"(writer {whole['writer_cpu_seconds']:,.1f}, "
        f"workers {whole['workers_cpu_seconds']:,.1f}), "
        f"{whole['bytes'] / 2**20:,.0f} MiB",
    ]
    lines += [
        f"  writer, {label}: {seconds:,.1f} s CPU" for label, seconds in whole["phases"].items()
    ]
    lines.append(f"load average at the end: {result['load_average']}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, required=True, help="the archive folder")
    parser.add_argument("--sample", type=int, default=2000, help="documents timed step by step")
    parser.add_argument("--jobs", type=int, default=2, help="export --jobs for the whole export")
    parser.add_argument("--documents", type=int, default=0, help="export the first N (0: all)")
    parser.add_argument("--workdir", type=Path, help="for the database (default: temporary)")
    parser.add_argument("--json", help="also write the figures as JSON to FILE (- for stdout)")
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="export-profile-"))
    workdir.mkdir(parents=True, exist_ok=True)
    data = args.archive.resolve()
    result: dict[str, Any] = {"archive": str(data)}
    result["per_document"] = per_document(Archive(data), args.sample)
    result["per_phase"] = per_phase(
        data, workdir / "profile.db", jobs=args.jobs, documents=args.documents
    )
    result["load_average"] = [round(x, 2) for x in os.getloadavg()]
    if args.workdir is None:
        shutil.rmtree(workdir, ignore_errors=True)
    if args.json == "-":
        print(json.dumps(result, indent=2, sort_keys=True))
        return
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
    print("\n".join(table(result)))


if __name__ == "__main__":
    main()
