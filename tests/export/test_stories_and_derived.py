"""The export's stories (grouped as the site groups them) and derived records (revisions
read again by a later extractor), each checked against an archive made for it."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from quietedit.archive.derived import derived_to_record, new_derived
from quietedit.archive.files import create_file
from quietedit.archive.records import dump_json
from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.export.sqlite import export_sqlite
from quietedit.model import Block
from quietedit.revisions import EvidenceRef
from tests.analysis.wire_stories import BRIEFS, MUSEUM, OUTLET_A, OUTLET_B, OUTLET_C, TRAIN_STRIKE
from tests.conftest import T0, observation

URLS = {
    "a": "https://north.example.com/news/haldvik-harbour-wall-collapse",
    "b": "https://coast.example.net/2026/12/01/haldvik-sea-wall-breach",
    "c": "https://daily.example.org/world/storm-surge-what-we-know",
    "strike": "https://coast.example.net/2026/12/01/train-drivers-strike",
    "museum": "https://daily.example.org/culture/city-museum-reopens",
}
EVIDENCE = EvidenceRef(
    "2026-11/quietedit-20261130T060000Z.warc.gz",
    "urn:uuid:5f0c2a6e-3a4b-4c1d-9e8f-0a1b2c3d4e5f",
    "sha256:" + "ab" * 32,
)


def store(archive: Archive, key: str, text: tuple[str, tuple[str, ...]], *, hours: float) -> str:
    url = URLS.get(key, key)
    doc = document_id(url)
    at = T0 + timedelta(hours=hours)
    archive.write_document(doc, {"url": url, "first_seen": at.isoformat().replace("+00:00", "Z")})
    title, blocks = text
    for n in range(2):  # an edit, so that the site gives it pages too
        lede = blocks[0] if n == 0 else f"{blocks[0]} The figures were revised."
        seen = observation(lede, *blocks[1:], title=title, at=at + timedelta(hours=n), url=url)
        archive.append_revision(doc, replace(seen, evidence=EVIDENCE))
    return doc


def rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql).fetchall()


def test_one_story_told_by_three_outlets_is_one_story_and_the_others_none(
    tmp_path: Path,
) -> None:
    archive = Archive(tmp_path / "data")
    a = store(archive, "a", OUTLET_A, hours=0)
    b = store(archive, "b", OUTLET_B, hours=1.5)
    c = store(archive, "c", OUTLET_C, hours=3)
    store(archive, "strike", TRAIN_STRIKE, hours=2)  # b's outlet, another story
    store(archive, "museum", MUSEUM, hours=4)  # c's outlet, another story
    for n in range(4):  # the day's other news of those two sites, with the same furniture
        site = ("coast.example.net", "daily.example.org")[n % 2]
        store(archive, f"https://{site}/2026/12/01/brief-{n}", BRIEFS[n % len(BRIEFS)], hours=n)
    db = tmp_path / "out.db"
    report = export_sqlite(archive, db)
    assert report.failures == [] and report.rows["stories"] == 3
    # the earliest article, a, names the story
    assert rows(db, "select document, story, source from stories order by document") == sorted(
        (doc, a, source)
        for doc, source in (
            (a, "north-example-com"),
            (b, "coast-example-net"),
            (c, "daily-example-org"),
        )
    )
    # every story row names a document of the export
    assert rows(db, "pragma foreign_key_check") == []


def test_a_revision_read_again_is_a_derived_row_beside_the_text_first_observed(
    tmp_path: Path,
) -> None:
    archive = Archive(tmp_path / "data")
    doc = store(archive, "museum", MUSEUM, hours=0)
    first = archive.revisions(doc)[0]
    title, blocks = MUSEUM
    article = replace(
        first.article, blocks=(Block(" ".join(blocks[:2])), *(Block(b) for b in blocks[2:]))
    )
    reading = new_derived(first, article, number=1, extractor="quietedit-extract/2")
    path = archive.layout.derived_file(doc, archive.partition(doc) or "", 1)
    create_file(archive.layout.tmp_dir, path, dump_json(derived_to_record(reading)))
    db = tmp_path / "out.db"
    export_sqlite(archive, db)
    ((row_id, revision, extractor, found_title, found_blocks, file, record),) = rows(
        db,
        "select id, revision, extractor, title, blocks, evidence_file, evidence_record "
        "from derived",
    )
    assert (row_id, revision, extractor) == (f"{doc}/d1", f"{doc}/1", "quietedit-extract/2")
    assert found_title == title
    assert json.loads(str(found_blocks)) == [" ".join(blocks[:2]), *blocks[2:]]
    assert (file, record) == (EVIDENCE.file, EVIDENCE.record)
    # the text first observed stays in the revisions' blocks
    assert rows(db, f"select count(*) from blocks where revision = '{doc}/1'") == [  # noqa: S608
        (len(blocks),)
    ]
