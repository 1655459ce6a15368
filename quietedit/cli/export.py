"""``quietedit export sqlite`` and ``quietedit export newsedits``: the archive for research."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from quietedit.cli.options import CONFIG_OPTION, DATA_OPTION
from quietedit.config import Config, load_config

if TYPE_CHECKING:
    from quietedit.archive.store import Archive


@click.group("export")
def export() -> None:
    """Export the archive for research: a SQLite database, or NewsEdits sentence pairs.

    Both read the archive only, and write their file beside OUT first, renaming it over
    OUT when complete: an interrupted export leaves OUT as it was.

    \b
    Example:
        quietedit export sqlite quietedit.db && datasette quietedit.db -m quietedit.metadata.json
    """


@export.command("sqlite")
@click.argument("out", type=click.Path(path_type=Path, dir_okay=False))
@CONFIG_OPTION
@DATA_OPTION
@click.option(
    "--metadata",
    "metadata_path",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Where Datasette's metadata.json goes.  [default: OUT with the suffix "
    ".metadata.json, e.g. quietedit.metadata.json]",
)
@click.option("--no-metadata", is_flag=True, help="Write no metadata file.")
@click.option(
    "--cache",
    "cache_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="A site build's cache folder (SITE/.quietedit-cache): its saved diffs and "
    "classifications are reused instead of recomputed.",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="Processes that read and compare documents; 0: one per CPU core. The database "
    "is the same for any number.",
)
@click.option(
    "--update",
    is_flag=True,
    help="Update the database an earlier export wrote at OUT: read again only the "
    "documents whose files changed since, delete those no longer in the archive, keep "
    "the rest. The same rows as a full export; a full export when OUT is missing, "
    "damaged, or was written by another version (the reason is printed).",
)
@click.option(
    "--optimize",
    is_flag=True,
    help="With --update: then merge each full-text index into one segment, as a full "
    "export leaves it (the monthly run; the weekly ones leave a segment each).",
)
def sqlite(
    out: Path,
    config_path: Path | None,
    data_dir: Path | None,
    metadata_path: Path | None,
    no_metadata: bool,
    cache_dir: Path | None,
    jobs: int,
    update: bool,
    optimize: bool,
) -> None:
    """Write the archive to the SQLite database OUT, with Datasette's metadata.

    Tables: sources, documents, revisions, texts and blocks (every revision's body, block
    by block), edits with their block operations, kinds and signals, events, provenance
    and feed entries, with full-text search over titles and block text. The edits are
    the site's (the same diff and classification). The same archive gives the same file,
    byte for byte. Exits 1 if a document could not be read (the rest is written).

    With --update, the database already at OUT is brought up to date in one
    transaction (an interrupted update leaves it as it was): only the documents whose
    files changed are read again; with --optimize too, its full-text indexes are then
    merged into one segment each.

    \b
    Examples:
        quietedit export sqlite quietedit.db --data data
        quietedit export sqlite quietedit.db --data data --update
        quietedit export sqlite quietedit.db --data data --update --optimize
    """
    from quietedit.export.datasette import dump_metadata
    from quietedit.export.sqlite import SourceInfo, export_sqlite
    from quietedit.export.update import update_sqlite

    config = load_config(config_path)
    sources = tuple(SourceInfo(f.slug, f.name, f.url, f.kind) for f in config.feeds)
    if optimize and not update:
        raise click.UsageError("--optimize goes with --update (a full export merges them anyway)")
    run = functools.partial(update_sqlite, optimize=optimize) if update else export_sqlite
    with _progress("Updating" if update else "Exporting") as progress:
        report = run(
            _archive(config, data_dir),
            out,
            sources=sources,
            site_cache=cache_dir,
            jobs=jobs or os.cpu_count() or 1,
            progress=progress,
        )
    if not no_metadata:
        target = metadata_path or out.with_name(f"{out.stem}.metadata.json")
        _write_atomically(target, dump_metadata(out.stem))
        click.echo(f"Datasette metadata: {target}", err=True)
    _finish(report.summary(), report.failures)


@export.command("newsedits")
@click.argument("out", type=click.Path(path_type=Path, dir_okay=False))
@CONFIG_OPTION
@DATA_OPTION
def newsedits(out: Path, config_path: Path | None, data_dir: Path | None) -> None:
    """Write every pair of consecutive revisions to OUT as JSON Lines, sentence by sentence.

    Each line holds both revisions' sentences, the matches between them and each
    sentence's NewsEdits label (added, deleted, edited, refactored, unchanged), for the
    NewsEdits tasks. Deterministic. Exits 1 if a document could not be read.

    \b
    Example:
        quietedit export newsedits edits.jsonl --data data
    """
    from quietedit.export.newsedits import export_newsedits

    config = load_config(config_path)
    configured = frozenset(f.slug for f in config.feeds)
    with _progress("Exporting") as progress:
        report = export_newsedits(
            _archive(config, data_dir), out, configured=configured, progress=progress
        )
    _finish(report.summary(), report.failures)


def _archive(config: Config, data_dir: Path | None) -> Archive:
    from quietedit.archive.store import Archive
    from quietedit.errors import ArchiveError

    root = data_dir if data_dir is not None else config.settings.paths.data
    if not root.is_dir():
        raise ArchiveError(root, "no archive folder here; pass --data with the archive's folder")
    return Archive(root)


@contextmanager
def _progress(label: str) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on stderr when it is a terminal; otherwise no callback."""
    if not sys.stderr.isatty():
        yield None
        return
    with click.progressbar(length=1, label=label, file=sys.stderr) as bar:

        def update(done: int, total: int) -> None:
            bar.length = max(total, 1)
            bar.update(done - bar.pos)

        yield update


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _finish(summary: str, failures: list[str]) -> None:
    for failure in failures:
        click.echo(f"Error: {failure}", err=True)
    click.echo(summary)
    if failures:
        sys.exit(1)
