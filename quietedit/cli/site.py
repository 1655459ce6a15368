"""``quietedit build`` and ``quietedit serve``: the static site and its local preview."""

from __future__ import annotations

import dataclasses
import sys
import time
from pathlib import Path
from typing import Any

import click

from quietedit.cli.options import CONFIG_OPTION, DATA_OPTION, OUT_OPTION
from quietedit.config import Config, load_config


@click.command()
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
@click.option(
    "--data-url",
    default=None,
    metavar="URL",
    help="Where the archive folder can be browsed (e.g. "
    "https://github.com/user/repo/tree/main/data/): the archive pages of folded months "
    "link each article's data there.",
)
@click.option(
    "--database-url",
    default=None,
    metavar="URL",
    callback=lambda _ctx, _param, value: _http_url(value, "--database-url"),
    help="Where the SQLite export of the archive is published (e.g. "
    "https://github.com/user/repo/releases/latest, the release export.yml attaches it to): "
    "the about page links it. Without it, the about page says how to make the database.",
)
@click.option(
    "--text",
    type=click.Choice(["observed", "reextracted"]),
    default=None,
    help="Show each revision's text as first observed, or as re-extracted from its stored "
    "page by `quietedit reextract` (where it reads differently).  "
    "[default: settings.site.reextracted, i.e. observed]",
)
def build(
    config_path: Path | None,
    data_dir: Path | None,
    out_dir: Path | None,
    base_url: str | None,
    full: bool,
    data_url: str | None,
    database_url: str | None,
    text: str | None,
) -> None:
    """Render the archive as a static site: pages, diffs, feeds, JSON API, search.

    Only pages whose inputs changed are rendered again (the cache is in
    OUT/.quietedit-cache/); the same archive always gives byte-identical files.

    \b
    Example:
        quietedit build --out site --base-url https://user.github.io/quietedit/
    """
    from quietedit.publish.build import DEFAULT_BASE_URL

    report = build_once(
        load_config(config_path),
        data_dir,
        out_dir,
        base_url=base_url or DEFAULT_BASE_URL,
        full=full,
        data_url=data_url,
        database_url=database_url,
        reextracted=None if text is None else text == "reextracted",
    )
    if report.failures:
        sys.exit(1)


@click.command()
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

    config = load_config(config_path)
    out = out_dir if out_dir is not None else config.settings.paths.site
    path = normalize_base_path(base_path)
    server = make_server(out, port=port, base_path=path)
    url = f"http://127.0.0.1:{server.server_address[1]}{path}"
    watcher = None
    if not no_rebuild:
        data = data_dir if data_dir is not None else config.settings.paths.data

        def rebuild() -> None:
            # one process: the watcher thread must not fork a multi-threaded server
            build_once(config, data_dir, out_dir, base_url=url, full=False, workers=1)

        rebuild()
        watcher = Watcher([data, config.settings.paths.templates], rebuild)
    click.echo(f"serving {out} at {url} (Ctrl-C to stop)")
    serve_forever(server, watcher)


def build_once(
    config: Config,
    data_dir: Path | None,
    out_dir: Path | None,
    *,
    base_url: str,
    full: bool,
    workers: int | None = None,
    data_url: str | None = None,
    database_url: str | None = None,
    reextracted: bool | None = None,
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
        sources=tuple(Source(f.slug, f.name, f.url, f.watch) for f in config.feeds),
        watch=config.settings.watch,
        max_bytes=config.settings.site.max_bytes,
        data_url=data_url if data_url is None or data_url.endswith("/") else data_url + "/",
        database_url=database_url,
        reextracted=config.settings.site.reextracted if reextracted is None else reextracted,
        share_days=config.settings.site.share_days,
    )
    if workers is not None:
        options = dataclasses.replace(options, workers=workers)
    started = time.monotonic()
    if sys.stderr.isatty():
        with click.progressbar(length=1, label="Rendering", file=sys.stderr) as bar:

            def progress(done: int, total: int) -> None:
                bar.length = max(total, 1)
                bar.update(done - bar.pos)

            report = build_site(options, progress=progress)
    else:
        report = build_site(options)
    seconds = max(time.monotonic() - started, 1e-6)
    pages = sum(path.endswith(".html") for path in report.written)
    for failure in report.failures:
        click.echo(f"Error: {failure}", err=True)
    click.echo(
        f"{options.out}: {report.documents} documents, {report.edits} edits, "
        f"{report.files} files ({len(report.written)} written, {len(report.removed)} removed; "
        f"{report.rendered} documents rendered, the rest unchanged) in {seconds:.1f} s, "
        f"{pages / seconds:,.0f} pages written per second"
    )
    return report


def _http_url(value: str | None, option: str) -> str | None:
    """``value`` if it is an http(s) URL (or not given); else a usage error naming it."""
    from quietedit.publish.text import safe_http_url

    if value is None or safe_http_url(value) is not None:
        return value
    raise click.BadParameter(f"{value!r} is not an http(s) URL", param_hint=option)
