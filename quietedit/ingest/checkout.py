"""What the hourly checkout holds: the documents the next run's plan reads (I/O).

``quietedit sparse-paths`` asks :func:`checkout_plan` which document folders to check out.
From the schedule entries the last run saved with its list
(:mod:`quietedit.ingest.partitions`) it makes the run's own plan — the same re-check
policy, clock, per-run cap, per-host budgets (from the request ledgers) and feed trust
(from the feed records), over the documents of this shard that the feeds still track — and
checks out those documents and the pages their hosts' templates are learnt from, beside
today's and yesterday's partitions. So what a run checks out, verifies and commits follows
one run's work, not the number of documents still observed. A document the plan did not
foresee (a feed's claim in this run makes it due) is fetched when the run reads it
(:func:`~quietedit.archive.sparse.fetch_folder`): slower, never wrong.
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import datetime, timedelta

from quietedit.archive.store import Archive
from quietedit.config import Config
from quietedit.decide.memory import DocumentState
from quietedit.decide.partitions import Observed, due_documents
from quietedit.decide.poll import feed_states, tracked_by_feeds
from quietedit.decide.shard import Shard
from quietedit.fetch.politeness import host_of
from quietedit.ingest.feedrecords import load_feeds
from quietedit.ingest.ledgers import load_ledger
from quietedit.ingest.partitions import checkout_list

logger = logging.getLogger(__name__)


def checkout_plan(
    archive: Archive, config: Config, *, shard: Shard, now: datetime
) -> Observed | None:
    """What a run of ``shard`` at ``now`` reads of ``documents/`` (see the module's text);
    ``None``: every partition (no run has saved a list yet)."""
    settings = config.settings
    configs = {feed.slug: feed for feed in config.feeds}
    records = load_feeds(archive, unreadable="its feed's trust is not known here")
    trust = {slug: state.trust for slug, state in feed_states(config.feeds, records).items()}
    ledger, _ = load_ledger(archive, shard=shard)
    since = now - timedelta(hours=1)
    spent = Counter(entry.host for entry in ledger if entry.at >= since)
    # the run polls each feed before it plans: those requests count against its hosts too
    spent.update(host_of(feed.url) for feed in config.feeds if feed.enabled)
    budget = settings.politeness.max_requests_per_host_per_hour

    def due(states: dict[tuple[str, str], DocumentState]) -> frozenset[tuple[str, str]]:
        mine = {
            pair: state
            for pair, state in states.items()
            if shard.owns(state.url) and tracked_by_feeds(state.url, state.feeds, configs)
        }
        return due_documents(
            mine,
            policy=settings.recheck,
            now=now,
            max_articles=settings.run.max_articles,
            trust=trust,
            host_budget={host: max(0, budget - n) for host, n in spent.items()},
        )

    return checkout_list(archive, now=now, due=due)
