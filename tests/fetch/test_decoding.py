"""Bounded Content-Encoding decoders (pure)."""

from __future__ import annotations

import gzip
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quietedit.fetch.decoding import ACCEPT_ENCODING, PIECE, BodyDecoder, DecodeError

TEXT = (
    "<p>Der Stadtrat hat am Montag ein Budget von 4,2 Millionen Euro beschlossen.</p>\n" * 400
).encode()


def decode(encoding: str | None, data: bytes, chunk: int = 4096) -> list[bytes]:
    decoder = BodyDecoder(encoding)
    pieces: list[bytes] = []
    for start in range(0, len(data), chunk):
        pieces.extend(decoder.feed(data[start : start + chunk]))
    pieces.extend(decoder.finish())
    return pieces


ENCODERS = {
    "gzip": gzip.compress,
    "x-gzip": gzip.compress,
    "deflate": zlib.compress,
    "raw deflate": lambda data: zlib.compress(data)[2:-4],
}


@pytest.mark.parametrize("name", ENCODERS)
def test_every_supported_encoding_round_trips(name: str) -> None:
    encoding = "deflate" if name == "raw deflate" else name
    assert b"".join(decode(encoding, ENCODERS[name](TEXT))) == TEXT


def test_brotli_round_trips_when_available() -> None:
    brotli = pytest.importorskip("brotli")
    assert "br" in ACCEPT_ENCODING
    assert b"".join(decode("br", brotli.compress(TEXT))) == TEXT


def test_stacked_encodings_are_undone_in_reverse() -> None:
    assert b"".join(decode("deflate, gzip", gzip.compress(zlib.compress(TEXT)))) == TEXT


def test_every_gzip_member_is_decoded_and_trailing_junk_ignored() -> None:
    data = gzip.compress(TEXT[:100]) + gzip.compress(TEXT[100:]) + b"\0\0\0\0"
    assert b"".join(decode("gzip", data)) == TEXT


@pytest.mark.parametrize("encoding", [None, "", "identity", "utf-8", "compress"])
def test_unknown_or_no_encoding_passes_bytes_through(encoding: str | None) -> None:
    assert b"".join(decode(encoding, TEXT)) == TEXT


@pytest.mark.parametrize("bomb_size", [16 * 1024 * 1024])
def test_a_bomb_comes_out_in_bounded_pieces(bomb_size: int) -> None:
    bomb = gzip.compress(b"\0" * bomb_size)
    decoder = BodyDecoder("gzip")
    pieces = decoder.feed(bomb)  # the whole bomb in one read
    first = [next(pieces) for _ in range(3)]
    assert all(len(p) <= PIECE for p in first)  # nothing expanded all at once


def test_a_brotli_bomb_comes_out_in_bounded_pieces() -> None:
    brotli = pytest.importorskip("brotli")
    pieces = BodyDecoder("br").feed(brotli.compress(b"\0" * (16 * 1024 * 1024), quality=1))
    assert all(len(next(pieces)) < 2 * PIECE for _ in range(3))


@pytest.mark.parametrize(
    ("encoding", "data"),
    [("gzip", b"\x1f\x8b\x08\x00garbage-not-deflate"), ("deflate", b"\xff\xfe\xfd not deflate")],
)
def test_corrupt_data_raises_decode_error(encoding: str, data: bytes) -> None:
    with pytest.raises(DecodeError, match=f"corrupt {encoding}"):
        decode(encoding, data)


@settings(max_examples=50)
@given(st.binary(max_size=5000), st.integers(min_value=1, max_value=700))
def test_any_chunking_gives_the_same_bytes(data: bytes, chunk: int) -> None:
    assert b"".join(decode("gzip", gzip.compress(data), chunk=chunk)) == data
