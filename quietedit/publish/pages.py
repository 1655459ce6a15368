"""What each page of the site shows, computed from archive values (pure: no I/O, no clock).

The shell reads a document's record, revisions, events and comparisons; this module turns
them into plain view values that the templates render: the article page, one diff page per
consecutive pair, and one :class:`Edit` summary per pair that the listings, feeds and
stats are made of (the diff itself, as rows, is ``diffview``'s; the verdict and the
findings of its classification are ``classification``'s). Every piece of archive
text passes through :func:`~quietedit.publish.text.clean_text` (XML- and HTML-illegal
control characters removed) and every link through
:func:`~quietedit.publish.text.safe_http_url` (http(s) or nothing), so nothing the archive
holds can become markup or a script URL.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from quietedit.analysis.watch import term_changes
from quietedit.article.languages import dateparser_languages
from quietedit.article.pagedates import parse_page_date
from quietedit.article.wording import LANGUAGES
from quietedit.model import JSON, format_timestamp, parse_timestamp
from quietedit.publish.classification import classification_json
from quietedit.publish.diffview import DiffRow, Segment, diff_json, diff_rows, excerpt_of
from quietedit.publish.text import clean_text as clean_text
from quietedit.publish.text import host_slug as host_slug
from quietedit.publish.text import safe_http_url as safe_http_url
from quietedit.revisions import Event, Revision

SIGNIFICANCE_ORDER: Final = ("cosmetic", "minor", "moderate", "substantive")
"""The analysis's significance names (``Significance.label``), least to most."""


def parse_publisher_date(text: str | None, *, language: str | None = None) -> datetime | None:
    """A publisher's date in UTC: ISO 8601 with a zone, else a complete date as the page
    writes it in its ``language`` ("4 czerwca 2026, 10:12", "2026年6月4日"; see
    :func:`~quietedit.article.pagedates.parse_page_date`); ``None`` if absent or unreadable."""
    if not text:
        return None
    try:
        return parse_timestamp(text.strip().replace("Z", "+00:00"))
    except ValueError:
        pass
    primary = (language or "").replace("_", "-").split("-")[0].casefold()
    languages = dateparser_languages(language) or (
        (primary,) if primary in LANGUAGES else LANGUAGES
    )
    return parse_page_date(text, languages=languages, complete=True)


def significance_rank(name: str) -> int:
    """The rank of a significance name of the Classification JSON (0: cosmetic)."""
    return SIGNIFICANCE_ORDER.index(name)


@dataclass(frozen=True, slots=True)
class Source:
    """Where documents come from: a feed of feeds.yaml, or a host when no feed is known."""

    slug: str
    name: str
    url: str | None = None
    watch: tuple[str, ...] = ()  # terms watched in its articles (feeds.yaml's ``watch:``)


