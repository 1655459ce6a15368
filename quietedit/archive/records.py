"""The archive's file formats: deterministic JSON, record hashes and schema checks (pure).

Every file carries ``"schema"``; a revision also carries ``"hash"``, the SHA-256 of its
own canonical JSON without that key, and ``"previous"``, its predecessor's ``hash``, so a
document's revisions form a chain that any edit, insertion or removal breaks.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Final

from quietedit.article.fingerprint import FINGERPRINT_VERSION, HASH_PREFIX, content_hash
from quietedit.errors import UnchangedContentError
from quietedit.model import (
    BLOCK_KINDS,
    JSON,
    PUBLISHER_FIELDS,
    PUBLISHER_LIST_FIELDS,
    Article,
    Block,
    Publisher,
    format_timestamp,
    parse_timestamp,
)
from quietedit.revisions import (
    SCHEMA_VERSION,
    EvidenceRef,
    Observation,
    Revision,
)

CREATE_ONLY_SCHEMAS: Final = frozenset({1, SCHEMA_VERSION})
"""Schemas a revision or event file may have: they are never rewritten, so every version
keeps reading the older ones (data/README.md, "Schema changes"). Mutable files (document,
feed, state and index records) are rewritten by ``quietedit migrate`` and must be
``SCHEMA_VERSION``."""

EVIDENCE_FILE_PATTERN: Final = re.compile(
    r"(?P<month>[0-9]{4}-[0-9]{2})/quietedit-(?P<stamp>[0-9]{8}T[0-9]{6}Z)"
    r"(?:-shard-(?P<index>[1-9][0-9]{0,3})-of-(?P<count>[1-9][0-9]{0,3}))?\.warc\.gz"
)
"""A WARC evidence file's name inside the evidence folder: its month, then the run's time
(and shard). Checked before any path is built from it."""
RECORD_ID_PATTERN: Final = re.compile(
    r"urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
)

SUPPORTED_FINGERPRINTS: Final = frozenset({FINGERPRINT_VERSION})
HASH_PATTERN: Final = re.compile(r"sha256:[0-9a-f]{64}")

REVISION_FIELDS: Final[dict[str, type | tuple[type, ...]]] = {
    "blocks": list,
    "content_hash": str,
    "document": str,
    "encoding": (dict, type(None)),
    "evidence": (dict, str, type(None)),
    "extractor": str,
    "fingerprint": int,
    "hash": str,
    "http": (dict, type(None)),
    "number": int,
    "observed_at": str,
    "previous": (str, type(None)),
    "publisher": dict,
    "schema": int,
    "title": str,
    "url": str,
}

OPTIONAL_REVISION_FIELDS: Final[dict[str, type | tuple[type, ...]]] = {
    "signals": dict,
}
"""Fields a revision record may lack: older records were written without them, and a
record's hash covers exactly the fields it has."""

SIGNAL_KINDS: Final = ("feed_updated", "sitemap_lastmod")
"""The claims a revision's ``signals`` records: a feed entry's ``updated`` date, a sitemap's
``lastmod``; each ``{"feed": <slug>, "value": <date as written> | null}``."""


def dump_json(record: Mapping[str, JSON]) -> bytes:
    """The one serialisation of archive files: sorted keys, two-space indent, UTF-8, newline.

    Same record, same bytes, so git diffs stay small and builds reproducible (data/README.md,
    "Deterministic JSON"; ``quietedit verify`` checks every file against it). Non-ASCII text
    is written as itself, not as ``\\u`` escapes. Raises ``ValueError`` for NaN/infinity
    or text that is not valid Unicode (a lone surrogate).
    """
    text = json.dumps(record, ensure_ascii=False, indent=2, sort_keys=True, allow_nan=False)
    return (text + "\n").encode("utf-8")


def digest(data: bytes) -> str:
    """``sha256:<hex>`` of ``data``: the form every hash in the archive takes."""
    return HASH_PREFIX + hashlib.sha256(data).hexdigest()


def record_hash(record: Mapping[str, JSON]) -> str:
    """The hash of a record: SHA-256 of its compact canonical JSON without ``"hash"``."""
    body = {key: value for key, value in record.items() if key != "hash"}
    canonical = json.dumps(
        body, ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False
    )
    return digest(canonical.encode("utf-8"))


