"""From a prepared page to a flat list of text segments: the walk every later stage reads.

A *segment* is the text a reader sees as one block — a paragraph, a heading, a list item,
the lines of a ticker entry — with what the later stages need to judge it: its kind,
how much of it is link text, and the *box* (the block-level element) that holds it, whose
chain of parents says where on the page it sits.

The walk reads a page reduced by :func:`quietedit.article.dom.prepare`: text, block
elements, ``<br>``, and link text between two marks. It is iterative, so a hostile page
nested a hundred thousand levels deep cannot exhaust the interpreter's stack.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Final, NamedTuple

from quietedit.article.dom import LINK_END, LINK_START, TAG_NAMES, tag_name
from quietedit.article.furniture import (
    LABEL_MAX,
    Hint,
    class_hint,
    hidden_by_attributes,
    role_hint,
)

# Elements that start a block of their own; everything else flows inline.
BLOCK_TAGS: Final = frozenset(
    {
        "address", "article", "aside", "blockquote", "body", "caption", "center", "dd",
        "details", "dir", "div", "dl", "dt", "fieldset", "figure", "footer", "form", "h1",
        "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html", "legend", "li",
        "listing", "main", "ol", "p", "plaintext", "pre", "section", "summary", "table",
        "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "xmp",
    }
)  # fmt: skip
HEADING_TAGS: Final = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

# A link's text with its marks: from its start mark to its end mark, or to the end.
_LINK_TEXT: Final = re.compile("\x01[^\x02]*\x02?")
_CONTROL: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# Invisible characters that glue or split words without being seen.
_INVISIBLE: Final = ("\u200b", "\ufeff", "\u00ad")


_TAG_KINDS: Final = {
    "h1": "heading", "h2": "heading", "h3": "heading", "h4": "heading", "h5": "heading",
    "h6": "heading", "li": "list-item", "blockquote": "quote",
}  # fmt: skip
_FIGURE_TEXT: Final = frozenset({"blockquote", "table"})
_LANDMARKS: Final = frozenset({"header", "footer", "aside", "form"})
_NEGATIVE: Final = frozenset({Hint.HIDDEN, Hint.ALWAYS, Hint.STRONG, Hint.WEAK})


class Box:
    """A block-level element met by the walk: its tag, its hint, its parent box.

    Boxes are compared by identity; ``order`` is the position in document order, ``end``
    the position of the last box inside it, and ``label`` the element's class and id.
    ``kind`` is what its text is: a heading, a list item (also a paragraph directly inside
    one), a quote (anything inside a blockquote), or a paragraph. ``figure`` marks text
    inside a ``<figure>`` other than a pull quote or a table: captions and credits.
    """

    __slots__ = ("depth", "end", "figure", "hint", "kind", "label", "order", "parent", "tag")

    def __init__(
        self, parent: Box | None, tag: str, hint: Hint, order: int, label: str = ""
    ) -> None:
        self.parent = parent
        self.tag = tag
        self.hint = hint
        self.order = order
        self.end = order  # the order of its last descendant, set when the walk leaves it
        self.label = label
        kind = _TAG_KINDS.get(tag)
        self.depth: int
        self.figure: bool
        self.kind: str
        if parent is None:
            self.depth = 0
            self.figure = tag == "figure"
            self.kind = kind or "paragraph"
            return
        self.depth = parent.depth + 1
        self.figure = tag == "figure" or (parent.figure and tag not in _FIGURE_TEXT)
        if kind is None:
            if parent.kind == "quote":
                kind = "quote"
            elif parent.tag == "li" and (tag == "p" or tag == "div"):
                kind = "list-item"
            else:
                kind = "paragraph"
        self.kind = kind

    def ancestors(self) -> Iterator[Box]:
        """This box, then its parent, and so on up to the root."""
        box: Box | None = self
        while box is not None:
            yield box
            box = box.parent


class Segment(NamedTuple):
    """One block of visible text and where it came from."""

    text: str
    box: Box
    link_chars: int  # characters of the text inside <a> elements

    @property
    def kind(self) -> str:
        return self.box.kind

    @property
    def link_density(self) -> float:
        return self.link_chars / len(self.text) if self.text else 0.0


_new_segment: Final = tuple.__new__


def normalize_space(text: str) -> str:
    """Collapse every run of white space (Unicode included) to one space; trim both ends.

    Control characters, zero-width spaces, byte-order marks and soft hyphens are removed.
    """
    if not text.isascii():  # the invisible characters are not ASCII; most text is
        for invisible in _INVISIBLE:
            if invisible in text:
                text = text.replace(invisible, "")
    text = " ".join(text.split())
    if not text.isprintable():  # rare: most text is printable once spaces are collapsed
        text = " ".join(_CONTROL.sub("", text).split())
    return text


class _Collector:
    """Text gathered since the last block boundary, and whether a link is open."""

    __slots__ = ("in_link", "parts", "segments")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.segments: list[Segment] = []
        self.in_link = False

    def flush(self, box: Box) -> None:
        raw = "".join(self.parts)
        self.parts.clear()
        links = 0
        if self.in_link or LINK_START in raw or LINK_END in raw:
            raw, links = self._unmark(raw)
        text = normalize_space(raw)
        if text:
            # Link characters were counted on raw text; scale them to the normalised one.
            if links:
                links = min(len(text), round(links * len(text) / max(len(raw), 1)))
            # tuple.__new__ skips the Python-level __new__ of a NamedTuple: same value.
            self.segments.append(_new_segment(Segment, (text, box, links)))

    def _unmark(self, raw: str) -> tuple[str, int]:
        """``raw`` without link marks, and how many of its characters are link text."""
        links = 0
        rest = raw
        # A link may open in one segment and close in a later one (a linked card).
        if self.in_link:
            end = raw.find(LINK_END)
            if end < 0:
                return _without_marks(raw), len(raw)
            links = end
            rest = raw[end + 1 :]
            self.in_link = False
        if LINK_START in rest:
            # Each link's text goes with its two marks (one if it is still open at the
            # end): what the removal takes, less the marks, is link text.
            outside, spans = _LINK_TEXT.subn("", rest)
            still_open = rest.rfind(LINK_START) > rest.rfind(LINK_END)
            links += len(rest) - len(outside) - 2 * spans + still_open
            self.in_link = still_open
        return _without_marks(raw), links


def _without_marks(text: str) -> str:
    """``text`` without link marks, stray ones of unbalanced links included."""
    return text.replace(LINK_START, "").replace(LINK_END, "")


def walk(root: Any) -> tuple[list[Segment], list[Box]]:
    """Walk a prepared page's ``<body>`` and return its segments and boxes in document order.

    Text directly inside a block element makes one segment; a nested block ends the
    segment before it and starts its own. Two ``<br>`` in a row end a segment too (ticker
    entries and old CMSs separate paragraphs that way); one ``<br>`` is a space. Hidden
    inline elements are skipped with what they hold; a hidden block is kept as a box
    marked :attr:`Hint.HIDDEN`, for :mod:`quietedit.article.locate` to judge.
    """
    collector = _Collector()
    parts = collector.parts
    flush = collector.flush
    top = Box(None, "body", Hint.NONE, 0)
    boxes = [top]
    current = top
    breaks = 0  # <br> seen since the last text
    block_tags = BLOCK_TAGS
    landmarks = _LANDMARKS
    negative = _NEGATIVE
    none = Hint.NONE
    hidden = Hint.HIDDEN
    weak = Hint.WEAK
    names = TAG_NAMES
    # The children still to visit at each level, and the box each level opened (or None).
    # iter(include_text, skip_empty): positional, as keywords cost a parse on every call.
    levels: list[Iterator[Any]] = [root.iter(True, True)]
    opened: list[Box | None] = [None]
    while levels:
        for node in levels[-1]:
            tag = names.get(node.tag_id) or tag_name(node)
            if tag == "-text":
                if breaks:
                    if breaks > 1:
                        flush(current)
                    breaks = 0
                parts.append(node.text_content)
                continue
            if tag == "br":
                breaks += 1
                parts.append(" ")
                continue
            if tag == "-comment":
                continue
            hint = none
            label = ""
            attributes: dict[str, str | None] = node.attributes
            if attributes:
                hint, label = _element_hint(tag, attributes)
                if hint is hidden and tag not in block_tags:
                    continue
            elif tag in landmarks:
                hint = weak
            if tag in block_tags:
                if parts:
                    flush(current)
                breaks = 0
                current = Box(current, tag, hint, len(boxes), label)
                boxes.append(current)
                opened.append(current)
            elif hint in negative:
                # An inline element with a telling class (a custom ad slot) is judged
                # apart like a block, so that its text can be dropped on its own.
                if parts:
                    flush(current)
                breaks = 0
                current = Box(current, current.tag, hint, len(boxes), label)
                boxes.append(current)
                opened.append(current)
            else:
                opened.append(None)
            levels.append(node.iter(True, True))
            break
        else:
            levels.pop()
            box = opened.pop()
            if box is not None:
                if parts:
                    flush(box)
                box.end = len(boxes) - 1
                current = box.parent or top
    if parts:
        flush(top)
    top.end = len(boxes) - 1
    return collector.segments, boxes


def _element_hint(tag: str, attributes: dict[str, str | None]) -> tuple[Hint, str]:
    """What an element's attributes say about it, and its label (class and id)."""
    key = (
        tag,
        (attributes.get("class") or "")[:LABEL_MAX],
        (attributes.get("id") or "")[:LABEL_MAX],
        (attributes.get("itemprop") or "")[:LABEL_MAX],
        (attributes.get("role") or "")[:LABEL_MAX],
    )
    found = _HINTS.get(key)
    if found is None:
        found = _described_hint(*key)
        if len(_HINTS) >= HINT_CACHE_MAX:
            _HINTS.clear()
        _HINTS[key] = found
    if ("hidden" in attributes or "style" in attributes) and hidden_by_attributes(attributes):
        return Hint.HIDDEN, found[1] or "hidden"
    return found


HINT_CACHE_MAX: Final = 32768
"""Elements' hints kept, by tag, class, id, itemprop and role; the cache starts again when
it is full. The elements of a site repeat a few combinations of these thousands of times."""
_HINTS: Final[dict[tuple[str, str, str, str, str], tuple[Hint, str]]] = {}


def _described_hint(
    tag: str, classes: str, ident: str, itemprop: str, role: str
) -> tuple[Hint, str]:
    """The hint and label of an element's tag, class, id, itemprop and role."""
    hint = Hint.NONE
    label = ""
    if classes or ident or itemprop:
        hint = class_hint(classes or None, ident or None, itemprop or None)
        label = f"{classes} {ident}" if classes and ident else classes or ident
    if hint is Hint.HIDDEN:
        return hint, label
    if tag == "main" and hint in _NEGATIVE:
        hint = Hint.NONE  # <main> says what it is more reliably than a class
    if role:
        by_role = role_hint(role)
        if by_role.value < min(hint.value, 0) or (by_role is Hint.CONTENT and hint is Hint.NONE):
            hint = by_role
    if hint is Hint.NONE and tag in _LANDMARKS:
        hint = Hint.WEAK  # page landmarks around the article, unless they wrap it
    return hint, label
