"""Values shared by every layer: articles, their blocks and publisher metadata, timestamps (pure).

All values are frozen; "update" one with :func:`dataclasses.replace`. The values the
archive keeps of each document (``Observation``, ``Revision``, ``Event``) are in
:mod:`quietedit.revisions`, so that extraction, which needs only these, does not pay for
making their classes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final, TypeAlias

JSON: TypeAlias = str | int | float | bool | list["JSON"] | dict[str, "JSON"] | None
"""A value that serialises to JSON as it is."""

BLOCK_KINDS: Final = frozenset({"paragraph", "heading", "list-item", "quote"})
"""What a body block can be; extraction marks each block with one of these."""


@dataclass(frozen=True, slots=True, init=False)
class Block:
    """One block of an article's body in reading order; ``kind`` is one of
    :data:`BLOCK_KINDS` (else ValueError)."""

    text: str
    kind: str = "paragraph"

    def __init__(self, text: str, kind: str = "paragraph") -> None:
        # Written out rather than generated: extraction makes tens of blocks a page, and
        # the generated __init__ of a frozen dataclass (object.__setattr__ per field, then
        # __post_init__ for the check) costs half again as much as this.
        if kind not in BLOCK_KINDS:
            raise ValueError(f"block kind {kind!r} is not one of {sorted(BLOCK_KINDS)}")
        _set_block_text(self, text)
        _set_block_kind(self, kind)


# The slots' own setters, which a frozen dataclass's __setattr__ does not guard.
_set_block_text: Final = vars(Block)["text"].__set__
_set_block_kind: Final = vars(Block)["kind"].__set__


@dataclass(frozen=True, slots=True)
class Publisher:
    """What the page says about itself: identity, dates, notes and byline, as written.

    Dates stay the publisher's raw text (JSON-LD, ``<meta>``, ``<time datetime>``); the
    analysis normalises them. None of this is part of the content hash: a new
    ``date_modified`` alone is not an edit, but it is the publisher admitting one.
    """

    canonical_url: str | None = None  # <link rel="canonical">
    og_url: str | None = None
    og_title: str | None = None
    headline: str | None = None  # JSON-LD "headline"
    date_published: str | None = None
    date_modified: str | None = None
    updated_line: str | None = None  # a visible "Updated 30 November 2026, 10:12" line
    notes: tuple[str, ...] = ()  # correction and editor's notes, as shown
    authors: tuple[str, ...] = ()
    language: str | None = None

    def to_record(self) -> dict[str, JSON]:
        """The JSON object stored in a revision (every key present, lists for tuples)."""
        return {
            name: list(value) if isinstance(value, tuple) else value
            for name in PUBLISHER_FIELDS
            for value in [getattr(self, name)]
        }

    @classmethod
    def from_record(cls, record: dict[str, JSON]) -> Publisher:
        """Read :meth:`to_record`'s output back; missing keys take their defaults."""
        values: dict[str, object] = {}
        for name, value in record.items():
            values[name] = tuple(str(v) for v in value) if isinstance(value, list) else value
        return cls(**values)  # type: ignore[arg-type]


PUBLISHER_FIELDS: Final = tuple(Publisher.__dataclass_fields__)
PUBLISHER_LIST_FIELDS: Final = frozenset({"notes", "authors"})


@dataclass(frozen=True, slots=True)
class Article:
    """What extraction makes of a page: the headline, the body blocks, publisher metadata."""

    title: str
    blocks: tuple[Block, ...] = ()
    publisher: Publisher = Publisher()


def format_timestamp(moment: datetime) -> str:
    """RFC 3339 in UTC with a ``Z``; microseconds only when present."""
    if moment.tzinfo is None:
        raise ValueError(f"timestamp {moment.isoformat()} has no timezone")
    text = moment.astimezone(UTC).isoformat()
    return text.removesuffix("+00:00") + "Z"


def parse_timestamp(text: str) -> datetime:
    """Read a timestamp written by :func:`format_timestamp` (any RFC 3339 offset is accepted)."""
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ValueError(f"timestamp {text!r} has no timezone")
    return moment.astimezone(UTC)
