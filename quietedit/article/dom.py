"""Parsing a page, and collecting the raw material of its metadata.

:func:`parse` hands the page to lexbor, cut first where it nests deeper than any reader
sees. :func:`read_head` collects what ``<head>`` declares — ``<meta>``, ``<link>``,
``<title>``, JSON-LD, microdata — and the walk (:mod:`quietedit.article.blocks`) adds what
the body declares, with :func:`collect_element` and :func:`collect_skipped`, as it meets
it: the body's nodes are visited once. The element vocabularies the walk reads by (what is
skipped, what is inline) live here too, with the two marks that enclose link text.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from selectolax.lexbor import LexborHTMLParser

from quietedit.article.furniture import LABEL_MAX, hidden_by_attributes, hides

logger = logging.getLogger(__name__)

LINK_START: Final = "\x01"
LINK_END: Final = "\x02"

# Elements whose content is never article text (or never text at all).
SKIPPED_TAGS: Final = frozenset(
    {
        "script", "style", "noscript", "template", "svg", "math", "iframe", "object",
        "embed", "canvas", "video", "audio", "picture", "img", "source", "track", "button",
        "select", "input", "textarea", "head", "title", "meta", "link", "base", "map",
        "area", "dialog", "nav", "menu", "figcaption", "label", "datalist", "output",
        "progress", "meter", "frame", "frameset", "noframes", "applet", "param",
    }
)  # fmt: skip
# Inline elements that only style text: read through, so their text joins its neighbours'.
INLINE_TAGS: Final = frozenset(
    {
        "span", "strong", "b", "em", "i", "u", "font", "small", "mark", "abbr", "acronym",
        "cite", "time", "sup", "sub", "code", "q", "s", "strike", "del", "ins", "kbd",
        "var", "samp", "big", "tt", "bdi", "bdo", "data", "dfn", "nobr", "a", "wbr", "ruby",
        "rb", "rt", "rp", "blink",
    }
)  # fmt: skip
JSON_LD_TYPE: Final = "application/ld+json"
_READ_ATTRIBUTES: Final = frozenset({"span", "a", "time", "small", "font", "data"})
# Skipped elements that hold no elements: void elements, and those whose content the
# parser reads as text (scripts, styles, titles, text areas, inline frames).
_LEAVES: Final = frozenset(
    {
        "script", "style", "img", "source", "track", "input", "meta", "link", "base",
        "area", "embed", "param", "title", "textarea", "iframe", "noframes",
    }
)  # fmt: skip


@dataclass(slots=True)
class RawHead:
    """The page's self-description as found, before any interpretation."""

    language: str | None = None
    title: str | None = None
    metas: list[dict[str, str | None]] = field(default_factory=list)
    links: list[dict[str, str | None]] = field(default_factory=list)
    json_ld: list[str] = field(default_factory=list)
    published_times: list[str] = field(default_factory=list)  # <time itemprop=datePublished>
    author_names: list[str] = field(default_factory=list)  # rel=author, itemprop=author


STATIC_TAG_IDS: Final = 1 << 16
"""lexbor numbers the tags it knows (every HTML tag) below this; the number of a tag it
does not know (a custom element) is an address, meaningful in its own document only."""
TAG_NAMES: Final[dict[int, str]] = {}
"""Tag number -> name, for the tags lexbor knows, filled as they are met: reading a node's
name makes a new string every time, its number is a small integer. (An SVG tag such as
``clipPath`` shares its number with the lower-case HTML name; whichever comes first is
kept, which nothing here tells apart: the walk skips SVG.)"""


def tag_name(node: Any) -> str:
    """``node.tag``, and its number noted in TAG_NAMES when lexbor knows the tag.

    Callers look in TAG_NAMES first (``TAG_NAMES.get(node.tag_id) or tag_name(node)``);
    this is the slow path, taken once per tag a process meets.
    """
    name: str = node.tag or ""
    number: int = node.tag_id
    if number < STATIC_TAG_IDS and name:
        TAG_NAMES[number] = name
    return name


def parse(document: str | bytes) -> Any | None:
    """Parse a page with lexbor (bytes are read as UTF-8); ``None`` if nothing is there."""
    if isinstance(document, bytes):
        for byte_mark in (b"\x00", b"\x01", b"\x02"):
            if byte_mark in document:
                document = document.replace(byte_mark, b"")
    else:
        # A NUL is never article text, and the walk's link marks must not be forgeable.
        for mark in ("\x00", LINK_START, LINK_END):
            if mark in document:
                document = document.replace(mark, "")
    if not document or document.isspace():
        return None
    document = _cap_nesting(document)
    try:
        return LexborHTMLParser(document)
    except (ValueError, RuntimeError, MemoryError) as exc:  # lexbor refused the input
        logger.debug("unparsable page: %s", exc)
        return None


# The HTML parsing algorithm checks the stack of open elements at every tag, so parsing
# time grows with the square of the nesting depth: 40,000 nested <div>s take lexbor five
# seconds. Real pages nest a few dozen levels (browsers flatten beyond 512); a page with
# this many tags is scanned, and cut where its nesting passes MAX_NESTING.
NESTING_SCAN_TAGS: Final = 10_000
MAX_NESTING: Final = 2_000
# Elements that never hold others, or that the parser closes by itself when the next one
# starts (an unclosed <p> or <li> does not nest).
_FLAT: Final = (
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
    "source", "track", "wbr", "p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th",
    "thead", "tbody", "tfoot", "rb", "rt", "rp",
)  # fmt: skip
# A tag runs to the first ">"; the name, and whether it closes, are all the scan needs
# (a greedy run to ">" costs a few steps a character, where a lazy one tried "/>" at each).
_TAG: Final = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9:-]*)[^>]*>")
_TAG_BYTES: Final = re.compile(rb"<(/?)([A-Za-z][A-Za-z0-9:-]*)[^>]*>")
_FLAT_SET: Final = frozenset(_FLAT) | frozenset(tag.encode() for tag in _FLAT)
_SLASH: Final = ord("/")


