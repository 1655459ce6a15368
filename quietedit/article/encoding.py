"""Which character encoding a fetched page is in, and which declarations lost (pure).

The order is the HTML Standard's "determining the character encoding" without a browser's
user override and parent-frame inheritance:

1. a byte order mark (``bom``);
2. the ``charset`` parameter of the HTTP ``Content-Type`` (``http``);
3. the document's own declaration: for HTML the ``<meta charset>`` / ``http-equiv``
   prescan of the first 1024 bytes (``meta``), then an XML declaration at the very start
   (``xml``); for XML media types (``application/xhtml+xml``, ``*/xml``, ``*+xml``) only
   the XML declaration;
4. sniffing the bytes (``sniff``): a BOM-less UTF-16 body by its NUL-byte pattern, and a
   body that is not UTF-8 as windows-1252;
5. UTF-8 (``default``).

Labels mean what the WHATWG Encoding Standard says they mean (``latin1``, ``iso-8859-1``
and ``ascii`` are windows-1252; ``utf-16`` in a ``<meta>`` is UTF-8). Unknown labels are
ignored and recorded.

Beyond browsers, a declaration the bytes contradict loses (reason in the record): UTF-8
declared for a body with invalid UTF-8 and not one valid multi-byte sequence (a
windows-1252 page behind a server default of ``charset=utf-8``); a legacy encoding
declared for a body that is valid UTF-8 with multi-byte sequences (a UTF-8 page behind a
server default of ``charset=iso-8859-1``); UTF-16 declared for a body without a NUL byte.
Mixed bodies keep their declaration and get replacement characters, deterministically.

The fallback for an undeclared non-UTF-8 body is windows-1252, not a statistical
detector: the content hash depends on the decoded text, so the decision must never change
with a detector's version, and the feeds are English and German, where browsers fall back
to windows-1252 too.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from typing import Final

from quietedit.model import JSON

PRESCAN_BYTES: Final = 1024
"""How far the ``<meta>`` prescan reads: the HTML Standard's advice, and what browsers do."""

SNIFF_BYTES: Final = 1024  # enough markup to tell UTF-16 from anything else
LABEL_MAX: Final = 100  # a hostile header cannot bloat the stored record

UTF8: Final = "utf-8"
WINDOWS_1252: Final = "windows-1252"

