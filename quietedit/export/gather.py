"""One document of the archive gathered for the export (I/O): its files read, its
revisions compared as the site compares them, and the source it is listed under."""

from __future__ import annotations

import json
import logging
from itertools import pairwise
from pathlib import Path

from quietedit.archive.store import Archive
from quietedit.export.reading import read_listed
from quietedit.export.rows import DocumentData
from quietedit.model import JSON
from quietedit.publish.changes import Comparison, compare_revisions, pair_key
from quietedit.publish.live import live_pairs
from quietedit.publish.text import host_slug, safe_http_url

logger = logging.getLogger(__name__)


def gather_document(
    archive: Archive,
    partition: str,
    doc: str,
    *,
    configured: frozenset[str],
    site_cache: Path | None = None,
) -> DocumentData:
    """Gather one document and compare its revisions as the site does, taking the
    comparisons a site build saved in ``site_cache`` (its ``.quietedit-cache`` folder)
    where they are there for the same revisions and the same analysis version."""
    read = read_listed(archive, partition, doc)
    revisions, record, events = read.revisions, read.record, read.events
    live = live_pairs(events)
    saved = _saved_comparisons(site_cache, doc) if site_cache is not None and revisions else {}
    comparisons = []
    for old, new in pairwise(revisions):
        pair = live(old.number, new.number)
        found = saved.get(pair_key(old, new, live=pair))
        comparison = Comparison.from_record(found) if isinstance(found, dict) else None
        if comparison is None:
            comparison = compare_revisions(old, new, live=pair)
        comparisons.append((comparison.diff, comparison.classification))
    derived = read.derived
    if read.derived_problem is not None:  # the revisions stand without it; verify names it
        logger.warning("%s: derived records left out: %s", doc, read.derived_problem)
    return DocumentData(
        id=doc,
        partition=partition,
        source=source_of(record, configured),
        record=record,
        revisions=revisions,
        events=events,
        comparisons=comparisons,
        derived=derived,
    )


def _saved_comparisons(site_cache: Path, doc: str) -> dict[str, JSON]:
    """The comparisons a site build saved for ``doc`` (``diffs/<id>.json``), by pair key."""
    try:
        record = json.loads((site_cache / "diffs" / f"{doc}.json").read_bytes())
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


def source_of(record: dict[str, JSON], configured: frozenset[str]) -> str:
    """The source a document is listed under, as the site decides it: its first feed in
    ``configured``, else its first feed whose slug is a host's, else its URL's host."""
    feeds = record.get("feeds")
    slugs = [f for f in feeds if isinstance(f, str)] if isinstance(feeds, list) else []
    for slug in slugs:
        if slug in configured:
            return slug
    for slug in slugs:
        if host_slug(f"https://{slug}") == slug:
            return slug
    return host_slug(safe_http_url(record.get("url")))
