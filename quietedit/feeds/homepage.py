"""A home or section page read as a feed: each article it links to and its headline (pure).

News fronts are built of cards: a link around a kicker, a heading and a teaser; a heading
whose link is the headline while an image beside it links to the same story; an overlay
link with only an ``aria-label``; "most read" lists repeating the day's stories with
shorter titles; relative times ("5 minutes ago", "vor 6 Min") and comment counts inside
the link. :func:`read_homepage` finds every link to an article of the page's own site
(navigation, header, footer and forms left out; home and section fronts, other sites,
fragments left out) and, for each article, the one headline a reader sees for it:

1. a heading (``h1`` to ``h6``, or an element whose class, ``data-testid`` or ``itemprop``
   says headline or title) inside the link;
2. the link's text, when the link is inside such a heading;
3. the link's ``aria-label`` or ``title``;
4. the link's text;
5. for a link without text (an overlay, a picture), the one heading of the card around it;
6. the ``alt`` of an image in the link.

An article linked several times takes the best of these (the first in the page among
equals). Kickers, labels, section names, bylines, times, counts, teasers and
screen-reader-only text are left out of a headline (by their class), and so are relative
times and clock times written into it, so that "vor 6 Min" becoming "vor 7 Min" is no
retitle. Links are canonical URLs (:func:`~quietedit.article.identity.canonical_url`).
Never raises; hostile pages are bounded (:data:`MAX_ANCHORS`, :data:`MAX_LINKS`).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urljoin, urlsplit

from quietedit.article.blocks import normalize_space
from quietedit.article.dom import parse
from quietedit.article.encoding import UTF8, resolve_encoding
from quietedit.article.identity import canonical_url, is_home_or_section, registrable_domain
from quietedit.article.masks import MASKS
from quietedit.errors import InvalidURLError

MAX_ANCHORS: Final = 5_000
"""Links looked at per page: a front page has a few hundred."""
MAX_LINKS: Final = 1_000
"""Articles recorded per page, the first in the page."""
MAX_HEADLINE: Final = 300
"""Characters of a headline; longer text is a teaser or a whole card, cut at a word."""
MIN_CHARS: Final = 10
"""A headline has at least this many characters and two words ("Brexit deal agreed"),
or, in a script written without spaces, at least :data:`MIN_CHARS_UNSPACED` characters."""
MIN_CHARS_UNSPACED: Final = 5
CARD_LEVELS: Final = 5
"""Ancestors of a link searched for the card heading it stands for."""

_HEADINGS: Final = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_PROMO: Final = frozenset({"ref", "intcmp", "icid", "xtor", "ito", "cmpid", "src"})
"""Query parameters of a front page's links that name the slot, not the article."""
_SKIPPED: Final = frozenset(
    {"script", "style", "noscript", "template", "svg", "time", "button", "select", "iframe"}
)
# inline elements whose text runs on into the next without a space; every other element
# boundary (a span laid out as a line of its own, a div) is a space
_RUN_ON: Final = frozenset(
    {"a", "b", "strong", "em", "i", "u", "mark", "abbr", "sup", "sub", "q", "cite", "small"}
)
_OUT_OF_BODY: Final = frozenset({"nav", "footer", "form"})
_OUT_ROLES: Final = frozenset(
    {"navigation", "contentinfo", "banner", "search", "menu", "menubar", "dialog"}
)
_HEADLINE_WORDS: Final = ("headline", "title", "heading", "titel", "titre", "titulo", "titular")
# class words of what stands in a card beside its headline (whole words of the class)
_NOT_HEADLINE: Final = frozenset(
    {
        "kicker", "eyebrow", "overline", "topline", "dachzeile", "flag", "badge", "label",
        "tag", "tags", "category", "rubric", "section", "byline", "author", "authors",
        "meta", "metadata", "timestamp", "time", "date", "dateline", "ago", "updated",
        "comments", "comment", "count", "counter", "duration", "rank", "number", "sr",
        "visually", "screen", "offscreen", "a11y", "hidden", "summary", "standfirst", "dek",
        "description", "excerpt", "lede", "intro", "icon", "caption", "credit", "sponsor",
        "sponsored", "promo", "subline", "strapline", "vorspann", "rang", "platz", "position",
    }
)  # fmt: skip
_GENERIC: Final = frozenset(
    {
        "read more", "more", "continue reading", "full story", "watch", "watch now",
        "listen", "play", "video", "comments", "see more", "view all", "weiterlesen",
        "mehr", "mehr lesen", "lire la suite", "lire plus", "leer más", "leggi tutto",
        "lees meer", "czytaj więcej", "läs mer", "ler mais",
    }
)  # fmt: skip
_WORD_SPLIT: Final = re.compile(r"[^a-z0-9]+")
_CAMEL: Final = re.compile(r"([a-z0-9])([A-Z])")
_RELATIVE_MASKS: Final = tuple(mask for mask in MASKS if mask.name.startswith("relative-time"))
# "5h", "12 min", "3 Std." at the end after a separator or a space; "10:42 Uhr" at either end
_COMPACT_AGE: Final = re.compile(
    r"(?:^|\s*[|\u00b7\u2022\u2013\u2014-]\s*|\s+)\d{1,2}\s?(?:m|min|mins|h|hr|hrs|std|d)\.?$",
    re.IGNORECASE,
)
_CLOCK: Final = re.compile(
    r"^\d{1,2}[:.]\d{2}(?:\s*Uhr)?\s*[|\u00b7\u2022:-]?\s*|\s*[|\u00b7\u2022-]?\s*\d{1,2}[:.]\d{2}(?:\s*Uhr)?$"
)
_EDGE: Final = " \t|\u00b7\u2022\u2013\u2014-:,;"
_UNSPACED: Final = re.compile(
    "[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]"
)


