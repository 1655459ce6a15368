"""The rules one archive file, or one link between two files, must satisfy (pure).

Shared by the full check (:mod:`quietedit.archive.verify`, every file) and the check of a
change (:mod:`quietedit.archive.audit`, only the files git says changed), so both apply
the same rules in the same words. Each function takes parsed records and returns messages;
the callers read the files and attach the paths.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Final

from quietedit.archive.eventrecords import check_event_record
from quietedit.archive.layout import (
    CHECKS_NAME_PATTERN,
    INDEX_SCHEMA,
    INDEX_SCHEMAS_READ,
    REVISION_DIGITS,
    SLUG_PATTERN,
    index_shard,
    is_partition,
    partition_of,
)
from quietedit.archive.records import (
    check_revision_record,
    check_state_record,
    dump_json,
)
from quietedit.article.identity import document_id, is_document_id
from quietedit.model import JSON, parse_timestamp

NOT_CANONICAL: Final = (
    "not in canonical form (sorted keys, 2-space indent, final newline); was it edited by hand?"
)
SCHEMA_1_ARCHIVE: Final = "schema-1 archive: run quietedit migrate"
UNFINISHED_MIGRATION: Final = "unfinished migration: rerun quietedit migrate"
INDEX_NAMES: Final = (
    "index files are named index/<hh>/<hhh>/entries[-shard-<k>-of-<n>]-<hhh>.json or "
    "index/<hh>/<hhh>/sealed-<NNNN>[-shard-<k>-of-<n>]-<hhh>.json "
    "(<hhh>: 3 hex digits, <hh>: its first 2)"
)
LEGACY_INDEX: Final = "index file in the layout before schema 3: run quietedit migrate"
FLAT_DOCUMENTS: Final = (
    "directly in its partition, not in its bucket <YYYY>/<MM>/<DD>/<bb>/<id>: run quietedit migrate"
)


@dataclass(frozen=True, slots=True, order=True)
class Problem:
    """One thing wrong with one file (or folder) of the archive."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def parse_record(data: bytes) -> tuple[JSON | None, list[str]]:
    """The JSON value in ``data`` (``None`` when it is not JSON) and the problems of its
    form: invalid UTF-8 or JSON, or JSON not written in the archive's one canonical form."""
    try:
        value: JSON = json.loads(data.decode("utf-8"))
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, a 5,000-digit number
        return None, [f"not valid UTF-8 JSON: {exc}"]
    try:
        canonical = dump_json(value) if isinstance(value, dict) else None
    except ValueError:
        canonical = None  # NaN or a lone surrogate: the record's own check says so
    if canonical is not None and canonical != data:
        return value, [NOT_CANONICAL]
    return value, []


def numbered_name_problem(
    number: str, *, what: str, tail: str | None = None, document: str = ""
) -> str | None:
    """Why a revision or derived record's file name ``<number>-<tail>.json`` (of
    ``document``) or an event file name ``<number>.json`` is not a valid one, if it is not."""
    if number != f"{int(number):0{REVISION_DIGITS}d}" or int(number) < 1:
        return f"{what} file name must be {REVISION_DIGITS} digits from 000001"
    if what != "event" and tail != document[-16:]:
        return (
            f"{what} file name must be <{REVISION_DIGITS} digits>-{document[-16:]}.json "
            "(the id's last 16 hex digits)"
        )
    return None


def index_problems(record: JSON, *, shard: str) -> list[str]:
    """Problems of a file of index shard ``shard``: the envelope (schema 4, or 3 of a
    shard not migrated yet: the same record; type
    ``index``, ``shard`` as its folder names it) and every entry a document id of this
    shard mapped to a partition."""
    if not isinstance(record, dict):
        return [f"an index record must be a JSON object, not {type(record).__name__}"]
    problems = []
    if record.get("schema") not in INDEX_SCHEMAS_READ:
        problems.append(
            f"schema: {record.get('schema')!r} is not {INDEX_SCHEMA}; written by another "
            "quietedit version (upgrade, or run quietedit migrate)"
        )
    if record.get("type") != "index":
        problems.append(f"type: {record.get('type')!r} is not 'index'")
    if record.get("shard") != shard:
        problems.append(f"shard: {record.get('shard')!r} does not match the folder name")
    documents = record.get("documents")
    if not isinstance(documents, dict):
        return [*problems, f"documents: {documents!r} is not an object of id: partition"]
    for document, partition in sorted(documents.items()):
        problems.extend(index_entry_problems(document, partition, shard=shard))
    unknown = sorted(set(record) - {"documents", "schema", "shard", "type"})
    if unknown:
        problems.append(f"unknown fields: {', '.join(unknown)}")
    return problems


