"""Where the site's files go: every output path is checked and written through one place.

``SiteWriter`` is the only thing that writes into the output folder. It refuses a path
that would leave the folder (``..``, absolute paths, back-slashes, dot-files, NUL), refuses
to write the same path twice in one build (two pages claiming one URL is a bug, as in
pelican and mkdocs), and leaves a file untouched when its bytes are already what the
build would write, so an unchanged page keeps its modification time and an incremental
build rewrites only what changed.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Final

from quietedit.errors import DuplicateOutputError, UnsafeOutputPathError

logger = logging.getLogger(__name__)

CACHE_DIR: Final = ".quietedit-cache"
"""The build cache's folder inside the output folder (a dot-folder: GitHub's Pages upload
leaves it out, and ``quietedit serve`` never serves it)."""

_SEGMENT: Final = r"[A-Za-z0-9_][A-Za-z0-9_.\-]{0,127}"
_PATH: Final = re.compile(rf"(?:{_SEGMENT}/)*{_SEGMENT}")


def check_output_path(relative: str) -> PurePosixPath:
    """``relative`` as a safe POSIX path inside the output folder, or ``UnsafeOutputPathError``.

    Each segment is letters, digits, ``_``, ``-`` and ``.``, not starting with a dot; so
    no ``..``, no absolute path, no back-slash, no hidden file, no empty segment.
    """
    if _PATH.fullmatch(relative):  # no segment can be "." or "..": none starts with a dot
        return PurePosixPath(relative)
    if not relative or relative.startswith("/") or "\\" in relative:
        raise UnsafeOutputPathError(relative, "must be a relative POSIX path")
    for part in relative.split("/"):
        if not re.fullmatch(_SEGMENT, part):
            raise UnsafeOutputPathError(
                relative, f"segment {part!r} is not a plain name ([A-Za-z0-9_.-], no leading dot)"
            )
    raise UnsafeOutputPathError(relative, "is not a plain relative path")


def file_digest(data: bytes) -> str:
    """The hex SHA-256 the cache records for an output file's bytes."""
    return hashlib.sha256(data).hexdigest()


