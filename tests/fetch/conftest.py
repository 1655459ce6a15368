"""Fixtures for the fetcher: a real threaded HTTP server on loopback, a resolver without DNS,
and a clock whose sleeps advance it instantly.

The SSRF guard is relaxed for loopback here, explicitly (``allow_private=True``); the tests
of the guard itself use the default and prove it refuses loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from dataclasses import replace
from typing import Any, TypeVar

import pytest
from pytest_httpserver import HTTPServer

from quietedit.config import PolitenessSettings, Settings
from quietedit.fetch import Fetcher

T = TypeVar("T")

NEWS = "news.example.test"  # names the resolver maps to the loopback server
CDN = "cdn.example.test"


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run one coroutine on a fresh event loop (no async test plugin needed)."""
    return asyncio.run(coroutine)


class FakeClock:
    """Seconds since the epoch that move only when something sleeps; every sleep is recorded."""

    def __init__(self, start: float = 1_796_025_600.0) -> None:  # 2026-11-30T08:00:00Z
        self.now = start
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += max(0.0, seconds)
        await asyncio.sleep(0)


class Resolver:
    """Maps test host names to addresses and counts lookups; unknown names do not resolve."""

    def __init__(self, table: dict[str, list[str]] | None = None) -> None:
        self.table = {NEWS: ["127.0.0.1"], CDN: ["127.0.0.1"], **(table or {})}
        self.lookups: list[str] = []

    def __call__(self, host: str) -> list[str]:
        self.lookups.append(host)
        if host not in self.table:
            raise socket.gaierror(socket.EAI_NONAME, f"unknown test host {host}")
        return list(self.table[host])


@pytest.fixture(scope="session")
def _session_server() -> Iterator[HTTPServer]:
    # Threaded, so a slow handler does not block the next request and werkzeug speaks
    # HTTP/1.1 (chunked bodies, keep-alive) as real servers do.
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    yield server
    server.clear()
    if server.is_running():
        server.stop()


@pytest.fixture
def server(_session_server: HTTPServer) -> Iterator[HTTPServer]:
    """The loopback server, with no handlers and an empty log."""
    _session_server.clear()
    yield _session_server
    _session_server.clear()


@pytest.fixture
def port(server: HTTPServer) -> int:
    return server.port


@pytest.fixture
def resolver() -> Resolver:
    return Resolver()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def settings(
    *,
    per_hour: int = 120,
    interval: float = 0.0,
    concurrency: int = 8,
    timeout: float = 5.0,
    deadline: float = 20.0,
    retries: int = 2,
    max_bytes: int | None = None,
) -> Settings:
    """The defaults, with politeness and fetch limits suited to a test."""
    base = Settings()
    return replace(
        base,
        politeness=PolitenessSettings(
            max_requests_per_host_per_hour=per_hour,
            min_host_interval=interval,
            max_concurrency=concurrency,
        ),
        fetch=replace(
            base.fetch,
            timeout=timeout,
            deadline=deadline,
            retries=retries,
            max_bytes=max_bytes or base.fetch.max_bytes,
        ),
    )


def make_fetcher(resolver: Resolver, clock: FakeClock, **overrides: Any) -> Fetcher:
    """A Fetcher for the loopback server: guard relaxed for loopback, fake time, no DNS."""
    return Fetcher(
        settings(**overrides),
        allow_private=True,
        resolve=resolver,
        clock=clock,
        sleep=clock.sleep,
        jitter=lambda: 0.0,
    )


Sleeper = Callable[[float], Awaitable[None]]


def recording_sleep(log: list[float]) -> Sleeper:
    """A sleep that returns at once and records how long it was asked to wait."""

    async def sleep(seconds: float) -> None:
        log.append(seconds)
        await asyncio.sleep(0)

    return sleep


@contextlib.contextmanager
def raw_server(reply: bytes) -> Iterator[int]:
    """A loopback server that answers every connection with ``reply`` verbatim, then closes;
    yields its port. For responses no HTTP server library would send."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.1)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            with connection:
                connection.settimeout(1)
                with contextlib.suppress(OSError):
                    connection.recv(65536)
                    connection.sendall(reply)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        stop.set()
        thread.join()
        listener.close()