# The WHATWG Encoding Standard's label table (https://encoding.spec.whatwg.org/#names-and-labels,
# encodings.json as of 2026), keyed by the name stored in `EncodingDecision.encoding`: the
# standard's name in lower case, which Python accepts as a codec name, except three Python
# spells differently (iso-8859-8-i decodes as iso-8859-8, windows-874 is cp874,
# x-mac-cyrillic is mac-cyrillic). Not here, on purpose: the "replacement" labels
# (iso-2022-kr, hz-gb-2312, iso-2022-cn...), which the standard decodes to a single U+FFFD,
# so they are treated as unknown; x-user-defined is read as windows-1252 (the standard's own
# rule for <meta>; nobody writes text in it).
_LABELS_BY_ENCODING: Final = {
    "utf-8": "unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8",
    "ibm866": "866 cp866 csibm866 ibm866",
    "iso-8859-2": "csisolatin2 iso-8859-2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 "
    "iso_8859-2:1987 l2 latin2",
    "iso-8859-3": "csisolatin3 iso-8859-3 iso-ir-109 iso8859-3 iso88593 iso_8859-3 "
    "iso_8859-3:1988 l3 latin3",
    "iso-8859-4": "csisolatin4 iso-8859-4 iso-ir-110 iso8859-4 iso88594 iso_8859-4 "
    "iso_8859-4:1988 l4 latin4",
    "iso-8859-5": "csisolatincyrillic cyrillic iso-8859-5 iso-ir-144 iso8859-5 iso88595 "
    "iso_8859-5 iso_8859-5:1988",
    "iso-8859-6": "arabic asmo-708 csiso88596e csiso88596i csisolatinarabic ecma-114 "
    "iso-8859-6 iso-8859-6-e iso-8859-6-i iso-ir-127 iso8859-6 iso88596 iso_8859-6 "
    "iso_8859-6:1987",
    "iso-8859-7": "csisolatingreek ecma-118 elot_928 greek greek8 iso-8859-7 iso-ir-126 "
    "iso8859-7 iso88597 iso_8859-7 iso_8859-7:1987 sun_eu_greek",
    "iso-8859-8": "csiso88598e csisolatinhebrew hebrew iso-8859-8 iso-8859-8-e iso-ir-138 "
    "iso8859-8 iso88598 iso_8859-8 iso_8859-8:1988 visual "
    "csiso88598i iso-8859-8-i logical",  # the last three are ISO-8859-8-I: same bytes
    "iso-8859-10": "csisolatin6 iso-8859-10 iso-ir-157 iso8859-10 iso885910 l6 latin6",
    "iso-8859-13": "iso-8859-13 iso8859-13 iso885913",
    "iso-8859-14": "iso-8859-14 iso8859-14 iso885914",
    "iso-8859-15": "csisolatin9 iso-8859-15 iso8859-15 iso885915 iso_8859-15 l9",
    "iso-8859-16": "iso-8859-16",
    "koi8-r": "cskoi8r koi koi8 koi8-r koi8_r",
    "koi8-u": "koi8-ru koi8-u",
    "macintosh": "csmacintosh mac macintosh x-mac-roman",
    "cp874": "dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 windows-874",
    "windows-1250": "cp1250 windows-1250 x-cp1250",
    "windows-1251": "cp1251 windows-1251 x-cp1251",
    "windows-1252": "ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 "
    "iso-ir-100 iso8859-1 iso88591 iso_8859-1 iso_8859-1:1987 l1 latin1 us-ascii "
    "windows-1252 x-cp1252 x-user-defined",
    "windows-1253": "cp1253 windows-1253 x-cp1253",
    "windows-1254": "cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 "
    "iso_8859-9:1989 l5 latin5 windows-1254 x-cp1254",
    "windows-1255": "cp1255 windows-1255 x-cp1255",
    "windows-1256": "cp1256 windows-1256 x-cp1256",
    "windows-1257": "cp1257 windows-1257 x-cp1257",
    "windows-1258": "cp1258 windows-1258 x-cp1258",
    "mac-cyrillic": "x-mac-cyrillic x-mac-ukrainian",
    "gbk": "chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk iso-ir-58 x-gbk",
    "gb18030": "gb18030",
    "big5": "big5 big5-hkscs cn-big5 csbig5 x-x-big5",
    "euc-jp": "cseucpkdfmtjapanese euc-jp x-euc-jp",
    "iso-2022-jp": "csiso2022jp iso-2022-jp",
    "shift_jis": "csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis",
    "euc-kr": "cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 "
    "ksc5601 ksc_5601 windows-949",
    "utf-16be": "unicodefffe utf-16be",
    "utf-16le": "csunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 utf-16le",
}
LABELS: Final[dict[str, str]] = {
    label: encoding for encoding, labels in _LABELS_BY_ENCODING.items() for label in labels.split()
}
"""WHATWG label (lower case) -> the encoding name this module reports."""

# The standard's decoders for these are supersets of the Python codec of the same name
# (Shift_JIS is Microsoft's cp932 with the NEC/IBM rows Japanese news uses, GBK decodes as
# gb18030, EUC-KR is Microsoft's cp949, Big5 includes HKSCS).
_CODECS: Final = {
    "shift_jis": "cp932",
    "gbk": "gb18030",
    "euc-kr": "cp949",
    "big5": "big5hkscs",
}
_UTF16: Final = frozenset({"utf-16le", "utf-16be"})
_BOMS: Final = ((b"\xef\xbb\xbf", UTF8), (b"\xfe\xff", "utf-16be"), (b"\xff\xfe", "utf-16le"))

# windows-1252 as the standard defines it: Latin-1 with 0x80-0x9F from cp1252, and the five
# bytes cp1252 leaves undefined mapped to the C1 controls of the same value (Python's cp1252
# would turn them into U+FFFD). A decoding table for the C charmap codec: fast.
_WINDOWS_1252_TABLE: Final = "".join(
    bytes([byte]).decode("cp1252", errors="ignore") or chr(byte) for byte in range(256)
)
_SURROGATE_ESCAPE: Final = re.compile("[\udc80-\udcff]")
_NON_ASCII_CHAR: Final = re.compile("[\u0080-\udc7f\udd00-\U0010ffff]")
_XML_MEDIA: Final = re.compile(r"(?:application|text)/xml|[^/;\s]+/[^;\s]+\+xml")


