"""Where the article is on the page: which boxes are furniture, which box holds the text.

Every segment is worth something to the boxes around it: its length when it reads like
prose, minus its length when it is a link list, nothing when it is a short label. The
article's *container* is the box with the highest sum — it holds the article's
paragraphs and as little else as possible — with a bonus for a box whose class says
"article body".

Class hints (:mod:`quietedit.article.furniture`) make boxes *furniture*, but never
blindly: a hinted box that holds a large share of the page's prose is a wrapper with an
unlucky class ("has-sidebar", "ad-wrapper" around a Drupal body, a React ``<div hidden>``
a script reveals), and keeps its text. All sums are taken once per box, bottom-up over
the boxes in reverse document order, so locating costs O(boxes + segments).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from quietedit.article.blocks import Box, Segment
from quietedit.article.furniture import Hint

# A segment reads as prose when it has this many words or characters (scripts without
# spaces between words), or ends a sentence.
PROSE_MIN_WORDS: Final = 8
PROSE_MIN_CHARS: Final = 50
SENTENCE_END: Final = frozenset('.!?"\u201d\u201c\u00bb\u00ab\u3002\uff01\uff1f\u300d')
# Above this share of link text a block is a link list, not prose (readability uses 0.5).
LINK_DENSITY_MAX: Final = 0.5
# A furniture hint is ignored on a box holding at least this share of the page's prose:
# themes put "sidebar" on page-wide wrappers and "ad" or "paywall" on article bodies, but
# comment threads can outgrow the article they follow. A block hidden by a class or an
# attribute is furniture unless it holds more than a duplicate (mobile and desktop
# copies of the same text) could.
HINT_OVERRULE: Final = {
    Hint.HIDDEN: 0.6,
    Hint.ALWAYS: 0.85,
    Hint.STRONG: 0.5,
    Hint.WEAK: 0.4,
}
# ...and a strong hint on a box wrapping a content-marked box ("entry-content") that holds
# at least this share.
CONTENT_OVERRULE: Final = 0.3
# What furniture and link text cost the box holding them, per character.
FURNITURE_COST: Final = 1.0
LINK_COST: Final = 1.0
# A box marked as the article ("article-body", itemprop=articleBody) scores this much more.
CONTENT_HINT_BONUS: Final = 1.5


def prose_value(segment: Segment) -> float:
    """What a segment adds to the box holding it: + for prose, - for link lists."""
    text = segment.text
    length = len(text)
    links = segment.link_chars
    if links > LINK_DENSITY_MAX * length:
        return -LINK_COST * length
    if segment.box.kind == "heading":
        return 0.0
    if (
        length < PROSE_MIN_CHARS
        and text[-1] not in SENTENCE_END
        and text.count(" ") + 1 < PROSE_MIN_WORDS
    ):
        return -LINK_COST * links
    return float(length - links)


class PageLayout:
    """The segments and boxes of one page, with its furniture and its article's container.

    ``boxes`` must be in document order with ``box.order`` their index and ``box.end``
    the index of their last descendant, as :func:`quietedit.article.blocks.walk` makes
    them.
    """

    def __init__(self, segments: Sequence[Segment], boxes: Sequence[Box]) -> None:
        self.segments = segments
        self.boxes = boxes
        self.prose = prose = list(map(prose_value, segments))
        count = len(boxes)
        # Every sum runs over plain lists indexed by box order: a page has hundreds of
        # boxes, and this is the cheapest way for Python to visit them.
        up = [box.parent.order if box.parent is not None else -1 for box in boxes]
        hints = [box.hint for box in boxes]
        held = [0.0] * count  # prose held by each box
        for segment, value in zip(segments, prose, strict=True):
            if value > 0:
                held[segment.box.order] += value
        for order in range(count - 1, 0, -1):  # children come after their parents
            if up[order] >= 0:
                held[up[order]] += held[order]
        content = [0.0] * count  # largest content-marked box inside each box
        headline = [False] * count  # whether an <h1> is inside each box
        for box in boxes:
            if box.hint is Hint.CONTENT:
                _raise_ancestors(content, up, box.order, held[box.order])
            if box.tag == "h1":
                _mark_ancestors(headline, up, box.order)
        total = held[0] if count else 0.0
        # Parents come before their children, so a furniture parent is known in time.
        furniture = [False] * count
        none, marked, weak, strong = Hint.NONE, Hint.CONTENT, Hint.WEAK, Hint.STRONG
        for order in range(count):
            parent = up[order]
            if parent >= 0 and furniture[parent]:
                furniture[order] = True
                continue
            hint = hints[order]
            if hint is none or hint is marked or (hint is weak and headline[order]):
                # The header that holds the headline ("article-header") is the article's.
                continue
            if not total:
                furniture[order] = True
                continue
            share = held[order] / total
            wrapped = content[order] / total
            if share < HINT_OVERRULE[hint] and not (hint is strong and wrapped >= CONTENT_OVERRULE):
                furniture[order] = True
        self._furniture = furniture
        self.container = self._best_container(up, hints)

    def is_furniture(self, segment: Segment) -> bool:
        """Whether the segment sits in a furniture box."""
        return self._furniture[segment.box.order]

    def in_container(self, segment: Segment) -> bool:
        """Whether the segment is inside the article's container."""
        container = self.container
        return container.order <= segment.box.order <= container.end

    def _best_container(self, up: list[int], hints: list[Hint]) -> Box:
        boxes = self.boxes
        scores = [0.0] * len(boxes)
        furniture = self._furniture
        for segment, prose in zip(self.segments, self.prose, strict=True):
            order = segment.box.order
            scores[order] += -FURNITURE_COST * len(segment.text) if furniture[order] else prose
        for order in range(len(boxes) - 1, 0, -1):
            if up[order] >= 0:
                scores[up[order]] += scores[order]
        # A page without any prose (a stub, a single line) is all container; among equal
        # scores the innermost box wins, as it holds the same text with less around it.
        best = 0
        best_score = 0.0
        marked = Hint.CONTENT
        for order, score in enumerate(scores):
            if hints[order] is marked:
                score *= CONTENT_HINT_BONUS
            if score > best_score or (
                score == best_score and score > 0 and boxes[order].depth > boxes[best].depth
            ):
                best, best_score = order, score
        return boxes[best]


def _raise_ancestors(values: list[float], up: list[int], order: int, value: float) -> None:
    """Raise ``values`` of the box at ``order`` and of all its ancestors to at least ``value``."""
    while order >= 0:
        if values[order] < value:
            values[order] = value
        order = up[order]


def _mark_ancestors(marks: list[bool], up: list[int], order: int) -> None:
    """Mark the box at ``order`` and all its ancestors."""
    while order >= 0 and not marks[order]:
        marks[order] = True
        order = up[order]
