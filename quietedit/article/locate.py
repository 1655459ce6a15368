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
# What furniture and link text cost the box holding them, per character. Whole numbers:
# PageLayout sums them in one pass and takes differences of the sums, which is exact only
# while every value is a whole number (a cost of 0.8 would make the order of adding count).
FURNITURE_COST: Final = 1.0
LINK_COST: Final = 1.0
# A box marked as the article ("article-body", itemprop=articleBody) scores this much more.
CONTENT_HINT_BONUS: Final = 1.5


def prose_value(segment: Segment) -> float:
    """What a segment adds to the box holding it: + for prose, - for link lists."""
    text = segment.text
    length = float(len(text))
    links = float(segment.link_chars)
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
    return length - links


class PageLayout:
    """The segments and boxes of one page, with its furniture and its article's container.

    ``boxes`` must be in document order with ``box.order`` their index and ``box.end``
    the index of their last descendant, as :func:`quietedit.article.blocks.walk` makes
    them.
    """

    def __init__(self, segments: list[Segment], boxes: list[Box]) -> None:
        self.segments = segments
        self.boxes = boxes
        count = len(boxes)
        # A box and its descendants are the boxes from its order to its end, so what they
        # hold together is the difference of two sums over the boxes from some order to
        # the last: one pass in reverse document order takes all those sums. The values
        # are numbers of characters times the costs (1.0), whole numbers, which floats add
        # exactly in any order, so the differences are the sums themselves. Plain lists
        # indexed by box order are the cheapest way for Python to visit the boxes.
        held = [0.0] * (count + 1)  # prose in each box's own segments, then from it on
        worth = [0.0] * (count + 1)  # what each box's own segments are worth (prose_value)
        cost = [0.0] * count  # ...and what they cost the page if the box is furniture
        for segment in segments:
            order = segment.box.order
            value = prose_value(segment)
            if value > 0:
                held[order] = held[order] + value
            worth[order] = worth[order] + value
            cost[order] = cost[order] - FURNITURE_COST * float(len(segment.text))
        content: list[float] | None = None  # largest content-marked box inside each box
        headline = [False] * count  # whether an <h1> is inside each box
        marked = Hint.CONTENT
        after = 0.0
        for order in range(count - 1, -1, -1):
            after += held[order]
            held[order] = after
            box = boxes[order]
            if box.hint is marked:
                if content is None:
                    content = [0.0] * count
                _raise_ancestors(content, box, after - held[box.end + 1])
            if box.tag == "h1":
                _mark_ancestors(headline, box)
        self._furniture = _furniture(boxes, held, content, headline, worth, cost)
        self.container = _best_container(boxes, worth)

    def is_furniture(self, segment: Segment) -> bool:
        """Whether the segment sits in a furniture box."""
        return self._furniture[segment.box.order]


def _furniture(
    boxes: list[Box],
    held: list[float],
    content: list[float] | None,
    headline: list[bool],
    worth: list[float],
    cost: list[float],
) -> list[bool]:
    """Whether each box is furniture, from the prose ``held`` from each box on, the largest
    content-marked box inside each box (``content``, None if there is none) and whether
    each holds an ``<h1>``; furniture boxes' ``worth`` becomes their ``cost``."""
    count = len(boxes)
    total = held[0]
    furniture = [False] * count
    none, marked, weak, strong = Hint.NONE, Hint.CONTENT, Hint.WEAK, Hint.STRONG
    # Parents come before their children, and a furniture box's descendants are
    # furniture too: the loop skips over them.
    order = 0
    while order < count:
        box = boxes[order]
        hint = box.hint
        if hint is none or hint is marked or (hint is weak and headline[order]):
            # The header that holds the headline ("article-header") is the article's.
            order += 1
            continue
        end = box.end
        if total:
            share = (held[order] - held[end + 1]) / total
            wrapped = content[order] / total if content is not None else 0.0
            if share >= HINT_OVERRULE[hint] or (hint is strong and wrapped >= CONTENT_OVERRULE):
                order += 1
                continue
        furniture[order : end + 1] = [True] * (end + 1 - order)
        worth[order : end + 1] = cost[order : end + 1]
        order = end + 1
    return furniture


def _best_container(boxes: list[Box], worth: list[float]) -> Box:
    """The box whose own and descendants' ``worth`` add up to the most (a box marked as
    the article's body scores more); ``worth`` becomes the sums from each box on.

    A page without any prose (a stub, a single line) is all container; among equal
    scores the innermost box wins, as it holds the same text with less around it, and
    among those the first.
    """
    best = boxes[0]
    best_score = 0.0
    marked = Hint.CONTENT
    after = 0.0
    # In reverse document order, so that an equal score of an earlier box, met later,
    # wins at the same depth.
    for order in range(len(boxes) - 1, -1, -1):
        after += worth[order]
        worth[order] = after
        box = boxes[order]
        score = after - worth[box.end + 1]
        if box.hint is marked:
            score *= CONTENT_HINT_BONUS
        if score > best_score or (score == best_score and score > 0 and box.depth >= best.depth):
            best, best_score = box, score
    return best


def _raise_ancestors(values: list[float], box: Box | None, value: float) -> None:
    """Raise ``values`` of ``box`` and of all its ancestors to at least ``value``."""
    while box is not None:
        if values[box.order] < value:
            values[box.order] = value
        box = box.parent


def _mark_ancestors(marks: list[bool], box: Box | None) -> None:
    """Mark ``box`` and all its ancestors."""
    while box is not None and not marks[box.order]:
        marks[box.order] = True
        box = box.parent
