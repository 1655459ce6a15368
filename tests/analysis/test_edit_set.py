"""The labelled edits: every label from the vocabulary, an accuracy floor per kind so that
the classification cannot silently get worse, and no corpus text in the repository.

Our own edits (``tests/fixtures/edits``) are always here; the corpus pairs (SPIEGEL RSS
teaser edits and BBC pages) are rebuilt from ``../shared/corpus`` when it is there and
their tests skip cleanly when it is not. ``bench/classify.py`` prints the full tables.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest

from quietedit.analysis import classify_change
from quietedit.analysis.findings import KINDS
from tests.analysis.edit_set import (
    CORPUS,
    LABELS,
    SILENT,
    UNCHANGED,
    VERDICTS,
    LabelledPair,
    corpus_pairs,
    own_pairs,
    read_labels,
)

PRECISION_FLOOR = 0.9
RECALL_FLOOR = 0.8
"""What the issue asked of every kind, facts included (#21), and what the set meets."""
MIN_SUPPORT = 4
"""Kinds labelled fewer times than this are too rare in a set for a share to mean much."""


def scores(pairs: Sequence[LabelledPair]) -> dict[str, tuple[float, float, int]]:
    """``kind → (precision, recall, support)``, with the silent verdict as ``silent``."""
    results = [classify_change(p.old, p.new, signals=p.signals) for p in pairs]
    table = {}
    for kind in [*KINDS, SILENT]:
        if kind == SILENT:
            truth = [p.verdict == SILENT for p in pairs]
            said = [r.silent for r in results]
        else:
            truth = [kind in p.kinds for p in pairs]
            said = [kind in r.kinds for r in results]
        hits = sum(t and s for t, s in zip(truth, said, strict=True))
        support, predicted = sum(truth), sum(said)
        precision = hits / predicted if predicted else 1.0
        recall = hits / support if support else 1.0
        table[kind] = (precision, recall, support)
    return table


def below_floor(table: dict[str, tuple[float, float, int]]) -> list[str]:
    return [
        f"{kind}: precision {p:.2f}, recall {r:.2f} of {n}"
        for kind, (p, r, n) in table.items()
        if n >= MIN_SUPPORT and (p < PRECISION_FLOOR or r < RECALL_FLOOR)
    ]


def test_every_own_edit_is_labelled_from_the_vocabulary() -> None:
    pairs = list(own_pairs())
    assert len(pairs) >= 90
    assert len({p.id for p in pairs}) == len(pairs)
    for pair in pairs:
        assert pair.kinds <= set(KINDS), pair.id
        assert pair.verdict in VERDICTS, pair.id
        assert bool(pair.kinds) == (pair.verdict != UNCHANGED), pair.id


def test_every_corpus_label_is_from_the_vocabulary_and_names_a_pair_once() -> None:
    labels = read_labels()
    assert len(labels) >= 200
    for pair_id, label in labels.items():
        assert re.fullmatch(r"spiegel/[0-9a-f-]{36}/\d+|bbc/bbc-\d+/\w+-\w+", pair_id), pair_id
        assert label.kinds <= set(KINDS) and label.verdict in VERDICTS, pair_id


def test_our_own_edits_meet_the_floor_for_every_kind() -> None:
    assert below_floor(scores(list(own_pairs()))) == []


@pytest.mark.slow
def test_the_whole_labelled_set_meets_the_floor_for_every_kind() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus is not at {CORPUS}")
    pairs = [*corpus_pairs(CORPUS), *own_pairs()]
    assert len(pairs) >= 200
    assert below_floor(scores(pairs)) == []


@pytest.mark.slow
def test_the_labels_copy_no_text_of_the_corpus() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus is not at {CORPUS}")
    shingles = set()
    for pair in corpus_pairs(CORPUS):
        for article in (pair.old, pair.new):
            words = re.findall(r"\w+", " ".join([article.title, *(b.text for b in article.blocks)]))
            shingles |= {" ".join(words[i : i + 4]).casefold() for i in range(len(words) - 3)}
    text = LABELS.read_text(encoding="utf-8")
    notes = re.findall(r"\w+", " ".join(line.split("\t", 3)[-1] for line in text.splitlines()))
    copied = {" ".join(notes[i : i + 4]).casefold() for i in range(len(notes) - 3)} & shingles
    assert copied == set()
