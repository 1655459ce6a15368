"""An httpcore network backend on plain asyncio streams, under the SSRF guard.

httpcore's default backend goes through anyio, whose cancel scopes around every read and
write were a quarter of the client's CPU time per request in bench/fetch.py. quietedit
runs on asyncio only, so the guard's connections use asyncio's own streams: same
interface (``httpcore.AsyncNetworkBackend``), same exceptions (httpcore's), a fraction of
the cost. TLS is ``StreamWriter.start_tls`` with the host name httpcore passes, so SNI and
certificate checks use the name, not the address connected to.
"""

from __future__ import annotations

import asyncio
import select
import socket
import ssl
from collections.abc import Iterable
from typing import Any

import httpcore


class AsyncioStream(httpcore.AsyncNetworkStream):
    """One TCP (or TLS) connection as httpcore expects it."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        try:
            async with asyncio.timeout(timeout):
                return await self._reader.read(max_bytes)
        except TimeoutError as exc:
            raise httpcore.ReadTimeout(f"no data within {timeout} s") from exc
        except OSError as exc:
            raise httpcore.ReadError(str(exc) or type(exc).__name__) from exc

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        if not buffer:
            return
        try:
            async with asyncio.timeout(timeout):
                self._writer.write(buffer)
                await self._writer.drain()
        except TimeoutError as exc:
            raise httpcore.WriteTimeout(f"could not send within {timeout} s") from exc
        except OSError as exc:
            raise httpcore.WriteError(str(exc) or type(exc).__name__) from exc

    async def aclose(self) -> None:
        # Abort rather than close: waiting for a TLS close_notify from a hostile server
        # could hang, and nothing more is sent on a connection being dropped.
        self._writer.transport.abort()

    async def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.AsyncNetworkStream:
        try:
            async with asyncio.timeout(timeout):
                await self._writer.start_tls(ssl_context, server_hostname=server_hostname)
        except TimeoutError as exc:
            await self.aclose()
            raise httpcore.ConnectTimeout(f"no TLS handshake within {timeout} s") from exc
        except (OSError, ssl.SSLError, ConnectionError) as exc:
            await self.aclose()
            raise httpcore.ConnectError(str(exc) or type(exc).__name__) from exc
        return self

    def get_extra_info(self, info: str) -> Any:
        if info == "ssl_object":
            return self._writer.get_extra_info("ssl_object")
        if info == "client_addr":
            return self._writer.get_extra_info("sockname")
        if info == "server_addr":
            return self._writer.get_extra_info("peername")
        if info == "socket":
            return self._writer.get_extra_info("socket")
        if info == "is_readable":
            # httpcore asks before reusing a kept-alive connection: readable means the
            # server closed it or sent something unasked, so it must not be reused.
            return self._writer.is_closing() or _is_readable(self._writer.get_extra_info("socket"))
        return None


def _is_readable(sock: Any) -> bool:
    if sock is None or sock.fileno() < 0:
        return True
    poller = select.poll()
    poller.register(sock.fileno(), select.POLLIN)
    return bool(poller.poll(0))


class AsyncioBackend(httpcore.AsyncNetworkBackend):
    """Opens TCP connections with ``asyncio.open_connection`` (to an address, not a name)."""

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        try:
            async with asyncio.timeout(timeout):
                reader, writer = await asyncio.open_connection(
                    host,
                    port,
                    local_addr=(local_address, 0) if local_address else None,
                    family=socket.AF_INET6 if ":" in host else socket.AF_INET,
                )
        except TimeoutError as exc:
            raise httpcore.ConnectTimeout(f"no connection within {timeout} s") from exc
        except OSError as exc:
            raise httpcore.ConnectError(str(exc) or type(exc).__name__) from exc
        sock = writer.get_extra_info("socket")
        for option in socket_options or ():
            sock.setsockopt(*option)
        return AsyncioStream(reader, writer)

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise httpcore.ConnectError("Unix sockets are not used")

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
