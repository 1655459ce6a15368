"""The ``quietedit`` command line: each command parses, calls one function, and reports.

Results go to stdout, logs and progress to stderr. A ``QuieteditError`` becomes a one-line
(or one-line-per-problem) message and exit status 1; usage errors exit 2.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

import click

from quietedit import __version__
from quietedit.archive.audit import audit_since
from quietedit.archive.verify import verify_archive
from quietedit.config import Config, effective_settings, load_config
from quietedit.errors import QuieteditError

logger = logging.getLogger("quietedit")

CONFIG_OPTION = click.option(
    "--config",
    "config_path",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="The feeds and settings file.  [default: feeds.yaml if present]",
)
DATA_OPTION = click.option(
    "--data",
    "data_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="The archive folder.  [default: settings.paths.data, i.e. data/]",
)


class _Group(click.Group):
    """Turns quietedit's own errors into clean messages instead of tracebacks."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except QuieteditError as exc:
            raise click.ClickException(str(exc)) from exc


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="quietedit")
@click.option("-v", "--verbose", count=True, help="More log output on stderr (-vv for all).")
@click.option("-q", "--quiet", count=True, help="Less log output on stderr (-qq for errors only).")
def cli(verbose: int, quiet: int) -> None:
    """Catch silent edits to news articles.

    quietedit polls news feeds, archives every observed revision of every article
    append-only in a git-committed data/ folder, and checks that archive.
    """
    level = logging.INFO + 10 * (quiet - verbose)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(levelname)s: %(message)s"))
    root = logging.getLogger("quietedit")
    root.handlers[:] = [handler]
    root.setLevel(max(logging.DEBUG, min(level, logging.CRITICAL)))
    root.propagate = False


@cli.command()
@CONFIG_OPTION
@DATA_OPTION
@click.option(
    "--since",
    metavar="GIT_REV",
    default=None,
    help="Also prove with git that no revision or evidence file present at GIT_REV "
    "was modified or deleted since.",
)
def verify(config_path: Path | None, data_dir: Path | None, since: str | None) -> None:
    """Check the archive: schema, hashes, hash chains, numbering, orphans.

    Prints one line per problem (path: message) and exits 1 if there is any, 0 if the
    archive is sound.

    \b
    Example:
        quietedit verify --data data --since HEAD~1
    """
    root = data_dir if data_dir is not None else _load(config_path).settings.paths.data
    report = verify_archive(root)
    problems = list(report.problems)
    if since is not None:
        problems += audit_since(root, since)
    for problem in problems:
        click.echo(str(problem))
    logger.info(
        "checked %d documents, %d revisions, %d evidence files%s: %s",
        report.documents,
        report.revisions,
        report.evidence,
        f" and git history since {since}" if since else "",
        f"{len(problems)} problem(s)" if problems else "no problems",
    )
    if problems:
        sys.exit(1)


@cli.command("config")
@CONFIG_OPTION
def show_config(config_path: Path | None) -> None:
    """Validate feeds.yaml and print the effective configuration as JSON.

    Environment overrides (QUIETEDIT_*) and defaults are applied; header values are
    shown as "<redacted>" so tokens never reach a log.

    \b
    Example:
        QUIETEDIT_RUN_MAX_ARTICLES=20 quietedit config --config feeds.yaml
    """
    config = _load(config_path)
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


def _load(config_path: Path | None) -> Config:
    return load_config(config_path)


def main() -> None:
    """Entry point of the ``quietedit`` console script and ``python -m quietedit``."""
    cli(prog_name="quietedit")
