"""Reading a gzip-per-record WARC file, trusting only records that are whole.

warcio reads records leniently: a cut or damaged gzip member comes out as a short record
and a note on stderr. Evidence needs the opposite, so the file is read once through a
stream that also follows the gzip members with :mod:`zlib` (whose CRC check catches a
changed byte) and ends the stream where the first damaged member starts. A record counts
only when warcio read it whole (its block as long as ``Content-Length`` says) and it is
exactly one complete gzip member; reading stops at the first record that is not.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Final

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed
from warcio.statusandheaders import StatusAndHeadersParserException

_BLOCK: Final = 1 << 16
"""Bytes read at a time, and the most decompressed output held at once."""
_GZIP_MAGIC: Final = b"\x1f\x8b\x08"  # ID1, ID2 and CM = deflate: how every member starts


@dataclass(frozen=True, slots=True)
class WarcRecord:
    """One whole record: where it ends, its type and id, its payload's ``sha256:<hex>``,
    and any digest in its headers that its bytes do not match."""

    end: int
    kind: str
    record: str
    sha256: str
    digest_problems: tuple[str, ...] = ()


@dataclass(slots=True)
class WarcScan:
    """What reading a file found: its whole records in order, how many bytes they span
    (from 0), and why reading stopped early (``None`` when the file ended cleanly)."""

    records: list[WarcRecord] = field(default_factory=list)
    complete: int = 0
    damage: str | None = None


def scan_warc(path: Path) -> WarcScan:
    """Read ``path`` once, streaming; raises ``OSError`` only when it cannot be opened."""
    scan = WarcScan()
    with path.open("rb") as raw:
        stream = _MemberStream(raw)
        try:
            for record in _records(stream):
                if record.end not in stream.member_ends:
                    scan.damage = (
                        f"the record ending at byte {record.end} is not one whole gzip member"
                    )
                    break
                scan.records.append(record)
                scan.complete = record.end
        except (ArchiveLoadFailed, StatusAndHeadersParserException, ValueError, EOFError) as exc:
            scan.damage = f"unreadable record after byte {scan.complete}: {exc}"
        if scan.damage is None and stream.damage is not None:
            scan.damage = stream.damage
        elif scan.damage is None and stream.position > scan.complete:
            scan.damage = f"incomplete record after byte {scan.complete}"
    return scan


def whole_member_after(path: Path, start: int) -> int | None:
    """Where the first whole gzip member holding a WARC record begins after byte ``start``.

    An interrupted append leaves one cut-off member at the end of the file, never a whole
    one after it: a whole member beyond damage means damage of another kind, and cutting
    the file there would lose records that revisions may name.
    """
    with path.open("rb") as stream:
        stream.seek(start + 1)
        position = start + 1
        carry = b""
        while block := stream.read(_BLOCK):
            data = carry + block
            base = position - len(carry)
            found = data.find(_GZIP_MAGIC)
            while found != -1:
                if _whole_member_at(path, base + found):
                    return base + found
                found = data.find(_GZIP_MAGIC, found + 1)
            carry = data[-(len(_GZIP_MAGIC) - 1) :]
            position += len(block)
    return None


def _whole_member_at(path: Path, offset: int) -> bool:
    inflate = zlib.decompressobj(zlib.MAX_WBITS | 16)
    head = b""
    with path.open("rb") as stream:
        stream.seek(offset)
        while block := stream.read(_BLOCK):
            pending = block
            while pending and not inflate.eof:
                try:
                    out = inflate.decompress(pending, _BLOCK)
                except zlib.error:
                    return False
                head = (head + out)[:8]
                pending = inflate.unconsumed_tail
            if inflate.eof:
                return head.startswith(b"WARC/")
    return False


def _records(stream: _MemberStream) -> Iterator[WarcRecord]:
    iterator = ArchiveIterator(stream, check_digests=True)
    for warc in iterator:
        headers = warc.rec_headers
        hasher = hashlib.sha256()
        body = warc.raw_stream
        while chunk := body.read(_BLOCK):
            hasher.update(chunk)
        if getattr(body, "limit", 0) != 0:
            return  # the block is shorter than its Content-Length: cut off
        end = iterator.get_record_offset() + iterator.get_record_length()
        checker = warc.digest_checker
        yield WarcRecord(
            end=end,
            kind=str(headers.get_header("WARC-Type") or ""),
            record=str(headers.get_header("WARC-Record-ID") or "").strip("<>"),
            sha256="sha256:" + hasher.hexdigest(),
            digest_problems=tuple(str(p) for p in checker.problems) if checker else (),
        )


class _MemberStream:
    """``raw`` as warcio reads it, checked gzip member by gzip member on the way.

    ``member_ends`` holds the offset after each complete member; at the first damaged
    byte (or a non-gzip tail) the stream ends at the start of that member, so warcio
    never decompresses damaged data.
    """

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw
        self.member_ends: set[int] = {0}
        self.damage: str | None = None
        self.position = 0  # bytes of the file followed so far
        self._delivered = 0
        self._last_end = 0
        self._inflate = zlib.decompressobj(zlib.MAX_WBITS | 16)

    def tell(self) -> int:
        return self._delivered

    def read(self, size: int = -1) -> bytes:
        if self.damage is not None:
            return b""
        data = self.raw.read(size if size > 0 else _BLOCK)
        if not self._follow(data):
            data = data[: max(0, self._last_end - self._delivered)]
        self._delivered += len(data)
        return data

    def _follow(self, data: bytes) -> bool:
        """Follow ``data`` through the gzip members; ``False`` at damage."""
        pending = data
        while pending:
            start = self.position
            try:
                self._inflate.decompress(pending, _BLOCK)
            except zlib.error as exc:
                self.damage = f"damaged gzip data in the member from byte {self._last_end}: {exc}"
                return False
            if self._inflate.eof:
                rest = self._inflate.unused_data
                self.position = start + len(pending) - len(rest)
                self._last_end = self.position
                self.member_ends.add(self.position)
                self._inflate = zlib.decompressobj(zlib.MAX_WBITS | 16)
                pending = rest
            else:
                tail = self._inflate.unconsumed_tail
                self.position = start + len(pending) - len(tail)
                pending = tail
        return True
