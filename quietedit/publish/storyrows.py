"""The stories file read in part: an hourly build groups the days around what changed and
reads only their sketches, not the year's.

:mod:`~quietedit.publish.stories` keeps per document its sketch and per day the stories of
that day (``stories.sqlite``). A full build loads every row (:class:`StoryState`); an hourly
build, whose cache was written by the previous build, opens the file as
:class:`StoryRows` instead:

- the rows of the documents it renders, and of those gone or failing (dropped), are read
  by id; a document never sketched is sketched from its first revision;
- the days whose window (``STORY_WINDOW`` either side) holds one of those documents are
  grouped again, from the sketches first seen in their windows (one query by first
  sight, on an index), exactly as :func:`~quietedit.publish.stories.group_by_day` groups
  them; every other day keeps its stories unread;
- the stories are put together from every day's stories and the sources of their
  articles (read by id): work in the number of stories, not of documents.

Both files say which build wrote them last (``generation`` in their ``meta``): a stories
file the build cache does not match (a build killed between the two saves, a file
restored apart) is loaded whole, as by a full build, which makes it whole again.

:func:`link_stories` is the build's step, with either: the stories grouped before any page
is rendered, and a kept article whose story moved sent to be rendered again.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from quietedit.analysis.stories import STORY_WINDOW, Story, StoryArticle
from quietedit.errors import QuieteditError
from quietedit.model import parse_timestamp
from quietedit.publish.buildcache import BuildState
from quietedit.publish.cacherows import DocumentEntry
from quietedit.publish.plan import relinked
from quietedit.publish.stories import (
    PARAMETERS,
    STORIES_FILE,
    Sketched,
    StoryState,
    chunk_key,
    group_stories_of,
    shown_stories,
    sketch_document,
)
from quietedit.publish.storydays import group_days

if TYPE_CHECKING:
    from quietedit.publish.documents import DocumentPages

logger = logging.getLogger(__name__)

_DAY = timedelta(days=1)
_Row = tuple[str, str, bytes, str]
_SKETCH = "SELECT id, source, first_seen, sketch, story FROM sketches"
_BY_ID = f"{_SKETCH} WHERE id IN (SELECT value FROM json_each(?))"  # noqa: S608 - ours
_BY_TIME = f"{_SKETCH} WHERE first_seen >= ? AND first_seen < ?"
_KEPT_OF = "SELECT id, stamp, revisions FROM documents WHERE id IN (SELECT value FROM json_each(?))"
"""The stamp and count of revisions of the documents of a JSON list of ids (build cache)."""
_KEPT = "SELECT id, stamp, revisions FROM documents"
"""Every document of the build cache, with its stamp and count of revisions."""


@dataclass(slots=True)
class StoryRows:
    """The stories file of the previous build, read as the hour needs it (module
    docstring). ``documents`` holds the rows read or set by this build, as
    :class:`~quietedit.publish.stories.StoryState`'s does all of them."""

    path: Path
    chunks: dict[str, tuple[str, list[list[str]]]]
    documents: dict[str, Sketched] = field(default_factory=dict)
    loaded: dict[str, _Row | None] = field(default_factory=dict)  # as read; None: no row
    removed: set[str] = field(default_factory=set)
    days_changed: set[str] = field(default_factory=set)

    @classmethod
    def open(cls, cache_root: Path, generation: str) -> StoryRows | None:
        """The stories file when it is usable and was saved by the build that wrote the
        cache (``generation``); else ``None`` (it is then loaded whole)."""
        path = cache_root / STORIES_FILE
        if not generation or not path.is_file():
            return None
        try:
            with contextlib.closing(_connect(path)) as db:
                meta = dict(db.execute("SELECT key, value FROM meta"))
                if meta.get("parameters") != PARAMETERS or meta.get("generation") != generation:
                    return None
                chunks = {}
                for day, key, stories in db.execute("SELECT day, key, stories FROM chunks"):
                    # most days have no story: nothing to parse
                    found = [] if stories == "[]" else json.loads(stories)
                    if not (isinstance(found, list) and all(isinstance(s, list) for s in found)):
                        raise ValueError("a day's stories of the wrong shape")
                    chunks[str(day)] = (str(key), found)
        except (sqlite3.Error, ValueError, TypeError) as exc:
            logger.info("stories cache unusable (%s): grouping again", exc)
            return None
        return cls(path.resolve(), chunks)

    def _read(self, sql: str, params: tuple[object, ...]) -> list[tuple[object, ...]]:
        try:
            with contextlib.closing(_connect(self.path)) as db:
                return db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise QuieteditError(f"stories cache {self.path}: {exc}") from exc

    def _take(self, rows: Iterable[tuple[object, ...]]) -> None:
        for doc, source, first_seen, sketch, story in rows:
            doc = str(doc)
            if doc in self.loaded or doc in self.removed:
                continue  # read already: this build's value stands
            if not isinstance(sketch, bytes):
                raise QuieteditError(f"stories cache {self.path}: a sketch that is not bytes")
            row = (str(source), str(first_seen), sketch, str(story))
            self.loaded[doc] = row
            self.documents[doc] = Sketched(*row)

    def fetch(self, ids: Iterable[str]) -> None:
        """Read the rows of ``ids`` not read yet (a missing one is noted as such)."""
        wanted = sorted({d for d in ids if d not in self.loaded and d not in self.removed})
        if not wanted:
            return
        self._take(self._read(_BY_ID, (json.dumps(wanted),)))
        for doc in wanted:
            self.loaded.setdefault(doc, None)

    def drop(self, ids: Iterable[str]) -> None:
        """Forget the documents ``ids`` (gone, or failing): their days are grouped again."""
        docs = set(ids)
        self.fetch(docs)
        for doc in docs:
            self.documents.pop(doc, None)
        self.removed |= docs

    def linked(self) -> set[str]:
        """The documents whose pages link to a story (rows read, or as set by this build)."""
        found = {str(d) for (d,) in self._read("SELECT id FROM sketches WHERE story != ''", ())}
        found = {doc for doc in found if doc not in self.loaded and doc not in self.removed}
        return found | {doc for doc, d in self.documents.items() if d.story}

    def _window(self, low: datetime, high: datetime) -> list[tuple[datetime, str]]:
        """The sketched documents first seen in ``[low, high)``, in order (rows read)."""
        # first sights are ISO timestamps: a day's margin covers any offset they carry
        since, until = (low - _DAY).date().isoformat(), (high + _DAY).date().isoformat()
        self._take(self._read(_BY_TIME, (since, until)))
        found = []
        for doc, d in self.documents.items():
            if d.packed and d.first_seen:
                when = parse_timestamp(d.first_seen)
                if low <= when < high:
                    found.append((when, doc))
        return sorted(found)

    def touched(self) -> list[datetime]:
        """When the documents added, dropped or sketched otherwise by this build were
        first seen (of sketched ones only: the others are not grouped)."""
        seen = set()
        for doc, d in self.documents.items():
            row = self.loaded.get(doc)
            if row is None or row[:3] != (d.source, d.first_seen, d.packed):
                if d.packed:
                    seen.add(d.first_seen)
                if row is not None and row[2]:
                    seen.add(row[1])
        for doc in self.removed:
            row = self.loaded.get(doc)
            if row is not None and row[2]:
                seen.add(row[1])
        return sorted(parse_timestamp(when) for when in seen if when)

    def sources(self, ids: Iterable[str]) -> dict[str, str]:
        """The source of each of ``ids`` that has a sketch (rows read, or set here)."""
        self.fetch(ids)
        return {doc: d.source for doc in ids if (d := self.documents.get(doc)) and d.packed}

    def save(self, cache_root: Path, generation: str) -> None:
        """Write the rows and days that changed, and ``generation``, in one transaction."""
        rows = {
            doc: (d.source, d.first_seen, d.packed, d.story) for doc, d in self.documents.items()
        }
        changed = [(doc, *row) for doc, row in sorted(rows.items()) if self.loaded.get(doc) != row]
        gone = [(doc,) for doc in sorted(self.removed) if self.loaded.get(doc) is not None]
        days = sorted(self.days_changed)
        with contextlib.closing(sqlite3.connect(cache_root / STORIES_FILE)) as db:
            db.executemany("DELETE FROM sketches WHERE id = ?", gone)
            db.executemany("INSERT OR REPLACE INTO sketches VALUES (?, ?, ?, ?, ?)", changed)
            db.executemany("DELETE FROM chunks WHERE day = ?", [(d,) for d in days])
            db.executemany(
                "INSERT INTO chunks VALUES (?, ?, ?)",
                [(d, *self._chunk(d)) for d in days if d in self.chunks],
            )
            db.execute("INSERT OR REPLACE INTO meta VALUES ('generation', ?)", (generation,))
            db.commit()

    def _chunk(self, day: str) -> tuple[str, str]:
        key, stories = self.chunks[day]
        return key, json.dumps(stories)