@dataclass(frozen=True, slots=True)
class Edit:
    """One edit (a consecutive pair of revisions) as listings, feeds and stats show it."""

    document: str
    number: int  # the newer revision; the diff is number-1 → number
    observed_at: str  # RFC 3339, when the newer revision was seen
    previous_at: str
    title: str
    old_title: str
    url: str | None  # the article's canonical URL, http(s) only
    source: str
    kinds: tuple[str, ...]
    significance: str
    rank: int
    silent: bool | None
    excerpt: tuple[Segment, ...]
    summary: str
    published: str | None  # the publisher's datePublished, normalised, if readable
    notice: str = ""  # "none", "technical" (only a date moved), "proper" (a note); "" unknown
    # the watched terms it added or removed: (slug, "added"/"removed", before, term, after)
    watched: tuple[tuple[str, str, str, str, str], ...] = ()
    # "" for an edit; "gone" or "flip-flop" for an event shown among the edits, whose
    # ``number`` is then the event's number negated (so it never meets an edit's)
    event: str = ""

    @property
    def headline(self) -> bool:
        """Whether the edit changed the headline."""
        return not self.event and self.title != self.old_title

    @property
    def day(self) -> str:
        return self.observed_at[:10]

    def order_key(self) -> tuple[str, int, str, str, int]:
        """Listing order, newest first: day, then significance, then time, then identity."""
        return (self.day, self.rank, self.observed_at, self.document, self.number)

    def to_row(self) -> list[JSON]:
        """The fields in order, for the build cache (a list reads back faster than a dict)."""
        row: list[JSON] = [getattr(self, name) for name in _EDIT_FIELDS]
        row[_EDIT_FIELDS.index("kinds")] = list(self.kinds)
        row[_EDIT_FIELDS.index("excerpt")] = [list(s) for s in self.excerpt]
        row[_EDIT_FIELDS.index("watched")] = [list(w) for w in self.watched]
        return row

    @classmethod
    def from_row(cls, row: JSON) -> Edit:
        """Read :meth:`to_row`'s output back; ``ValueError`` when it is not one."""
        if not isinstance(row, list) or len(row) != len(_EDIT_FIELDS):
            raise ValueError("edit row: wrong length")
        doc, number, observed_at, previous_at, title, old_title, url, source = row[:8]
        kinds, significance, rank, silent, excerpt, summary, published, notice = row[8:16]
        watched, event = row[16:]
        if not isinstance(number, int) or not isinstance(rank, int):
            raise ValueError("edit row: number and rank must be integers")
        if not isinstance(kinds, list) or not isinstance(excerpt, list):
            raise ValueError("edit row: kinds and excerpt must be lists")
        if not isinstance(watched, list) or not all(
            isinstance(w, list) and len(w) == 5 for w in watched
        ):
            raise ValueError("edit row: watched terms must be a list of 5-item lists")
        return cls(
            str(doc),
            number,
            str(observed_at),
            str(previous_at),
            str(title),
            str(old_title),
            url if isinstance(url, str) else None,
            str(source),
            tuple(map(str, kinds)),
            str(significance),
            rank,
            silent if isinstance(silent, bool) else None,
            tuple([(str(s[0]), str(s[1])) for s in excerpt if isinstance(s, list) and len(s) == 2]),
            str(summary),
            published if isinstance(published, str) else None,
            str(notice),
            tuple(
                (str(w[0]), str(w[1]), str(w[2]), str(w[3]), str(w[4]))
                for w in watched
                if isinstance(w, list)
            ),
            str(event),
        )


_EDIT_FIELDS: Final = tuple(Edit.__dataclass_fields__)


def summary_text(diff: dict[str, JSON]) -> str:
    """One line saying what changed, from the diff's ``summary``."""
    summary = diff_json(diff)["summary"]
    parts = ["headline changed"] if summary["title_changed"] else []
    for op in ("changed", "added", "removed", "moved", "split", "merged"):
        count = summary[op]
        if count:
            parts.append(f"{count} {'paragraph' if count == 1 else 'paragraphs'} {op}")
    return ", ".join(parts) if parts else "text changed"


def observed(revision: Revision) -> str:
    return format_timestamp(revision.observation.observed_at)


def make_edit(
    document: str,
    old: Revision,
    new: Revision,
    *,
    diff: dict[str, JSON],
    classification: dict[str, JSON],
    url: str | None,
    source: str,
    rows: tuple[DiffRow, ...] | None = None,
    watch: Sequence[str] = (),
) -> Edit:
    """The :class:`Edit` summary of the pair ``old`` → ``new`` (``rows``: its diff rows,
    when the caller has them already; ``watch``: the terms watched in its source)."""
    rows = diff_rows(diff, old, new) if rows is None else rows
    shape = classification_json(classification)
    published = parse_publisher_date(
        new.article.publisher.date_published or old.article.publisher.date_published,
        language=new.article.publisher.language,
    )
    return Edit(
        document=document,
        number=new.number,
        observed_at=observed(new),
        previous_at=observed(old),
        title=clean_text(new.article.title),
        old_title=clean_text(old.article.title),
        url=url,
        source=source,
        kinds=tuple(shape["kinds"]),
        significance=shape["significance"],
        rank=significance_rank(shape["significance"]),
        silent=shape["silent"],
        excerpt=excerpt_of(rows),
        summary=summary_text(diff),
        published=format_timestamp(published) if published else None,
        notice=shape.get("notice", ""),
        watched=tuple(
            (c.slug, c.change, clean_text(c.before), clean_text(c.match), clean_text(c.after))
            for c in term_changes(watch, _texts(old), _texts(new))
        )
        if watch
        else (),
    )


