"""Reading a document's numbered series: its revisions and events, each checked on the way in.

Revision and event files are create-only and numbered from 1 without a gap
(:mod:`quietedit.archive.layout` names them); :func:`numbered` lists a folder's files in
order and takes a gap or a stray name for damage. A revision is read either with its
schema and its own hash checked (:func:`read_revision`; the content hash recomputed and
the chain are for ``quietedit verify``), or shallow, its fields and types alone
(:func:`read_revision_shallow`: the site build and the export, before which CI runs
``quietedit verify``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Final

from quietedit.archive.eventrecords import check_event_record, event_from_record
from quietedit.archive.files import load_json
from quietedit.archive.layout import EVENTS_FOLDER, REVISIONS_FOLDER, event_name, revision_name
from quietedit.archive.records import (
    OPTIONAL_REVISION_FIELDS,
    REVISION_FIELDS,
    check_revision_record,
    revision_from_record,
)
from quietedit.errors import ArchiveError
from quietedit.revisions import Event, Revision

_KNOWN_FIELDS: Final = frozenset(REVISION_FIELDS) | frozenset(OPTIONAL_REVISION_FIELDS)


def read_revisions(home: Path, document: str, *, shallow: bool = False) -> list[Revision]:
    """The revisions of ``document`` in its folder ``home``, oldest first (``shallow``:
    read with :func:`read_revision_shallow`). ``ArchiveError`` for a gap, a stray name or
    a bad one."""
    folder = home / REVISIONS_FOLDER
    paths = numbered(folder, lambda n: folder / revision_name(document, n), what="revision")
    read = read_revision_shallow if shallow else read_revision
    return [read(path) for path in paths]


def read_latest_revision(folder: Path, *, shallow: bool = False) -> Revision | None:
    """The newest revision in the revisions ``folder``, or ``None`` when it holds none
    (``shallow``: read with :func:`read_revision_shallow`)."""
    paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
    read = read_revision_shallow if shallow else read_revision
    return read(paths[-1]) if paths else None


def read_events(home: Path, document: str) -> list[Event]:
    """The events of ``document`` in its folder ``home``, oldest first; ``ArchiveError``
    for a gap, a stray name or a bad one."""
    folder = home / EVENTS_FOLDER
    paths = numbered(folder, lambda n: folder / event_name(n), what="event")
    found = []
    for path in paths:
        record = load_json(path)
        problems = check_event_record(record)
        if problems or not isinstance(record, dict):
            raise ArchiveError(path, "; ".join(problems))
        found.append(event_from_record(record))
    return found


def read_revision(path: Path) -> Revision:
    """A revision checked on the way in: its schema and its own hash (not deep)."""
    record = load_json(path)
    problems = check_revision_record(record, deep=False)
    if problems or not isinstance(record, dict):
        raise ArchiveError(path, "; ".join(problems))
    return revision_from_record(record)


def read_revision_shallow(path: Path | str) -> Revision:
    """A revision whose fields and types are checked, its hashes not (``revisions``'s
    ``shallow`` read; the export reads the same way)."""
    record = load_json(path)
    if not isinstance(record, dict) or not set(REVISION_FIELDS) <= set(record) <= _KNOWN_FIELDS:
        raise ArchiveError(path, "not a revision record; run quietedit verify")
    wrong = [k for k, kind in REVISION_FIELDS.items() if not isinstance(record[k], kind)]
    if wrong:
        raise ArchiveError(path, f"{', '.join(wrong)}: wrong type; run quietedit verify")
    try:
        return revision_from_record(record)
    except (TypeError, ValueError) as exc:
        raise ArchiveError(path, f"unreadable revision ({exc}); run quietedit verify") from exc


def numbered(folder: Path, expected: Callable[[int], Path], *, what: str) -> list[Path]:
    """The files 1..n of a create-only series, in order; a gap or a stray name is an error."""
    paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
    for number, path in enumerate(paths, start=1):
        if path != expected(number):
            raise ArchiveError(path, f"expected {what} {number} here; run quietedit verify")
    return paths
