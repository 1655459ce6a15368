"""Which character encoding a fetched page is in, and which declarations lost (pure).

The order is the HTML Standard's "determining the character encoding" without a browser's
user override and parent-frame inheritance:

1. a byte order mark (``bom``);
2. the ``charset`` parameter of the HTTP ``Content-Type`` (``http``);
3. the document's own declaration: for HTML the ``<meta charset>`` / ``http-equiv``
   prescan of the first 1024 bytes (``meta``); when it finds none, the first such
   ``<meta>`` element a browser's parser meets later in the page (``late-meta``: browsers
   then re-decode the page in that encoding); then an XML declaration at the very start
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

The parts live beside this module: ``encoding_labels`` (the WHATWG label table),
``encoding_prescan`` (the ``<meta>`` prescan and the XML declaration), ``encoding_late``
(a ``<meta>`` past the prescan) and ``encoding_sniff``
(BOM, UTF-8 validity, BOM-less UTF-16). Their public names are importable from here too.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from typing import Final

from quietedit.article.encoding_labels import (
    CODECS,
    LABELS,
    UTF8,
    WINDOWS_1252,
    document_encoding,
    encoding_for_label,
)
from quietedit.article.encoding_late import late_meta
from quietedit.article.encoding_prescan import PRESCAN_BYTES, prescan, xml_declaration_label
from quietedit.article.encoding_sniff import (
    SNIFF_BYTES,
    BodyShape,
    bom_encoding,
    bom_length,
    contradiction,
    sniff,
)
from quietedit.model import JSON

__all__ = [
    "LABELS",
    "LABEL_MAX",
    "PRESCAN_BYTES",
    "SNIFF_BYTES",
    "UTF8",
    "WINDOWS_1252",
    "Declaration",
    "EncodingDecision",
    "charset_parameter",
    "encoding_for_label",
    "is_xml_media_type",
    "prescan",
    "resolve_encoding",
    "xml_declaration_label",
]

LABEL_MAX: Final = 100  # a hostile header cannot bloat the stored record

# windows-1252 as the standard defines it: Latin-1 with 0x80-0x9F from cp1252, and the five
# bytes cp1252 leaves undefined mapped to the C1 controls of the same value (Python's cp1252
# would turn them into U+FFFD). A decoding table for the C charmap codec: fast.
_WINDOWS_1252_TABLE: Final = "".join(
    bytes([byte]).decode("cp1252", errors="ignore") or chr(byte) for byte in range(256)
)
_XML_MEDIA: Final = re.compile(r"(?:application|text)/xml|[^/;\s]+/[^;\s]+\+xml")


@dataclass(frozen=True, slots=True)
class Declaration:
    """One statement about the encoding that did not decide it, and why.

    ``source`` is where it was found (``bom``, ``http``, ``meta``, ``late-meta`` or
    ``xml``), ``label``
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
    (``source``: bom, http, meta, late-meta, xml, sniff or default) and every declaration
    that lost
    (``overruled``, strongest first)."""

    encoding: str
    source: str
    overruled: tuple[Declaration, ...] = ()

    @property
    def codec(self) -> str:
        """The Python codec :meth:`decode` uses: the WHATWG decoder's closest superset."""
        return CODECS.get(self.encoding, self.encoding)

    def decode(self, body: bytes) -> str:
        """Decode ``body`` (the bytes this decision was made for) to text.

        Never raises: bytes invalid in the encoding become U+FFFD, the same way on every
        run. A BOM that decided the encoding is not part of the text.
        """
        if self.source == "bom":
            body = body[bom_length(body) :]
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


def resolve_encoding(body: bytes, content_type: str | None) -> EncodingDecision:
    """Decide how to decode ``body`` served with ``content_type`` (the raw header or None).

    Pure and total: any bytes and any header give a decision (see the module docstring
    for the order); every declaration that did not decide is in ``.overruled``.
    """
    found: list[tuple[str, str, str | None]] = []  # (source, label, encoding), strongest first
    bom = bom_encoding(body)
    if bom is not None:
        found.append(("bom", bom, bom))
    charset = charset_parameter(content_type)
    if charset is not None:
        found.append(("http", charset, encoding_for_label(charset)))
    if not is_xml_media_type(content_type):
        declared = prescan(body)
        found.extend(("meta", label, encoding) for label, encoding in declared)
        late = None if bom or (declared and declared[-1][1]) else late_meta(body)
        if late is not None:
            found.append(("late-meta", *late))
    xml_label = xml_declaration_label(body)
    if xml_label is not None:
        found.append(("xml", xml_label, document_encoding(encoding_for_label(xml_label))))
    return _decide(body, found)


def _decide(body: bytes, found: list[tuple[str, str, str | None]]) -> EncodingDecision:
    shape = BodyShape(body)
    losers = {i: "unknown-label" for i, (_, _, declared) in enumerate(found) if not declared}
    winner: int | None = None
    for i, (where, _, declared) in enumerate(found):
        if declared is None:
            continue
        reason = None if where == "bom" else contradiction(body, declared, shape)
        if reason is None:
            winner = i
            break
        losers[i] = reason
    if winner is None:
        encoding, source = sniff(body, shape)
    else:
        encoding, source = found[winner][2] or UTF8, found[winner][0]
    overruled = tuple(
        Declaration(where, label[:LABEL_MAX], declared, losers.get(i, "outranked"))
        for i, (where, label, declared) in enumerate(found)
        if i != winner and (i in losers or declared != encoding)
    )
    return EncodingDecision(encoding, source, overruled)


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