def _connect(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def group_hours(rows: StoryRows) -> tuple[Story, ...]:
    """The stories of every document, as :func:`~quietedit.publish.stories.group_by_day`
    finds them, grouping again only the days whose window holds a document this build
    added, dropped or sketched otherwise; updates ``rows.chunks``."""
    touched = rows.touched()
    days: set[str] = set()
    for when in touched:  # the days d with d - window <= when < d + 1 day + window
        on = (when - STORY_WINDOW - _DAY).date()
        while (start := datetime(on.year, on.month, on.day, tzinfo=UTC)) - STORY_WINDOW <= when:
            if when < start + _DAY + STORY_WINDOW:
                days.add(on.isoformat())
            on += _DAY
    work: dict[str, tuple[datetime, datetime]] = {}
    keys: dict[str, str] = {}
    articles: list[StoryArticle] = []
    if days:
        window = sorted(
            found
            for first, last in _runs(sorted(days))
            for found in rows._window(first - STORY_WINDOW, last + _DAY + STORY_WINDOW)
        )
        window = [w for n, w in enumerate(window) if not n or window[n - 1] != w]
        times = [when for when, _ in window]
        articles = [
            StoryArticle(doc, rows.documents[doc].source, when, rows.documents[doc].sketch)
            for when, doc in window
        ]
        for day in sorted(days):
            start = _start(day)
            end = start + _DAY
            if bisect_left(times, start) == bisect_left(times, end):  # none first seen on it
                if rows.chunks.pop(day, None) is not None:
                    rows.days_changed.add(day)
                continue
            low, high = start - STORY_WINDOW, end + STORY_WINDOW
            inputs = articles[bisect_left(times, low) : bisect_left(times, high)]
            keys[day] = key = chunk_key(inputs)
            cached = rows.chunks.get(day)
            if cached is None or cached[0] != key:
                work[day] = (start, end)
    # the days to group again in one pass, each article of their windows compared once
    regrouped = group_days(articles, list(work.values())) if work else []
    for day, groups in zip(work, regrouped, strict=True):
        rows.chunks[day] = (keys[day], groups)
        rows.days_changed.add(day)
    rows.chunks = dict(sorted(rows.chunks.items()))
    members = {doc for _, found in rows.chunks.values() for group in found for doc in group}
    source_of = rows.sources(members)
    stories: list[Story] = []
    claimed: set[str] = set()
    for _, found in rows.chunks.values():
        for group in found:
            kept = tuple(d for d in group if d not in claimed and d in source_of)
            sources = tuple(sorted({source_of[d] for d in kept}))
            if len(sources) >= 2:
                claimed.update(kept)
                stories.append(Story(id=kept[0], documents=kept, sources=sources))
    return tuple(sorted(stories, key=lambda story: story.id))


def _runs(days: list[str]) -> list[tuple[datetime, datetime]]:
    """The first and last day of each run of consecutive ``days`` (sorted)."""
    runs: list[tuple[datetime, datetime]] = []
    for day in map(_start, days):
        if runs and day - runs[-1][1] <= _DAY:
            runs[-1] = (runs[-1][0], day)
        else:
            runs.append((day, day))
    return runs


def _start(day: str) -> datetime:
    return datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=UTC)