@dataclass(frozen=True, slots=True)
class Declaration:
    """One statement about the encoding that did not decide it, and why.

    ``source`` is where it was found (``bom``, ``http``, ``meta`` or ``xml``), ``label``
    what it said (cut to 100 characters), ``encoding`` what the label means (``None``
    for an unknown label), ``reason`` why it lost: ``outranked`` (a stronger source
    said something else), ``unknown-label``, ``not-utf-8`` (the bytes are not UTF-8),
    ``bytes-are-utf-8`` (they are) or ``no-nul-bytes`` (UTF-16 without one NUL byte).
    """

    source: str
    label: str
    encoding: str | None
    reason: str

    def to_record(self) -> dict[str, JSON]:
        return {
            "encoding": self.encoding,
            "label": self.label,
            "reason": self.reason,
            "source": self.source,
        }


@dataclass(frozen=True, slots=True)
class EncodingDecision:
    """How a body is decoded: ``encoding`` (a Python codec name), where it came from
    (``source``: bom, http, meta, xml, sniff or default) and every declaration that lost
    (``overruled``, strongest first)."""

    encoding: str
    source: str
    overruled: tuple[Declaration, ...] = ()

    @property
    def codec(self) -> str:
        """The Python codec :meth:`decode` uses: the WHATWG decoder's closest superset."""
        return _CODECS.get(self.encoding, self.encoding)

    def decode(self, body: bytes) -> str:
        """Decode ``body`` (the bytes this decision was made for) to text.

        Never raises: bytes invalid in the encoding become U+FFFD, the same way on every
        run. A BOM that decided the encoding is not part of the text.
        """
        if self.source == "bom":
            body = body[_bom_length(body) :]
        if self.encoding == WINDOWS_1252:
            return codecs.charmap_decode(body, "strict", _WINDOWS_1252_TABLE)[0]
        return body.decode(self.codec, errors="replace")

    def to_record(self) -> dict[str, JSON]:
        """The JSON object a revision stores as ``encoding``."""
        return {
            "encoding": self.encoding,
            "overruled": [declaration.to_record() for declaration in self.overruled],
            "source": self.source,
        }


def encoding_for_label(label: str) -> str | None:
    """The encoding a WHATWG label names (case and surrounding white space ignored), or None."""
    return LABELS.get(label.strip("\t\n\x0c\r ").lower())


def resolve_encoding(body: bytes, content_type: str | None) -> EncodingDecision:
    """Decide how to decode ``body`` served with ``content_type`` (the raw header or None).

    Pure and total: any bytes and any header give a decision (see the module docstring
    for the order); every declaration that did not decide is in ``.overruled``.
    """
    found: list[tuple[str, str, str | None]] = []  # (source, label, encoding), strongest first
    bom = _bom_encoding(body)
    if bom is not None:
        found.append(("bom", bom, bom))
    charset = charset_parameter(content_type)
    if charset is not None:
        found.append(("http", charset, encoding_for_label(charset)))
    if not is_xml_media_type(content_type):
        found.extend(("meta", label, encoding) for label, encoding in prescan(body))
    xml_label = xml_declaration_label(body)
    if xml_label is not None:
        found.append(("xml", xml_label, _document_encoding(encoding_for_label(xml_label))))
    return _decide(body, found)


def _decide(body: bytes, found: list[tuple[str, str, str | None]]) -> EncodingDecision:
    shape = _utf8_shape(body)
    losers = {i: "unknown-label" for i, (_, _, declared) in enumerate(found) if not declared}
    winner: int | None = None
    for i, (where, _, declared) in enumerate(found):
        if declared is None:
            continue
        reason = None if where == "bom" else _contradiction(body, declared, shape)
        if reason is None:
            winner = i
            break
        losers[i] = reason
    if winner is None:
        encoding, source = _sniff(body, shape)
    else:
        encoding, source = found[winner][2] or UTF8, found[winner][0]
    overruled = tuple(
        Declaration(where, label[:LABEL_MAX], declared, losers.get(i, "outranked"))
        for i, (where, label, declared) in enumerate(found)
        if i != winner and (i in losers or declared != encoding)
    )
    return EncodingDecision(encoding, source, overruled)


