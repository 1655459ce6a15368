"""The archive's mutable files beside the documents: the feeds' records and day files, and
the run-level state files (I/O).

Each is one JSON file replaced whole and atomically, stamped with the schema, its type and
its name (a feed's slug, a state file's name, a day file's slug and day), and checked on
the way in. ``feeds/<slug>.json`` holds what a feed's polls keep (its HTTP validators, the
entries it carries); ``departed/<YYYY>/<MM>/<DD>/<slug>.json`` the snapshots of the entries
that left the feed that day (:mod:`quietedit.decide.departed`), a folder a sparse checkout
may leave out and which is fetched when read; ``state/<name>.json`` a run-level state.
The writes go through the archive's primitive (:meth:`~quietedit.archive.store.Archive._replace`),
handed in as ``replace``, and the reads through its checked reader, handed in as ``read``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from quietedit.archive import sparse
from quietedit.archive.files import contents
from quietedit.archive.layout import Layout
from quietedit.archive.records import dump_json
from quietedit.errors import ArchiveError
from quietedit.model import JSON
from quietedit.revisions import SCHEMA_VERSION

Read = Callable[[Path, str], dict[str, JSON] | None]
"""Reads a state file of a kind (``feed``, ``departed``, ``state``): ``None`` if missing."""
Replace = Callable[[Path, bytes, bool], None]
"""Replaces a file atomically with the bytes (the bool: ``final``, the unit's last write)."""
Remove = Callable[[Path], None]
"""Deletes a mutable file (nothing when it is missing)."""


class StateFiles:
    """The feed records, their day files and the run-level state files of one archive."""

    def __init__(self, layout: Layout, *, read: Read, replace: Replace, remove: Remove) -> None:
        self.layout = layout
        self._read = read
        self._replace = replace
        self._remove = remove

    def feed_slugs(self) -> list[str]:
        """Slugs of every feed that has a record, sorted."""
        folder = self.layout.root / "feeds"
        return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []

    def read_feed(self, slug: str) -> dict[str, JSON] | None:
        return self._read(self.layout.feed_file(slug), "feed")

    def write_feed(self, slug: str, record: dict[str, JSON], *, final: bool = False) -> None:
        """Atomically replace the feed's record; ``final``: the last write of its unit."""
        full = {**record, "schema": SCHEMA_VERSION, "type": "feed", "slug": slug}
        self._replace(self.layout.feed_file(slug), dump_json(full), final)

    def read_departed(self, slug: str, day: str) -> dict[str, JSON] | None:
        """The day file of feed ``slug`` for ``day`` (``None``: there is none); its folder
        is fetched into a sparse checkout that leaves it out. ``ArchiveError`` when it
        cannot be read (or fetched)."""
        path = self.layout.departed_file(slug, day)
        if not path.parent.is_dir():
            sparse.fetch_folder(self.layout.root, path.parent)
        record = self._read(path, "departed")
        if record is not None and (record.get("slug") != slug or record.get("day") != day):
            raise ArchiveError(path, "slug or day does not match the file's path")
        return record

    def write_departed(self, slug: str, day: str, record: dict[str, JSON]) -> None:
        """Atomically replace the day file of feed ``slug`` for ``day``; flushed, as the
        feed record written next refers to it."""
        full = {**record, "schema": SCHEMA_VERSION, "type": "departed", "slug": slug, "day": day}
        self._replace(self.layout.departed_file(slug, day), dump_json(full), False)

    def prefetch_departed(self, days: Iterable[str]) -> int:
        """Bring the day folders of ``days`` that a sparse checkout leaves out into it at
        once; how many came."""
        missing = [self.layout.departed_dir(day) for day in sorted(set(days))]
        missing = [folder for folder in missing if not folder.is_dir()]
        return sparse.fetch_folders(self.layout.root, missing) if missing else 0

    def state_names(self) -> list[str]:
        """Names of every run-level state file in ``state/``, sorted."""
        folder = self.layout.root / "state"
        return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []

    def read_state(self, name: str) -> dict[str, JSON] | None:
        return self._read(self.layout.state_file(name), "state")

    def write_state(self, name: str, record: dict[str, JSON], *, final: bool = False) -> None:
        """Atomically replace a state file; ``final`` as for :meth:`write_feed`."""
        self._replace(self.layout.state_file(name), _state_bytes(name, record), final)

    def holds_state(self, name: str, record: dict[str, JSON]) -> bool:
        """Whether ``state/<name>.json`` is on disk with the very bytes
        :meth:`write_state` would write for ``record`` (a damaged file is not)."""
        return contents(self.layout.state_file(name)) == _state_bytes(name, record)

    def remove_state(self, name: str) -> None:
        """Delete ``state/<name>.json`` (nothing when it is missing): a state a run no
        longer keeps (a part of its observed list that a newer part replaced)."""
        self._remove(self.layout.state_file(name))


def _state_bytes(name: str, record: dict[str, JSON]) -> bytes:
    return dump_json({**record, "schema": SCHEMA_VERSION, "type": "state", "name": name})
