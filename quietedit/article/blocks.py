"""From a parsed page to a flat list of text segments: the walk every later stage reads.

A *segment* is the text a reader sees as one block — a paragraph, a heading, a list item,
the lines of a ticker entry — with what the later stages need to judge it: its kind,
how much of it is link text, and the *box* (the block-level element) that holds it, whose
chain of parents says where on the page it sits.

The walk is the one pass over the page's ``<body>``: lexbor parses in C, and every
Python-level step per node costs, so everything that needs the body's nodes happens here,
and the tree is never changed. Inline markup is read through, link text is gathered
between two control characters (so that link density can be measured), what no reader
sees is skipped, and the metadata that skipped parts declare goes to
:mod:`quietedit.article.dom`'s collectors. It is iterative, so a hostile page nested a
hundred thousand levels deep cannot exhaust the interpreter's stack.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Final, NamedTuple

from quietedit.article.dom import (
    INLINE_TAGS,
    LINK_END,
    LINK_START,
    SKIPPED_TAGS,
    TAG_NAMES,
    RawHead,
    collect,
    collect_element,
    collect_skipped,
    tag_name,
)
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
_HTML_SPACE: Final = " \t\n\f\r"  # what HTML counts as white space, unlike str.isspace


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
    """The text gathered since the last block boundary, the box it belongs to, and the
    state of the text run.

    The walk reads the parsed page as it is, inline markup and all, but must see its text
    as a browser lays it out: what inline elements (``<b>``, ``<a>``, ``<span>``) split
    into several text nodes is one *run* of text, and a run of nothing but white space
    between two elements says nothing. A run ends at every element that stays in the
    layout (a block, a ``<br>``, an unknown element) and at a comment; white space at the
    start of a run is held until the run shows it holds more.
    """

    __slots__ = (
        "box", "breaks", "has_text", "in_link", "in_run", "parts", "pending", "segments"
    )  # fmt: skip

    def __init__(self, box: Box) -> None:
        self.box = box  # the box the gathered text belongs to
        self.parts: list[str] = []
        self.segments: list[Segment] = []
        self.in_link = False
        self.in_run = False  # the current run holds more than white space
        self.pending = ""  # the white space a run began with, until it holds more
        self.breaks = 0  # <br> met since the last text
        self.has_text = False  # text gathered, not only link marks and line breaks

    def text(self, text: str, *, mark: bool = False) -> None:
        """A text node, or a link mark (``mark``), in document order."""
        if self.in_run:
            self.parts.append(text)
            self.has_text = self.has_text or not mark
            return
        if not text.strip(_HTML_SPACE):
            self.pending += text
            return
        self.in_run = True
        if self.breaks:
            if self.breaks > 1:
                self.flush()  # two <br> in a row end a block (ticker entries, old CMSs)
            self.breaks = 0
        if self.pending:
            self.parts.append(self.pending)
            self.pending = ""
        self.parts.append(text)
        self.has_text = self.has_text or not mark

    def boundary(self) -> None:
        """An element that stays in the layout, or a comment: the text run ends."""
        self.in_run = False
        self.pending = ""

    def line_break(self) -> None:
        """A ``<br>``: a space, and with the next one, the end of the block."""
        self.boundary()
        self.breaks += 1
        self.parts.append(" ")

    def enter(self, box: Box) -> None:
        """A box starts: the text before it is a segment of the enclosing box."""
        self.boundary()
        if self.parts:
            self.flush()
        self.breaks = 0
        self.box = box

    def leave(self, box: Box, top: Box) -> None:
        """``box`` ends: its text so far is a segment; what follows is its parent's."""
        self.boundary()
        if self.parts:
            self.flush()
        self.box = box.parent or top

    def flush(self) -> None:
        """The gathered text, if any, becomes a segment of the current box."""
        if not self.has_text:
            # Only link marks and line breaks (an icon link, a <br>): no segment, but a
            # link may open or close here. The last mark says which.
            for part in reversed(self.parts):
                if part in (LINK_START, LINK_END):
                    self.in_link = part == LINK_START
                    break
            self.parts.clear()
            return
        self.has_text = False
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
            self.segments.append(_new_segment(Segment, (text, self.box, links)))

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


