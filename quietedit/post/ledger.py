"""The posted-ledger: what ``quietedit post`` posted, meant to post, and failed to (pure).

It is the archive's state file ``state/posted.json``: per edit (``<document>/<number>``)
and network one :class:`Entry`. The run records the *intent* (with the key that makes a
repeat harmless) and writes the file before it sends anything, and the *outcome* after, so
a crash, a rerun or a second process (the archive lock keeps two apart) never posts twice:

- ``posted``: done; never posted again. Its id, address and (Bluesky) content hash are
  what the next post of the same article replies to, one thread per article.
- ``intent``: sent, or about to be, outcome unknown (the process died, the request timed
  out, the server answered 5xx). The next run asks again *with the same key*: on Mastodon
  the ``Idempotency-Key`` header (the server keeps it an hour, so the retry is made only
  within :data:`MASTODON_IDEMPOTENCY` of the intent); on Bluesky the record key, which the
  run first looks up (a record found is the post) and which can hold one record only.
- ``unknown``: an intent on Mastodon older than that hour: it may or may not be on the
  account, and is never sent again (a duplicate is worse than a missing post); each run
  reports it until it expires.
- ``failed``: refused (400, 401, 403, 422: nothing was posted); tried again on each run up
  to :data:`MAX_ATTEMPTS` times, then given up (``abandoned``).

Entries older than :data:`KEEP` are dropped (``settings.post.max_age`` is at most that, so
an edit old enough to be dropped is never selected again); an article edited after that
starts a new thread.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Final

from quietedit.model import JSON, format_timestamp, parse_timestamp

LEDGER_NAME: Final = "posted"
"""``state/posted.json``."""
NETWORKS: Final = ("mastodon", "bluesky")
KEEP: Final = timedelta(days=30)
"""How long an entry is kept: longer than ``settings.post.max_age`` may be."""
MASTODON_IDEMPOTENCY: Final = timedelta(minutes=55)
"""Mastodon keeps an Idempotency-Key for an hour (its API documentation); a retry with
the same key is safe a little less long than that."""
MAX_ATTEMPTS: Final = 3
"""Refusals of one post before it is given up."""

POSTED: Final = "posted"
INTENT: Final = "intent"
UNKNOWN: Final = "unknown"
FAILED: Final = "failed"
ABANDONED: Final = "abandoned"
STATUSES: Final = (POSTED, INTENT, UNKNOWN, FAILED, ABANDONED)


@dataclass(frozen=True, slots=True)
class Entry:
    """One edit on one network. ``token`` is the idempotency key (Mastodon) or the record
    key (Bluesky) of every attempt; ``post_id`` the status id or the record's ``at://``
    URI; ``cid`` the record's content hash (Bluesky); ``url`` where it can be read."""

    status: str
    at: str  # when the status was recorded
    token: str
    attempts: int = 0
    post_id: str = ""
    cid: str = ""
    url: str = ""
    error: str = ""

    def to_dict(self) -> dict[str, JSON]:
        record: dict[str, JSON] = {"status": self.status, "at": self.at, "token": self.token}
        if self.attempts:
            record["attempts"] = self.attempts
        for name in ("post_id", "cid", "url", "error"):
            if value := getattr(self, name):
                record[name] = value
        return record

    @classmethod
    def from_dict(cls, value: object) -> Entry | None:
        """Read :meth:`to_dict`'s output; ``None`` for anything else."""
        if not isinstance(value, dict):
            return None
        status, at, token = value.get("status"), value.get("at"), value.get("token")
        attempts = value.get("attempts", 0)
        texts = [value.get(name, "") for name in ("post_id", "cid", "url", "error")]
        if (
            status not in STATUSES
            or not isinstance(at, str)
            or not isinstance(token, str)
            or not isinstance(attempts, int)
            or not all(isinstance(t, str) for t in texts)
        ):
            return None
        try:
            parse_timestamp(at)
        except ValueError:
            return None
        post_id, cid, url, error = (str(t) for t in texts)
        return cls(str(status), at, token, attempts, post_id, cid, url, error)


@dataclass(frozen=True, slots=True)
class Thread:
    """Where the next post of an article goes: its first post (``root``) and its latest
    (``parent``), each ``(post_id, cid)``; ``None`` when the article has no post yet."""

    root: tuple[str, str]
    parent: tuple[str, str]


