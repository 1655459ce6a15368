"""One attempt of a fetch: the redirect chain, followed by hand one hop at a time.

Before each hop's request the SSRF guard checks the URL, the caller's ``validate`` hook
runs, and for articles robots.txt is consulted; each request then waits for its host's
politeness slot, is sent straight to the guarded transport and is recorded in the ledger.
At most ``MAX_REDIRECTS`` redirects are followed. Queueing for a politeness slot and loading
robots.txt stop the attempt's timers (see ``paused``): waiting behind a busy host is not a
slow fetch.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime

import httpx

from quietedit.errors import (
    BlockedURLError,
    FetchError,
    NetworkError,
    RobotsDisallowedError,
    UnsupportedURLError,
)
from quietedit.fetch.cache import CachedResponse
from quietedit.fetch.decoding import ACCEPT_ENCODING
from quietedit.fetch.document import RawDocument
from quietedit.fetch.failures import MAX_REDIRECTS, REDIRECT_STATUSES, too_many_redirects
from quietedit.fetch.guard import AddressBlocked, ResolveFailed, check_url_syntax
from quietedit.fetch.headers import Headers, request_headers, same_origin
from quietedit.fetch.policy import FetchPolicy
from quietedit.fetch.politeness import Clock, Politeness, Ticket
from quietedit.fetch.request import FetchRequest, Progress
from quietedit.fetch.responses import (
    WireCounter,
    not_modified_document,
    read_body,
    received_document,
    redirect_target,
    remember,
    status_error,
    translated,
)
from quietedit.fetch.robots import RobotsPolicy, product_token
from quietedit.fetch.transport import GuardedTransport

RobotsLookup = Callable[[str], Awaitable[RobotsPolicy]]
"""The robots.txt policy of a URL's origin (``Fetcher.robots_policy``)."""


