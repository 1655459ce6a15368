"""What ``quietedit capture`` remembers between runs, and what it decides (pure).

The state file ``state/captures.json`` holds:

- ``checked_at``: when the last run looked for new revisions;
- ``counts``: per document on disk at the last run, how many revisions it had, so a run
  asks only for the revisions added since (a document not listed, new or back from a
  retired partition, has those observed after ``checked_at`` asked for);
- ``queue``: revisions waiting for a capture request, oldest first (over
  ``settings.archive_org.max_captures`` a run, or while backing off);
- ``pending``: capture jobs asked for and not finished, polled by the next run, never
  waited for: a run takes seconds whatever the service does;
- ``failures`` and ``retry_at``: the backoff after a failed request (doubled per failure
  up to :data:`MAX_BACKOFF`, persisted so a run an hour later still honours it).

A job the service reports failed is asked for once more (:data:`MAX_TRIES` in all); one
still pending after :data:`JOB_EXPIRY` is given up.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Final

from quietedit.model import JSON, format_timestamp, parse_timestamp

STATE_NAME: Final = "captures"
MAX_BACKOFF: Final = timedelta(hours=6)
MAX_RETRY_AFTER: Final = timedelta(days=1)
"""The longest Retry-After honoured (a longer one, or a date years away, is read as this)."""
JOB_EXPIRY: Final = timedelta(days=1)
"""Save Page Now keeps a job's status for a day at most."""
MAX_TRIES: Final = 2
MAX_QUEUE: Final = 2000
"""Revisions waiting at most; older ones are dropped first (a service down for days must
not grow the state file without end)."""


@dataclass(frozen=True, slots=True)
class Capture:
    """One revision's capture: its page's ``url``, and once asked, the ``job`` id and when."""

    document: str
    revision: int
    url: str
    observed_at: str
    job: str = ""
    requested_at: str = ""
    tries: int = 0

    def to_dict(self) -> dict[str, JSON]:
        record: dict[str, JSON] = {
            "document": self.document,
            "revision": self.revision,
            "url": self.url,
            "observed_at": self.observed_at,
        }
        if self.job:
            record |= {"job": self.job, "requested_at": self.requested_at}
        if self.tries:
            record["tries"] = self.tries
        return record

    @classmethod
    def from_dict(cls, value: object) -> Capture | None:
        if not isinstance(value, dict):
            return None
        texts = [
            value.get(k, "") for k in ("document", "url", "observed_at", "job", "requested_at")
        ]
        revision, tries = value.get("revision"), value.get("tries", 0)
        if not all(isinstance(t, str) for t in texts) or not isinstance(revision, int):
            return None
        if not isinstance(tries, int):
            return None
        document, url, observed_at, job, requested_at = (str(t) for t in texts)
        return cls(document, revision, url, observed_at, job, requested_at, tries)


@dataclass(frozen=True, slots=True)
class CaptureState:
    checked_at: str | None = None
    counts: tuple[tuple[str, int], ...] = ()
    queue: tuple[Capture, ...] = ()
    pending: tuple[Capture, ...] = ()
    failures: int = 0
    retry_at: str | None = None

    def to_record(self) -> dict[str, JSON]:
        return {
            "checked_at": self.checked_at,
            "counts": dict(sorted(self.counts)),
            "queue": [c.to_dict() for c in self.queue],
            "pending": [c.to_dict() for c in self.pending],
            "failures": self.failures,
            "retry_at": self.retry_at,
        }

    @classmethod
    def from_record(cls, record: dict[str, JSON] | None) -> CaptureState:
        """The state in ``record``; anything malformed in it is left out."""
        record = record or {}
        counts = record.get("counts")
        checked, retry, failures = (
            record.get("checked_at"),
            record.get("retry_at"),
            record.get("failures"),
        )
        return cls(
            checked_at=checked if isinstance(checked, str) else None,
            counts=tuple(
                (k, v)
                for k, v in (counts.items() if isinstance(counts, dict) else ())
                if isinstance(v, int)
            ),
            queue=_captures(record.get("queue")),
            pending=_captures(record.get("pending")),
            failures=failures if isinstance(failures, int) else 0,
            retry_at=retry if isinstance(retry, str) else None,
        )

    def backing_off(self, now: datetime) -> bool:
        return self.retry_at is not None and parse_timestamp(self.retry_at) > now

    def failed(self, now: datetime, *, backoff: float, at_least: float = 0.0) -> CaptureState:
        """After a failed request: no request before ``backoff`` times 2^(failures), at most
        :data:`MAX_BACKOFF`, nor before ``at_least`` seconds (the service's Retry-After,
        at most :data:`MAX_RETRY_AFTER`)."""
        wait = min(timedelta(seconds=backoff) * 2**self.failures, MAX_BACKOFF)
        asked = min(max(at_least, 0.0), MAX_RETRY_AFTER.total_seconds())
        wait = max(wait, timedelta(seconds=asked))
        return replace(self, failures=self.failures + 1, retry_at=format_timestamp(now + wait))

    def succeeded(self) -> CaptureState:
        return replace(self, failures=0, retry_at=None)


def _captures(value: object) -> tuple[Capture, ...]:
    items = value if isinstance(value, list) else []
    return tuple(c for c in (Capture.from_dict(v) for v in items) if c is not None)


def new_revisions(
    state: CaptureState, counts: dict[str, int], *, first_time: dict[str, int]
) -> list[tuple[str, int]]:
    """``(document, revision)`` of the revisions added since the last run: for a document
    the state knows, those past its old count; for one it does not, the ``first_time``
    numbers the caller found observed after ``checked_at`` (the first revision onwards for
    a new document)."""
    known = dict(state.counts)
    found: list[tuple[str, int]] = []
    for document, count in sorted(counts.items()):
        before = known.get(document)
        if before is None:
            start = first_time.get(document, count + 1)
            found += [(document, n) for n in range(start, count + 1)]
        else:
            found += [(document, n) for n in range(before + 1, count + 1)]
    return found


def snapshot_url(base_url: str, timestamp: str, url: str) -> str:
    """Where the Wayback Machine shows the copy made at ``timestamp`` (14 digits) of ``url``."""
    return f"{base_url.rstrip('/')}/web/{timestamp}/{url}"


def expired(capture: Capture, now: datetime) -> bool:
    return bool(capture.requested_at) and now - parse_timestamp(capture.requested_at) > JOB_EXPIRY