def _contradiction(body: bytes, declared: str, shape: str) -> str | None:
    """Why the bytes refute ``declared``, or None when they do not."""
    if declared == UTF8:
        return "not-utf-8" if shape == "not-utf-8" else None
    if declared in _UTF16:
        return None if 0 in body[:SNIFF_BYTES] else "no-nul-bytes"
    return "bytes-are-utf-8" if shape == "utf-8" else None


def _utf8_shape(body: bytes) -> str:
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


def _sniff(body: bytes, shape: str) -> tuple[str, str]:
    utf16 = _sniff_utf16(body)
    if utf16 is not None:
        return utf16, "sniff"
    if shape == "not-utf-8":
        return WINDOWS_1252, "sniff"
    return UTF8, "default"


def _sniff_utf16(body: bytes) -> str | None:
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


def _bom_encoding(body: bytes) -> str | None:
    for bom, encoding in _BOMS:
        if body.startswith(bom):
            return encoding
    return None


def _bom_length(body: bytes) -> int:
    return next((len(bom) for bom, _ in _BOMS if body.startswith(bom)), 0)


def _document_encoding(encoding: str | None) -> str | None:
    """A document cannot declare itself UTF-16: the declaration was readable as ASCII."""
    return UTF8 if encoding in _UTF16 else encoding


def is_xml_media_type(content_type: str | None) -> bool:
    """Whether the Content-Type is an XML one (XHTML, feeds), where ``<meta>`` means nothing."""
    if not content_type:
        return False
    essence = content_type.split(";", 1)[0].strip().lower()
    return _XML_MEDIA.fullmatch(essence) is not None


def charset_parameter(content_type: str | None) -> str | None:
    """The first ``charset`` parameter of a Content-Type header, unquoted, or None."""
    if not content_type:
        return None
    for parameter in content_type.split(";")[1:]:
        name, equals, value = parameter.partition("=")
        if not equals or name.strip().lower() != "charset":
            continue
        value = value.strip()
        if value[:1] in ('"', "'"):
            value = value[1:].partition(value[0])[0]
        return value.strip()
    return None


# ---------------------------------------------------------------------------------------
# The HTML Standard's "prescan a byte stream to determine its encoding", step for step
# (https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding).

_SPACE: Final = frozenset(b"\t\n\x0c\r ")
_SPACE_OR_SLASH: Final = _SPACE | {0x2F}
_TAG_END: Final = re.compile(rb"[\t\n\x0c\r >]")
_CONTENT_CHARSET: Final = re.compile(rb"charset[\t\n\x0c\r ]*=[\t\n\x0c\r ]*")
_CONTENT_LABEL_END: Final = re.compile(rb"[\t\n\x0c\r ;]")
_XML_ENCODING: Final = re.compile(rb"[\x00-\x20]*=[\x00-\x20]*([\"'])(.*?)\1", re.DOTALL)

Attribute = tuple[bytes, bytes]
"""A name and value as the prescan reads them: ASCII lower-cased bytes."""


class _OutOfBytes(Exception):
    """The prescan ran past its bytes: it ends with what it found so far."""


def prescan(body: bytes, *, limit: int = PRESCAN_BYTES) -> list[tuple[str, str | None]]:
    """Declarations in ``<meta>`` elements of the first ``limit`` bytes, in order.

    The scan stops at the first declaration with a known label (the last item); items
    before it carry unknown labels (encoding None). UTF-16 becomes UTF-8 and
    x-user-defined windows-1252, as the standard says. Comments, other tags' attribute
    values and ``<!...>``, ``<?...>`` and ``</...>`` constructs are skipped the way a
    browser skips them.
    """
    data = body[:limit]
    found: list[tuple[str, str | None]] = []
    position = 0
    try:
        while (position := data.find(b"<", position)) != -1:
            position = _prescan_markup(data, position, found)
            if found and found[-1][1] is not None:
                break
    except _OutOfBytes:
        pass
    return found


