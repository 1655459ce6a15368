"""Where each block of the newest revision comes from, through the diffs the site shows."""

from __future__ import annotations

from itertools import pairwise

import pytest

from quietedit.analysis import diff_revisions
from quietedit.analysis.provenance import (
    FIRST_APPEARED,
    LAST_CHANGED,
    BlockOrigin,
    block_provenance,
)
from quietedit.model import JSON, Article, Block

LEDE = "The regional council approved the new bridge over the Elm river on Thursday."
COST = "The bridge will cost 48 million euros, the council's finance office said."
START = "Construction is expected to start in the spring and last three years."
CAMPAIGN = "Residents of the eastern districts have campaigned for a second crossing."
BUDGET = "The council will publish the full budget of the project next week."


def article(*paragraphs: str) -> Article:
    return Article("Council approves bridge", tuple(Block(p) for p in paragraphs))


def provenance_of(*versions: Article) -> tuple[BlockOrigin, ...]:
    diffs: list[dict[str, JSON]] = [
        diff_revisions(old, new).to_dict() for old, new in pairwise(versions)
    ]
    numbers = list(range(1, len(versions) + 1))
    return block_provenance(numbers, [len(v.blocks) for v in versions], diffs)


def test_a_single_revision_is_where_every_block_first_appeared() -> None:
    origins = provenance_of(article(LEDE, COST))
    assert origins == (BlockOrigin(1), BlockOrigin(1))
    assert {o.basis for o in origins} == {FIRST_APPEARED}


def test_a_moved_paragraph_keeps_the_revision_it_first_appeared_in() -> None:
    origins = provenance_of(
        article(LEDE, COST, START, CAMPAIGN),
        article(LEDE, COST, START, CAMPAIGN, BUDGET),
        article(LEDE, CAMPAIGN, COST, START, BUDGET),
    )
    assert [o.revision for o in origins] == [1, 1, 1, 1, 2]
    assert origins[4] == BlockOrigin(2)  # added in revision 2, moved by nothing since


def test_an_edited_paragraph_is_dated_by_its_last_change_and_says_so() -> None:
    corrected = COST.replace("48 million", "84 million")
    origins = provenance_of(
        article(LEDE, COST, START),
        article(LEDE, corrected, START),
        article(LEDE, corrected, START, BUDGET),
    )
    assert origins[1] == BlockOrigin(first=1, changed=2)
    assert (origins[1].revision, origins[1].basis) == (2, LAST_CHANGED)
    assert origins[0].revision == 1 and origins[3].revision == 3


def test_an_edited_paragraph_that_also_moved_is_followed_and_dated_by_its_change() -> None:
    corrected = COST.replace("48 million", "84 million")
    origins = provenance_of(
        article(LEDE, COST, START, CAMPAIGN),
        article(LEDE, START, CAMPAIGN, corrected),
    )
    assert origins[3] == BlockOrigin(first=1, changed=2)


def test_a_split_paragraph_keeps_its_first_revision_and_is_changed_in_the_split() -> None:
    joined = f"{LEDE} {COST}"
    origins = provenance_of(
        article(joined, START), article(joined, START), article(LEDE, COST, START)
    )
    assert origins[:2] == (BlockOrigin(1, 3), BlockOrigin(1, 3))
    assert origins[2] == BlockOrigin(1)


def test_a_paragraph_removed_and_put_back_is_new_again() -> None:
    origins = provenance_of(
        article(LEDE, COST, START), article(LEDE, START), article(LEDE, COST, START)
    )
    assert origins[1] == BlockOrigin(3)


def test_a_position_no_entry_names_counts_as_added() -> None:
    diff: dict[str, JSON] = {"blocks": [{"op": "kept", "old": 0, "new": 0}]}
    assert block_provenance([1, 4], [1, 2], [diff]) == (BlockOrigin(1), BlockOrigin(4))


def test_lengths_that_disagree_are_refused() -> None:
    with pytest.raises(ValueError, match="one diff per pair"):
        block_provenance([1, 2], [1, 1], [])
    assert block_provenance([], [], []) == ()
