"""What each page of the site shows, computed from archive values (pure: no I/O, no clock).

The shell reads a document's record, revisions, events and comparisons; this module turns
them into plain view values that the templates render: the article page, one diff page per
consecutive pair, and one :class:`Edit` summary per pair that the listings, feeds and
stats are made of (the diff itself, as rows, is ``diffview``'s). Every piece of archive
text passes through :func:`~quietedit.publish.text.clean_text` (XML- and HTML-illegal
control characters removed) and every link through
:func:`~quietedit.publish.text.safe_http_url` (http(s) or nothing), so nothing the archive
holds can become markup or a script URL.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final, NotRequired, TypeAlias, TypedDict, cast

from quietedit.analysis.signals import (
    DATE_MODIFIED,
    FEED_UPDATED,
    NOTE,
    SITEMAP_LASTMOD,
    UPDATED_LINE,
    is_plain,
)
from quietedit.analysis.watch import term_changes
from quietedit.article.languages import dateparser_languages
from quietedit.article.pagedates import parse_page_date
from quietedit.article.wording import LANGUAGES
from quietedit.model import JSON, format_timestamp, parse_timestamp
from quietedit.publish.diffview import DiffRow, Segment, diff_json, diff_rows, excerpt_of
from quietedit.publish.text import clean_text as clean_text
from quietedit.publish.text import cut_run
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


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether the publisher said so: ``silent`` True/False, or None when unknown."""

    silent: bool | None
    label: str
    evidence: tuple[str, ...] = ()
    """One line per signal with something to tell (seen, or a value that did not change)."""
    nothing: str = ""
    """The signals of which neither revision had anything, in one sentence."""
    unchecked: tuple[str, ...] = ()
    """What the signals not checked look at."""


class SignalJSON(TypedDict):
    """One publisher signal of the Classification JSON: ``seen`` is ``None`` when it could
    not be checked."""

    name: str
    seen: bool | None
    evidence: str


class SentenceJSON(TypedDict):
    """Where a finding was decided: old and new sentence, the deciding words' offsets."""

    where: str
    old: str
    new: str
    old_marks: list[list[int]]
    new_marks: list[list[int]]


class FindingJSON(TypedDict):
    significance: str
    evidence: list[str]
    sentences: NotRequired[list[SentenceJSON]]  # absent from comparisons cached before it


class ClassificationJSON(TypedDict):
    """``Classification.to_dict()``, the documented Classification JSON."""

    kinds: list[str]  # sorted
    findings: dict[str, FindingJSON]
    significance: str
    silent: bool
    notice: NotRequired[str]  # absent from comparisons made before it
    signals: list[SignalJSON]


def classification_json(classification: dict[str, JSON]) -> ClassificationJSON:
    """``classification`` read as the Classification JSON it is (``Comparison``)."""
    return cast(ClassificationJSON, classification)


def verdict_of(classification: dict[str, JSON]) -> Verdict:
    """The verdict and, as evidence, each publisher signal with what was seen."""
    shape = classification_json(classification)
    # the signals that say only "nothing there" or "not checked" are told in a few words
    plain = [s for s in shape["signals"] if is_plain(s["name"], s["seen"], s["evidence"])]
    evidence = tuple(_signal_line(s) for s in shape["signals"] if s not in plain)
    absent = [_ABSENT.get(s["name"], clean_text(s["name"])) for s in plain if s["seen"] is False]
    nothing = f"No {_or_list(absent)} in either revision" if absent else ""
    unchecked = tuple(
        _UNCHECKED.get(s["name"], clean_text(s["name"])) for s in plain if s["seen"] is None
    )
    if shape["silent"]:
        return Verdict(True, "silent", evidence, nothing, unchecked)
    # the badge's words: a technical notice (only a date moved) or a note
    label = {"technical": "technical notice", "proper": "noted"}.get(
        shape.get("notice", ""), "acknowledged"
    )
    return Verdict(False, label, evidence, nothing, unchecked)


_ABSENT: Final = {DATE_MODIFIED: "dateModified", UPDATED_LINE: "“Updated” line", NOTE: "note"}
"""A signal of which neither revision had anything, in the page's one sentence for them
(the methodology page says what each one looks for)."""
_UNCHECKED: Final = {SITEMAP_LASTMOD: "sitemap <lastmod>", FEED_UPDATED: "feed entry date"}
"""What a signal not checked looks at, in a word or two."""


