"""An httpx transport on an httpcore connection pool that uses the guard's network backend.

httpx 0.28's ``AsyncHTTPTransport`` builds its pool without a ``network_backend`` argument
(a pull request to add one, encode/httpx#3749, is open), so this transport builds the pool
itself from httpcore's public API (``AsyncConnectionPool(network_backend=...)``) and does
what httpx's transport does around it: map the request, wrap the response stream, and turn
httpcore's exceptions into httpx's.
"""

from __future__ import annotations

import contextlib
import functools
import ssl
from collections.abc import AsyncIterator, Iterator
from typing import Final

import httpcore
import httpx

# Most specific first: the first class an exception is an instance of decides.
_EXCEPTIONS: Final[tuple[tuple[type[Exception], type[httpx.TransportError]], ...]] = (
    (httpcore.ConnectTimeout, httpx.ConnectTimeout),
    (httpcore.ReadTimeout, httpx.ReadTimeout),
    (httpcore.WriteTimeout, httpx.WriteTimeout),
    (httpcore.PoolTimeout, httpx.PoolTimeout),
    (httpcore.TimeoutException, httpx.TimeoutException),
    (httpcore.ConnectError, httpx.ConnectError),
    (httpcore.ReadError, httpx.ReadError),
    (httpcore.WriteError, httpx.WriteError),
    (httpcore.NetworkError, httpx.NetworkError),
    (httpcore.ProxyError, httpx.ProxyError),
    (httpcore.RemoteProtocolError, httpx.RemoteProtocolError),
    (httpcore.LocalProtocolError, httpx.LocalProtocolError),
    (httpcore.ProtocolError, httpx.ProtocolError),
    (httpcore.UnsupportedProtocol, httpx.UnsupportedProtocol),
)


@contextlib.contextmanager
def _mapped(request: httpx.Request | None = None) -> Iterator[None]:
    try:
        yield
    except Exception as exc:
        for source, target in _EXCEPTIONS:
            if isinstance(exc, source):
                raise target(str(exc), request=request) from exc
        raise


class _ResponseStream(httpx.AsyncByteStream):
    def __init__(self, stream: AsyncIterator[bytes] | httpcore.Response) -> None:
        self._stream = stream

    async def __aiter__(self) -> AsyncIterator[bytes]:
        with _mapped():
            async for part in self._stream:  # type: ignore[union-attr]
                yield part

    async def aclose(self) -> None:
        close = getattr(self._stream, "aclose", None)
        if close is not None:
            with _mapped():
                await close()


@functools.cache
def default_ssl_context() -> ssl.SSLContext:
    """httpx's verifying context (certifi's CA bundle), built once: loading it takes a while."""
    return httpx.create_ssl_context()


class GuardedTransport(httpx.AsyncBaseTransport):
    """HTTP/1.1 over connection pools whose connections ``network_backend`` opens (the guard).

    One pool per origin: httpcore's pool scans every connection for every queued request, so
    a single pool serving many hosts costs O(requests x connections) per request, which
    dominates a run with dozens of hosts in flight. Per origin, both stay at the per-host
    concurrency.
    """

    def __init__(
        self,
        *,
        network_backend: httpcore.AsyncNetworkBackend,
        connections_per_origin: int,
        keepalive_expiry: float = 5.0,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        self._backend = network_backend
        self._per_origin = connections_per_origin
        self._keepalive_expiry = keepalive_expiry
        self._ssl_context = ssl_context or default_ssl_context()
        self._pools: dict[tuple[bytes, bytes, int | None], httpcore.AsyncConnectionPool] = {}

    def _pool(self, url: httpx.URL) -> httpcore.AsyncConnectionPool:
        key = (url.raw_scheme, url.raw_host, url.port)
        pool = self._pools.get(key)
        if pool is None:
            pool = httpcore.AsyncConnectionPool(
                ssl_context=self._ssl_context,
                max_connections=self._per_origin,
                max_keepalive_connections=self._per_origin,
                keepalive_expiry=self._keepalive_expiry,
                http1=True,
                http2=False,
                network_backend=self._backend,
            )
            self._pools[key] = pool
        return pool

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        core_request = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=request.url.raw_scheme,
                host=request.url.raw_host,
                port=request.url.port,
                target=request.url.raw_path,
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        with _mapped(request):
            response = await self._pool(request.url).handle_async_request(core_request)
        return httpx.Response(
            status_code=response.status,
            headers=response.headers,
            stream=_ResponseStream(response.stream),  # type: ignore[arg-type]
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        pools, self._pools = list(self._pools.values()), {}
        for pool in pools:
            with _mapped():
                await pool.aclose()
