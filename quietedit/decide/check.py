"""Checking one article, decided: what was known and what was read -> the writes (pure).

A check is gather -> decide -> apply. The shell fetches the page, has it read
(:func:`~quietedit.decide.reading.read_page`) and loads what the archive holds of the
document, as far as :func:`needs` says; :func:`plan_check` turns that into a
:class:`CheckPlan`; the shell applies it (:func:`quietedit.ingest.check.apply_check`) in
the order that keeps a killed run sound: evidence, the revision naming it, the events
(each naming a revision already stored), the document record last.

The decision, first match wins:

- the host's hourly budget is spent (``HostDeferredError``): no write at all, the
  document carries over to the next run;
- HTTP 404 or 410: the document is ``gone`` (an event the first time), a failed check;
- a robots.txt refusal or any other fetch failure: a failed check;
- 304 Not Modified: unchanged, the page's validators kept;
- a final URL of another article: a ``redirected`` event when the location is new, and
  landing on a home or section page is a take-down (status ``redirected``, a failed check);
- otherwise the page's text, judged by the versioning rules through the host's profile
  (:func:`~quietedit.decide.profiles.judge_observation`): a new revision (the re-check
  curve restarts), a ``flip-flop`` or ``anomaly`` event (once per switch), or nothing new.
  A document that was gone or redirected and is served again is ``restored`` (an event,
  once), unless what it serves is an anomaly. A live blog's page is first compared entry
  by entry (:mod:`quietedit.decide.liveblog`): new entries alone are a ``live-update``
  (an event holding them, no revision); an edited, deleted or framing text goes through
  the versioning rules as above, and a stored revision gets an event with its layout.

Every check but a deferral moves the document's schedule on
(:func:`~quietedit.decide.recheck.after_check`) and rewrites its record.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Final, Literal

from quietedit.article.identity import canonical_url, is_home_or_section
from quietedit.article.template import HostProfile
from quietedit.decide.liveblog import LiveJudgement, judge_live, update_detail
from quietedit.decide.memory import DocumentState, Seen, document_to_record
from quietedit.decide.profiles import judge_observation
from quietedit.decide.reading import PageReading
from quietedit.decide.recheck import Outcome, after_check
from quietedit.errors import (
    FetchError,
    HostDeferredError,
    HTTPStatusError,
    InvalidURLError,
    RobotsDisallowedError,
)
from quietedit.fetch.cache import CachedResponse
from quietedit.fetch.document import RawDocument
from quietedit.model import JSON, Article
from quietedit.revisions import Observation
from quietedit.version import __version__

EXTRACTOR: Final = f"quietedit/{__version__}"
"""What a revision says extracted its text."""

GONE_STATUSES: Final = frozenset({404, 410})
"""Statuses that mean the article was taken down (any other error may pass)."""

CheckStatus = Literal[
    "new-revision",
    "live-update",
    "unchanged",
    "not-modified",
    "flip-flop",
    "anomaly",
    "gone",
    "redirected",
    "robots",
    "failed",
    "deferred",
]

FAILED_STATUSES: Final[frozenset[CheckStatus]] = frozenset(
    {"gone", "redirected", "robots", "failed"}
)
"""The statuses of a check the re-check policy counts as failed (it backs off)."""


@dataclass(frozen=True, slots=True)
class Needs:
    """What a check's decision needs gathered beside the fetch: ``page``, the page read
    and every stored revision (the versioning rules compare them all); ``newest``, the
    newest revision's number (an event refers to it)."""

    page: bool = False
    newest: bool = False


@dataclass(frozen=True, slots=True)
class Stored:
    """What the archive holds of the document, as far as :func:`needs` asked.

    ``revisions`` are the (content hash, article) of revisions 1..n in order, loaded with
    the page; ``newest`` is n, ``None`` for a document without a revision.
    """

    newest: int | None = None
    revisions: tuple[tuple[str, Article], ...] = ()