def group_stories_hourly(
    pages: DocumentPages,
    rows: StoryRows,
    todo: Mapping[str, str],
    dropped: Iterable[str],
    kept: Callable[[set[str]], Mapping[str, int]],
    failures: dict[str, str],
) -> tuple[Story, ...]:
    """:func:`~quietedit.publish.stories.group_stories_of` for an hourly build: the
    documents it renders (``todo``) are read or sketched, those ``dropped`` (gone or
    failing) forgotten, and ``kept`` gives the count of revisions of the documents the
    build keeps, asked only for the articles of stories."""
    rows.drop(dropped)
    rows.fetch(todo)
    edits: dict[str, int] = {}
    for doc in sorted(todo):
        if doc in rows.documents:  # sketched before: only its count of edits may move
            edits[doc] = max(pages.revision_count(doc) - 1, 0)
            continue
        sketch_document(pages, doc, into=rows.documents, edits=edits, failures=failures)
    stories = group_hours(rows)
    members = {doc for story in stories for doc in story.documents if doc not in edits}
    edits.update((doc, revisions - 1) for doc, revisions in kept(members).items())
    return shown_stories(stories, edits)


def kept_rows(
    previous: BuildState,
    state: dict[str, DocumentEntry],
    found: dict[str, str],
    gone: set[str],
    todo: dict[str, str],
) -> Callable[[set[str]], dict[str, tuple[str, int]]]:
    """The stamp and count of revisions of those of a set of documents the build keeps as
    they are: read by this build (``state``), or of the cache and neither on disk, gone
    nor to be rendered (``todo``, as it is now)."""
    skipped = found.keys() | gone | todo.keys()

    def kept(ids: set[str]) -> dict[str, tuple[str, int]]:
        out = {doc: (state[doc].stamp, state[doc].revisions) for doc in ids if doc in state}
        ask = sorted(doc for doc in ids if doc not in state and doc not in skipped)
        if ask:
            for doc, stamp, revisions in previous.query(_KEPT_OF, (json.dumps(ask),)):
                out[str(doc)] = (str(stamp), int(revisions))
        return out

    return kept


