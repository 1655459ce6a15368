"""``quietedit demo``: the offline demo a new user runs first."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from quietedit.ingest.run import IngestReport


@click.command()
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=Path("demo/site"),
    show_default=True,
    help="The site folder.",
)
@click.option(
    "--data",
    "data_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=Path("demo/data"),
    show_default=True,
    help="The demo archive folder; a previous demo archive there is replaced, anything "
    "else is refused.",
)
@click.option(
    "--base-url",
    default=None,
    metavar="URL",
    help="The site's public address.  [default: http://127.0.0.1:8000/]",
)
def demo(out_dir: Path, data_dir: Path, base_url: str | None) -> None:
    """Watch quietedit catch edits in a bundled newsroom, offline, then browse the site.

    A fictional newsroom is served on 127.0.0.1 and ingested over four rounds on a
    simulated clock, with real-looking edits between them: a corrected number, a rewritten
    headline, a correction note, a removed and a moved paragraph, furniture-only churn, a
    flip-flop, a deleted article, a live blog and a front page with an A/B-tested headline.
    Then the site is built. The same archive every run.

    \b
    Example:
        quietedit demo --out demo/site --data demo/data
    """
    from quietedit.cli.site import build_once
    from quietedit.demo import live, run_demo
    from quietedit.demo.newsroom import MARATHON_AB
    from quietedit.demo.stories import STORIES
    from quietedit.publish.build import DEFAULT_BASE_URL

    def progress(number: int, report: IngestReport) -> None:
        click.echo(f"round {number}: {report.summary()}", err=True)

    result = run_demo(data_dir, progress=progress)
    url = base_url or DEFAULT_BASE_URL
    built = build_once(result.config, data_dir, out_dir, base_url=url, full=False)
    click.echo("The Harbour Gazette (fictional) was edited between the rounds:")
    for story in STORIES:
        click.echo(f"  {story.path}: {story.edit}")
    click.echo(f"  {live.PATH}: {live.EDIT}")
    click.echo(
        f"  / (the front page, a homepage source): the {MARATHON_AB[0]} story's headline A/B tested"
    )
    click.echo(f"archive: {data_dir} ({result.summary()})")
    evidence = result.config.settings.paths.evidence
    with contextlib.suppress(ValueError):  # shown as the data folder is: here, relative
        evidence = evidence.relative_to(Path.cwd())
    click.echo(f"check it: quietedit verify --data {data_dir} --evidence {evidence}")
    if url == DEFAULT_BASE_URL:
        click.echo(f"open the site: quietedit serve --out {out_dir} --no-rebuild, then {url}")
    else:
        click.echo(f"the site in {out_dir} is built for {url}; publish it there")
    if built.failures:
        sys.exit(1)
