"""A run's observed list on disk: a small head file, and one part per partition (I/O).

The list a run saves (:mod:`quietedit.ingest.partitions`) names every document still
observed, with its schedule entry: about 9,500 documents, 6 MiB, once the re-check window
has filled at 1,000 articles a day. Written as one file, every hourly commit rewrote all
of it, though a run changes the entries of the documents it checks and wrote only. So the
list is kept in parts:

- ``state/<name>.json``, the head (``name``: ``partitions``, or a shard's
  ``partitions-shard-K-of-N``): the partitions read (``active``), when it was saved,
  whether it keeps schedule entries, and the part of each partition it names documents
  of (``parts``: partition → the part's digest);
- ``state/<name>-<YYYY>-<MM>-<DD>-<digest>.json``, one part per partition: the documents
  read there when the partition is read in part (``documents``) and their schedule
  entries (``schedules``). Its name carries the first 12 hex digits of the SHA-256 of
  its content, so a part that did not change is not written again, and a changed one
  gets a new name.

A save writes the parts that changed (new names, flushed), then the head naming them,
then removes the parts of this list no head names any more. A run killed at any point
so leaves a head whose every part is on disk: the old head with its old parts, or the
new one with its new parts; a part left behind is removed by the next save, and a part
found damaged is written again. Each writer (a shard) has its own head and parts, so
shards never write the same file.

A head saved before parts were kept (the documents and entries inline) is read as it is,
and the next save writes the parts. A head naming a part that is missing or damaged is
unreadable: the run then reads every partition, slower, never wrong.
"""

from __future__ import annotations

import hashlib
import re
from typing import Final

from quietedit.archive.layout import is_partition
from quietedit.archive.records import dump_json
from quietedit.archive.store import Archive
from quietedit.errors import ArchiveError
from quietedit.model import JSON

PART_PATTERN: Final = re.compile(
    r"(?P<head>.+)-(?P<year>[0-9]{4})-(?P<month>[0-9]{2})-(?P<day>[0-9]{2})-(?P<digest>[0-9a-f]{12})"
)
"""A part's state name: its head's name, its partition's day, its content's digest."""
DIGEST_PATTERN: Final = re.compile(r"[0-9a-f]{12}")


def part_name(head: str, partition: str, digest: str) -> str:
    """The state name of ``head``'s part of ``partition`` whose content has ``digest``."""
    return f"{head}-{partition.replace('/', '-')}-{digest}"


def head_of_part(name: str) -> str | None:
    """The head a state name is a part of; ``None`` when it is not a part's name."""
    match = PART_PATTERN.fullmatch(name)
    return None if match is None else match["head"]


def read_list(archive: Archive, name: str) -> dict[str, JSON] | None:
    """The list saved as ``state/<name>.json``, whole (``active``, ``documents`` by
    partition, ``schedules`` by partition when it keeps them, ``saved_at``), read from its
    head and parts; ``None`` when there is none. ``ArchiveError`` when the head or a part
    it names cannot be read."""
    head = archive.read_state(name)
    if head is None or "parts" not in head:
        return head  # none, or saved before parts were kept: all of it in the head
    path = archive.layout.state_file(name)
    parts = head["parts"]
    if not isinstance(parts, dict):
        raise ArchiveError(path, "parts: not an object from partition to digest")
    documents: dict[str, JSON] = {}
    schedules: dict[str, JSON] = {}
    for partition, digest in sorted(parts.items()):
        if not is_partition(partition) or not (
            isinstance(digest, str) and DIGEST_PATTERN.fullmatch(digest)
        ):
            raise ArchiveError(path, f"parts: {partition!r}: {digest!r} is not a part's digest")
        named = part_name(name, partition, digest)
        part = archive.read_state(named)
        if part is None:
            raise ArchiveError(path, f"parts: {partition}: state/{named}.json is missing")
        if part.get("partition") != partition:
            raise ArchiveError(
                archive.layout.state_file(named), f"partition: not {partition}, as its name says"
            )
        if "documents" in part:
            documents[partition] = part["documents"]
        if "schedules" in part:
            schedules[partition] = part["schedules"]
    whole: dict[str, JSON] = {
        "active": head.get("active"),
        "documents": documents,
        "saved_at": head.get("saved_at"),
    }
    if head.get("schedules_kept") is True:
        whole["schedules"] = schedules
    return whole


def write_list(
    archive: Archive, name: str, record: dict[str, JSON], *, final: bool = False
) -> None:
    """Save ``record`` (as :func:`read_list` returns it) as the head ``name`` and its
    parts, in the order the module's text gives; ``final``: the head is the unit's last
    write (a power cut may then bring back the head it replaced, whose parts stay on disk
    until the next save)."""
    documents = record.get("documents")
    schedules = record.get("schedules")
    named = documents if isinstance(documents, dict) else {}
    kept = schedules if isinstance(schedules, dict) else {}
    parts: dict[str, JSON] = {}
    wanted: set[str] = set()
    on_disk = {
        state for state in archive.state_names() if head_of_part(state) == name
    }  # this head's parts only: another writer's are its own
    for partition in sorted(set(named) | set(kept)):
        content: dict[str, JSON] = {"partition": partition}
        if partition in named:
            content["documents"] = named[partition]
        if partition in kept:
            content["schedules"] = kept[partition]
        digest = hashlib.sha256(dump_json(content)).hexdigest()[:12]
        state = part_name(name, partition, digest)
        # kept as it is when on disk whole; written again when missing or damaged
        if state not in on_disk or not archive.holds_state(state, content):
            archive.write_state(state, content)  # flushed: the head names it
        parts[partition] = digest
        wanted.add(state)
    stale = sorted(on_disk - wanted)
    head: dict[str, JSON] = {
        "active": record.get("active"),
        "parts": parts,
        "saved_at": record.get("saved_at"),
        "schedules_kept": isinstance(schedules, dict),
    }
    # with parts to remove, the head is flushed first: a power cut must not bring back a
    # head that names a part already gone
    archive.write_state(name, head, final=final and not stale)
    for state in stale:
        archive.remove_state(state)
