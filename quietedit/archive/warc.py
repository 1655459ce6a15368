"""WARC/1.1 with warcio: records written as one gzip member each, read back whole or not at all.

:func:`gzip_record` builds a record's bytes: the WARC headers in the order given, the
SHA-256 digests, then warcio's serialisation, compressed as one gzip member (zlib
writes no time into it), so equal input gives equal bytes. :func:`http_headers` is the
HTTP part of a response record.

Reading: warcio reads records leniently: a cut or damaged gzip member comes out as a short record
and a note on stderr. Evidence needs the opposite, so the file is read once through a
stream that also follows the gzip members with :mod:`zlib` (whose CRC check catches a
changed byte) and ends the stream where the first damaged member starts. A record counts
only when warcio read it whole (its block as long as ``Content-Length`` says) and it is
exactly one complete gzip member; reading stops at the first record that is not.
"""

from __future__ import annotations

import base64
import hashlib
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http import HTTPStatus
from io import BytesIO
from pathlib import Path
from typing import BinaryIO, Final

from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

_BLOCK: Final = 1 << 16
"""Bytes read at a time, and the most decompressed output held at once."""
_WARC_VERSION: Final = "1.1"
# Headers that describe the bytes on the wire, not the decoded body the record holds; kept
# under pywb's prefix so a replay does not decode the body a second time.
_WIRE_HEADERS: Final = frozenset({"content-encoding", "transfer-encoding", "content-length"})
_RENAMED_PREFIX: Final = "X-Archive-Orig-"
_CONTENT_TYPES: Final = {
    "warcinfo": "application/warc-fields",
    "response": "application/http; msgtype=response",
    "conversion": "text/html",
}
_GZIP_MAGIC: Final = b"\x1f\x8b\x08"  # ID1, ID2 and CM = deflate: how every member starts


def warc_date(moment: datetime) -> str:
    """``WARC-Date`` of ``moment``: UTC, seconds, and microseconds when there are any."""
    if moment.tzinfo is None:
        raise ValueError("the time of a WARC record must be timezone-aware (UTC)")
    utc = moment.astimezone(UTC)
    fraction = f".{utc.microsecond:06d}" if utc.microsecond else ""
    return f"{utc:%Y-%m-%dT%H:%M:%S}{fraction}Z"


def http_headers(
    status: int, headers: Sequence[tuple[str, str]], *, length: int
) -> StatusAndHeaders:
    """The status line and headers of a response record whose payload is ``length`` bytes.

    The headers are kept as received, in order, except the ones about the transfer
    (``Content-Encoding``, ``Transfer-Encoding``, ``Content-Length``): the body is stored
    decoded, so they are renamed ``X-Archive-Orig-<name>`` and a true ``Content-Length``
    is added. The reason phrase is the standard one of ``status`` (none for a status
    without one). A CR or LF inside a name or value (no valid response has one) becomes a
    space, so nothing can start a header line of its own.
    """
    try:
        reason = HTTPStatus(status).phrase
    except ValueError:
        reason = ""
    kept: list[tuple[str, str]] = []
    for name, value in headers:
        renamed = _RENAMED_PREFIX + name if name.lower() in _WIRE_HEADERS else name
        kept.append((one_line(renamed), one_line(value)))
    kept.append(("Content-Length", str(length)))
    return StatusAndHeaders(f"{status} {reason}", kept, protocol="HTTP/1.1")


def one_line(text: str) -> str:
    """``text`` with CR and LF as spaces: safe as a header value."""
    return text.replace("\r", " ").replace("\n", " ")


def gzip_record(
    kind: str,
    fields: Sequence[tuple[str, str]],
    *,
    body: bytes,
    http: StatusAndHeaders | None = None,
    content_type: str | None = None,
) -> bytes:
    """One WARC/1.1 record of type ``kind`` as its own gzip member.

    ``fields`` are the WARC headers after ``WARC-Type``, in order (values made
    :func:`one_line`); the payload and block digests (SHA-256, base 32, as warcio writes
    them), ``Content-Type`` (``content_type``, or the type's own) and ``Content-Length``
    are added. ``http`` is the HTTP status and headers of a response; ``body`` the payload.
    """
    headers = [("WARC-Type", kind), *((name, one_line(value)) for name, value in fields)]
    block = hashlib.sha256()
    if http is not None:
        http.compute_headers_buffer()
        block.update(http.headers_buff)
    block.update(body)
    if kind != "warcinfo":
        headers.append(("WARC-Payload-Digest", _warc_digest(hashlib.sha256(body).digest())))
    headers.append(("WARC-Block-Digest", _warc_digest(block.digest())))
    buffer = BytesIO()
    writer = WARCWriter(buffer, gzip=True, warc_version=_WARC_VERSION)
    record = writer.create_warc_record(
        "",
        kind,
        payload=BytesIO(body),
        length=len(body),
        warc_content_type=one_line(content_type or _CONTENT_TYPES[kind]),
        warc_headers=StatusAndHeaders("", headers, protocol=f"WARC/{_WARC_VERSION}"),
        http_headers=http,
    )
    writer.write_record(record)
    return buffer.getvalue()