def checks_file_problems(record: JSON, *, name: str, partition: str) -> list[str]:
    """Problems of a partition's checks file named ``name``: its name, the envelope (schema
    2, type ``checks``, ``partition`` as placed) and each entry a document id mapped to an
    object of ``http`` and ``schedule`` objects. (That each names a document of the
    partition is the caller's to check.)"""
    if not CHECKS_NAME_PATTERN.fullmatch(name):
        return ["unexpected file: a checks file is checks.json or checks-shard-<K>-of-<N>.json"]
    problems = check_state_record(record, kind="checks")
    if not isinstance(record, dict):
        return problems
    if record.get("partition") != partition:
        problems.append(f"partition: {record.get('partition')!r} is not {partition!r}")
    documents = record.get("documents")
    if not isinstance(documents, dict):
        return [*problems, f"documents: {documents!r} is not an object of id: entry"]
    for document, entry in sorted(documents.items()):
        if not is_document_id(document):
            problems.append(f"documents.{document}: not a document id (<host>-<16 hex digits>)")
        elif not isinstance(entry, dict) or not set(entry) <= {"http", "schedule"}:
            problems.append(f"documents.{document}: not an object of http and schedule")
        elif not all(isinstance(part, dict) for part in entry.values()):
            problems.append(f"documents.{document}: http and schedule must be objects")
    unknown = sorted(set(record) - {"documents", "partition", "schema", "type"})
    if unknown:
        problems.append(f"unknown fields: {', '.join(unknown)}")
    return problems


def checks_file_documents(record: JSON) -> list[str]:
    """The document ids a checks file names (well-formed or not)."""
    documents = record.get("documents") if isinstance(record, dict) else None
    return sorted(documents) if isinstance(documents, dict) else []


def index_entry_problems(document: str, partition: JSON, *, shard: str) -> list[str]:
    """Problems of one index entry ``document: partition`` in shard ``shard``."""
    if not is_document_id(document):
        return [f"documents.{document}: not a document id (<host>-<16 hex digits>)"]
    problems = []
    if index_shard(document) != shard:
        problems.append(f"documents.{document}: belongs in shard {index_shard(document)}")
    if not isinstance(partition, str) or not is_partition(partition):
        problems.append(f"documents.{document}: {partition!r} is not a partition (YYYY/MM/DD)")
    return problems


def index_entries(record: JSON) -> dict[str, str]:
    """The well-formed entries of an index shard record (id → partition)."""
    documents = record.get("documents") if isinstance(record, dict) else None
    if not isinstance(documents, dict):
        return {}
    return {
        document: partition
        for document, partition in documents.items()
        if is_document_id(document) and isinstance(partition, str) and is_partition(partition)
    }


def document_problems(record: JSON, *, document: str, partition: str) -> list[str]:
    """Problems of the document record of folder ``documents/<partition>/<document>``:
    the envelope, its id and URL, and that ``discovered_at`` falls on the partition's day."""
    problems = check_state_record(record, kind="document")
    if not isinstance(record, dict):
        return problems
    if record.get("id") != document:
        problems.append(f"id: {record.get('id')!r} does not match the folder name")
    url = record.get("url")
    if not isinstance(url, str):
        problems.append(f"url: {url!r} is not a string")
    elif document_id(url) != document:
        problems.append(f"url: {url!r} has id {document_id(url)}, not the folder's")
    key = "discovered_at" if "discovered_at" in record else "first_seen"
    seen = record.get(key)
    day = discovered_partition(record)
    if day is None:
        problems.append(f"{key}: {seen!r} is not an RFC 3339 time")
    elif day != partition:
        problems.append(f"{key}: {seen} is in partition {day}, but the folder is in {partition}")
    return problems


