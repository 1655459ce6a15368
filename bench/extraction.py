"""Extraction quality and speed on the real-world corpora, against trafilatura.

Runs the corpus scorer (``../shared/tools/score_extraction.py``) on each extraction corpus
that is present, with ``quietedit extract --json`` as the command and, when trafilatura is
installed, trafilatura on the same pages in the same run, then ``quietedit extract --json
--jobs 1`` (one process, one core) for comparison; prints one table and the load average.
Then times the stages of extraction in-process, so a slow stage shows.

    .venv/bin/python bench/extraction.py [--limit N] [--no-baseline] [--stages-only] [--rounds 3]

The speed of this machine drifts by tens of percent within minutes, so the scorer runs
``--rounds`` times with the baseline, each round timing quietedit and then trafilatura on
the same pages, and the table shows the round whose ratio is the median (all the ratios
are printed under it).

trafilatura is not a dependency of quietedit: ``pip install trafilatura lxml_html_clean``
into the virtual environment to get the baseline.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import os
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the shared folder beside the repository (or beside a worktree's parent folder)
SHARED = next((p / "shared" for p in ROOT.parents if (p / "shared").is_dir()), ROOT.parent)
SCORER = SHARED / "tools" / "score_extraction.py"
CORPORA = ("wcxb-dev-articles", "readability-testpages")
COLUMNS = ("word_f1", "shingle_f1", "with", "without", "pages_per_second")


def score(
    corpus: Path, *, limit: int | None, baseline: bool, jobs: int | None = None
) -> dict[str, object]:
    command = f"{shlex.quote(sys.executable)} -m quietedit extract --json"
    if jobs is not None:
        command += f" --jobs {jobs}"
    args = [sys.executable, str(SCORER), str(corpus), "--cmd", command, "--json"]
    if baseline:
        args += ["--baseline", "trafilatura"]
    if limit:
        args += ["--limit", str(limit)]
    done = subprocess.run(args, capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def table(name: str, results: dict[str, object]) -> None:
    print(f"\n{name}")
    print(f"  {'system':<14} {'pages':>5} " + " ".join(f"{c:>16}" for c in COLUMNS))
    for system, row in results.items():
        if not isinstance(row, dict):
            continue
        cells = " ".join(
            f"{row[c]:>16.3f}" if isinstance(row.get(c), float) else f"{'-':>16}" for c in COLUMNS
        )
        print(f"  {system:<14} {row['pages']:>5} {cells}")
    if "speed_ratio" in results:
        print(f"  speed ratio quietedit / trafilatura: {results['speed_ratio']:.2f}x")
    alone, baseline = results.get("quietedit -j1"), results.get("trafilatura")
    if isinstance(alone, dict) and isinstance(baseline, dict):
        ratio = alone["pages_per_second"] / baseline["pages_per_second"]
        print(f"  in one process (one core):           {ratio:.2f}x")


def stages(corpus: Path, *, limit: int | None) -> None:
    """Milliseconds per page for each stage of extraction, in-process (CPU time)."""
    from quietedit.article import extract as extraction
    from quietedit.article.blocks import walk
    from quietedit.article.dom import parse, read_head
    from quietedit.article.locate import PageLayout
    from quietedit.article.metadata import read_metadata
    from quietedit.article.titles import choose_title

    truth = json.loads((corpus / "ground-truth.json").read_text(encoding="utf-8"))
    pages = [gzip.decompress((corpus / truth[k]["html"]).read_bytes()) for k in sorted(truth)]
    pages = pages[:limit] if limit else pages
    spent: dict[str, list[float]] = {}

    def lap(name: str, started: float) -> float:
        now = time.process_time()
        spent.setdefault(name, []).append(now - started)
        return now

    for body in pages:
        started = time.process_time()
        document = extraction._decode(body, None, None)
        started = lap("encoding (resolve_encoding)", started)
        tree = parse(document)
        started = lap("parse (lexbor)", started)
        if tree is None or tree.body is None:
            continue
        head = read_head(tree)
        started = lap("head", started)
        segments, boxes = walk(tree.body, head)
        started = lap("walk", started)
        meta = read_metadata(head, url=None)
        started = lap("metadata", started)
        layout = PageLayout(segments, boxes)
        started = lap("locate", started)
        h1s = [s.text for s in segments if s.box.tag == "h1" and not layout.is_furniture(s)]
        title = choose_title(meta, h1s)
        first_updated, updated = extraction._first_updated_line(segments)
        extraction._body_blocks(layout, title, frozenset(), first_updated, None)
        extraction._publisher(meta, segments, updated)
        lap("assemble", started)
    total = sum(sum(times) for times in spent.values())
    print(f"\nstages on {corpus.name} ({len(pages)} pages, CPU ms per page)")
    for name, times in spent.items():
        print(f"  {name:<28} {1000 * statistics.mean(times):7.3f}")
    print(f"  {'total':<28} {1000 * total / len(pages):7.3f}  ({len(pages) / total:.0f} pages/s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="only the first N pages")
    parser.add_argument("--no-baseline", action="store_true", help="skip trafilatura")
    parser.add_argument("--stages-only", action="store_true", help="skip the scorer runs")
    parser.add_argument(
        "--rounds", type=int, default=3, help="same-run timings against trafilatura (median)"
    )
    args = parser.parse_args()
    baseline = not args.no_baseline and importlib.util.find_spec("trafilatura") is not None
    if not baseline and not args.no_baseline:
        print("trafilatura is not installed: no baseline (pip install trafilatura lxml_html_clean)")
    for name in CORPORA:
        corpus = SHARED / "corpus" / "extraction" / name
        if not (corpus / "ground-truth.json").is_file():
            print(f"\n{name}: not found at {corpus}, skipped")
            continue
        if not args.stages_only:
            if not SCORER.is_file():
                print(f"\nthe scorer is not at {SCORER}; quality runs skipped")
            else:
                # The machine's speed drifts: each round times both systems back to back,
                # and the table shows the round with the median ratio.
                rounds = [
                    score(corpus, limit=args.limit, baseline=baseline)
                    for _ in range(args.rounds if baseline else 1)
                ]
                rounds.sort(key=lambda result: float(str(result.get("speed_ratio", 0))))
                results = rounds[len(rounds) // 2]
                # The same in one process (--jobs 1): what one core gives, for comparison.
                alone = score(corpus, limit=args.limit, baseline=False, jobs=1)
                results["quietedit -j1"] = alone["quietedit"]
                table(name, results)
                if len(rounds) > 1:
                    ratios = " ".join(f"{float(str(r['speed_ratio'])):.2f}x" for r in rounds)
                    print(f"  speed ratio in each round (sorted): {ratios}")
                load = " ".join(f"{value:.2f}" for value in os.getloadavg())
                print(f"  load average (1, 5, 15 min): {load}")
        stages(corpus, limit=args.limit)


if __name__ == "__main__":
    main()
