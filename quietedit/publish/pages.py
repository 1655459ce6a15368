"""What each page of the site shows, computed from archive values (pure: no I/O, no clock).

The shell reads a document's record, revisions, events and comparisons; this module turns
them into plain view values that the templates render: the article page, one diff page per
consecutive pair, and one :class:`Edit` summary per pair that the listings, feeds and
stats are made of. Every piece of archive text passes through :func:`clean_text` (XML- and
HTML-illegal control characters removed) and every link through :func:`safe_http_url`
(http(s) or nothing), so nothing the archive holds can become markup or a script URL.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Final, TypeAlias
from urllib.parse import urlsplit

from quietedit.model import JSON, Event, Revision, format_timestamp, parse_timestamp

Segment: TypeAlias = tuple[str, str]
"""A run of a word diff: ``("=", text)`` kept, ``("-", text)`` removed, ``("+", text)`` added."""

SIGNIFICANCE_ORDER: Final = ("cosmetic", "minor", "moderate", "substantive")
"""The analysis's significance names, least to most; an unknown name ranks as cosmetic."""

EXCERPT_WORDS: Final = 40
"""Words of context-plus-change in an edit's excerpt: enough to read the change in a list."""

_ILLEGAL: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff\ud800-\udfff]")


def clean_text(text: str) -> str:
    """``text`` without the control characters XML 1.0 forbids (and DEL, and lone surrogates)."""
    return _ILLEGAL.sub("", text)


def safe_http_url(url: object) -> str | None:
    """``url`` if it is an http(s) URL with a host and no control characters, else ``None``."""
    if not isinstance(url, str) or _ILLEGAL.search(url) or any(c.isspace() for c in url):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in {"http", "https"} or not parts.hostname:
        return None
    return url


def host_slug(url: str | None) -> str:
    """A source slug from a URL's host (``www.example.org`` → ``example-org``)."""
    host = (urlsplit(url).hostname or "") if url else ""
    host = host.removeprefix("www.")
    slug = re.sub(r"[^a-z0-9]+", "-", host.lower()).strip("-")[:63].strip("-")
    return slug or "unknown-source"


