"""Reading a document's derived series: its revisions' pages as later extractors read them.

The records are written by ``quietedit reextract`` (:mod:`quietedit.archive.reextract`);
their format is :mod:`quietedit.archive.derived`. The site build reads them here when it
shows the text as re-extracted, without loading the WARC reader or the extractor.
"""

from __future__ import annotations

from pathlib import Path

from quietedit.archive.derived import DerivedReading, check_derived_record, derived_from_record
from quietedit.archive.files import listdir, load_json
from quietedit.archive.layout import DERIVED_FOLDER, revision_name
from quietedit.archive.store import Archive
from quietedit.errors import ArchiveError


def derived_readings(archive: Archive, document: str) -> list[DerivedReading]:
    """The document's derived records, oldest first, each checked on the way in (its own
    hash; ``quietedit verify`` checks the rest). ``ArchiveError`` for a gap or a bad one."""
    folder = derived_folder(archive, document)
    found = []
    for number, name in enumerate((n for n in listdir(folder) if n.endswith(".json")), 1):
        path = folder / name
        if path != folder / revision_name(document, number):
            raise ArchiveError(path, f"expected derived record {number} here; run quietedit verify")
        found.append(read_derived(path))
    return found


def read_derived(path: Path | str) -> DerivedReading:
    """One derived record, checked on the way in (its own hash; ``ArchiveError`` if it
    is not one)."""
    record = load_json(path)
    problems = check_derived_record(record, deep=False)
    if problems or not isinstance(record, dict):
        raise ArchiveError(path, "; ".join(problems))
    return derived_from_record(record)


def derived_folder(archive: Archive, document: str) -> Path:
    """The derived folder of a stored document, on disk (its folder is brought into a
    sparse checkout); ``ArchiveError`` if there is no such document."""
    return archive.document_dir(document) / DERIVED_FOLDER
