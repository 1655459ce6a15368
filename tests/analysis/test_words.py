"""Word diffs: readable tokens, exact reconstruction, split/merge parts, the complexity limit."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from quietedit.analysis.words import (
    diff_word_parts,
    diff_words,
    hunks,
    new_side,
    old_side,
    tokenize,
)
from tests.analysis.stories import BUDGET, HEALTH

WORDS = st.sampled_from(
    [
        "the",
        "council",
        "said",
        "4.2",
        "million",
        "Okafor",
        "“fair”",
        ",",
        ".",
        "—",
        "Zürich",
        "don't",
    ]
)
PROSE = st.lists(WORDS, max_size=25).map(" ".join)


def bare(text: str) -> str:
    return "".join(text.split())


def test_numbers_contractions_and_times_are_whole_tokens() -> None:
    tokens = tokenize("At 12:30 the 1,200 residents didn't get 4.2 million euros.")
    assert [t.strip() for t in tokens] == [
        "At", "12:30", "the", "1,200", "residents", "didn't", "get", "4.2", "million", "euros", "."
    ]  # fmt: skip


def test_a_changed_number_is_one_word_change_not_character_noise() -> None:
    segments = diff_words(BUDGET[0], BUDGET[0].replace("4.2", "4.5")).segments
    assert [s for s in segments if s[0] != "="] == [("-", "4.2 "), ("+", "4.5 ")]


def test_a_reworded_clause_reads_as_one_change() -> None:
    old = "The minister said on Tuesday that the report was wrong."
    new = "A spokesperson for the ministry said the report was misleading."
    changes = [h.markup() for h in hunks(diff_words(old, new).segments)]
    # "said" alone between two changes joins them; "the report was" stays visible
    assert changes[0].startswith("[-The minister said on Tuesday that-]{+A spokesperson")
    assert "the report was [-wrong-]{+misleading+}" in changes[1]


def test_a_kept_phrase_between_changes_is_never_swallowed() -> None:
    old = "Police said the claims in the report were false."
    new = "Officials said the claims in the statement were misleading."
    segments = diff_words(old, new).segments
    assert any(op == "=" and "said the claims in the" in text for op, text in segments)


def test_quote_marks_change_as_their_own_tokens() -> None:
    old = "She called it “a fair compromise”."
    new = 'She called it "a fair compromise".'
    changed = [s for s in diff_words(old, new).segments if s[0] != "="]
    assert changed == [("-", "“"), ("+", '"'), ("-", "”"), ("+", '"')]


def test_hunks_carry_a_few_words_of_context() -> None:
    (hunk,) = hunks(diff_words(HEALTH[1], HEALTH[1].replace("47", "74")).segments)
    assert hunk.markup() == "an average of [-47-]{+74+} minutes to be"


def test_a_split_gives_one_word_diff_per_new_block() -> None:
    first, second = BUDGET[2].split(", which ")
    parts = [first + ".", "They carry " + second.removeprefix("carry ")]
    diffs, coarse = diff_word_parts([BUDGET[2]], parts)
    assert not coarse and len(diffs) == 2
    assert [new_side(d) for d in diffs] == parts
    assert bare("".join(old_side(d) for d in diffs)) == bare(BUDGET[2])


def test_a_merge_gives_one_word_diff_per_old_block() -> None:
    merged = BUDGET[0] + " " + BUDGET[1]
    diffs, _ = diff_word_parts([BUDGET[0], BUDGET[1]], [merged])
    assert "".join(new_side(d) for d in diffs) == merged
    assert [bare(old_side(d)) for d in diffs] == [bare(BUDGET[0]), bare(BUDGET[1])]


def test_past_the_complexity_limit_the_middle_is_one_removal_and_one_addition() -> None:
    old = "Intro words stay. " + " ".join(f"w{n}" for n in range(300)) + " Outro stays."
    new = "Intro words stay. " + " ".join(f"v{n}" for n in range(300)) + " Outro stays."
    result = diff_words(old, new, limit=1000)
    assert result.coarse
    assert [op for op, _ in result.segments] == ["=", "-", "+", "="]
    assert result.segments[0] == ("=", "Intro words stay. ")
    assert new_side(result.segments) == new


@given(st.text())
def test_tokens_join_back_to_the_text(text: str) -> None:
    assert "".join(tokenize(text)) == text


@given(PROSE, PROSE)
def test_the_new_side_is_the_new_text_exactly(old: str, new: str) -> None:
    segments = diff_words(old, new).segments
    assert new_side(segments) == new
    assert bare(old_side(segments)) == bare(old)


@given(st.text(max_size=80), st.text(max_size=80))
def test_any_text_diffs_without_error_and_rebuilds(old: str, new: str) -> None:
    segments = diff_words(old, new).segments
    assert new_side(segments) == new
    assert bare(old_side(segments)) == bare(old)


@given(st.lists(PROSE, min_size=1, max_size=4), PROSE)
def test_split_parts_rebuild_each_new_block(parts: list[str], old: str) -> None:
    diffs, _ = diff_word_parts([old], parts)
    assert [new_side(d) for d in diffs] == parts
    assert bare("".join(old_side(d) for d in diffs)) == bare(old)


@given(st.lists(PROSE, min_size=1, max_size=4), PROSE)
def test_merged_parts_rebuild_each_old_block(parts: list[str], new: str) -> None:
    diffs, _ = diff_word_parts(parts, [new])
    assert "".join(new_side(d) for d in diffs) == new
    assert [bare(old_side(d)) for d in diffs] == [bare(p) for p in parts]


@given(PROSE)
def test_diffing_a_text_with_itself_changes_nothing(text: str) -> None:
    assert all(op == "=" for op, _ in diff_words(text, text).segments)


def test_a_joined_change_keeps_each_side_exactly_as_written() -> None:
    """The kept word "Italien" between two changes joins them; the removed side must read
    as the old headline did ("Italien:", not the new side's "Italien ")."""
    old = "Italien: Rechtsruck bei Wahlen nach ersten Prognosen"
    new = "Italien-Wahl: Radikale Rechte um Giorgia Meloni gewinnt Wahlen in Italien: Umfragen"
    assert diff_words(old, new).segments == (("-", old), ("+", new))
