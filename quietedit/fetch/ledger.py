"""The request ledger: one entry per HTTP request a run made, for politeness and the record (pure).

The hourly budget per host is counted from it exactly, and a run seeds it with the entries
of previous runs (``from_records``) so the budget holds across runs. ``to_records`` gives
JSON-ready values for the archive to store. No I/O here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from quietedit.errors import ArchiveError
from quietedit.model import JSON, format_timestamp, parse_timestamp

LEDGER_FIELDS: Final = ("at", "url", "host", "status", "bytes", "duration", "attempt", "error")


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One request: when it started (UTC), to which URL and host, and how it went.

    ``status`` is None when no response came (network error, timeout); ``bytes`` counts the
    body as it came over the wire (before decompression); ``duration`` is in seconds;
    ``attempt`` counts from 0 (0 is the first try, 1 the first retry); ``error`` is the
    failure's class name (``NetworkError``, ``ResponseTooLargeError``) or None.
    """

    at: datetime
    url: str
    host: str
    status: int | None
    bytes: int
    duration: float
    attempt: int
    error: str | None = None

    def to_record(self) -> dict[str, JSON]:
        """A JSON object with every field; times as RFC 3339 UTC strings."""
        return {
            "at": format_timestamp(self.at),
            "url": self.url,
            "host": self.host,
            "status": self.status,
            "bytes": self.bytes,
            "duration": round(self.duration, 6),
            "attempt": self.attempt,
            "error": self.error,
        }


class RequestLedger:
    """The requests of this run, after those of earlier runs it was seeded with, in order."""

    def __init__(self, entries: Iterable[LedgerEntry] = ()) -> None:
        self._entries: list[LedgerEntry] = list(entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[LedgerEntry]:
        return iter(self._entries)

    def append(self, entry: LedgerEntry) -> None:
        """Record one request."""
        self._entries.append(entry)

    def for_host(self, host: str, *, since: datetime) -> list[LedgerEntry]:
        """The entries of ``host`` that started at or after ``since``."""
        return [e for e in self._entries if e.host == host and e.at >= since]

    def to_records(self) -> list[dict[str, JSON]]:
        """Every entry as a JSON object (see ``LedgerEntry.to_record``), oldest first."""
        return [entry.to_record() for entry in self._entries]

    @classmethod
    def from_records(
        cls, records: Iterable[Mapping[str, object]], *, source: str = "ledger"
    ) -> RequestLedger:
        """Read ``to_records`` output back; raises ``ArchiveError`` naming ``source`` and the
        first bad record."""
        return cls(_entry(record, index, source) for index, record in enumerate(records))


def _entry(record: Mapping[str, object], index: int, source: str) -> LedgerEntry:
    where = f"{source}[{index}]"
    if not isinstance(record, Mapping) or set(record) != set(LEDGER_FIELDS):
        raise ArchiveError(where, f"needs exactly the keys {', '.join(LEDGER_FIELDS)}")

    def bad(key: str, expected: str) -> ArchiveError:
        return ArchiveError(
            where, f"{key}: {record[key]!r} is not {expected}; fix or drop the record"
        )

    def integer(key: str, expected: str, low: int, high: int | None = None) -> int:
        value = record[key]
        if (
            isinstance(value, int)
            and not isinstance(value, bool)
            and low <= value <= (value if high is None else high)
        ):
            return value
        raise bad(key, expected)

    def text(key: str, expected: str) -> str:
        value = record[key]
        if isinstance(value, str) and value:
            return value
        raise bad(key, expected)

    at = record["at"]
    try:
        moment = parse_timestamp(at) if isinstance(at, str) else None
    except ValueError:
        moment = None
    if moment is None:
        raise bad("at", "an RFC 3339 timestamp with a zone")
    duration = record["duration"]
    if not isinstance(duration, int | float) or isinstance(duration, bool) or not duration >= 0:
        raise bad("duration", "a number of seconds")
    error = record["error"]
    if error is not None and not isinstance(error, str):
        raise bad("error", "a string or null")
    return LedgerEntry(
        at=moment.astimezone(UTC),
        url=text("url", "a URL"),
        host=text("host", "a host name"),
        status=None if record["status"] is None else integer("status", "an HTTP status", 100, 999),
        bytes=integer("bytes", "a byte count", 0),
        duration=float(duration),
        attempt=integer("attempt", "an attempt number", 0),
        error=error,
    )
