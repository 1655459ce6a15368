"""The one HTTP client: ``fetch_document`` and the ``Fetcher`` a run shares.

A fetch runs up to ``1 + retries`` attempts; each attempt follows redirects by hand, one hop
at a time, at most ``MAX_REDIRECTS``. Before each hop the SSRF guard checks the URL, the
caller's ``validate`` hook runs, and for articles robots.txt is consulted; each request
waits for its host's politeness slot and is recorded in the ledger.

Time limits: ``timeout`` bounds one attempt (every hop and the whole body; 0 disables it),
``deadline`` bounds the fetch (attempts and the waits between them), so a server trickling
bytes cannot hold a fetch past either. Queueing for a politeness slot and loading
robots.txt (which has its own limits) stop both clocks: a fetch that waits its turn behind
a busy host is not a slow fetch.

Retried: network failures, attempt timeouts, 5xx and 429, after a Retry-After (capped at
``max_wait``) or full-jitter backoff. Not retried: other statuses, unsupported URLs, guard,
``validate`` and robots refusals, too many redirects, a body over the cap, and cancellation,
which propagates at once as ``asyncio.CancelledError`` (a timeout is ``FetchTimeoutError``).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Final

import httpx

from quietedit.config import Settings
from quietedit.errors import (
    BlockedURLError,
    FetchError,
    FetchTimeoutError,
    HTTPStatusError,
    NetworkError,
    RobotsDisallowedError,
    TooManyRedirectsError,
    UnsupportedURLError,
)
from quietedit.fetch.cache import CachedResponse, ConditionalCache
from quietedit.fetch.decoding import ACCEPT_ENCODING
from quietedit.fetch.document import RawDocument
from quietedit.fetch.guard import (
    AddressBlocked,
    GuardedBackend,
    ResolveFailed,
    Resolver,
    check_url_syntax,
)
from quietedit.fetch.headers import Headers, caller_headers, request_headers, same_origin
from quietedit.fetch.policy import FetchPolicy, default_settings
from quietedit.fetch.politeness import PER_HOST_CONCURRENCY, Clock, Politeness, Sleep, Ticket
from quietedit.fetch.responses import (
    WireCounter,
    not_modified_document,
    parse_url,
    read_body,
    received_document,
    redirect_target,
    remember,
    status_error,
    translated,
)
from quietedit.fetch.retry import backoff_delay, capped_wait, jitter_factor
from quietedit.fetch.robots import (
    ROBOTS_MAX_BYTES,
    RobotsPolicy,
    product_token,
)
from quietedit.fetch.robots_cache import RobotsCache
from quietedit.fetch.transport import GuardedTransport

logger = logging.getLogger(__name__)

MAX_REDIRECTS: Final = 5
REDIRECT_STATUSES: Final = frozenset({301, 302, 303, 307, 308})

Validate = Callable[[str], Awaitable[None] | None]
"""A per-hop check: raise to refuse the URL (the refusal is a ``BlockedURLError``)."""


@dataclass(slots=True)
class _Progress:
    """Where a fetch is: the URL being requested, attempts made, and when it began."""

    requested: str
    began: float
    current: str = ""
    attempts: int = 0
    redirects: list[str] = field(default_factory=list)

    def elapsed(self) -> float:
        """Seconds since the fetch began (event-loop time)."""
        return asyncio.get_running_loop().time() - self.began


@dataclass(frozen=True, slots=True)
class _Request:
    """What stays the same across the attempts of one fetch."""

    start: httpx.URL
    policy: FetchPolicy
    headers: Headers
    cached: CachedResponse | None
    cache: ConditionalCache | None
    validate: Validate | None
    obey_robots: bool
    truncate: bool
    sleep: Sleep


class Fetcher:
    """One run's HTTP client: a connection pool, the SSRF guard, politeness, robots.txt cache
    and request ledger, shared by every fetch made through it, within one event loop.

    Build it from ``Settings`` (default: the defaults) and use it as ``async with``.
    ``allow_private`` overrides ``settings.allow_private_addresses``; ``resolve`` replaces
    DNS (tests); ``clock``, ``sleep`` and ``jitter`` (a uniform draw from [0, 1)) make time
    and randomness injectable. ``politeness=False`` leaves out per-host limits and the
    ledger (a one-off fetch).
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        allow_private: bool | None = None,
        resolve: Resolver | None = None,
        politeness: Politeness | bool = True,
        clock: Clock = time.time,
        sleep: Sleep = asyncio.sleep,
        jitter: Callable[[], float] = random.random,
    ) -> None:
        self.settings = settings or default_settings()
        self.policy = FetchPolicy.from_settings(self.settings)
        if allow_private is None:
            allow_private = self.settings.allow_private_addresses
        self.allow_private = allow_private
        self._clock = clock
        self._sleep = sleep
        self._jitter = jitter
        if isinstance(politeness, Politeness):
            self.politeness: Politeness | None = politeness
        elif politeness:
            self.politeness = Politeness(self.settings.politeness, clock=clock, sleep=sleep)
        else:
            self.politeness = None
        per_origin = (
            self.politeness.per_host_concurrency if self.politeness else PER_HOST_CONCURRENCY
        )
        backend = GuardedBackend(allow_private=allow_private, resolve=resolve)
        # Requests go straight to the transport, without httpx.AsyncClient: redirects, auth
        # and cookies are all handled here (a client's cookie jar would carry one site's
        # cookies into later fetches), environment proxies are never used (the guard would
        # check the proxy, not the site), and the client's per-request bookkeeping was a
        # third of the CPU time per request (bench/fetch.py).
        self._transport = GuardedTransport(
            network_backend=backend,
            # The politeness slot is taken before a pool is asked, so a pool never queues;
            # the spare connections cover robots.txt and redirects back to the same origin.
            connections_per_origin=per_origin + 2,
        )
        self._robots = RobotsCache(
            self._fetch_robots, user_agent=self.policy.user_agent, politeness=self.politeness
        )
        self._closed = False

    async def __aenter__(self) -> Fetcher:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connections and stop any robots.txt fetch still running."""
        self._closed = True
        self._robots.close()
        with contextlib.suppress(httpx.HTTPError):
            await self._transport.aclose()

    async def fetch_feed(
        self,
        url: str,
        *,
        cache: ConditionalCache | None = None,
        headers: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
        validate: Validate | None = None,
    ) -> RawDocument:
        """Fetch a feed. Feeds are not subject to robots.txt: subscribing to a feed is the
        publisher's invitation to poll it."""
        return await self.fetch(url, cache=cache, headers=headers, validate=validate)

    async def fetch_article(
        self,
        url: str,
        *,
        cache: ConditionalCache | None = None,
        headers: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
        validate: Validate | None = None,
    ) -> RawDocument:
        """Fetch an article: robots.txt of every hop's origin must allow it
        (``RobotsDisallowedError`` otherwise), for quietedit's user agent."""
        return await self.fetch(
            url, cache=cache, headers=headers, validate=validate, obey_robots=True
        )

    async def fetch(
        self,
        url: str,
        *,
        cache: ConditionalCache | None = None,
        validate: Validate | None = None,
        headers: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
        obey_robots: bool = False,
        policy: FetchPolicy | None = None,
        sleep: Sleep | None = None,
    ) -> RawDocument:
        """Fetch ``url`` (see the module docstring); raises a ``FetchError`` on failure.

        ``policy`` overrides the settings' fetch policy for this fetch; ``sleep`` the wait
        between attempts. ``obey_robots`` checks robots.txt on every hop (articles do; feeds
        and robots.txt itself do not).
        """
        if self._closed:
            raise RuntimeError("this Fetcher is closed; fetch inside its 'async with' block")
        return await self._fetch(
            url,
            policy=policy or self.policy,
            cache=cache,
            validate=validate,
            headers=headers,
            obey_robots=obey_robots,
            truncate=False,
            sleep=sleep or self._sleep,
        )

    async def robots_policy(self, url: str) -> RobotsPolicy:
        """The robots.txt policy of ``url``'s origin, fetched once per run (concurrent callers
        share the one fetch). robots.txt itself is not subject to robots.txt."""
        return await self._robots.policy(url)

    async def _fetch_robots(self, robots_url: str) -> RawDocument:
        policy = replace(self.policy, max_bytes=min(self.policy.max_bytes, ROBOTS_MAX_BYTES))
        return await self._fetch(
            robots_url,
            policy=policy,
            cache=None,
            validate=None,
            headers=None,
            obey_robots=False,
            truncate=True,
            sleep=self._sleep,
        )

    async def _fetch(
        self,
        url: str,
        *,
        policy: FetchPolicy,
        cache: ConditionalCache | None,
        validate: Validate | None,
        headers: Mapping[str, str] | Iterable[tuple[str, str]] | None,
        obey_robots: bool,
        truncate: bool,
        sleep: Sleep,
    ) -> RawDocument:
        start = parse_url(url)
        requested = str(start)
        request = _Request(
            start=start,
            policy=policy,
            headers=caller_headers(headers, url=requested),
            cached=cache.get(requested) if cache is not None else None,
            cache=cache,
            validate=validate,
            obey_robots=obey_robots,
            truncate=truncate,
            sleep=sleep,
        )
        loop = asyncio.get_running_loop()
        progress = _Progress(requested=requested, began=loop.time(), current=requested)
        deadline = asyncio.timeout(policy.deadline)
        try:
            async with deadline:
                return await self._attempts(request, progress, deadline)
        except TimeoutError:
            if not deadline.expired():
                raise
            raise FetchTimeoutError(
                progress.current,
                f"no document within the {policy.deadline:g} s deadline "
                f"({progress.attempts} attempt(s)); the host is slow or trickling — "
                "raise settings.fetch.deadline if it is merely slow",
                deadline=True,
            ) from None

    async def _attempts(
        self, request: _Request, progress: _Progress, deadline: asyncio.Timeout
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
                if not _retryable(exc) or attempt == policy.retries:
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
        if self.politeness is not None:
            self.politeness.pause(error.url, wait)
        return wait

    def _backoff(self, attempt: int, policy: FetchPolicy) -> float:
        """Full-jitter exponential backoff before retry ``attempt + 1``."""
        factor = jitter_factor(self._jitter())
        return backoff_delay(attempt, base=policy.backoff, factor=factor, cap=policy.max_wait)

    async def _attempt(
        self, request: _Request, progress: _Progress, attempt: int, deadline: asyncio.Timeout
    ) -> RawDocument:
        timeout = request.policy.timeout
        timer = asyncio.timeout(timeout or None)
        try:
            async with timer:
                return await self._follow(request, progress, attempt, (deadline, timer))
        except TimeoutError:
            if not timer.expired():
                raise
            raise FetchTimeoutError(
                progress.current,
                f"attempt {attempt + 1} got no complete response within {timeout:g} s "
                "(settings.fetch.timeout)",
            ) from None

    async def _follow(
        self,
        request: _Request,
        progress: _Progress,
        attempt: int,
        timers: tuple[asyncio.Timeout, ...],
    ) -> RawDocument:
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
                user_agent=request.policy.user_agent,
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
                raise TooManyRedirectsError(
                    progress.current,
                    f"redirects more than {MAX_REDIRECTS} times (from {progress.requested}); "
                    "fetch the final URL directly",
                )
            progress.redirects.append(progress.current)
            current = outcome
        raise AssertionError("unreachable: the loop returns or raises")

    async def _admit(
        self, url: str, request: _Request, timers: tuple[asyncio.Timeout, ...]
    ) -> None:
        """The checks before a hop's request: guard, the caller's validate, robots.txt."""
        check_url_syntax(url, allow_private=self.allow_private)
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
            async with _paused(timers):
                robots = await self.robots_policy(url)
            if not robots.allows(url, user_agent=request.policy.user_agent):
                token = product_token(request.policy.user_agent)
                raise RobotsDisallowedError(
                    url, f"{robots.reason} disallows it for {token!r}; not fetched"
                )

    async def _exchange(
        self,
        url: httpx.URL,
        headers: Headers,
        request: _Request,
        progress: _Progress,
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
                if ticket is not None and self.politeness is not None:
                    self.politeness.record(ticket, status=status, size=counter.raw, error=error)

    @contextlib.asynccontextmanager
    async def _slot(
        self, url: str, attempt: int, policy: FetchPolicy, timers: tuple[asyncio.Timeout, ...]
    ) -> AsyncIterator[Ticket | None]:
        if self.politeness is None:
            yield None
            return
        async with _paused(timers):  # queueing behind a busy host is not this fetch's time
            ticket = await self.politeness.acquire(url, attempt=attempt, max_delay=policy.deadline)
        try:
            yield ticket
        finally:
            self.politeness.release(ticket)

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
        request: _Request,
        progress: _Progress,
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
async def _paused(timers: tuple[asyncio.Timeout, ...]) -> AsyncIterator[None]:
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


def _retryable(error: FetchError) -> bool:
    if isinstance(error, FetchTimeoutError):
        return not error.deadline
    if isinstance(error, HTTPStatusError):
        return error.transient
    return isinstance(error, NetworkError)


async def fetch_document(
    url: str,
    *,
    timeout: float = 15.0,
    retries: int = 2,
    backoff: float = 0.5,
    cache: ConditionalCache | None = None,
    validate: Validate | None = None,
    headers: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
    sleep: Sleep | None = None,
    deadline: float | None = None,
    max_wait: float | None = None,
    max_bytes: int | None = None,
    user_agent: str | None = None,
    allow_private: bool = False,
    resolve: Resolver | None = None,
    fetcher: Fetcher | None = None,
    obey_robots: bool = False,
    jitter: Callable[[], float] | None = None,
) -> RawDocument:
    """Fetch one document from an untrusted URL; cancel it by cancelling the task.

    ``timeout`` bounds one attempt (0: no limit), ``retries`` is the number of extra
    attempts, ``backoff`` the base of the jittered backoff; ``cache`` makes the request
    conditional; ``validate`` runs on every hop's URL before its request (raise to refuse);
    ``headers`` are sent with it (credentials only while on the same origin); ``sleep``
    replaces the wait between attempts. The rest default to ``settings`` defaults:
    ``deadline`` (at least ``timeout``), ``max_wait``, ``max_bytes``, ``user_agent``.
    ``allow_private`` lifts the SSRF guard for loopback and private networks; ``resolve``
    replaces DNS. Given a ``fetcher``, the fetch shares its connections, politeness, robots
    cache and ledger (and its guard settings); without one it has neither politeness nor
    ledger. Raises a ``FetchError`` subclass (see ``quietedit.errors``).
    """
    base = fetcher.policy if fetcher is not None else FetchPolicy.from_settings(default_settings())
    policy = FetchPolicy(
        timeout=timeout,
        deadline=deadline if deadline is not None else max(base.deadline, timeout),
        retries=retries,
        backoff=backoff,
        max_wait=max_wait if max_wait is not None else base.max_wait,
        max_bytes=max_bytes if max_bytes is not None else base.max_bytes,
        user_agent=user_agent or base.user_agent,
    )
    if fetcher is None:
        async with Fetcher(
            allow_private=allow_private,
            resolve=resolve,
            politeness=False,
            jitter=jitter or random.random,
        ) as one_off:
            return await fetch_document(
                url,
                timeout=timeout,
                retries=retries,
                backoff=backoff,
                cache=cache,
                validate=validate,
                headers=headers,
                sleep=sleep,
                deadline=policy.deadline,
                max_wait=policy.max_wait,
                max_bytes=policy.max_bytes,
                user_agent=policy.user_agent,
                fetcher=one_off,
                obey_robots=obey_robots,
            )
    return await fetcher.fetch(
        url,
        cache=cache,
        validate=validate,
        headers=headers,
        obey_robots=obey_robots,
        policy=policy,
        sleep=sleep,
    )
