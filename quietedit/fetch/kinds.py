"""What a fetched document is — Atom, RSS, RDF, JSON Feed or HTML — before any parser runs (pure).

The Content-Type decides when it names a feed format. Many hosts serve feeds as
``text/xml``, ``text/plain``, ``application/octet-stream`` or even ``text/html``, so every
other type falls through to a look at the body: its root element (after any byte order mark,
whitespace, XML declaration, processing instructions, comments and doctype), or for a JSON
object, whether it names jsonfeed.org as its version or has an ``items`` list. An XHTML
page whose body holds a feed element (:mod:`quietedit.feeds.wrapped`) is that feed.
Everything else is HTML.
"""

from __future__ import annotations

import codecs
import json
import re
from typing import Final

from quietedit.feeds.wrapped import wrapped_feed

KINDS: Final = ("atom", "rss", "rdf", "jsonfeed", "html")

_TYPES: Final = {
    "application/atom+xml": "atom",
    "application/rss+xml": "rss",
    "application/rdf+xml": "rdf",
    "application/feed+json": "jsonfeed",
}
_ROOTS: Final = {"feed": "atom", "rss": "rss", "rdf": "rdf"}
# How far into the body the root element is looked for: a licence comment or a long
# doctype can precede it, but a feed whose root starts later than this is no feed.
SNIFF_BYTES: Final = 64 * 1024
_BOMS: Final = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),  # before UTF-16 LE, whose BOM is its prefix
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_NAME: Final = re.compile(r"<([A-Za-z_][\w.\-]*(?::[A-Za-z_][\w.\-]*)?)")
_JSONFEED_VERSION: Final = re.compile(r'"version"\s*:\s*"https?://jsonfeed\.org/')


def detect_kind(content_type: str | None, body: bytes) -> str:
    """``"atom"``, ``"rss"``, ``"rdf"``, ``"jsonfeed"`` or ``"html"``; never raises.

    ``content_type`` is the response's header as sent (parameters allowed) or None.
    """
    media_type = (content_type or "").split(";", 1)[0].strip().lower()
    if media_type in _TYPES:
        return _TYPES[media_type]
    text = _decode_head(body)
    if text.startswith("{"):
        return "jsonfeed" if _is_json_feed(body, text) else "html"
    root = _root_element(text)
    if root is None:
        return "html"
    local = root.rpartition(":")[2].lower()
    if local == "html":
        wrapped = wrapped_feed(text)
        return wrapped.kind if wrapped is not None else "html"
    return _ROOTS.get(local, "html")


def _decode_head(body: bytes) -> str:
    """The start of the body as text, byte order mark removed, leading whitespace stripped."""
    head = body[:SNIFF_BYTES]
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return head[len(bom) :].decode(encoding, errors="replace").lstrip()
    # No BOM: ASCII-compatible encodings all spell markup the same way.
    return head.decode("latin-1").lstrip()


def _root_element(text: str) -> str | None:
    """The first element's qualified name, skipping the prolog; None if there is none."""
    position = 0
    while True:
        position = _skip_space(text, position)
        if text.startswith("<?", position):
            end = text.find("?>", position + 2)
        elif text.startswith("<!--", position):
            end = text.find("-->", position + 4)
            end = end + 1 if end != -1 else -1  # land on the ">" of "-->"
        elif text.startswith("<!", position):
            end = _doctype_end(text, position)
        else:
            match = _NAME.match(text, position)
            return match.group(1) if match else None
        if end == -1:
            return None
        position = text.index(">", end) + 1


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position].isspace():
        position += 1
    return position


def _doctype_end(text: str, position: int) -> int:
    """Where a ``<!DOCTYPE ...>`` ends, stepping over an internal subset in brackets."""
    depth = 0
    for index in range(position + 2, len(text)):
        char = text[index]
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        elif char == ">" and depth <= 0:
            return index
    return -1


def _is_json_feed(body: bytes, head: str) -> bool:
    try:
        document = json.loads(body.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        # Cut off or not UTF-8: the version line near the top still tells.
        return _JSONFEED_VERSION.search(head) is not None
    if not isinstance(document, dict):
        return False
    version = document.get("version")
    if isinstance(version, str) and "jsonfeed.org" in version:
        return True
    return isinstance(document.get("items"), list)
