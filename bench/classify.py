"""How often each kind of change the classifier names is right, on edits labelled by hand.

Usage: .venv/bin/python bench/classify.py [--corpus DIR] [--source S] [--batch B]
                                          [--without B] [--show KIND] [--dump DIR]
                                          [--cross-validate]

Runs ``classify_change`` on every pair of the labelled set (``tests/analysis/edit_set.py``: SPIEGEL
RSS teaser edits and the BBC pages from ``../shared/corpus/revisions``, rebuilt from the
corpus by the labels in ``bench/labels/corpus-edits.tsv``, and our own edits in
``tests/fixtures/edits``) and prints, per kind and for the silent verdict:

* precision — of the pairs the classifier gave the kind, the share whose label has it;
* recall — of the pairs whose label has the kind, the share the classifier gave it;
* support (labelled) and predicted counts;

then a confusion summary: for each kind given wrongly, which labelled kinds the pair had
that the classifier did not give (what it should have said instead), and for each kind
missed, what it said instead; and how long the classification took (CPU time, the
median of three runs over the pairs, and per pair). ``--batch NAME`` scores only the
corpus pairs of one batch of labels (see ``bench/labels/README.md``), ``--without NAME``
all but that batch's (a test batch kept aside); ``--show KIND`` lists the pairs where
KIND was wrong with the classifier's evidence; ``--dump DIR`` writes the rebuilt set
(old, new, labels) as one JSON file per pair, for reading the pairs outside the
repository; ``--cross-validate`` chooses the weights and the threshold of the facts
call (``quietedit/analysis/confidence.py``) again, by leave-one-batch-out
cross-validation over the held-out batches ``FOLDS``, never the test batch
(``TEST_BATCH``, left out of every pair it weighs).
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from quietedit.analysis import (  # noqa: E402
    Classification,
    classify_change,
    reading,
)
from quietedit.analysis.confidence import (  # noqa: E402
    LOCATED_WEIGHT,
    NUMBER_WEIGHT,
    RULE_WEIGHT,
    THRESHOLD,
    FactEvidence,
)
from quietedit.analysis.findings import KINDS  # noqa: E402
from tests.analysis.edit_set import (  # noqa: E402
    ADMITTED,
    CORPUS,
    SILENT,
    UNCHANGED,
    LabelledPair,
    labelled_set,
)

VERDICT = "silent verdict"


@dataclass(frozen=True, slots=True)
class Scored:
    pair: LabelledPair
    result: Classification

    @property
    def predicted(self) -> frozenset[str]:
        return self.result.kinds

    @property
    def silent(self) -> bool:
        return self.result.silent


@dataclass(frozen=True, slots=True)
class Row:
    name: str
    precision: float | None
    recall: float | None
    support: int
    predicted: int


def score(pairs: Iterable[LabelledPair]) -> list[Scored]:
    return [
        Scored(pair, classify_change(pair.old, pair.new, signals=pair.signals)) for pair in pairs
    ]


def timed(pairs: Sequence[LabelledPair], rounds: int = 3) -> tuple[list[Scored], float]:
    """The pairs scored, and the median over ``rounds`` runs of the CPU seconds one run of
    ``classify_change`` over all of them took (CPU time: a loaded machine changes it
    less than the clock)."""
    times = []
    scored: list[Scored] = []
    for _ in range(rounds):
        started = time.process_time()
        scored = score(pairs)
        times.append(time.process_time() - started)
    return scored, statistics.median(times)


def table(scored: Sequence[Scored]) -> list[Row]:
    """One row per kind that was labelled or predicted, then the silent verdict."""
    rows = []
    for kind in sorted(set(KINDS).union(*(s.pair.kinds for s in scored))):
        truth = [kind in s.pair.kinds for s in scored]
        said = [kind in s.predicted for s in scored]
        if any(truth) or any(said):
            rows.append(_row(kind, truth, said))
    rows.append(
        _row(VERDICT, [s.pair.verdict == SILENT for s in scored], [s.silent for s in scored])
    )
    return rows


def _row(name: str, truth: list[bool], said: list[bool]) -> Row:
    hits = sum(t and s for t, s in zip(truth, said, strict=True))
    support, predicted = sum(truth), sum(said)
    return Row(
        name,
        hits / predicted if predicted else None,
        hits / support if support else None,
        support,
        predicted,
    )


def confusion(
    scored: Sequence[Scored],
) -> tuple[Counter[tuple[str, str]], Counter[tuple[str, str]]]:
    """``(given wrongly, labelled but not given)`` and ``(missed, given instead)`` counts;
    ``-`` stands for nothing."""
    wrong: Counter[tuple[str, str]] = Counter()
    missed: Counter[tuple[str, str]] = Counter()
    for s in scored:
        extra = s.predicted - s.pair.kinds
        lacking = s.pair.kinds - s.predicted
        for kind in extra:
            for other in lacking or {"-"}:
                wrong[kind, other] += 1
        for kind in lacking:
            for other in extra or {"-"}:
                missed[kind, other] += 1
    return wrong, missed


def report(scored: Sequence[Scored]) -> str:
    sources = Counter(s.pair.source for s in scored)
    verdicts = Counter(s.pair.verdict for s in scored)
    lines = [
        f"Labelled set: {len(scored)} pairs ({sources['spiegel']} SPIEGEL RSS teaser edits, "
        f"{sources['bbc']} BBC pages, {sources['own']} own); "
        f"{verdicts[SILENT]} silent, {verdicts[ADMITTED]} admitted, "
        f"{verdicts[UNCHANGED]} unchanged",
        "",
        f"{'kind':<20} {'precision':>9} {'recall':>7} {'support':>8} {'predicted':>10}",
    ]
    for row in table(scored):
        lines.append(
            f"{row.name:<20} {_figure(row.precision):>9} {_figure(row.recall):>7} "
            f"{row.support:>8} {row.predicted:>10}"
        )
    exact = sum(s.predicted == s.pair.kinds for s in scored)
    lines += ["", f"pairs with exactly the labelled kinds: {exact} of {len(scored)}"]
    wrong, missed = confusion(scored)
    lines += ["", "Given wrongly (kind given → labelled kind it lacked; - none):"]
    lines += _pairs(wrong)
    lines += ["", "Missed (labelled kind → kind given instead; - none):"]
    lines += _pairs(missed)
    return "\n".join(lines)


def _pairs(counts: Counter[tuple[str, str]]) -> list[str]:
    by_kind: dict[str, list[tuple[str, int]]] = {}
    for (kind, other), count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        by_kind.setdefault(kind, []).append((other, count))
    return [
        f"  {kind:<18} " + ", ".join(f"{other} {count}" for other, count in others)
        for kind, others in sorted(by_kind.items())
    ] or ["  none"]


def _figure(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def show(scored: Sequence[Scored], kind: str) -> str:
    """The pairs where ``kind`` (or ``silent``) was wrong, with the evidence."""
    lines = []
    for s in scored:
        if kind == "silent":
            wrong = (s.pair.verdict == SILENT) != s.silent
        else:
            wrong = (kind in s.pair.kinds) != (kind in s.predicted)
        if not wrong:
            continue
        lines.append(f"## {s.pair.id}")
        lines.append(f"   labelled: {sorted(s.pair.kinds)} {s.pair.verdict}  {s.pair.note}")
        lines.append(f"   given:    {sorted(s.predicted)} {'silent' if s.silent else ''}")
        for found in s.result.findings:
            lines += [f"     {found.kind}: {line}" for line in found.evidence]
    return "\n".join(lines)


def dump(pairs: Iterable[LabelledPair], folder: Path) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    count = 0
    for pair in pairs:
        record = {
            "id": pair.id,
            "kinds": sorted(pair.kinds),
            "verdict": pair.verdict,
            "note": pair.note,
            "old": {"title": pair.old.title, "blocks": [b.text for b in pair.old.blocks]},
            "new": {"title": pair.new.title, "blocks": [b.text for b in pair.new.blocks]},
        }
        name = pair.id.replace("/", "_") + ".json"
        text = json.dumps(record, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
        (folder / name).write_text(text, encoding="utf-8")
        count += 1
    return count


# -- choosing the facts call's weights --------------------------------------------------

FOLDS: Final = tuple(f"held-out-{n}" for n in range(10, 21))
"""The batches the weights are chosen on, one left out at a time: each was labelled
before the rules it was first scored with had seen it (``bench/labels/README.md``)."""
TEST_BATCH: Final = "held-out-21"
"""The batch kept for the final test: labelled before the classifier ran on it, scored
once with the final rules, and never among the pairs the weights are chosen on."""
WEIGHTS: Final = (
    tuple(n / 10 for n in range(11)),  # the rules' call
    tuple(n / 10 for n in range(6)),  # a number or date
    tuple(n / 10 for n in range(5)),  # a located place
)
THRESHOLDS: Final = tuple(n / 20 for n in range(4, 37))  # 0.2 … 1.8
NEAR_BEST: Final = 0.01
"""Weight sets this close to the best cross-validated F1 are ties, settled by the
precision on every labelled pair outside the test batch (the floor every kind keeps)."""


@dataclass(frozen=True, slots=True)
class Weighed:
    """A labelled pair, whether its label has ``facts``, and the evidence of each change
    the facts call weighed in it."""

    id: str
    batch: str
    facts: bool
    evidence: tuple[FactEvidence, ...]


def collect(pairs: Iterable[LabelledPair]) -> list[Weighed]:
    """Each pair with the evidence of every change the facts call weighed (what
    ``reading.confident`` was asked), the call itself left as it is."""
    asked: list[FactEvidence] = []
    decide: Callable[[FactEvidence], bool] = getattr(reading, "confident")  # noqa: B009

    def record(evidence: FactEvidence) -> bool:
        asked.append(evidence)
        return decide(evidence)

    rows = []
    setattr(reading, "confident", record)  # noqa: B010 (each change's evidence, as asked)
    try:
        for pair in pairs:
            asked.clear()
            classify_change(pair.old, pair.new, signals=pair.signals)
            rows.append(Weighed(pair.id, pair.batch, "facts" in pair.kinds, tuple(asked)))
    finally:
        setattr(reading, "confident", decide)  # noqa: B010
    return rows


Weights = tuple[float, float, float]


def _confidence(evidence: FactEvidence, weights: Weights) -> float:
    rule, number, place = weights
    return round(
        evidence.kept + rule * evidence.rule + number * evidence.numbers + place * evidence.located,
        6,
    )


Scores = list[tuple[float, bool]]


def scores(rows: Sequence[Weighed], weights: Weights) -> Scores:
    """Each pair's highest confidence (``-1`` with nothing weighed) and its label."""
    return [
        (max((_confidence(e, weights) for e in r.evidence), default=-1.0), r.facts) for r in rows
    ]


