"""The one HTTP client: ``fetch_document`` and the ``Fetcher`` a run shares.

A fetch runs up to ``1 + retries`` attempts (``attempts``: retries, Retry-After, backoff,
the attempt timeout and the fetch's deadline); each attempt follows redirects by hand, one
hop at a time, at most ``MAX_REDIRECTS`` (``hops``: the SSRF guard, the caller's
``validate`` hook and, for articles, robots.txt before each hop; the host's politeness slot
and the ledger around each request). Which failures are retried, and the errors for running
out of time or hops, are ``failures``.

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
import random
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

import httpx

from quietedit.config import Settings
from quietedit.fetch.attempts import Attempts
from quietedit.fetch.cache import ConditionalCache
from quietedit.fetch.document import RawDocument
from quietedit.fetch.failures import MAX_REDIRECTS, REDIRECT_STATUSES
from quietedit.fetch.guard import GuardedBackend, Resolver
from quietedit.fetch.headers import caller_headers
from quietedit.fetch.hops import Hops
from quietedit.fetch.policy import FetchPolicy
from quietedit.fetch.politeness import Clock, Politeness, Sleep
from quietedit.fetch.request import FetchRequest, Validate
from quietedit.fetch.responses import parse_url
from quietedit.fetch.robots import ROBOTS_MAX_BYTES, RobotsPolicy
from quietedit.fetch.robots_cache import RobotsCache
from quietedit.fetch.transport import GuardedTransport

__all__ = ["MAX_REDIRECTS", "REDIRECT_STATUSES", "Fetcher", "Validate", "fetch_document"]

_DEFAULTS = Settings()
"""Every setting's default: ``fetch_document``'s defaults are ``settings.fetch``'s."""


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
        self.settings = settings or Settings()
        self.policy: FetchPolicy = self.settings.fetch
        self.user_agent = self.settings.user_agent
        if allow_private is None:
            allow_private = self.settings.allow_private_addresses
        self.allow_private = allow_private
        self._sleep = sleep
        if isinstance(politeness, Politeness):
            self.politeness: Politeness | None = politeness
        elif politeness:
            self.politeness = Politeness(self.settings.politeness, clock=clock, sleep=sleep)
        else:
            self.politeness = None
        backend = GuardedBackend(allow_private=allow_private, resolve=resolve)
        # Requests go straight to the transport, without httpx.AsyncClient: redirects, auth
        # and cookies are all handled here (a client's cookie jar would carry one site's
        # cookies into later fetches), and environment proxies are never used (the guard
        # would check the proxy, not the site).
        self._transport = GuardedTransport(network_backend=backend)
        self._robots = RobotsCache(
            self._fetch_robots, user_agent=self.user_agent, politeness=self.politeness
        )
        hops = Hops(
            self._transport,
            allow_private=allow_private,
            politeness=self.politeness,
            robots=self.robots_policy,
            clock=clock,
        )
        self._attempts = Attempts(hops, politeness=self.politeness, jitter=jitter)
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
        user_agent: str | None = None,
    ) -> RawDocument:
        """Fetch ``url`` (see the module docstring); raises a ``FetchError`` on failure.

        ``policy`` overrides the settings' fetch policy for this fetch, ``user_agent`` their
        user agent; ``sleep`` the wait between attempts. ``obey_robots`` checks robots.txt on
        every hop (articles do; feeds and robots.txt itself do not).
        """
        if self._closed:
            raise RuntimeError("this Fetcher is closed; fetch inside its 'async with' block")
        return await self._fetch(
            url,
            policy=policy or self.policy,
            user_agent=user_agent or self.user_agent,
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
            user_agent=self.user_agent,
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
        user_agent: str,
        cache: ConditionalCache | None,
        validate: Validate | None,
        headers: Mapping[str, str] | Iterable[tuple[str, str]] | None,
        obey_robots: bool,
        truncate: bool,
        sleep: Sleep,
    ) -> RawDocument:
        start = parse_url(url)
        requested = str(start)
        request = FetchRequest(
            start=start,
            policy=policy,
            user_agent=user_agent,
            headers=caller_headers(headers, url=requested),
            cached=cache.get(requested) if cache is not None else None,
            cache=cache,
            validate=validate,
            obey_robots=obey_robots,
            truncate=truncate,
            sleep=sleep,
        )
        return await self._attempts.run(request)


async def fetch_document(
    url: str,
    *,
    timeout: float = _DEFAULTS.fetch.timeout,
    retries: int = _DEFAULTS.fetch.retries,
    backoff: float = _DEFAULTS.fetch.backoff,
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
    base = fetcher.policy if fetcher is not None else _DEFAULTS.fetch
    user_agent = user_agent or (fetcher.user_agent if fetcher is not None else _DEFAULTS.user_agent)
    policy = FetchPolicy(
        timeout=timeout,
        deadline=deadline if deadline is not None else max(base.deadline, timeout),
        retries=retries,
        backoff=backoff,
        max_wait=max_wait if max_wait is not None else base.max_wait,
        max_bytes=max_bytes if max_bytes is not None else base.max_bytes,
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
                user_agent=user_agent,
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
        user_agent=user_agent,
    )
