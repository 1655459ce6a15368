"""The error tree: every error quietedit raises on purpose is a ``QuieteditError``.

::

    QuieteditError
    ├── ConfigError              feeds.yaml or a QUIETEDIT_* variable is wrong (.problems: all)
    ├── ArchiveError             a data/ file is unreadable, unsafe or inconsistent (.path)
    │   ├── UnsafePathError      an id or path would leave the archive or collide with another
    │   ├── RevisionExistsError  the create-only rule refused to overwrite a revision
    │   └── UnchangedContentError  a revision would repeat its predecessor's content hash
    └── AuditError               the git check of ``quietedit verify --since`` could not run

Messages name the bad value and, where there is one, the way out. Third-party exceptions
are translated into these at the module that uses the library, chained with ``from``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


class QuieteditError(Exception):
    """Base of every error quietedit raises on purpose."""


class ConfigError(QuieteditError):
    """The configuration is invalid; ``problems`` lists every problem found, one line each."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems: tuple[str, ...] = tuple(problems)
        count = len(self.problems)
        head = f"{count} configuration problem{'s' if count != 1 else ''}"
        super().__init__(head + ":\n" + "\n".join(f"  {p}" for p in self.problems))


class ArchiveError(QuieteditError):
    """A file of the archive is unreadable, unsafe or inconsistent."""

    def __init__(self, path: Path | str, message: str) -> None:
        self.path = str(path)
        self.message = message
        super().__init__(f"{self.path}: {message}")


class UnsafePathError(ArchiveError):
    """An id or relative path would escape the archive folder or is not a safe name."""


class RevisionExistsError(ArchiveError):
    """A revision file already exists: revisions are created once and never rewritten."""


class UnchangedContentError(ArchiveError):
    """The new revision's content hash equals its predecessor's: nothing changed."""


class AuditError(QuieteditError):
    """The git audit of the archive could not be carried out (no repository, unknown revision)."""
