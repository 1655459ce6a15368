"""Splitting one ingest over N runners, ``--shard K/N``: which shard owns what (pure).

Every URL belongs to exactly one of N shards, numbered 1 to N::

    key       = registrable_domain(host)      # the Public Suffix List's registrable part
    shard_of  = 1 + int.from_bytes(sha256(key.encode("utf-8")).digest()[:8], "big") % N

where ``host`` is the URL's host name in lower case and ASCII (an internationalised name
in punycode, as :func:`~quietedit.article.identity.normalise_url` writes it), without port
or user info; ``registrable_domain`` is the one in :mod:`quietedit.article.identity`
(``news.bbc.co.uk`` -> ``bbc.co.uk``; an IP address stands for itself). A URL that cannot
be normalised is keyed by its raw lower-case host name, or by ``""`` when it has none.

- A **document** belongs to the shard of its canonical URL. Only that shard creates it,
  checks it, and writes anything below ``documents/<id>/``.
- A **feed** belongs to the shard of its configured ``url`` (for a feed no longer in
  ``feeds.yaml``, the ``url`` its record keeps). Only that shard writes
  ``feeds/<slug>.json``. But **every shard polls every enabled feed**, conditionally with
  the validators of the committed feed record and respecting its back-off, compares the
  entries with that record's snapshots (the baseline the feed's own shard uses too), and
  registers, links, records claims and ``feed-edit`` events for the documents it owns
  only. So a document gets the links, claims and feed edits of every feed that lists it,
  in the same run, wherever the feed is hosted (FeedBurner, a CDN, a partner site).
- The **request ledger** is one file per shard, ``state/ledger-shard-K-of-N.json``, holding
  the requests of that shard's runs; a run is seeded with the requests of every ledger
  file (``state/ledger.json`` and all ``state/ledger-shard-*.json``).

What this guarantees: the write sets of two shards of one N are disjoint, so their commits
rebase onto each other without conflicts; and when every feed answers the N shards' polls
of a run alike, the merged archive equals the unsharded run's in every document file
(record, revisions, events, evidence) and in every feed record except ``trust``. The
differences, all of them:

- A feed's ``trust`` (claims without a revision, the last probe) moves only with the checks
  of documents its own shard owns; its claims on other shards' documents never count. A
  feed whose articles are all on other shards' sites therefore never loses its claims'
  power (nor regains it), and a distrusted feed's claims may be probed by every shard in
  every run instead of once per probe interval.
- Each shard's requests are in its own ledger, and every feed's poll is in all N of them;
  near a host's hourly ceiling those extra polls count against it, so a shard may carry
  over a check of that host that an unsharded run would make.
- A feed whose content changes between two shards' polls of one run is seen differently:
  an edit seen only by a shard that polled before it may be missed for that shard's
  documents. A feed-edit event a document already has as its newest from that feed is
  not recorded again, so a record that lags (its shard failed to push) adds no duplicates.

What it costs: each feed is requested N times a run instead of once. The per-host spacing
and hourly ceiling count every request already in a committed ledger, but shards running
at the same time do not see each other's requests of that run: a feed's host gets up to
N - 1 more poll requests per feed and run than one runner would make (a sitemap index's
children and a discovered page's feed likewise), up to N at the same moment. Articles keep
exact politeness: keying by registrable domain keeps every article of one site - all its
host names - in one shard (an article link through another host, or a redirect onto
one, is the exception; such requests count in the ledger of the shard that made them).
Ownership is recomputed every run from the URLs alone: changing N between runs is safe.
``1/1`` owns everything, and is the unsharded run.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Final
from urllib.parse import urlsplit

from quietedit.article.identity import normalise_url, registrable_domain
from quietedit.errors import InvalidShardError

MAX_SHARDS: Final = 256
"""The most shards a run may be split into: GitHub Actions runs at most 256 jobs per
matrix, and far fewer already cover any feed list a single archive should hold."""

LEDGER_NAME: Final = "ledger"
"""The unsharded run's request ledger, ``state/ledger.json``."""

