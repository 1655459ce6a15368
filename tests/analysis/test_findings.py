"""A finding names the evidence lines that only restate one of its sentences."""

from __future__ import annotations

import pytest

from quietedit.analysis import classify_change
from quietedit.analysis.findings import (
    MAX_EVIDENCE,
    STYLE,
    Finding,
    Sentence,
    Significance,
    finding,
)
from tests.analysis.stories import BUDGET, HEALTH, edited, story


def test_a_word_diff_or_a_quotation_at_a_sentences_place_restates_it() -> None:
    sentence = Sentence(
        "block 3", "It was 4.2 million.", "It was 4.5 million.", ((7, 10),), ((7, 10),)
    )
    quoted = Sentence("quote added", "", "“We will,” she said.", (), ((0, 10),))
    found = finding(
        STYLE,
        Significance.MINOR,
        [
            "block 3: was [-4.2-]{+4.5+} million",  # a word diff where a sentence stands
            "block 3: 4.2 → 4.5",  # says more than the sentence: kept
            "block 7: [-a-]{+the+} day",  # no sentence there
            "quote added: “We will,”",
            "quote removed: “No.”",  # no sentence there
        ],
        [sentence, quoted],
    )
    assert found.restating == (0, 3)
    assert found.to_dict()["restating"] == [0, 3]


def test_a_finding_with_no_restating_line_has_no_restating_key() -> None:
    found = finding(STYLE, Significance.MINOR, ["block 1: 4.2 → 4.5"], [])
    assert found.restating == () and "restating" not in found.to_dict()


def test_the_count_of_lines_cut_is_never_restating() -> None:
    sentence = Sentence("block 1", "a b", "a c", ((2, 3),), ((2, 3),))
    lines = [f"block 1: a [-b{n}-]{{+c{n}+}}" for n in range(MAX_EVIDENCE + 3)]
    found = finding(STYLE, Significance.MINOR, lines, [sentence])
    assert found.evidence[-1] == "… and 3 more"
    assert found.restating == tuple(range(MAX_EVIDENCE))


def test_a_restating_index_must_name_an_evidence_line() -> None:
    with pytest.raises(ValueError, match="names no evidence line"):
        Finding(STYLE, Significance.MINOR, ("block 1: [-a-]{+b+}",), (), (1,))


def test_the_classifier_marks_its_word_diffs_and_quotations_not_its_facts() -> None:
    new = story(edited(BUDGET, 0, "4.2 million", "4.5 million"))
    facts = next(f for f in classify_change(story(BUDGET), new).findings if f.kind == "facts")
    assert facts.evidence == ("block 1: 4.2 → 4.5",) and facts.restating == ()
    said = list(HEALTH)
    said[2] = said[2].replace(
        "“Family doctors in the valley are retiring and nobody replaces them.”",
        "“Nobody replaces the family doctors who retire,” she added.",
    )
    found = {f.kind: f for f in classify_change(story(HEALTH), story(said)).findings}
    assert found["quote"].evidence[0].startswith("quote changed: “Family doctors")
    assert found["quote"].restating == (0,)
    assert "[-Family doctors" in found["style"].evidence[0]
    assert found["style"].restating == (0,)
