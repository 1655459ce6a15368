"""The edit between two revisions of a live blog: the posts both show, and the frame (pure).

Two revisions of a live blog differ by every post published between them and every post
that dropped off the page, none of which is an edit. Given each revision's posts as block
ranges (the layouts the ingest records, :mod:`quietedit.decide.liveblog`) and the posts
the live updates in between published, :func:`live_projection` compares what was known
just before the new revision was stored with what it shows:

- the old side is the old revision's frame and posts, with the posts published since by
  live updates (their text as the update recorded it); of these, only the posts the new
  revision still shows, and those it deleted, are compared;
- the new side is the new revision's frame and the posts that were known before it; the
  posts new in the check that stored it are live updates, not part of the edit.

So a post published as a live update and corrected before the next revision shows as
changed, a deleted post as removed, and posts published or paged out in between not at
all. The frame (headline, standfirst, key points: blocks outside every post) is always
compared. The diff and classification of the two projected articles are then written in
the revisions' own terms (:func:`in_revision_terms`): block positions index the revisions'
block lists (``null`` for an old block known from a live update: its text is in that
event, not in the old revision), and evidence lines count in them too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from quietedit.article.liveblog import LiveEntry
from quietedit.model import JSON, Article, Block

_PLACE: Final = re.compile(r"\b(old blocks?|was block|moved from|blocks?) (\d+)(?:-(\d+))?\b")
"""How the analysis names a place ("block 3", "old blocks 2-4", "(was block 5)", "moved
from 4"): counted from 1 in the new revision, in the old one after "old", "was", "from"."""
_OLD_SIDE: Final = frozenset({"old block", "old blocks", "was block", "moved from"})


@dataclass(frozen=True, slots=True)
class PublishedPost:
    """A post a live update published: its key and its blocks as the event recorded them."""

    key: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class Projection:
    """The two articles compared, and for each of their blocks its position in the
    revision it came from (``None``: known from a live update)."""

    old: Article
    new: Article
    old_positions: tuple[int | None, ...]
    new_positions: tuple[int | None, ...]


def live_projection(
    old: Article,
    new: Article,
    old_layout: Sequence[LiveEntry],
    new_layout: Sequence[LiveEntry],
    *,
    published: Sequence[PublishedPost] = (),
    removed: frozenset[str] | None = None,
) -> Projection:
    """``old`` and ``new`` as the edit between them compares them (see the module
    docstring). ``published`` are the posts live updates published between the two, newest
    first; ``removed`` the keys of the posts the new revision's check found deleted
    (``None``: unknown, then a post of the old revision missing above one both show)."""
    known: dict[str, list[tuple[Block, int | None]]] = {}
    order: list[str] = []  # newest first, as a page shows them
    for post in published:
        if post.key not in known:
            known[post.key] = [(block, None) for block in post.blocks]
            order.append(post.key)
    for entry in old_layout:
        if entry.key not in known:
            known[entry.key] = [(old.blocks[i], i) for i in _range(entry, old)]
            order.append(entry.key)
    new_keys = [entry.key for entry in new_layout]
    shown = set(new_keys)
    if removed is None:
        old_keys = [entry.key for entry in old_layout]
        lowest = max((i for i, key in enumerate(old_keys) if key in shown), default=-1)
        removed = frozenset(key for key in old_keys[:lowest] if key not in shown)
    sequence = [key for key in new_keys if key in known]
    for key in order:
        if key in removed and key not in shown:
            before = order[: order.index(key)]
            anchor = next((k for k in reversed(before) if k in sequence), None)
            sequence.insert(sequence.index(anchor) + 1 if anchor is not None else 0, key)
    kept = set(sequence)
    old_side = _framed(old, old_layout, [pair for key in sequence for pair in known[key]])
    new_side = _framed(
        new,
        new_layout,
        [
            (new.blocks[i], i)
            for entry in new_layout
            if entry.key in kept
            for i in _range(entry, new)
        ],
    )
    return Projection(
        Article(old.title, tuple(block for block, _ in old_side), old.publisher),
        Article(new.title, tuple(block for block, _ in new_side), new.publisher),
        tuple(position for _, position in old_side),
        tuple(position for _, position in new_side),
    )


def _range(entry: LiveEntry, article: Article) -> range:
    return range(min(entry.start, len(article.blocks)), min(entry.end, len(article.blocks)))


def _framed(
    article: Article, layout: Sequence[LiveEntry], posts: list[tuple[Block, int | None]]
) -> list[tuple[Block, int | None]]:
    """``posts`` between the article's frame blocks before the first post and the rest."""
    inside = {i for entry in layout for i in _range(entry, article)}
    first = min((entry.start for entry in layout), default=len(article.blocks))
    frame = [i for i in range(len(article.blocks)) if i not in inside]
    return [
        *((article.blocks[i], i) for i in frame if i < first),
        *posts,
        *((article.blocks[i], i) for i in frame if i >= first),
    ]


def in_revision_terms(
    diff: dict[str, JSON], classification: dict[str, JSON], projection: Projection
) -> tuple[dict[str, JSON], dict[str, JSON]]:
    """The Diff JSON and Classification JSON of the projected articles, their block
    positions and evidence lines mapped back to the revisions' blocks."""
    old, new = projection.old_positions, projection.new_positions
    blocks = diff.get("blocks")
    mapped: dict[str, JSON] = dict(diff)
    if isinstance(blocks, list):
        entries: list[JSON] = []
        for entry in blocks:
            if isinstance(entry, dict):
                entry = dict(entry)
                if "old" in entry:
                    entry["old"] = _mapped(entry["old"], old)
                if "new" in entry:
                    entry["new"] = _mapped(entry["new"], new)
            entries.append(entry)
        mapped["blocks"] = entries
    return mapped, _classification_in_terms(classification, old, new)


def _mapped(value: JSON, positions: Sequence[int | None]) -> JSON:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(positions):
        return positions[value]
    if isinstance(value, list):
        return [_mapped(item, positions) for item in value]
    return value


def _classification_in_terms(
    classification: dict[str, JSON], old: Sequence[int | None], new: Sequence[int | None]
) -> dict[str, JSON]:
    findings = classification.get("findings")
    if not isinstance(findings, dict):
        return classification

    def number(value: str, positions: Sequence[int | None]) -> str:
        at = int(value)
        if not 1 <= at <= len(positions):
            return value
        position = positions[at - 1]
        return "(from a live update)" if position is None else str(position + 1)

    def renumber(match: re.Match[str]) -> str:
        positions = old if match[1] in _OLD_SIDE else new
        text = f"{match[1]} {number(match[2], positions)}"
        return text + (f"-{number(match[3], positions)}" if match[3] else "")

    def place(text: JSON) -> JSON:
        return _PLACE.sub(renumber, text) if isinstance(text, str) else text

    out: dict[str, JSON] = {}
    for kind, finding in findings.items():
        if isinstance(finding, dict):
            finding = dict(finding)
            evidence = finding.get("evidence")
            if isinstance(evidence, list):
                finding["evidence"] = [place(line) for line in evidence]
            sentences = finding.get("sentences")
            if isinstance(sentences, list):
                finding["sentences"] = [
                    {**item, "where": place(item.get("where"))} if isinstance(item, dict) else item
                    for item in sentences
                ]
        out[kind] = finding
    return {**classification, "findings": out}
