"""Story pages: one page per story several outlets told (``stories/<id>/``), listing each
outlet's version and its edits. Which stories get one is
:func:`quietedit.publish.stories.group_stories_of`'s."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from quietedit.analysis.stories import Story
from quietedit.publish.buildcache import BuildState
from quietedit.publish.cacherows import DocumentEntry
from quietedit.publish.listing import DocumentSummary, EditRef
from quietedit.publish.render import output_file
from quietedit.publish.sitewide import SiteWide

if TYPE_CHECKING:  # documents.py links its pages to the stories: imported at run time there
    from quietedit.publish.documents import DocumentPages


def story_path(story: str) -> str:
    """The folder of a story's page: ``stories/<id>/`` (the id is a document id)."""
    return f"stories/{story}/"


@dataclass(frozen=True, slots=True)
class StoryVersion:
    """One outlet's article in a story page."""

    title: str
    source: str  # the source's name
    first_seen: str
    url: str | None
    page: str | None  # its article page, when it has one
    edits: tuple[EditRef, ...]


def story_versions(
    story: Story,
    summaries: Mapping[str, DocumentSummary],
    edits: Mapping[str, tuple[EditRef, ...]],
    *,
    names: Mapping[str, str],
    pages: Iterable[str],
) -> list[StoryVersion]:
    """The versions a story page lists, in order of first sight; ``pages`` the documents
    with article pages, ``names`` the sources' names by slug."""
    with_pages = set(pages)
    return [
        StoryVersion(
            title=summaries[doc].title,
            source=names.get(summaries[doc].source, summaries[doc].source),
            first_seen=summaries[doc].first_seen,
            url=summaries[doc].url,
            page=f"articles/{doc}/" if doc in with_pages else None,
            edits=tuple(
                sorted((r for r in edits.get(doc, ()) if not r.event), key=lambda r: r.number)
            ),
        )
        for doc in story.documents
        if doc in summaries
    ]


def write_story_pages(
    site: SiteWide,
    pages: DocumentPages,
    entry_of: Callable[[str], DocumentEntry | None],
    shown: tuple[Story, ...],
    *,
    trusted: BuildState,
) -> None:
    """Write a page per story shown; one whose inputs are unchanged is kept as it is.
    ``entry_of`` gives a document's entry as this build leaves it (``None`` when it has
    none): only the documents of the stories shown are asked for."""
    for story in shown:
        entries = {d: e for d in story.documents if (e := entry_of(d)) is not None}
        summaries = {doc: entry.summary for doc, entry in entries.items()}
        refs = {doc: entry.refs for doc, entry in entries.items()}
        with_pages = {doc for doc, entry in entries.items() if entry.files}
        names = {
            s: pages.source(s).name
            for s in sorted({summaries[d].source for d in story.documents if d in summaries})
        }
        versions = story_versions(story, summaries, refs, names=names, pages=with_pages)
        path = story_path(story.id)
        target = output_file(path)
        key = hashlib.sha256(f"{site.fingerprint}\0{versions!r}".encode()).hexdigest()
        before = trusted.site.get(target)
        if before is not None and before[1] == key and os.path.isfile(site.writer.target(target)):
            site.writer.claim(target, before[0])
        else:
            site.writer.write(
                target, site.renderer.render("story.html", versions=versions, page_path=path)
            )
        site.new_keys[target] = key
