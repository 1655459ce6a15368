"""``bench/classify.py --cross-validate``: how the facts call's weights and threshold are
chosen, leaving one batch out at a time, on evidence made up for the test."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from quietedit.analysis.confidence import FactEvidence
from tests.analysis.edit_set import own_pairs

BENCH = Path(__file__).resolve().parents[2] / "bench" / "classify.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_classify", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _evidence(kept: float, *, rule: bool = True, numbers: bool = False) -> FactEvidence:
    return FactEvidence(kept=kept, rule=rule, numbers=numbers, located=False)


def _rows(bench: ModuleType, batch: str) -> list[object]:
    weighed = bench.Weighed
    return [
        # numbers are facts whatever the sentence kept; names only in a kept sentence
        weighed(f"{batch}/1", batch, True, (_evidence(0.1, numbers=True),)),
        weighed(f"{batch}/2", batch, True, (_evidence(0.9),)),
        weighed(f"{batch}/3", batch, False, (_evidence(0.2),)),
        weighed(f"{batch}/4", batch, False, (_evidence(0.3),)),
        weighed(f"{batch}/5", batch, True, ()),  # a fact the rules never weighed
        weighed(f"{batch}/6", batch, False, ()),
    ]


def test_counts_call_a_pair_where_one_change_is_above_the_threshold() -> None:
    bench = _bench()
    rows = _rows(bench, "a")
    scored = bench.scores(rows, (0.0, 0.5, 0.0))
    assert bench.counts(scored, 0.5) == (2, 0, 1)
    assert bench.counts(scored, 0.1) == (2, 2, 1)
    assert bench.best_threshold(scored) >= 0.3


def test_the_choice_weighs_what_tells_the_facts_apart_on_every_left_out_batch() -> None:
    bench = _bench()
    rows = _rows(bench, "a") + _rows(bench, "b") + _rows(bench, "c")
    choice = bench.choose(rows, ("a", "b", "c"))
    assert choice.cross_validated == (6, 0, 3)  # the unweighed facts stay missed
    assert [batch for batch, _, _ in choice.folds] == ["a", "b", "c"]
    _, number, _ = choice.weights
    assert number > 0
    assert "precision 1.00 (6 of 6), recall 0.67 (6 of 9)" in bench.cross_validation(
        rows, ("a", "b", "c")
    )


def test_collect_records_the_evidence_and_leaves_the_call_as_it_was() -> None:
    bench = _bench()
    from quietedit.analysis import reading

    decide = getattr(reading, "confident")  # noqa: B009
    rows = bench.collect(list(own_pairs()))
    assert getattr(reading, "confident") is decide  # noqa: B009
    facts = [r for r in rows if r.facts]
    assert facts and sum(bool(r.evidence) for r in facts) >= 0.8 * len(facts)
    assert all(0.0 <= e.kept <= 1.0 for r in rows for e in r.evidence)
