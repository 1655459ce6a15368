"""What one fetch carries through its attempts and hops: the request and its progress.

``FetchRequest`` stays the same across attempts; ``Progress`` records where the fetch is
(the URL being requested, the attempt, the redirects so far) for the document it returns
and the errors it raises.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import httpx

from quietedit.fetch.cache import CachedResponse, ConditionalCache
from quietedit.fetch.headers import Headers
from quietedit.fetch.policy import FetchPolicy
from quietedit.fetch.politeness import Sleep

Validate = Callable[[str], Awaitable[None] | None]
"""A per-hop check: raise to refuse the URL (the refusal is a ``BlockedURLError``)."""


@dataclass(frozen=True, slots=True)
class FetchRequest:
    """What stays the same across the attempts of one fetch."""

    start: httpx.URL
    policy: FetchPolicy
    user_agent: str
    headers: Headers
    cached: CachedResponse | None
    cache: ConditionalCache | None
    validate: Validate | None
    obey_robots: bool
    truncate: bool
    sleep: Sleep


@dataclass(slots=True)
class Progress:
    """Where a fetch is: the URL being requested, attempts made, and when it began."""

    requested: str
    began: float
    current: str = ""
    attempts: int = 0
    redirects: list[str] = field(default_factory=list)

    def elapsed(self) -> float:
        """Seconds since the fetch began (event-loop time)."""
        return asyncio.get_running_loop().time() - self.began
