"""robots.txt for a run: fetched once per origin, shared by concurrent fetches, cached.

The fetch goes through the run's own fetcher (the SSRF guard, its deadlines, a 512 KiB cap
with the rest ignored, as RFC 9309 allows) and is itself not subject to robots.txt. What the
response means is ``robots.policy_from_response``'s: 2xx rules, 4xx allow all, 5xx, 429 or
no answer disallow the origin for this run. A Crawl-delay goes to the politeness limiter.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import httpx

from quietedit.errors import BlockedURLError, FetchError, HostDeferredError, HTTPStatusError
from quietedit.fetch.document import RawDocument
from quietedit.fetch.politeness import Politeness
from quietedit.fetch.robots import RobotsPolicy, policy_from_response, policy_unreachable

logger = logging.getLogger(__name__)


class RobotsCache:
    """One policy per origin (scheme, host, port) for the run; ``fetch`` gets a robots.txt."""

    def __init__(
        self,
        fetch: Callable[[str], Awaitable[RawDocument]],
        *,
        user_agent: str,
        politeness: Politeness | None,
    ) -> None:
        self._fetch = fetch
        self._user_agent = user_agent
        self._politeness = politeness
        self._tasks: dict[str, asyncio.Task[RobotsPolicy]] = {}

    async def policy(self, url: str) -> RobotsPolicy:
        """The policy of ``url``'s origin. Raises ``BlockedURLError`` when the guard refuses
        the origin and ``HostDeferredError`` when politeness puts it off; neither is cached."""
        parsed = httpx.URL(url)
        origin = f"{parsed.scheme}://{parsed.netloc.decode('ascii')}"
        task = self._tasks.get(origin)
        if task is None:
            task = asyncio.create_task(self._load(origin))
            task.add_done_callback(_consume)
            self._tasks[origin] = task
        try:
            # Shielded: a caller timing out must not cancel the fetch others are waiting on.
            return await asyncio.shield(task)
        except FetchError:
            self._tasks.pop(origin, None)  # the next article asks again
            raise

    def close(self) -> None:
        """Stop any robots.txt fetch still running."""
        for task in self._tasks.values():
            task.cancel()
        self._tasks.clear()

    async def _load(self, origin: str) -> RobotsPolicy:
        robots_url = f"{origin}/robots.txt"
        try:
            document = await self._fetch(robots_url)
        except HTTPStatusError as exc:
            result = policy_from_response(exc.status, b"")
        except (HostDeferredError, BlockedURLError):
            # Politeness put the host off, or the guard refuses it: decide nothing here, the
            # article fails for that reason.
            raise
        except FetchError as exc:
            result = policy_unreachable(f"{type(exc).__name__}: {exc.message}")
        else:
            result = policy_from_response(document.status, document.body)
        delay = result.crawl_delay(user_agent=self._user_agent)
        if delay and self._politeness is not None:
            self._politeness.set_crawl_delay(origin, delay)
        log = logger.warning if result.mode == "disallow" else logger.info
        log("%s: %s", robots_url, result.reason)
        return result


def _consume(task: asyncio.Task[RobotsPolicy]) -> None:
    """Mark a robots task's outcome as seen, so an error nobody awaited is not reported."""
    if not task.cancelled():
        task.exception()
