"""The content hash ignores what no reader calls an edit and sees everything else."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from quietedit.article.fingerprint import content_hash, fold_text
from quietedit.model import Article, Block


def article(*texts: str, title: str = "Minister resigns") -> Article:
    return Article(title=title, blocks=tuple(Block(t) for t in texts))


def test_typographic_variants_and_spacing_fold_away() -> None:
    plain = article('He said "no" - twice.', "It's over...")
    fancy = article(
        "He\u00a0said \u201cno\u201d \u2014 twice. ", "It\u2019s\u00ad over\u2026", "  \u200b "
    )
    assert content_hash(plain) == content_hash(fancy)


def test_a_changed_number_name_or_case_changes_the_hash() -> None:
    base = content_hash(article("Turnout was 61 percent, said Anna Berg."))
    for edited in (
        "Turnout was 16 percent, said Anna Berg.",
        "Turnout was 61 percent, said Anne Berg.",
        "Turnout was 61 percent, said anna Berg.",
    ):
        assert content_hash(article(edited)) != base


def test_title_and_block_order_are_part_of_the_content() -> None:
    base = content_hash(article("One.", "Two."))
    assert content_hash(article("Two.", "One.")) != base
    assert content_hash(article("One.", "Two.", title="Minister quits")) != base
    assert content_hash(article("One. Two.")) != base


def test_block_kind_is_not_content() -> None:
    as_paragraph = Article(title="t", blocks=(Block("Reaction"),))
    as_heading = Article(title="t", blocks=(Block("Reaction", kind="heading"),))
    assert content_hash(as_paragraph) == content_hash(as_heading)


@given(st.text(max_size=200))
def test_folding_is_idempotent(text: str) -> None:
    assert fold_text(fold_text(text)) == fold_text(text)


@given(st.lists(st.text(max_size=50), max_size=8), st.text(max_size=50))
def test_hash_is_stable_and_well_formed(texts: list[str], title: str) -> None:
    value = content_hash(article(*texts, title=title))
    assert value == content_hash(article(*texts, title=title))
    assert value.startswith("sha256:") and len(value) == 71
