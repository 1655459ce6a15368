# ruff: noqa: RUF001 (sentences in Chinese and Japanese, with their full-width marks)
"""The sentence splitter of the NewsEdits export, and the sentence labels it leads to."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quietedit.analysis.newsedits import (
    ADDED,
    DELETED,
    EDITED,
    REFACTORED,
    UNCHANGED,
    edits_record,
    sentence_edits,
)
from quietedit.analysis.sentences import split_sentences


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Mr. Smith met Dr. Jones at 3 p.m. on Friday. It rained! Did it stop? No.",
            ("Mr. Smith met Dr. Jones at 3 p.m. on Friday.", "It rained!", "Did it stop?", "No."),
        ),
        (
            "J. K. Rowling spoke at No. 10 Downing Street. He said no. Then he left.",
            ("J. K. Rowling spoke at No. 10 Downing Street.", "He said no.", "Then he left."),
        ),
        (
            '"No!" she said. "Yes?" He asked. Prices rose 4.5 per cent... Then fell.',
            ('"No!" she said.', '"Yes?"', "He asked.", "Prices rose 4.5 per cent...", "Then fell."),
        ),
        (
            "„Wir erhöhen die Steuern nicht“, sagte sie am 3. Dezember. Die Opposition "
            "protestierte z. B. in Berlin. Nr. 5 ist neu.",
            (
                "„Wir erhöhen die Steuern nicht“, sagte sie am 3. Dezember.",
                "Die Opposition protestierte z. B. in Berlin.",
                "Nr. 5 ist neu.",
            ),
        ),
        (
            "« Non ! » a-t-il dit. M. Macron est arrivé. Pourquoi ? Personne ne sait.",
            ("« Non ! » a-t-il dit.", "M. Macron est arrivé.", "Pourquoi ?", "Personne ne sait."),
        ),
        (
            "東京都は3日、新しい計画を発表した。計画は来年から始まる。「本当か？」と記者は尋ねた。",
            (
                "東京都は3日、新しい計画を発表した。",
                "計画は来年から始まる。",
                "「本当か？」と記者は尋ねた。",
            ),
        ),
        ("他说：“我们不会加税。”记者问。第二句！", ("他说：“我们不会加税。”记者问。", "第二句！")),
        ("First line\nSecond line", ("First line", "Second line")),
        ("   ", ()),
    ],
)
def test_sentences_are_cut_where_a_reader_would_cut_them(
    text: str, expected: tuple[str, ...]
) -> None:
    assert split_sentences(text) == expected


@given(st.text(alphabet=st.sampled_from("ab .!?。」「\n M.No1"), max_size=80))
def test_the_sentences_are_the_text_without_its_white_space(text: str) -> None:
    sentences = split_sentences(text)
    assert "".join("".join(s.split()) for s in sentences) == "".join(text.split())
    assert all(s == s.strip() and s for s in sentences)


LEDE = "The council approved the bridge on Thursday. It will cost 48 million euros."
WORKS = "Work starts in spring. It will last three years."
REACTION = "Residents welcomed the decision. The opposition called it a waste of money."


def test_each_sentence_gets_its_newsedits_label() -> None:
    edits = sentence_edits(
        [LEDE, WORKS, REACTION],
        [
            "The council approved the bridge on Thursday. It will cost 84 million euros.",
            "The opposition called it a waste of money.",
            WORKS,
            "Residents welcomed the decision. A public meeting is planned for May.",
        ],
    )
    old = {s.text: s.op for s in edits.old}
    new = {s.text: s.op for s in edits.new}
    assert old["The council approved the bridge on Thursday."] == UNCHANGED
    assert old["It will cost 48 million euros."] == EDITED
    assert new["It will cost 84 million euros."] == EDITED
    assert old["The opposition called it a waste of money."] == REFACTORED
    assert new["A public meeting is planned for May."] == ADDED
    assert edits.counts() == {ADDED: 1, DELETED: 0, EDITED: 1, REFACTORED: 1, UNCHANGED: 4}
    moved = next(m for m in edits.matches if m.op == REFACTORED)
    assert (moved.old, moved.new, moved.similarity) == (5, 2, 1.0)


def test_a_sentence_rewritten_beyond_recognition_is_a_deletion_and_an_addition() -> None:
    edits = sentence_edits(
        ["The minister resigned on Monday."], ["Heavy snow closed every school in the region."]
    )
    assert [s.op for s in edits.old] == [DELETED]
    assert [s.op for s in edits.new] == [ADDED]
    assert edits.matches == ()


def test_a_repeated_sentence_pairs_with_its_own_copy_and_the_record_is_json() -> None:
    edits = sentence_edits(["Updated.", "Storm hits.", "Updated."], ["Storm hits.", "Updated."])
    assert [(m.old, m.new, m.op) for m in edits.matches] == [(0, 1, REFACTORED), (1, 0, UNCHANGED)]
    record = edits_record(edits)
    assert record["counts"] == {ADDED: 0, DELETED: 1, EDITED: 0, REFACTORED: 1, UNCHANGED: 1}
    assert record["old_sentences"] == [
        {"block": 0, "op": REFACTORED, "text": "Updated."},
        {"block": 1, "op": UNCHANGED, "text": "Storm hits."},
        {"block": 2, "op": DELETED, "text": "Updated."},
    ]
