"""``quietedit verify`` and ``quietedit config``: check the archive and the configuration."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import click

from quietedit.archive.since import verify_since
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
    help="Check only what changed since GIT_REV (in time proportional to the change) and "
    "prove with git that no revision or event file present at GIT_REV was modified or "
    "deleted since.",
)
def verify(config_path: Path | None, data_dir: Path | None, since: str | None) -> None:
    """Check the archive: schema, hashes, hash chains, numbering, orphans, the index.

    Prints one line per problem (path: message) and exits 1 if there is any, 0 if the
    archive is sound. Without --since every file is read; with it, only the files git
    shows changed since GIT_REV, plus the git audit of that range.

    \b
    Example:
        quietedit verify --data data --since HEAD~1
    """
    root = data_dir if data_dir is not None else load_config(config_path).settings.paths.data
    report = verify_archive(root) if since is None else verify_since(root, since)
    for problem in report.problems:
        click.echo(str(problem))
    logger.info(
        "checked %d documents, %d revisions (%d naming evidence)%s: %s",
        report.documents,
        report.revisions,
        report.evidence,
        f", changed since {since}, and git history since then" if since else "",
        f"{len(report.problems)} problem(s)" if report.problems else "no problems",
    )
    if report.problems:
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