def _prescan_markup(data: bytes, position: int, found: list[tuple[str, str | None]]) -> int:
    """Handle the construct starting with the ``<`` at ``position``; return where to go on."""
    after = data[position + 1 : position + 2]
    if data.startswith(b"<!--", position):
        end = data.find(b"-->", position + 2)
        if end == -1:
            raise _OutOfBytes
        return end + 3
    if data[position + 1 : position + 5].lower() == b"meta" and (
        len(data) > position + 5 and data[position + 5] in _SPACE_OR_SLASH
    ):
        position, label = _meta_charset(data, position + 5)
        if label is not None:
            found.append((label, _document_encoding(encoding_for_label(label))))
        return position + 1
    if after.isalpha() or (after == b"/" and data[position + 2 : position + 3].isalpha()):
        tag_end = _TAG_END.search(data, position)
        if tag_end is None:
            raise _OutOfBytes
        position = tag_end.start()
        while (attribute := _attribute(data, position)) is not None:
            position = attribute[1]
        return _skip_space_and_slash(data, position) + 1
    if after in (b"!", b"/", b"?"):
        end = data.find(b">", position + 1)
        if end == -1:
            raise _OutOfBytes
        return end + 1
    return position + 1


def _meta_charset(data: bytes, position: int) -> tuple[int, str | None]:
    """Read one ``<meta>``'s attributes; return where it ended and the label it declares."""
    seen: set[bytes] = set()
    got_pragma = False
    need_pragma: bool | None = None
    charset: bytes | None = None
    while (attribute := _attribute(data, position)) is not None:
        (name, value), position = attribute
        if name in seen:
            continue
        seen.add(name)
        if name == b"http-equiv":
            got_pragma = got_pragma or value == b"content-type"
        elif name == b"content":
            label = _charset_in_content(value)
            if label is not None and charset is None:
                charset, need_pragma = label, True
        elif name == b"charset":
            charset, need_pragma = value, False
    position = _skip_space_and_slash(data, position)
    if need_pragma is None or (need_pragma and not got_pragma) or charset is None:
        return position, None
    return position, charset.decode("latin-1")


def _skip_space_and_slash(data: bytes, position: int) -> int:
    while position < len(data) and data[position] in _SPACE_OR_SLASH:
        position += 1
    return position


def _attribute(data: bytes, position: int) -> tuple[Attribute, int] | None:
    """The standard's "get an attribute": the attribute and the position after it, or None
    at the tag's ``>``; raises :class:`_OutOfBytes` when the bytes end first."""
    size = len(data)
    position = _skip_space_and_slash(data, position)
    if position >= size:
        raise _OutOfBytes
    if data[position] == 0x3E:
        return None
    start = position
    while True:
        if position >= size:
            raise _OutOfBytes
        byte = data[position]
        if byte == 0x3D and position > start:
            name = data[start:position].lower()
            position += 1
            break
        if byte in _SPACE:
            name = data[start:position].lower()
            while position < size and data[position] in _SPACE:
                position += 1
            if position >= size:
                raise _OutOfBytes
            if data[position] != 0x3D:
                return (name, b""), position
            position += 1
            break
        if byte in (0x2F, 0x3E):
            return (data[start:position].lower(), b""), position
        position += 1
    while position < size and data[position] in _SPACE:
        position += 1
    if position >= size:
        raise _OutOfBytes
    quote = data[position]
    if quote in (0x22, 0x27):
        end = data.find(bytes([quote]), position + 1)
        if end == -1:
            raise _OutOfBytes
        return (name, data[position + 1 : end].lower()), end + 1
    if quote == 0x3E:
        return (name, b""), position
    end_match = _TAG_END.search(data, position)
    if end_match is None:
        raise _OutOfBytes
    return (name, data[position : end_match.start()].lower()), end_match.start()


def _charset_in_content(value: bytes) -> bytes | None:
    """The standard's "extracting a character encoding from a meta element" (the label)."""
    match = _CONTENT_CHARSET.search(value)
    if match is None:
        return None
    rest = value[match.end() :]
    if not rest:
        return None
    if rest[:1] in (b'"', b"'"):
        label, closed, _ = rest[1:].partition(rest[:1])
        return label if closed else None
    return _CONTENT_LABEL_END.split(rest, maxsplit=1)[0]


def xml_declaration_label(body: bytes) -> str | None:
    """The ``encoding`` of an XML declaration opening ``body``, as the HTML Standard reads it
    ("get an XML encoding when sniffing"), or None."""
    if not body.startswith(b"<?xml"):
        return None
    end = body.find(b">")
    declaration = body[:end] if end != -1 else b""
    at = declaration.find(b"encoding")
    if at == -1:
        return None
    match = _XML_ENCODING.match(declaration, at + len(b"encoding"))
    if match is None or any(byte <= 0x20 for byte in match.group(2)):
        return None
    return match.group(2).decode("latin-1")
