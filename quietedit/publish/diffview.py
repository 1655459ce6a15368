"""A diff as the diff page shows it (pure): aligned rows, word segments, the collapsed
view and the short excerpt that listings and feeds show.

Reads exactly the documented Diff JSON (``RevisionDiff.to_dict()``, typed here as
:class:`DiffJSON`) and the two revisions' blocks; every piece of text passes through
:func:`~quietedit.publish.text.clean_text`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final, NotRequired, TypeAlias, TypedDict, cast

from quietedit.model import JSON
from quietedit.publish.text import clean_text, cut_run
from quietedit.revisions import Revision

Segment: TypeAlias = tuple[str, str]
"""A run of a word diff: ``("=", text)`` kept, ``("-", text)`` removed, ``("+", text)`` added."""

Runs: TypeAlias = list[list[str]]
"""A word diff as the Diff JSON writes it: ``[[op, text], ...]``."""


class TitleJSON(TypedDict):
    """The Diff JSON's ``title``: ``kept`` with its ``text``, ``changed`` with ``words``."""

    op: str
    text: NotRequired[str]
    similarity: NotRequired[float]
    words: NotRequired[Runs]


class BlockJSON(TypedDict):
    """One entry of the Diff JSON's ``blocks`` (docs/diff-json.md: block entries).

    ``old`` is absent for an added block, ``new`` for a removed one; both are positions,
    and lists of positions on the many side of a split (``new``) or merge (``old``).
    ``words`` is one word diff, or one per part for a split or merge.
    """

    op: str
    old: NotRequired[int | list[int]]
    new: NotRequired[int | list[int]]
    kind: str | list[str]
    old_kind: NotRequired[str]
    similarity: NotRequired[float]
    text: NotRequired[str]
    words: NotRequired[Runs | list[Runs]]


class SummaryJSON(TypedDict):
    """The Diff JSON's ``summary``: a count per block op, words added and removed, flags."""

    kept: int
    added: int
    removed: int
    changed: int
    moved: int
    split: int
    merged: int
    words_added: int
    words_removed: int
    title_changed: bool
    cutoffs: list[str]


class DiffJSON(TypedDict):
    """``RevisionDiff.to_dict()``, the documented Diff JSON."""

    schema: int
    title: TitleJSON
    blocks: list[BlockJSON]
    summary: SummaryJSON


def diff_json(diff: dict[str, JSON]) -> DiffJSON:
    """``diff`` read as the Diff JSON it is (``Comparison.diff``: made by
    ``RevisionDiff.to_dict()``, or cached under the analysis version that made it)."""
    return cast(DiffJSON, diff)


EXCERPT_WORDS: Final = 40
"""Words of context-plus-change in an edit's excerpt: enough to read the change in a list."""

PARAGRAPH_BREAK: Final = "|"
"""A pseudo-op between the parts of a split or merged block: rendered as a ¶ mark."""


def title_segments(diff: dict[str, JSON]) -> tuple[Segment, ...]:
    """The headline's word diff when it changed, else none."""
    title = diff_json(diff)["title"]
    return _segments(title["words"]) if title["op"] == "changed" else ()


def block_segments(entry: BlockJSON) -> tuple[Segment, ...]:
    """A block entry's word diff (none for kept, added, removed and identical moved
    blocks); the parts of a split or merge joined with a :data:`PARAGRAPH_BREAK`."""
    if "words" not in entry:
        return ()
    if entry["op"] not in ("split", "merged"):
        return _segments(cast(Runs, entry["words"]))
    joined: list[Segment] = []
    for n, part in enumerate(cast(list[Runs], entry["words"])):
        if n:
            joined.append((PARAGRAPH_BREAK, ""))
        joined.extend(_segments(part))
    return tuple(joined)


def _segments(runs: Runs) -> tuple[Segment, ...]:
    return tuple([(op, clean_text(text)) for op, text in runs])


def excerpt_of(rows: tuple[DiffRow, ...], *, words: int = EXCERPT_WORDS) -> tuple[Segment, ...]:
    """A short excerpt around the first change: kept context trimmed, changes whole-ish."""
    for row in rows:
        if row.op == "changed" and any(op != "=" for op, _ in row.segments):
            return _trim(row.segments, words)
        if row.op in {"added", "removed"}:
            text = row.new_text if row.op == "added" else row.old_text
            return _trim((("+" if row.op == "added" else "-", text),), words)
    for row in rows:
        if row.op in {"moved", "split", "merged"}:
            return _trim((("=", row.new_text or row.old_text),), words)
    return ()


EXCERPT_CONTEXT: Final = 8
"""Unchanged words an excerpt keeps on each side of its changes."""


def _trim(segments: tuple[Segment, ...], budget: int) -> tuple[Segment, ...]:
    first = next((i for i, (op, _) in enumerate(segments) if op != "="), 0)
    out: list[Segment] = []
    context = EXCERPT_CONTEXT
    if first > 0 and segments[first - 1][0] == "=":
        lead = segments[first - 1][1].split()
        out.append(("=", ("… " if len(lead) > context else "") + " ".join(lead[-context:]) + " "))
    used = sum(len(t.split()) for _, t in out)
    for op, text in segments[first:]:
        words = text.split()
        if op == "=" and len(words) > context and out:
            # the words after a change: a few, as before it
            space = text[: len(text) - len(text.lstrip())]
            out.append((op, space + " ".join(words[:context]) + " …"))
            break
        if used + len(words) > budget:
            room = max(budget - used, 3)
            out.append((op, " ".join(words[:room]) + " …"))
            break
        out.append((op, text))
        used += len(words)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class DiffRow:
    """One aligned block of a diff, ready for the diff page.

    ``old_index``/``new_index`` are 0-based block positions (``None`` on the side where the
    block does not exist); ``segments`` holds the word diff of changed, split and merged
    blocks; ``anchor`` is this row's id and ``partner`` the id of the row a moved block's
    other end is shown at.
    """

    op: str
    old_index: int | None
    new_index: int | None
    old_text: str
    new_text: str
    segments: tuple[Segment, ...]
    anchor: str
    partner: str | None = None
    direction: str | None = None


