"""The ``quietedit`` command line: each command parses, calls one function, and reports.

Results go to stdout, logs and progress to stderr. A ``QuieteditError`` becomes a one-line
(or one-line-per-problem) message and exit status 1; usage errors exit 2.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import logging
import multiprocessing
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

from quietedit import __version__
from quietedit.analysis.classify import Classification, classify_change
from quietedit.analysis.diff import RevisionDiff, choose_pair, diff_revisions
from quietedit.analysis.render import plain_style, render_diff
from quietedit.archive.audit import audit_since
from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.article.extract import article_record, extract_article
from quietedit.config import Config, effective_settings, load_config
from quietedit.errors import QuieteditError, RevisionNotFoundError
from quietedit.ingest.run import run_ingest
from quietedit.model import Revision, format_timestamp

logger = logging.getLogger("quietedit")

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


class _Group(click.Group):
    """Turns quietedit's own errors into clean messages instead of tracebacks."""

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
    append-only in a git-committed data/ folder, and checks that archive.
    """
    level = logging.INFO + 10 * (quiet - verbose)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(levelname)s: %(message)s"))
    root = logging.getLogger("quietedit")
    root.handlers[:] = [handler]
    root.setLevel(max(logging.DEBUG, min(level, logging.CRITICAL)))
    root.propagate = False


@cli.command()
@CONFIG_OPTION
@DATA_OPTION
@click.option(
    "--since",
    metavar="GIT_REV",
    default=None,
    help="Also prove with git that no revision or evidence file present at GIT_REV "
    "was modified or deleted since.",
)
def verify(config_path: Path | None, data_dir: Path | None, since: str | None) -> None:
    """Check the archive: schema, hashes, hash chains, numbering, orphans.

    Prints one line per problem (path: message) and exits 1 if there is any, 0 if the
    archive is sound.

    \b
    Example:
        quietedit verify --data data --since HEAD~1
    """
    root = data_dir if data_dir is not None else _load(config_path).settings.paths.data
    report = verify_archive(root)
    problems = list(report.problems)
    if since is not None:
        problems += audit_since(root, since)
    for problem in problems:
        click.echo(str(problem))
    logger.info(
        "checked %d documents, %d revisions, %d evidence files%s: %s",
        report.documents,
        report.revisions,
        report.evidence,
        f" and git history since {since}" if since else "",
        f"{len(problems)} problem(s)" if problems else "no problems",
    )
    if problems:
        sys.exit(1)


@cli.command()
@CONFIG_OPTION
@DATA_OPTION
@click.option(
    "--now",
    "now_text",
    metavar="ISO-8601",
    default=None,
    help="Run on a simulated clock frozen at this time (replays, tests, the demo), "
    "e.g. 2026-11-30T06:00:00Z.",
)
@click.option("--feeds-only", is_flag=True, help="Poll the feeds; fetch no articles.")
@click.option("--strict", is_flag=True, help="Exit 1 if any feed or article failed.")
def ingest(
    config_path: Path | None,
    data_dir: Path | None,
    now_text: str | None,
    feeds_only: bool,
    strict: bool,
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
    config = _load(config_path)
    root = data_dir if data_dir is not None else config.settings.paths.data
    now = _parse_now(now_text) if now_text else datetime.now(UTC)
    progress = _IngestProgress() if sys.stderr.isatty() else None
    report = run_ingest(
        config,
        Archive(root),
        now=now,
        feeds_only=feeds_only,
        simulated=now_text is not None,
        progress=progress,
    )
    if progress is not None:
        progress.close()
    for error in report.errors:
        logger.warning("%s", error)
    click.echo(report.summary())
    if strict and report.failures:
        sys.exit(1)


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


def _parse_now(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise click.BadParameter(f"{text!r} is not an ISO-8601 time", param_hint="--now") from exc
    if moment.tzinfo is None:
        raise click.BadParameter(
            f"{text!r} has no time zone; add Z or an offset, e.g. {text}Z", param_hint="--now"
        )
    return moment.astimezone(UTC)


@cli.command("config")
@CONFIG_OPTION
def show_config(config_path: Path | None) -> None:
    """Validate feeds.yaml and print the effective configuration as JSON.

    Environment overrides (QUIETEDIT_*) and defaults are applied; header values are
    shown as "<redacted>" so tokens never reach a log.

    \b
    Example:
        QUIETEDIT_RUN_MAX_ARTICLES=20 quietedit config --config feeds.yaml
    """
    config = _load(config_path)
    shown = {
        "source": config.source,
        "feeds": [
            {
                "url": feed.url,
                "name": feed.name,
                "slug": feed.slug,
                "enabled": feed.enabled,
                "headers": {name: "<redacted>" for name, _ in feed.headers},
            }
            for feed in config.feeds
        ],
        "settings": effective_settings(config),
    }
    click.echo(json.dumps(shown, indent=2, ensure_ascii=False))


@cli.command("diff")
@click.argument("document")
@CONFIG_OPTION
@DATA_OPTION
@click.option(
    "--from",
    "from_number",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="The older revision.  [default: the one before --to]",
)
@click.option(
    "--to",
    "to_number",
    type=click.IntRange(min=1),
    default=None,
    metavar="M",
    help="The newer revision.  [default: the newest]",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print the diff and its classification as JSON."
)
def diff(
    document: str,
    config_path: Path | None,
    data_dir: Path | None,
    from_number: int | None,
    to_number: int | None,
    as_json: bool,
) -> None:
    """Show what changed between two revisions of DOCUMENT, word by word.

    The report opens with the kinds of change, how much they matter and whether the
    publisher said so (the silent verdict), then shows each changed block with removed
    words as [-...-] and added words as {+...+} (in colour on a terminal). Without
    --from/--to it compares the newest two revisions; --to M alone compares M with its
    predecessor, --from N alone compares N with the newest.

    \b
    Example:
        quietedit diff news-example-org-3f2a9c1d0b7e4a65 --to 3
    """
    root = data_dir if data_dir is not None else _load(config_path).settings.paths.data
    if from_number is not None and to_number is not None and from_number >= to_number:
        raise click.BadParameter(
            f"revision {from_number} is not older than --to {to_number}; "
            "give the older revision to --from",
            param_hint="'--from'",
        )
    old, new, changes, verdict = _diff_document(
        Archive(root), document, from_number=from_number, to_number=to_number
    )
    if as_json:
        shown = {
            "document": document,
            "from": {"revision": old.number, "observed_at": _observed(old)},
            "to": {"revision": new.number, "observed_at": _observed(new)},
            "diff": changes.to_dict(),
            "classification": verdict.to_dict(),
        }
        click.echo(json.dumps(shown, indent=2, sort_keys=True, ensure_ascii=False))
        return
    heading = (
        f"{document}: revision {old.number} ({_observed(old)}) "
        f"→ revision {new.number} ({_observed(new)})"
    )
    style = _terminal_style if sys.stdout.isatty() else plain_style
    click.echo(render_diff(changes, verdict, heading=heading, style=style), nl=False)


def _diff_document(
    archive: Archive, document: str, *, from_number: int | None, to_number: int | None
) -> tuple[Revision, Revision, RevisionDiff, Classification]:
    """Read the document's revisions, pick the pair, diff and classify it."""
    known = archive.document_ids()
    if document not in known:
        close = difflib.get_close_matches(document, known, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else f" ({len(known)} documents)"
        raise RevisionNotFoundError(f"no document {document!r} in {archive.root}{hint}")
    old, new = choose_pair(
        archive.revisions(document),
        document=document,
        from_number=from_number,
        to_number=to_number,
    )
    changes = diff_revisions(old, new)
    return old, new, changes, classify_change(old, new, diff=changes)


def _observed(revision: Revision) -> str:
    return format_timestamp(revision.observation.observed_at)


def _terminal_style(role: str, text: str) -> str:
    """Colour, with strike-through and underline so the marks survive colour blindness."""
    if role == "removed":
        return click.style(text, fg="red", strikethrough=True)
    if role == "added":
        return click.style(text, fg="green", underline=True)
    if role == "heading":
        return click.style(text, bold=True)
    return text


OUT_OPTION = click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="The site folder.  [default: settings.paths.site, i.e. site/]",
)