@dataclass(frozen=True, slots=True)
class Gathered:
    """What a check gathered: the fetch of ``url`` (the page or why there is none), the
    page's validators after it (``None``: none known), the page's reading and what is
    stored, each as far as :func:`needs` asked."""

    fetched: RawDocument | FetchError
    url: str
    validators: CachedResponse | None = None
    reading: PageReading | None = None
    stored: Stored = field(default_factory=Stored)


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append to the document (``revision``: the one it refers to);
    ``response``, the page it was seen in, to keep as its evidence (a live update's
    entries are in no revision)."""

    kind: str
    observed_at: datetime
    revision: int | None
    detail: dict[str, JSON]
    response: RawDocument | None = None


@dataclass(frozen=True, slots=True)
class NewRevision:
    """A revision to store as number ``number`` (the newest stored + 1).

    ``response`` is the page as fetched (status, headers, final URL, body), kept first as
    evidence; where it is kept goes into ``observation.evidence`` (left ``None`` here).
    ``fingerprint`` is the content hash of the text as extracted, whatever profile judged it.
    """

    number: int
    observation: Observation
    response: RawDocument
    fingerprint: str


def _http_facts(page: RawDocument) -> dict[str, JSON]:
    """A revision's ``http``: the response's status and validators, and for a page rendered
    in a browser, which browser (the text then comes from the rendered DOM)."""
    facts: dict[str, JSON] = {
        "status": page.status,
        "etag": page.etag,
        "last_modified": page.last_modified,
    }
    if page.rendering is not None:
        facts["rendered_by"] = page.rendering.browser
    return facts


@dataclass(frozen=True, slots=True)
class CheckResult:
    """The document's new state and what the check found (``revision``: the one stored)."""

    state: DocumentState
    status: CheckStatus
    detail: str = ""
    revision: int | None = None

    @property
    def produced_revision(self) -> bool:
        return self.status == "new-revision"


@dataclass(frozen=True, slots=True)
class CheckPlan:
    """A check's writes and its result: the ``revision`` to store (or none), the
    ``events`` to append in order, and the document ``record`` to write last (``None``:
    the document is left untouched, as by a deferral)."""

    result: CheckResult
    revision: NewRevision | None = None
    events: tuple[NewEvent, ...] = ()
    record: dict[str, JSON] | None = None


def needs(state: DocumentState, fetched: RawDocument | FetchError) -> Needs:
    """What :func:`plan_check` needs to know, beside the fetch, to decide on ``fetched``
    (the branches of the module docstring)."""
    if isinstance(fetched, HostDeferredError):
        return Needs()
    if isinstance(fetched, HTTPStatusError) and fetched.status in GONE_STATUSES:
        return Needs(newest=state.status != "gone")
    if isinstance(fetched, FetchError) or fetched.not_modified:
        return Needs()
    if _redirected_elsewhere(state, fetched.url) and is_home_or_section(fetched.url):
        return Needs(newest=state.location != fetched.url)
    return Needs(page=True, newest=True)