def _positions(value: int | list[int] | None) -> tuple[int, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, int) else tuple(value)


def diff_rows(diff: dict[str, JSON], old: Revision, new: Revision) -> tuple[DiffRow, ...]:
    """The diff's block entries as rows; a moved block becomes a source and a target row."""
    old_texts = [clean_text(b.text) for b in old.article.blocks]
    new_texts = [clean_text(b.text) for b in new.article.blocks]
    rows: list[DiffRow] = []
    moves: list[DiffRow] = []
    for index, entry in enumerate(diff_json(diff)["blocks"]):
        olds, news = _positions(entry.get("old")), _positions(entry.get("new"))
        row = DiffRow(
            entry["op"],
            olds[0] if olds else None,
            news[0] if news else None,
            " ".join(old_texts[i] for i in olds),
            " ".join(new_texts[i] for i in news),
            block_segments(entry),
            anchor=f"b{index + 1}",
        )
        if row.op == "moved":
            moves.append(row)
        rows.append(row)
    return tuple(_link_moves(rows, moves))


def _link_moves(rows: list[DiffRow], moves: list[DiffRow]) -> list[DiffRow]:
    """Give each moved block a stub at its old place, linked both ways."""
    if not moves:
        return rows
    out: list[DiffRow] = []
    for row in rows:
        if row.op != "moved":
            out.append(row)
            continue
        source = f"{row.anchor}-from"
        moved_down = (row.new_index or 0) > (row.old_index or 0)
        out.append(
            DiffRow(
                "moved",
                row.old_index,
                row.new_index,
                row.old_text,
                row.new_text,
                row.segments,
                anchor=row.anchor,
                partner=source,
                direction="down" if moved_down else "up",
            )
        )
    # the stubs go where the old position falls among the rows, in old-text order
    for move in [r for r in out if r.op == "moved"]:
        stub = DiffRow(
            "moved-from",
            move.old_index,
            None,
            move.old_text,
            "",
            (),
            anchor=str(move.partner),
            partner=move.anchor,
            direction=move.direction,
        )
        position = len(out)
        for i, other in enumerate(out):
            if (
                other.op not in {"moved", "added"}
                and other.old_index is not None
                and move.old_index is not None
                and other.old_index > move.old_index
            ):
                position = i
                break
        out.insert(position, stub)
    return out


CONTEXT: Final = 1
"""Unchanged paragraphs shown around each change on a diff page; longer runs of unchanged
paragraphs become an "N unchanged" marker (the whole text of every revision is in the
document's JSON file and on the compare page)."""

CONTEXT_WORDS: Final = 10
"""Words of unchanged text shown as context: of an unchanged paragraph, its end before a
change, its start after one (in full between two changes), and the start of a paragraph
moved unchanged; in a changed paragraph, the words on each side of each change."""


def _head(text: str, words: int = CONTEXT_WORDS) -> str:
    parts = text.split()
    return text if len(parts) <= words else " ".join(parts[:words]) + " …"


def _tail(text: str, words: int = CONTEXT_WORDS) -> str:
    parts = text.split()
    return text if len(parts) <= words else "… " + " ".join(parts[-words:])


def collapsed(rows: tuple[DiffRow, ...], *, stubs: bool = True) -> tuple[DiffRow | int, ...]:
    """``rows`` with only the changes and ``CONTEXT`` kept rows around each, trimmed to
    ``CONTEXT_WORDS`` on the side away from the change (as is a paragraph moved without
    a change of words, and the unchanged words of a changed paragraph, by
    :func:`around_changes`); every longer run of kept rows becomes its length. ``stubs``: keep
    the stub at a moved block's old place (it links to the block's new place)."""
    shown = [r for r in rows if stubs or r.op != "moved-from"]
    change = [r.op != "kept" for r in shown]
    out: list[DiffRow | int] = []
    for i, row in enumerate(shown):
        before = any(change[max(0, i - CONTEXT) : i])
        after = any(change[i + 1 : i + CONTEXT + 1])
        if row.op == "moved" and not row.segments:
            out.append(replace(row, old_text=_head(row.old_text), new_text=_head(row.new_text)))
        elif row.segments:
            out.append(replace(row, segments=around_changes(row.segments)))
        elif row.op != "kept" or (before and after):
            out.append(row)
        elif before or after:
            cut = _head if before else _tail
            out.append(replace(row, old_text=cut(row.old_text), new_text=cut(row.new_text)))
        elif out and isinstance(out[-1], int):
            out[-1] += 1
        else:
            out.append(1)
    return tuple(out)


def around_changes(
    segments: tuple[Segment, ...], words: int = CONTEXT_WORDS
) -> tuple[Segment, ...]:
    """A word diff with its unchanged runs cut to ``words`` words beside each change (``…``
    where words were left out): the start of the first run and the end of the last go,
    a run between two changes keeps its two ends. The spaces at a run's ends stay, so
    that the words beside a change do not run into it."""
    if all(op == "=" for op, _ in segments):  # no change of words: nothing to stand beside
        return segments
    last = len(segments) - 1
    out: list[Segment] = []
    for n, (op, text) in enumerate(segments):
        out.append((op, text if op != "=" else cut_run(text, n=n, last=last, words=words)))
    return tuple(out)
