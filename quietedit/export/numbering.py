"""The numbers of the export's texts (``texts.id``), fixed by the archive's listing (pure).

A text's number is also its row number in the full-text indexes, and FTS5 stores each
term's list of rows as the gaps between their numbers, in variable-length integers
(7 bits a byte), with the first number of each list in full. Numbers that count up
through the archive, each document's texts after the one before, keep the gaps small
and the file small; numbers fixed by a hash of the document (as before) spread them over
2**62 and made ``texts_fts`` nearly twice as big (166.6 MiB against 86.2 on a simulated
month of 37,000 documents; these numbers: 93.0). Yet an update (``quietedit export sqlite
--update``) must number a document's texts as a full export does without reading the
documents that did not change. So:

- Each document has a **slot**: the documents are taken in the archive's order
  (partition, then id), and each *partition* (a day of first sight) has room for its
  documents rounded up to a multiple of :data:`ROOM`, after the rooms of the days before
  it. A document's slot is its day's first slot plus its rank in the day (by id).
- A document's texts, in the order they first appear in its revisions, are numbered
  ``slot * SLOT + 1`` to ``slot * SLOT + SLOT`` (:data:`SLOT` = 128 texts, more than
  nearly every article has); a text past the 128th goes to the document's own range above
  :data:`OVERFLOW` (a live blog's, 2**20 texts long), so the number of texts a document
  has never moves another document's numbers.
- The slots move only when a day's set of documents changes (its ranks), or when a day's
  room changes (the slots of every later day). New documents go to the newest days, which
  an update reads again anyway; a day that gains or loses a document is read again whole,
  and one that outgrows its room moves the days after it, which are read again too
  (:func:`slots` of the old and the new listing tell which documents moved).

The numbers of a document depend only on the listing, never on the texts of other
documents or on what an export read before, so a full export and an update give the same
numbers, and no two documents' numbers can meet. A document of more than
:data:`MAX_TEXTS` distinct texts cannot be numbered: it is left out of the export with
the reason (:func:`text_number` raises :class:`~quietedit.errors.ExportError`).
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import groupby
from typing import Final

from quietedit.errors import ExportError

SLOT: Final = 128
"""Texts numbered in a document's slot: the gaps of the full-text index between one
document's texts and the next's stay under 128 (one byte) for a term in most documents.
A news article has about 10 to 60 distinct texts over its revisions."""
ROOM: Final = 256
"""A day's documents are given room for a multiple of this many: a day that gains a
document late (a shard's run committed after midnight) moves the days after it only
when it passes a multiple, and a day's spare room costs the index one wider gap."""
OVERFLOW: Final = 1 << 62
"""Where the texts past a document's :data:`SLOT` th are numbered: ``OVERFLOW +
slot * OVERFLOW_TEXTS + (place - SLOT)``, above every slot's numbers (a slot's are under
2**62 for any archive of fewer than 2**55 documents)."""
OVERFLOW_TEXTS: Final = 1 << 20
"""Texts past the first :data:`SLOT` that a document can have numbered."""
MAX_TEXTS: Final = SLOT + OVERFLOW_TEXTS
"""The most distinct texts a document can have numbered (1,048,704)."""
MAX_SLOT: Final = (1 << 42) - 1
"""The last slot whose overflow numbers stay under 2**63, SQLite's largest integer."""


def slots(listed: Iterable[tuple[str, str]]) -> dict[str, int]:
    """Each document's slot, from the listing of every document of the archive as
    ``(partition, id)`` pairs (any order)."""
    found: dict[str, int] = {}
    first = 0
    for _, day in groupby(sorted(listed), key=lambda pair: pair[0]):
        documents = [doc for _, doc in day]
        for rank, doc in enumerate(documents):
            found[doc] = first + rank
        first += -(-len(documents) // ROOM) * ROOM
    return found


def text_number(slot: int, place: int, *, document: str) -> int:
    """The number of the text at ``place`` (from 0, in the order the document's texts
    first appear) of the document in ``slot``; ``ExportError`` past :data:`MAX_TEXTS`."""
    if place < SLOT:
        return slot * SLOT + place + 1
    extra = place - SLOT
    if extra >= OVERFLOW_TEXTS or slot > MAX_SLOT:
        raise ExportError(
            document,
            f"more than {MAX_TEXTS:,} distinct texts, the most a document's texts can be "
            "numbered: the document is left out of the export",
        )
    return OVERFLOW + slot * OVERFLOW_TEXTS + extra
