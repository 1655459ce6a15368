"""Options and helpers shared by the commands."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

FC = TypeVar("FC", bound=Callable[..., Any])

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
OUT_OPTION = click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="The site folder.  [default: settings.paths.site, i.e. site/]",
)


def now_option(help_text: str) -> Callable[[FC], FC]:
    """``--now ISO-8601``: the run's time, as ``now_text`` (parsed by
    :func:`quietedit.cli.ingest.parse_now`)."""
    return click.option(
        "--now", "now_text", metavar="ISO-8601", default=None,
        help=f"{help_text}, e.g. 2026-11-30T06:00:00Z.",
    )  # fmt: skip
