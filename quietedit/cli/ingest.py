"""``quietedit ingest`` and ``quietedit run``: archive new revisions (and publish them)."""

from __future__ import annotations

import logging
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import click

from quietedit.archive.store import Archive
from quietedit.cli.options import CONFIG_OPTION, DATA_OPTION, OUT_OPTION, now_option
from quietedit.config import Config, load_config
from quietedit.decide.shard import WHOLE, Shard, parse_shard
from quietedit.errors import InvalidShardError

if TYPE_CHECKING:
    from quietedit.ingest.run import IngestReport

logger = logging.getLogger("quietedit")


def _shard(ctx: click.Context, param: click.Parameter, value: str | None) -> Shard:
    """``--shard K/N`` parsed by ``parse_shard``; a bad value exits 2 with the reason."""
    if value is None:
        return WHOLE
    try:
        return parse_shard(value)
    except InvalidShardError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from exc


SHARD_OPTION = click.option(
    "--shard",
    metavar="K/N",
    default=None,
    callback=_shard,
    help="Ingest only shard K of N: poll every feed, keep the articles and feed records "
    "whose site hashes to K, so N runners can share the work, e.g. 2/3.",
)


@click.command()
@CONFIG_OPTION
@DATA_OPTION
@now_option("Run on a simulated clock frozen at this time (replays, tests, the demo)")
@click.option("--feeds-only", is_flag=True, help="Poll the feeds; fetch no articles.")
@click.option("--strict", is_flag=True, help="Exit 1 if any feed or article failed.")
@SHARD_OPTION
def ingest(
    config_path: Path | None,
    data_dir: Path | None,
    now_text: str | None,
    feeds_only: bool,
    strict: bool,
    shard: Shard,
) -> None:
    """Poll the feeds and archive new revisions of the articles that are due.

    Catalogue sync, feed polls, the re-check policy's plan within the run's budget,
    article fetches, extraction and versioning into the archive. One failing feed or
    article never stops the run; the summary counts them. Exit 0 when the run completed,
    even if sources failed (1 with --strict).

    \b
    Example:
        quietedit ingest --config feeds.yaml --data data
    """
    report = ingest_once(
        load_config(config_path),
        data_dir,
        now_text=now_text,
        feeds_only=feeds_only,
        shard=shard,
    )
    if strict and report.failures:
        sys.exit(1)


@click.command()
@CONFIG_OPTION
@DATA_OPTION
@OUT_OPTION
@now_option("Run the ingest on a simulated clock frozen at this time")
@click.option(
    "--base-url",
    default=None,
    metavar="URL",
    help="The site's public address.  [default: http://127.0.0.1:8000/]",
)
@click.option("--strict", is_flag=True, help="Exit 1 if any feed, article or page failed.")
@SHARD_OPTION
def run(
    config_path: Path | None,
    data_dir: Path | None,
    out_dir: Path | None,
    now_text: str | None,
    base_url: str | None,
    strict: bool,
    shard: Shard,
) -> None:
    """Ingest, then build the site: one scheduled run in one command.

    \b
    Example:
        quietedit run --config feeds.yaml --out site
    """
    from quietedit.cli.site import build_once
    from quietedit.publish.build import DEFAULT_BASE_URL

    config = load_config(config_path)
    report = ingest_once(config, data_dir, now_text=now_text, feeds_only=False, shard=shard)
    built = build_once(config, data_dir, out_dir, base_url=base_url or DEFAULT_BASE_URL, full=False)
    if built.failures or (strict and report.failures):
        sys.exit(1)


def ingest_once(
    config: Config,
    data_dir: Path | None,
    *,
    now_text: str | None,
    feeds_only: bool,
    shard: Shard = WHOLE,
) -> IngestReport:
    """One ingest run with a progress line on a terminal and the summary on stdout
    (prefixed with ``shard K/N:`` for a sharded run)."""
    from quietedit.ingest.run import run_ingest

    root = data_dir if data_dir is not None else config.settings.paths.data
    now = parse_now(now_text) if now_text else datetime.now(UTC)
    progress = _IngestProgress() if sys.stderr.isatty() else None
    report = run_ingest(
        config,
        Archive(root),
        now=now,
        feeds_only=feeds_only,
        simulated=now_text is not None,
        progress=progress,
        shard=shard,
    )
    if progress is not None:
        progress.close()
    for error in report.errors:
        logger.warning("%s", error)
    click.echo(report.summary() if shard.whole else f"shard {shard}: {report.summary()}")
    return report


class _IngestProgress:
    """One status line on a terminal: how many feeds and articles are done, and errors."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {"feed": 0, "article": 0, "error": 0}

    def __call__(self, what: str, outcome: str) -> None:
        self.counts[what.split(" ", 1)[0]] += 1
        self.counts["error"] += outcome in ("failed", "robots", "gone")
        click.echo(
            f"\rfeeds {self.counts['feed']} · articles {self.counts['article']} · "
            f"problems {self.counts['error']}",
            err=True,
            nl=False,
        )

    def close(self) -> None:
        click.echo("", err=True)


def parse_now(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise click.BadParameter(f"{text!r} is not an ISO-8601 time", param_hint="--now") from exc
    if moment.tzinfo is None:
        raise click.BadParameter(
            f"{text!r} has no time zone; add Z or an offset, e.g. {text}Z", param_hint="--now"
        )
    return moment.astimezone(UTC)
