"""Stories across outlets: which stories get a page (:mod:`~quietedit.publish.storypages`).

The grouping is :func:`quietedit.analysis.stories.group_stories`, day by day (many days at
once: :func:`quietedit.publish.storydays.group_days`); this module feeds it and keeps its
inputs and results between builds in ``<out>/.quietedit-cache/stories.sqlite``:

``sketches``
    per document its source, first sight and sketch (made once, from its first revision:
    revisions are never rewritten, so a sketch never goes stale), and the story its pages
    were last rendered to link to;
``chunks``
    per day the stories whose earliest article was first seen on it, with the key of
    their inputs: every article first seen from ``STORY_WINDOW`` before the day to
    ``STORY_WINDOW`` after it. A day is grouped again only when one of those changed, so
    an hourly build groups the few days whose window holds the hour's new articles (a
    fixed amount of work, whether the archive is a week or a year old), not a month, nor
    the year.

An article both a day's late story and a later day's stories claim stays in the earlier
one; a chain of linked articles is followed up to ``STORY_WINDOW`` past the day of its
earliest article. Stories get a page, ``stories/<id>/``, only when they have articles from at
least two sources and at least one edit among them (the others would cost the site pages
that show nothing changed); each article with pages in such a story links to it. The
database is a cache: absent, damaged or of another version, it is rebuilt from the
documents.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import sqlite3
import struct
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Final, TypeAlias, TypeVar

from quietedit.analysis.stories import (
    POSTINGS_MAX,
    SKETCH_SIZE,
    SKETCH_WORDS,
    STORY_SIMILARITY,
    STORY_WINDOW,
    Story,
    StoryArticle,
    group_stories,
)
from quietedit.errors import QuieteditError
from quietedit.model import parse_timestamp
from quietedit.publish.storydays import group_days

if TYPE_CHECKING:  # documents.py links its pages to the stories: imported at run time there
    from quietedit.publish.documents import DocumentPages

logger = logging.getLogger(__name__)

STORIES_FILE: Final = "stories.sqlite"
_VERSION: Final = 3  # 3: grouped by day (2: by month)
PARAMETERS: Final = f"{_VERSION}:{SKETCH_SIZE}:{SKETCH_WORDS}:{STORY_SIMILARITY}:{POSTINGS_MAX}"
"""What the file was made with: a file made otherwise is made again."""
_TABLES: Final = (
    "CREATE TABLE sketches (id TEXT PRIMARY KEY, source TEXT NOT NULL, first_seen TEXT NOT "
    "NULL, sketch BLOB NOT NULL, story TEXT NOT NULL) STRICT",
    "CREATE TABLE chunks (day TEXT PRIMARY KEY, key TEXT NOT NULL, stories TEXT NOT NULL) STRICT",
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT",
)
_INDEXES: Final = (
    # an hourly build reads the sketches of a few days' windows, and the documents linked
    # to a story (``storyrows``); added to a file of before them when it is saved
    "CREATE INDEX IF NOT EXISTS sketches_seen ON sketches (first_seen)",
    "CREATE INDEX IF NOT EXISTS sketches_linked ON sketches (id) WHERE story != ''",
)


@dataclass(slots=True, init=False)
class Sketched:
    """One document as the grouping needs it, and the story its pages link to. The
    sketch is kept packed as the stories file stores it (``packed``) and unpacked only
    for a day grouped again."""

    source: str
    first_seen: str
    packed: bytes
    story: str

    def __init__(
        self, source: str, first_seen: str, sketch: tuple[int, ...] | bytes, story: str = ""
    ) -> None:
        if isinstance(sketch, bytes):
            if len(sketch) % 4:
                raise ValueError("sketch of the wrong length")
            self.packed = sketch
        else:
            self.packed = _pack(sketch)
        self.source, self.first_seen, self.story = source, first_seen, story

    @property
    def sketch(self) -> tuple[int, ...]:
        return _unpack(self.packed)


@dataclass(slots=True)
class StoryState:
    """The cache's stories file, its rows loaded whole (a year: about 365,000 rows of 200
    bytes), their sketches left packed."""

    documents: dict[str, Sketched] = field(default_factory=dict)
    chunks: dict[str, tuple[str, list[list[str]]]] = field(default_factory=dict)
    loaded: dict[str, tuple[str, str, bytes, str]] | None = None
    """The rows as read, so that a save writes only the ones that changed."""

    @classmethod
    def load(cls, cache_root: Path) -> StoryState:
        """The state the previous build saved; empty when there is none or it is unusable."""
        path = cache_root / STORIES_FILE
        if not path.is_file():
            return cls()
        try:
            with contextlib.closing(sqlite3.connect(path)) as db:
                found = db.execute("SELECT value FROM meta WHERE key = 'parameters'").fetchone()
                if found is None or found[0] != PARAMETERS:
                    return cls()
                read: dict[str, tuple[str, str, bytes, str]] = {}
                state = cls(loaded=read)
                for doc, source, first_seen, sketch, story in db.execute(
                    "SELECT id, source, first_seen, sketch, story FROM sketches"
                ):
                    if not isinstance(sketch, bytes):
                        raise TypeError("a sketch that is not bytes")
                    state.documents[doc] = Sketched(source, first_seen, sketch, story)
                    read[doc] = (source, first_seen, sketch, story)
                for day, key, stories in db.execute("SELECT day, key, stories FROM chunks"):
                    state.chunks[day] = (key, json.loads(stories))
                return state
        except (sqlite3.Error, ValueError, TypeError) as exc:
            logger.info("stories cache unusable (%s): grouping again", exc)
            return cls()

    def save(self, cache_root: Path, generation: str = "") -> None:
        """Write the rows that changed since :meth:`load` in one transaction (a killed
        build keeps the previous state); a state not loaded is written whole under a
        temporary name, then renamed. ``generation``: the build's, which the build cache
        holds too (``storyrows``)."""
        cache_root.mkdir(parents=True, exist_ok=True)
        path = cache_root / STORIES_FILE
        rows = {
            doc: (d.source, d.first_seen, d.packed, d.story) for doc, d in self.documents.items()
        }
        if self.loaded is not None and path.is_file():
            target = path
            changed = [(doc, *row) for doc, row in rows.items() if self.loaded.get(doc) != row]
            gone = [(doc,) for doc in self.loaded if doc not in rows]
        else:
            target = path.with_suffix(".tmp")
            target.unlink(missing_ok=True)
            changed, gone = [(doc, *row) for doc, row in sorted(rows.items())], []
        with contextlib.closing(sqlite3.connect(target)) as db:
            if target != path:
                for statement in _TABLES:
                    db.execute(statement)
                db.execute("INSERT INTO meta VALUES ('parameters', ?)", (PARAMETERS,))
            db.executemany("DELETE FROM sketches WHERE id = ?", gone)
            db.executemany("INSERT OR REPLACE INTO sketches VALUES (?, ?, ?, ?, ?)", changed)
            db.execute("DELETE FROM chunks")
            db.executemany(
                "INSERT INTO chunks VALUES (?, ?, ?)",
                ((m, key, json.dumps(s)) for m, (key, s) in sorted(self.chunks.items())),
            )
            for statement in _INDEXES:
                db.execute(statement)
            db.execute("INSERT OR REPLACE INTO meta VALUES ('generation', ?)", (generation,))
            db.commit()
        if target != path:
            target.replace(path)
        self.loaded = rows


def saved_sketches(cache_root: Path, documents: Iterable[str]) -> dict[str, tuple[int, ...]]:
    """The sketches a build saved in ``cache_root`` for those of ``documents`` it holds
    (a sketch is of the first revision, so it never goes stale); none when the file is
    missing, damaged or made with other parameters."""
    path = cache_root / STORIES_FILE
    wanted = list(documents)
    if not path.is_file() or not wanted:
        return {}
    try:
        with contextlib.closing(
            sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        ) as db:
            found = db.execute("SELECT value FROM meta WHERE key = 'parameters'").fetchone()
            if found is None or found[0] != PARAMETERS:
                return {}
            marks = ", ".join("?" for _ in wanted)
            return {
                doc: _unpack(sketch)
                for doc, sketch in db.execute(
                    f"SELECT id, sketch FROM sketches WHERE id IN ({marks})",  # noqa: S608 - marks only
                    wanted,
                )
            }
    except (sqlite3.Error, ValueError, TypeError) as exc:
        logger.info("stories cache unusable (%s): sketching again", exc)
        return {}


def _pack(sketch: tuple[int, ...]) -> bytes:
    return b"".join(value.to_bytes(4, "big") for value in sketch)


def _unpack(data: bytes) -> tuple[int, ...]:
    if not isinstance(data, bytes) or len(data) % 4:
        raise ValueError("sketch of the wrong length")
    return struct.unpack(f">{len(data) // 4}I", data)


DayWork: TypeAlias = tuple[datetime, datetime, list[StoryArticle]]
"""A day to group: its start, its end, and every article first seen within
``STORY_WINDOW`` of it, oldest first."""
DaysWork: TypeAlias = tuple[list[tuple[datetime, datetime]], list[StoryArticle]]
"""Days to group (their starts and ends) and every article of their windows, oldest first."""
DaysMapper: TypeAlias = Callable[
    [Callable[[DaysWork], list[list[list[str]]]], list[DaysWork]],
    Iterable[list[list[list[str]]]],
]

_DAY: Final = timedelta(days=1)
PIECE_DAYS: Final = 30
"""Days grouped as one piece of work: a piece reads the articles of its days and of
``STORY_WINDOW`` either side, so longer pieces read fewer articles twice (30 days: 4 in
34), and shorter ones spread over more processes and hold less in memory. 90 days of
articles (``bench/stories.py --by-day --articles 90000``): 76.2 s of CPU with each
window alone, 35.1 in pieces of 7 days, 23.7 of 30, 20.1 in one piece."""

_T = TypeVar("_T")
_R = TypeVar("_R")


def day_groups(work: DayWork) -> list[list[str]]:
    """The stories (their documents, earliest first) whose earliest article was first seen
    on the day of ``work``."""
    start, end, inputs = work
    seen = {a.document: a.first_seen for a in inputs}
    return [list(s.documents) for s in group_stories(inputs) if start <= seen[s.id] < end]


def days_groups(work: DaysWork) -> list[list[list[str]]]:
    """:func:`day_groups` of each day of ``work``, each article compared once."""
    days, articles = work
    return group_days(articles, days)


def in_order(func: Callable[[_T], _R], items: list[_T]) -> list[_R]:
    return [func(item) for item in items]


def group_by_day(state: StoryState, *, mapper: DaysMapper = in_order) -> tuple[Story, ...]:
    """The stories of every document in ``state``, grouped day by day (module
    docstring); updates ``state.chunks``. Deterministic in the documents alone.

    A day none of whose inputs changed since the state was loaded (no document of its
    window added, dropped or sketched otherwise) keeps its stories without its key being
    computed again: an hourly build hashes and unpacks the sketches of the few days whose
    window holds the hour's articles, not the year's. The days to group again go, in
    pieces of consecutive days, through ``mapper`` (an ordered map: in this process by
    default, or in worker processes, as the export does)."""
    documents = state.documents
    sketched = sorted(
        ((parse_timestamp(d.first_seen), doc) for doc, d in documents.items() if d.packed),
    )
    times = [when for when, _ in sketched]
    days = [day.isoformat() for day in sorted({when.date() for when in times})]
    touched = _touched(state)
    chunks: dict[str, tuple[str, list[list[str]]]] = {}
    keys: dict[str, str] = {}
    parts: dict[int, bytes] = {}  # each article's part of a day's key, made once
    work: dict[str, tuple[datetime, datetime, int, int]] = {}
    for day in days:
        start = datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=UTC)
        end = start + _DAY
        cached = state.chunks.get(day)
        low, high = start - STORY_WINDOW, end + STORY_WINDOW
        if cached is not None and touched is not None:
            # the touched times are sorted: is any in [low, high)?
            at = bisect_left(touched, low)
            if at == len(touched) or touched[at] >= high:
                chunks[day] = cached
                continue
        first, last = bisect_left(times, low), bisect_left(times, high)
        for index in range(first, last):
            if index not in parts:
                when, doc = sketched[index]
                d = documents[doc]
                parts[index] = f"{doc}\0{d.source}\0{when.isoformat()}\0".encode() + d.packed
        keys[day] = key = parts_key(parts[index] for index in range(first, last))
        if cached is not None and cached[0] == key:
            chunks[day] = (key, cached[1])
        else:
            work[day] = (start, end, first, last)
    pieces = _pieces(list(work.items()))
    grouped = mapper(
        days_groups,
        [
            (
                [(start, end) for _, (start, end, _, _) in piece],
                [
                    StoryArticle(doc, documents[doc].source, when, documents[doc].sketch)
                    for when, doc in sketched[piece[0][1][2] : max(w[3] for _, w in piece)]
                ],
            )
            for piece in pieces
        ],
    )
    for piece, found in zip(pieces, grouped, strict=True):
        for (day, _), groups in zip(piece, found, strict=True):
            chunks[day] = (keys[day], groups)
    stories: list[Story] = []
    claimed: set[str] = set()
    for day in days:
        for members in chunks[day][1]:
            kept = tuple(d for d in members if d not in claimed and d in documents)
            kept = tuple(d for d in kept if documents[d].packed)
            sources = tuple(sorted({documents[d].source for d in kept}))
            if len(sources) >= 2:
                claimed.update(kept)
                stories.append(Story(id=kept[0], documents=kept, sources=sources))
    state.chunks = dict(sorted(chunks.items()))
    return tuple(sorted(stories, key=lambda story: story.id))


def _pieces(
    work: list[tuple[str, tuple[datetime, datetime, int, int]]],
) -> list[list[tuple[str, tuple[datetime, datetime, int, int]]]]:
    """The days to group, in order, cut into pieces of at most :data:`PIECE_DAYS`
    consecutive days whose windows overlap (each piece reads its articles once)."""
    pieces: list[list[tuple[str, tuple[datetime, datetime, int, int]]]] = []
    for item in work:
        piece = pieces[-1] if pieces else None
        if piece and len(piece) < PIECE_DAYS and item[1][2] < max(w[3] for _, w in piece):
            piece.append(item)
        else:
            pieces.append([item])
    return pieces


def _touched(state: StoryState) -> list[datetime] | None:
    """When the documents added, dropped or changed since the state was loaded were
    first seen; ``None`` for a state not loaded (every day's key is computed)."""
    loaded = state.loaded
    if loaded is None:
        return None
    seen = set()  # of sketched documents only: the others are not grouped
    for doc, d in state.documents.items():
        row = loaded.get(doc)
        if row is None or row[:3] != (d.source, d.first_seen, d.packed):
            if d.packed:
                seen.add(d.first_seen)
            if row is not None and row[2]:
                seen.add(row[1])
    seen.update(row[1] for doc, row in loaded.items() if doc not in state.documents and row[2])
    return sorted(parse_timestamp(when) for when in seen)


def chunk_key(articles: Iterable[StoryArticle]) -> str:
    """The key of a day's inputs (``storyrows`` groups by it too)."""
    return parts_key(
        f"{a.document}\0{a.source}\0{a.first_seen.isoformat()}\0".encode() + _pack(a.sketch)
        for a in articles
    )


def parts_key(parts: Iterable[bytes]) -> str:
    """:func:`chunk_key` of the articles whose parts of the key are ``parts``."""
    digest = hashlib.sha256(PARAMETERS.encode())
    digest.update(b"".join(parts))
    return digest.hexdigest()


def shown_stories(stories: Iterable[Story], edits: Mapping[str, int]) -> tuple[Story, ...]:
    """The stories that get a page: at least one edit among their articles (``edits``:
    each document's number of edits)."""
    return tuple(s for s in stories if any(edits.get(d, 0) for d in s.documents))


def group_stories_of(
    pages: DocumentPages,
    kept: Mapping[str, int],
    todo: Mapping[str, str],
    story_state: StoryState,
    failures: dict[str, str],
) -> tuple[Story, ...]:
    """The stories that get a page, before any page is rendered: the documents the build
    keeps (``kept``: each one's count of revisions, as the build cache has it) and those it
    renders (``todo``). A document never sketched (new, or from before the stories file)
    is read for its first revision; one gone is dropped."""
    known = story_state.documents
    alive = kept.keys() | todo.keys()
    for doc in sorted(known.keys() - alive):
        del known[doc]
    edits = {doc: revisions - 1 for doc, revisions in kept.items()}
    # a sketch never changes: of a document sketched before, only the count of edits may
    # (the documents rendered are counted again); the others are sketched (one set
    # difference each, not a look at every document of the year)
    for doc in sorted((todo.keys() - kept.keys()) & known.keys()):
        edits[doc] = max(pages.revision_count(doc) - 1, 0)
    for doc in sorted(alive - known.keys()):
        sketch_document(pages, doc, into=story_state.documents, edits=edits, failures=failures)
    return shown_stories(group_by_day(story_state), edits)


def sketch_document(
    pages: DocumentPages,
    doc: str,
    *,
    into: dict[str, Sketched],
    edits: dict[str, int],
    failures: dict[str, str],
) -> None:
    """Sketch ``doc`` from its first revision into ``into`` and count its edits into
    ``edits``; a document that cannot be read goes into ``failures`` instead."""
    try:
        source, first_seen, sketch, edits[doc] = pages.story_input(doc)
    except QuieteditError as exc:
        failures.setdefault(doc, f"{doc}: {exc}")
        return
    into[doc] = Sketched(source, first_seen, sketch)
