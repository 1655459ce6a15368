"""``quietedit verify`` and ``quietedit config``: check the archive and the configuration."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import click

from quietedit.archive.audit import audit_since
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
def verify(config_path: Path | None, data_dir: Path | None, since: str | None) -> None:
    """Check the archive: schema, hashes, hash chains, numbering, orphans.

    Prints one line per problem (path: message) and exits 1 if there is any, 0 if the
    archive is sound.

    \b
    Example:
        quietedit verify --data data --since HEAD~1
    """
    root = data_dir if data_dir is not None else load_config(config_path).settings.paths.data
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


@click.command("sparse-paths")
@CONFIG_OPTION
@DATA_OPTION
@click.option(
    "--now",
    "now_text",
    metavar="ISO-8601",
    default=None,
    help="The run's time, for today's and yesterday's partitions (default: the clock), "
    "e.g. 2026-11-30T06:00:00Z.",
)
def sparse_paths(config_path: Path | None, data_dir: Path | None, now_text: str | None) -> None:
    """Print the archive folders an hourly run needs, for a sparse git checkout.

    One path a line, relative to the top of the git work tree holding the archive (or as
    given, outside git): the feed, state and index folders, and the document partitions
    still observed plus today's and yesterday's (UTC); the whole documents folder before
    any run has saved its list of partitions. Feed them to
    `git sparse-checkout add` (cone mode).

    \b
    Example:
        quietedit sparse-paths | xargs git sparse-checkout add
    """
    from quietedit.archive.store import Archive
    from quietedit.cli.ingest import parse_now
    from quietedit.ingest.partitions import checkout_partitions

    root = data_dir if data_dir is not None else load_config(config_path).settings.paths.data
    now = parse_now(now_text) if now_text else datetime.now(UTC)
    archive = Archive(root)
    chosen = checkout_partitions(archive, now=now)
    folders = [archive.layout.root / name for name in ("feeds", "state", "index")]
    if chosen is None:
        folders.append(archive.layout.documents_dir)
    else:
        folders.extend(archive.layout.partition_dir(partition) for partition in chosen)
    base = _work_tree_top(root)
    for folder in folders:
        click.echo(_relative(folder, base))


def _work_tree_top(root: Path) -> Path | None:
    probe = root.resolve()
    while not probe.is_dir() and probe != probe.parent:  # the archive may not exist yet
        probe = probe.parent
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],  # noqa: S607 - git as found on PATH
            cwd=probe,
            capture_output=True,
            text=True,
            check=False,
        )
    except (FileNotFoundError, NotADirectoryError):
        return None
    return Path(done.stdout.strip()).resolve() if done.returncode == 0 else None


def _relative(folder: Path, base: Path | None) -> str:
    if base is not None:
        try:
            return folder.resolve().relative_to(base).as_posix()
        except ValueError:
            pass
    return os.fspath(folder)