@dataclass(frozen=True, slots=True)
class HomepageLink:
    """An article the page links to (its canonical URL) and the headline shown for it."""

    url: str
    headline: str


@dataclass(frozen=True, slots=True)
class Homepage:
    """What one fetch of a home or section page showed: its articles in page order."""

    url: str
    links: tuple[HomepageLink, ...]
    problems: tuple[str, ...] = ()


def read_homepage(body: bytes, *, url: str, content_type: str | None = None) -> Homepage:
    """The articles ``body`` (the page fetched from ``url``) links to, each with its
    headline (see the module docstring)."""
    decision = resolve_encoding(body, content_type)
    # lexbor reads UTF-8 bytes itself, faster than through a str (as the extraction does)
    document: str | bytes
    if decision.encoding == UTF8:
        document = body[len(codecs.BOM_UTF8) :] if decision.source == "bom" else body
    else:
        document = decision.decode(body)
    tree = parse(document)
    if tree is None or tree.body is None:
        return Homepage(url, (), ("the page is empty",))
    base = url
    for node in tree.css("base[href]"):
        base = urljoin(url, (node.attributes.get("href") or "").strip())
        break
    try:
        site = registrable_domain(urlsplit(canonical_url(url)).hostname or "")
    except InvalidURLError:
        return Homepage(url, (), (f"{url!r} is no http(s) URL",))
    best: dict[str, tuple[int, int, str]] = {}  # url -> (rank, position, headline)
    problems: list[str] = []
    anchors = tree.body.css("a[href]")
    if len(anchors) > MAX_ANCHORS:
        problems.append(f"{len(anchors)} links; the first {MAX_ANCHORS} were read")
    for position, anchor in enumerate(anchors[:MAX_ANCHORS]):
        target = _article_url(anchor, base=base, page=url, site=site)
        if target is None or _outside_content(anchor):
            continue
        found = _headline(anchor)
        if found is None:
            continue
        rank, text = found
        known = best.get(target)
        if known is None:
            if len(best) >= MAX_LINKS:
                continue
            best[target] = (rank, position, text)
        elif rank < known[0]:
            best[target] = (rank, known[1], text)
    ordered = sorted(best.items(), key=lambda item: item[1][1])
    links = tuple(HomepageLink(link, text) for link, (_, _, text) in ordered)
    if not links:
        problems.append("no links to articles of this site were found")
    return Homepage(url, links, tuple(problems))


def _article_url(anchor: Any, *, base: str, page: str, site: str) -> str | None:
    """The canonical URL an anchor leads to, if it is an article of the page's site."""
    href = (anchor.attributes.get("href") or "").strip()
    if not href or href.startswith("#"):
        return None
    try:
        target = _without_promo(canonical_url(urljoin(base, href)))
        own = canonical_url(page)
    except (InvalidURLError, ValueError):
        return None
    if is_home_or_section(target) or urlsplit(target).path == urlsplit(own).path:
        return None  # a front, or this page again (another page of it, another sort)
    host = urlsplit(target).hostname or ""
    return target if registrable_domain(host) == site else None


def _without_promo(url: str) -> str:
    """``url`` without the parameters that say which slot of a front page a link was in
    (``?ref=hp``, ``?intcmp=…``): the same article must not become a document per slot."""
    parts = urlsplit(url)
    if not parts.query:
        return url
    kept = [pair for pair in parts.query.split("&") if pair.split("=", 1)[0].lower() not in _PROMO]
    return parts._replace(query="&".join(kept)).geturl()


def _outside_content(anchor: Any) -> bool:
    """Whether the anchor is in the page's navigation, header, footer, a form or a menu."""
    node = anchor.parent
    while node is not None and node.tag not in ("body", "html"):
        tag = node.tag
        attributes = node.attributes
        if tag in _OUT_OF_BODY or (attributes.get("role") or "") in _OUT_ROLES:
            return True
        if tag == "header" and node.parent is not None and node.parent.tag == "body":
            return True  # the page's masthead; a card's own <header> holds its headline
        node = node.parent
    return False


