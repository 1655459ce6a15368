"""A document's row in the build cache (``documents`` table of
:mod:`~quietedit.publish.buildcache`): :class:`DocumentEntry`, what a build keeps of a
document, read back from its row with its checksum, its summary and edit references
parsed on first use and its edits' rows read only when asked for."""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from quietedit.errors import QuieteditError
from quietedit.publish import folding
from quietedit.publish.listing import DocumentSummary, EditRef
from quietedit.publish.pages import Edit

COLUMNS: Final = (
    "id, stamp, content, key, files, url, title, source, revisions, first_seen, last_seen,"
    " events, refs, partition, size, published, open_size, folded_size"
)
"""The columns of a document's :data:`Row`: all but the edits' rows and the checksums."""

Row = tuple[
    str, str, str, str, int, str | None, str, str, int, str, str, str, str, str, int, int, int, int
]
"""One document's row in the ``documents`` table, without its edits' rows and checksums.
The last three are derived, for the queries of :mod:`~quietedit.publish.catalog`: whether
it has pages (0 or 1) and its estimated bytes with pages and folded (``folding``)."""


class CacheDamagedError(QuieteditError):
    """A value of the build cache failed its check after the build had started using the
    cache: the build starts again as a full one."""


def _dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _crc(row: Row) -> int:
    """The checksum of a document's row: every field, in order (its ``repr``, which tells
    them and their types apart; made in C, so that loading a year's cache stays quick)."""
    return zlib.crc32(repr(row).encode())


@dataclass(slots=True)
class DocumentEntry:
    """One document as a build left it: keys at once; summary and edit references made
    from its cached row when first asked for; the full edits (:attr:`edits`) only then,
    read from the cache by ``loader`` for a cached document."""

    stamp: str
    content: str
    key: str
    files: int  # files it has on the site (none when it is folded away or unpublished)
    cached_summary: DocumentSummary | None = None
    cached_refs: tuple[EditRef, ...] | None = None  # one per edit, in the document's order
    rows: str | None = None  # the edits' rows as the cache holds them (JSON)
    parsed: list[Edit] | None = None
    row: Row | None = None  # what it was read from, written back as it was
    size: int = 0  # bytes of its files, whether written or folded away
    crc: int | None = None  # the checksum ``row`` was read with
    loader: Callable[[str], str] | None = None  # the edits' rows of a cached document
    restamp: bool = False  # read from the cache, then given a new stamp (and checksum)

    @classmethod
    def of(
        cls, stamp: str, content: str, key: str, files: int, *, summary: DocumentSummary,
        edits: list[Edit], refs: tuple[EditRef, ...], size: int,
    ) -> DocumentEntry:  # fmt: skip
        """The entry of a document this build rendered."""
        return cls(stamp, content, key, files, summary, refs, parsed=edits, size=size)

    # what a build asks of every document, read from the row without parsing it (the
    # row: id, stamp, content, key, files, url, title, source 7, revisions 8, first_seen
    # 9, last_seen 10, events 11, refs 12, partition 13, size 14)
    @property
    def id(self) -> str:
        return self.row[0] if self.row is not None else self.summary.id

    @property
    def source(self) -> str:
        return self.row[7] if self.row is not None else self.summary.source

    @property
    def partition(self) -> str:
        return self.row[13] if self.row is not None else self.summary.partition

    @property
    def month(self) -> str:
        """As :attr:`DocumentSummary.month`."""
        return self.partition[:7].replace("/", "-")

    @property
    def published(self) -> bool:
        """As :attr:`DocumentSummary.published`."""
        if self.row is None:
            return self.summary.published
        return self.row[8] > 1 or self.row[11] != "{}"

    @property
    def revisions(self) -> int:
        return self.row[8] if self.row is not None else self.summary.revisions

    @property
    def first_seen(self) -> str:
        return self.row[9] if self.row is not None else self.summary.first_seen

    @property
    def last_seen(self) -> str:
        return self.row[10] if self.row is not None else self.summary.last_seen

    @property
    def has_edits(self) -> bool:
        return self.row[12] != "[]" if self.row is not None else bool(self.refs)

    @property
    def has_events(self) -> bool:
        return self.row[11] != "{}" if self.row is not None else bool(self.summary.events)

    @property
    def summary(self) -> DocumentSummary:
        """What site-wide pages show of it (made from the row on first use)."""
        if self.cached_summary is None:
            self._parse()
        assert self.cached_summary is not None  # noqa: S101 - made by _parse
        return self.cached_summary

    @property
    def refs(self) -> tuple[EditRef, ...]:
        """One reference per edit (made from the row on first use)."""
        if self.cached_refs is None:
            self._parse()
        assert self.cached_refs is not None  # noqa: S101 - made by _parse
        return self.cached_refs

    def _parse(self) -> None:
        assert self.row is not None  # noqa: S101 - an entry has a row or its parts
        try:
            self.cached_summary, self.cached_refs = _parse_row(self.row)
        except (TypeError, ValueError) as exc:
            raise CacheDamagedError(f"build cache: document {self.row[0]!r}: {exc}") from exc

    @property
    def edits(self) -> list[Edit]:
        """The document's edits (made from the cached rows on first use)."""
        if self.parsed is None:
            rows = self.rows
            if rows is None and self.loader is not None:
                rows = self.rows = self.loader(self.id)
            try:
                found = json.loads(rows) if rows is not None else []
                self.parsed = [Edit.from_row(row) for row in found]
            except (TypeError, ValueError, KeyError, IndexError) as exc:
                raise CacheDamagedError(f"build cache: edits unreadable: {exc}") from exc
        return self.parsed

    def edit(self, number: int) -> Edit:
        """The edit whose newer revision is ``number`` (``KeyError`` when there is none)."""
        for edit in self.edits:
            if edit.number == number:
                return edit
        raise KeyError(number)

    def restamped(self, stamp: str) -> DocumentEntry:
        """The entry under a new stamp (its folders' times moved, its content did not):
        recorded, so that the next build need not hash its content again."""
        if stamp == self.stamp:
            return self
        if self.row is not None:  # only its stamp (and checksum) to be written again
            row: Row = (self.row[0], stamp, *self.row[2:])
            return DocumentEntry(
                stamp, self.content, self.key, self.files, self.cached_summary,
                self.cached_refs, self.rows, self.parsed, row=row, size=self.size,
                crc=_crc(row), loader=self.loader, restamp=True,
            )  # fmt: skip
        return DocumentEntry(
            stamp, self.content, self.key, self.files, self.summary, self.refs, self.rows,
            self.parsed, size=self.size, loader=self.loader,
        )  # fmt: skip

    def unlisted(self) -> DocumentEntry:
        """The entry of a document whose pages this build folded away (no files)."""
        return DocumentEntry(
            self.stamp, self.content, self.key, 0, self.summary, self.refs, self.rows,
            self.parsed, size=self.size, loader=self.loader,
        )  # fmt: skip

    def edits_row(self) -> str:
        """The edits' rows as the cache holds them (JSON)."""
        if self.rows is None and self.parsed is None and self.loader is not None:
            self.rows = self.loader(self.id)
        return self.rows if self.rows is not None else _dump([e.to_row() for e in self.edits])

    def to_row(self, doc: str) -> Row:
        """Its row in the ``documents`` table (without the edits' rows and checksums)."""
        if self.row is not None:
            return self.row
        s = self.summary
        refs = _dump([list(ref) for ref in self.refs])
        open_size, folded_size = folding.document_size(s.published, self.refs, self.size)
        return (
            doc, self.stamp, self.content, self.key, self.files, s.url, s.title, s.source,
            s.revisions, s.first_seen, s.last_seen, _dump(dict(sorted(s.events.items()))),
            refs, s.partition, self.size, int(s.published), open_size, folded_size,
        )  # fmt: skip

    def checksum(self, doc: str) -> int:
        """The checksum of :meth:`to_row` (the one it was read with, when unchanged)."""
        row = self.to_row(doc)
        return self.crc if row is self.row and self.crc is not None else _crc(row)

    @classmethod
    def from_row(
        cls, row: Row, crc: int | None = None, loader: Callable[[str], str] | None = None
    ) -> tuple[str, DocumentEntry]:
        """Read :meth:`to_row`'s output (its summary and references when asked for);
        ``crc``: the checksum it was stored with (``ValueError`` when it differs)."""
        if crc is not None and _crc(row) != crc:
            raise ValueError(f"document {row[0]!r}: checksum differs (damaged)")
        doc, stamp, content, key, files = row[:5]
        return doc, cls(stamp, content, key, files, row=row, size=row[14], crc=crc, loader=loader)


