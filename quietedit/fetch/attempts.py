"""A fetch's attempts: retries with Retry-After or backoff, under two clocks.

``timeout`` bounds one attempt (every hop and the whole body; 0 disables it), ``deadline``
bounds the fetch (attempts and the waits between them), so a server trickling bytes cannot
hold a fetch past either. Which failures are retried is ``failures.retryable``; the wait is
the server's Retry-After (capped at ``max_wait``) or full-jitter backoff, and never runs past
the deadline. Cancellation propagates at once as ``asyncio.CancelledError``; a timeout is a
``FetchTimeoutError``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from quietedit.errors import FetchError, HTTPStatusError
from quietedit.fetch.document import RawDocument
from quietedit.fetch.failures import attempt_timed_out, deadline_passed, retryable
from quietedit.fetch.hops import Hops
from quietedit.fetch.policy import FetchPolicy
from quietedit.fetch.politeness import Politeness
from quietedit.fetch.request import FetchRequest, Progress
from quietedit.fetch.retry import backoff_delay, capped_wait, jitter_factor

logger = logging.getLogger(__name__)


class Attempts:
    """Runs the attempts of a fetch through ``hops``; ``politeness`` (None: none) is paused
    for a Retry-After, ``jitter`` is a uniform draw from [0, 1) for the backoff."""

    def __init__(
        self, hops: Hops, *, politeness: Politeness | None, jitter: Callable[[], float]
    ) -> None:
        self._hops = hops
        self._politeness = politeness
        self._jitter = jitter

    async def run(self, request: FetchRequest) -> RawDocument:
        """Up to ``1 + policy.retries`` attempts within ``policy.deadline``: the document, or
        the last attempt's ``FetchError`` (``FetchTimeoutError`` once the deadline passes)."""
        policy = request.policy
        requested = str(request.start)
        loop = asyncio.get_running_loop()
        progress = Progress(requested=requested, began=loop.time(), current=requested)
        deadline = asyncio.timeout(policy.deadline)
        try:
            async with deadline:
                return await self._attempts(request, progress, deadline)
        except TimeoutError:
            if not deadline.expired():
                raise
            raise deadline_passed(
                progress.current, deadline=policy.deadline, attempts=progress.attempts
            ) from None

    async def _attempts(
        self, request: FetchRequest, progress: Progress, deadline: asyncio.Timeout
    ) -> RawDocument:
        policy = request.policy
        loop = asyncio.get_running_loop()
        for attempt in range(policy.retries + 1):
            progress.attempts = attempt + 1
            progress.redirects.clear()
            try:
                return await self._attempt(request, progress, attempt, deadline)
            except FetchError as exc:
                asked = self._honour_retry_after(exc, policy)
                if not retryable(exc) or attempt == policy.retries:
                    raise
                wait = asked if asked is not None else self._backoff(attempt, policy)
                when = deadline.when()
                if when is not None and loop.time() + wait >= when:
                    logger.info("%s: %s; no time left for a retry", exc.url, exc.message)
                    raise
                logger.info(
                    "%s: %s; retry %d of %d in %.2f s",
                    exc.url,
                    exc.message,
                    attempt + 1,
                    policy.retries,
                    wait,
                )
                await request.sleep(wait)
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _honour_retry_after(self, error: FetchError, policy: FetchPolicy) -> float | None:
        """The wait a Retry-After asks for (capped at ``max_wait``), or None without one.

        The whole host is paused for it, whether or not this fetch retries: the other fetches
        of the run owe the server the same rest.
        """
        if not isinstance(error, HTTPStatusError) or error.retry_after is None:
            return None
        wait = capped_wait(error.retry_after, cap=policy.max_wait)
        if self._politeness is not None:
            self._politeness.pause(error.url, wait)
        return wait

    def _backoff(self, attempt: int, policy: FetchPolicy) -> float:
        """Full-jitter exponential backoff before retry ``attempt + 1``."""
        factor = jitter_factor(self._jitter())
        return backoff_delay(attempt, base=policy.backoff, factor=factor, cap=policy.max_wait)

    async def _attempt(
        self, request: FetchRequest, progress: Progress, attempt: int, deadline: asyncio.Timeout
    ) -> RawDocument:
        timeout = request.policy.timeout
        timer = asyncio.timeout(timeout or None)
        try:
            async with timer:
                return await self._hops.follow(request, progress, attempt, (deadline, timer))
        except TimeoutError:
            if not timer.expired():
                raise
            raise attempt_timed_out(progress.current, number=attempt + 1, timeout=timeout) from None
