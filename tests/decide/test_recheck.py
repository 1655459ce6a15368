"""The re-check policy, tested with plain values: no clock, no files."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quietedit.config import parse_config
from quietedit.decide.recheck import (
    Candidate,
    FeedTrust,
    Reason,
    RecheckPolicy,
    after_check,
    after_claim,
    decide,
    interval,
    is_retired,
    plan_run,
    plausible_publication,
)

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
POLICY = RecheckPolicy()
MIN, HOUR, DAY = timedelta(minutes=1), timedelta(hours=1), timedelta(days=1)


def story(
    key: str = "a",
    *,
    age: timedelta = 4 * HOUR,
    checked_ago: timedelta | None = None,
    host: str = "news.example.org",
    **fields: object,
) -> Candidate:
    """A candidate published ``age`` ago and last checked ``checked_ago`` ago."""
    published = NOW - age
    return Candidate(
        key=key,
        host=host,
        discovered_at=published,
        published_at=published,
        last_checked_at=None if checked_ago is None else NOW - checked_ago,
        **fields,  # type: ignore[arg-type]
    )


def test_the_policy_is_the_recheck_settings_and_its_defaults_are_theirs() -> None:
    settings = parse_config(None, environ={}, source="-", base_dir=Path()).settings
    assert isinstance(settings.recheck, RecheckPolicy)
    assert settings.recheck == POLICY


def test_a_policy_outside_the_settings_bounds_is_refused() -> None:
    with pytest.raises(ValueError, match=r"recheck\.age_factor: 0 is out of range"):
        RecheckPolicy(age_factor=0)


@pytest.mark.parametrize(
    ("age", "expected"),
    [
        (5 * MIN, 10 * MIN),  # floored at 10 minutes
        (4 * HOUR, 1 * HOUR),  # a quarter of the age
        (2 * DAY, 12 * HOUR),  # capped at 12 hours
    ],
)
def test_interval_is_a_quarter_of_the_age_between_floor_and_cap(
    age: timedelta, expected: timedelta
) -> None:
    assert interval(story(age=age), policy=POLICY, now=NOW) == expected.total_seconds()


def test_a_new_article_is_due_at_once_and_first_in_line() -> None:
    decision = decide(story(), policy=POLICY, now=NOW)
    assert (decision.due, decision.reason) == (True, Reason.NEW)


def test_a_checked_article_becomes_due_when_its_interval_has_passed() -> None:
    assert not decide(story(checked_ago=50 * MIN), policy=POLICY, now=NOW).due
    decision = decide(story(checked_ago=61 * MIN), policy=POLICY, now=NOW)
    assert (decision.due, decision.reason) == (True, Reason.SCHEDULE)
    assert decision.due_at == NOW - MIN


def test_age_counts_from_publication_not_discovery() -> None:
    """An archive article entering a feed today does not get a fresh article's attention."""
    old = Candidate(
        key="a",
        host="h",
        discovered_at=NOW - HOUR,
        published_at=NOW - 3 * DAY,
        last_checked_at=NOW - HOUR,
    )
    assert interval(old, policy=POLICY, now=NOW) == (12 * HOUR).total_seconds()


def test_implausible_publication_dates_fall_back_to_discovery() -> None:
    found = NOW - HOUR
    for bogus in (datetime(1970, 1, 1, tzinfo=UTC), NOW + DAY):
        assert plausible_publication(bogus, discovered_at=found) == found
    assert plausible_publication(NOW - 2 * HOUR, discovered_at=found) == NOW - 2 * HOUR


def test_an_observed_edit_restarts_the_curve() -> None:
    quiet = story(age=3 * DAY, checked_ago=20 * MIN)
    edited = story(age=3 * DAY, checked_ago=20 * MIN, last_changed_at=NOW - 20 * MIN, changes=1)
    assert not decide(quiet, policy=POLICY, now=NOW).due
    assert decide(edited, policy=POLICY, now=NOW).due  # 10-minute floor again


def test_retirement_window_grows_with_observed_changes_up_to_the_cap() -> None:
    week = timedelta(days=7)
    assert is_retired(story(age=week, checked_ago=HOUR), policy=POLICY, now=NOW)
    assert not is_retired(story(age=week, checked_ago=HOUR, changes=1), policy=POLICY, now=NOW)
    assert is_retired(story(age=2 * week, checked_ago=HOUR, changes=1), policy=POLICY, now=NOW)
    capped = story(age=4 * week, checked_ago=HOUR, changes=10)  # 1 + 10 capped at 4
    assert is_retired(capped, policy=POLICY, now=NOW)
    retired = decide(story(age=8 * DAY, checked_ago=DAY), policy=POLICY, now=NOW)
    assert (retired.due, retired.retired) == (False, True)


def test_a_trusted_feed_claim_makes_even_a_retired_article_due_now() -> None:
    claimed = story(age=30 * DAY, checked_ago=10 * DAY, feed="desk", claimed_at=NOW - MIN)
    decision = decide(claimed, policy=POLICY, now=NOW, trust=FeedTrust())
    assert (decision.due, decision.reason) == (True, Reason.CLAIM)


def test_a_claim_already_acted_on_is_not_a_claim_again() -> None:
    stale = story(checked_ago=5 * MIN, feed="desk", claimed_at=NOW - 10 * MIN)
    assert not decide(stale, policy=POLICY, now=NOW, trust=FeedTrust()).due