def new_revision(
    document: str,
    observation: Observation,
    *,
    previous: Revision | None,
    fingerprint: str | None = None,
) -> Revision:
    """Number, fingerprint and chain ``observation`` as the successor of ``previous``.

    Raises ``UnchangedContentError`` when the content hash equals ``previous``'s: the
    archive never stores two consecutive revisions with the same content.
    """
    if fingerprint is None:  # a caller that has just hashed the article passes it along
        fingerprint = content_hash(observation.article)
    if previous is not None and previous.content_hash == fingerprint:
        raise UnchangedContentError(
            f"documents/{document}",
            f"content {fingerprint} is unchanged since revision {previous.number}",
        )
    draft = Revision(
        document=document,
        number=1 if previous is None else previous.number + 1,
        observation=observation,
        content_hash=fingerprint,
        fingerprint=FINGERPRINT_VERSION,
        previous=None if previous is None else previous.hash,
        hash="",  # filled in below: the hash covers every other field
    )
    return replace(draft, hash=record_hash(revision_to_record(draft)))


def revision_to_record(revision: Revision) -> dict[str, JSON]:
    """The JSON object stored for ``revision`` (``signals`` only when it has them)."""
    observation = revision.observation
    record: dict[str, JSON] = {
        "blocks": [
            {"kind": block.kind, "text": block.text} for block in observation.article.blocks
        ],
        "content_hash": revision.content_hash,
        "document": revision.document,
        "encoding": observation.encoding,
        "evidence": evidence_to_record(observation.evidence),
        "extractor": observation.extractor,
        "fingerprint": revision.fingerprint,
        "hash": revision.hash,
        "http": observation.http,
        "number": revision.number,
        "observed_at": format_timestamp(observation.observed_at),
        "previous": revision.previous,
        "publisher": observation.article.publisher.to_record(),
        "schema": revision.schema,
        "title": observation.article.title,
        "url": observation.url,
    }
    if observation.signals is not None:
        record["signals"] = observation.signals
    return record


def check_revision_record(record: object, *, deep: bool = True) -> list[str]:
    """Every schema and self-consistency problem of one revision record, as messages.

    Checks types, the schema version, the hash formats and the record's own hash, and with
    ``deep`` the content hash recomputed from title and blocks (the costly part: the
    archive's readers skip it, ``verify`` never does). Chain checks need the neighbours
    and live in ``verify``.
    """
    if not isinstance(record, dict):
        return [f"a revision must be a JSON object, not {type(record).__name__}"]
    problems = _check_fields(record, REVISION_FIELDS, optional=OPTIONAL_REVISION_FIELDS)
    if problems:
        return problems
    if record["schema"] not in CREATE_ONLY_SCHEMAS:
        problems.append(
            f"schema {record['schema']!r} is not one of {sorted(CREATE_ONLY_SCHEMAS)}; "
            "written by another quietedit version (upgrade quietedit)"
        )
        return problems
    if "signals" in record:
        problems.extend(_check_signals(record["signals"]))
    if record["number"] < 1:
        problems.append(f"number: {record['number']} is not a positive revision number")
    for key in ("content_hash", "hash", "previous"):
        value = record[key]
        if value is not None and not HASH_PATTERN.fullmatch(value):
            problems.append(f"{key}: {value!r} is not a sha256:<64 hex digits> hash")
    problems.extend(_check_evidence(record["evidence"], schema=record["schema"]))
    if (record["number"] == 1) != (record["previous"] is None):
        problems.append(
            "previous: must be null exactly for revision 1, "
            f"found {record['previous']!r} on revision {record['number']}"
        )
    try:
        parse_timestamp(record["observed_at"])
    except ValueError:
        problems.append(f"observed_at: {record['observed_at']!r} is not an RFC 3339 time")
    problems.extend(_check_blocks(record["blocks"]))
    problems.extend(_check_publisher(record["publisher"]))
    if problems:
        return problems
    try:
        recorded = record_hash(record)
    except ValueError as exc:  # NaN or infinity in a hand-edited record: not JSON as written
        return [f"not canonical JSON ({exc})"]
    if record["hash"] != recorded:
        problems.append(f"hash: recorded {record['hash']} but the content hashes to {recorded}")
    if record["fingerprint"] not in SUPPORTED_FINGERPRINTS:
        problems.append(f"fingerprint: version {record['fingerprint']} is unknown")
    elif deep:
        recomputed = content_hash(_article_of(record))
        if record["content_hash"] != recomputed:
            problems.append(
                f"content_hash: recorded {record['content_hash']} "
                f"but title and blocks hash to {recomputed}"
            )
    return problems