def counts(scored: Scores, threshold: float) -> tuple[int, int, int]:
    """``(right, wrong, missed)`` facts calls when a pair is called ``facts`` where one
    change's confidence is above ``threshold``."""
    right = sum(1 for c, facts in scored if c > threshold and facts)
    wrong = sum(1 for c, facts in scored if c > threshold and not facts)
    missed = sum(1 for c, facts in scored if c <= threshold and facts)
    return right, wrong, missed


def f1(right: int, wrong: int, missed: int) -> float:
    return 2 * right / (2 * right + wrong + missed) if right else 0.0


def best_threshold(scored: Scores) -> float:
    """The threshold of the best F1 (the higher precision on a tie)."""
    found = {t: counts(scored, t) for t in THRESHOLDS}
    return max(THRESHOLDS, key=lambda t: (f1(*found[t]), _precision(*found[t])))


def _precision(right: int, wrong: int, missed: int) -> float:
    return right / (right + wrong) if right + wrong else 0.0


def _recall(right: int, wrong: int, missed: int) -> float:
    return right / (right + missed) if right + missed else 0.0


@dataclass(frozen=True, slots=True)
class Choice:
    weights: Weights
    threshold: float
    cross_validated: tuple[int, int, int]  # pooled over the left-out batches
    folds: tuple[tuple[str, float, tuple[int, int, int]], ...]
    outside: tuple[int, int, int]  # every labelled pair outside the folds' test batch


