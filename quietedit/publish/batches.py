"""Rendering many documents: in order, in forked worker processes (:mod:`quietedit.pool`)
when it pays.

Each unit of work (a run of documents) renders through a fresh
:class:`~quietedit.publish.paths.SiteWriter` and comes back as a :class:`Chunk` that the
build merges in order, so the site is the same whichever process rendered what. A document
that fails is recorded in the chunk's ``failures`` and the rest go on.
"""

from __future__ import annotations

import logging
import multiprocessing
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

from quietedit.errors import PublishError, WorkerDiedError
from quietedit.pool import WorkerPool
from quietedit.publish.documents import DocumentPages, DocumentResult, document_folders
from quietedit.publish.paths import SiteWriter

logger = logging.getLogger(__name__)

PARALLEL_THRESHOLD: Final = 200
"""Below this many documents to render, forking workers costs more than it saves."""
CHUNK_SIZE: Final = 25
"""Documents per unit of work: small enough to balance two cores and to hand the search
indexer each finished shard soon."""


@dataclass(slots=True)
class Chunk:
    """What rendering a run of documents produced, to be merged into the build."""

    documents: list[str]  # every document of the run, rendered or not
    results: dict[str, DocumentResult] = field(default_factory=dict)
    claimed: dict[str, str] = field(default_factory=dict)
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    failures: dict[str, str] = field(default_factory=dict)


_FORKED: list[tuple[DocumentPages, SiteWriter]] = []
"""The context a forked worker inherits from the parent (set just before forking)."""


def render_documents(
    pages: DocumentPages, ids: list[str], *, writer: SiteWriter, workers: int
) -> Iterator[Chunk]:
    """Render ``ids`` in chunks, yielded in order; in ``workers`` forked processes when
    there are enough documents to pay for the fork."""
    chunks = [ids[i : i + CHUNK_SIZE] for i in range(0, len(ids), CHUNK_SIZE)]
    if not forks(len(ids), workers):
        for chunk in chunks:
            yield render_chunk(pages, writer, chunk)
        return
    _FORKED[:] = [(pages, writer)]
    try:
        # a worker killed by a signal or the out-of-memory killer fails the map, where
        # multiprocessing.Pool would wait for ever
        with WorkerPool(workers, method="fork") as pool:
            yield from pool.map(_render_forked, chunks)
    except WorkerDiedError as exc:
        raise PublishError(
            "a render worker died (killed by a signal or out of memory); "
            "build again, or with fewer workers"
        ) from exc
    finally:
        _FORKED.clear()


def forks(count: int, workers: int) -> bool:
    """Whether :func:`render_documents` renders ``count`` documents in forked processes
    (the workers inherit the renderer and the archive: only where processes can fork; the
    build starts no thread before its workers are forked)."""
    fork = "fork" in multiprocessing.get_all_start_methods()
    return workers > 1 and count >= PARALLEL_THRESHOLD and fork


def _render_forked(ids: list[str]) -> Chunk:
    pages, writer = _FORKED[0]
    return render_chunk(pages, writer, ids)


def render_chunk(pages: DocumentPages, writer: SiteWriter, ids: list[str]) -> Chunk:
    """Render each document of ``ids``; a failing one is recorded, not raised."""
    own = writer.fresh()
    chunk = Chunk(list(ids))
    for doc in ids:
        try:
            result = pages.render(doc, own)
        except Exception as exc:  # noqa: BLE001 - one bad document must not stop the build
            logger.error("%s: not published: %s", doc, exc)
            chunk.failures[doc] = f"{doc}: {exc}"
            # what it wrote before failing goes, with its pages of earlier builds
            folders = document_folders(doc)
            for path in [p for p in own.claimed if p.startswith(folders)]:
                del own.claimed[path]
            own.remove_unclaimed(folders)
            continue
        if result is not None:
            chunk.results[doc] = result
    chunk.claimed, chunk.written, chunk.removed = own.claimed, own.written, own.removed
    return chunk
