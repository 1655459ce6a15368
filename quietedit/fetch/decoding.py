"""Content-Encoding decoders whose output comes in bounded pieces, so a bomb can be stopped (pure).

httpx's own decoders hand back whatever one network read expands to: a 64 KiB gzip read can
become 64 MiB, and brotli does far worse. These decoders yield pieces of at most ``PIECE``
bytes (brotli's up to twice that), so the caller's size cap stops a gzip or brotli bomb
within a piece of the cap. Pure: bytes in, bytes out.
"""

from __future__ import annotations

import importlib
import zlib
from collections.abc import Iterator
from types import ModuleType
from typing import Final, Protocol

PIECE: Final = 64 * 1024
"""Largest piece of decoded output produced at once."""


def _load_brotli() -> ModuleType | None:
    try:
        module = importlib.import_module("brotli")
    except ImportError:
        return None
    # Bounded output (output_buffer_limit) arrived in brotli 1.2; older ones cannot be capped.
    return module if hasattr(module.Decompressor(), "can_accept_more_data") else None


_BROTLI: Final = _load_brotli()

SUPPORTED: Final = ("gzip", "deflate", "br") if _BROTLI is not None else ("gzip", "deflate")
ACCEPT_ENCODING: Final = ", ".join(SUPPORTED)
"""The Accept-Encoding every request sends: exactly what these decoders can undo."""


class DecodeError(Exception):
    """A body could not be decoded; the fetcher turns this into ``ContentDecodingError``."""


class _Decoder(Protocol):
    def feed(self, data: bytes) -> Iterator[bytes]: ...

    def finish(self) -> Iterator[bytes]: ...


class _Identity:
    def feed(self, data: bytes) -> Iterator[bytes]:
        for start in range(0, len(data), PIECE):
            yield data[start : start + PIECE]

    def finish(self) -> Iterator[bytes]:
        return iter(())


class _Zlib:
    """gzip (every member of a multi-member file) or deflate (zlib-wrapped, or raw as some
    servers send it)."""

    def __init__(self, encoding: str) -> None:
        self._encoding = encoding
        self._wbits = zlib.MAX_WBITS | 16 if encoding == "gzip" else zlib.MAX_WBITS
        self._decompressor = zlib.decompressobj(self._wbits)
        self._started = False
        self._ended = False

    def feed(self, data: bytes) -> Iterator[bytes]:
        pending = data
        while pending and not self._ended:
            try:
                output = self._decompressor.decompress(pending, PIECE)
            except zlib.error as exc:
                if self._encoding == "deflate" and not self._started:
                    self._started = True  # try once more as raw deflate, without the header
                    self._wbits = -zlib.MAX_WBITS
                    self._decompressor = zlib.decompressobj(self._wbits)
                    continue
                raise DecodeError(f"corrupt {self._encoding} data ({exc})") from exc
            self._started = True
            if output:
                yield output
            if self._decompressor.eof:
                pending = self._decompressor.unused_data
                # Another gzip member may follow; any other trailing bytes are ignored.
                if self._encoding == "gzip" and pending.startswith(b"\x1f\x8b"):
                    self._decompressor = zlib.decompressobj(self._wbits)
                else:
                    self._ended = True
                continue
            pending = self._decompressor.unconsumed_tail
            if not pending and len(output) == PIECE:
                yield from self.finish()  # output was cut at PIECE: drain what zlib holds

    def finish(self) -> Iterator[bytes]:
        while not self._ended:
            output = self._decompressor.decompress(b"", PIECE)
            if output:
                yield output
            if len(output) < PIECE:
                return


class _Brotli:
    def __init__(self) -> None:
        assert _BROTLI is not None  # noqa: S101 - only built when brotli was advertised
        self._decompressor = _BROTLI.Decompressor()
        self._error: type[Exception] = _BROTLI.error

    def feed(self, data: bytes) -> Iterator[bytes]:
        if self._decompressor.is_finished():
            return
        try:
            output = self._decompressor.process(data, output_buffer_limit=PIECE)
            # The limit stops the buffer growing, so a piece can overshoot it (below 2 x
            # PIECE); what did not fit comes out of further calls with no new input.
            while output:
                yield output
                output = self._decompressor.process(b"", output_buffer_limit=PIECE)
        except self._error as exc:
            raise DecodeError(f"corrupt br data ({exc})") from exc

    def finish(self) -> Iterator[bytes]:
        return iter(())


class BodyDecoder:
    """Undo a response's Content-Encoding chain, piece by bounded piece.

    ``content_encoding`` is the header's value (``"gzip"``, ``"br"``, ``"gzip, br"``...).
    Tokens it does not know (``identity``, misconfigured values such as ``utf-8``) pass the
    bytes through unchanged, as browsers do.
    """

    def __init__(self, content_encoding: str | None) -> None:
        codings = [c.strip().lower() for c in (content_encoding or "").split(",") if c.strip()]
        # Applied in the order the server applied them, so undone in reverse.
        chain = [_decoder(coding) for coding in reversed(codings)]
        self._chain: list[_Decoder] = chain or [_Identity()]

    def feed(self, data: bytes) -> Iterator[bytes]:
        """Decoded output for ``data``, in pieces of at most ``PIECE`` bytes."""
        return self._onward(0, self._chain[0].feed(data))

    def finish(self) -> Iterator[bytes]:
        """Whatever the decoders still hold once the body has ended, in bounded pieces."""
        for index, decoder in enumerate(self._chain):
            yield from self._onward(index, decoder.finish())

    def _onward(self, index: int, pieces: Iterator[bytes]) -> Iterator[bytes]:
        """Pass the output of decoder ``index`` through the decoders after it."""
        if index + 1 == len(self._chain):
            yield from pieces
            return
        following = self._chain[index + 1]
        for piece in pieces:
            yield from self._onward(index + 1, following.feed(piece))


def _decoder(coding: str) -> _Decoder:
    if coding in ("gzip", "x-gzip"):
        return _Zlib("gzip")
    if coding == "deflate":
        return _Zlib("deflate")
    if coding == "br" and _BROTLI is not None:
        return _Brotli()
    return _Identity()