def choose(rows: Sequence[Weighed], folds: Sequence[str] = FOLDS) -> Choice:
    """Leave one batch of ``folds`` out: the threshold chosen on the others, scored on it;
    the weight set of the best pooled F1 (ties within ``NEAR_BEST`` settled by the
    precision over all ``rows``), its threshold then chosen on every fold together."""
    pooled = [r for r in rows if r.batch in folds]
    scored = []
    for weights in itertools.product(*WEIGHTS):
        total = (0, 0, 0)
        per_fold: list[tuple[str, float, tuple[int, int, int]]] = []
        for batch in folds:
            threshold = best_threshold(scores([r for r in pooled if r.batch != batch], weights))
            found = counts(scores([r for r in pooled if r.batch == batch], weights), threshold)
            per_fold.append((batch, threshold, found))
            total = (total[0] + found[0], total[1] + found[1], total[2] + found[2])
        scored.append((f1(*total), weights, total, tuple(per_fold)))
    best = max(score for score, *_ in scored)
    ties = []
    for score, weights, pooled_found, left_out in scored:
        if score >= best - NEAR_BEST:
            threshold = best_threshold(scores(pooled, weights))
            outside = counts(scores(rows, weights), threshold)
            ties.append(Choice(weights, threshold, pooled_found, left_out, outside))
    return max(ties, key=lambda c: (_precision(*c.outside), _recall(*c.outside)))