class SiteWriter:
    """Writes the files of one build below ``root``; remembers what it wrote.

    ``known`` maps output paths to the digests the previous build recorded; a path whose
    new digest matches and whose file still exists is not rewritten. ``written`` lists the
    paths actually rewritten, ``claimed`` every path of this build (written or kept).
    """

    def __init__(self, root: Path, *, known: dict[str, str] | None = None) -> None:
        self.root = root
        self.known = known if known is not None else {}  # read only: shared, not copied
        self.claimed: dict[str, str] = {}
        self.written: list[str] = []
        self.removed: list[str] = []
        self._root = str(root)
        self._resolved_root = root.resolve()
        # folders known to be real folders inside the output folder (no link on the way)
        self._checked: set[str] = {self._root}
        self._made: set[str] = set()  # folders this process created: nothing to compare in them

    def target(self, relative: str) -> Path:
        """The file path for ``relative``, checked to stay inside the output folder."""
        path = self.root / check_output_path(relative)
        folder = os.path.dirname(str(path))
        if folder not in self._checked and os.path.isdir(folder):
            self._check_existing(relative, folder)
        return path

    def fresh(self) -> SiteWriter:
        """A writer for the same build with nothing claimed yet (for one unit of work)."""
        writer = SiteWriter(self.root, known=self.known)
        writer._checked, writer._made = self._checked, self._made
        return writer

    def claim(self, relative: str, digest: str) -> None:
        """Record ``relative`` as produced by this build without writing it (kept as it is)."""
        if relative in self.claimed:
            raise DuplicateOutputError(relative)
        if not _PATH.fullmatch(relative):
            check_output_path(relative)  # raises, naming the problem
        self.claimed[relative] = digest

    def unclaim(self, folders: tuple[str, ...]) -> None:
        """Forget what this build claimed below ``folders`` (site paths ending in ``/``, or
        a file's path), to write them again: the files stay until then, and are compared,
        not created."""
        parents = set()  # a folder this build made is written create-only: no longer
        for path in [p for p in self.claimed if p.startswith(folders)]:
            del self.claimed[path]
            parents.add(os.path.dirname(os.path.join(self._root, path)))
        below = tuple(os.path.join(self._root, f.rstrip("/")) + os.sep for f in folders)
        self._made -= {f for f in self._made if f in parents or f.startswith(below)}

    def write(self, relative: str, data: bytes | str) -> bool:
        """Write ``data`` to ``relative`` unless the file already holds it; True if written."""
        body = data.encode("utf-8") if isinstance(data, str) else data
        path = self._prepare(relative, file_digest(body))
        if path is None:
            return False
        if os.path.dirname(path) in self._made:
            # a folder this build made holds no older file: create-only, no temp file
            with open(path, "xb") as handle:
                handle.write(body)
        else:
            _atomic_write(path, body)
        self.written.append(relative)
        return True

    def adopt(self, relative: str, source: Path) -> bool:
        """Move the finished file ``source`` (on the same file system, outside the site)
        to ``relative``, or drop it when the file there holds its bytes; True if moved."""
        path = self._prepare(relative, file_digest(source.read_bytes()))
        if path is None:
            source.unlink()
            return False
        os.replace(source, path)
        self.written.append(relative)
        return True

    def _prepare(self, relative: str, digest: str) -> str | None:
        """Claim ``relative`` with ``digest``; its file path when it must be written, ``None``
        when the file there already holds those bytes."""
        self.claim(relative, digest)  # checks the path's form
        path = os.path.join(self._root, relative)
        folder = os.path.dirname(path)
        if folder not in self._checked:
            self._make_folder(relative, folder)
        if folder in self._made:
            return path
        if self.known.get(relative) == digest and os.path.isfile(path):
            return None
        if relative not in self.known and os.path.isfile(path):
            with open(path, "rb") as handle:
                if file_digest(handle.read()) == digest:
                    return None
        return path

    def _make_folder(self, relative: str, folder: str) -> None:
        """Create ``folder`` (and its parents) inside the output folder; a folder that
        exists already is checked not to be (or lead through) a link out of it."""
        parent = os.path.dirname(folder)
        if parent not in self._checked:
            self._make_folder(relative, parent)
        try:
            os.mkdir(folder)
        except FileExistsError:
            self._check_existing(relative, folder)
            return
        # made here, inside a checked folder: a real folder inside the output
        self._checked.add(folder)
        self._made.add(folder)

    def _check_existing(self, relative: str, folder: str) -> None:
        if not os.path.isdir(folder):
            raise UnsafeOutputPathError(relative, f"{folder} is in the way and not a folder")
        parent = os.path.dirname(folder)
        if (parent in self._checked and not os.path.islink(folder)) or Path(
            folder
        ).resolve().is_relative_to(self._resolved_root):
            self._checked.add(folder)
            return
        raise UnsafeOutputPathError(relative, f"leads outside {self.root} through a link")

    def remove_unclaimed(self, folders: tuple[str, ...]) -> None:
        """Delete the files below ``folders`` (site paths ending in ``/`` that belong to
        one unit of work, such as a document; or a file's path) that this writer has not
        claimed."""
        for folder in folders:
            top = os.path.join(self._root, folder)
            if not folder.endswith("/"):  # one file
                if folder not in self.claimed and os.path.isfile(self.target(folder)):
                    os.unlink(top)
                    self.removed.append(folder)
                continue
            if not os.path.isdir(top):
                continue
            self.target(folder + "index.html")  # the folder must not lead out through a link
            for current, _, names in os.walk(top):
                for name in names:
                    full = os.path.join(current, name)
                    relative = os.path.relpath(full, self._root).replace(os.sep, "/")
                    if relative not in self.claimed and not name.startswith("."):
                        os.unlink(full)
                        self.removed.append(relative)
            for current, _, _ in sorted(os.walk(top), reverse=True):
                with contextlib.suppress(OSError):  # not empty: kept
                    os.rmdir(current)

    def remove_stale(self, previous: dict[str, str]) -> list[str]:
        """Delete files the previous build wrote that this build no longer produces."""
        removed = []
        for relative in sorted(set(previous) - set(self.claimed)):
            try:
                path = self.target(relative)
            except UnsafeOutputPathError:
                logger.warning("cache names an unsafe path %r; not removing it", relative)
                continue
            if path.is_file():
                path.unlink()
                removed.append(relative)
                _prune_empty_parents(path.parent, self.root)
        return removed

    def remove_unowned(self, keep: Callable[[str], bool]) -> list[str]:
        """Delete the files of the top-level folders this build writes in that it did not
        claim and ``keep`` does not keep: what an earlier build left that no record
        names (a build with no cache into a site folder). Nothing outside those folders
        (a file placed beside the site, such as ``CNAME``), no dot-file or dot-folder (the
        cache), no link followed: only paths this build would own."""
        tops = {path.split("/", 1)[0] for path in self.claimed if "/" in path}
        removed = []
        for top in sorted(tops):
            folder = os.path.join(self._root, top)
            if os.path.islink(folder) or not os.path.isdir(folder):
                continue
            for current, folders, names in os.walk(folder):  # links are not followed
                folders[:] = [f for f in folders if not f.startswith(".")]
                for name in names:
                    full = os.path.join(current, name)
                    relative = os.path.relpath(full, self._root).replace(os.sep, "/")
                    if name.startswith(".") or relative in self.claimed or keep(relative):
                        continue
                    os.unlink(full)
                    removed.append(relative)
            for current, _, _ in sorted(os.walk(folder), reverse=True):
                with contextlib.suppress(OSError):  # not empty: kept
                    os.rmdir(current)
        self.removed.extend(removed)
        return removed


def _atomic_write(path: str, body: bytes) -> None:
    # one writer per output path and build (claims are unique), so a per-process temp
    # name cannot collide; a dot-name is never served and never part of the site
    folder, name = os.path.split(path)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(body)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _prune_empty_parents(folder: Path, root: Path) -> None:
    while folder != root and folder.is_relative_to(root):
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent
