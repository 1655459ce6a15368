"""Rebuild the new revision from the old one and a diff's JSON, checking it on the way.

This is what a reader of the Diff JSON format can do with it: if replaying every diff
gives back the new revision exactly, the format carries everything it claims to.
"""

from __future__ import annotations

from typing import Any

from quietedit.model import Article, Block


def new_side(words: list[list[str]]) -> str:
    return "".join(text for op, text in words if op != "-")


def old_side(words: list[list[str]]) -> str:
    return "".join(text for op, text in words if op != "+")


def same_but_space(a: str, b: str) -> bool:
    return "".join(a.split()) == "".join(b.split())


def replay(old: Article, record: dict[str, Any]) -> Article:
    """The new article's title and blocks from ``old`` and ``diff.to_dict()``.

    Kept and identical moved blocks are taken from ``old`` (and must match the JSON's
    text), changed ones from their words, whose old side must be the old text up to
    white space; every old and every new position must be accounted for exactly once.
    """
    title = record["title"]
    if title["op"] == "kept":
        assert title["text"] == old.title
        new_title = old.title
    else:
        assert same_but_space(old_side(title["words"]), old.title)
        new_title = new_side(title["words"])
    blocks: dict[int, Block] = {}
    seen_old: list[int] = []

    def put(position: int, text: str, kind: str) -> None:
        assert position not in blocks, f"new block {position} given twice"
        blocks[position] = Block(text, kind)

    for entry in record["blocks"]:
        op = entry["op"]
        if op in ("kept", "removed") or (op == "moved" and "text" in entry):
            source = old.blocks[entry["old"]].text
            assert entry["text"] == source
            seen_old.append(entry["old"])
            if op != "removed":
                put(entry["new"], source, entry["kind"])
        elif op == "added":
            put(entry["new"], entry["text"], entry["kind"])
        elif op in ("changed", "moved"):
            assert same_but_space(old_side(entry["words"]), old.blocks[entry["old"]].text)
            seen_old.append(entry["old"])
            put(entry["new"], new_side(entry["words"]), entry["kind"])
        elif op == "split":
            joined = "".join(old_side(part) for part in entry["words"])
            assert same_but_space(joined, old.blocks[entry["old"]].text)
            seen_old.append(entry["old"])
            for part, position, kind in zip(
                entry["words"], entry["new"], entry["kind"], strict=True
            ):
                put(position, new_side(part), kind)
        elif op == "merged":
            for part, position in zip(entry["words"], entry["old"], strict=True):
                assert same_but_space(old_side(part), old.blocks[position].text)
                seen_old.append(position)
            put(entry["new"], "".join(new_side(part) for part in entry["words"]), entry["kind"])
        else:
            raise AssertionError(f"unknown op {op!r}")
    assert sorted(seen_old) == list(range(len(old.blocks))), "every old block once"
    assert sorted(blocks) == list(range(len(blocks))), "every new position once"
    return Article(new_title, tuple(blocks[n] for n in range(len(blocks))), old.publisher)