@cli.command()
@CONFIG_OPTION
@DATA_OPTION
@OUT_OPTION
@click.option(
    "--base-url",
    default=None,
    metavar="URL",
    help="The site's public address; every internal link goes under its path "
    "(https://user.github.io/repo/ → /repo/).  [default: http://127.0.0.1:8000/]",
)
@click.option("--full", is_flag=True, help="Ignore the build cache and render every page.")
def build(
    config_path: Path | None,
    data_dir: Path | None,
    out_dir: Path | None,
    base_url: str | None,
    full: bool,
) -> None:
    """Render the archive as a static site: pages, diffs, feeds, JSON API, search.

    Only pages whose inputs changed are rendered again (the cache is in
    OUT/.quietedit-cache/); the same archive always gives byte-identical files.

    \b
    Example:
        quietedit build --out site --base-url https://user.github.io/quietedit/
    """
    from quietedit.publish.build import DEFAULT_BASE_URL

    report = _build(
        _load(config_path), data_dir, out_dir, base_url=base_url or DEFAULT_BASE_URL, full=full
    )
    if report.failures:
        sys.exit(1)


@cli.command()
@CONFIG_OPTION
@DATA_OPTION
@OUT_OPTION
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="The port on 127.0.0.1.",
)
@click.option(
    "--base-path",
    default="/",
    show_default=True,
    metavar="PATH",
    help="Serve the site under this path, as GitHub Pages serves a project site.",
)
@click.option(
    "--no-rebuild",
    is_flag=True,
    help="Serve the folder as it is: no build at start, no rebuild on change.",
)
def serve(
    config_path: Path | None,
    data_dir: Path | None,
    out_dir: Path | None,
    port: int,
    base_path: str,
    no_rebuild: bool,
) -> None:
    """Preview the site on 127.0.0.1 with GitHub Pages semantics, rebuilding on change.

    Extensionless URLs find their .html file, folders their index.html, and unknown
    paths get 404.html with status 404. The archive and templates are watched and the
    site rebuilt when they change; refresh the page to see it.

    \b
    Example:
        quietedit serve --port 8000 --base-path /quietedit/
    """
    from quietedit.publish.serve import (
        Watcher,
        make_server,
        normalize_base_path,
        serve_forever,
    )

    config = _load(config_path)
    out = out_dir if out_dir is not None else config.settings.paths.site
    path = normalize_base_path(base_path)
    server = make_server(out, port=port, base_path=path)
    url = f"http://127.0.0.1:{server.server_address[1]}{path}"
    watcher = None
    if not no_rebuild:
        data = data_dir if data_dir is not None else config.settings.paths.data

        def rebuild() -> None:
            # one process: the watcher thread must not fork a multi-threaded server
            _build(config, data_dir, out_dir, base_url=url, full=False, workers=1)

        rebuild()
        watcher = Watcher([data, config.settings.paths.templates], rebuild)
    click.echo(f"serving {out} at {url} (Ctrl-C to stop)")
    serve_forever(server, watcher)


