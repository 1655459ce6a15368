"""httpx's ``AsyncHTTPTransport``, on a connection pool whose connections the guard opens.

httpx 0.28's ``AsyncHTTPTransport`` builds its httpcore pool itself and takes no
``network_backend`` (encode/httpx#3749, which adds one, is not released; replacing its
private ``_pool`` would, on an httpx that renamed it, silently leave the guard out).
``GuardedTransport`` builds the pool from httpcore's public API
(``AsyncConnectionPool(network_backend=...)``) and does only what httpx's transport does
around it: map the request, wrap the response stream, raise httpx's exceptions for
httpcore's. Once httpx takes a ``network_backend``, this
module becomes ``httpx.AsyncHTTPTransport(network_backend=...)``.
"""

from __future__ import annotations

import contextlib
import functools
import ssl
from collections.abc import AsyncIterable, AsyncIterator, Iterator
from typing import Final

import httpcore
import httpx

# Most specific first: the first class an exception is an instance of decides. httpx maps
# the same pairs (httpx/_transports/default.py); the guard's own exceptions pass through.
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
    def __init__(self, stream: AsyncIterable[bytes]) -> None:
        self._stream = stream

    async def __aiter__(self) -> AsyncIterator[bytes]:
        with _mapped():
            async for part in self._stream:
                yield part

    async def aclose(self) -> None:
        close = getattr(self._stream, "aclose", None)
        if close is not None:
            with _mapped():
                await close()


@functools.cache
def default_ssl_context() -> ssl.SSLContext:
    """httpx's verifying context (certifi's CA bundle), built once: every ``Fetcher`` (a
    one-off ``fetch_document`` builds one) would otherwise load the bundle again."""
    return httpx.create_ssl_context()


class GuardedTransport(httpx.AsyncBaseTransport):
    """HTTP/1.1 over one httpcore pool whose connections ``network_backend`` opens.

    The pool sets no limit of its own: the fetcher's politeness slots bound the requests in
    flight, per host and across hosts, before the pool is asked, and a pool limit on top
    could only make a request that holds a slot queue for a connection. Idle connections
    close after ``keepalive_expiry`` seconds (httpx's default).
    """

    def __init__(
        self,
        *,
        network_backend: httpcore.AsyncNetworkBackend,
        keepalive_expiry: float = 5.0,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=ssl_context or default_ssl_context(),
            max_connections=None,
            keepalive_expiry=keepalive_expiry,
            http1=True,
            http2=False,
            network_backend=network_backend,
        )

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
            response = await self._pool.handle_async_request(core_request)
        assert isinstance(response.stream, AsyncIterable)  # noqa: S101 - an async pool's
        return httpx.Response(
            status_code=response.status,
            headers=response.headers,
            stream=_ResponseStream(response.stream),
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        with _mapped():
            await self._pool.aclose()