def _headline(anchor: Any) -> tuple[int, str] | None:
    """The best headline one anchor offers, with its rank (1 best, see the docstring)."""
    for inner in _descendants(anchor):
        if _is_heading(inner) and (text := _clean(_text(inner))):
            return 1, text
    if _inside_heading(anchor) and (text := _clean(_text(anchor))):
        return 2, text
    for attribute in ("aria-label", "title"):
        if text := _clean(anchor.attributes.get(attribute) or ""):
            return 3, text
    if text := _clean(_text(anchor)):
        return 4, text
    card = _card_heading(anchor)  # a link without text of its own: an overlay, a picture
    if card is not None and (text := _clean(_text(card))):
        return 5, text
    for image in anchor.css("img[alt]"):
        if text := _clean(image.attributes.get("alt") or ""):
            return 6, text
    return None


def _descendants(node: Any) -> Iterator[Any]:
    """The elements inside ``node`` in document order (iteratively: pages nest deep)."""
    stack = list(reversed(list(node.iter())))
    while stack:
        current = stack.pop()
        yield current
        if current.tag not in _SKIPPED:
            stack.extend(reversed(list(current.iter())))


def _words(node: Any) -> tuple[str, set[str]]:
    """The element's class, ``data-testid`` and ``itemprop``, lower case, and their words."""
    attributes = node.attributes
    raw = " ".join(
        value for name in ("class", "data-testid", "itemprop") if (value := attributes.get(name))
    )
    lowered = _CAMEL.sub(r"\1 \2", raw).lower()
    return lowered, set(_WORD_SPLIT.split(lowered))


def _is_heading(node: Any) -> bool:
    if node.tag in _HEADINGS:
        return True
    lowered, _ = _words(node)
    return any(word in lowered for word in _HEADLINE_WORDS)


def _is_beside_headline(node: Any) -> bool:
    """An element that stands beside a headline (a kicker, a time, a count, hidden text)."""
    attributes = node.attributes
    if "hidden" in attributes or attributes.get("aria-hidden") == "true":
        return True
    lowered, words = _words(node)
    if not words & _NOT_HEADLINE:
        return False
    return not any(word in lowered for word in _HEADLINE_WORDS)


def _inside_heading(anchor: Any) -> bool:
    node = anchor.parent
    for _ in range(3):
        if node is None or node.tag in ("body", "html"):
            return False
        if _is_heading(node):
            return True
        node = node.parent
    return False


def _card_heading(anchor: Any) -> Any | None:
    """The one heading of the nearest card around ``anchor`` that has one."""
    node = anchor.parent
    for _ in range(CARD_LEVELS):
        if node is None or node.tag in ("body", "html", "main"):
            return None
        targets = {
            (inner.attributes.get("href") or "").partition("#")[0].strip()
            for inner in node.css("a[href]")
        }
        if len(targets) > 1:
            return None  # a box of several links: its heading is not this link's
        headings = [inner for inner in _descendants(node) if inner.tag in _HEADINGS]
        if len(headings) == 1:
            return headings[0]
        if len(headings) > 1:
            return None  # a box of several stories: no heading of this link's own
        node = node.parent
    return None


def _text(node: Any) -> str:
    """The text a reader sees of ``node``, without what stands beside a headline."""
    parts: list[str] = []
    stack: list[Any] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, str):
            parts.append(current)
            continue
        tag = current.tag
        if tag == "-text":
            parts.append(current.text_content or "")
            continue
        if current is not node and (tag in _SKIPPED or _is_beside_headline(current)):
            continue
        if tag == "img" or tag == "-comment":
            continue
        spaced = tag not in _RUN_ON
        if spaced:
            stack.append(" ")
        stack.extend(reversed(list(current.iter(include_text=True))))
        if spaced:
            parts.append(" ")
    return "".join(parts)


def _clean(text: str) -> str:
    """A headline from raw text: one line, relative and clock times out, at most
    :data:`MAX_HEADLINE` characters; "" when what is left is no headline."""
    text = normalize_space(text)
    for mask in _RELATIVE_MASKS:
        if mask.apply(text) != text:
            text = normalize_space(mask.pattern.sub(" ", text))
    text = _CLOCK.sub("", _COMPACT_AGE.sub("", text)).strip(_EDGE)
    if len(text) > MAX_HEADLINE:
        text = text[:MAX_HEADLINE].rsplit(" ", 1)[0]
    if text.casefold() in _GENERIC:
        return ""
    if _UNSPACED.search(text):
        return text if len(text) >= MIN_CHARS_UNSPACED else ""
    return text if len(text) >= MIN_CHARS and " " in text else ""
