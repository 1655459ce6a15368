"""Running git for the archive's helpers: text in and out, paths unquoted, never a
traceback for a missing git or folder."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git(cwd: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str] | None:
    """``git args`` run in ``cwd`` (paths printed as they are, not quoted), its output
    captured; ``None`` when git is missing or ``cwd`` is not a folder. A failing git is
    the caller's to read from the return code."""
    try:
        return subprocess.run(  # noqa: S603 - fixed git arguments, no shell
            ["git", "-c", "core.quotepath=off", *args],  # noqa: S607 - git as found on PATH
            cwd=cwd,
            input=stdin,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="surrogateescape",
            check=False,
        )
    except (FileNotFoundError, NotADirectoryError):
        return None
