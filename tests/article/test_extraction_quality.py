"""An accuracy floor, so that extraction cannot silently get worse (skipped without the corpus).

A fixed sample of the corpus pages is scored with the corpus scorer's two metrics — word
F1 over the bag of lower-case words (WCXB's metric) and F1 over 4-word shingles (the
article-extraction-benchmark's) — averaged per page. The floors sit a little under what
extraction reaches on the sample today; ``bench/extraction.py`` measures the whole corpora.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from typing import Final

import pytest

from quietedit.article.extract import extract_article
from tests.article.conftest import corpus, corpus_page

WORD: Final = re.compile(r"\w+")
SAMPLES: Final = {"wcxb-dev-articles": 80, "readability-testpages": 40}
# (word F1, shingle F1) floors on the sample; measured 2026-11-30 at 0.938 / 0.930 (wcxb)
# and 0.969 / 0.956 (readability).
FLOORS: Final = {
    "wcxb-dev-articles": (0.925, 0.915),
    "readability-testpages": (0.955, 0.945),
}


def word_f1(truth: str, predicted: str) -> float:
    expected = Counter(WORD.findall(truth.lower()))
    found = Counter(WORD.findall(predicted.lower()))
    if not expected:
        return 1.0 if not found else 0.0
    overlap = sum((expected & found).values())
    if not overlap:
        return 0.0
    precision, recall = overlap / sum(found.values()), overlap / sum(expected.values())
    return 2 * precision * recall / (precision + recall)


def shingles(text: str, size: int = 4) -> Counter[tuple[str, ...]]:
    tokens = WORD.findall(text)
    return Counter(tuple(tokens[i : i + size]) for i in range(max(1, len(tokens) - size + 1)))


def shingle_precision_recall(truth: str, predicted: str) -> tuple[float, float]:
    expected, found = shingles(truth), shingles(predicted)
    overlap = sum((expected & found).values())
    precision = overlap / sum(found.values()) if found else 0.0
    recall = overlap / sum(expected.values()) if expected else 0.0
    return precision, recall


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_extraction_stays_above_its_accuracy_floor(name: str) -> None:
    truth, folder = corpus(name)
    ids = [key for key in sorted(truth) if truth[key].get("body")]
    step = max(1, len(ids) // SAMPLES[name])
    words, precisions, recalls = [], [], []
    for key in ids[::step][: SAMPLES[name]]:
        record = truth[key]
        article = extract_article(corpus_page(folder, record))
        predicted = "\n".join(block.text for block in article.blocks)
        words.append(word_f1(record["body"], predicted))
        precision, recall = shingle_precision_recall(record["body"], predicted)
        precisions.append(precision)
        recalls.append(recall)
    precision, recall = statistics.mean(precisions), statistics.mean(recalls)
    shingle_f1 = 2 * precision * recall / (precision + recall)
    word_floor, shingle_floor = FLOORS[name]
    assert statistics.mean(words) >= word_floor
    assert shingle_f1 >= shingle_floor


def test_the_metrics_score_what_they_should() -> None:
    assert word_f1("The cat sat", "the CAT sat") == 1.0
    assert word_f1("the cat sat on the mat", "the cat") == pytest.approx(0.5)
    assert word_f1("a b", "") == 0.0
    assert shingle_precision_recall("one two three four five", "one two three four") == (
        1.0,
        0.5,
    )
