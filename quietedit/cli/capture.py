"""``quietedit capture``: the Internet Archive asked for a copy of each new revision."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import click

from quietedit.cli.options import CONFIG_OPTION, DATA_OPTION, now_option
from quietedit.config import load_config


@click.command()
@CONFIG_OPTION
@DATA_OPTION
@now_option("Run as if it were this time (replays and tests)")
def capture(config_path: Path | None, data_dir: Path | None, now_text: str | None) -> None:
    """Ask the Internet Archive (Save Page Now 2) for a copy of each new revision's page.

    Polls the jobs asked for by earlier runs (each copy made becomes an `archived` event
    of its document, linked from the edit's page), then asks for the revisions stored
    since the last run. Needs settings.archive_org.enabled and the account's keys in
    QUIETEDIT_ARCHIVE_ORG_ACCESS_KEY and QUIETEDIT_ARCHIVE_ORG_SECRET_KEY. Waits for no
    job, and never fails on the service's account: its problems are warnings, and the
    next runs back off. Run it after `quietedit ingest`, before the commit.

    \b
    Example:
        quietedit ingest && quietedit capture
    """
    from quietedit.archive.lock import RunLock
    from quietedit.archive.store import Archive
    from quietedit.capture.run import capture_revisions
    from quietedit.capture.spn2 import ACCESS_VARIABLE, SECRET_VARIABLE, SavePageNow
    from quietedit.cli.ingest import parse_now

    config = load_config(config_path)
    settings = config.settings.archive_org
    if not settings.enabled:
        click.echo("settings.archive_org.enabled is false: nothing captured", err=True)
        return
    access, secret = os.environ.get(ACCESS_VARIABLE, ""), os.environ.get(SECRET_VARIABLE, "")
    if not access or not secret:
        missing = ACCESS_VARIABLE if not access else SECRET_VARIABLE
        click.echo(f"warning: {missing} is not set: nothing captured", err=True)
        return
    data = data_dir if data_dir is not None else config.settings.paths.data
    now = parse_now(now_text) if now_text else datetime.now(UTC)
    service = SavePageNow(
        settings.base_url,
        access,
        secret,
        timeout=settings.timeout,
        user_agent=config.settings.user_agent,
    )
    with RunLock(data, now=now), service:
        report = capture_revisions(Archive(data), settings, service, now=now)
    for url in report.archived:
        click.echo(url)
    for line in report.problems:
        click.echo(f"warning: {line}", err=True)
    click.echo(
        f"{len(report.archived)} copies recorded, {report.requested} asked for, "
        f"{report.pending} pending, {report.queued} waiting",
        err=True,
    )