def next_generation(previous: str) -> str:
    """The count of the build after the one that wrote the cache (``storyrows``)."""
    return str(int(previous) + 1) if previous.isdigit() else "1"


def link_stories(
    pages: DocumentPages,
    story_state: StoryState | StoryRows,
    previous: BuildState,
    *,
    state: dict[str, DocumentEntry],
    found: dict[str, str],
    gone: set[str],
    todo: dict[str, str],
    failures: dict[str, str],
    hourly: bool,
) -> tuple[Story, ...]:
    """Group the stories before any page is rendered, for a build that keeps ``state``
    (the rows it kept), renders ``todo`` and drops ``gone``, and returns those shown
    (with a page). An article page links to its story's page, so a kept article that
    joins or leaves a story with a page is rendered too (moved from ``state`` to
    ``todo``); ``pages.stories`` gets each article's story. The stories file is read in
    part (:class:`StoryRows`, the days around what changed) or whole (``StoryState``; an
    ``hourly`` build then counts the revisions of the cache's documents it does not
    read)."""
    sketches: Mapping[str, Sketched]
    if isinstance(story_state, StoryRows):  # the stories' work, and rows, of the hour's
        kept_of = kept_rows(previous, state, found, gone, todo)
        shown = group_stories_hourly(
            pages, story_state, todo, gone | failures.keys(),
            lambda ids: {doc: revisions for doc, (_, revisions) in kept_of(ids).items()},
            failures,
        )  # fmt: skip
        links = {doc: story.id for story in shown for doc in story.documents}
        linked = story_state.linked() | links.keys()  # whose link may have moved
        story_state.fetch(linked)
        kept = kept_of(linked)
        sketches = {d: story_state.documents[d] for d in linked if d in story_state.documents}
    else:
        kept = {doc: (entry.stamp, entry.revisions) for doc, entry in state.items()}
        if hourly:  # and the documents of the cache this build does not read, less those gone
            for doc, doc_stamp, revisions in previous.query(_KEPT):
                if doc not in found and doc not in gone and doc not in todo:
                    kept[str(doc)] = (str(doc_stamp), int(revisions))
        revisions_of = {doc: revisions for doc, (_, revisions) in kept.items()}
        shown = group_stories_of(pages, revisions_of, todo, story_state, failures)
        links = {doc: story.id for story in shown for doc in story.documents}
        sketches = story_state.documents
    for doc, stamp in relinked(sketches, links, kept, todo).items():
        state.pop(doc, None)
        todo[doc] = stamp
    pages.stories = links
    return shown
