"""Where the site's files go: every output path is checked and written through one place.

``SiteWriter`` is the only thing that writes into the output folder. It refuses a path
that would leave the folder (``..``, absolute paths, back-slashes, dot-files, NUL), refuses
to write the same path twice in one build (two pages claiming one URL is a bug, as in
pelican and mkdocs), and leaves a file untouched when its bytes are already what the
build would write, so an unchanged page keeps its modification time and an incremental
build rewrites only what changed.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
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
        self._resolved_root = root.resolve()
        self._checked: set[Path] = set()  # folders known to be inside the output folder

    def target(self, relative: str) -> Path:
        """The file path for ``relative``, checked to stay inside the output folder."""
        path = self.root / check_output_path(relative)
        folder = path.parent
        if folder not in self._checked and folder.exists():
            # a symlinked folder inside the output could still lead outside it
            if not folder.resolve().is_relative_to(self._resolved_root):
                raise UnsafeOutputPathError(relative, f"leads outside {self.root} through a link")
            self._checked.add(folder)
        return path

    def fresh(self) -> SiteWriter:
        """A writer for the same build with nothing claimed yet (for one unit of work)."""
        writer = SiteWriter(self.root, known=self.known)
        writer._checked = self._checked
        return writer

    def claim(self, relative: str, digest: str) -> None:
        """Record ``relative`` as produced by this build without writing it (kept as it is)."""
        if relative in self.claimed:
            raise DuplicateOutputError(relative)
        if not _PATH.fullmatch(relative):
            check_output_path(relative)  # raises, naming the problem
        self.claimed[relative] = digest

    def write(self, relative: str, data: bytes | str) -> bool:
        """Write ``data`` to ``relative`` unless the file already holds it; True if written."""
        body = data.encode("utf-8") if isinstance(data, str) else data
        digest = file_digest(body)
        path = self.target(relative)
        self.claim(relative, digest)
        if self.known.get(relative) == digest and path.is_file():
            return False
        if (
            relative not in self.known
            and path.is_file()
            and file_digest(path.read_bytes()) == digest
        ):
            return False
        if path.parent not in self._checked:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.target(relative)  # now that the folder exists, check where it leads
        _atomic_write(path, body)
        self.written.append(relative)
        return True

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


def _atomic_write(path: Path, body: bytes) -> None:
    # one writer per output path and build (claims are unique), so a per-process temp
    # name cannot collide; a dot-name is never served and never part of the site
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_bytes(body)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _prune_empty_parents(folder: Path, root: Path) -> None:
    while folder != root and folder.is_relative_to(root):
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent
