"""Where each block of an article's newest revision comes from (pure).

For every block of the newest revision, the revision it first appeared in and the revision
its text last changed in, following the blocks through the diffs of consecutive revisions
exactly as the diff pairs them (:mod:`quietedit.analysis.diff`, its Diff JSON):

==========================  ===============================================================
op of the diff entry        what the new block inherits
==========================  ===============================================================
``kept``, ``moved`` (same   the old block's first revision and last change: a move is
text)                       followed, not a new block
``changed``, ``moved``      the old block's first revision; its last change is the new
(edited)                    revision
``split``                   each new block: the old block's first revision, changed in the
                            new revision
``merged``                  the earliest first revision of the old blocks, changed in the
                            new revision
``added`` (or a position    first appeared in the new revision, never changed since
no entry names)
==========================  ===============================================================

A block removed and later put back is a new block from the revision that put it back: the
diff of those two revisions sees no block to pair it with. A block's *provenance* is the
revision of its last change when it has one (``last changed``), else the revision it first
appeared in (``first appeared``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from quietedit.model import JSON

FIRST_APPEARED: Final = "first-appeared"
LAST_CHANGED: Final = "last-changed"


@dataclass(frozen=True, slots=True)
class BlockOrigin:
    """Where one block of the newest revision comes from.

    ``first`` is the number of the revision its lineage first appeared in, ``changed`` the
    revision its text last changed in (``None``: never changed since it appeared).
    """

    first: int
    changed: int | None = None

    @property
    def revision(self) -> int:
        """The block's provenance: its last change, else its first appearance."""
        return self.changed if self.changed is not None else self.first

    @property
    def basis(self) -> str:
        """``"last-changed"`` or ``"first-appeared"``: which one :attr:`revision` is."""
        return LAST_CHANGED if self.changed is not None else FIRST_APPEARED

    def to_list(self) -> list[JSON]:
        """``[first, changed]``, the compact form of the JSON API."""
        return [self.first, self.changed]


def block_provenance(
    numbers: Sequence[int], block_counts: Sequence[int], diffs: Sequence[Mapping[str, JSON]]
) -> tuple[BlockOrigin, ...]:
    """The origin of each block of the newest revision, in its order.

    ``numbers`` are the revisions' numbers oldest first, ``block_counts`` how many blocks
    each has, and ``diffs`` the Diff JSON of each consecutive pair (one fewer). Positions
    a malformed entry names outside a revision are ignored; a new block no entry names is
    counted as added. Raises ``ValueError`` when the three lengths disagree.
    """
    if len(numbers) != len(block_counts) or len(diffs) != max(len(numbers) - 1, 0):
        raise ValueError(
            f"{len(numbers)} revisions, {len(block_counts)} block counts and {len(diffs)} "
            "diffs: give one diff per pair of consecutive revisions"
        )
    if not numbers:
        return ()
    origins = [BlockOrigin(numbers[0]) for _ in range(block_counts[0])]
    for step, diff in enumerate(diffs):
        number = numbers[step + 1]
        origins = _carried(origins, diff, number=number, size=block_counts[step + 1])
    return tuple(origins)


def _carried(
    old: list[BlockOrigin], diff: Mapping[str, JSON], *, number: int, size: int
) -> list[BlockOrigin]:
    """The origins of the ``size`` blocks of revision ``number`` from those of the one before."""
    new: list[BlockOrigin | None] = [None] * size
    entries = diff.get("blocks")
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        op = entry.get("op")
        olds = [i for i in _positions(entry.get("old")) if 0 <= i < len(old)]
        news = [i for i in _positions(entry.get("new")) if 0 <= i < size]
        if not olds or not news:
            continue  # added (left for the default below) or removed
        first = min(old[i].first for i in olds)
        same = op == "kept" or (op == "moved" and "words" not in entry)
        for j in news:
            new[j] = old[olds[0]] if same else BlockOrigin(first, number)
    return [origin if origin is not None else BlockOrigin(number) for origin in new]


def _positions(value: JSON) -> list[int]:
    """A Diff JSON position or list of positions as a list of ints."""
    items = value if isinstance(value, list) else [value]
    return [i for i in items if isinstance(i, int) and not isinstance(i, bool)]
