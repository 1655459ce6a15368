"""``quietedit verify`` and ``quietedit config``: check the archive and the configuration."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import click

from quietedit.archive.audit import audit_since
from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.cli.options import CONFIG_OPTION, DATA_OPTION
from quietedit.config import effective_settings, load_config

logger = logging.getLogger("quietedit")


@click.command()
@CONFIG_OPTION
@DATA_OPTION
@click.option(
    "--since",
    metavar="GIT_REV",
    default=None,
    help="Also prove with git that no revision or evidence file present at GIT_REV "
    "was modified or deleted since.",
)
@click.option(
    "--evidence",
    "evidence_dir",
    type=click.Path(path_type=Path, file_okay=False),
    metavar="DIR",
    default=None,
    help="Also check every revision's raw page against the WARC files in DIR: its record "
    "present, whole, and with the body hash the revision states.",
)
def verify(
    config_path: Path | None, data_dir: Path | None, since: str | None, evidence_dir: Path | None
) -> None:
    """Check the archive: schema, hashes, hash chains, numbering, orphans.

    Prints one line per problem (path: message) and exits 1 if there is any, 0 if the
    archive is sound. With --evidence, a revision whose WARC file is not in DIR is
    reported as missing.

    \b
    Example:
        quietedit verify --data data --since HEAD~1
        quietedit verify --data data --evidence evidence
    """
    root = data_dir if data_dir is not None else load_config(config_path).settings.paths.data
    report = verify_archive(root)
    problems = list(report.problems)
    if since is not None:
        problems += audit_since(root, since)
    if evidence_dir is not None:
        from quietedit.archive.evidence import check_archive_evidence  # loads warcio

        problems += check_archive_evidence(Archive(root), evidence_dir)
    for problem in problems:
        click.echo(str(problem))
    logger.info(
        "checked %d documents, %d revisions, %d evidence files%s: %s",
        report.documents,
        report.revisions,
        report.evidence,
        (f" and git history since {since}" if since else "")
        + (f" and their evidence in {evidence_dir}" if evidence_dir else ""),
        f"{len(problems)} problem(s)" if problems else "no problems",
    )
    if problems:
        sys.exit(1)


@click.command("config")
@CONFIG_OPTION
def show_config(config_path: Path | None) -> None:
    """Validate feeds.yaml and print the effective configuration as JSON.

    Environment overrides (QUIETEDIT_*) and defaults are applied; header values are
    shown as "<redacted>" so tokens never reach a log.

    \b
    Example:
        QUIETEDIT_RUN_MAX_ARTICLES=20 quietedit config --config feeds.yaml
    """
    config = load_config(config_path)
    shown = {
        "source": config.source,
        "feeds": [
            {
                "url": feed.url,
                "name": feed.name,
                "slug": feed.slug,
                "enabled": feed.enabled,
                "headers": {name: "<redacted>" for name, _ in feed.headers},
            }
            for feed in config.feeds
        ],
        "settings": effective_settings(config),
    }
    click.echo(json.dumps(shown, indent=2, ensure_ascii=False))
