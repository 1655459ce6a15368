"""How one fetch behaves: its time limits, retries, waits, size cap and user agent."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from quietedit.config import Settings, parse_config


@dataclass(frozen=True, slots=True)
class FetchPolicy:
    """How one fetch behaves; seconds and bytes. ``timeout`` 0 disables the attempt timeout."""

    timeout: float = 15.0
    deadline: float = 60.0
    retries: int = 2
    backoff: float = 0.5
    max_wait: float = 30.0
    max_bytes: int = 10 * 1024 * 1024
    user_agent: str = ""

    def __post_init__(self) -> None:
        problems = [
            f"{name} {value!r} must be {rule}"
            for name, value, ok, rule in (
                ("timeout", self.timeout, self.timeout >= 0, "0 (off) or more seconds"),
                ("deadline", self.deadline, self.deadline > 0, "more than 0 seconds"),
                ("retries", self.retries, self.retries >= 0, "0 or more"),
                ("backoff", self.backoff, self.backoff >= 0, "0 or more seconds"),
                ("max_wait", self.max_wait, self.max_wait >= 0, "0 or more seconds"),
                ("max_bytes", self.max_bytes, self.max_bytes >= 1, "at least 1 byte"),
            )
            if not ok
        ]
        if problems:
            raise ValueError("; ".join(problems))

    @classmethod
    def from_settings(cls, settings: Settings) -> FetchPolicy:
        """The policy ``settings.fetch`` and ``settings.user_agent`` describe."""
        fetch = settings.fetch
        return cls(
            timeout=fetch.timeout,
            deadline=fetch.deadline,
            retries=fetch.retries,
            backoff=fetch.backoff,
            max_wait=fetch.max_wait,
            max_bytes=fetch.max_bytes,
            user_agent=settings.user_agent,
        )


@functools.cache
def default_settings() -> Settings:
    """The settings with every default and no environment: for fetches outside a run."""
    return parse_config(None, environ={}, source="(defaults)", base_dir=Path()).settings