def _texts(revision: Revision) -> list[str]:
    return [revision.article.title, *(block.text for block in revision.article.blocks)]


LISTED_EVENTS: Final = {"gone": 3, "flip-flop": 1}
"""The events shown among the edits (listings, feeds), with the rank they take there: a
takedown leads its day like a substantive edit; a flip-flop ranks as a minor one."""


def event_entry(
    document: str, event: Event, revisions: list[Revision], *, url: str | None, source: str
) -> Edit | None:
    """The entry of a ``gone`` or ``flip-flop`` event among the edits (``None`` for the
    other kinds): under the headline of the revision it names (else the newest), its
    number the event's negated, its summary what it means in words."""
    rank = LISTED_EVENTS.get(event.kind)
    if rank is None or not revisions:
        return None
    named = [r for r in revisions if r.number == event.revision]
    title = clean_text((named or revisions)[-1].article.title)
    when = format_timestamp(event.observed_at)
    return Edit(
        document=document,
        number=-event.number,
        observed_at=when,
        previous_at=when,
        title=title,
        old_title=title,
        url=url,
        source=source,
        kinds=(),
        significance="",
        rank=rank,
        silent=None,
        excerpt=(),
        summary=event_line(event),
        published=None,
        event=event.kind,
    )


def event_line(event: Event) -> str:
    """What an event means, in words, from its kind and detail."""
    detail = event.detail
    if event.kind == "gone":
        status = detail.get("status")
        return (
            f"The article was taken down (HTTP {status})."
            if status
            else "The article was taken down."
        )
    if event.kind == "restored":
        return "The article came back after being taken down."
    if event.kind == "redirected":
        return "The article now redirects to another address."
    if event.kind == "flip-flop":
        target = f" revision {event.revision}" if event.revision else " an earlier revision"
        return f"The page went back to{target}'s text (an A/B test or a revert); not a new edit."
    if event.kind == "feed-edit":
        before, after = detail.get("before"), detail.get("after")
        changes = []
        for field_name in ("title", "summary"):
            old = before.get(field_name) if isinstance(before, dict) else None
            new = after.get(field_name) if isinstance(after, dict) else None
            if old != new:
                changes.append(
                    f"its {field_name} from “{clean_text(str(old or ''))}” "
                    f"to “{clean_text(str(new or ''))}”"
                )
        what = " and ".join(changes) if changes else "this entry"
        return f"The feed changed {what}."
    if event.kind == "archived":
        which = f"revision {event.revision}" if event.revision else "the page"
        return f"The Internet Archive made a public copy of {which}."
    if event.kind == "anomaly":
        reason = detail.get("reason")
        why = f": {clean_text(str(reason))}" if reason else ""
        return f"A fetch looked broken and was not stored as a revision{why}."
    return f"Event “{clean_text(event.kind)}” was recorded."


def web_copies(events: list[Event]) -> dict[int, str]:
    """The address of the Internet Archive's copy of each revision that has one (the
    latest copy when there are several), from the ``archived`` events; http(s) only."""
    copies: dict[int, str] = {}
    for event in events:
        link = safe_http_url(event.detail.get("snapshot"))
        if event.kind == "archived" and event.revision and link:
            copies[event.revision] = link
    return copies


def headline_history(revisions: list[Revision]) -> tuple[tuple[int, str, str], ...]:
    """Each headline the article had, in order: (first revision, first seen, title)."""
    history: list[tuple[int, str, str]] = []
    for revision in revisions:
        title = clean_text(revision.article.title)
        if not history or history[-1][2] != title:
            history.append((revision.number, observed(revision), title))
    return tuple(history)