def revision_from_record(record: Mapping[str, JSON]) -> Revision:
    """The ``Revision`` of a record that :func:`check_revision_record` found no problem in."""
    encoding = record["encoding"]
    http = record["http"]
    observation = Observation(
        url=str(record["url"]),
        observed_at=parse_timestamp(str(record["observed_at"])),
        article=_article_of(record),
        extractor=str(record["extractor"]),
        evidence=evidence_from_record(record["evidence"]),
        encoding=encoding if isinstance(encoding, dict) else None,
        http=http if isinstance(http, dict) else None,
        signals=signals if isinstance(signals := record.get("signals"), dict) else None,
    )
    number = record["number"]
    fingerprint = record["fingerprint"]
    if not isinstance(number, int) or not isinstance(fingerprint, int):
        raise ValueError("revision record is not checked: number/fingerprint not integers")
    return Revision(
        document=str(record["document"]),
        number=number,
        observation=observation,
        content_hash=str(record["content_hash"]),
        fingerprint=fingerprint,
        previous=_optional_str(record["previous"]),
        hash=str(record["hash"]),
        schema=_schema(record),
    )


def evidence_to_record(evidence: EvidenceRef | str | None) -> JSON:
    """A revision's ``evidence`` field: the WARC record's place, or a schema-1 page hash."""
    if isinstance(evidence, EvidenceRef):
        return {"file": evidence.file, "record": evidence.record, "sha256": evidence.sha256}
    return evidence


def evidence_from_record(value: JSON) -> EvidenceRef | str | None:
    """The ``evidence`` of a checked record (:func:`evidence_to_record` reversed)."""
    if isinstance(value, dict):
        return EvidenceRef(
            file=str(value["file"]), record=str(value["record"]), sha256=str(value["sha256"])
        )
    return None if value is None else str(value)


def _check_evidence(value: JSON, *, schema: JSON) -> list[str]:
    """Schema 1 names a page kept in the archive by its hash; schema 2 a WARC record."""
    if value is None:
        return []
    if schema == 1:
        if isinstance(value, str) and HASH_PATTERN.fullmatch(value):
            return []
        return [f"evidence: {value!r} is not a sha256:<64 hex digits> hash"]
    if (
        not isinstance(value, dict)
        or set(value) != {"file", "record", "sha256"}
        or not all(isinstance(part, str) for part in value.values())
    ):
        return [f"evidence: {value!r} is not {{'file': str, 'record': str, 'sha256': str}}"]
    problems = []
    if not EVIDENCE_FILE_PATTERN.fullmatch(str(value["file"])):
        problems.append(
            f"evidence.file: {value['file']!r} is not a WARC name "
            "(<YYYY>-<MM>/quietedit-<YYYYMMDD>T<HHMMSS>Z[-shard-<k>-of-<n>].warc.gz)"
        )
    if not RECORD_ID_PATTERN.fullmatch(str(value["record"])):
        problems.append(f"evidence.record: {value['record']!r} is not a urn:uuid: record id")
    if not HASH_PATTERN.fullmatch(str(value["sha256"])):
        problems.append(f"evidence.sha256: {value['sha256']!r} is not a sha256:<64 hex> hash")
    return problems


def _schema(record: Mapping[str, JSON]) -> int:
    schema = record["schema"]
    if not isinstance(schema, int):
        raise ValueError("record is not checked: schema is not an integer")
    return schema


def claims_changed(old: Revision, new: Revision) -> dict[str, bool | None]:
    """Whether each source claim changed between two revisions' fetches, keyed as the
    analysis's ``ExternalSignals`` fields: ``feed_updated_changed``, ``sitemap_lastmod_changed``.

    ``None`` (not checked) unless both revisions recorded the claim from the same feed; a
    claim is its date as written, so a source that starts or stops giving one changed it.
    """
    found: dict[str, bool | None] = {}
    for kind in SIGNAL_KINDS:
        before, after = _claim(old, kind), _claim(new, kind)
        same_source = before is not None and after is not None and before[0] == after[0]
        found[f"{kind}_changed"] = (before != after) if same_source else None
    return found


