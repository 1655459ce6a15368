"""``quietedit extract``: the article in saved pages, as text or JSON."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from quietedit.article.extract import article_record, extract_article
from quietedit.cli.options import CONFIG_OPTION
from quietedit.config import load_config
from quietedit.errors import QuieteditError


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
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Extract in this many processes (the output order stays the argument order).",
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
    it for loopback and private networks).

    \b
    Example:
        quietedit extract --json --url https://news.example.org/a/1 page.html
    """
    if url is not None and len(files) != 1:
        raise click.UsageError(f"--url names the address of one FILE, but {len(files)} were given")
    private = False
    if any(name.startswith(("http://", "https://")) for name in files):
        private = load_config(config_path).settings.allow_private_addresses
    tasks = [(name, url, private) for name in files]
    failed = 0
    with _pool(jobs if len(files) > 1 else 1) as pool:
        for name, record, error in pool.map(_extract_file, tasks, chunksize=EXTRACT_CHUNK):
            if error is not None:
                failed += 1
                click.echo(f"Error: {error}", err=True)
                if as_json:
                    click.echo(json.dumps({"input": name, "error": error}, ensure_ascii=False))
            elif as_json:
                click.echo(json.dumps({"input": name, **(record or {})}, ensure_ascii=False))
            else:
                click.echo(_readable_article(name, record or {}))
    if failed:
        sys.exit(1)


EXTRACT_CHUNK = 8  # files per task handed to a worker: big enough to hide the hand-over


def _extract_file(
    task: tuple[str, str | None, bool],
) -> tuple[str, dict[str, Any] | None, str | None]:
    """(file name or URL, its article record or None, the error or None) for one page."""
    name, url, allow_private = task
    try:
        if name.startswith(("http://", "https://")):
            from quietedit.fetch import fetch_document  # only URL arguments need the client

            raw = asyncio.run(fetch_document(name, allow_private=allow_private))
            article = extract_article(raw.body, url=raw.url, content_type=raw.content_type)
        else:
            article = extract_article(_read_page(name), url=url)
        return name, article_record(article), None
    except (OSError, QuieteditError) as exc:
        return name, None, str(exc)


@contextmanager
def _pool(jobs: int) -> Iterator[Executor]:
    """Worker processes for ``jobs`` > 1 (forked where the platform can), else this one."""
    if jobs == 1:
        with _Inline() as inline:
            yield inline
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        yield pool


class _Inline(Executor):
    """An executor that runs every call in this process, in order."""

    def map(self, fn: Callable[..., Any], *iterables: Iterable[Any], **_: Any) -> Iterator[Any]:
        return map(fn, *iterables)


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
