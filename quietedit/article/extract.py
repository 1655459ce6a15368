"""Article extraction: a page's bytes in, its headline, body blocks and publisher metadata out.

The stages, each in its own module:

1. decode (:func:`quietedit.article.encoding.resolve_encoding`), parse with lexbor and
   collect what ``<head>`` declares (:mod:`quietedit.article.dom`);
2. walk the body once, without changing it, into segments of text held by block-level
   boxes (:mod:`quietedit.article.blocks`): media, scripts, forms and hidden text are
   skipped (their metadata collected), inline markup is read through, link text marked;
   each box carries what its class, id and role say (:mod:`quietedit.article.furniture`);
3. locate the article (:mod:`quietedit.article.locate`): the box whose segments add up to
   the most prose, with furniture boxes decided by their hints and their share of text;
4. assemble: the container's blocks minus furniture lines, bylines, dates, "Updated"
   lines and the host's learnt furniture (:mod:`quietedit.article.profile`), the
   headline (:mod:`quietedit.article.titles`), and the publisher's metadata and notices
   (:mod:`quietedit.article.metadata`, :mod:`quietedit.article.notices`).

Pure and deterministic: the same input always gives the same :class:`Article`, and no
input — empty, binary, broken, hostile — makes it raise.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Sequence
from typing import Final

from quietedit.article.blocks import Box, Segment, walk
from quietedit.article.dom import parse, read_head
from quietedit.article.encoding import UTF8, EncodingDecision, resolve_encoding
from quietedit.article.furniture import is_boilerplate_line
from quietedit.article.languages import dateparser_languages
from quietedit.article.locate import LINK_DENSITY_MAX, PageLayout
from quietedit.article.metadata import PageMeta, read_metadata, split_authors
from quietedit.article.notices import (
    NOTE_MAX,
    UPDATED_LINE_MAX,
    byline_text,
    is_byline,
    is_date_line,
    is_note,
    is_updated_line,
    updated_line,
)
from quietedit.article.profile import HostProfile, furniture_key
from quietedit.article.titles import choose_title, same_title
from quietedit.model import JSON, Article, Block, Publisher

EXTRACTOR_VERSION: Final = "quietedit-extract/1"
"""The extractor's version, recorded in each derived record ``quietedit reextract`` writes.
Bump it with every change that alters what extraction gives for some page (a boilerplate
rule, a block boundary, decoding): a re-extraction skips the revisions this version has
read already, so an unbumped change would never be re-read."""

# Blocks above the headline this short (characters) are kickers and breadcrumbs.
KICKER_MAX: Final = 100
# A standfirst outside the body's container: at most this many blocks of this length.
STANDFIRST_MAX_BLOCKS: Final = 6
STANDFIRST_MIN_CHARS: Final = 40
# Longest block that can be a furniture line (a label, a byline, a date).
LINE_MAX: Final = 160
# Table cells up to this length are joined into one block per row.
CELL_MAX: Final = 200
CELL_SEPARATOR: Final = " | "
_CELLS: Final = frozenset({"td", "th"})
_ALNUM: Final = re.compile(r"[^\W_]")  # what str.isalnum accepts: \w without the underscore


def extract_article(
    html: bytes | str,
    *,
    url: str | None = None,
    content_type: str | None = None,
    profile: HostProfile | None = None,
    encoding: EncodingDecision | None = None,
) -> Article:
    """Extract the article of one page.

    ``html`` is the page as fetched (bytes are decoded by the page's declared encoding,
    ``content_type`` being the HTTP header's value) or already decoded; ``url`` is the
    page's address, used to resolve relative canonical and ``og:url`` links; ``profile``
    is the host's learnt template, whose furniture lines are dropped from the body;
    ``encoding`` is :func:`~quietedit.article.encoding.resolve_encoding`'s decision for
    these bytes when the caller has made it already (it is not made twice).

    Returns the headline (the article's ``<h1>``, else JSON-LD ``headline``, ``og:title``
    or the ``<title>`` without its site name), the body blocks in reading order, and the
    publisher's metadata. Never raises: a page with no article gives an empty title and
    no blocks.
    """
    document = html if isinstance(html, str) else _decode(html, content_type, encoding)
    tree = parse(document)
    if tree is None:
        return Article(title="")
    head = read_head(tree)
    body = tree.body
    if body is None:
        meta = read_metadata(head, url=url)
        return Article(title=choose_title(meta, ()), publisher=_publisher(meta, (), None))
    segments, boxes = walk(body, head)  # adds the metadata found in the body to head
    meta = read_metadata(head, url=url)
    scored = PageLayout(segments, boxes)
    furniture_lines = profile.furniture_keys() if profile is not None else frozenset()
    h1s = [s.text for s in segments if s.box.tag == "h1" and not scored.is_furniture(s)]
    title = choose_title(meta, h1s)
    first_updated, updated = _first_updated_line(segments)
    languages = dateparser_languages(meta.language)
    blocks = _body_blocks(scored, title, furniture_lines, first_updated, languages)
    return Article(title=title, blocks=blocks, publisher=_publisher(meta, segments, updated))


def _decode(
    body: bytes, content_type: str | None, decision: EncodingDecision | None
) -> str | bytes:
    """The page as lexbor should read it: UTF-8 bytes as they are, anything else as text.

    The encoding is :func:`quietedit.article.encoding.resolve_encoding`'s decision. lexbor
    decodes UTF-8 itself (faster than a round trip through ``str``), replacing invalid
    sequences with U+FFFD as the WHATWG decoder does.
    """
    if decision is None:
        decision = resolve_encoding(body, content_type)
    if decision.encoding == UTF8:
        return body[len(codecs.BOM_UTF8) :] if decision.source == "bom" else body
    return decision.decode(body)


def _body_blocks(
    page: PageLayout,
    title: str,
    furniture_lines: frozenset[str],
    first_updated: int,
    languages: tuple[str, ...] | None,
) -> tuple[Block, ...]:
    """The article's blocks: the container's, plus a standfirst between headline and body.

    The headline itself is left out, and so are short lines above it (kickers), figure
    captions, link lists, furniture lines, bylines, dates and "Updated" lines, and the
    host's learnt furniture. No segment before the one at ``first_updated`` is an
    "Updated" line (see :func:`_first_updated_line`); ``languages`` are the dateparser
    languages that date lines are read in (see
    :func:`~quietedit.article.languages.dateparser_languages`).
    """
    kept: list[Block] = []
    container = page.container
    title_seen = False
    standfirsts = 0
    last_row: Box | None = None  # the table row of the last block, if it was a short cell
    for index, segment in enumerate(page.segments):
        text = segment.text
        box = segment.box
        kind = box.kind
        inside = container.order <= box.order <= container.end
        if not title_seen and kind == "heading" and same_title(text, title):
            title_seen = True
            # Short lines above the headline are kickers, breadcrumbs and labels.
            if all(len(block.text) < KICKER_MAX for block in kept):
                kept.clear()
            continue
        if not inside:
            # Between a headline above the container and the container itself stands
            # the standfirst (dek), which publishers edit like the body.
            if not (
                title_seen
                and box.order < container.order
                and standfirsts < STANDFIRST_MAX_BLOCKS
                and len(text) >= STANDFIRST_MIN_CHARS
            ):
                continue
            standfirsts += 1
        if page.is_furniture(segment) or (box.figure and kind != "quote"):
            continue
        if float(segment.link_chars) > LINK_DENSITY_MAX * float(len(text)):  # machine floats
            continue
        if not text[:1].isalnum() and _ALNUM.search(text) is None:
            continue  # rules, dingbats and replacement characters say nothing
        if len(text) <= LINE_MAX and _is_furniture_line(text, index >= first_updated, languages):
            continue
        if furniture_lines and furniture_key(text) in furniture_lines:
            continue
        row = box.parent if box.tag in _CELLS else None
        if row is not None and row is last_row and len(text) <= CELL_MAX:
            # The short cells of one table row read best as one line.
            kept[-1] = Block(kept[-1].text + CELL_SEPARATOR + text, kept[-1].kind)
            continue
        last_row = row if row is not None and len(text) <= CELL_MAX else None
        kept.append(Block(text, kind))
    return tuple(kept)


def _is_furniture_line(text: str, maybe_updated: bool, languages: tuple[str, ...] | None) -> bool:
    """Whether a short line is a label, a byline, a date (read in ``languages`` too) or
    (when it ``maybe_updated``) an "Updated" line."""
    return (
        is_boilerplate_line(text)
        or (maybe_updated and is_updated_line(text))
        or is_byline(text)
        or is_date_line(text, languages=languages)
    )


def _first_updated_line(segments: Sequence[Segment]) -> tuple[int, str | None]:
    """The index of the first segment that is an "Updated …" line and its update part
    (:func:`~quietedit.article.notices.updated_line`); ``(len(segments), None)`` if none is.

    The publisher keeps the first such line and the body drops them all: found first,
    it spares the body a second look at every line before it (most pages have none).
    """
    for index, segment in enumerate(segments):
        text = segment.text
        if len(text) <= UPDATED_LINE_MAX and (found := updated_line(text)) is not None:
            return index, found
    return len(segments), None


def _publisher(meta: PageMeta, segments: Sequence[Segment], updated: str | None) -> Publisher:
    """What the page says about itself: its metadata, its first "Updated" line
    (``updated``) and the correction notes among its segments."""
    notes: list[str] = []
    for segment in segments:
        text = segment.text
        if len(text) <= NOTE_MAX and is_note(text) and text not in notes:
            notes.append(text)
    return Publisher(
        canonical_url=meta.canonical_url,
        og_url=meta.og_url,
        og_title=meta.og_title,
        headline=meta.headline,
        date_published=meta.date_published,
        date_modified=meta.date_modified,
        updated_line=updated,
        notes=tuple(notes),
        authors=meta.authors or _byline_authors(segments),
        language=meta.language,
    )


def _byline_authors(segments: Sequence[Segment]) -> tuple[str, ...]:
    """The names of the first visible byline, for pages whose metadata names nobody."""
    for segment in segments:
        if len(segment.text) <= LINE_MAX and (names := byline_text(segment.text)):
            return split_authors(names)
    return ()


def article_record(article: Article) -> dict[str, JSON]:
    """The JSON object ``quietedit extract --json`` prints for an article.

    ``title``; ``paragraphs``, the body blocks' text in reading order (the headline not
    among them); ``blocks``, the same with their kinds; ``metadata``, the publisher's.
    """
    return {
        "title": article.title,
        "paragraphs": [block.text for block in article.blocks],
        "blocks": [{"kind": block.kind, "text": block.text} for block in article.blocks],
        "metadata": article.publisher.to_record(),
    }


def article_json(article: Article, *, source: str) -> str:
    """The line ``quietedit extract --json`` prints: ``input`` (``source``) and the
    :func:`article_record`, on one line, non-ASCII text written as itself."""
    return json.dumps({"input": source, **article_record(article)}, ensure_ascii=False)