def _claim(revision: Revision, kind: str) -> tuple[str, str] | None:
    """(feed, date as written, "" for none) of one claim of ``revision``, if recorded."""
    signals = revision.observation.signals or {}
    claim = signals.get(kind)
    if not isinstance(claim, dict) or not isinstance(claim.get("feed"), str):
        return None
    value = claim.get("value")
    return str(claim["feed"]), value.strip() if isinstance(value, str) else ""


def _check_signals(signals: JSON) -> list[str]:
    if not isinstance(signals, dict):
        return [f"signals: {signals!r} is not an object"]
    problems = []
    for kind, claim in sorted(signals.items()):
        if kind not in SIGNAL_KINDS:
            problems.append(f"signals.{kind}: unknown; expected one of {list(SIGNAL_KINDS)}")
        elif (
            not isinstance(claim, dict)
            or set(claim) != {"feed", "value"}
            or not isinstance(claim["feed"], str)
            or not isinstance(claim["value"], str | None)
        ):
            problems.append(
                f"signals.{kind}: {claim!r} is not {{'feed': str, 'value': str or null}}"
            )
    return problems


def _check_blocks(blocks: list[JSON]) -> list[str]:
    problems = []
    for index, block in enumerate(blocks):
        if (
            not isinstance(block, dict)
            or set(block) != {"kind", "text"}
            or not isinstance(block["text"], str)
            or block["kind"] not in BLOCK_KINDS
        ):
            problems.append(
                f"blocks[{index}]: {block!r} is not "
                f"{{'kind': one of {sorted(BLOCK_KINDS)}, 'text': str}}"
            )
    return problems


def _check_publisher(publisher: dict[str, JSON]) -> list[str]:
    problems = []
    for key, value in sorted(publisher.items()):
        if key not in PUBLISHER_FIELDS:
            problems.append(f"publisher.{key}: unknown field")
        elif key in PUBLISHER_LIST_FIELDS:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                problems.append(f"publisher.{key}: {value!r} is not a list of strings")
        elif value is not None and not isinstance(value, str):
            problems.append(f"publisher.{key}: {value!r} is not a string or null")
    return problems


def _article_of(record: Mapping[str, JSON]) -> Article:
    blocks = record["blocks"]
    publisher = record["publisher"]
    if not isinstance(blocks, list) or not isinstance(publisher, dict):
        raise ValueError("revision record is not checked: blocks or publisher malformed")
    return Article(
        title=str(record["title"]),
        blocks=tuple(
            Block(text=str(block["text"]), kind=str(block["kind"]))
            for block in blocks
            if isinstance(block, dict)
        ),
        publisher=Publisher.from_record(publisher),
    )


def _optional_str(value: JSON) -> str | None:
    return None if value is None else str(value)


def _check_fields(
    record: dict[str, JSON],
    fields: Mapping[str, type | tuple[type, ...]],
    *,
    optional: Mapping[str, type | tuple[type, ...]] | None = None,
) -> list[str]:
    """Missing, unknown and mistyped fields of ``record`` against ``fields`` (required)
    and ``optional``."""
    problems: list[str] = []
    missing = sorted(set(fields) - set(record))
    fields = {**fields, **(optional or {})}
    unknown = sorted(set(record) - set(fields))
    if missing:
        problems.append(f"missing fields: {', '.join(missing)}")
    if unknown:
        problems.append(f"unknown fields: {', '.join(unknown)}")
    for key, expected in fields.items():
        value = record.get(key)
        # bool is an int to Python but not to a reader of the JSON
        wrong = not isinstance(value, expected) or (isinstance(value, bool) and expected is int)
        if key in record and wrong:
            problems.append(f"{key}: {value!r} has the wrong type")
    return problems


def check_state_record(record: object, *, kind: str) -> list[str]:
    """Problems of a mutable state file: a JSON object with this ``schema`` and ``type``.

    State files are free to grow new keys within a schema version; only the envelope is
    checked here.
    """
    if not isinstance(record, dict):
        return [f"a {kind} record must be a JSON object, not {type(record).__name__}"]
    problems = []
    if record.get("schema") != SCHEMA_VERSION:
        problems.append(
            f"schema: {record.get('schema')!r} is not {SCHEMA_VERSION}; "
            "written by another quietedit version (upgrade, or run quietedit migrate)"
        )
    if record.get("type") != kind:
        problems.append(f"type: {record.get('type')!r} is not {kind!r}")
    return problems
