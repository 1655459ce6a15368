"""``quietedit export newsedits``: sentence pairs of every edit, as NewsEdits labels them.

One JSON object per line, one line per pair of consecutive revisions of every document
(documents sorted by partition and id, pairs oldest first): both revisions' sentences,
the matches between them and each sentence's label (:mod:`quietedit.analysis.newsedits`).
Fields are documented in docs/commands.md. The file is written beside ``OUT`` and renamed
over it when complete; the same archive gives the same bytes.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any, Final

from quietedit.analysis.newsedits import edits_record, sentence_edits
from quietedit.archive.store import Archive
from quietedit.errors import ExportError, QuieteditError
from quietedit.export.gather import source_of
from quietedit.export.rows import as_json
from quietedit.model import JSON, format_timestamp
from quietedit.revisions import Revision

logger = logging.getLogger(__name__)

NEWSEDITS_SCHEMA: Final = 1
"""The version of a line's fields; any change a reader would notice bumps it."""


@dataclass(slots=True)
class NewsEditsReport:
    out: Path
    lines: int = 0
    documents: int = 0
    failures: list[str] = field(default_factory=list)

    def summary(self) -> str:
        failed = f"; {len(self.failures)} documents could not be read" if self.failures else ""
        return f"{self.out}: {self.lines} revision pairs of {self.documents} documents{failed}"


def pair_record(
    document: str, source: str, url: str | None, old: Revision, new: Revision
) -> dict[str, JSON]:
    """One line: the two revisions and their labelled sentences."""
    edits = sentence_edits(
        [b.text for b in old.article.blocks], [b.text for b in new.article.blocks]
    )
    return {
        "document": document,
        "new": _revision(new),
        "old": _revision(old),
        "schema": NEWSEDITS_SCHEMA,
        "source": source,
        "url": url,
        **edits_record(edits),
    }


def _revision(rev: Revision) -> dict[str, JSON]:
    return {
        "hash": rev.hash,
        "number": rev.number,
        "observed_at": format_timestamp(rev.observation.observed_at),
        "title": rev.article.title,
    }


def document_lines(archive: Archive, doc: str, *, configured: frozenset[str]) -> Iterator[str]:
    """The lines of one document, oldest pair first."""
    revisions = archive.revisions(doc, shallow=True)
    record = archive.read_document(doc) or {}
    source = source_of(record, configured)
    url = record.get("url")
    for old, new in pairwise(revisions):
        line = pair_record(doc, source, url if isinstance(url, str) else None, old, new)
        yield as_json(line) + "\n"


def export_newsedits(
    archive: Archive,
    out: Path,
    *,
    configured: frozenset[str] = frozenset(),
    progress: Callable[[int, int], None] | None = None,
) -> NewsEditsReport:
    """Write every pair of consecutive revisions to ``out`` as JSON Lines (atomically).

    ``configured`` are feeds.yaml's source slugs (default: the archive's feed records).
    A document that cannot be read is listed in the report's ``failures`` and left out.
    """
    report = NewsEditsReport(out)
    chosen = configured or frozenset(archive.feed_slugs())
    listed = archive.documents()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as handle:
            for done, (_, doc) in enumerate(listed, start=1):
                try:
                    lines = list(document_lines(archive, doc, configured=chosen))
                except QuieteditError as exc:
                    logger.error("%s: %s", doc, exc)
                    report.failures.append(f"{doc}: {exc}")
                    continue
                handle.writelines(lines)
                report.lines += len(lines)
                report.documents += bool(lines)
                if progress is not None and (done % 500 == 0 or done == len(listed)):
                    progress(done, len(listed))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, out)
    except OSError as exc:
        raise ExportError(out, f"cannot write: {exc.strerror or exc}") from exc
    finally:
        tmp.unlink(missing_ok=True)
    return report


def read_lines(path: Path) -> Iterator[dict[str, Any]]:
    """The records of a NewsEdits export (for tests and readers in Python)."""
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            if isinstance(record, dict):
                yield record
