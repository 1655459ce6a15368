"""The archive's event records: an event's JSON object, read back and checked (pure).

An event (a removal, a redirect, a feed's claim: ``revisions.EVENT_KINDS``) is a
create-only file beside the revisions, with the same envelope (``schema``, ``type``)
and deterministic JSON as every record (``records``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from quietedit.archive.records import CREATE_ONLY_SCHEMAS, _check_fields, _schema
from quietedit.model import JSON, format_timestamp, parse_timestamp
from quietedit.revisions import EVENT_KINDS, Event


def event_to_record(event: Event) -> dict[str, JSON]:
    """The JSON object stored for ``event``."""
    return {
        "detail": event.detail,
        "document": event.document,
        "kind": event.kind,
        "number": event.number,
        "observed_at": format_timestamp(event.observed_at),
        "revision": event.revision,
        "schema": event.schema,
        "type": "event",
    }


def event_from_record(record: Mapping[str, JSON]) -> Event:
    """The ``Event`` of a record that :func:`check_event_record` found no problem in."""
    number, revision, detail = record["number"], record["revision"], record["detail"]
    if not isinstance(number, int) or not isinstance(detail, dict):
        raise ValueError("event record is not checked")
    return Event(
        document=str(record["document"]),
        number=number,
        kind=str(record["kind"]),
        observed_at=parse_timestamp(str(record["observed_at"])),
        revision=revision if isinstance(revision, int) else None,
        detail=detail,
        schema=_schema(record),
    )


EVENT_FIELDS: Final[dict[str, type | tuple[type, ...]]] = {
    "detail": dict,
    "document": str,
    "kind": str,
    "number": int,
    "observed_at": str,
    "revision": (int, type(None)),
    "schema": int,
    "type": str,
}


def check_event_record(record: object) -> list[str]:
    """Every schema problem of one event record, as messages."""
    if not isinstance(record, dict):
        return [f"an event must be a JSON object, not {type(record).__name__}"]
    problems = _check_fields(record, EVENT_FIELDS)
    if problems:
        return problems
    if record["schema"] not in CREATE_ONLY_SCHEMAS:
        problems.append(f"schema {record['schema']!r} is not one of {sorted(CREATE_ONLY_SCHEMAS)}")
    if record["type"] != "event":
        problems.append(f"type: {record['type']!r} is not 'event'")
    if record["kind"] not in EVENT_KINDS:
        problems.append(f"kind: {record['kind']!r} is not one of {sorted(EVENT_KINDS)}")
    if record["number"] < 1:
        problems.append(f"number: {record['number']} is not a positive event number")
    if record["revision"] is not None and record["revision"] < 1:
        problems.append(f"revision: {record['revision']} is not a revision number")
    try:
        parse_timestamp(record["observed_at"])
    except ValueError:
        problems.append(f"observed_at: {record['observed_at']!r} is not an RFC 3339 time")
    return problems
