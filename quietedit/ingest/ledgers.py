"""The request ledgers of a run: seeded from every ledger file, saved to the run's own.

Each shard's runs write their own ledger file, ``state/ledger-shard-K-of-N.json``
(``state/ledger.json`` for the unsharded run; :mod:`quietedit.decide.shard` has the layout
and what it costs), and a run's per-host spacing and hourly ceiling count every request in
all of them; shards running at the same time do not see each other's requests of that run.
A ledger file that cannot be read is logged and counts as empty: the run goes on.
"""

from __future__ import annotations

import logging
from datetime import datetime

from quietedit.archive.store import Archive
from quietedit.decide.memory import ledger_record
from quietedit.decide.shard import Shard, is_ledger_name
from quietedit.errors import ArchiveError
from quietedit.fetch import LedgerEntry, RequestLedger

logger = logging.getLogger(__name__)


def load_ledger(archive: Archive, *, shard: Shard) -> tuple[RequestLedger, list[LedgerEntry]]:
    """The politeness ledger seeded with the requests of every ledger file (the unsharded
    one and each shard's), and the entries of this run's own file, which it rewrites."""
    own: list[LedgerEntry] = []
    others: list[LedgerEntry] = []
    names = {name for name in archive.state_names() if is_ledger_name(name)}
    for name in sorted(names | {shard.ledger_name}):
        try:
            record = archive.read_state(name)
            requests = record.get("requests") if record else None
            rows = (
                [r for r in requests if isinstance(r, dict)] if isinstance(requests, list) else []
            )
            entries = list(RequestLedger.from_records(rows, source=f"state/{name}.json"))
        except ArchiveError as exc:
            logger.warning("%s; the request ledger starts afresh", exc)
            continue
        (own if name == shard.ledger_name else others).extend(entries)
    return RequestLedger([*others, *own]), own


def save_ledger(archive: Archive, entries: list[LedgerEntry], *, name: str, now: datetime) -> None:
    """Write ``entries`` to ``state/<name>.json`` (:func:`~quietedit.decide.memory.ledger_record`:
    recent requests one by one, older ones rolled into the daily sums already there; sums
    that cannot be read start afresh)."""
    try:
        previous = archive.read_state(name) or {}
    except ArchiveError:
        previous = {}
    # the run's last write: losing it to a power cut is a run killed before its end
    archive.write_state(name, ledger_record(entries, previous, now=now), final=True)
