"""Per-host politeness shared by every fetch of a run: spacing, concurrency, budget, pauses.

For each host (the URL's host name, lowercased; ports share their host's limits):

- **spacing**: two requests start at least ``min_host_interval`` apart, or the host's
  robots.txt Crawl-delay if that is longer;
- **concurrency**: at most ``per_host_concurrency`` requests in flight, and at most
  ``max_concurrency`` hosts with requests in flight at once;
- **budget**: at most ``max_requests_per_host_per_hour`` requests start in any sliding hour,
  counted exactly from the ledger, which a run seeds with the previous runs' requests;
- **pause**: a Retry-After from the host pauses every request to it, not only the retry.

A request that would have to wait longer than the caller allows (``max_delay``), or whose
host has spent its hourly budget, is not waited for: ``HostDeferredError`` says when the
host may be asked again, and the run carries the item over. Time comes from ``clock``
(seconds since the epoch) and waits go through ``sleep``, both injectable.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Final
from urllib.parse import urlsplit

from quietedit.config import PolitenessSettings
from quietedit.errors import HostDeferredError
from quietedit.fetch.ledger import LedgerEntry, RequestLedger

logger = logging.getLogger(__name__)

HOUR: Final = 3600.0
PER_HOST_CONCURRENCY: Final = 2
"""Requests in flight to one host: two keep a slow response from stalling the host's queue
while staying far below what a browser opens (six); settings.politeness has no key for it."""

Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]


def host_of(url: str) -> str:
    """The politeness key of ``url``: its host name, lowercased."""
    return (urlsplit(url).hostname or "").lower()


@dataclass(slots=True)
class _Host:
    name: str
    semaphore: asyncio.Semaphore
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    starts: deque[float] = field(default_factory=deque)  # start times in the last hour
    last_start: float = float("-inf")
    paused_until: float = float("-inf")
    crawl_delay: float = 0.0
    active: int = 0


@dataclass(frozen=True, slots=True)
class Ticket:
    """A granted request: its host, URL, attempt and start time (``clock`` seconds)."""

    host: str
    url: str
    attempt: int
    started: float


class Politeness:
    """The per-host limits of one run, and the ledger every request is recorded in."""

    def __init__(
        self,
        settings: PolitenessSettings,
        *,
        ledger: RequestLedger | None = None,
        per_host_concurrency: int = PER_HOST_CONCURRENCY,
        clock: Clock = time.time,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        if per_host_concurrency < 1:
            raise ValueError(f"per_host_concurrency {per_host_concurrency} must be at least 1")
        self.settings = settings
        self.ledger = ledger if ledger is not None else RequestLedger()
        self.per_host_concurrency = per_host_concurrency
        self._clock = clock
        self._sleep = sleep
        self._hosts: dict[str, _Host] = {}
        self._active_hosts = asyncio.Semaphore(settings.max_concurrency)

    def now(self) -> float:
        """The politeness clock: seconds since the epoch."""
        return self._clock()

    def pause(self, url: str, seconds: float) -> None:
        """Hold every request to ``url``'s host for ``seconds`` from now (a Retry-After)."""
        host = self._host(host_of(url))
        host.paused_until = max(host.paused_until, self._clock() + seconds)
        logger.info("%s: paused for %.1f s (Retry-After)", host.name, seconds)

    def set_crawl_delay(self, url: str, seconds: float) -> None:
        """Space requests to ``url``'s host at least ``seconds`` apart (robots.txt)."""
        host = self._host(host_of(url))
        host.crawl_delay = max(0.0, seconds)

    async def acquire(self, url: str, *, attempt: int, max_delay: float) -> Ticket:
        """Wait for a request slot for ``url``; give it back with ``release``.

        Waits for the host's concurrency, spacing and pause; raises ``HostDeferredError`` at
        once if the hourly budget is spent or the wait would exceed ``max_delay`` seconds.
        """
        host = self._host(host_of(url))
        await host.semaphore.acquire()
        try:
            started = await self._start(host, url, max_delay=max_delay)
        except BaseException:
            host.semaphore.release()
            raise
        return Ticket(host.name, url, attempt, started)

    def release(self, ticket: Ticket) -> None:
        """Give back the slot of a finished (or failed) request."""
        host = self._hosts[ticket.host]
        host.active -= 1
        if host.active == 0:
            self._active_hosts.release()
        host.semaphore.release()

    @contextlib.asynccontextmanager
    async def slot(self, url: str, *, attempt: int, max_delay: float) -> AsyncIterator[Ticket]:
        """``acquire`` and ``release`` around an ``async with`` block."""
        ticket = await self.acquire(url, attempt=attempt, max_delay=max_delay)
        try:
            yield ticket
        finally:
            self.release(ticket)

    def record(
        self, ticket: Ticket, *, status: int | None, size: int, error: str | None = None
    ) -> None:
        """Write the finished request of ``ticket`` into the ledger."""
        self.ledger.append(
            LedgerEntry(
                at=datetime.fromtimestamp(ticket.started, UTC),
                url=ticket.url,
                host=ticket.host,
                status=status,
                bytes=size,
                duration=max(0.0, self._clock() - ticket.started),
                attempt=ticket.attempt,
                error=error,
            )
        )

    async def _start(self, host: _Host, url: str, *, max_delay: float) -> float:
        """Wait for this request's turn and mark it started; returns its start time."""
        async with host.lock:  # one decision at a time per host keeps spacing exact
            now = self._clock()
            interval = max(self.settings.min_host_interval, host.crawl_delay)
            earliest = max(now, host.last_start + interval, host.paused_until)
            self._check_budget(host, url, earliest)
            delay = earliest - now
            if delay > max_delay:
                raise HostDeferredError(
                    url,
                    f"host {host.name} may next be asked in {delay:.0f} s (spacing "
                    f"{interval:g} s, pause, or queue), longer than this fetch may wait; "
                    "it is carried over",
                    retry_at=earliest,
                )
            if delay > 0:
                await self._sleep(delay)
            if host.active == 0:  # the host becomes active: it needs one of the host slots
                await self._active_hosts.acquire()
            host.active += 1
            started = max(self._clock(), earliest)
            host.last_start = started
            host.starts.append(started)
            return started

    def _check_budget(self, host: _Host, url: str, at: float) -> None:
        self._forget_old(host, at)
        budget = self.settings.max_requests_per_host_per_hour
        if len(host.starts) >= budget:
            # The oldest start in the window leaves it an hour later, freeing one request.
            retry_at = host.starts[len(host.starts) - budget] + HOUR
            raise HostDeferredError(
                url,
                f"host {host.name} has had its {budget} requests this hour "
                "(settings.politeness.max_requests_per_host_per_hour); "
                f"next allowed at {_stamp(retry_at)}",
                retry_at=retry_at,
            )

    @staticmethod
    def _forget_old(host: _Host, at: float) -> None:
        while host.starts and host.starts[0] <= at - HOUR:
            host.starts.popleft()

    def _host(self, name: str) -> _Host:
        host = self._hosts.get(name)
        if host is None:
            host = _Host(name=name, semaphore=asyncio.Semaphore(self.per_host_concurrency))
            since = datetime.fromtimestamp(self._clock() - HOUR, UTC)
            seeded = sorted(e.at.timestamp() for e in self.ledger.for_host(name, since=since))
            host.starts.extend(seeded)
            if seeded:
                host.last_start = seeded[-1]
            self._hosts[name] = host
        return host


def _stamp(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