class Hops:
    """Follows one attempt's redirect chain over a ``Fetcher``'s transport, guard settings,
    politeness (None: no slots and no ledger) and robots.txt cache; ``clock`` dates the
    Retry-After of an error status."""

    def __init__(
        self,
        transport: GuardedTransport,
        *,
        allow_private: bool,
        politeness: Politeness | None,
        robots: RobotsLookup,
        clock: Clock,
    ) -> None:
        self._transport = transport
        self._allow_private = allow_private
        self._politeness = politeness
        self._robots = robots
        self._clock = clock

    async def follow(
        self,
        request: FetchRequest,
        progress: Progress,
        attempt: int,
        timers: tuple[asyncio.Timeout, ...],
    ) -> RawDocument:
        """Attempt ``attempt`` (from 0): the final document, or a ``FetchError``.

        ``timers`` are the clocks running over the attempt; they stop while it queues.
        """
        current = request.start
        credentials = True
        for hop in range(MAX_REDIRECTS + 1):
            progress.current = str(current)
            # Once the chain leaves the origin asked for, credentials stay behind for good.
            if hop:
                credentials = credentials and same_origin(progress.current, progress.requested)
            await self._admit(progress.current, request, timers)
            conditional = request.cached if hop == 0 else None
            headers = request_headers(
                request.headers,
                user_agent=request.user_agent,
                accept_encoding=ACCEPT_ENCODING,
                credentials=credentials,
                etag=conditional.etag if conditional else None,
                last_modified=conditional.last_modified if conditional else None,
            )
            outcome = await self._exchange(
                current, headers, request, progress, attempt, timers, conditional
            )
            if isinstance(outcome, RawDocument):
                return outcome
            if hop == MAX_REDIRECTS:
                raise too_many_redirects(progress.current, requested=progress.requested)
            progress.redirects.append(progress.current)
            current = outcome
        raise AssertionError("unreachable: the loop returns or raises")

    async def _admit(
        self, url: str, request: FetchRequest, timers: tuple[asyncio.Timeout, ...]
    ) -> None:
        """The checks before a hop's request: guard, the caller's validate, robots.txt."""
        check_url_syntax(url, allow_private=self._allow_private)
        if request.validate is not None:
            try:
                result = request.validate(url)
                if inspect.isawaitable(result):
                    await result
            except (BlockedURLError, UnsupportedURLError):
                raise
            except Exception as exc:
                raise BlockedURLError(url, f"refused by validate: {exc}") from exc
        if request.obey_robots:
            async with paused(timers):
                robots = await self._robots(url)
            if not robots.allows(url, user_agent=request.user_agent):
                token = product_token(request.user_agent)
                raise RobotsDisallowedError(
                    url, f"{robots.reason} disallows it for {token!r}; not fetched"
                )

    async def _exchange(
        self,
        url: httpx.URL,
        headers: Headers,
        request: FetchRequest,
        progress: Progress,
        attempt: int,
        timers: tuple[asyncio.Timeout, ...],
        conditional: CachedResponse | None,
    ) -> RawDocument | httpx.URL:
        """One request: the final document, or the URL a redirect points to."""
        text = str(url)
        async with self._slot(text, attempt, request.policy, timers) as ticket:
            status: int | None = None
            counter = WireCounter()
            error: str | None = "cancelled"
            try:
                response = await self._send(url, headers, request.policy)
                try:
                    status = response.status_code
                    outcome = await self._outcome(
                        response, url, request, progress, counter, conditional
                    )
                finally:
                    with contextlib.suppress(httpx.HTTPError):
                        await response.aclose()
                error = None
                return outcome
            except FetchError as exc:
                error = type(exc).__name__
                raise
            finally:
                if ticket is not None and self._politeness is not None:
                    self._politeness.record(ticket, status=status, size=counter.raw, error=error)

    @contextlib.asynccontextmanager
    async def _slot(
        self, url: str, attempt: int, policy: FetchPolicy, timers: tuple[asyncio.Timeout, ...]
    ) -> AsyncIterator[Ticket | None]:
        if self._politeness is None:
            yield None
            return
        async with paused(timers):  # queueing behind a busy host is not this fetch's time
            ticket = await self._politeness.acquire(url, attempt=attempt, max_delay=policy.deadline)
        try:
            yield ticket
        finally:
            self._politeness.release(ticket)

    async def _send(self, url: httpx.URL, headers: Headers, policy: FetchPolicy) -> httpx.Response:
        text = str(url)
        limit = policy.timeout or None
        timeouts = {"connect": limit, "read": limit, "write": limit, "pool": limit}
        try:
            request = httpx.Request("GET", url, headers=headers, extensions={"timeout": timeouts})
            return await self._transport.handle_async_request(request)
        except AddressBlocked as exc:
            raise BlockedURLError(text, f"refused by the SSRF guard: {exc.reason}") from exc
        except ResolveFailed as exc:
            raise NetworkError(text, f"{exc}; check the host name") from exc
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            raise translated(exc, text) from exc

    async def _outcome(
        self,
        response: httpx.Response,
        url: httpx.URL,
        request: FetchRequest,
        progress: Progress,
        counter: WireCounter,
        conditional: CachedResponse | None,
    ) -> RawDocument | httpx.URL:
        text = str(url)
        status = response.status_code
        if status in REDIRECT_STATUSES:
            return redirect_target(response, url)
        redirects = tuple(progress.redirects)
        if status == 304 and conditional is not None:
            return not_modified_document(
                response, text, conditional, requested_url=progress.requested,
                redirects=redirects, attempts=progress.attempts, elapsed=progress.elapsed(),
            )  # fmt: skip
        if not 200 <= status < 300:
            raise status_error(response, text, now=self._now())
        body = await read_body(
            response, text, limit=request.policy.max_bytes, truncate=request.truncate,
            counter=counter,
        )  # fmt: skip
        document = received_document(
            response, text, body, requested_url=progress.requested, redirects=redirects,
            attempts=progress.attempts, elapsed=progress.elapsed(),
        )  # fmt: skip
        if status == 200 and request.cache is not None:
            remember(request.cache, progress.requested, document)
        return document

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self._clock(), UTC)


@contextlib.asynccontextmanager
async def paused(timers: tuple[asyncio.Timeout, ...]) -> AsyncIterator[None]:
    """Stop the timeout clocks for the block; they resume with the time it took added."""
    loop = asyncio.get_running_loop()
    saved = [timer.when() for timer in timers]
    for timer in timers:
        timer.reschedule(None)
    began = loop.time()
    try:
        yield
    finally:
        waited = loop.time() - began
        for timer, when in zip(timers, saved, strict=True):
            timer.reschedule(None if when is None else when + waited)