_SPEC: Final = re.compile(r"\s*([0-9]{1,6})\s*/\s*([0-9]{1,6})\s*")
_LEDGER_SHARD: Final = re.compile(r"ledger-shard-[1-9][0-9]*-of-[1-9][0-9]*")
PARTITIONS_NAME: Final = "partitions"
"""``state/partitions.json``: the archive partitions an unsharded run keeps reading."""
_PARTITIONS_SHARD: Final = re.compile(r"partitions-shard-[1-9][0-9]*-of-[1-9][0-9]*")


@dataclass(frozen=True, slots=True)
class Shard:
    """Shard ``index`` of ``count`` (both from 1); build one with :func:`parse_shard`."""

    index: int
    count: int

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_SHARDS or not 1 <= self.index <= self.count:
            raise InvalidShardError(
                f"{self.index}/{self.count}",
                f"needs 1 <= K <= N <= {MAX_SHARDS}",
            )

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    @property
    def whole(self) -> bool:
        """Whether this shard is the whole archive (``1/1``, the unsharded run)."""
        return self.count == 1

    def owns(self, url: str) -> bool:
        """Whether the feed or document at ``url`` belongs to this shard (module docstring)."""
        return self.whole or shard_of(url, count=self.count) == self.index

    @property
    def ledger_name(self) -> str:
        """The ``state/`` name of the request ledger this shard's runs write."""
        return LEDGER_NAME if self.whole else f"ledger-shard-{self.index}-of-{self.count}"

    @property
    def writer(self) -> str:
        """The name of the files this shard's runs write beside other shards' (the index's):
        ``""`` for the unsharded run, else ``shard-K-of-N``."""
        return "" if self.whole else f"shard-{self.index}-of-{self.count}"

    @property
    def partitions_name(self) -> str:
        """The ``state/`` name of the active-partition list this shard's runs write."""
        whole = PARTITIONS_NAME
        return whole if self.whole else f"{whole}-shard-{self.index}-of-{self.count}"


WHOLE: Final = Shard(1, 1)
"""The unsharded run: owns every feed and document."""


def parse_shard(text: str) -> Shard:
    """``"K/N"`` as a :class:`Shard`; raises :class:`InvalidShardError` naming the value and
    what a valid one looks like (``2/3``: the second of three shards)."""
    match = _SPEC.fullmatch(text)
    if match is None:
        raise InvalidShardError(
            text, "expected K/N, two whole numbers such as 2/3 (the second of three shards)"
        )
    index, count = int(match[1]), int(match[2])
    if count < 1:
        raise InvalidShardError(text, "N must be at least 1 (1/1 is the unsharded run)")
    if count > MAX_SHARDS:
        raise InvalidShardError(text, f"N must be at most {MAX_SHARDS}")
    if not 1 <= index <= count:
        raise InvalidShardError(text, f"K must be from 1 to {count}, e.g. 1/{count}")
    return Shard(index, count)


def shard_of(url: str, *, count: int) -> int:
    """The shard (1..``count``) that owns ``url``: the formula of the module docstring."""
    if count < 1:
        raise InvalidShardError(f"?/{count}", "N must be at least 1")
    return _bucket(partition_key(url), count)


def partition_key(url: str) -> str:
    """The text ``url`` is partitioned by: its host's registrable domain."""
    try:
        host = urlsplit(normalise_url(url)).hostname or ""
    except ValueError:  # InvalidURLError too: still keyed, so still owned by exactly one shard
        try:
            host = (urlsplit(url).hostname or "").lower()
        except ValueError:
            host = ""
    return _registrable(host)


def is_partitions_name(name: str) -> bool:
    """Whether ``state/<name>.json`` is an active-partition list (of a run or a shard)."""
    return name == PARTITIONS_NAME or _PARTITIONS_SHARD.fullmatch(name) is not None


def is_ledger_name(name: str) -> bool:
    """Whether ``state/<name>.json`` is a request ledger (unsharded or of some shard)."""
    return name == LEDGER_NAME or _LEDGER_SHARD.fullmatch(name) is not None


@lru_cache(maxsize=4096)
def _registrable(host: str) -> str:
    # a run asks once per document, and most documents share a handful of hosts
    return registrable_domain(host) if host else ""


@lru_cache(maxsize=4096)
def _bucket(key: str, count: int) -> int:
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).digest()
    return 1 + int.from_bytes(digest[:8], "big") % count
