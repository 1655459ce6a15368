"""The hourly checkout after midnight: a partition the last list read whole (yesterday's
then) and no longer recent is read for its documents still observed."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

from quietedit.archive.layout import partition_of
from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.config import load_config
from quietedit.decide.memory import DocumentState
from quietedit.decide.partitions import Observed
from quietedit.decide.shard import WHOLE, parse_shard
from quietedit.ingest.checkout import checkout_plan
from quietedit.ingest.partitions import (
    checkout_list,
    ensure_recent,
    load_active,
    plan_records,
    recent,
    save_active,
)
from quietedit.ingest.run import run_ingest
from quietedit.model import JSON
from tests.ingest.test_run import T0, Newsroom, config_file, newsroom  # noqa: F401

SAVED = datetime(2026, 12, 1, 23, 50, tzinfo=UTC)
URL = "https://news.example.org/2026/11/30/harbour-bridge-closed"


def every(states: dict[tuple[str, str], DocumentState]) -> frozenset[tuple[str, str]]:
    return frozenset(states)


def test_the_first_run_after_midnight_checks_out_the_documents_of_the_day_before_yesterday(
    tmp_path: Path,
) -> None:
    archive = Archive(tmp_path / "data")
    pair = (partition_of(SAVED - timedelta(days=1)), document_id(URL))
    entry: dict[str, JSON] = {
        "url": URL,
        "host": "news.example.org",
        "discovered_at": "2026-11-30T22:00:00Z",
        "schedule": {"last_checked_at": "2026-12-01T23:40:00Z"},
    }
    # the last run of 1 December saved its list: 1 December and 30 November read whole
    keep = Observed(documents=frozenset({pair})).with_whole(recent(SAVED))
    save_active(archive, keep, shard=WHOLE, now=SAVED, schedules={pair: entry})

    # 2 December, 00:10: 30 November is no longer read whole, but for its documents due
    chosen = checkout_list(archive, now=SAVED + timedelta(minutes=20), due=every)
    assert chosen is not None and "2026/11/30" not in chosen.whole
    assert chosen.reads(*pair)
    nothing_due = checkout_list(
        archive, now=SAVED + timedelta(minutes=20), due=lambda _: frozenset()
    )
    assert nothing_due is not None and not nothing_due.reads(*pair)


def test_the_first_run_after_midnight_keeps_planning_the_documents_it_did_not_check_out(
    tmp_path: Path,
) -> None:
    archive = Archive(tmp_path / "data")
    pair = (partition_of(SAVED - timedelta(days=1)), document_id(URL))
    entry: dict[str, JSON] = {
        "url": URL,
        "host": "news.example.org",
        "discovered_at": "2026-11-30T22:00:00Z",
        "schedule": {"last_checked_at": "2026-12-01T23:40:00Z"},
    }
    keep = Observed(documents=frozenset({pair})).with_whole(recent(SAVED))
    save_active(archive, keep, shard=WHOLE, now=SAVED, schedules={pair: entry})

    # 2 December, 00:10: not due, so not checked out (its folder is not on disk); the run
    # first adds today's partition to its list, then plans from it
    now = SAVED + timedelta(minutes=20)
    ensure_recent(archive, shard=WHOLE, now=now)
    read, kept = plan_records(archive, now=now)
    assert pair in read or kept.get(pair) == entry


def test_the_first_run_after_midnight_in_the_checkout_keeps_what_a_full_one_keeps(
    newsroom: Newsroom,  # noqa: F811
    config_file: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    config = load_config(config_file, environ={})
    data, full = tmp_path / "data", tmp_path / "full"
    for round_, at in ((1, T0), (2, T0 + timedelta(hours=1))):
        newsroom.round = round_
        run_ingest(config, Archive(data), now=at, simulated=True)
    run_ingest(config, Archive(data), now=SAVED, simulated=True)  # the last run of the day
    shutil.copytree(data, full)

    # the hourly checkout at 00:10: what sparse-paths prints, the other folders left out
    now = SAVED + timedelta(minutes=20)
    chosen = checkout_plan(Archive(data), config, shard=WHOLE, now=now)
    assert chosen is not None
    left_out = [
        folder
        for folder in (data / "documents").glob("*/*/*/*/*")
        if folder.is_dir()
        and (partition := "/".join(folder.parts[-5:-2])) not in chosen.whole
        and not chosen.reads(partition, folder.name)
    ]
    assert left_out  # 30 November's documents, not due at 00:10
    for folder in left_out:
        shutil.rmtree(folder)

    newsroom.listed = set()  # no feed names them: nothing but the list keeps them observed
    run_ingest(config, Archive(data), now=now, simulated=True)
    run_ingest(config, Archive(full), now=now, simulated=True)
    kept, everything = load_active(Archive(data)), load_active(Archive(full))
    assert kept is not None and everything is not None
    observed = {("/".join(folder.parts[-5:-2]), folder.name) for folder in left_out}
    assert observed <= everything.documents  # still observed, though not due at 00:10
    assert kept == everything


def test_a_damaged_record_of_yesterday_is_read_again_after_midnight(
    newsroom: Newsroom,  # noqa: F811
    config_file: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    config = load_config(config_file, environ={})
    data = tmp_path / "data"
    for round_, at in ((1, T0), (2, T0 + timedelta(hours=1))):
        newsroom.round = round_
        run_ingest(config, Archive(data), now=at, simulated=True)
    archive = Archive(data)
    damaged = archive.document_ids(["2026/11/30"])[0]
    archive.document_file(damaged).write_text("not json", encoding="utf-8")
    newsroom.listed = set()
    report = run_ingest(config, Archive(data), now=SAVED, simulated=True)
    assert [e for e in report.errors if damaged in e]  # reported, read again next time

    now = SAVED + timedelta(minutes=20)
    chosen = checkout_plan(Archive(data), config, shard=WHOLE, now=now)
    assert chosen is not None and chosen.reads("2026/11/30", damaged)
    for folder in (data / "documents").glob("*/*/*/*/*"):  # the checkout: the rest left out
        partition = "/".join(folder.parts[-5:-2])
        if folder.is_dir() and not chosen.reads(partition, folder.name):
            shutil.rmtree(folder)
    report = run_ingest(config, Archive(data), now=now, simulated=True)
    assert [e for e in report.errors if damaged in e]


def test_a_partition_one_shard_lists_whole_without_entries_stays_whole(tmp_path: Path) -> None:
    archive = Archive(tmp_path / "data")
    pair = (partition_of(SAVED - timedelta(days=1)), document_id(URL))
    entry: dict[str, JSON] = {
        "url": URL,
        "host": "news.example.org",
        "discovered_at": "2026-11-30T22:00:00Z",
        "schedule": {"last_checked_at": "2026-12-01T23:40:00Z"},
    }
    keep = Observed(documents=frozenset({pair})).with_whole(recent(SAVED))
    save_active(archive, keep, shard=parse_shard("1/2"), now=SAVED, schedules={pair: entry})
    # the other shard's list keeps no entries for 30 November (a record it could not read)
    save_active(archive, keep, shard=parse_shard("2/2"), now=SAVED, schedules={})
    chosen = checkout_list(archive, now=SAVED + timedelta(minutes=20), due=every)
    assert chosen is not None and "2026/11/30" in chosen.whole
