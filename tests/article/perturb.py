"""Page perturbations for the stability tests: furniture-only changes and real edits.

Every function takes a page's serialised HTML (lexbor's ``tree.html``, so that element
HTML found in the tree is found verbatim in the document) and returns a changed document.
Furniture is located by class and id words ("related", "share", "comment" …) and is only
touched where it holds none of the article's text (``keep``), so that a perturbation can
never be a real edit.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import Any

from selectolax.lexbor import LexborHTMLParser

from quietedit.article.blocks import normalize_space

Perturbation = Callable[[str, Sequence[str], random.Random], str]

FURNITURE_WORDS = (
    "related", "more-stories", "most-read", "most-popular", "recommend", "trending",
    "rail", "sidebar", "widget", "teaser", "taboola", "outbrain", "latest", "popular",
)  # fmt: skip
COUNTER_WORDS = ("share", "comment", "count", "social", "reaction", "like")
HEADLINES = (
    "Harbour ferry timetable changes from Monday",
    "Council to review parking charges next spring",
    "Record crowds at the winter market this weekend",
    "Library extends opening hours over the holidays",
    "New cycle lane opens along the river path",
)
COOKIE_BANNER = (
    '<div id="onetrust-banner-sdk" class="otFlat" role="region" aria-label="Cookie banner">'
    "<p>We use cookies and similar technologies to run this site, to measure how it is "
    "used and to show you personalised advertising. You can change your choice at any "
    "time in the privacy settings.</p><button>Accept all</button><button>Reject all"
    "</button></div>"
)


def serialize(html: str | bytes) -> str:
    """The page as lexbor serialises it (windows-1252 bytes are decoded first)."""
    if isinstance(html, bytes):
        html = html.decode("utf-8") if _is_utf8(html) else html.decode("windows-1252")
    serialized: str = LexborHTMLParser(html).html or ""
    return serialized


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _labelled(tree: Any, words: Sequence[str], keep: Sequence[str]) -> list[Any]:
    """Elements whose class or id has one of ``words`` and whose text holds none of ``keep``."""
    found = []
    for node in tree.css("[class], [id]"):
        label = f"{node.attributes.get('class') or ''} {node.attributes.get('id') or ''}"
        if not any(word in label.lower() for word in words):
            continue
        text = normalize_space(node.text())
        if any(snippet in text for snippet in keep):
            continue
        found.append(node)
    return found


def _outermost(nodes: list[Any]) -> list[Any]:
    """The nodes that are not inside another node of the list (by serialised HTML)."""
    htmls = [node.html or "" for node in nodes]
    return [
        node
        for node, html in zip(nodes, htmls, strict=True)
        if html and not any(html != other and html in other for other in htmls)
    ]


def reorder_related_links(doc: str, keep: Sequence[str], rng: random.Random) -> str:
    """Shuffle the items of every related-links list."""
    tree = LexborHTMLParser(doc)
    for box in _outermost(_labelled(tree, FURNITURE_WORDS, keep)):
        for parent in [box, *box.css("ul, ol")]:
            items = [child.html for child in parent.iter() if child.tag in {"li", "div", "p"}]
            if len(items) < 2:
                continue
            shuffled = items[:]
            rng.shuffle(shuffled)
            joined = "".join(item or "" for item in items)
            if joined in doc:
                doc = doc.replace(joined, "".join(item or "" for item in shuffled), 1)
    return doc


def replace_related_links(doc: str, keep: Sequence[str], rng: random.Random) -> str:
    """Give every link in a related-links box another headline."""
    tree = LexborHTMLParser(doc)
    for box in _outermost(_labelled(tree, FURNITURE_WORDS, keep)):
        for link in box.css("a"):
            old = link.html or ""
            text = link.text()
            if old and text.strip() and old in doc:
                doc = doc.replace(old, old.replace(text, rng.choice(HEADLINES)), 1)
    return doc


def renumber_ads(doc: str, keep: Sequence[str], rng: random.Random) -> str:
    """New ids for ad slots (``div-gpt-ad-…``, ``ad-…``), as every page view gets."""

    def new_id(match: re.Match[str]) -> str:
        return f'{match.group(1)}="{match.group(2)}{rng.randrange(10**6, 10**7)}"'

    return re.sub(r'(id|data-slot)="((?:div-gpt-ad|ad|gpt|arcad)[-_][^"]*?)\d*"', new_id, doc)


def change_counts(doc: str, keep: Sequence[str], rng: random.Random) -> str:
    """Other numbers in share and comment counters."""
    tree = LexborHTMLParser(doc)
    for box in _outermost(_labelled(tree, COUNTER_WORDS, keep)):
        old = box.html or ""
        if old and old in doc and re.search(r">[^<]*\d", old):
            new = re.sub(r"(>[^<\d]*)(\d+)", lambda m: m.group(1) + str(rng.randrange(1, 999)), old)
            doc = doc.replace(old, new, 1)
    return doc


def change_furniture_times(doc: str, keep: Sequence[str], rng: random.Random) -> str:
    """Other relative times ("3 hours ago") and dates in related boxes and sidebars."""
    tree = LexborHTMLParser(doc)
    for box in _outermost(_labelled(tree, FURNITURE_WORDS, keep)):
        old = box.html or ""
        if old and old in doc:
            new = re.sub(
                r"\b\d+\s*(minutes?|hours?|days?|h|m)\s+ago\b",
                lambda m: f"{rng.randrange(2, 59)} {m.group(1)} ago",
                old,
            )
            new = re.sub(r"\b(\d{1,2}) (November|October|Nov\.|Oct\.)", r"2\1 \2", new)
            doc = doc.replace(old, new, 1)
    return doc


def add_cookie_banner(doc: str, keep: Sequence[str], rng: random.Random) -> str:
    """A consent banner as the first thing in the body."""
    return re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + COOKIE_BANNER, doc, count=1)


FURNITURE_CHANGES: dict[str, Perturbation] = {
    "reordered-related-links": reorder_related_links,
    "replaced-related-links": replace_related_links,
    "new-ad-ids": renumber_ads,
    "share-and-comment-counts": change_counts,
    "furniture-timestamps": change_furniture_times,
    "cookie-banner": add_cookie_banner,
}


def _paragraph_element(doc: str, texts: Sequence[str]) -> tuple[str, str] | None:
    """A ``<p>`` of the body whose text is one of ``texts``: (its text, its HTML)."""
    tree = LexborHTMLParser(doc)
    paragraphs = [(normalize_space(node.text()), node.html or "") for node in tree.css("p")]
    page_text = normalize_space(tree.body.text(separator=" ") if tree.body else "")
    wanted = set(texts)
    for text, html in paragraphs:
        # A text the page repeats elsewhere (a teaser, a promo strip) is not unambiguous.
        if (
            text in wanted
            and len(text) > 60
            and page_text.count(text) == 1
            and doc.count(html) == 1
        ):
            return text, html
    return None


def change_one_word(doc: str, texts: Sequence[str]) -> str | None:
    """The page with one word of a body paragraph replaced, or None if none can be."""
    found = _paragraph_element(doc, texts)
    if found is None:
        return None
    _, html = found
    for word in sorted(set(re.findall(r">([^<]*)<", html)), key=len, reverse=True):
        for candidate in re.findall(r"\b[A-Za-z]{5,}\b", word):
            if html.count(candidate) == 1:
                return doc.replace(html, html.replace(candidate, candidate[::-1].lower()), 1)
    return None


def add_paragraph(doc: str, texts: Sequence[str]) -> str | None:
    """The page with a new paragraph after a body paragraph."""
    found = _paragraph_element(doc, texts)
    if found is None:
        return None
    _, html = found
    extra = "<p>A spokesperson declined to comment further when asked on Tuesday evening.</p>"
    return doc.replace(html, html + extra, 1)


def remove_paragraph(doc: str, texts: Sequence[str]) -> str | None:
    """The page without one of its body paragraphs."""
    found = _paragraph_element(doc, texts)
    if found is None:
        return None
    return doc.replace(found[1], "", 1)


REAL_EDITS = {
    "one-word-changed": change_one_word,
    "paragraph-added": add_paragraph,
    "paragraph-removed": remove_paragraph,
}
