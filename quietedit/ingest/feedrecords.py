"""The feeds' states as the archive keeps them (``feeds/<slug>.json``), read once a run."""

from __future__ import annotations

import logging

from quietedit.archive.store import Archive
from quietedit.decide.memory import FeedState, feed_from_record
from quietedit.errors import ArchiveError

logger = logging.getLogger(__name__)


def load_feeds(archive: Archive, *, unreadable: str) -> dict[str, FeedState]:
    """Each feed's state by slug; a record that cannot be read is left out, with a warning
    that ends with ``unreadable`` (what the caller does without it)."""
    states = {}
    for slug in archive.feed_slugs():
        try:
            record = archive.read_feed(slug)
        except ArchiveError as exc:
            logger.warning("%s; %s", exc, unreadable)
            continue
        if record is not None:
            states[slug] = feed_from_record(slug, record)
    return states
