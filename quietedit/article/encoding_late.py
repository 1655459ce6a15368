"""A ``<meta>`` encoding declaration the prescan did not reach, read as a browser's parser
reads it (pure).

The prescan looks at the first 1024 bytes only. A browser then goes on parsing, and when
its tree builder meets a ``<meta charset>`` (or ``http-equiv=content-type``) while its
encoding is still *tentative* (no byte order mark, no HTTP charset, no declaration in the
prescan), it throws the parse away and starts again in the declared encoding: the HTML
Standard's "change the encoding while parsing"
(https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing).
Pages with a kilobyte of inline CSS or tracking scripts before their ``<meta charset>``
are common, and browsers show them in the declared encoding, so we decode them so too.

Only real elements count, as the tree builder sees them: a ``<meta>`` inside a comment, a
``<script>``, ``<style>``, ``<textarea>`` or ``<title>`` is text, not an element, and so
is one in a ``<noscript>`` to a browser with scripting on. The
document is parsed (by lexbor, the parser browsers' rules are implemented in) from its bytes
read as windows-1252, which leaves every ASCII label intact whatever the real encoding.
"""

from __future__ import annotations

import re
from typing import Final

from selectolax.lexbor import LexborHTMLParser, LexborNode

from quietedit.article.encoding_labels import document_encoding, encoding_for_label
from quietedit.article.encoding_prescan import charset_in_content

_META: Final = re.compile(rb"<meta", re.IGNORECASE)


def late_meta(body: bytes) -> tuple[str, str] | None:
    """The first ``<meta>`` element in tree order that declares a known encoding, as
    (label, encoding), or None. Unknown labels are passed over, as the tree builder passes
    them over. UTF-16 labels mean UTF-8 and x-user-defined windows-1252, as in the prescan.
    Never raises.
    """
    if _META.search(body) is None:
        return None
    tree = LexborHTMLParser(body.decode("latin-1"))
    for node in tree.css("meta"):
        if _in_noscript(node):
            continue
        label = _declared_label(node.attributes)
        if label is None:
            continue
        encoding = document_encoding(encoding_for_label(label))
        if encoding is not None:
            return label, encoding
    return None


def _in_noscript(node: LexborNode) -> bool:
    """Whether ``node`` sits in a ``<noscript>``: text to a browser with scripting on."""
    parent = node.parent
    while parent is not None:
        if parent.tag == "noscript":
            return True
        parent = parent.parent
    return False


def _declared_label(attributes: dict[str, str | None]) -> str | None:
    """The label a ``<meta>`` element declares: its ``charset``, else the charset in its
    ``content`` when ``http-equiv`` is ``content-type``."""
    charset = attributes.get("charset")
    if charset is not None:
        return charset.strip() or None
    if (attributes.get("http-equiv") or "").strip().lower() != "content-type":
        return None
    content = attributes.get("content")
    if content is None:
        return None
    label = charset_in_content(content.lower().encode("latin-1", errors="replace"))
    return label.decode("latin-1") if label else None
