"""Derived readings: a revision's stored page read again by a later extractor (pure).

A revision records the text as first observed and is never rewritten. When the extractor
improves, ``quietedit reextract`` reads each revision's raw page again from its WARC
evidence and, where the text now comes out differently, stores the new reading as a
*derived record* in a create-only series of its own beside the revisions::

    documents/<YYYY>/<MM>/<DD>/<bb>/<id>/derived/<NNNNNN>-<tail>.json

numbered 1..n in the order they were written, ``<tail>`` being the id's last 16 hex digits
as in a revision's name. Each record names the revision it re-reads (``revision``, and
that revision's ``revision_hash``), the extractor that read it (``extractor``, the
:data:`~quietedit.article.extract.EXTRACTOR_VERSION` of the time), the evidence record it
read (``evidence``), and the new ``title``, ``blocks`` and ``publisher`` with their
``content_hash``; ``hash`` covers every other field, as a revision's does. A revision may
have several derived records, one per extractor version whose reading differed from the
one before; the newest is its current reading.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Final

from quietedit.archive.records import (
    CREATE_ONLY_SCHEMAS,
    HASH_PATTERN,
    SUPPORTED_FINGERPRINTS,
    _article_of,
    _check_blocks,
    _check_evidence,
    _check_fields,
    _check_publisher,
    evidence_from_record,
    evidence_to_record,
    record_hash,
)
from quietedit.article.fingerprint import FINGERPRINT_VERSION, content_hash
from quietedit.model import JSON, Article
from quietedit.revisions import SCHEMA_VERSION, EvidenceRef, Revision

DERIVED_FIELDS: Final[dict[str, type | tuple[type, ...]]] = {
    "blocks": list,
    "content_hash": str,
    "document": str,
    "evidence": dict,
    "extractor": str,
    "fingerprint": int,
    "hash": str,
    "number": int,
    "publisher": dict,
    "revision": int,
    "revision_hash": str,
    "schema": int,
    "title": str,
}


@dataclass(frozen=True, slots=True)
class DerivedReading:
    """Derived record ``number`` of ``document``: revision ``revision`` (whose own hash is
    ``revision_hash``) as ``extractor`` reads the page ``evidence`` names."""

    document: str
    number: int
    revision: int
    revision_hash: str
    extractor: str
    evidence: EvidenceRef
    article: Article
    content_hash: str
    fingerprint: int
    hash: str
    schema: int = SCHEMA_VERSION


def new_derived(
    revision: Revision,
    article: Article,
    *,
    number: int,
    extractor: str,
    fingerprint: str | None = None,
) -> DerivedReading:
    """Derived record ``number`` of ``revision``'s document: ``article``, its page as
    ``extractor`` reads it. ``revision`` must name WARC evidence (``ValueError`` if not)."""
    evidence = revision.observation.evidence
    if not isinstance(evidence, EvidenceRef):
        raise ValueError(f"revision {revision.number} names no WARC evidence to re-read")
    draft = DerivedReading(
        document=revision.document,
        number=number,
        revision=revision.number,
        revision_hash=revision.hash,
        extractor=extractor,
        evidence=evidence,
        article=article,
        content_hash=fingerprint if fingerprint is not None else content_hash(article),
        fingerprint=FINGERPRINT_VERSION,
        hash="",  # filled in below: the hash covers every other field
    )
    return replace(draft, hash=record_hash(derived_to_record(draft)))


def derived_to_record(reading: DerivedReading) -> dict[str, JSON]:
    """The JSON object stored for ``reading``."""
    article = reading.article
    return {
        "blocks": [{"kind": block.kind, "text": block.text} for block in article.blocks],
        "content_hash": reading.content_hash,
        "document": reading.document,
        "evidence": evidence_to_record(reading.evidence),
        "extractor": reading.extractor,
        "fingerprint": reading.fingerprint,
        "hash": reading.hash,
        "number": reading.number,
        "publisher": article.publisher.to_record(),
        "revision": reading.revision,
        "revision_hash": reading.revision_hash,
        "schema": reading.schema,
        "title": article.title,
    }


def derived_from_record(record: Mapping[str, JSON]) -> DerivedReading:
    """The reading of a record :func:`check_derived_record` found no problem in."""
    evidence = evidence_from_record(record["evidence"])
    if not isinstance(evidence, EvidenceRef):
        raise ValueError("derived record is not checked: evidence malformed")
    return DerivedReading(
        document=str(record["document"]),
        number=_integer(record, "number"),
        revision=_integer(record, "revision"),
        revision_hash=str(record["revision_hash"]),
        extractor=str(record["extractor"]),
        evidence=evidence,
        article=_article_of(record),
        content_hash=str(record["content_hash"]),
        fingerprint=_integer(record, "fingerprint"),
        hash=str(record["hash"]),
        schema=_integer(record, "schema"),
    )


def _integer(record: Mapping[str, JSON], key: str) -> int:
    value = record[key]
    if not isinstance(value, int):
        raise ValueError(f"derived record is not checked: {key} is not an integer")
    return value


def check_derived_record(record: object, *, deep: bool = True) -> list[str]:
    """Every schema and self-consistency problem of one derived record: fields and types,
    schema, hash formats, evidence, blocks, publisher, its own hash and (``deep``) its
    content hash recomputed from title and blocks. Links to the revision are the caller's
    (:func:`derived_link_problems`)."""
    if not isinstance(record, dict):
        return [f"a derived record must be a JSON object, not {type(record).__name__}"]
    problems = _check_fields(record, DERIVED_FIELDS)
    if problems:
        return problems
    if record["schema"] not in CREATE_ONLY_SCHEMAS - {1}:
        return [f"schema {record['schema']!r} is not {SCHEMA_VERSION}; upgrade quietedit"]
    for key in ("number", "revision"):
        if record[key] < 1:
            problems.append(f"{key}: {record[key]} is not a positive number")
    for key in ("content_hash", "hash", "revision_hash"):
        if not HASH_PATTERN.fullmatch(record[key]):
            problems.append(f"{key}: {record[key]!r} is not a sha256:<64 hex digits> hash")
    if not record["extractor"].strip():
        problems.append("extractor: empty; a derived record names the extractor that read it")
    problems.extend(_check_evidence(record["evidence"], schema=record["schema"]))
    problems.extend(_check_blocks(record["blocks"]))
    problems.extend(_check_publisher(record["publisher"]))
    if problems:
        return problems
    try:
        recorded = record_hash(record)
    except ValueError as exc:  # NaN or infinity in a hand-edited record
        return [f"not canonical JSON ({exc})"]
    if record["hash"] != recorded:
        problems.append(f"hash: recorded {record['hash']} but the content hashes to {recorded}")
    if record["fingerprint"] not in SUPPORTED_FINGERPRINTS:
        problems.append(f"fingerprint: version {record['fingerprint']} is unknown")
    elif deep and record["content_hash"] != (recomputed := content_hash(_article_of(record))):
        problems.append(
            f"content_hash: recorded {record['content_hash']} but title and blocks hash to "
            f"{recomputed}"
        )
    return problems


def derived_problems(record: JSON, *, document: str, number: int) -> list[str]:
    """Problems of derived record ``number`` of ``document`` on its own."""
    problems = check_derived_record(record)
    if problems or not isinstance(record, dict):
        return problems
    if record["document"] != document:
        problems.append(f"document: {record['document']!r} is not this folder's id")
    if record["number"] != number:
        problems.append(f"number: {record['number']!r} does not match the file name")
    return problems


def derived_link_problems(record: Mapping[str, JSON], revision: JSON) -> list[str]:
    """Problems of a sound derived ``record`` against the revision record it names
    (``None`` when no such revision file exists)."""
    if not isinstance(revision, dict):
        return [f"revision: {record['revision']} does not exist"]
    problems = []
    if record["revision_hash"] != revision.get("hash"):
        problems.append(
            f"revision_hash: {record['revision_hash']} is not revision {record['revision']}'s "
            f"hash {revision.get('hash')}"
        )
    if record["evidence"] != revision.get("evidence"):
        problems.append(
            f"evidence: not the record revision {record['revision']} names; a derived record "
            "re-reads its revision's own page"
        )
    return problems


def current_readings(readings: list[DerivedReading]) -> dict[int, DerivedReading]:
    """Each re-read revision's current reading (the newest derived record naming it)."""
    current: dict[int, DerivedReading] = {}
    for reading in sorted(readings, key=lambda found: found.number):
        current[reading.revision] = reading
    return current


def with_reading(revision: Revision, reading: DerivedReading | None) -> Revision:
    """``revision`` showing ``reading``'s text instead of the text first observed (for the
    site: never stored). Its ``hash`` becomes the derived record's, so nothing computed
    from the first text (a cached diff) is taken for the re-extracted one."""
    if reading is None:
        return revision
    observation = replace(revision.observation, article=reading.article)
    return replace(
        revision, observation=observation, content_hash=reading.content_hash, hash=reading.hash
    )
