"""The ``quietedit`` command line: each command parses, calls one function, and reports.

Results go to stdout, logs and progress to stderr. A ``QuieteditError`` becomes a one-line
(or one-line-per-problem) message and exit status 1; usage errors exit 2. Each command
lives in a module of its own and is imported only when it runs, so a command pays only
for what it uses.
"""

from __future__ import annotations

import importlib
import logging
import sys
from typing import Any

import click

from quietedit.errors import QuieteditError
from quietedit.version import __version__

# command name -> (module, function)
COMMANDS = {
    "build": ("quietedit.cli.site", "build"),
    "capture": ("quietedit.cli.capture", "capture"),
    "config": ("quietedit.cli.archive", "show_config"),
    "demo": ("quietedit.cli.demo", "demo"),
    "diff": ("quietedit.cli.diff", "diff"),
    "export": ("quietedit.cli.export", "export"),
    "extract": ("quietedit.cli.extract", "extract"),
    "fetch-trees": ("quietedit.cli.archive", "fetch_trees_command"),
    "ingest": ("quietedit.cli.ingest", "ingest"),
    "migrate": ("quietedit.cli.archive", "migrate"),
    "post": ("quietedit.cli.post", "post"),
    "reextract": ("quietedit.cli.reextract", "reextract_command"),
    "run": ("quietedit.cli.ingest", "run"),
    "serve": ("quietedit.cli.site", "serve"),
    "sparse-paths": ("quietedit.cli.archive", "sparse_paths"),
    "verify": ("quietedit.cli.archive", "verify"),
}


class _Group(click.Group):
    """Loads commands on demand and turns quietedit's errors into clean messages."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, name = COMMANDS[cmd_name]
        command = getattr(importlib.import_module(module), name)
        if not isinstance(command, click.Command):
            raise TypeError(f"{module}.{name} is not a click command")
        return command

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
    append-only in a git-committed data/ folder, diffs and classifies the edits, and
    publishes them as a static site with feeds of recent edits.
    """
    level = logging.INFO + 10 * (quiet - verbose)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(levelname)s: %(message)s"))
    root = logging.getLogger("quietedit")
    root.handlers[:] = [handler]
    root.setLevel(max(logging.DEBUG, min(level, logging.CRITICAL)))
    root.propagate = False


def main() -> None:
    """Entry point of the ``quietedit`` console script and ``python -m quietedit``."""
    cli(prog_name="quietedit")
