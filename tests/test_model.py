"""The shared values behave as frozen dataclasses: validated, immutable, comparable, picklable."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from quietedit.model import BLOCK_KINDS, Block


def test_a_block_of_every_kind_holds_its_text_and_kind() -> None:
    for kind in sorted(BLOCK_KINDS):
        block = Block("Text.", kind)
        assert (block.text, block.kind) == ("Text.", kind)
    assert Block("Text.").kind == "paragraph"
    assert Block(text="Text.", kind="quote") == Block("Text.", "quote")


def test_a_block_of_an_unknown_kind_is_refused_and_names_the_kinds() -> None:
    with pytest.raises(ValueError, match=r"block kind 'caption' is not one of \['heading'"):
        Block("A photo.", "caption")
    with pytest.raises(ValueError, match="block kind"):
        dataclasses.replace(Block("A photo."), kind="caption")


def test_a_block_is_frozen_hashable_and_survives_pickling() -> None:
    block = Block("A bridge opens.", "heading")
    with pytest.raises(dataclasses.FrozenInstanceError):
        block.text = "Another."  # type: ignore[misc]
    # The way worker processes hand blocks back: our own bytes, never untrusted ones.
    assert pickle.loads(pickle.dumps(block)) == block  # noqa: S301
    assert hash(Block("A bridge opens.", "heading")) == hash(block)
    assert block != Block("A bridge opens.")
    assert dataclasses.replace(block, text="B.") == Block("B.", "heading")
    assert repr(block) == "Block(text='A bridge opens.', kind='heading')"
    assert [field.name for field in dataclasses.fields(Block)] == ["text", "kind"]
