"""One listed document's files read at once, for the export (I/O).

The export lists every document with its partition (:meth:`Archive.documents`), then
reads each one's record, revisions, events and derived records. Read through the
archive's API, each of the four looks the partition up in the index again and builds its
paths through the layout's checks, about 40 paths a document, which cost as much as the
JSON they lead to. Here the document's folder is built once, from the partition it was
listed in, and each file is checked as :meth:`Archive.revisions` (``shallow``),
:meth:`Archive.events`, :meth:`Archive.read_document` and
:func:`~quietedit.archive.readings.derived_readings` check it, with the same errors. A
document whose index entry names another partition, or whose folder a sparse checkout
left out, is read through the API, as before.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from quietedit.archive.derived import DerivedReading
from quietedit.archive.eventrecords import check_event_record, event_from_record
from quietedit.archive.files import load_json
from quietedit.archive.layout import (
    DERIVED_FOLDER,
    DOCUMENT_FILE,
    EVENTS_FOLDER,
    REVISION_DIGITS,
    REVISIONS_FOLDER,
    revision_name,
)
from quietedit.archive.readings import derived_readings, read_derived
from quietedit.archive.records import (
    check_state_record,
)
from quietedit.archive.store import Archive, read_revision_shallow
from quietedit.errors import ArchiveError
from quietedit.model import JSON
from quietedit.revisions import Event, Revision


@dataclass(frozen=True, slots=True)
class Read:
    """What the export reads of one document: ``derived_problem`` is why its derived
    records were left out (the revisions stand without them; verify names the problem)."""

    record: dict[str, JSON]
    revisions: list[Revision]
    events: list[Event]
    derived: list[DerivedReading]
    derived_problem: ArchiveError | None = None


def read_listed(archive: Archive, partition: str, document: str) -> Read:
    """The record (``{}`` without one), revisions, events and derived records (none
    without a revision) of the ``document`` listed in ``partition``; ``ArchiveError`` as
    the archive's API raises it."""
    home = os.fspath(archive.layout.document_dir(document, partition))
    inside = _listing(home)
    if inside is None or archive.partition(document) != partition:
        record = archive.read_document(document) or {}
        revisions = archive.revisions(document, shallow=True)
        events = archive.events(document)
        try:
            derived = derived_readings(archive, document) if revisions else []
        except ArchiveError as exc:
            return Read(record, revisions, events, [], exc)
        return Read(record, revisions, events, derived)
    # One listing of the folder says which of its files and series there are: most
    # documents have no events and no derived records, and their folders are not listed.
    record = (
        _record(archive, os.path.join(home, DOCUMENT_FILE), partition, document)
        if DOCUMENT_FILE in inside
        else {}
    )
    revisions = [
        read_revision_shallow(path)
        for path in _numbered(
            home, REVISIONS_FOLDER, inside, lambda n: revision_name(document, n), what="revision"
        )
    ]
    events = [
        _event(path)
        for path in _numbered(
            home, EVENTS_FOLDER, inside, lambda n: f"{n:0{REVISION_DIGITS}d}.json", what="event"
        )
    ]
    try:
        derived = _derived(home, inside, document) if revisions else []
    except ArchiveError as exc:
        return Read(record, revisions, events, [], exc)
    return Read(record, revisions, events, derived)


def _listing(folder: str) -> set[str] | None:
    """The names in ``folder``; ``None`` when it is not there (a sparse checkout)."""
    try:
        return set(os.listdir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return None


def _derived(home: str, inside: set[str], document: str) -> list[DerivedReading]:
    """The derived records in ``home``'s derived folder, oldest first, each read and
    checked by the archive's own :func:`~quietedit.archive.readings.read_derived`."""
    paths = _numbered(
        home, DERIVED_FOLDER, inside, lambda n: revision_name(document, n), what="derived record"
    )
    return [read_derived(path) for path in paths]


def _record(archive: Archive, path: str, partition: str, document: str) -> dict[str, JSON]:
    """The document's record with its checks entry laid over it (``read_document``)."""
    record = load_json(path)
    problems = check_state_record(record, kind="document")
    if problems or not isinstance(record, dict):
        raise ArchiveError(path, "; ".join(problems))
    entry = archive.checks.entry(partition, document, writer=archive.writer)
    return {**record, **entry} if entry else record


def _event(path: str) -> Event:
    record = load_json(path)
    problems = check_event_record(record)
    if problems or not isinstance(record, dict):
        raise ArchiveError(path, "; ".join(problems))
    return event_from_record(record)


def _numbered(
    home: str, series: str, inside: set[str], expected: Callable[[int], str], *, what: str
) -> list[str]:
    """The files 1..n of the create-only ``series`` of the document folder ``home``
    (whose names are ``inside``), in order; a gap or a stray name is an error. Paths are
    strings: a ``Path`` made for each file costs as much as reading a small one."""
    if series not in inside:
        return []
    folder = os.path.join(home, series)
    try:
        names = sorted(name for name in os.listdir(folder) if name.endswith(".json"))
    except (FileNotFoundError, NotADirectoryError):
        return []
    for number, name in enumerate(names, start=1):
        if name != expected(number):
            raise ArchiveError(
                Path(folder, name), f"expected {what} {number} here; run quietedit verify"
            )
    return [os.path.join(folder, name) for name in names]