def plan_check(
    state: DocumentState,
    gathered: Gathered,
    *,
    now: datetime,
    signals: dict[str, JSON] | None = None,
    profile: HostProfile | None = None,
) -> CheckPlan:
    """The writes a check of ``state``'s article at ``now`` makes of what it ``gathered``
    (see the module docstring). ``signals`` is what the feeds listing the article claim
    now, kept with a new revision; ``profile`` the host's template, through which the text
    is compared with the stored revisions (:mod:`quietedit.decide.profiles`).

    Raises ``ValueError`` when ``gathered`` lacks the reading :func:`needs` asked for.
    """
    fetched = gathered.fetched
    stored = gathered.stored
    if isinstance(fetched, HostDeferredError):
        return CheckPlan(CheckResult(state, "deferred", str(fetched)))
    if isinstance(fetched, HTTPStatusError) and fetched.status in GONE_STATUSES:
        gone = NewEvent("gone", now, stored.newest, {"status": fetched.status})
        return _checked(
            replace(state, status="gone"),
            "gone",
            f"HTTP {fetched.status}",
            outcome="failed",
            now=now,
            events=() if state.status == "gone" else (gone,),
        )
    if isinstance(fetched, RobotsDisallowedError):
        return _checked(state, "robots", str(fetched), outcome="failed", now=now)
    if isinstance(fetched, FetchError):
        return _checked(state, "failed", str(fetched), outcome="failed", now=now)
    validators = gathered.validators
    state = replace(
        state,
        etag=validators.etag if validators else None,
        last_modified=validators.last_modified if validators else None,
    )
    if fetched.not_modified:
        return _checked(state, "not-modified", "304 Not Modified", outcome="unchanged", now=now)
    events: list[NewEvent] = []
    moved = _redirected_elsewhere(state, fetched.url)
    if moved and state.location != fetched.url:
        detail: dict[str, JSON] = {"location": fetched.url, "from": gathered.url}
        events.append(NewEvent("redirected", now, stored.newest, detail))
        state = replace(state, location=fetched.url)
    if moved and is_home_or_section(fetched.url):
        # a story that now lands on a home or section page has been taken down
        state = replace(state, status="redirected")
        detail_text = f"now redirects to {fetched.url}"
        return _checked(state, "redirected", detail_text, outcome="failed", now=now, events=events)
    reading = gathered.reading
    if reading is None:
        raise ValueError(
            f"article {state.url}: the page of {fetched.url} was not read; gather what "
            "needs() asks for before plan_check()"
        )
    return _judged(
        state,
        fetched,
        reading,
        revisions=stored.revisions,
        events=events,
        signals=signals,
        profile=profile,
        now=now,
    )


def plan_failure(state: DocumentState, detail: str, *, now: datetime) -> CheckPlan:
    """The writes of a check that failed in the shell (a bug, a damaged file): the
    document backs off like after a failed fetch, so it is never pinned for ever."""
    return _checked(state, "failed", detail, outcome="failed", now=now)


def _judged(
    state: DocumentState,
    page: RawDocument,
    reading: PageReading,
    *,
    revisions: tuple[tuple[str, Article], ...],
    events: list[NewEvent],
    signals: dict[str, JSON] | None,
    profile: HostProfile | None,
    now: datetime,
) -> CheckPlan:
    """The plan for a page read: its text judged against the stored ``revisions``;
    ``events`` are those already planned (a redirect), appended to."""
    article = reading.article
    live = judge_live(state.live, article, reading.live)
    if live.action in ("update", "unchanged"):
        newest = len(revisions) or None
        return _live_only(state, page, reading, live, newest=newest, events=events, now=now)
    # with a profile, both sides are compared without the host's furniture (profiles.py)
    verdict, seen = judge_observation(
        article,
        plain=reading.fingerprint,
        words=reading.words,
        revisions=revisions,
        seen=state.seen,
        profile=profile,
    )
    # a broken page (a wall, a text cut at once) teaches the ledger nothing
    ledger = state.live if verdict.action == "anomaly" else live.ledger
    state = replace(state, title=article.title or state.title, seen=seen, live=ledger)
    newest = len(revisions) or None
    if verdict.action == "store":
        number = len(revisions) + 1
        revision = NewRevision(
            number,
            Observation(
                url=page.url,
                observed_at=now,
                article=article,
                extractor=EXTRACTOR,
                encoding=reading.encoding,
                http=_http_facts(page),
                signals=signals,
            ),
            response=page,
            fingerprint=reading.fingerprint,  # what is stored is the text as extracted
        )
        state = _with_layout(state, live, reading, page, number, events=events, now=now)
        state = _restored(state, events, revision=number, now=now)
        plan = _checked(
            state, "new-revision", verdict.reason, outcome="changed", now=now, events=events
        )
        return replace(plan, revision=revision, result=replace(plan.result, revision=number))
    if verdict.action == "unchanged" and newest is not None:
        # the page is the newest revision's text: its layout is that revision's
        state = _with_layout(state, live, reading, page, newest, events=events, now=now)
    if verdict.action in ("flip-flop", "anomaly") and verdict.record_event:
        detail: dict[str, JSON] = {
            "reason": verdict.reason,
            "content_hash": reading.fingerprint,
            "url": page.url,
        }
        refers = verdict.revision if verdict.action == "flip-flop" else newest
        events.append(NewEvent(verdict.action, now, refers, detail))
    if verdict.action != "anomaly":  # the article is served again, whatever its text
        state = _restored(state, events, revision=verdict.revision or newest, now=now)
    status: CheckStatus = (
        "unchanged"
        if verdict.action == "unchanged"
        else "flip-flop"
        if verdict.action == "flip-flop"
        else "anomaly"
    )
    return _checked(state, status, verdict.reason, outcome="unchanged", now=now, events=events)