@dataclass(frozen=True, slots=True)
class Ledger:
    """Entries by edit key, then network. ``skipped``: malformed entries dropped on reading
    (their edits may be posted again: reported, never silent)."""

    entries: dict[str, dict[str, Entry]]
    skipped: tuple[str, ...] = ()

    def entry(self, key: str, network: str) -> Entry | None:
        return self.entries.get(key, {}).get(network)

    def with_entry(self, key: str, network: str, entry: Entry) -> Ledger:
        entries = {k: dict(v) for k, v in self.entries.items()}
        entries.setdefault(key, {})[network] = entry
        return replace(self, entries=entries)

    def restored(self, key: str, network: str, entry: Entry | None) -> Ledger:
        """With ``entry`` back for ``key`` on ``network`` (none at all when ``None``)."""
        if entry is not None:
            return self.with_entry(key, network, entry)
        entries = {k: dict(v) for k, v in self.entries.items()}
        entries.get(key, {}).pop(network, None)
        return replace(self, entries={k: v for k, v in entries.items() if v})

    def thread(self, document: str, network: str) -> Thread | None:
        """The thread of ``document`` on ``network``: its posted edits, by number."""
        posted = sorted(
            (int(number), entry)
            for key, by_network in self.entries.items()
            for doc, _, number in [key.rpartition("/")]
            if doc == document and number.isdigit()
            if (entry := by_network.get(network)) is not None and entry.status == POSTED
        )
        if not posted:
            return None
        first, last = posted[0][1], posted[-1][1]
        return Thread((first.post_id, first.cid), (last.post_id, last.cid))

    def to_record(self) -> dict[str, JSON]:
        return {
            "posts": {
                key: {network: e.to_dict() for network, e in sorted(by_network.items())}
                for key, by_network in sorted(self.entries.items())
            }
        }

    @classmethod
    def from_record(cls, record: dict[str, JSON] | None) -> Ledger:
        """The ledger in ``record`` (``None``: none yet); a malformed entry is skipped and
        named in ``skipped``."""
        posts = (record or {}).get("posts")
        entries: dict[str, dict[str, Entry]] = {}
        skipped: list[str] = []
        for key, by_network in (posts if isinstance(posts, dict) else {}).items():
            if not isinstance(by_network, dict):
                skipped.append(key)
                continue
            for network, value in by_network.items():
                entry = Entry.from_dict(value) if network in NETWORKS else None
                if entry is None:
                    skipped.append(f"{key} ({network})")
                    continue
                entries.setdefault(key, {})[network] = entry
        return cls(entries, tuple(skipped))

    def pruned(self, *, now: datetime) -> Ledger:
        """Without the entries recorded more than :data:`KEEP` before ``now``."""
        oldest = now - KEEP
        entries = {
            key: kept
            for key, by_network in self.entries.items()
            if (kept := {n: e for n, e in by_network.items() if parse_timestamp(e.at) >= oldest})
        }
        return replace(self, entries=entries)


def idempotency_key(key: str, network: str) -> str:
    """The Mastodon ``Idempotency-Key`` of an edit: the same for every attempt."""
    return hashlib.sha256(f"quietedit {network} {key}".encode()).hexdigest()[:32]


_TID_ALPHABET: Final = "234567abcdefghijklmnopqrstuvwxyz"


def record_key(key: str, *, at: datetime) -> str:
    """A Bluesky record key (a TID: 13 characters of base32-sortable) for the edit's post:
    the microseconds of ``at`` and a clock id from the edit's key, so two edits posted in
    the same microsecond still differ."""
    micros = int(at.timestamp() * 1_000_000) & ((1 << 53) - 1)
    clock = int.from_bytes(hashlib.sha256(key.encode()).digest()[:2], "big") & 0x3FF
    value = (micros << 10) | clock
    return "".join(_TID_ALPHABET[(value >> (5 * i)) & 31] for i in range(12, -1, -1))


def intent(token: str, *, now: datetime, attempts: int = 0) -> Entry:
    """The entry written before a post is sent."""
    return Entry(INTENT, format_timestamp(now), token, attempts + 1)
