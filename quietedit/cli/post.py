"""``quietedit post``: the new edits of the last build, posted to Mastodon and Bluesky."""

from __future__ import annotations

import os
import sys
from datetime import UTC, datetime
from pathlib import Path

import click

from quietedit.cli.options import CONFIG_OPTION, DATA_OPTION, OUT_OPTION, now_option
from quietedit.config import load_config


@click.command()
@CONFIG_OPTION
@DATA_OPTION
@OUT_OPTION
@click.option(
    "--base-url",
    default=None,
    metavar="URL",
    help="The site's public address, as given to `quietedit build`: each post links the "
    "edit's page under it.  [default: http://127.0.0.1:8000/]",
)
@click.option(
    "--dry-run",
    is_flag=True,
    help="Print what would be posted, and where in which thread; post nothing, write nothing.",
)
@now_option("Decide which edits are new as if it were this time (replays and tests)")
def post(
    config_path: Path | None,
    data_dir: Path | None,
    out_dir: Path | None,
    base_url: str | None,
    dry_run: bool,
    now_text: str | None,
) -> None:
    """Post the new edits of the last build to Mastodon and Bluesky, one thread per article.

    Which edits: settings.post (kinds, significance, verdicts, max_age). The accounts come
    from environment variables only: QUIETEDIT_MASTODON_URL and QUIETEDIT_MASTODON_TOKEN;
    QUIETEDIT_BLUESKY_HANDLE, QUIETEDIT_BLUESKY_PASSWORD (an app password) and optionally
    QUIETEDIT_BLUESKY_SERVICE. A network without its variables is left out. Every post is
    recorded in data/state/posted.json before and after it is sent, so a rerun never
    posts twice. Exits 1 when a post failed.

    \b
    Example:
        quietedit build --out site --base-url https://user.github.io/quietedit/
        quietedit post --out site --base-url https://user.github.io/quietedit/ --dry-run
    """
    from quietedit.cli.ingest import parse_now
    from quietedit.post.run import PostOptions, accounts_from_environment, post_edits
    from quietedit.post.run import dry_run as dry_run_lines
    from quietedit.publish.build import DEFAULT_BASE_URL

    config = load_config(config_path)
    options = PostOptions(
        data=data_dir if data_dir is not None else config.settings.paths.data,
        site=out_dir if out_dir is not None else config.settings.paths.site,
        base_url=base_url or DEFAULT_BASE_URL,
        settings=config.settings,
        sources={feed.slug: feed.name for feed in config.feeds},
    )
    now = parse_now(now_text) if now_text else datetime.now(UTC)
    accounts = accounts_from_environment(os.environ, settings=config.settings)
    if dry_run:
        networks = [a.name for a in accounts] or ["mastodon", "bluesky"]
        if not accounts:
            click.echo("no account variables set: showing both networks", err=True)
        for line in dry_run_lines(options, networks, now=now):
            click.echo(line)
        return
    if not accounts:
        click.echo("no account configured (see `quietedit post --help`); nothing posted", err=True)
        return
    report = post_edits(options, accounts, now=now, clock=lambda: datetime.now(UTC))
    for line in report.posted:
        click.echo(line)
    for line in report.unknown:
        click.echo(f"warning: {line}", err=True)
    for line in report.failures:
        click.echo(f"error: {line}", err=True)
    click.echo(
        f"{len(report.posted)} posted, {len(report.failures)} failed, "
        f"{report.waiting} left for the next run",
        err=True,
    )
    if report.failures:
        sys.exit(1)
