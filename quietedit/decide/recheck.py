"""The re-check policy: which known articles to fetch again now (pure).

State in, one decision per candidate out; no clock (``now`` is a parameter), no I/O.

The curve: an article is re-checked after ``age_factor`` * its age, floored at
``min_interval`` and capped at ``max_interval`` — self-similar rather than tiered, because
the rate at which an article is still being edited falls off roughly like 1/age. Age counts
from a *plausible publication date* (not discovery: an archive article that enters a feed
today is not a fresh article), and an observed edit restarts the curve at its steep end.
An article retires after ``observation_window`` * (1 + observed changes) without a change,
the multiplier capped at ``max_window_factor``.

A feed's ``updated`` claim for an entry makes it due at once — even a retired one — but a
feed that claims ``distrust_after_claims`` times in a row without a revision loses that
power, and earns it back with the first claim that yields one. A distrusted feed still gets
one *probe* claim per ``probe_interval``, so it can earn trust back (the seed's known
limitation: a distrusted feed whose articles had all retired could never be tested again).

A failing article is not abandoned: it backs off exponentially from ``min_interval`` up to
``failure_max_interval`` and is retried that rarely until it would have retired anyway.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from enum import IntEnum
from typing import Final, Literal

from quietedit.config.settings import RecheckSettings

EARLIEST_PLAUSIBLE: Final = datetime(1995, 1, 1, tzinfo=UTC)
"""Publication dates before the first news websites are feed noise, not history."""


RecheckPolicy = RecheckSettings
"""The policy's numbers are ``settings.recheck`` itself (seconds): ``RecheckPolicy()`` is the
defaults, and a run passes ``settings.recheck`` as the policy."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """What the policy knows of one article.

    ``claimed_at`` is the newest ``updated`` value a feed announced for it that no check
    has acted on yet; ``changes`` counts observed edits (revisions after the first).
    """

    key: str
    host: str
    discovered_at: datetime
    published_at: datetime | None = None
    feed: str | None = None
    last_checked_at: datetime | None = None
    last_changed_at: datetime | None = None
    changes: int = 0
    failures: int = 0
    last_failure_at: datetime | None = None
    claimed_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class FeedTrust:
    """How far a feed's ``updated`` claims are believed."""

    unproductive_claims: int = 0
    last_probe_at: datetime | None = None

    def trusted(self, policy: RecheckPolicy) -> bool:
        return self.unproductive_claims < policy.distrust_after_claims


class Reason(IntEnum):
    """Why a candidate is due; the order is the order of urgency within a run."""

    NEW = 0  # never fetched: its first revision is the original text, before any edit
    CLAIM = 1  # a trusted feed says it changed
    RETRY = 2  # the last fetch failed and the back-off has run out
    SCHEDULE = 3  # the curve says it is time
    PROBE = 4  # a distrusted feed's claim, honoured once per probe interval


@dataclass(frozen=True, slots=True)
class Decision:
    """The policy's verdict on one candidate at ``now``."""

    key: str
    due: bool
    reason: Reason | None
    due_at: datetime | None  # when it is (or was) next due; None once retired
    overdue: float  # how late, in units of its own interval (0 = just due)
    retired: bool


@dataclass(frozen=True, slots=True)
class RunPlan:
    """The candidates a run fetches, in order, and the due ones it leaves for the next."""

    selected: tuple[Decision, ...]
    deferred: tuple[Decision, ...]


def interval(candidate: Candidate, *, policy: RecheckPolicy, now: datetime) -> float:
    """Seconds between two checks of ``candidate`` at ``now``, on the curve."""
    age = max(0.0, (now - _anchor(candidate)).total_seconds())
    return min(max(policy.age_factor * age, policy.min_interval), policy.max_interval)


def is_retired(candidate: Candidate, *, policy: RecheckPolicy, now: datetime) -> bool:
    """Whether nothing has happened to ``candidate`` for longer than its window."""
    factor = min(1 + candidate.changes, policy.max_window_factor)
    quiet = (now - _anchor(candidate)).total_seconds()
    return quiet >= policy.observation_window * factor


