"""The request ledger's records (pure)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from quietedit.errors import ArchiveError
from quietedit.fetch import LedgerEntry, RequestLedger

AT = datetime(2026, 11, 30, 6, 0, 0, 250000, tzinfo=UTC)
ENTRY = LedgerEntry(AT, "https://news.example.org/feed.xml", "news.example.org", 200, 5120, 0.31, 0)


def test_records_are_json_ready_with_every_field() -> None:
    records = RequestLedger(
        [
            ENTRY,
            LedgerEntry(
                AT, "https://x.example/", "x.example", None, 0, 15.0, 2, "FetchTimeoutError"
            ),
        ]
    ).to_records()
    assert json.loads(json.dumps(records)) == records
    assert records[0] == {
        "at": "2026-11-30T06:00:00.250000Z",
        "url": "https://news.example.org/feed.xml",
        "host": "news.example.org",
        "status": 200,
        "bytes": 5120,
        "duration": 0.31,
        "attempt": 0,
        "error": None,
    }
    assert records[1]["status"] is None and records[1]["error"] == "FetchTimeoutError"


def test_records_round_trip() -> None:
    ledger = RequestLedger([ENTRY])
    assert list(RequestLedger.from_records(ledger.to_records())) == [ENTRY]


def test_for_host_selects_by_host_and_time() -> None:
    ledger = RequestLedger([ENTRY])
    assert ledger.for_host("news.example.org", since=AT) == [ENTRY]
    assert ledger.for_host("news.example.org", since=datetime(2026, 11, 30, 7, tzinfo=UTC)) == []
    assert ledger.for_host("other.example", since=AT) == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"at": "yesterday"}, "at"),
        ({"at": "2026-11-30T06:00:00"}, "at"),  # no zone
        ({"status": 42}, "status"),
        ({"status": "200"}, "status"),
        ({"bytes": -1}, "bytes"),
        ({"bytes": True}, "bytes"),
        ({"duration": "fast"}, "duration"),
        ({"attempt": 1.5}, "attempt"),
        ({"url": ""}, "url"),
        ({"error": 3}, "error"),
        ({"extra": 1}, "exactly the keys"),
    ],
)
def test_a_bad_record_names_its_place_and_field(change: dict[str, Any], message: str) -> None:
    records = RequestLedger([ENTRY, ENTRY]).to_records()
    records[1].update(change)
    with pytest.raises(ArchiveError, match=message) as caught:
        RequestLedger.from_records(records, source="data/state/ledger.json")
    assert caught.value.path == "data/state/ledger.json[1]"