def test_a_feed_loses_the_power_to_claim_after_20_unproductive_claims_and_earns_it_back() -> None:
    trust = FeedTrust()
    for _ in range(19):
        trust = after_claim(trust, produced_revision=False, probe=False, now=NOW)
    assert trust.trusted(POLICY)
    trust = after_claim(trust, produced_revision=False, probe=False, now=NOW)
    assert not trust.trusted(POLICY)
    trust = after_claim(trust, produced_revision=True, probe=True, now=NOW)
    assert trust.trusted(POLICY)
    assert trust.last_probe_at == NOW


def test_a_distrusted_feed_gets_one_probe_per_interval() -> None:
    distrusted = FeedTrust(unproductive_claims=20, last_probe_at=NOW - 2 * HOUR)
    claimed = story(age=30 * DAY, checked_ago=10 * DAY, feed="desk", claimed_at=NOW - MIN)
    assert not decide(claimed, policy=POLICY, now=NOW, trust=distrusted).due
    probed_long_ago = FeedTrust(unproductive_claims=20, last_probe_at=NOW - 2 * DAY)
    decision = decide(claimed, policy=POLICY, now=NOW, trust=probed_long_ago)
    assert (decision.due, decision.reason) == (True, Reason.PROBE)
    others = [
        story(k, age=30 * DAY, checked_ago=10 * DAY, feed="desk", claimed_at=NOW - MIN)
        for k in "bcd"
    ]
    plan = plan_run(
        [claimed, *others], policy=POLICY, now=NOW, max_articles=10, trust={"desk": probed_long_ago}
    )
    assert [d.key for d in plan.selected] == ["a"]
    assert len(plan.deferred) == 3


def test_failures_back_off_exponentially_and_are_never_abandoned() -> None:
    waits = []
    for failures in (1, 2, 3, 10, 50):
        failing = story(
            age=2 * DAY, checked_ago=3 * DAY, failures=failures, last_failure_at=NOW - HOUR
        )
        decision = decide(failing, policy=POLICY, now=NOW)
        assert decision.due_at is not None
        waits.append(decision.due_at - (NOW - HOUR))
    assert waits == [20 * MIN, 40 * MIN, 80 * MIN, 7 * DAY, 7 * DAY]
    overdue = story(
        age=2 * DAY, checked_ago=3 * DAY, failures=50, last_failure_at=NOW - 8 * DAY, changes=3
    )
    decision = decide(overdue, policy=POLICY, now=NOW)
    assert (decision.due, decision.reason) == (True, Reason.RETRY)


def test_the_run_takes_the_most_urgent_first_and_carries_the_rest_over() -> None:
    candidates = [
        story("sched-late", age=8 * HOUR, checked_ago=6 * HOUR),  # 3 intervals late
        story("sched-just", age=8 * HOUR, checked_ago=2 * HOUR + MIN),
        story("new"),
        story("claim", checked_ago=MIN, feed="desk", claimed_at=NOW),
        story("not-due", checked_ago=MIN),
    ]
    plan = plan_run(candidates, policy=POLICY, now=NOW, max_articles=3)
    assert [d.key for d in plan.selected] == ["new", "claim", "sched-late"]
    assert [d.key for d in plan.deferred] == ["sched-just"]


def test_the_run_respects_each_hosts_remaining_budget() -> None:
    candidates = [story(f"a{i}", host="a.example") for i in range(5)] + [
        story(f"b{i}", host="b.example") for i in range(2)
    ]
    plan = plan_run(
        candidates, policy=POLICY, now=NOW, max_articles=10, host_budget={"a.example": 2}
    )
    assert sorted(d.key for d in plan.selected) == ["a0", "a1", "b0", "b1"]
    assert len(plan.deferred) == 3


def test_after_check_updates_the_state() -> None:
    fresh = story()
    first = after_check(fresh, outcome="changed", now=NOW)
    assert (first.changes, first.last_checked_at, first.last_changed_at) == (0, NOW, None)
    edited = after_check(first, outcome="changed", now=NOW + HOUR)
    assert (edited.changes, edited.last_changed_at) == (1, NOW + HOUR)
    failed = after_check(edited, outcome="failed", now=NOW + 2 * HOUR)
    assert (failed.failures, failed.last_failure_at, failed.last_checked_at) == (
        1,
        NOW + 2 * HOUR,
        NOW + HOUR,
    )
    recovered = after_check(failed, outcome="unchanged", now=NOW + 3 * HOUR)
    assert (recovered.failures, recovered.last_checked_at) == (0, NOW + 3 * HOUR)
    claimed = after_check(story(claimed_at=NOW), outcome="unchanged", now=NOW + MIN)
    assert claimed.claimed_at is None


@given(
    age=st.integers(min_value=0, max_value=400 * 86400),
    since=st.integers(min_value=0, max_value=30 * 86400),
    changes=st.integers(min_value=0, max_value=50),
)
def test_decisions_are_consistent(age: int, since: int, changes: int) -> None:
    candidate = story(
        age=timedelta(seconds=age), checked_ago=timedelta(seconds=since), changes=changes
    )
    decision = decide(candidate, policy=POLICY, now=NOW)
    assert decision.due == (decision.reason is not None)
    assert POLICY.min_interval <= interval(candidate, policy=POLICY, now=NOW) <= POLICY.max_interval
    if decision.retired:
        assert not decision.due
        assert decision.due_at is None
    else:
        assert decision.due_at is not None
        assert decision.due == (decision.due_at <= NOW)


def test_thousands_of_failures_do_not_overflow_the_back_off() -> None:
    failing = story(age=2 * DAY, checked_ago=3 * DAY, failures=5000, last_failure_at=NOW - DAY)
    decision = decide(failing, policy=POLICY, now=NOW)
    assert decision.due_at == NOW - DAY + timedelta(seconds=POLICY.failure_max_interval)
