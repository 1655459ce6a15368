"""``quietedit reextract``: read every revision's stored page again with the current
extractor, and keep the readings that differ as derived records (:mod:`.derived`).

Gather (a document's revisions and derived records, each revision's WARC payload, its
SHA-256 checked against the revision), decide
(:func:`~quietedit.decide.rereading.plan_reading`, pure: is there a new
reading to keep?), apply (a create-only derived record). A revision is never rewritten or
deleted. The page is read by :func:`~quietedit.decide.reading.read_page`, the very path an
ingest reads a fetched page through, so a re-extraction gives what an ingest with this
extractor would have stored.

Idempotent: a revision whose current reading (its newest derived record, else the
revision itself) equals what the extractor makes of its page gets nothing, and one already
read by this extractor version is not read again. Crash-safe: each record is written
complete or not at all, and a run killed midway is finished by running it again. A
revision whose evidence is missing, damaged or not the page it names is reported, and the
run goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Final, Literal

from quietedit.archive.derived import current_readings, derived_to_record, new_derived
from quietedit.archive.evidence import is_evidence_file_name
from quietedit.archive.files import create_file
from quietedit.archive.layout import revision_name
from quietedit.archive.readings import derived_folder, derived_readings
from quietedit.archive.records import dump_json
from quietedit.archive.store import Archive
from quietedit.archive.warc import read_payload
from quietedit.article.extract import EXTRACTOR_VERSION
from quietedit.decide.reading import read_page
from quietedit.decide.rereading import plan_reading
from quietedit.errors import QuieteditError
from quietedit.revisions import EvidenceRef, Revision

logger = logging.getLogger(__name__)

Outcome = Literal["written", "unchanged", "done", "no-evidence", "missing", "damaged"]
OUTCOMES: Final[tuple[Outcome, ...]] = (
    "written",  # a derived record was written
    "unchanged",  # the extractor reads the page as it was last recorded
    "done",  # this extractor version has read the revision already
    "no-evidence",  # the revision names no WARC record (an anomaly-free schema-1 page, none)
    "missing",  # its WARC file is not in the evidence folder
    "damaged",  # the record is absent, cut off, or not the bytes the revision names
)


@dataclass(frozen=True, slots=True)
class RereadProblem:
    """Why one revision was not re-read: ``where`` the revision file, ``message`` why."""

    where: str
    outcome: Outcome
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclass(slots=True)
class ReextractReport:
    """What a run did: how many revisions had each outcome, the derived records written
    (paths) and a problem per revision whose page could not be read."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))
    written: list[str] = field(default_factory=list)
    problems: list[RereadProblem] = field(default_factory=list)

    @property
    def damaged(self) -> bool:
        return any(problem.outcome == "damaged" for problem in self.problems)


def reextract(
    archive: Archive,
    evidence: Path,
    *,
    since: datetime | None = None,
    documents: Iterable[str] | None = None,
    max_bytes: int,
    extractor: str = EXTRACTOR_VERSION,
    progress: Callable[[int, int], None] | None = None,
) -> ReextractReport:
    """Re-read the revisions of ``documents`` (default: every document on disk) observed at
    or after ``since`` from the WARC files in ``evidence``; pages above ``max_bytes`` (the
    fetcher's cap, which every stored page met) are damaged. See the module docstring."""
    report = ReextractReport()
    ids = list(documents) if documents is not None else archive.document_ids()
    for done, document in enumerate(ids, start=1):
        try:
            _reextract_document(archive, document, evidence, report, since=since,
                                max_bytes=max_bytes, extractor=extractor)  # fmt: skip
        except QuieteditError as exc:  # one unreadable document never stops the run
            report.problems.append(RereadProblem(document, "damaged", str(exc)))
            report.counts["damaged"] += 1
        if progress is not None:
            progress(done, len(ids))
    return report


def _reextract_document(
    archive: Archive,
    document: str,
    evidence: Path,
    report: ReextractReport,
    *,
    since: datetime | None,
    max_bytes: int,
    extractor: str,
) -> None:
    revisions = archive.revisions(document)
    readings = derived_readings(archive, document)
    current = current_readings(readings)
    number = len(readings)
    for revision in revisions:
        if since is not None and revision.observation.observed_at < since:
            continue
        where = str(archive.revision_file(document, revision.number))
        now = current.get(revision.number)
        if now is not None and now.extractor == extractor:
            report.counts["done"] += 1
            continue
        page = _page(revision, evidence, where, max_bytes=max_bytes)
        if isinstance(page, RereadProblem):
            report.problems.append(page)
            report.counts[page.outcome] += 1
            continue
        body, content_type = page
        reading = read_page(body, url=revision.observation.url, content_type=content_type)
        kept = plan_reading(revision, now, reading.article)
        if kept is None:
            report.counts["unchanged"] += 1
            continue
        number += 1
        record = new_derived(revision, kept, number=number, extractor=extractor,
                             fingerprint=reading.fingerprint)  # fmt: skip
        path = derived_folder(archive, document) / revision_name(document, number)
        create_file(archive.layout.tmp_dir, path, dump_json(derived_to_record(record)))
        current[revision.number] = record
        report.written.append(str(path))
        report.counts["written"] += 1
        logger.info("%s: revision %d reads differently now: %s", document, revision.number, path)


def _page(
    revision: Revision, evidence: Path, where: str, *, max_bytes: int
) -> tuple[bytes, str | None] | RereadProblem:
    """The revision's page (body, content type) from its WARC record, or why not."""
    reference = revision.observation.evidence
    if not isinstance(reference, EvidenceRef):
        what = "no evidence" if reference is None else "only a schema-1 page hash"
        return RereadProblem(where, "no-evidence", f"names {what}, no WARC record to re-read")
    if not is_evidence_file_name(reference.file):
        return RereadProblem(where, "damaged", f"evidence file {reference.file!r} is no name")
    path = evidence / reference.file
    try:
        payload = read_payload(path, reference.record, max_bytes=max_bytes)
    except FileNotFoundError:
        month = reference.file.split("/", 1)[0]
        return RereadProblem(
            where,
            "missing",
            f"missing: evidence file {reference.file} is not in {evidence} "
            f"(download it from the release evidence-{month})",
        )
    except OSError as exc:
        return RereadProblem(where, "damaged", f"cannot read {path}: {exc.strerror}")
    if payload is None:
        return RereadProblem(
            where, "damaged", f"evidence record {reference.record} is not whole in {path}"
        )
    if payload.truncated:
        return RereadProblem(
            where,
            "damaged",
            f"evidence record {reference.record} is larger than {max_bytes} bytes, more "
            "than any page stored",
        )
    if payload.sha256 != reference.sha256:
        return RereadProblem(
            where,
            "damaged",
            f"evidence record {reference.record} in {reference.file} has payload "
            f"{payload.sha256}, not {reference.sha256}: not the page the revision read",
        )
    return payload.body, payload.content_type
