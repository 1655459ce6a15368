"""A diff for the terminal: the verdict first, then each changed block word by word.

The text is plain; ``style(role, text)`` decides how removed and added words (and
headings) look. The default writes wdiff's markers, ``[-removed-]`` and ``{+added+}``,
which survive a pipe or a log; the command line passes a colouring style when stdout is
a terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from quietedit.analysis.align import ADDED, KEPT, MERGED, MOVED, REMOVED, SPLIT
from quietedit.analysis.classify import Classification
from quietedit.analysis.diff import BlockChange, RevisionDiff
from quietedit.analysis.words import DELETE, EQUAL, INSERT, Segment

Style = Callable[[str, str], str]
"""``style(role, text)`` with role ``removed``, ``added`` or ``heading``."""

REMOVED_ROLE: Final = "removed"
ADDED_ROLE: Final = "added"
HEADING_ROLE: Final = "heading"
_SEEN: Final = {True: "yes", False: "no", None: "not checked"}


def plain_style(role: str, text: str) -> str:
    """wdiff's markers for removed and added text; everything else as it is."""
    if role == REMOVED_ROLE:
        return f"[-{text}-]"
    if role == ADDED_ROLE:
        return f"{{+{text}+}}"
    return text


def render_diff(
    diff: RevisionDiff,
    classification: Classification,
    *,
    heading: str = "",
    style: Style = plain_style,
) -> str:
    """The whole report: ``heading``, verdict, findings, signals, title and changed blocks."""
    lines = [style(HEADING_ROLE, heading)] if heading else []
    if not diff.changed:
        verdict = "no change"
    elif classification.silent:
        verdict = "silent: the publisher showed no sign of this edit"
    else:
        verdict = "admitted: the publisher showed a sign of this edit"
    lines.append(f"{classification.significance.label} · {verdict}")
    for found in classification.findings:
        lines.append(f"  {found.kind} ({found.significance.label})")
        lines += [f"    {line}" for line in found.evidence]
    lines.append("signals:")
    lines += [
        f"  {signal.name}: {_SEEN[signal.seen]} ({signal.evidence})"
        for signal in classification.signals
    ]
    lines.append("")
    if diff.title.op == KEPT:
        lines.append(f"title: {diff.title.text}")
    else:
        lines.append(f"title: {render_words(diff.title.words, style)}")
    kept = 0
    for block in diff.blocks:
        if block.op == KEPT:
            kept += 1
            continue
        lines.append("")
        lines.append(style(HEADING_ROLE, _label(block)))
        lines.append(_body(block, style))
    lines.append("")
    lines.append(f"({kept} block{'s' if kept != 1 else ''} kept)")
    return "\n".join(lines) + "\n"


def render_words(segments: Sequence[Segment], style: Style = plain_style) -> str:
    """One word diff as text, white space at the end of a change kept outside its marks."""
    out = []
    index = 0
    while index < len(segments):
        op, text = segments[index]
        if op == EQUAL:
            out.append(text)
            index += 1
            continue
        removed = text if op == DELETE else ""
        added = text if op == INSERT else ""
        if op == DELETE and index + 1 < len(segments) and segments[index + 1][0] == INSERT:
            added = segments[index + 1][1]
            index += 1
        index += 1
        trail = _common_trailing_space(removed, added)
        if removed:
            out.append(style(REMOVED_ROLE, removed[: len(removed) - len(trail)]))
        if added:
            out.append(style(ADDED_ROLE, added[: len(added) - len(trail)]))
        out.append(trail)
    return "".join(out)


def _common_trailing_space(removed: str, added: str) -> str:
    sides = [side for side in (removed, added) if side]
    trails = [side[len(side.rstrip()) :] for side in sides]
    return trails[0] if all(t == trails[0] for t in trails) else ""


def _label(block: BlockChange) -> str:
    if block.op == ADDED:
        return f"block {block.new[0] + 1} added"
    if block.op == REMOVED:
        return f"old block {block.old[0] + 1} removed"
    if block.op == MOVED:
        return f"block {block.new[0] + 1} moved from {block.old[0] + 1}"
    if block.op == SPLIT:
        news = ", ".join(str(j + 1) for j in block.new)
        return f"old block {block.old[0] + 1} split into blocks {news}"
    if block.op == MERGED:
        olds = ", ".join(str(i + 1) for i in block.old)
        return f"old blocks {olds} merged into block {block.new[0] + 1}"
    return f"block {block.new[0] + 1} changed (similarity {block.similarity:.2f})"


def _body(block: BlockChange, style: Style) -> str:
    if block.text is not None:
        role = {ADDED: ADDED_ROLE, REMOVED: REMOVED_ROLE}.get(block.op)
        return style(role, block.text) if role else block.text
    # a split's parts are new blocks, one per line; a merge's are one new block
    joiner = "\n" if block.op == SPLIT else ""
    return joiner.join(render_words(part, style) for part in block.words)