def _warc_digest(raw: bytes) -> str:
    return "sha256:" + base64.b32encode(raw).decode("ascii")


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
        except Exception as exc:  # noqa: BLE001 - warcio raises whatever a malformed record trips
            scan.damage = f"unreadable record after byte {scan.complete}: {exc!r}"
        if scan.damage is None and stream.damage is not None:
            scan.damage = stream.damage
        elif scan.damage is None and stream.position > scan.complete:
            scan.damage = f"incomplete record after byte {scan.complete}"
    return scan


@dataclass(frozen=True, slots=True)
class WarcPayload:
    """One record's payload as read back: its type, target URI, content type (the HTTP
    response's for a ``response``, the record's own otherwise), bytes and their
    ``sha256:<hex>``; ``truncated`` when it held more than the reader's cap."""

    kind: str
    url: str
    content_type: str | None
    body: bytes
    sha256: str
    truncated: bool = False


def read_payload(path: Path, record: str, *, max_bytes: int) -> WarcPayload | None:
    """The payload of the record whose ``WARC-Record-ID`` is ``record`` in ``path``, read
    through the same guarded stream as :func:`scan_warc` (a record in or after damage is
    not found), at most ``max_bytes`` of it kept; ``None`` when the file holds no whole
    record of that id. Raises ``OSError`` only when the file cannot be opened."""
    wanted = f"<{record}>"
    with path.open("rb") as raw:
        stream = _MemberStream(raw)
        try:
            for warc in ArchiveIterator(stream):
                headers = warc.rec_headers
                if str(headers.get_header("WARC-Record-ID") or "") != wanted:
                    continue
                hasher = hashlib.sha256()
                kept = bytearray()
                body = warc.raw_stream
                while chunk := body.read(_BLOCK):
                    hasher.update(chunk)
                    if len(kept) <= max_bytes:
                        kept += chunk[: max_bytes + 1 - len(kept)]
                if getattr(body, "limit", None) != 0:
                    return None  # cut off: fewer bytes than its Content-Length
                http = warc.http_headers
                declared = http.get_header("Content-Type") if http is not None else None
                return WarcPayload(
                    kind=str(headers.get_header("WARC-Type") or ""),
                    url=str(headers.get_header("WARC-Target-URI") or ""),
                    content_type=declared or headers.get_header("Content-Type"),
                    body=bytes(kept[:max_bytes]),
                    sha256="sha256:" + hasher.hexdigest(),
                    truncated=len(kept) > max_bytes,
                )
        except Exception:  # noqa: BLE001 - warcio raises whatever a malformed record trips
            return None
    return None


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
        if getattr(body, "limit", None) != 0:
            return  # no Content-Length (cut off in the headers), or fewer bytes than it says
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
    """``raw`` as warcio reads it: only the bytes of whole, undamaged gzip members.

    The file is followed member by member with :mod:`zlib` (which checks each member's
    CRC); a member's bytes are handed on only once it has ended cleanly, so warcio never
    sees a cut-off or damaged member (it would read it leniently, or crash). The stream
    ends before the first member that does not end cleanly. Holds at most one member and
    one block in memory. ``member_ends`` holds the offset after each whole member.
    """

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw
        self.member_ends: set[int] = {0}
        self.damage: str | None = None
        self.position = 0  # bytes of the file read so far
        self._ready = bytearray()  # whole members not yet handed on
        self._member = bytearray()  # the member being followed, so far
        self._delivered = 0
        self._last_end = 0
        self._done = False
        self._inflate = zlib.decompressobj(zlib.MAX_WBITS | 16)

    def tell(self) -> int:
        return self._delivered

    def read(self, size: int = -1) -> bytes:
        while not self._ready and not self._done:
            data = self.raw.read(_BLOCK)
            self.position += len(data)
            self._done = not data or not self._follow(data)
        wanted = size if size > 0 else len(self._ready)
        out = bytes(self._ready[:wanted])
        del self._ready[:wanted]
        self._delivered += len(out)
        return out

    def _follow(self, data: bytes) -> bool:
        """Follow ``data`` through the gzip members; ``False`` at damage."""
        pending = data
        while pending:
            try:
                self._inflate.decompress(pending, _BLOCK)
            except zlib.error as exc:
                self.damage = f"damaged gzip data in the member from byte {self._last_end}: {exc}"
                return False
            if self._inflate.eof:
                rest = self._inflate.unused_data
                self._member += pending[: len(pending) - len(rest)]
                self._ready += self._member
                self._last_end += len(self._member)
                self.member_ends.add(self._last_end)
                self._member = bytearray()
                self._inflate = zlib.decompressobj(zlib.MAX_WBITS | 16)
                pending = rest
            else:
                tail = self._inflate.unconsumed_tail
                self._member += pending[: len(pending) - len(tail)]
                pending = tail
        return True
