"""A live blog's pages: its live updates listed on its article page, and their Atom feed.

The ingest records each check that found new posts on a live blog as one ``live-update``
event (:mod:`quietedit.decide.liveblog`); here each such event is one :class:`LiveUpdate`
— a run's new posts — listed newest first on the article page and one entry of
``articles/<id>/live.xml``, never an edit. The events that give a revision's layout
also let :func:`live_pairs` compare two revisions post by post.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from quietedit.analysis.liveblog import PublishedPost
from quietedit.decide.liveblog import live_layouts
from quietedit.model import BLOCK_KINDS, JSON, Block, format_timestamp
from quietedit.publish.atom import EPOCH, FEED_ENTRIES
from quietedit.publish.changes import LivePair
from quietedit.publish.pages import clean_text
from quietedit.publish.render import Renderer
from quietedit.revisions import Event

LIVE_KIND: Final = "live-update"
PAGE_UPDATES: Final = 100
"""Live updates listed on an article page, the newest; the API file has them all."""
PREVIEW_CHARS: Final = 280
"""Text shown of each post in the list and the feed (the API file has every block)."""


@dataclass(frozen=True, slots=True)
class LivePost:
    """One post of a live update, as shown: its key, its time as written, its text."""

    key: str
    published: str | None
    heading: str
    text: str


@dataclass(frozen=True, slots=True)
class LiveUpdate:
    """The posts one check found new on a live blog (``count`` of them; ``posts`` holds
    the first ones the event kept)."""

    number: int  # the event's number: its anchor and feed id
    observed_at: str
    count: int
    posts: tuple[LivePost, ...]

    @property
    def anchor(self) -> str:
        return f"live-{self.number}"

    @property
    def title(self) -> str:
        first = self.posts[0].heading or self.posts[0].text if self.posts else ""
        plural = "post" if self.count == 1 else "posts"
        short = first if len(first) <= 90 else first[:89] + "…"
        return f"{self.count} new {plural}" + (f": {short}" if short else "")


def live_updates(events: Sequence[Event]) -> list[LiveUpdate]:
    """The live updates among ``events``, oldest first (events without new posts, which
    only give a revision's layout, are none)."""
    found = []
    for event in events:
        count = event.detail.get("count")
        if event.kind != LIVE_KIND or not isinstance(count, int) or count <= 0:
            continue
        entries = event.detail.get("entries")
        posts = (
            tuple(post for item in entries if (post := _post(item)) is not None)
            if isinstance(entries, list)
            else ()
        )
        found.append(LiveUpdate(event.number, format_timestamp(event.observed_at), count, posts))
    return found


def _post(item: object) -> LivePost | None:
    if not isinstance(item, dict) or not isinstance(item.get("key"), str):
        return None
    published = item.get("published")
    blocks = item.get("blocks")
    texts = [
        (str(b.get("kind")), clean_text(b["text"]))
        for b in (blocks if isinstance(blocks, list) else [])
        if isinstance(b, dict) and isinstance(b.get("text"), str)
    ]
    heading = texts[0][1] if texts and texts[0][0] == "heading" else ""
    body = " ".join(text for kind, text in texts[1 if heading else 0 :])
    if len(body) > PREVIEW_CHARS:
        body = body[: PREVIEW_CHARS - 1].rstrip() + "…"
    return LivePost(
        clean_text(item["key"]),
        clean_text(published) if isinstance(published, str) else None,
        heading,
        body,
    )


def live_pairs(events: Sequence[Event]) -> Callable[[int, int], LivePair | None]:
    """For two revision numbers, the :class:`LivePair` to compare them by (``None`` when
    either revision's layout is unknown: they are compared as any two revisions)."""
    records = [e for e in events if e.kind == LIVE_KIND]
    layouts = live_layouts([(e.revision, e.detail) for e in records])
    removed: dict[int, frozenset[str]] = {}
    published: dict[int, list[PublishedPost]] = {}  # by the revision they came after
    for event in sorted(records, key=lambda e: e.number, reverse=True):
        detail = event.detail
        if event.revision is None:
            continue
        gone = detail.get("removed")
        if "layout" in detail:
            if isinstance(gone, list):
                removed[event.revision] = frozenset(str(key) for key in gone)
            continue  # its new posts are in its revision's text
        entries = detail.get("entries")
        for item in entries if isinstance(entries, list) else []:
            post = _published(item)
            if post is not None:
                published.setdefault(event.revision, []).append(post)

    def pair(old: int, new: int) -> LivePair | None:
        if old not in layouts or new not in layouts:
            return None
        return LivePair(
            layouts[old],
            layouts[new],
            published=tuple(published.get(old, ())),
            removed=removed.get(new),
        )

    return pair


def _published(item: JSON) -> PublishedPost | None:
    if not isinstance(item, dict) or not isinstance(item.get("key"), str):
        return None
    blocks = item.get("blocks")
    found = []
    for block in blocks if isinstance(blocks, list) else []:
        if isinstance(block, dict) and isinstance(text := block.get("text"), str):
            kind = block.get("kind")
            found.append(Block(text, kind if kind in BLOCK_KINDS else "paragraph"))
    return PublishedPost(str(item["key"]), tuple(found))


def render_live_feed(
    renderer: Renderer, *, document: str, title: str, url: str | None, updates: list[LiveUpdate]
) -> tuple[str, str]:
    """``(path, text)`` of the live blog's Atom feed: one entry per run that found new
    posts, the newest ``FEED_ENTRIES``."""
    newest = sorted(updates, key=lambda u: (u.observed_at, u.number), reverse=True)
    newest = newest[:FEED_ENTRIES]
    path = f"articles/{document}/live.xml"
    text = renderer.render(
        "feeds/live.xml",
        atom_path=path,
        page=f"articles/{document}/",
        title=title,
        url=url,
        entries=newest,
        updated=newest[0].observed_at if newest else EPOCH,
    )
    return path, text
