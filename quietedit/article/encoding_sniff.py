"""What the bytes say about their own encoding: a BOM, UTF-8 validity, BOM-less UTF-16 (pure).

``utf8_shape`` classifies a body; :class:`BodyShape` holds that classification for one
body, worked out no further than the questions asked of it need; ``contradiction`` uses
it to refute a declaration the bytes cannot be in, and ``sniff`` to choose an encoding
when no declaration stands.
"""

from __future__ import annotations

import re
from typing import Final

from quietedit.article.encoding_labels import UTF8, UTF16, WINDOWS_1252

SNIFF_BYTES: Final = 1024  # enough markup to tell UTF-16 from anything else

_ASCII_SCAN_CHUNK: Final = 4096  # bytes first_non_ascii tests at a time
_BOMS: Final = ((b"\xef\xbb\xbf", UTF8), (b"\xfe\xff", "utf-16be"), (b"\xff\xfe", "utf-16le"))
# Raw strings: the regular expression reads the escapes, so the source holds no lone
# surrogate (which the compiler of the hot modules cannot put in a string constant).
_SURROGATE_ESCAPE: Final = re.compile(r"[\udc80-\udcff]")
# Any character but ASCII and the escapes above, as a negated class: the same set as
# [\u0080-\udc7f\udd00-\U0010ffff], compiled in a hundredth of the time.
_NON_ASCII_CHAR: Final = re.compile(r"[^\x00-\x7f\udc80-\udcff]")


class BodyShape:
    """The :func:`utf8_shape` of one body, worked out only as far as the questions need.

    Most pages are declared UTF-8 and are, and the one question then asked — could the
    bytes be anything but UTF-8? — is answered by the first non-ASCII bytes alone: a
    valid multi-byte sequence there means the body is not ``not-utf-8``, whatever
    follows. Only the other answers need the whole body decoded.
    """

    def __init__(self, body: bytes) -> None:
        self.body = body
        self._shape: str | None = None

    @property
    def shape(self) -> str:
        """``utf8_shape(body)``."""
        if self._shape is None:
            self._shape = utf8_shape(self.body)
        return self._shape

    def is_not_utf8(self) -> bool:
        """Whether ``shape`` is ``not-utf-8``: invalid, without one valid multi-byte sequence."""
        if self._shape is None and opens_with_multibyte(self.body):
            return False
        return self.shape == "not-utf-8"


def opens_with_multibyte(body: bytes) -> bool:
    """Whether the first non-ASCII byte of ``body`` begins a valid, complete UTF-8 sequence.

    If it does, ``utf8_shape(body)`` is ``utf-8`` or ``mixed``: the bytes before it are
    ASCII, so a decoder reading the body meets that sequence at a character boundary and
    decodes it as one character, and being complete it is not a sequence cut short at the
    end. False says nothing either way.
    """
    start = first_non_ascii(body)
    if start < 0:
        return False
    lead = body[start]
    length = 2 if lead <= 0xDF else 3 if lead <= 0xEF else 4
    if start + length > len(body):
        return False
    try:
        body[start : start + length].decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def first_non_ascii(body: bytes) -> int:
    """The index of the first byte of ``body`` above 0x7F, or -1 if there is none."""
    # Chunk by chunk, each tested at C speed: decoding the whole body as ASCII would find
    # the byte as fast, but its error would carry a copy of all the bytes.
    for start in range(0, len(body), _ASCII_SCAN_CHUNK):
        chunk = body[start : start + _ASCII_SCAN_CHUNK]
        if not chunk.isascii():
            try:
                chunk.decode("ascii")
            except UnicodeDecodeError as error:
                return start + error.start
    return -1


def contradiction(body: bytes, declared: str, shape: BodyShape) -> str | None:
    """Why the bytes refute ``declared``, or None when they do not."""
    if declared == UTF8:
        return "not-utf-8" if shape.is_not_utf8() else None
    if declared in UTF16:
        return None if 0 in body[:SNIFF_BYTES] else "no-nul-bytes"
    return "bytes-are-utf-8" if shape.shape == "utf-8" else None


def utf8_shape(body: bytes) -> str:
    """``ascii``, ``utf-8`` (valid, with multi-byte sequences), ``mixed`` or ``not-utf-8``.

    A sequence cut short at the very end counts as valid: the fetcher's size cap cuts
    bodies anywhere.
    """
    if body.isascii():
        return "ascii"
    cut = _cut_sequence_length(body)
    trimmed = body[:-cut] if cut else body
    try:  # the common case, valid UTF-8, checked without scanning the text (C speed)
        trimmed.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return "ascii" if trimmed.isascii() else "utf-8"
    text = body.decode("utf-8", errors="surrogateescape")
    if cut:
        text = text[:-cut]
    invalid = _SURROGATE_ESCAPE.search(text) is not None
    multibyte = _NON_ASCII_CHAR.search(text) is not None
    if not invalid:
        return "utf-8" if multibyte else "ascii"
    return "mixed" if multibyte else "not-utf-8"


def _cut_sequence_length(body: bytes) -> int:
    """How many bytes at the end of ``body`` start a UTF-8 sequence that was cut short."""
    for length in range(1, min(3, len(body)) + 1):
        byte = body[-length]
        if byte < 0x80:
            return 0
        if byte >= 0xC0:
            needed = 2 if byte <= 0xDF else 3 if byte <= 0xEF else 4
            return length if byte >= 0xC2 and byte <= 0xF4 and length < needed else 0
    return 0


def sniff(body: bytes, shape: BodyShape) -> tuple[str, str]:
    """The encoding and source (``sniff`` or ``default``) for a body no declaration decided;
    ``shape`` is its :class:`BodyShape`."""
    utf16 = sniff_utf16(body)
    if utf16 is not None:
        return utf16, "sniff"
    if shape.is_not_utf8():
        return WINDOWS_1252, "sniff"
    return UTF8, "default"


def sniff_utf16(body: bytes) -> str | None:
    """UTF-16LE or BE when the first bytes look like ASCII markup with NUL high bytes."""
    sample = body[:SNIFF_BYTES]
    pairs = len(sample) // 2
    if pairs < 2:
        return None
    even, odd = sample[0 : 2 * pairs : 2].count(0), sample[1 : 2 * pairs : 2].count(0)
    if odd * 4 >= pairs and even * 10 <= odd:
        return "utf-16le"
    if even * 4 >= pairs and odd * 10 <= even:
        return "utf-16be"
    return None


def bom_encoding(body: bytes) -> str | None:
    """The encoding the byte order mark opening ``body`` names, or None without one."""
    for bom, encoding in _BOMS:
        if body.startswith(bom):
            return encoding
    return None


def bom_length(body: bytes) -> int:
    """How many bytes of BOM open ``body`` (0 without one)."""
    return next((len(bom) for bom, _ in _BOMS if body.startswith(bom)), 0)
