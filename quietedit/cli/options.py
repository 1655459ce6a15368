"""Options and helpers shared by the commands."""

from __future__ import annotations

from pathlib import Path

import click

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
