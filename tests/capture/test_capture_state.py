"""The pure half of ``quietedit capture``: which revisions are new, the backoff, the state."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from quietedit.capture.state import (
    MAX_BACKOFF,
    Capture,
    CaptureState,
    new_revisions,
    snapshot_url,
)

NOW = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)


def test_new_revisions_are_those_past_the_last_count_or_first_seen_after_the_last_run() -> None:
    state = CaptureState(checked_at="2026-11-30T07:00:00Z", counts=(("a", 2), ("b", 3)))
    found = new_revisions(state, {"a": 4, "b": 3, "c": 1, "d": 5}, first_time={"c": 1, "d": 5})
    assert found == [("a", 3), ("a", 4), ("c", 1), ("d", 5)]
    # a document the state does not know and the caller found nothing new in
    assert new_revisions(state, {"e": 2}, first_time={}) == []


def test_the_backoff_doubles_per_failure_up_to_six_hours_and_a_success_clears_it() -> None:
    state = CaptureState()
    waits = []
    for _ in range(8):
        state = state.failed(NOW, backoff=900)
        assert state.retry_at is not None
        waits.append(datetime.fromisoformat(state.retry_at.replace("Z", "+00:00")) - NOW)
    assert waits[:4] == [timedelta(minutes=m) for m in (15, 30, 60, 120)]
    assert waits[-1] == MAX_BACKOFF
    assert state.backing_off(NOW + MAX_BACKOFF - timedelta(seconds=1))
    assert not state.backing_off(NOW + MAX_BACKOFF)
    assert state.succeeded() == CaptureState()


def test_the_state_reads_back_and_drops_what_is_malformed() -> None:
    b_pending = Capture(
        "b", 1, "https://news.example.org/b", "2026-11-30T06:00:00Z",
        job="spn2-1", requested_at="2026-11-30T06:10:00Z", tries=1,
    )  # fmt: skip
    state = CaptureState(
        checked_at="2026-11-30T07:00:00Z",
        counts=(("a", 2),),
        queue=(Capture("a", 2, "https://news.example.org/a", "2026-11-30T06:59:00Z"),),
        pending=(b_pending,),
        failures=1,
        retry_at="2026-11-30T07:15:00Z",
    )
    assert CaptureState.from_record(state.to_record()) == state
    damaged: dict[str, object] = {
        **state.to_record(),
        "queue": [{"document": "a"}, 3],
        "counts": {"x": "2"},
    }
    read = CaptureState.from_record(damaged)  # type: ignore[arg-type]
    assert read.queue == () and read.counts == () and read.pending == state.pending


def test_the_copy_is_linked_where_the_wayback_machine_shows_it() -> None:
    assert (
        snapshot_url("https://web.archive.org/", "20261130071502", "https://x.example/a?b=1")
        == "https://web.archive.org/web/20261130071502/https://x.example/a?b=1"
    )
