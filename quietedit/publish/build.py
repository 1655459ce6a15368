"""``quietedit build``: the archive in, the static site out — deterministic and incremental.

Gather (archive, config, cache), decide (pure page models in ``pages``/``listing``), apply
(render and write through :class:`~quietedit.publish.paths.SiteWriter`).

**The build cache** lives in ``<out>/.quietedit-cache/`` (a dot-folder: the Pages upload
and ``quietedit serve`` leave it out): ``manifest.json`` records every output file with
the SHA-256 of its bytes and the key of its inputs; ``summaries.json`` holds each
document's key, edit summaries and files; ``diffs/<id>.json`` its computed comparisons.
A document's key hashes the build's fingerprint (the builder's and the analysis's code,
the templates, the base URL, the sources) with its content key: its record, its newest
revision file (whose hash chains every older one) and its events. The content key is
recomputed when the document's folder times change. An unchanged document is neither
read nor rendered; each diff is keyed by the two revisions' hashes and computed once;
site-wide pages are rendered only when the key of their inputs changed; files whose
bytes are unchanged are not rewritten, and files no longer produced are deleted.
``--full`` ignores the cache (deleting the folder has the same effect). Documents are
rendered in parallel by forked worker processes, one per core (``documents``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from markupsafe import Markup

from quietedit import __version__
from quietedit.archive.store import Archive
from quietedit.errors import PublishError
from quietedit.model import JSON
from quietedit.publish import sitewide
from quietedit.publish.changes import ANALYSIS_VERSION
from quietedit.publish.documents import DocumentPages, DocumentResult, render_documents
from quietedit.publish.pages import (
    Source,
)
from quietedit.publish.paths import CACHE_DIR, SiteWriter
from quietedit.publish.render import Renderer, SiteURLs, template_dirs

logger = logging.getLogger(__name__)

CACHE_SCHEMA: Final = 1
MAX_WORKERS: Final = 4
"""Processes rendering documents in parallel (one per core, at most this many)."""
DEFAULT_BASE_URL: Final = "http://127.0.0.1:8000/"
"""What ``quietedit serve`` serves on; a deployed site passes its own ``--base-url``."""


@dataclass(frozen=True, slots=True)
class BuildOptions:
    """What to build from and to. ``sources`` are feeds.yaml's feeds (may be empty)."""

    data: Path
    out: Path
    templates: Path | None = None
    base_url: str = DEFAULT_BASE_URL
    full: bool = False
    sources: tuple[Source, ...] = ()
    search: bool = True
    workers: int = field(default_factory=lambda: min(os.cpu_count() or 1, MAX_WORKERS))


@dataclass(frozen=True, slots=True)
class BuildReport:
    """What a build did: counts, the files it rewrote and removed, and per-item failures."""

    documents: int
    rendered: int  # documents whose pages were rendered (the rest came from the cache)
    edits: int
    files: int  # files the site consists of
    written: tuple[str, ...]
    removed: tuple[str, ...]
    failures: tuple[str, ...] = ()


