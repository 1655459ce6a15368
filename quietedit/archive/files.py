"""The archive's two write primitives, and reading its files (I/O).

A create-only file is written completely under a temporary name in the archive's
``.tmp/``, flushed to disk, then hard-linked to its final name: ``link`` fails if the name
exists (nothing is ever overwritten) and the final name appears only with its whole
content, so a writer killed at any moment leaves either no file or a complete one. A
mutable file is written the same way and moved over the old one with ``os.replace``.

Against a power cut, which can lose what the disk has not confirmed: a temp file's content
is always flushed before its name is linked or renamed (a name never outlives its content),
and the directory holding the name is flushed before the write returns, so whatever a later
write refers to is on disk first. The one exception is the last write of a unit
(``final=True``: nothing written after it refers to it) renaming over an existing file (see
:func:`replace_file`).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from quietedit.errors import ArchiveError, RevisionExistsError
from quietedit.model import JSON


def create_file(tmp_dir: Path, path: Path, data: bytes) -> None:
    """Create ``path`` with ``data`` exclusively: complete, or not at all; on disk
    (content and name) when this returns. ``RevisionExistsError`` if it exists."""
    tmp = write_temp(tmp_dir, path, data)
    try:
        make_folders(path.parent)
        os.link(tmp, path)
    except FileExistsError as exc:
        raise RevisionExistsError(
            path,
            "already exists; archive files are created once and never rewritten",
        ) from exc
    except OSError as exc:
        raise ArchiveError(path, f"cannot create: {exc.strerror}") from exc
    finally:
        tmp.unlink(missing_ok=True)
    # the new name must be on disk before any write that refers to it (a revision
    # names its evidence; the next revision's chain names this one)
    fsync_dir(path.parent)


def replace_file(tmp_dir: Path, path: Path, data: bytes, *, final: bool) -> None:
    """Replace ``path`` with ``data`` atomically: readers see the old or the new file.

    The content is on disk before the rename, and so is the rename when this returns,
    except for a ``final`` write over an existing file. There a power cut before the
    directory reaches the disk brings back the file it replaced, complete: the state
    of a process killed just before this write, which the archive is built to survive
    (check.py: a check killed before its document record re-fetches the article next
    time and stores nothing twice; a run killed before its ledger and feed records
    are saved leaves the earlier ones). Nothing written later refers to a final
    write, so no later file can outlive it. A new name is always flushed: revisions
    and events need their document's record. That saves one of the eight flushes of
    a new article's writes.
    """
    tmp = write_temp(tmp_dir, path, data)
    new_name = not final or not path.exists()
    try:
        make_folders(path.parent)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise ArchiveError(path, f"cannot write: {exc.strerror}") from exc
    if new_name:
        fsync_dir(path.parent)


def remove_file(path: Path) -> bool:
    """Delete the mutable file ``path`` (never a create-only one: the caller's contract);
    whether it existed. Not flushed: a file a power cut brings back is one its writer no
    longer names, which it removes again next time."""
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise ArchiveError(path, f"cannot remove: {exc.strerror}") from exc
    return True


def write_temp(tmp_dir: Path, path: Path, data: bytes) -> Path:
    """A temp file in ``tmp_dir`` holding ``data``, flushed to disk; its path."""
    try:
        tmp_dir.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=tmp_dir, prefix=path.name + ".")
    except OSError as exc:
        raise ArchiveError(tmp_dir, f"cannot write: {exc.strerror}") from exc
    tmp = Path(name)
    try:
        with open(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise ArchiveError(path, f"cannot write: {exc.strerror}") from exc
    return tmp


def make_folders(folder: Path) -> None:
    """Create ``folder`` and its missing parents, each new name flushed into its parent:
    a new partition's folders must reach the disk before the files written into them."""
    missing = []
    probe = folder
    while not probe.is_dir():
        missing.append(probe)
        if probe.parent == probe:
            break
        probe = probe.parent
    for created in reversed(missing):
        created.mkdir(exist_ok=True)
        fsync_dir(created.parent)


def fsync_dir(folder: Path) -> None:
    """Make a new or replaced directory entry durable (a no-op where unsupported)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def stamp(path: Path) -> tuple[int, int, int] | None:
    """What changes when a file is replaced: a rename brings a new inode, and the time
    and size of the new content (the time alone can repeat within a clock tick)."""
    try:
        found = path.stat()
    except FileNotFoundError:
        return None
    return found.st_ino, found.st_mtime_ns, found.st_size


def contents(path: Path) -> bytes | None:
    """The bytes of the file at ``path``; ``None`` when it cannot be read."""
    try:
        return path.read_bytes()
    except OSError:
        return None


def sweep_temp(tmp_dir: Path) -> int:
    """Remove what interrupted writes left in ``tmp_dir`` (the archive's ``.tmp/``) but the
    run lock; only while holding that lock, when no other writer can be at work. Returns
    how many files went."""
    if not tmp_dir.is_dir():
        return 0
    swept = 0
    for path in tmp_dir.iterdir():
        if path.name != "ingest.lock" and path.is_file():
            path.unlink(missing_ok=True)
            swept += 1
    return swept


def listdir(folder: Path) -> list[str]:
    """The names in ``folder``, sorted; none when it does not exist."""
    try:
        return sorted(os.listdir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return []


def load_json(path: Path | str) -> JSON:
    """Parse an archive file; unreadable or invalid files raise ``ArchiveError``."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise ArchiveError(path, f"cannot read: {exc.strerror}") from exc
    try:
        value: JSON = json.loads(data.decode("utf-8"))
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, a 5,000-digit number
        raise ArchiveError(path, f"not valid UTF-8 JSON: {exc}") from exc
    return value