def parse_publisher_date(text: str | None) -> datetime | None:
    """A publisher's ISO 8601 date with a zone, in UTC; ``None`` if absent or unreadable."""
    if not text:
        return None
    try:
        return parse_timestamp(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None


def significance_rank(value: JSON) -> int:
    """An orderable rank for a classification's ``significance`` (name or number)."""
    if isinstance(value, bool):
        return 0
    if isinstance(value, int | float):
        return int(value)
    if isinstance(value, str) and value in SIGNIFICANCE_ORDER:
        return SIGNIFICANCE_ORDER.index(value)
    if isinstance(value, dict):
        return significance_rank(value.get("rank", value.get("name")))
    return 0


def significance_name(value: JSON) -> str:
    if isinstance(value, dict):
        value = value.get("name", value.get("rank"))
    return clean_text(str(value)) if value is not None else "unknown"


@dataclass(frozen=True, slots=True)
class Source:
    """Where documents come from: a feed of feeds.yaml, or a host when no feed is known."""

    slug: str
    name: str
    url: str | None = None


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

    @property
    def day(self) -> str:
        return self.observed_at[:10]

    def order_key(self) -> tuple[str, int, str, str, int]:
        """Listing order, newest first: day, then significance, then time, then identity."""
        return (self.day, self.rank, self.observed_at, self.document, self.number)

    def to_record(self) -> dict[str, JSON]:
        record: dict[str, JSON] = {name: getattr(self, name) for name in Edit.__dataclass_fields__}
        record["kinds"] = list(self.kinds)
        record["excerpt"] = [list(s) for s in self.excerpt]
        return record

    @classmethod
    def from_record(cls, record: dict[str, JSON]) -> Edit:
        """Read :meth:`to_record`'s output back (the build cache reads thousands per build)."""
        kinds, excerpt = record["kinds"], record["excerpt"]
        number, rank, silent = record["number"], record["rank"], record["silent"]
        if not isinstance(kinds, list) or not isinstance(excerpt, list):
            raise ValueError("edit record: kinds and excerpt must be lists")
        if not isinstance(number, int) or not isinstance(rank, int):
            raise ValueError("edit record: number and rank must be integers")
        url, published = record["url"], record["published"]
        return cls(
            document=str(record["document"]),
            number=number,
            observed_at=str(record["observed_at"]),
            previous_at=str(record["previous_at"]),
            title=str(record["title"]),
            old_title=str(record["old_title"]),
            url=url if isinstance(url, str) else None,
            source=str(record["source"]),
            kinds=tuple(str(k) for k in kinds),
            significance=str(record["significance"]),
            rank=rank,
            silent=silent if isinstance(silent, bool) else None,
            excerpt=tuple((str(s[0]), str(s[1])) for s in excerpt if isinstance(s, list)),
            summary=str(record["summary"]),
            published=published if isinstance(published, str) else None,
        )


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether the publisher said so: ``silent`` True/False, or None when unknown."""

    silent: bool | None
    label: str
    evidence: tuple[str, ...] = ()


def verdict_of(classification: dict[str, JSON]) -> Verdict:
    """The verdict and, as evidence, each publisher signal with what was seen."""
    silent = classification.get("silent")
    evidence = tuple(_signal_line(s) for s in _list(classification.get("signals")))
    if silent is True:
        return Verdict(True, "silent", evidence)
    if silent is False:
        return Verdict(False, "acknowledged", evidence)
    return Verdict(None, "not judged", evidence)


def _list(value: JSON) -> list[JSON]:
    return value if isinstance(value, list) else []


def _signal_line(signal: JSON) -> str:
    if not isinstance(signal, dict):
        return clean_text(str(signal))
    name = clean_text(str(signal.get("name", "signal"))).replace("_", " ")
    seen = signal.get("seen")
    state = "seen" if seen is True else "not seen" if seen is False else "not known"
    evidence = signal.get("evidence")
    tail = f" — {clean_text(evidence)}" if isinstance(evidence, str) and evidence else ""
    return f"{name}: {state}{tail}"


def findings_of(classification: dict[str, JSON]) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """``(kind, significance, evidence lines)`` for each finding of the classification."""
    findings = classification.get("findings")
    if not isinstance(findings, dict):
        return ()
    out = []
    for kind, finding in sorted(findings.items()):
        if not isinstance(finding, dict):
            continue
        lines = tuple(clean_text(str(line)) for line in _list(finding.get("evidence")))
        out.append((clean_text(kind), significance_name(finding.get("significance")), lines))
    return tuple(out)


def kinds_of(classification: dict[str, JSON]) -> tuple[str, ...]:
    kinds = classification.get("kinds")
    if isinstance(kinds, dict):
        kinds = list(kinds)
    if not isinstance(kinds, list):
        return ()
    return tuple(sorted({clean_text(str(k)) for k in kinds if isinstance(k, str) and k}))


def summary_text(diff: dict[str, JSON]) -> str:
    """One line saying what changed, from the diff's ``summary`` and title change."""
    summary = diff.get("summary")
    parts: list[str] = []
    if _title_changed(diff):
        parts.append("headline changed")
    if isinstance(summary, dict):
        for op in ("changed", "added", "removed", "moved", "split", "merged"):
            count = summary.get(op, summary.get(f"blocks_{op}"))
            if isinstance(count, int) and not isinstance(count, bool) and count:
                noun = "paragraph" if count == 1 else "paragraphs"
                parts.append(f"{count} {noun} {op}")
    return ", ".join(parts) if parts else "text changed"


def title_segments(diff: dict[str, JSON]) -> tuple[Segment, ...]:
    """The headline's word diff, when the diff carries one."""
    title = diff.get("title")
    if not isinstance(title, dict):
        return ()
    return as_segments(title.get("words", title.get("segments", title.get("ops"))))


def _title_changed(diff: dict[str, JSON]) -> bool:
    summary, title = diff.get("summary"), diff.get("title")
    if isinstance(summary, dict) and isinstance(summary.get("title_changed"), bool):
        return bool(summary["title_changed"])
    return isinstance(title, dict) and title.get("op") == "changed"


PARAGRAPH_BREAK: Final = "|"
"""A pseudo-op between the parts of a split or merged block: rendered as a ¶ mark."""


def as_segments(value: JSON) -> tuple[Segment, ...]:
    """Word-diff segments from a Diff JSON ``words`` value.

    ``[[op, text], ...]`` for one block; ``[[[op, text], ...], ...]`` (one list per part)
    for a split or merge, whose parts are joined with a :data:`PARAGRAPH_BREAK`.
    """
    if not isinstance(value, list):
        return ()
    if value and all(
        isinstance(part, list) and all(isinstance(s, list) for s in part) for part in value
    ):
        joined: list[Segment] = []
        for n, part in enumerate(value):
            if n:
                joined.append((PARAGRAPH_BREAK, ""))
            joined.extend(as_segments(part))
        return tuple(joined)
    segments: list[Segment] = []
    for item in value:
        if isinstance(item, list) and len(item) == 2:
            op, text = item
        elif isinstance(item, dict):
            op, text = item.get("op"), item.get("text")
        else:
            continue
        if op in {"=", "-", "+"} and isinstance(text, str):
            segments.append((str(op), clean_text(text)))
    return tuple(segments)


def excerpt_of(rows: tuple[DiffRow, ...], *, words: int = EXCERPT_WORDS) -> tuple[Segment, ...]:
    """A short excerpt around the first change: kept context trimmed, changes whole-ish."""
    for row in rows:
        if row.op == "changed" and any(op != "=" for op, _ in row.segments):
            return _trim(row.segments, words)
        if row.op in {"added", "removed"}:
            text = row.new_text if row.op == "added" else row.old_text
            return _trim((("+" if row.op == "added" else "-", text),), words)
    for row in rows:
        if row.op in {"moved", "split", "merged"}:
            return _trim((("=", row.new_text or row.old_text),), words)
    return ()


def _trim(segments: tuple[Segment, ...], budget: int) -> tuple[Segment, ...]:
    first = next((i for i, (op, _) in enumerate(segments) if op != "="), 0)
    out: list[Segment] = []
    if first > 0 and segments[first - 1][0] == "=":
        lead = segments[first - 1][1].split()
        out.append(("=", ("… " if len(lead) > 8 else "") + " ".join(lead[-8:]) + " "))
    used = sum(len(t.split()) for _, t in out)
    for op, text in segments[first:]:
        words = text.split()
        if used + len(words) > budget:
            room = max(budget - used, 3)
            out.append((op, " ".join(words[:room]) + " …"))
            break
        out.append((op, text))
        used += len(words)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class DiffRow:
    """One aligned block of a diff, ready for the inline and side-by-side views.

    ``old_index``/``new_index`` are 0-based block positions (``None`` on the side where the
    block does not exist); ``segments`` holds the word diff of changed, split and merged
    blocks; ``anchor`` is this row's id and ``partner`` the id of the row a moved block's
    other end is shown at.
    """

    op: str
    old_index: int | None
    new_index: int | None
    old_text: str
    new_text: str
    segments: tuple[Segment, ...]
    anchor: str
    partner: str | None = None
    direction: str | None = None


def _positions(value: JSON) -> tuple[int, ...]:
    if isinstance(value, bool):
        return ()
    if isinstance(value, int):
        return (value,)
    if isinstance(value, list):
        return tuple(v for v in value if isinstance(v, int) and not isinstance(v, bool))
    if isinstance(value, dict):
        return _positions(value.get("start", value.get("index")))
    return ()


def diff_rows(diff: dict[str, JSON], old: Revision, new: Revision) -> tuple[DiffRow, ...]:
    """The diff's block operations as rows; a moved block becomes a source and a target row."""
    old_texts = [clean_text(b.text) for b in old.article.blocks]
    new_texts = [clean_text(b.text) for b in new.article.blocks]
    blocks = diff.get("blocks")
    rows: list[DiffRow] = []
    moves: list[DiffRow] = []
    for index, entry in enumerate(blocks if isinstance(blocks, list) else []):
        if not isinstance(entry, dict) or not isinstance(entry.get("op"), str):
            continue
        op = str(entry["op"])
        olds = _positions(entry.get("old", entry.get("old_positions", entry.get("from"))))
        news = _positions(entry.get("new", entry.get("new_positions", entry.get("to"))))
        olds = tuple(i for i in olds if 0 <= i < len(old_texts))
        news = tuple(i for i in news if 0 <= i < len(new_texts))
        old_text = " ".join(old_texts[i] for i in olds)
        new_text = " ".join(new_texts[i] for i in news)
        segments = as_segments(entry.get("words", entry.get("segments", entry.get("ops"))))
        parts = entry.get("parts")
        if not segments and isinstance(parts, list):
            segments = tuple(s for part in parts for s in as_segments(part))
        row = DiffRow(
            op,
            olds[0] if olds else None,
            news[0] if news else None,
            old_text,
            new_text,
            segments,
            anchor=f"b{index + 1}",
        )
        if op == "moved":
            moves.append(row)
        rows.append(row)
    return tuple(_link_moves(rows, moves))


def _link_moves(rows: list[DiffRow], moves: list[DiffRow]) -> list[DiffRow]:
    """Give each moved block a stub at its old place, linked both ways."""
    if not moves:
        return rows
    out: list[DiffRow] = []
    for row in rows:
        if row.op != "moved":
            out.append(row)
            continue
        source = f"{row.anchor}-from"
        moved_down = (row.new_index or 0) > (row.old_index or 0)
        out.append(
            DiffRow(
                "moved",
                row.old_index,
                row.new_index,
                row.old_text,
                row.new_text,
                row.segments,
                anchor=row.anchor,
                partner=source,
                direction="down" if moved_down else "up",
            )
        )
    # the stubs go where the old position falls among the rows, in old-text order
    for move in [r for r in out if r.op == "moved"]:
        stub = DiffRow(
            "moved-from",
            move.old_index,
            None,
            move.old_text,
            "",
            (),
            anchor=str(move.partner),
            partner=move.anchor,
            direction=move.direction,
        )
        position = len(out)
        for i, other in enumerate(out):
            if (
                other.op not in {"moved", "added"}
                and other.old_index is not None
                and move.old_index is not None
                and other.old_index > move.old_index
            ):
                position = i
                break
        out.insert(position, stub)
    return out


SIDE_CONTEXT: Final = 1
"""Unchanged paragraphs shown around each change in the side-by-side view (the inline view
shows the whole article)."""


def side_by_side(rows: tuple[DiffRow, ...]) -> tuple[DiffRow | int, ...]:
    """The rows of the side-by-side view: changes with ``SIDE_CONTEXT`` kept rows around
    them; each longer run of kept rows becomes its length (an "N unchanged" marker)."""
    shown = [r for r in rows if r.op != "moved-from"]
    keep = [r.op != "kept" for r in shown]
    near = [
        any(keep[j] for j in range(max(0, i - SIDE_CONTEXT), min(len(shown), i + SIDE_CONTEXT + 1)))
        for i in range(len(shown))
    ]
    out: list[DiffRow | int] = []
    for row, visible in zip(shown, near, strict=True):
        if visible:
            out.append(row)
        elif out and isinstance(out[-1], int):
            out[-1] += 1
        else:
            out.append(1)
    return tuple(out)


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
) -> Edit:
    """The :class:`Edit` summary of the pair ``old`` → ``new`` (``rows``: its diff rows,
    when the caller has them already)."""
    rows = diff_rows(diff, old, new) if rows is None else rows
    published = parse_publisher_date(
        new.article.publisher.date_published or old.article.publisher.date_published
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
        kinds=kinds_of(classification),
        significance=significance_name(classification.get("significance")),
        rank=significance_rank(classification.get("significance")),
        silent=verdict_of(classification).silent,
        excerpt=excerpt_of(rows),
        summary=summary_text(diff),
        published=format_timestamp(published) if published else None,
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
    if event.kind == "anomaly":
        reason = detail.get("reason")
        why = f": {clean_text(str(reason))}" if reason else ""
        return f"A fetch looked broken and was not stored as a revision{why}."
    return f"Event “{clean_text(event.kind)}” was recorded."


def headline_history(revisions: list[Revision]) -> tuple[tuple[int, str, str], ...]:
    """Each headline the article had, in order: (first revision, first seen, title)."""
    history: list[tuple[int, str, str]] = []
    for revision in revisions:
        title = clean_text(revision.article.title)
        if not history or history[-1][2] != title:
            history.append((revision.number, observed(revision), title))
    return tuple(history)