def build_site(
    options: BuildOptions, *, progress: Callable[[int, int], None] | None = None
) -> BuildReport:
    """Render the archive at ``options.data`` into ``options.out``; see the module docstring.

    One document that cannot be read or rendered is reported in ``failures`` and left out;
    the rest of the site is built. Template and output-path problems abort the build.
    """
    if not options.data.is_dir():
        raise PublishError(
            f"no archive at {options.data}; pass --data with the archive folder "
            "(or run quietedit ingest first)"
        )
    urls = SiteURLs.parse(options.base_url)
    renderer = Renderer(template_dirs(options.templates), urls=urls)
    fingerprint = _fingerprint(renderer, options)
    cache_root = options.out / CACHE_DIR
    manifest = _load_manifest(cache_root, fingerprint)
    previous = {path: entry[0] for path, entry in manifest.get("files", {}).items()}
    # --full trusts nothing recorded: every page is rendered and compared with the bytes
    # on disk; the previous file list still says which files are stale
    known = {} if options.full else previous
    keys = {} if options.full else {p: e[1] for p, e in manifest.get("files", {}).items()}
    options.out.mkdir(parents=True, exist_ok=True)
    writer = SiteWriter(options.out, known=known)
    archive = Archive(options.data)
    sources = {s.slug: s for s in options.sources}
    ids = archive.document_ids()
    results: list[DocumentResult] = []
    failures: list[str] = []
    new_keys: dict[str, str] = {}
    summaries = {} if options.full else _load_summaries(cache_root)
    context = DocumentPages(
        archive, renderer, writer, sources, fingerprint, cache_root, options.full
    )
    context.summaries = summaries
    todo: list[str] = []
    for doc in ids:
        try:
            cached = context.cached(doc, keys)
        except Exception as exc:  # noqa: BLE001 - one bad document must not stop the build
            logger.error("%s: not published: %s", doc, exc)
            failures.append(f"{doc}: {exc}")
            continue
        if cached is None:
            todo.append(doc)
            continue
        results.append(cached)
        for path in cached.files:
            new_keys[path] = context.keys[doc]
    for chunk in render_documents(context, todo, keys, workers=options.workers):
        for path, digest in chunk.claimed.items():
            writer.claim(path, digest)  # two documents claiming one path fail here
        writer.written.extend(chunk.written)
        failures.extend(chunk.failures)
        for result in chunk.results:
            results.append(result)
            for path in result.files:
                new_keys[path] = chunk.keys[result.summary.id]
        if progress is not None:
            progress(len(results) + len(failures), len(ids))
    for slug in sorted({r.summary.source for r in results}):
        sources[slug] = context.source(slug)
    site = sitewide.SiteWide(
        renderer=renderer,
        writer=writer,
        archive=archive,
        fingerprint=fingerprint,
        keys=keys,
        new_keys=new_keys,
        doc_keys=context.keys,
        items={
            (r.summary.id, int(n)): Markup(html)  # noqa: S704 - rendered with autoescape
            for r in results
            for n, html in r.items.items()
        },
    )
    failures += site.write_all(
        [r.summary for r in results],
        [e for r in results for e in r.edits],
        sources=sources,
        changed={r.summary.id for r in results if r.rendered},
        with_search=options.search,
        search_rebuild=options.full or not manifest,
    )
    removed = writer.remove_stale(previous)
    _save_manifest(cache_root, fingerprint, writer.claimed, new_keys)
    if todo or set(summaries) != {r.summary.id for r in results}:
        _save_summaries(cache_root, {r.summary.id: r.record for r in results})
    context.prune_cache({r.summary.id for r in results})
    return BuildReport(
        documents=len(results),
        rendered=sum(r.rendered for r in results),
        edits=sum(len(r.edits) for r in results),
        files=len(writer.claimed),
        written=tuple(writer.written),
        removed=tuple(removed),
        failures=tuple(failures),
    )


def _fingerprint(renderer: Renderer, options: BuildOptions) -> str:
    digest = hashlib.sha256()
    for part in (
        f"cache-{CACHE_SCHEMA}",
        __version__,
        _code_version(),
        ANALYSIS_VERSION,
        renderer.fingerprint(),
        renderer.urls.base_url,
        repr(sorted(options.sources, key=lambda s: s.slug)),
    ):
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()


def _code_version() -> str:
    """A hash of the site builder's own code: a changed builder re-renders every page."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _load_manifest(cache_root: Path, fingerprint: str) -> dict[str, dict[str, list[str]]]:
    """The previous build's manifest, or ``{}`` when absent, unreadable or not this kind."""
    path = cache_root / "manifest.json"
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(record, dict) or record.get("schema") != CACHE_SCHEMA:
        return {}
    files = record.get("files")
    if not isinstance(files, dict):
        return {}
    if record.get("fingerprint") != fingerprint:
        # templates or settings changed: every page is re-rendered, but files whose bytes
        # come out the same are still left untouched
        return {"files": {p: [e[0], ""] for p, e in files.items() if isinstance(e, list)}}
    return {"files": {p: e for p, e in files.items() if isinstance(e, list) and len(e) == 2}}


def _load_summaries(cache_root: Path) -> dict[str, JSON]:
    """The previous build's per-document summaries (``{}`` when absent or unreadable)."""
    try:
        record = json.loads((cache_root / "summaries.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(record, dict) or record.get("schema") != CACHE_SCHEMA:
        return {}
    documents = record.get("documents")
    return documents if isinstance(documents, dict) else {}


def _save_summaries(cache_root: Path, documents: dict[str, dict[str, JSON]]) -> None:
    record = {"documents": documents, "schema": CACHE_SCHEMA}
    cache_root.mkdir(parents=True, exist_ok=True)
    tmp = cache_root / "summaries.json.tmp"
    # not key-sorted: the cache is read by this code only, and sorting costs a second here
    tmp.write_text(json.dumps(record, separators=(",", ":")), encoding="utf-8")
    tmp.replace(cache_root / "summaries.json")


def _save_manifest(
    cache_root: Path, fingerprint: str, claimed: dict[str, str], keys: dict[str, str]
) -> None:
    record = {
        "files": {path: [digest, keys.get(path, "")] for path, digest in sorted(claimed.items())},
        "fingerprint": fingerprint,
        "schema": CACHE_SCHEMA,
    }
    cache_root.mkdir(parents=True, exist_ok=True)
    tmp = cache_root / "manifest.json.tmp"
    tmp.write_text(json.dumps(record, separators=(",", ":")), encoding="utf-8")  # built sorted
    tmp.replace(cache_root / "manifest.json")