def _with_layout(
    state: DocumentState,
    live: LiveJudgement,
    reading: PageReading,
    page: RawDocument,
    number: int,
    *,
    events: list[NewEvent],
    now: datetime,
) -> DocumentState:
    """``state`` once its ledger knows revision ``number`` as the page's layout; on a
    confirmed live blog, a ``live-update`` event (appended to ``events``) gives that
    layout to the site, with the check's new entries. Nothing when the page has no stream,
    or the ledger knew this revision already."""
    ledger = state.live
    layout = reading.live
    if ledger is None or layout is None or ledger.revision == number:
        return state
    if ledger.confirmed:  # the revision's entries, for the site's diffs
        detail = update_detail(reading.article, live, url=page.url, layout=layout.entries)
        events.append(NewEvent("live-update", now, number, detail))
    return replace(state, live=ledger.with_revision(number, layout))


def _live_only(
    state: DocumentState,
    page: RawDocument,
    reading: PageReading,
    live: LiveJudgement,
    *,
    newest: int | None,
    events: list[NewEvent],
    now: datetime,
) -> CheckPlan:
    """The plan of a live blog whose entries are all as known, but for new ones (and ones
    paged out): a ``live-update`` event holding the new entries, no revision. When this
    check confirmed the page as a live blog, the event gives the newest revision's layout
    too (the ledger's, if it describes that revision). ``events`` are those already
    planned (a redirect), appended to."""
    ledger = live.ledger
    if live.action == "update" and ledger is not None:
        layout = ledger.layout if live.confirmed_now and ledger.revision == newest else None
        detail = update_detail(reading.article, live, url=page.url, layout=layout)
        events.append(NewEvent("live-update", now, newest, detail, response=page))
    seen = Seen(last_seen=reading.fingerprint, revisions=newest or 0)
    article = reading.article
    state = replace(state, title=article.title or state.title, seen=seen, live=ledger)
    state = _restored(state, events, revision=newest, now=now)
    if live.action == "update":
        detail_text = f"{len(live.new)} new live-blog entries"
        return _checked(
            state, "live-update", detail_text, outcome="changed", now=now, events=events
        )
    return _checked(
        state, "unchanged", "no new live-blog entry", outcome="unchanged", now=now, events=events
    )


def _restored(
    state: DocumentState, events: list[NewEvent], *, revision: int | None, now: datetime
) -> DocumentState:
    """The document served again after being gone or redirected away: say so, once."""
    if state.status == "active":
        return state
    events.append(NewEvent("restored", now, revision, {"was": state.status}))
    return replace(state, status="active")


def _checked(
    state: DocumentState,
    status: CheckStatus,
    detail: str,
    *,
    outcome: Outcome,
    now: datetime,
    events: tuple[NewEvent, ...] | list[NewEvent] = (),
) -> CheckPlan:
    """The plan of a check that ends with ``state`` on its new schedule, recorded."""
    state = replace(state, candidate=after_check(state.candidate, outcome=outcome, now=now))
    return CheckPlan(
        CheckResult(state, status, detail), events=tuple(events), record=document_to_record(state)
    )


def _redirected_elsewhere(state: DocumentState, final_url: str) -> bool:
    """Whether the page now lives at another article's address (not just a variant URL)."""
    try:
        return canonical_url(final_url) != state.url
    except InvalidURLError:
        return True