# What a level of the walk is, for what happens when it ends.
_IN_LAYOUT: Final = 0  # an element that stays in the layout: the text run ends
_INLINE: Final = 1  # inline markup: its text runs on
_LINK: Final = 2  # a link: its text runs on, and its end is marked


def walk(root: Any, head: RawHead) -> tuple[list[Segment], list[Box]]:
    """Walk a parsed page's ``<body>`` and return its segments and boxes in document order.

    Text directly inside a block element makes one segment; a nested block ends the
    segment before it and starts its own. Two ``<br>`` in a row end a segment too (ticker
    entries and old CMSs separate paragraphs that way); one ``<br>`` is a space. Inline
    markup is read through, a link's text between :data:`~quietedit.article.dom.LINK_START`
    and :data:`~quietedit.article.dom.LINK_END` (so that link density can be measured).
    What no reader sees — scripts, styles, media, form controls, navigation, figure
    captions (:data:`~quietedit.article.dom.SKIPPED_TAGS`), inline elements hidden by an
    attribute, inline style or hiding class — is skipped, but its metadata goes into
    ``head`` (:func:`~quietedit.article.dom.collect`); a hidden block is kept as a box
    marked :attr:`Hint.HIDDEN`, for :mod:`quietedit.article.locate` to judge.
    """
    top = Box(None, "body", Hint.NONE, 0)
    collector = _Collector(top)
    boxes = [top]
    block_tags = BLOCK_TAGS
    inline_tags = INLINE_TAGS
    skipped_tags = SKIPPED_TAGS
    landmarks = _LANDMARKS
    negative = _NEGATIVE
    none = Hint.NONE
    hidden = Hint.HIDDEN
    weak = Hint.WEAK
    names = TAG_NAMES
    # The children still to visit at each level, what each level is, and the box each
    # level opened (or None). iter(include_text, skip_empty): positional, as keywords
    # cost a parse on every call; white-space text is kept, as it may separate words.
    levels: list[Iterator[Any]] = [root.iter(True, False)]
    kinds: list[int] = [_IN_LAYOUT]
    opened: list[Box | None] = [None]
    while levels:
        for node in levels[-1]:
            tag = names.get(node.tag_id) or tag_name(node)
            if tag == "-text":
                collector.text(node.text_content)
                continue
            if tag in inline_tags:
                if collect_element(node, tag, head, in_head=False):
                    collect(node, head)  # hidden: its text goes, its metadata counts
                    continue
                if node.first_child is not None:
                    if tag == "a":
                        collector.text(LINK_START, mark=True)
                        kinds.append(_LINK)
                    else:
                        kinds.append(_INLINE)
                    opened.append(None)
                    levels.append(node.iter(True, False))
                    break
                # An empty inline element stays in the layout: an icon (<i class=...>),
                # an ad slot (<span class="ad">) — judged by its class like any other.
            if tag in skipped_tags:
                collect_skipped(node, tag, head)
                continue
            if tag == "br":
                collector.line_break()
                continue
            collector.boundary()
            if tag == "-comment":
                continue
            hint = none
            label = ""
            attributes: dict[str, str | None] = node.attributes
            if attributes:
                hint, label = _element_hint(tag, attributes)
                if hint is hidden and tag not in block_tags:
                    collect(node, head)
                    continue
            elif tag in landmarks:
                hint = weak
            if tag in block_tags:
                box = Box(collector.box, tag, hint, len(boxes), label)
            elif hint in negative:
                # An inline element with a telling class (a custom ad slot) is judged
                # apart like a block, so that its text can be dropped on its own.
                box = Box(collector.box, collector.box.tag, hint, len(boxes), label)
            else:
                kinds.append(_IN_LAYOUT)
                opened.append(None)
                levels.append(node.iter(True, False))
                break
            collector.enter(box)
            boxes.append(box)
            kinds.append(_IN_LAYOUT)
            opened.append(box)
            levels.append(node.iter(True, False))
            break
        else:
            levels.pop()
            kind = kinds.pop()
            ended = opened.pop()
            if kind == _LINK:
                collector.text(LINK_END, mark=True)
            elif kind == _IN_LAYOUT:
                if ended is None:
                    collector.boundary()
                else:
                    collector.leave(ended, top)
                    ended.end = len(boxes) - 1
    if collector.parts:
        collector.box = top
        collector.flush()
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
        found = _described_hint(key[0], key[1], key[2], key[3], key[4])
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