def decide(
    candidate: Candidate,
    *,
    policy: RecheckPolicy,
    now: datetime,
    trust: FeedTrust | None = None,
) -> Decision:
    """Whether ``candidate`` is due at ``now``, why, and how overdue."""
    if candidate.last_checked_at is None and candidate.last_failure_at is None:
        return Decision(candidate.key, True, Reason.NEW, now, _NEW_OVERDUE, retired=False)
    pending_claim = candidate.claimed_at is not None and (
        candidate.last_checked_at is None or candidate.claimed_at > candidate.last_checked_at
    )
    if pending_claim:
        trust = trust or FeedTrust()
        if trust.trusted(policy):
            return Decision(candidate.key, True, Reason.CLAIM, now, _NEW_OVERDUE, retired=False)
        probe_due = trust.last_probe_at is None or (
            (now - trust.last_probe_at).total_seconds() >= policy.probe_interval
        )
        if probe_due:
            return Decision(candidate.key, True, Reason.PROBE, now, 0.0, retired=False)
    if is_retired(candidate, policy=policy, now=now):
        return Decision(candidate.key, False, None, None, 0.0, retired=True)
    if candidate.failures and candidate.last_failure_at is not None:
        # the exponent is capped: 2**1024 overflows a float, and 2**40 intervals is forever
        doubling = 2 ** min(candidate.failures, 40)
        wait = min(policy.min_interval * doubling, policy.failure_max_interval)
        since, reason = candidate.last_failure_at, Reason.RETRY
    else:
        wait = interval(candidate, policy=policy, now=now)
        since = candidate.last_checked_at or candidate.discovered_at
        reason = Reason.SCHEDULE
    due_at = since + timedelta(seconds=wait)
    overdue = (now - due_at).total_seconds() / wait
    due = now >= due_at
    return Decision(candidate.key, due, reason if due else None, due_at, overdue, retired=False)


def plan_run(
    candidates: Iterable[Candidate],
    *,
    policy: RecheckPolicy,
    now: datetime,
    max_articles: int,
    trust: Mapping[str, FeedTrust] | None = None,
    host_budget: Mapping[str, int] | None = None,
) -> RunPlan:
    """Pick the due candidates a run fetches: most urgent first, within the budgets.

    Order: new articles, trusted claims, retries and scheduled checks by how overdue they
    are (in units of their own interval), then probes. At most ``max_articles`` are
    selected, at most ``host_budget[host]`` per host (hosts not named are unlimited), and at
    most one probe per distrusted feed. Due candidates that do not fit are ``deferred``:
    they carry over, and being more overdue next time moves them up.
    """
    trust = trust or {}
    by_key: dict[str, Candidate] = {}
    due: list[Decision] = []
    for candidate in candidates:
        feed_trust = trust.get(candidate.feed) if candidate.feed else None
        decision = decide(candidate, policy=policy, now=now, trust=feed_trust)
        if decision.due:
            by_key[candidate.key] = candidate
            due.append(decision)
    due.sort(key=lambda d: (d.reason, -d.overdue, d.key))
    selected: list[Decision] = []
    deferred: list[Decision] = []
    per_host: Counter[str] = Counter()
    probed: set[str] = set()
    for decision in due:
        candidate = by_key[decision.key]
        budget = None if host_budget is None else host_budget.get(candidate.host)
        fits = len(selected) < max_articles and (
            budget is None or per_host[candidate.host] < budget
        )
        if decision.reason is Reason.PROBE and candidate.feed in probed:
            fits = False
        if fits:
            selected.append(decision)
            per_host[candidate.host] += 1
            if decision.reason is Reason.PROBE and candidate.feed is not None:
                probed.add(candidate.feed)
        else:
            deferred.append(decision)
    return RunPlan(selected=tuple(selected), deferred=tuple(deferred))


Outcome = Literal["changed", "unchanged", "failed"]


def after_check(candidate: Candidate, *, outcome: Outcome, now: datetime) -> Candidate:
    """The candidate after a check at ``now``; any pending claim is consumed.

    ``changed`` means a new revision was stored (the first one counts as the original,
    not as a change), ``failed`` any fetch or extraction failure, including 404/410.
    """
    if outcome == "failed":
        return replace(
            candidate, failures=candidate.failures + 1, last_failure_at=now, claimed_at=None
        )
    checked = replace(candidate, last_checked_at=now, failures=0, claimed_at=None)
    if outcome == "changed":
        first = candidate.last_checked_at is None and candidate.last_changed_at is None
        return replace(
            checked,
            changes=candidate.changes if first else candidate.changes + 1,
            last_changed_at=now if not first else candidate.last_changed_at,
        )
    return checked


def after_claim(
    trust: FeedTrust, *, produced_revision: bool, probe: bool, now: datetime
) -> FeedTrust:
    """The feed's trust after a check that one of its claims caused."""
    unproductive = 0 if produced_revision else trust.unproductive_claims + 1
    return FeedTrust(
        unproductive_claims=unproductive, last_probe_at=now if probe else trust.last_probe_at
    )


def plausible_publication(published_at: datetime | None, *, discovered_at: datetime) -> datetime:
    """The date an article's age counts from: its publication date if believable.

    A date before 1995 or after the discovery is noise (a CMS default, a clock error), so
    the discovery time stands in for it.
    """
    if published_at is None or not EARLIEST_PLAUSIBLE <= published_at <= discovered_at:
        return discovered_at
    return published_at


_NEW_OVERDUE: Final = float("inf")


def _anchor(candidate: Candidate) -> datetime:
    """Where the curve starts: the later of publication and the last observed edit."""
    origin = plausible_publication(candidate.published_at, discovered_at=candidate.discovered_at)
    if candidate.last_changed_at is not None and candidate.last_changed_at > origin:
        return candidate.last_changed_at
    return origin
