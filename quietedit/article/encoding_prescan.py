"""A document's own encoding declaration: the ``<meta>`` prescan, the XML declaration (pure).

``prescan`` is the HTML Standard's "prescan a byte stream to determine its encoding", step
for step
(https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding);
``xml_declaration_label`` its "get an XML encoding when sniffing". Both read bytes as a
browser does before it knows the encoding, and never raise.
"""

from __future__ import annotations

import re
from typing import Final

from quietedit.article.encoding_labels import document_encoding, encoding_for_label

PRESCAN_BYTES: Final = 1024
"""How far the ``<meta>`` prescan reads: the HTML Standard's advice, and what browsers do."""

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
            found.append((label, document_encoding(encoding_for_label(label))))
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
            label = charset_in_content(value)
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


def charset_in_content(value: bytes) -> bytes | None:
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