def _build(
    config: Config,
    data_dir: Path | None,
    out_dir: Path | None,
    *,
    base_url: str,
    full: bool,
    workers: int | None = None,
) -> Any:
    """Run one build and report it: a summary on stdout, failures on stderr."""
    from quietedit.publish.build import BuildOptions, build_site
    from quietedit.publish.pages import Source

    paths = config.settings.paths
    options = BuildOptions(
        data=data_dir if data_dir is not None else paths.data,
        out=out_dir if out_dir is not None else paths.site,
        templates=paths.templates,
        base_url=base_url,
        full=full,
        sources=tuple(Source(f.slug, f.name, f.url) for f in config.feeds),
    )
    if workers is not None:
        options = dataclasses.replace(options, workers=workers)
    if sys.stderr.isatty():
        with click.progressbar(length=1, label="Rendering", file=sys.stderr) as bar:

            def progress(done: int, total: int) -> None:
                bar.length = max(total, 1)
                bar.update(done - bar.pos)

            report = build_site(options, progress=progress)
    else:
        report = build_site(options)
    for failure in report.failures:
        click.echo(f"Error: {failure}", err=True)
    click.echo(
        f"{options.out}: {report.documents} documents, {report.edits} edits, "
        f"{report.files} files ({len(report.written)} written, {len(report.removed)} removed; "
        f"{report.rendered} documents rendered, the rest unchanged)"
    )
    return report


@cli.command("extract")
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
def extract(files: tuple[str, ...], as_json: bool, url: str | None, jobs: int) -> None:
    """Extract the article from saved HTML pages: headline, body blocks, metadata.

    Prints each FILE's article in argument order: the headline, the publisher's metadata
    (canonical URL, dates, "Updated" line, notes, authors, language) and the body, with
    subheadings, list items and quotes marked. With --json, one object per FILE on one
    line: title, paragraphs, blocks (text and kind) and metadata. A file that cannot be
    read is reported on stderr (and as {"input", "error"} with --json); the others are
    still extracted, and the exit status is 1.

    \b
    Example:
        quietedit extract --json --url https://news.example.org/a/1 page.html
    """
    if url is not None and len(files) != 1:
        raise click.UsageError(f"--url names the address of one FILE, but {len(files)} were given")
    tasks = [(name, url) for name in files]
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


def _extract_file(task: tuple[str, str | None]) -> tuple[str, dict[str, Any] | None, str | None]:
    """(file name, its article record or None, the error or None) for one saved page."""
    name, url = task
    try:
        return name, article_record(extract_article(_read_page(name), url=url)), None
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
        if name.startswith(("http://", "https://")) and not path.exists():
            raise OSError(
                f"{name}: quietedit extract reads saved pages; save the page and pass its file"
            ) from exc
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


def _load(config_path: Path | None) -> Config:
    return load_config(config_path)


def main() -> None:
    """Entry point of the ``quietedit`` console script and ``python -m quietedit``."""
    cli(prog_name="quietedit")
