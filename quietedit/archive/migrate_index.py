"""``quietedit migrate``, the index's part: move the schema-2 index into shard folders,
and seal the open files of schema 3; idempotent and crash-safe.

Schema 2 kept the index in 256 files, ``index/<hh>.json`` (a sharded run's:
``index/<hh>-shard-K-of-N.json``), each rewritten whole at every new entry as it grew with
the archive; schemas 3 and 4 keep it in 4,096 shard folders (:mod:`quietedit.archive.index`).
For each old file, in name order: its entries are merged into the open files of their new
shards, the same writer's (``entries-<hhh>.json``, or ``entries-shard-K-of-N-<hhh>.json``
for ``<hh>-shard-K-of-N.json``), each written atomically and durably; then the old file is
removed. Readers merge the old files with the new ones, so a process killed at any point
leaves every entry findable, in one place or in both with the same partition; the next run
writes what is missing (a file already holding its entries is not written again) and
removes what is left. An entry that the new files place in another partition is a
conflict: reported, and that old file left in place.

Schema 3 kept one file per writer and shard, ``entries[-shard-K-of-N].json``, rewritten
whole at every new entry; :func:`seal_open_files` renames each to its writer's next sealed
file, which schema 4 never writes again (:mod:`quietedit.archive.index`).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from quietedit.archive.checks import Problem, index_entries
from quietedit.archive.files import fsync_dir, listdir, replace_file
from quietedit.archive.index import index_record
from quietedit.archive.layout import (
    INDEX_DIR,
    LEGACY_INDEX_NAME_PATTERN,
    SHARD_PATTERN,
    Layout,
    index_file_writer,
    index_shard,
    legacy_index_path,
)
from quietedit.model import JSON

logger = logging.getLogger(__name__)


@dataclass
class IndexMove:
    """What moving the index did: schema-2 files moved (and removed), entries written to
    new files, schema-3 open files sealed, and the old files left in place with the
    reason."""

    files: int = 0
    entries: int = 0
    sealed: int = 0
    problems: list[Problem] = field(default_factory=list)


def move_index(root: Path) -> IndexMove:
    """Move every schema-2 index file of the archive at ``root`` into the shard folders
    (see the module docstring); a second run finds nothing to do. The caller holds the
    run lock."""
    layout = Layout(root)
    done = IndexMove()
    written: dict[Path, dict[str, str]] = {}  # new files as this run left them
    for name in listdir(layout.index_dir):
        if legacy_index_path(PurePosixPath(INDEX_DIR, name)) is None:
            continue
        old = layout.index_dir / name
        match = LEGACY_INDEX_NAME_PATTERN.fullmatch(name)
        writer = (match["writer"] if match else None) or ""
        try:
            entries = _old_entries(old)
            targets = _targets(layout, entries, writer=writer, written=written)
        except _Conflict as exc:
            done.problems.append(Problem(str(old), f"{exc}; left in place"))
            continue
        for path, (shard, merged, added) in sorted(targets.items()):
            if added:
                replace_file(layout.tmp_dir, path, index_record(shard, merged), final=False)
                done.entries += added
            written[path] = merged
        old.unlink()  # every entry is in its new file, on disk: the old one can go
        done.files += 1
        logger.debug("moved %s (%d entries)", name, len(entries))
    done.sealed = seal_open_files(layout)
    return done


def seal_open_files(layout: Layout) -> int:
    """Rename each open index file of schema 3 (``entries[-shard-K-of-N].json``, rewritten
    whole at every new entry) to its writer's next sealed file, its bytes unchanged (git
    stores no new blob): the writer's next entry then begins a small open file of schema 4.
    A rename is atomic, so a process killed at any point leaves each file under one of its
    two names, both read; a second run finds none left. How many were renamed."""
    renamed = 0
    for group in listdir(layout.index_dir):
        for shard in listdir(layout.index_dir / group):
            if not SHARD_PATTERN.fullmatch(shard) or shard[:2] != group:
                continue
            folder = layout.index_folder(shard)
            names = {name: index_file_writer(name) for name in listdir(folder)}
            for name, found in sorted(names.items()):
                if found is None or found[1] != 0:
                    continue  # not a schema-3 open file
                writer = found[0]
                last = max(
                    (seen[1] or 0 for seen in names.values() if seen and seen[0] == writer),
                    default=0,
                )
                target = layout.sealed_index_file(shard, last + 1, writer=writer)
                (folder / name).rename(target)
                names[target.name] = (writer, last + 1)
                renamed += 1
                fsync_dir(folder)
    return renamed


class _Conflict(Exception):
    """An old file that cannot be moved: its message says why."""


def _old_entries(path: Path) -> dict[str, str]:
    try:
        record: JSON = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, ValueError) as exc:
        raise _Conflict(f"cannot read ({exc})") from exc
    documents = record.get("documents") if isinstance(record, dict) else None
    entries = index_entries(record)
    if not isinstance(documents, dict) or len(entries) != len(documents):
        raise _Conflict("not an index file of well-formed entries (run quietedit verify)")
    return entries


def _targets(
    layout: Layout, entries: dict[str, str], *, writer: str, written: dict[Path, dict[str, str]]
) -> dict[Path, tuple[str, dict[str, str], int]]:
    """For each new file the ``entries`` go to: its shard, its entries with them merged
    in, and how many of them it lacked. ``_Conflict`` when a new file of the shard (any
    writer's) places one of them in another partition."""
    by_shard: dict[str, dict[str, str]] = {}
    for document, partition in entries.items():
        by_shard.setdefault(index_shard(document), {})[document] = partition
    targets = {}
    for shard, moved in by_shard.items():
        folder = layout.index_folder(shard)
        for name in listdir(folder):
            other = folder / name
            held = written.get(other)
            if held is None:
                held = _old_entries(other) if other.suffix == ".json" else {}
            for document, partition in moved.items():
                if held.get(document, partition) != partition:
                    raise _Conflict(
                        f"{document}: {partition} here, but {other} places it in {held[document]}"
                    )
        path = layout.index_file(shard, writer=writer)
        current = written.get(path)
        if current is None:
            current = _old_entries(path) if path.is_file() else {}
        merged = {**current, **moved}
        targets[path] = (shard, merged, len(merged) - len(current))
    return targets
