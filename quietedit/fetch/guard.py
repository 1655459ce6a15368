"""The SSRF guard: quietedit connects only to public addresses, unless told otherwise.

Two layers, both on by default:

1. Before every request (the first and each redirect hop), the URL is checked without DNS:
   http(s) only, no ``user:password@``, and a host that is an address literal in any
   notation (``0x7f.1``, ``2130706433``, ``[::ffff:127.0.0.1]``) or a ``localhost`` name
   is judged at once — a redirect to ``http://169.254.169.254/`` is refused before any
   connection is attempted.
2. When a connection is opened (for the first request and for every redirect hop that
   needs a new one), ``GuardedBackend`` (an httpcore network backend around httpcore's own
   ``AnyIOBackend``) resolves the host itself, checks **every** answer, and has the inner
   backend connect to an address it checked, so no packet goes to a refused address. The
   request keeps the host name: httpcore sends ``Host`` from the URL and calls
   ``start_tls(server_hostname=<the URL's host>)`` on the stream we return (httpcore
   ``_async/connection.py``, ``AsyncHTTPConnection._connect``), so TLS verifies the
   certificate for the name and SNI carries it. DNS answers and DNS rebinding cannot steer a
   connection to an address the guard did not see.

``allow_private`` (``settings.allow_private_addresses``) lifts loopback and private ranges
only; link-local (cloud metadata), multicast, reserved, documentation and the rest stay
refused. ``check_public_url`` is the same check as one call, with DNS, for validating a URL
before it is stored (a feed's address, a discovered link).
"""

from __future__ import annotations

import asyncio
import inspect
import socket
from collections.abc import Awaitable, Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

import httpcore

from quietedit.errors import BlockedURLError, NetworkError, UnsupportedURLError
from quietedit.fetch.addresses import checked_addresses, host_block_reason, parse_host_address

SyncResolver = Callable[[str], Iterable[str]]
"""Host name -> its addresses as strings; raises ``OSError`` for an unknown name."""
Resolver = Callable[[str], Iterable[str] | Awaitable[Iterable[str]]]
"""The same, sync or async: what the fetcher takes. Tests inject one (no real DNS)."""


def check_url_syntax(url: str, *, allow_private: bool = False) -> str:
    """The host of ``url`` once its form passes the guard (layer 1, no DNS).

    Raises ``UnsupportedURLError`` for a URL that is not http(s) with a host or that carries
    credentials, ``BlockedURLError`` for an address literal or ``localhost`` name it refuses.
    """
    try:
        parts = urlsplit(url)
        hostname = parts.hostname
        parts.port  # noqa: B018 - raises ValueError for a port out of range
    except ValueError as exc:
        raise UnsupportedURLError(url, f"is not a valid URL ({exc}); check its spelling") from exc
    if parts.scheme.lower() not in ("http", "https"):
        raise UnsupportedURLError(
            url, f"scheme {parts.scheme or '(none)'!r} is not supported; use http:// or https://"
        )
    if not hostname:
        raise UnsupportedURLError(url, "has no host; write it as https://host/path")
    if parts.username is not None or parts.password is not None:
        raise UnsupportedURLError(
            url, "carries user:password@; send credentials in headers instead"
        )
    reason = host_block_reason(hostname, allow_private=allow_private)
    if reason is not None:
        raise BlockedURLError(url, f"refused by the SSRF guard: {reason}")
    return hostname


def check_public_url(
    url: str, *, resolve: SyncResolver | None = None, allow_private: bool = False
) -> None:
    """Raise unless ``url`` is http(s) and every address its host resolves to is public.

    The default SSRF guard as one call, for checking a URL before it is stored (a feed's
    address, a discovered link). ``resolve`` maps a host name to its addresses (default: the
    system resolver) and raises ``OSError`` for an unknown name. Raises
    ``UnsupportedURLError``, ``BlockedURLError`` naming the refused address, or
    ``NetworkError`` when the name does not resolve. Fetching does not rely on this check:
    it checks the address it actually connects to (``GuardedBackend``), which DNS cannot fool.
    """
    host = check_url_syntax(url, allow_private=allow_private)
    if parse_host_address(host) is not None:
        return  # an address literal, already judged
    try:
        answers = list((resolve or _system_resolve)(host))
    except OSError as exc:
        raise NetworkError(url, f"cannot resolve {host!r} ({exc}); check the host name") from exc
    try:
        checked_addresses(answers, host=host, allow_private=allow_private)
    except ValueError as exc:
        raise BlockedURLError(url, f"refused by the SSRF guard: {exc}") from exc


def _system_resolve(host: str) -> list[str]:
    infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


class AddressBlocked(Exception):
    """A connection was refused by the guard; the fetcher raises ``BlockedURLError`` for it."""

    def __init__(self, host: str, reason: str) -> None:
        self.host = host
        self.reason = reason
        super().__init__(reason)


class ResolveFailed(Exception):
    """The host name did not resolve; the fetcher raises ``NetworkError`` for it."""


class GuardedBackend(httpcore.AsyncNetworkBackend):
    """An httpcore network backend that connects only to addresses the guard allows.

    ``connect_tcp`` resolves the host through ``resolve`` (default: the event loop's
    ``getaddrinfo``), refuses the host if any answer is refused, and has ``inner``
    (default: httpcore's ``AnyIOBackend``) connect to the checked addresses in order. It
    returns the inner stream, so httpcore's own ``start_tls`` uses the host name for SNI and
    certificate checks.
    """

    def __init__(
        self,
        *,
        allow_private: bool = False,
        resolve: Resolver | None = None,
        inner: httpcore.AsyncNetworkBackend | None = None,
    ) -> None:
        self._allow_private = allow_private
        self._resolve = resolve
        self._inner = inner or httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        addresses = await self._addresses(host)
        failure: Exception | None = None
        for address in addresses:
            try:
                return await self._inner.connect_tcp(
                    str(address),
                    port,
                    timeout=timeout,
                    local_address=local_address,
                    socket_options=socket_options,
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                failure = exc  # try the next checked address, as a resolver-order client would
        assert failure is not None  # noqa: S101 - checked_addresses never returns none
        raise failure

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise AddressBlocked(path, "Unix sockets are not fetched")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)

    async def _addresses(self, host: str) -> tuple[Any, ...]:
        reason = host_block_reason(host, allow_private=self._allow_private)
        if reason is not None:
            raise AddressBlocked(host, reason)
        literal = parse_host_address(host)
        if literal is not None:
            return (literal,)
        try:
            answers = await self._lookup(host)
        except OSError as exc:
            raise ResolveFailed(f"cannot resolve {host!r} ({exc})") from exc
        try:
            return checked_addresses(answers, host=host, allow_private=self._allow_private)
        except ValueError as exc:
            raise AddressBlocked(host, str(exc)) from exc

    async def _lookup(self, host: str) -> list[str]:
        if self._resolve is None:
            loop = asyncio.get_running_loop()
            infos = await loop.getaddrinfo(host, None, type=socket.SOCK_STREAM)
            return [str(info[4][0]) for info in infos]
        answers = self._resolve(host)
        if inspect.isawaitable(answers):
            answers = await answers
        return list(answers)