def _parse_row(row: Row) -> tuple[DocumentSummary, tuple[EditRef, ...]]:
    """The summary and edit references of a cached row; ``ValueError`` when it holds none."""
    doc, url, title, source, revisions = row[0], row[5], row[6], row[7], row[8]
    first_seen, last_seen, events, refs, partition = row[9:14]
    counts = {} if events == "{}" else json.loads(events)  # most documents have none
    if not isinstance(counts, dict) or not all(type(v) is int for v in counts.values()):
        raise ValueError("document entry: event counts of the wrong shape")
    summary = DocumentSummary(
        doc, url, title, source, revisions, first_seen, last_seen, counts, partition
    )
    return summary, tuple(edit_refs(doc, refs))


def edit_refs(doc: str, text: str) -> list[EditRef]:
    """The edit references of ``doc`` from their JSON in the cache (``ValueError`` when
    they are not of its shape or name another document)."""
    found = [] if text == "[]" else json.loads(text)  # most documents were never edited
    if not isinstance(found, list):
        raise ValueError("document entry: edit references are not a list")
    refs = [_ref(r, doc) for r in found]
    if len({r.number for r in refs}) != len(refs):
        raise ValueError("document entry: two edits of one number")
    return refs


def _ref(value: object, doc: str) -> EditRef:
    # the checksum vouches for the types (it is against damage); the shape and the
    # document are checked so that a reference can never stand for another document's edit
    if not isinstance(value, list) or len(value) != len(EditRef._fields) or value[3] != doc:
        raise ValueError("edit reference: wrong shape, or of another document")
    value[6] = tuple(value[6])
    value[11] = tuple(value[11])
    return EditRef._make(value)