def discovered_partition(record: JSON) -> str | None:
    """The partition a document record's ``discovered_at`` names (``first_seen`` in
    records without it, as the store places them), ``None`` without either."""
    if not isinstance(record, dict):
        return None
    seen = record.get("discovered_at", record.get("first_seen"))
    if not isinstance(seen, str):
        return None
    try:
        return partition_of(parse_timestamp(seen))
    except ValueError:
        return None


def state_problems(record: JSON, *, kind: str, key: str, expected: str) -> list[str]:
    """Problems of a feed (``kind="feed"``, ``key="slug"``) or state file named
    ``<expected>.json``."""
    problems = []
    if not SLUG_PATTERN.fullmatch(expected):
        problems.append(f"{expected!r} is not a valid {key} ([a-z0-9-], 1-63 chars)")
    problems.extend(check_state_record(record, kind=kind))
    if isinstance(record, dict) and record.get(key) != expected:
        problems.append(f"{key}: {record.get(key)!r} does not match the file name")
    return problems


def departed_problems(record: JSON, *, slug: str, day: str) -> list[str]:
    """Problems of the day file ``departed/<day>/<slug>.json``: a state file's envelope,
    naming its feed and its day (a real one), with an ``entries`` object (its snapshots:
    :mod:`quietedit.decide.departed`)."""
    problems = state_problems(record, kind="departed", key="slug", expected=slug)
    problem = partition_problem(day)
    if problem is not None:
        problems.append(problem)
    if isinstance(record, dict):
        if record.get("day") != day:
            problems.append(f"day: {record.get('day')!r} does not match the file's folder")
        if not isinstance(record.get("entries"), dict):
            problems.append(f"entries: {record.get('entries')!r} is not an object")
    return problems


def revision_problems(record: JSON, *, document: str, number: int, deep: bool = True) -> list[str]:
    """Problems of revision ``number`` of ``document`` on its own: schema (1 or 2), own
    hash, content hash (unless not ``deep``), and that it names this document and number."""
    problems = check_revision_record(record, deep=deep)
    if problems or not isinstance(record, dict):
        return problems
    if record["document"] != document:
        problems.append(f"document: {record['document']!r} is not this folder's id")
    if record["number"] != number:
        problems.append(f"number: {record['number']!r} does not match the file name")
    return problems


def link_problems(before: dict[str, JSON], after: dict[str, JSON]) -> list[str]:
    """Problems of the link from revision ``before`` to its successor ``after`` (both
    without problems of their own): the chain, a change of content, time order."""
    problems = []
    if after["previous"] != before["hash"]:
        problems.append(
            f"previous: {after['previous']} breaks the chain; "
            f"revision {before['number']} has hash {before['hash']}"
        )
    if after["content_hash"] == before["content_hash"]:
        problems.append(
            f"content_hash equals revision {before['number']}'s: a revision must change the content"
        )
    if parse_timestamp(str(after["observed_at"])) < parse_timestamp(str(before["observed_at"])):
        problems.append(
            f"observed_at {after['observed_at']} is earlier than revision {before['number']}'s"
        )
    return problems


def event_problems(record: JSON, *, document: str, number: int) -> list[str]:
    """Problems of event ``number`` of ``document`` on its own (schema 1 or 2)."""
    problems = check_event_record(record)
    if problems or not isinstance(record, dict):
        return problems
    if record["document"] != document:
        problems.append(f"document: {record['document']!r} is not this folder's id")
    if record["number"] != number:
        problems.append(f"number: {record['number']!r} does not match the file name")
    return problems


def partition_problem(partition: str) -> str | None:
    """Why ``partition`` (``YYYY/MM/DD`` from a folder path) is no partition, if it is not."""
    if is_partition(partition):
        return None
    return f"{partition!r} is not a partition: YYYY/MM/DD of a real day"
