"""``quietedit migrate``, the buckets' part: move each document folder of a partition into
its bucket, idempotent and crash-safe.

Partitions first kept their document folders side by side, ``<YYYY>/<MM>/<DD>/<id>/``;
now each sits in the bucket of its id, ``<YYYY>/<MM>/<DD>/<bb>/<id>/``
(:meth:`~quietedit.archive.layout.Layout.document_dir`). Each folder is moved by one
rename, so at any moment it is whole at one place or the other, never split: a process
killed at any point leaves every document readable (the archive reads a folder not moved
yet where it is, :meth:`~quietedit.archive.store.Archive.document_dir`), and the next run
moves what is left. The bucket's folder is created, and flushed into its partition,
before the rename; the rename is flushed into both folders after it. No file is
rewritten: the git audit of the migrating commit sees each revision, event and derived
record deleted at one path and the same blob added at the other, a move it accepts
(:mod:`quietedit.archive.audit`). A folder whose bucket already holds a folder of that
name is a conflict: reported, and left in place.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

from quietedit.archive.checks import Problem
from quietedit.archive.files import fsync_dir, listdir, make_folders
from quietedit.archive.layout import Layout, is_partition
from quietedit.article.identity import is_document_id

logger = logging.getLogger(__name__)


@dataclass
class BucketMove:
    """What moving folders into buckets did: folders moved, and those left in place with
    the reason."""

    folders: int = 0
    problems: list[Problem] = field(default_factory=list)


def flat_folders(root: Path) -> list[tuple[str, str]]:
    """``(partition, id)`` of every document folder directly in its partition (not in its
    bucket) in the archive at ``root``, sorted."""
    layout = Layout(root)
    found: list[tuple[str, str]] = []
    top = layout.documents_dir
    for year in listdir(top):
        for month in listdir(top / year):
            for day in listdir(top / year / month):
                partition = f"{year}/{month}/{day}"
                if not is_partition(partition):
                    continue
                folder = top / partition
                found.extend(
                    (partition, name)
                    for name in listdir(folder)
                    if is_document_id(name) and (folder / name).is_dir()
                )
    return found


def move_into_buckets(root: Path) -> BucketMove:
    """Move every document folder of the archive at ``root`` that sits directly in its
    partition into its bucket (see the module docstring); a second run finds nothing to
    do. The caller holds the run lock."""
    layout = Layout(root)
    done = BucketMove()
    for partition, document in flat_folders(root):
        old = layout.flat_document_dir(document, partition)
        new = layout.document_dir(document, partition)
        if new.exists():
            done.problems.append(
                Problem(str(old), f"not moved: {new} exists already; left in place")
            )
            continue
        try:
            make_folders(new.parent)
            os.rename(old, new)
        except OSError as exc:  # a full disk, a folder without permission: the next goes on
            done.problems.append(
                Problem(str(old), f"not moved ({exc.strerror}); run quietedit migrate again")
            )
            continue
        fsync_dir(new.parent)
        fsync_dir(old.parent)
        done.folders += 1
        logger.debug("moved %s into its bucket", old)
    return done