def _cap_nesting(document: str | bytes) -> str | bytes:
    """``document`` cut where its elements nest deeper than MAX_NESTING (rarely scanned)."""
    if isinstance(document, str):
        if document.count("<") < NESTING_SCAN_TAGS:
            return document
        text_cut = _too_deep(document, _TAG.finditer(document), "/", limit=MAX_NESTING)
        return document if text_cut < 0 else document[:text_cut]
    if document.count(b"<") < NESTING_SCAN_TAGS:
        return document
    cut = _too_deep(document, _TAG_BYTES.finditer(document), _SLASH, limit=MAX_NESTING)
    return document if cut < 0 else document[:cut]


def _too_deep(
    document: str | bytes, tags: Iterator[re.Match[Any]], slash: str | int, *, limit: int
) -> int:
    """Where the first tag that nests deeper than ``limit`` starts, or -1.

    ``tags`` are the matches of ``_TAG`` (or ``_TAG_BYTES``) in ``document``, whose
    ``slash`` is ``"/"`` (or its byte value): a tag ending in "/>" closes itself.
    """
    depth = 0
    for match in tags:
        closing, name = match.groups()
        if document[match.end() - 2] == slash or name.lower() in _FLAT_SET:
            continue
        if closing:
            depth = max(depth - 1, 0)
            continue
        depth += 1
        if depth > limit:
            logger.debug("page nests deeper than %d elements; cut there", limit)
            return match.start()
    return -1


def read_head(tree: Any) -> RawHead:
    """The raw material of a parsed page's metadata that lies outside its ``<body>``.

    The language of ``<html>``, the first ``<title>`` of ``<head>``, and every ``<meta>``,
    ``<link>``, JSON-LD block and microdata date or author in ``<head>`` — in the whole
    document when it has no body (a frameset). The walk adds what the body holds
    (:func:`collect` and :mod:`quietedit.article.blocks`).
    """
    head = RawHead()
    root = tree.root
    if root is None:
        return head
    if root.tag == "html":
        attributes = root.attributes
        head.language = attributes.get("lang") or attributes.get("xml:lang")
    source = tree.head if tree.body is not None else root
    if source is not None:
        collect(source, head, in_head=True)
    return head


def collect(node: Any, head: RawHead, *, in_head: bool = False) -> None:
    """Add to ``head`` what the elements inside ``node`` (not ``node`` itself) declare,
    in document order.

    For subtrees no reader sees (a ``<head>``, ``<nav>``, ``<noscript>``, a hidden
    element): their metadata counts even though their text does not — SVG and MathML
    included, whose ``foreignObject`` and ``annotation-xml`` may hold HTML.
    """
    names = TAG_NAMES
    inline_tags, skipped_tags = INLINE_TAGS, SKIPPED_TAGS
    levels: list[Iterator[Any]] = [node.iter(False, False)]
    while levels:
        for child in levels[-1]:
            tag = names.get(child.tag_id) or tag_name(child)
            if tag in inline_tags or tag in skipped_tags:
                collect_element(child, tag, head, in_head=in_head)
            levels.append(child.iter(False, False))
            break
        else:
            levels.pop()


def collect_skipped(node: Any, tag: str, head: RawHead) -> None:
    """Add to ``head`` what a skipped element of the body (``tag`` is its name) and the
    elements inside it declare."""
    collect_element(node, tag, head, in_head=False)
    if tag not in _LEAVES:
        collect(node, head)


def collect_element(node: Any, tag: str, head: RawHead, *, in_head: bool) -> bool:
    """Add to ``head`` what one inline or skipped element declares (``tag`` is its name).

    Returns whether the element is hidden (an inline element that an attribute, inline
    style or hiding class hides): its own microdata is not read then.
    """
    if tag in _READ_ATTRIBUTES:
        attributes = node.attributes
        if attributes:
            if _hidden(attributes):
                return True
            if "itemprop" in attributes or "rel" in attributes:
                _microdata(node, attributes, head)
    elif tag == "meta":
        head.metas.append(node.attributes)
    elif tag == "link":
        head.links.append(node.attributes)
    elif tag == "script":
        if (node.attributes.get("type") or "").strip().lower() == JSON_LD_TYPE:
            head.json_ld.append(node.text())
    elif tag == "title" and in_head and head.title is None:
        head.title = node.text()
    return False


def _microdata(node: Any, attributes: dict[str, str | None], head: RawHead) -> None:
    itemprop = (attributes.get("itemprop") or "").lower().split()
    if "datepublished" in itemprop or "pubdate" in attributes:
        value = attributes.get("datetime") or attributes.get("content")
        if value:
            head.published_times.append(value)
    rel = (attributes.get("rel") or "").lower().split()
    if "author" in itemprop or "author" in rel:
        head.author_names.append(node.text())


def _hidden(attributes: dict[str, str | None]) -> bool:
    classes = attributes.get("class")
    if classes and hides(classes[:LABEL_MAX]):
        return True
    return hidden_by_attributes(attributes)
