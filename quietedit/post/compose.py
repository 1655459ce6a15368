"""Which edits are posted, and what each post says (pure: no I/O, no clock).

``select_edits`` keeps the edits that ``settings.post`` asks for (a kind of
``post.kinds``, a significance of ``post.significance``, a verdict of ``post.verdicts``,
seen within ``post.max_age`` of ``now``), oldest first, so that a thread reads in the
order the edits happened. ``compose_post`` writes one post per edit: the same words for
Mastodon (with the edit page's address, 500 characters at most) and Bluesky (300
characters), and an image with its alt text when the site has one for the edit.

On Bluesky a post holds one embed. With an image it is the image (``app.bsky.embed.images``,
which has alt text; a link card's thumbnail has none), and the address is a link facet
over its last line, shortened for display as Bluesky's own app does. Without one it is a
link card (``app.bsky.embed.external``) the client builds: Bluesky fetches nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from quietedit.config.settings import PostSettings
from quietedit.model import parse_timestamp
from quietedit.publish.pages import Edit
from quietedit.publish.text import clean_text

MASTODON_LIMIT: Final = 500
"""Characters of a Mastodon post (the default of a Mastodon server)."""
MASTODON_URL_LENGTH: Final = 23
"""What Mastodon counts for any link, however long."""
BLUESKY_LIMIT: Final = 300
"""Graphemes of a Bluesky post (app.bsky.feed.post's ``text``: maxGraphemes 300); counted
here as code points, which are never fewer than graphemes."""
CARD_TITLE: Final = 300
CARD_DESCRIPTION: Final = 1000
"""Characters kept of a link card's title and description."""
SHOWN_LINK: Final = 40
"""Characters of the address shown in a Bluesky post's text (the facet holds all of it)."""
_SHORT: Final = 90
"""Characters of a headline quoted in a post before it is cut."""

VERDICT_WORDS: Final = {
    "silent": "Silent edit",
    "technical": "Edit with only a new date",
    "proper": "Edit the publisher noted",
    "unknown": "Edit",
}


@dataclass(frozen=True, slots=True)
class PostImage:
    """An image for a post: PNG bytes and the same content in words."""

    png: bytes
    alt: str


@dataclass(frozen=True, slots=True)
class Post:
    """What is posted about one edit, on both networks.

    ``key`` names the edit (``<document>/<number>``) in the posted-ledger; ``mastodon``
    ends with ``link``. With an image, ``bluesky`` ends with the address shortened, and
    ``link_span`` is where it is in the text's UTF-8 bytes (``[start, end)``, a link
    facet's ``byteSlice``); without one, ``bluesky`` has no address, and the card
    (``link``, ``card_title``, ``card_description``) carries it.
    """

    key: str
    document: str
    number: int
    observed_at: str
    mastodon: str
    bluesky: str
    link: str
    card_title: str
    card_description: str
    image: PostImage | None = None
    link_span: tuple[int, int] | None = None


def verdict_of(edit: Edit) -> str:
    """``silent``, ``technical``, ``proper`` or ``unknown``: the words of ``post.verdicts``."""
    if edit.silent is None:
        return "unknown"
    if edit.silent:
        return "silent"
    return "technical" if edit.notice == "technical" else "proper"


def post_key(document: str, number: int) -> str:
    """How the posted-ledger names an edit."""
    return f"{document}/{number}"


def select_edits(edits: Iterable[Edit], settings: PostSettings, *, now: datetime) -> list[Edit]:
    """The edits ``settings`` asks to post, seen at most ``max_age`` before ``now``,
    oldest first (ties by document and number, so the order never depends on the input's)."""
    oldest = now - timedelta(seconds=settings.max_age)
    kinds = set(settings.kinds)
    chosen = [
        edit
        for edit in edits
        if kinds.intersection(edit.kinds)
        and edit.significance in settings.significance
        and verdict_of(edit) in settings.verdicts
        and oldest <= parse_timestamp(edit.observed_at) <= now
    ]
    return sorted(chosen, key=lambda e: (e.observed_at, e.document, e.number))


def compose_post(
    edit: Edit, *, link: str, source_name: str, image: PostImage | None = None
) -> Post:
    """The post about ``edit``, whose page is at ``link``."""
    head = f"{VERDICT_WORDS[verdict_of(edit)]} · {_one_line(source_name)}"
    title = _one_line(edit.title)
    lines = [head, f"“{_cut(title, _SHORT)}”"]
    old_title = _one_line(edit.old_title)
    if "headline" in edit.kinds and old_title and old_title != title:
        lines.append(f"Headline was: “{_cut(old_title, _SHORT)}”")
    lines.append(f"{', '.join(edit.kinds)} · {edit.significance}")
    excerpt = excerpt_text(edit.excerpt)
    mastodon = _fit(lines, excerpt, MASTODON_LIMIT - MASTODON_URL_LENGTH - 1) + "\n" + link
    bluesky, span = _fit(lines, excerpt, BLUESKY_LIMIT), None
    if image is not None:
        shown = shown_link(link)
        body = _fit(lines, excerpt, BLUESKY_LIMIT - len(shown) - 1) + "\n"
        bluesky = body + shown
        span = (len(body.encode()), len(bluesky.encode()))
    description = _one_line(edit.summary)
    if excerpt:
        description = f"{description} — {excerpt}" if description else excerpt
    return Post(
        key=post_key(edit.document, edit.number),
        document=edit.document,
        number=edit.number,
        observed_at=edit.observed_at,
        mastodon=mastodon,
        bluesky=bluesky,
        link=link,
        card_title=_cut(f"{head}: {title}", CARD_TITLE),
        card_description=_cut(description, CARD_DESCRIPTION),
        image=image,
        link_span=span,
    )


def shown_link(link: str) -> str:
    """``link`` as a post shows it: without its scheme, cut to :data:`SHOWN_LINK`."""
    bare = link.split("://", 1)[-1]
    return _cut(bare, SHOWN_LINK)


def excerpt_text(segments: Iterable[tuple[str, str]]) -> str:
    """The edit's excerpt in words: ``[deleted: …]`` and ``[added: …]`` around kept text."""
    out: list[str] = []
    for op, text in segments:
        words = _one_line(text)
        if not words:
            continue
        if op == "-":
            out.append(f"[deleted: {words}]")
        elif op == "+":
            out.append(f"[added: {words}]")
        else:
            out.append(words)
    return " ".join(out)


def _one_line(text: str) -> str:
    return " ".join(clean_text(text).split())


def _cut(text: str, size: int) -> str:
    return text if len(text) <= size else text[: size - 1].rstrip() + "…"


def _fit(lines: list[str], excerpt: str, limit: int) -> str:
    """``lines`` and as much of ``excerpt`` as fits in ``limit`` characters."""
    body = "\n".join(lines)
    if len(body) > limit:
        return _cut(body, limit)
    room = limit - len(body) - 1
    if excerpt and room >= 20:
        body += "\n" + _cut(excerpt, room)
    return body
