"""Full-text search with Pagefind, indexed in-process through its Python API.

Pagefind's chunked index keeps what a visitor downloads small however large the archive
grows. The index is *sharded by source*: each source's articles form one Pagefind bundle
(split in 4 or 16 by the last hex digit of document ids when the source is large) under
``search/index/<source>/<part>/``. The search page merges every bundle with Pagefind's
``mergeIndex`` and tags each with ``mergeFilter: {source: <name>}``, which gives the
"filter by source" without filter data in the index. That matters twice: Pagefind writes
filter chunks in a different order on every run (so a filtered index is never
byte-identical), and an incremental build re-indexes only the shards whose articles
changed. Only article pages are indexed, scoped by their ``data-pagefind-body``.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from quietedit.errors import PublishError

logger = logging.getLogger(__name__)

BUNDLE_ROOT: Final = "search/index"
PARTS_FOR_SIZE: Final = ((1500, 1), (6000, 4))
"""Articles of one source → bundles: under 1,500 one bundle (about 1.5 s to index), under
6,000 four, beyond that sixteen, so one incremental re-index stays near a second."""


def search_available() -> bool:
    """Whether the ``pagefind`` package (with its binary) is installed."""
    try:
        import pagefind.service  # noqa: F401
    except ImportError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class Shard:
    """One Pagefind bundle: a source's articles, or one part of them."""

    source: str  # the source's slug
    part: str  # "all", or "<parts>-<n>" (e.g. "4-0")
    documents: tuple[str, ...]

    @property
    def path(self) -> str:
        return f"{BUNDLE_ROOT}/{self.source}/{self.part}/"


def plan_shards(documents: dict[str, str]) -> list[Shard]:
    """The bundles for ``documents`` (id → source slug), sorted; empty parts are left out."""
    by_source: dict[str, list[str]] = {}
    for doc, source in sorted(documents.items()):
        by_source.setdefault(source, []).append(doc)
    shards = []
    for source, docs in sorted(by_source.items()):
        parts = next((n for limit, n in PARTS_FOR_SIZE if len(docs) < limit), 16)
        if parts == 1:
            shards.append(Shard(source, "all", tuple(docs)))
            continue
        groups: dict[int, list[str]] = {}
        for doc in docs:
            groups.setdefault(int(doc[-1], 16) * parts // 16, []).append(doc)
        shards += [Shard(source, f"{parts}-{n}", tuple(g)) for n, g in sorted(groups.items())]
    return shards


def _glob(shard: Shard) -> str:
    # document ids are [a-z0-9-]: safe inside a glob alternation
    if len(shard.documents) == 1:
        return f"articles/{shard.documents[0]}/index.html"
    return "articles/{" + ",".join(shard.documents) + "}/index.html"


def index_shards(site: Path, shards: list[Shard]) -> dict[str, dict[str, bytes]]:
    """Index each shard's article pages below ``site``: ``{shard path: {name: bytes}}``.

    One Pagefind service indexes every shard in turn. Raises ``PublishError`` when
    Pagefind is missing or fails.
    """
    if not shards:
        return {}
    try:
        from pagefind.index import IndexConfig
        from pagefind.service import PagefindService
    except ImportError as exc:
        raise PublishError(
            "search: the pagefind package is not installed; pip install 'pagefind[bin]'"
        ) from exc
    root = str(site.resolve())

    async def run_all(work: Path) -> None:
        async with PagefindService() as service:
            for n, shard in enumerate(shards):
                config = IndexConfig(force_language="en")
                index = await service.create_index(config)
                result = await index.add_directory(root, glob=_glob(shard))
                logger.debug("search %s: %s pages", shard.path, result.get("page_count"))
                await index.write_files(output_path=str(work / str(n)))

    results: dict[str, dict[str, bytes]] = {}
    work = Path(tempfile.mkdtemp(prefix="quietedit-search-"))
    try:
        try:
            asyncio.run(run_all(work))
        except Exception as exc:  # Pagefind raises bare Exceptions
            raise PublishError(f"search: Pagefind failed: {exc}") from exc
        for n, shard in enumerate(shards):
            folder = work / str(n)
            files = sorted(p for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else []
            results[shard.path] = {p.relative_to(folder).as_posix(): p.read_bytes() for p in files}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return results
