"""``quietedit extract``: the article in saved pages, as text or JSON.

Start-up is most of the cost of a short run, so this module imports only what extracting
saved files needs; the fetching stack, the settings loader and the worker processes
(:mod:`quietedit.pool`) are imported when a URL argument or a batch big enough to share
out asks for them.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import click

from quietedit.article.extract import article_json, article_record, extract_article
from quietedit.cli.options import CONFIG_OPTION
from quietedit.errors import QuieteditError, WorkerDiedError

FILES_PER_JOB: Final = 8
"""With ``--jobs 0``, a batch gets one more process per this many files, up to one per core:
a worker costs its start and its share of the hand-over, a few pages' worth of work."""
CHUNK: Final = 4
"""Files per task handed to a worker: enough to hide the hand-over, few enough that the
last worker is not left with much more to do than the others."""
_URL_PREFIXES: Final = ("http://", "https://")
_Task = tuple[str, str | None, bool, bool]  # (file or URL, --url, private addresses, --json)


@click.command("extract")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON object per FILE, one per line."
)
@click.option(
    "--url",
    default=None,
    metavar="URL",
    help="The page's address, to resolve its relative canonical and og:url links (with one FILE).",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help=(
        "Extract in this many processes; 0 picks one per CPU core, for batches of "
        f"{FILES_PER_JOB} files or more per process (the output order stays the argument order)."
    ),
)
@CONFIG_OPTION
def extract(
    files: tuple[str, ...], as_json: bool, url: str | None, jobs: int, config_path: Path | None
) -> None:
    """Extract the article from saved HTML pages or URLs: headline, body blocks, metadata.

    Prints each FILE's article in argument order: the headline, the publisher's metadata
    (canonical URL, dates, "Updated" line, notes, authors, language) and the body, with
    subheadings, list items and quotes marked. With --json, one object per FILE on one
    line: title, paragraphs, blocks (text and kind) and metadata. A file that cannot be
    read is reported on stderr (and as {"input", "error"} with --json); the others are
    still extracted, and the exit status is 1. A URL argument (http or https) is fetched
    with quietedit's client, SSRF guard included (settings.allow_private_addresses lifts
    it for loopback and private networks). Large batches are shared out among processes,
    one per CPU core (--jobs); the output is the same.

    \b
    Example:
        quietedit extract --json --url https://news.example.org/a/1 page.html
    """
    if url is not None and len(files) != 1:
        raise click.UsageError(f"--url names the address of one FILE, but {len(files)} were given")
    private = False
    if any(name.startswith(_URL_PREFIXES) for name in files):
        from quietedit.config import load_config  # only fetching reads the settings

        private = load_config(config_path).settings.allow_private_addresses
    tasks = [(name, url, private, as_json) for name in files]
    failed = 0
    try:
        for output, error in _extract_all(
            tasks, worker_count(len(files), jobs=jobs, cores=_usable_cores())
        ):
            if error is not None:
                failed += 1
                click.echo(f"Error: {error}", err=True)
            if output is not None:
                # A JSON line has no ANSI codes for click to strip (JSON escapes control
                # characters), so it skips the scan: a third of the cost of writing it.
                click.echo(output, color=True if as_json else None)
    except WorkerDiedError as exc:  # a worker was killed (out of memory, a signal)
        first = files[min(exc.index, len(files) - 1)]
        raise click.ClickException(
            f"a worker process died extracting {first} or a file after it; "
            "extract those again with --jobs 1 to find the page"
        ) from exc
    if failed:
        sys.exit(1)


def worker_count(files: int, *, jobs: int, cores: int) -> int:
    """How many processes extract ``files`` files: ``jobs``, or with 0 as many as pay off.

    Never more processes than files, nor (for ``jobs`` 0) than ``cores``, nor fewer than one.
    """
    if jobs == 0:
        jobs = min(cores, -(-files // FILES_PER_JOB))
    return max(1, min(jobs, files))


def _usable_cores() -> int:
    """The CPU cores this process may run on (its affinity mask, where the platform says)."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        return len(affinity(0)) or 1
    return os.cpu_count() or 1


def _extract_file(task: _Task) -> tuple[str | None, str | None]:
    """One FILE's (stdout text or None, error or None), formatted where it was extracted.

    Worker processes return text rather than records: a string crosses a process boundary
    faster than a nested record, and formatting once here keeps the output the same
    whichever process made it.
    """
    name, url, allow_private, as_json = task
    try:
        if name.startswith(_URL_PREFIXES):
            import asyncio  # only URL arguments need the event loop and the client

            from quietedit.fetch import fetch_document

            raw = asyncio.run(fetch_document(name, allow_private=allow_private))
            article = extract_article(raw.body, url=raw.url, content_type=raw.content_type)
        else:
            article = extract_article(_read_page(name), url=url)
    except (OSError, QuieteditError) as exc:
        error = str(exc)
        if as_json:
            return json.dumps({"input": name, "error": error}, ensure_ascii=False), error
        return None, error
    if as_json:
        return article_json(article, source=name), None
    record = article_record(article)
    return _readable_article(name, record), None


def _extract_all(tasks: list[_Task], processes: int) -> Iterator[tuple[str | None, str | None]]:
    """Each task's (output, error), in order, from ``processes`` worker processes (forked
    copies of this one where it may fork: they start with extraction imported)."""
    if processes == 1:
        yield from map(_extract_file, tasks)
        return
    from quietedit.pool import WorkerPool, can_fork  # a batch of a few files never pays for it

    with WorkerPool(
        processes, method="fork" if can_fork() else "forkserver", preload=[__name__]
    ) as pool:
        yield from pool.map(_extract_file, tasks, chunksize=CHUNK)


def _read_page(name: str) -> bytes:
    """A saved page's bytes; an error naming the file (or the URL) if there is none."""
    path = Path(name)
    try:
        return path.read_bytes()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise OSError(f"{name}: cannot read the file ({reason})") from exc


_MARKS = {"heading": "## ", "list-item": "- ", "quote": "> ", "paragraph": ""}


def _readable_article(name: str, record: dict[str, Any]) -> str:
    """The article as text: headline, metadata lines, then the blocks, Markdown-like."""
    lines = [f"==> {name}", f"# {record['title']}" if record["title"] else "# (no title)"]
    for key, value in record["metadata"].items():
        if value:
            shown = "; ".join(value) if isinstance(value, list) else value
            lines.append(f"{key.replace('_', ' ')}: {shown}")
    for block in record["blocks"]:
        lines.append("")
        lines.append(_MARKS.get(block["kind"], "") + block["text"])
    return "\n".join(lines) + "\n"
