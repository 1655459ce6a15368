"""A run plans from the schedule entries its list keeps, and the hourly checkout holds what
that plan reads: the documents due, not every document still observed."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from click.testing import CliRunner

from quietedit.archive.store import Archive
from quietedit.cli import cli
from quietedit.config import load_config
from quietedit.decide.memory import document_from_record
from quietedit.decide.partitions import schedule_entry
from quietedit.decide.recheck import decide
from quietedit.ingest.listfiles import read_list
from quietedit.ingest.partitions import load_schedules
from quietedit.ingest.run import run_ingest
from tests.conftest import git
from tests.ingest.test_run import T0, Newsroom, config_file, newsroom  # noqa: F401

LATER = T0 + timedelta(days=9)  # past the unedited stories' window, not the edited's


def month(newsroom: Newsroom, config_file: Path, data: Path) -> Archive:  # noqa: F811
    config = load_config(config_file, environ={})
    archive = Archive(data)
    for round_, at in ((1, T0), (2, T0 + timedelta(hours=1))):
        newsroom.round = round_
        run_ingest(config, archive, now=at, simulated=True)
    run_ingest(config, archive, now=LATER, simulated=True)
    return Archive(data)


def test_the_list_keeps_the_schedule_entry_of_each_document_it_names(
    newsroom: Newsroom,  # noqa: F811
    config_file: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    archive = month(newsroom, config_file, tmp_path / "data")
    saved = read_list(archive, "partitions") or {}
    schedules = saved["schedules"]
    assert isinstance(schedules, dict)
    documents = saved["documents"]
    assert isinstance(documents, dict)
    named = {
        (p, str(doc)) for p, docs in documents.items() if isinstance(docs, list) for doc in docs
    }
    kept = load_schedules(archive)
    assert kept is not None and named and named <= set(kept)
    for (_, doc), entry in kept.items():  # as the record says after the run's checks
        assert entry == schedule_entry(archive.read_document(doc) or {})
        assert "title" not in entry and "links" not in entry  # the schedule's part only


def test_a_run_reads_the_records_of_the_documents_it_checks_only(
    newsroom: Newsroom,  # noqa: F811
    config_file: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    config = load_config(config_file, environ={})
    archive = month(newsroom, config_file, tmp_path / "data")
    hour = LATER + timedelta(hours=1)
    kept = load_schedules(archive) or {}
    old = [(p, doc) for p, doc in kept if p == "2026/11/30"]
    waiting = [
        pair
        for pair in old
        if not decide(
            document_from_record(pair[1], kept[pair]).candidate,
            policy=config.settings.recheck,
            now=hour,
        ).due
    ]
    assert waiting  # observed, not due this hour
    damaged = archive.document_file(waiting[0][1])
    damaged.write_text("not json", encoding="utf-8")

    newsroom.listed = set()  # the feed names none of them: no claim reads a record
    report = run_ingest(config, Archive(tmp_path / "data"), now=hour, simulated=True)
    assert not [e for e in report.errors if waiting[0][1] in e]  # planned from its entry
    after = load_schedules(Archive(tmp_path / "data")) or {}
    assert after[waiting[0]] == kept[waiting[0]]  # carried over as it was

    # a list without entries (saved before they were kept): every record named is read
    state = tmp_path / "data" / "state" / "partitions.json"
    record = json.loads(state.read_text(encoding="utf-8"))
    record["schedules_kept"] = False
    state.write_text(json.dumps(record), encoding="utf-8")
    report = run_ingest(
        config, Archive(tmp_path / "data"), now=hour + timedelta(hours=1), simulated=True
    )
    assert [e for e in report.errors if waiting[0][1] in e]


def test_sparse_paths_checks_out_what_the_plan_reads(
    newsroom: Newsroom,  # noqa: F811
    config_file: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    config = load_config(config_file, environ={})
    git(tmp_path, "init", "-q", "-b", "main")  # paths printed relative to the work tree
    archive = month(newsroom, config_file, tmp_path / "data")
    kept = load_schedules(archive) or {}
    old = sorted((p, doc) for p, doc in kept if p == "2026/11/30")
    assert old

    def paths(at: str, *extra: str) -> list[str]:
        done = CliRunner().invoke(
            cli,
            ["sparse-paths", "--config", str(config_file), "--data", str(archive.root), at, *extra],
        )
        assert done.exit_code == 0, done.output
        return done.stdout.split()

    def due(hour: timedelta) -> list[tuple[str, str]]:
        return [
            pair
            for pair in old
            if decide(
                document_from_record(pair[1], kept[pair]).candidate,
                policy=config.settings.recheck,
                now=LATER + hour,
            ).due
        ]

    quiet = next(h for h in (timedelta(minutes=1), timedelta(minutes=5)) if not due(h))
    at = f"--now={(LATER + quiet).isoformat()}"
    folders = [f"data/documents/{p}/{doc[-16:-14]}/{doc}" for p, doc in old]
    shown = paths(at)
    assert not [line for line in shown if line in folders]  # nothing due: none of them
    assert {"data/documents/2026/12/08", "data/documents/2026/12/09"} <= set(shown)
    assert set(folders) <= set(paths(at, "--observed"))  # every document still observed

    busy = next(h for h in (timedelta(hours=n) for n in range(1, 200)) if due(h))
    shown = paths(f"--now={(LATER + busy).isoformat()}")
    # the due ones, and the pages their site's template is learnt from
    assert {f"data/documents/{p}/{doc[-16:-14]}/{doc}" for p, doc in due(busy)} <= set(shown)
    assert set(shown) - set(paths(at)) <= set(folders)
    assert CliRunner().invoke(cli, ["sparse-paths", "--shard", "4/3"]).exit_code == 2
