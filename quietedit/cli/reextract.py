"""``quietedit reextract``: read the stored raw pages again with the current extractor."""

from __future__ import annotations

import logging
import sys
from datetime import UTC, datetime
from pathlib import Path

import click

from quietedit.archive.lock import RunLock
from quietedit.archive.reextract import ReextractReport, reextract
from quietedit.archive.store import Archive
from quietedit.article.extract import EXTRACTOR_VERSION
from quietedit.article.identity import is_document_id
from quietedit.cli.options import CONFIG_OPTION, DATA_OPTION
from quietedit.config import load_config

logger = logging.getLogger("quietedit")


def parse_since(text: str) -> datetime:
    """``--since``: a date (midnight UTC) or an ISO-8601 time with a zone."""
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise click.BadParameter(
            f"{text!r} is not an ISO-8601 date or time, e.g. 2026-11-01", param_hint="--since"
        ) from exc
    if moment.tzinfo is None:
        if len(text) > len("2026-11-01"):
            raise click.BadParameter(
                f"{text!r} has no time zone; add Z or an offset, e.g. {text}Z",
                param_hint="--since",
            )
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


@click.command()
@CONFIG_OPTION
@DATA_OPTION
@click.option(
    "--evidence",
    "evidence_dir",
    type=click.Path(path_type=Path, file_okay=False),
    metavar="DIR",
    default=None,
    help="The WARC files of the revisions to re-read.  [default: settings.paths.evidence]",
)
@click.option(
    "--since",
    "since_text",
    metavar="DATE",
    default=None,
    help="Re-read only the revisions observed at or after DATE (ISO 8601: 2026-11-01, or a "
    "time with its zone).",
)
@click.option(
    "--document",
    "documents",
    metavar="ID",
    multiple=True,
    help="Re-read only this document (repeatable).",
)
def reextract_command(
    config_path: Path | None,
    data_dir: Path | None,
    evidence_dir: Path | None,
    since_text: str | None,
    documents: tuple[str, ...],
) -> None:
    """Read each revision's stored raw page again with the current extractor.

    Where the text now comes out differently from what was recorded, a derived record
    is added beside the revisions (documents/.../<id>/derived/); no revision is ever
    rewritten or deleted. Running it again with the same extractor writes nothing.
    Prints each derived record written and each revision whose page could not be read
    (missing, damaged, or not the page the revision names); exits 1 if a page was
    damaged, 0 otherwise (missing WARC files are reported and counted, not fatal).

    \b
    Example:
        quietedit reextract --data data --evidence evidence --since 2026-11-01
        quietedit build --text reextracted
    """
    config = load_config(config_path)
    settings = config.settings
    root = data_dir if data_dir is not None else settings.paths.data
    evidence = evidence_dir if evidence_dir is not None else settings.paths.evidence
    since = parse_since(since_text) if since_text else None
    for document in documents:
        if not is_document_id(document):
            raise click.BadParameter(
                f"{document!r} is not a document id (<host>-<16 hex digits>)",
                param_hint="--document",
            )
    if not root.is_dir():
        raise click.BadParameter(
            f"no archive at {root}; pass --data with the archive folder", param_hint="--data"
        )
    archive = Archive(root)
    for document in documents:
        if archive.partition(document) is None:
            raise click.BadParameter(
                f"{document} is not in the archive's index", param_hint="--document"
            )
    with RunLock(root, now=datetime.now(UTC)):
        archive.require_current()
        report = reextract(
            archive,
            evidence,
            since=since,
            documents=documents or None,
            max_bytes=settings.fetch.max_bytes,
        )
    _print(report)
    if report.damaged:
        sys.exit(1)


def _print(report: ReextractReport) -> None:
    for path in report.written:
        click.echo(f"wrote {path}")
    for problem in report.problems:
        click.echo(str(problem))
    counts = ", ".join(f"{count} {outcome}" for outcome, count in report.counts.items())
    logger.info("re-extracted with %s: %s", EXTRACTOR_VERSION, counts)
