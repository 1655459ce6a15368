"""Fixtures shared by the archive's tests that run real git."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A git environment of the test's own (no system or user configuration, no prompt, a
    fixed author), set for this process and returned whole for its subprocesses."""
    values = {
        "HOME": str(tmp_path),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_AUTHOR_NAME": "Tests",
        "GIT_AUTHOR_EMAIL": "tests@example.org",
        "GIT_COMMITTER_NAME": "Tests",
        "GIT_COMMITTER_EMAIL": "tests@example.org",
    }
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return {**os.environ, **values}
