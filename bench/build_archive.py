"""The synthetic archive of ``bench/build.py``: news-like text edited as newsrooms edit it,
written straight in the archive's file format and layout (deterministic JSON,
hash-chained, partitions, buckets and index shards; ``quietedit verify`` accepts it), and
one live hour added through the Archive API."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from quietedit.archive.layout import INDEX_SCHEMA, Layout, index_shard, partition_of
from quietedit.archive.records import dump_json, new_revision, revision_to_record
from quietedit.article.identity import document_id
from quietedit.errors import UnchangedContentError
from quietedit.model import JSON, Article, Block, Publisher
from quietedit.revisions import SCHEMA_VERSION, Observation, Revision

SOURCES = ("courier", "daily", "herald", "tribune", "wire")
SUBJECTS = (
    "The city council",
    "The health minister",
    "Police",
    "The central bank",
    "Union leaders",
    "The regional government",
    "Prosecutors",
    "The football club",
    "Researchers",
    "Residents",
)
VERBS = (
    "approved",
    "rejected",
    "announced",
    "criticised",
    "postponed",
    "defended",
    "unveiled",
    "questioned",
    "confirmed",
    "denied",
)
OBJECTS = (
    "a budget of {n} million euros",
    "plans for {n} new homes",
    "a {n} per cent rise in fares",
    "the closure of {n} schools",
    "a report on {n} complaints",
    "{n} new officers",
    "a deal worth {n} million",
    "cuts affecting {n} jobs",
)
TAILS = (
    "on Monday",
    "after a late-night debate",
    "despite protests outside",
    "in a statement",
    "following months of talks",
    "according to officials",
    "at a press conference",
)
T0 = datetime(2026, 9, 1, 6, 0, tzinfo=UTC)


def sentence(rng: random.Random) -> str:
    obj = rng.choice(OBJECTS).format(n=rng.randint(2, 950))
    return f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {obj} {rng.choice(TAILS)}."


def paragraph(rng: random.Random) -> str:
    return " ".join(sentence(rng) for _ in range(rng.randint(2, 4)))


def edit(
    rng: random.Random, title: str, blocks: list[str], pub: Publisher
) -> tuple[str, list[str], Publisher]:
    """One newsroom-like edit of the article."""
    blocks = list(blocks)
    roll = rng.random()
    if roll < 0.35:  # a figure corrected
        i = rng.randrange(len(blocks))
        blocks[i] = blocks[i].replace(str(rng.randint(2, 9)), str(rng.randint(10, 99)), 1) + " "
        blocks[i] = blocks[i].strip() + ("" if blocks[i].endswith(".") else ".")
        if blocks[i] == blocks[i - 1]:
            blocks[i] += " Officials later revised the figure."
    elif roll < 0.55:  # a paragraph added
        blocks.insert(rng.randint(1, len(blocks)), paragraph(rng))
    elif roll < 0.65 and len(blocks) > 4:  # a paragraph removed
        blocks.pop(rng.randrange(1, len(blocks)))
    elif roll < 0.8 and len(blocks) > 3:  # a paragraph moved
        blocks.insert(rng.randrange(len(blocks) - 1), blocks.pop(rng.randrange(1, len(blocks))))
        blocks.append(sentence(rng))
    elif roll < 0.9:  # the headline rewritten
        title = sentence(rng).rstrip(".")
    else:  # a correction, admitted
        blocks.append("Correction: an earlier version of this article gave a wrong figure.")
        pub = Publisher(date_published=pub.date_published, date_modified="2026-09-02T10:00:00Z")
    return title, blocks, pub


EDITED_SHARE = 0.27
"""Share of documents edited at least once (a 2024 IEEE S&P study measured 27.4 % over
608,723 news articles; the design's unit of thought)."""
MINUTES_PER_DOCUMENT = 1.44
"""1,000 articles a day, the rate the site is sized for."""


def revision_count(rng: random.Random, *, most: int, edited: float) -> int:
    """How many revisions a synthetic document gets: one for most, 2..``most`` for the
    ``edited`` share (fewer edits more likely, as in real archives)."""
    if most < 2 or rng.random() >= edited:
        return 1
    return min(most, 2 + int(rng.expovariate(1.2)))


def generate(
    root: Path,
    *,
    docs: int,
    revisions: int,
    edited: float = EDITED_SHARE,
    seed: int = 8,
    per_day: int = 1000,
) -> None:
    """Write the synthetic archive at ``root`` in the archive's own file format: ``docs``
    documents, the ``edited`` share of them with 2 to ``revisions`` revisions."""
    rng = random.Random(seed)
    layout = Layout(root)
    index: dict[str, dict[str, str]] = {}
    for n in range(docs):
        source = SOURCES[n % len(SOURCES)]
        url = f"https://www.{source}.example/news/2026/{n:06d}-story"
        doc = document_id(url)
        start = T0 + timedelta(minutes=MINUTES_PER_DOCUMENT * 1000 / per_day * n)
        index.setdefault(index_shard(doc), {})[doc] = partition_of(start)
        folder = layout.document_dir(doc, partition_of(start))
        (folder / "revisions").mkdir(parents=True)
        record: dict[str, JSON] = {
            "feeds": [source],
            "discovered_at": start.isoformat().replace("+00:00", "Z"),
            "id": doc,
            "schema": SCHEMA_VERSION,
            "type": "document",
            "url": url,
        }
        (folder / "document.json").write_bytes(dump_json(record))
        title = sentence(rng).rstrip(".")
        blocks = [paragraph(rng) for _ in range(rng.randint(6, 12))]
        pub = Publisher(
            date_published=(start - timedelta(minutes=30)).isoformat(), authors=("Staff",)
        )
        previous: Revision | None = None
        for r in range(revision_count(rng, most=revisions, edited=edited)):
            if r:
                title, blocks, pub = edit(rng, title, blocks, pub)
            observation = Observation(
                url=url,
                observed_at=start + timedelta(hours=3 * r + rng.random()),
                article=Article(title, tuple(Block(b) for b in blocks), pub),
                extractor="bench/1",
            )
            try:
                previous = new_revision(doc, observation, previous=previous)
            except UnchangedContentError:  # an edit that changed nothing: skip it
                continue
            path = layout.revision_file(doc, partition_of(start), previous.number)
            path.write_bytes(dump_json(revision_to_record(previous)))
    for shard, entries in index.items():
        shard_record: dict[str, JSON] = {
            "documents": dict(sorted(entries.items())),
            "schema": INDEX_SCHEMA,
            "shard": shard,
            "type": "index",
        }
        path = layout.index_file(shard)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(dump_json(shard_record))


HOUR_EDITS = 11
"""New revisions of known documents in one hour: 27 % of 1,000 articles a day, edited
about once each."""
HOUR_NEW = 42
"""New documents in one hour at 1,000 a day."""


def append_hour(root: Path, *, run: int, per_day: int = 1000) -> int:
    """One hour of a live archive, through the Archive API: :data:`HOUR_EDITS` new
    revisions (an added paragraph) of recent documents and :data:`HOUR_NEW` new
    documents of one revision, an hour after the archive's newest observation. Returns
    the number of documents touched."""
    from quietedit.archive.store import Archive  # the real API for the hour's writes

    archive = Archive(root)
    rng = random.Random(run)
    recent = [d for _, d in archive.documents(archive.partitions()[-2:])]
    latest = {d: archive.latest_revision(d) for d in recent}
    newest = max(r.observation.observed_at for r in latest.values() if r is not None)
    now = newest + timedelta(hours=1)
    hour_edits = max(1, round(HOUR_EDITS * per_day / 1000))
    hour_new = max(1, round(HOUR_NEW * per_day / 1000))
    for doc in rng.sample(sorted(latest), min(hour_edits, len(latest))):
        last = latest[doc]
        assert last is not None  # noqa: S101 - every synthetic document has a revision
        article = Article(
            last.article.title,
            (*last.article.blocks, Block(f"A late update came in at run {run}.")),
            last.article.publisher,
        )
        observation = Observation(
            url=last.observation.url, observed_at=now, article=article, extractor="bench/1"
        )
        archive.append_revision(doc, observation)
    for n in range(hour_new):
        source = SOURCES[n % len(SOURCES)]
        url = f"https://www.{source}.example/news/live/{run:03d}-{n:03d}-story"
        doc = document_id(url)
        seen = now - timedelta(minutes=n)
        record: dict[str, JSON] = {
            "feeds": [source],
            "discovered_at": seen.isoformat().replace("+00:00", "Z"),
            "url": url,
        }
        archive.write_document(doc, record)
        blocks = tuple(Block(paragraph(rng)) for _ in range(rng.randint(6, 12)))
        article = Article(sentence(rng).rstrip("."), blocks, Publisher(authors=("Staff",)))
        archive.append_revision(
            doc, Observation(url=url, observed_at=seen, article=article, extractor="bench/1")
        )
    return hour_edits + hour_new