def cross_validation(rows: Sequence[Weighed], folds: Sequence[str] = FOLDS) -> str:
    choice = choose(rows, folds)
    now: Weights = (RULE_WEIGHT, NUMBER_WEIGHT, LOCATED_WEIGHT)
    lines = [
        f"facts call chosen by leave-one-batch-out over {', '.join(folds)} "
        f"({sum(r.batch in folds for r in rows)} pairs; weights: the rules' call, a number "
        f"or date, a located place; above the threshold is a fact):",
    ]
    for batch, threshold, found in choice.folds:
        lines.append(f"  left out {batch}: threshold {threshold:.2f} → {_figures(found)}")
    lines += [
        f"  pooled over the left-out batches: {_figures(choice.cross_validated)}",
        f"  chosen: weights {choice.weights}, threshold {choice.threshold:.2f}; on every "
        f"pair given ({len(rows)}): {_figures(choice.outside)}",
        f"  confidence.py now: weights {now}, threshold {THRESHOLD:.2f}; on every pair "
        f"given: {_figures(counts(scores(rows, now), THRESHOLD))}",
    ]
    return "\n".join(lines)


def _figures(found: tuple[int, int, int]) -> str:
    right, wrong, missed = found
    return (
        f"precision {_precision(*found):.2f} ({right} of {right + wrong}), "
        f"recall {_recall(*found):.2f} ({right} of {right + missed})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="the shared corpus folder")
    parser.add_argument("--source", choices=("spiegel", "bbc", "own"), help="only these pairs")
    parser.add_argument("--batch", help="only the corpus labels of this batch (held-out)")
    parser.add_argument("--without", metavar="BATCH", help="every pair but this batch's")
    parser.add_argument(
        "--cross-validate",
        action="store_true",
        help="choose the facts call's weights and threshold by leave-one-batch-out",
    )
    parser.add_argument("--show", metavar="KIND", help="list the pairs where KIND was wrong")
    parser.add_argument("--dump", type=Path, metavar="DIR", help="write the set as JSON")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        print(f"corpus not found at {args.corpus}: scoring our own edits only", file=sys.stderr)
    pairs = [
        p
        for p in labelled_set(args.corpus)
        if args.source in (None, p.source)
        and args.batch in (None, p.batch)
        and (args.without is None or p.batch != args.without)
    ]
    if args.cross_validate:
        print(cross_validation(collect(p for p in pairs if p.batch != TEST_BATCH)))
        return
    if args.dump:
        print(f"{dump(pairs, args.dump)} pairs written to {args.dump}")
        return
    if args.show:
        print(show(score(pairs), args.show))
        return
    scored, seconds = timed(pairs)
    print(report(scored))
    per_pair = 1000 * seconds / max(len(pairs), 1)
    print(
        f"\nclassification: {len(pairs)} pairs in {seconds:.2f} s of CPU, "
        f"{per_pair:.2f} ms a pair (median of 3 runs)"
    )


if __name__ == "__main__":
    main()