def _or_list(words: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _signal_line(signal: SignalJSON) -> str:
    """``date-modified: seen — dateModified changed: … → …``; a signal not seen says so in
    its evidence alone (``dateModified unchanged: …``, ``the feed entry's updated date did
    not change``)."""
    name = clean_text(signal["name"]).replace("_", " ")
    seen = signal["seen"]
    evidence = signal["evidence"]
    if seen is False and evidence:
        return clean_text(evidence)
    state = "seen" if seen is True else "not seen" if seen is False else "not known"
    tail = f" — {clean_text(evidence)}" if evidence else ""
    return f"{name}: {state}{tail}"


Piece: TypeAlias = tuple[str, bool]
"""A run of a sentence's text and whether it is among the words that decided a finding."""


@dataclass(frozen=True, slots=True)
class SentenceView:
    """One place a finding was decided, the old and the new sentence cut into pieces
    with the deciding words marked (empty when a side has no sentence)."""

    where: str
    old: tuple[Piece, ...]
    new: tuple[Piece, ...]


@dataclass(frozen=True, slots=True)
class FindingView:
    """One finding as the edit's page shows it: kind, significance, evidence lines and
    the sentences that decided it."""

    kind: str
    significance: str
    lines: tuple[str, ...]
    sentences: tuple[SentenceView, ...]


def findings_of(classification: dict[str, JSON]) -> tuple[FindingView, ...]:
    """Each finding of the classification, its sentences ready to mark; a sentence that
    an earlier finding shows already, with the same words marked, is not repeated, and
    one that tells nothing the finding's evidence and the changed paragraphs do not is
    left out (:func:`_tells_more`); so is an evidence line that a sentence of the
    finding shows marked (:func:`_restated`; the API keeps every line)."""
    findings = classification_json(classification)["findings"]
    shown: set[SentenceView] = set()
    views: list[FindingView] = []
    for kind, finding in sorted(findings.items()):
        # a sentence that decided two kinds with the same words is shown at the first
        sentences = [_sentence_view(s) for s in finding.get("sentences", []) if _tells_more(s)]
        fresh = tuple(s for s in sentences if s not in shown)
        shown.update(fresh)
        places = {s.where for s in fresh}
        lines = (line for line in finding["evidence"] if not _restated(line, places))
        views.append(
            FindingView(kind, finding["significance"], tuple(map(clean_text, lines)), fresh)
        )
    return tuple(views)


def _restated(line: str, places: set[str]) -> bool:
    """Whether an evidence line only quotes text that a sentence at its place shows with
    the deciding words marked: ``block 3: was [-4.2-]{+4.5+} million`` (a word diff) or
    ``quote added: “…”`` (a quote), as the classifier writes them. A line that says more
    (``block 1: the first paragraph changed``, ``block 4: 4.2 → 4.5``) is kept."""
    place, _, rest = line.partition(": ")
    return place in places and (rest.startswith("“") or "[-" in rest or "{+" in rest)


SENTENCE_CONTEXT: Final = 5
"""Words of a finding's sentence kept on each side of its marked words: the edit shows the
changed paragraph just above, so a finding needs only where its words stand."""


MARKED_WORDS: Final = 8
"""Words kept of a marked run longer than twice that: a sentence added or removed whole is
marked whole, and the changed paragraph above shows all of it."""


def _tells_more(sentence: SentenceJSON) -> bool:
    """Whether a finding's sentence shows words that decided it in their context: not when
    no word is marked (the evidence line says where, and quotes it), nor when it is on one
    side only and marked whole (a sentence added or removed whole, which the changed
    paragraph shows above and the evidence line quotes)."""
    sides = [
        (text, marks)
        for text, marks in (
            (sentence["old"], sentence["old_marks"]),
            (sentence["new"], sentence["new_marks"]),
        )
        if text.strip()
    ]
    pieces = [marked_pieces(text, marks) for text, marks in sides]
    if not any(marked for side in pieces for _, marked in side):
        return False
    whole = len(pieces) == 1 and all(marked for _, marked in pieces[0])
    return not whole


def _sentence_view(sentence: SentenceJSON) -> SentenceView:
    old = trimmed(marked_pieces(sentence["old"], sentence["old_marks"]))
    new = trimmed(marked_pieces(sentence["new"], sentence["new_marks"]))
    if sentence["where"].startswith("block") and any(marked for _, marked in new):
        # a paragraph's sentence: the changed paragraph above shows its before and after,
        # so the words that decided the kind are marked on one side, the new one
        old = ()
    # a sentence moved unchanged: shown once
    return SentenceView(clean_text(sentence["where"]), () if old == new else old, new)


def trimmed(pieces: tuple[Piece, ...], *, words: int = SENTENCE_CONTEXT) -> tuple[Piece, ...]:
    """``pieces`` with their unmarked text cut to ``words`` words beside each marked
    piece (``…`` where text was left out); a sentence without marks keeps its start."""
    if not any(marked for _, marked in pieces):
        return tuple((_head_words(text, 2 * words), False) for text, _ in pieces[:1])
    out: list[Piece] = []
    last = len(pieces) - 1
    for n, (text, marked) in enumerate(pieces):
        out.append(
            (_cut_marked(text) if marked else cut_run(text, n=n, last=last, words=words), marked)
        )
    return tuple(out)


def _cut_marked(text: str) -> str:
    """A marked run of more than twice :data:`MARKED_WORDS` words cut to its start."""
    parts = text.split()
    if len(parts) <= 2 * MARKED_WORDS:
        return text
    lead = " " if text[:1].isspace() else ""
    trail = " " if text[-1:].isspace() else ""
    return lead + " ".join(parts[:MARKED_WORDS]) + " …" + trail


def _head_words(text: str, words: int) -> str:
    parts = text.split()
    return text if len(parts) <= words else " ".join(parts[:words]) + " …"


def marked_pieces(text: str, marks: list[list[int]]) -> tuple[Piece, ...]:
    """``text`` cut at its marks (``[start, end)`` offsets, overlapping or not) into
    pieces, each cleaned of illegal characters after the cut so the offsets hold."""
    inside = [False] * len(text)
    for mark in marks:
        if len(mark) == 2:
            for index in range(max(mark[0], 0), min(mark[1], len(text))):
                inside[index] = True
    pieces: list[Piece] = []
    start = 0
    for index in range(1, len(text) + 1):
        if index == len(text) or inside[index] != inside[start]:
            piece = clean_text(text[start:index])
            if piece:
                pieces.append((piece, inside[start]))
            start = index
    return tuple(pieces)


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
