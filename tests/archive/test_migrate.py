"""`quietedit migrate`: a schema-1 archive moved to schema 2, nothing rewritten that is
create-only, nothing lost, idempotent, and accepted by verify and by the git audit."""

from __future__ import annotations

import gzip
import io
import json
import os
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from quietedit.archive.layout import Layout
from quietedit.archive.migrate import WarcPageKeeper, migrate_archive
from quietedit.archive.records import digest
from quietedit.archive.since import verify_since
from quietedit.archive.verify import verify_archive
from quietedit.article.identity import document_id
from quietedit.cli import cli
from quietedit.model import format_timestamp
from quietedit.revisions import EvidenceRef
from tests.archive.builders import (
    document_record,
    story_url,
    write,
    write_legacy_state,
    write_legacy_story,
)
from tests.archive.test_verify import forge
from tests.conftest import T0, git

DAY = "2026/11/30"


@dataclass
class FakeKeeper:
    """Records every page it is asked to keep, as the WARC writer would receive it."""

    calls: list[tuple[str, str, datetime, bytes]] = field(default_factory=list)

    def __call__(self, document: str, url: str, observed_at: datetime, body: bytes) -> EvidenceRef:
        self.calls.append((document, url, observed_at, body))
        return EvidenceRef(
            file="2026-12/quietedit-20261202T070000Z.warc.gz",
            record=f"urn:uuid:00000000-0000-5000-8000-{len(self.calls):012d}",
            sha256=digest(body),
        )


def snapshot(root: Path, pattern: str) -> dict[str, bytes]:
    """Every create-only file by document, series and number, with its bytes (schema 2
    ends a revision's name with the id's tail: ``000001-<tail>.json``)."""
    return {
        f"{p.parent.parent.name}/{p.parent.name}/{p.name.split('-')[0].split('.')[0]}": (
            p.read_bytes()
        )
        for p in sorted(root.glob(pattern))
    }


@pytest.fixture
def legacy(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    write_legacy_story(root)
    write_legacy_story(
        root, story_url(1), discovered=datetime(2026, 10, 2, 23, 59, tzinfo=T0.tzinfo)
    )
    write_legacy_state(root)
    return root


def test_a_schema_1_archive_is_moved_and_verify_passes(legacy: Path) -> None:
    root = legacy
    before = snapshot(root, "documents/*/*/*.json")
    pages = {p.read_bytes() for p in root.glob("documents/*/evidence/*.html")}
    keeper = FakeKeeper()
    report = migrate_archive(root, keep_page=keeper)
    assert report.problems == []
    assert (report.documents, report.revisions, report.events, report.pages) == (2, 6, 2, 6)
    assert (report.index_entries, report.rewritten) == (2, 2)
    assert verify_archive(root).problems == ()
    after = snapshot(root, "documents/*/*/*/*/*/*/*.json")
    assert after == before  # the same bytes, document by document, number by number
    assert {body for *_, body in keeper.calls} == pages
    assert not list(root.glob("documents/*/evidence"))
    assert sorted(p.name for p in (root / "documents").iterdir()) == ["2026"]
    assert (root / "documents" / "2026" / "10" / "02").is_dir()  # 23:59 UTC: that day


def test_each_page_is_kept_with_the_url_and_time_of_the_revision_naming_it(legacy: Path) -> None:
    revisions = {}
    for path in legacy.glob("documents/*/revisions/*.json"):
        record = json.loads(path.read_text())
        revisions[record["evidence"]] = (record["document"], record["url"], record["observed_at"])
    keeper = FakeKeeper()
    migrate_archive(legacy, keep_page=keeper)
    kept = {
        digest(body): (document, url, format_timestamp(at))
        for document, url, at, body in keeper.calls
    }
    assert kept == revisions


def test_a_second_run_finds_nothing_to_do(legacy: Path) -> None:
    migrate_archive(legacy, keep_page=FakeKeeper())
    files = {p: p.read_bytes() for p in legacy.rglob("*") if p.is_file()}
    keeper = FakeKeeper()
    report = migrate_archive(legacy, keep_page=keeper)
    assert (report.documents, report.pages, report.index_entries, report.rewritten) == (0, 0, 0, 0)
    assert keeper.calls == []
    assert {p: p.read_bytes() for p in legacy.rglob("*") if p.is_file()} == files


def test_a_record_without_discovered_at_gets_it_from_first_seen(tmp_path: Path) -> None:
    root = tmp_path / "data"
    url = story_url(5)
    record = document_record(url, schema=1)
    del record["discovered_at"]
    record["first_seen"] = "2026-11-28T12:00:00Z"
    doc = write_legacy_story(root, url, record=record)
    migrate_archive(root, keep_page=FakeKeeper())
    moved = json.loads(Layout(root).document_file(doc, "2026/11/28").read_text())
    assert moved["discovered_at"] == "2026-11-28T12:00:00Z"
    assert moved["schema"] == 2
    assert verify_archive(root).problems == ()


def test_a_conflicting_file_leaves_that_document_in_place_and_moves_the_others(
    legacy: Path,
) -> None:
    doc = document_id(story_url(0))
    clash = write(Layout(legacy).revision_file(doc, DAY, 2), b"{}\n")
    report = migrate_archive(legacy, keep_page=FakeKeeper())
    assert [str(p) for p in report.problems] == [
        f"{clash}: already exists with other bytes than "
        f"{Layout(legacy).legacy_document_dir(doc) / 'revisions' / '000002.json'}; "
        "both left in place"
    ]
    assert report.documents == 1
    assert (Layout(legacy).legacy_document_dir(doc) / "revisions" / "000002.json").is_file()


def test_the_warc_keeper_writes_resource_records_warc_tools_read(tmp_path: Path) -> None:
    from warcio.archiveiterator import ArchiveIterator

    keeper = WarcPageKeeper(tmp_path / "evidence", now=datetime(2026, 12, 2, 7, tzinfo=T0.tzinfo))
    first = keeper("news-example-org-5358b171ce9e8281", "https://news.example.org/a", T0, b"<p>a")
    second = keeper("news-example-org-5358b171ce9e8281", "https://news.example.org/a", T0, b"<p>b")
    path = tmp_path / "evidence" / first.file
    assert first.file == "2026-12/quietedit-20261202T070000Z.warc.gz"
    with path.open("rb") as handle:
        records = [
            (r.rec_type, r.rec_headers.get_header("WARC-Record-ID"), r.content_stream().read())
            for r in ArchiveIterator(handle)
        ]
    assert [kind for kind, _, _ in records] == ["warcinfo", "resource", "resource"]
    assert records[1:] == [
        ("resource", f"<{first.record}>", b"<p>a"),
        ("resource", f"<{second.record}>", b"<p>b"),
    ]
    assert first.sha256 == digest(b"<p>a")
    gzip.GzipFile(fileobj=io.BytesIO(path.read_bytes())).read()  # whole gzip members


# -- with git: the migrating commit passes the audit ---------------------------------------


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout


def test_migrate_commit_then_verify_since_the_commit_before_passes(repo: Path) -> None:
    root = repo / "data"
    write_legacy_story(root)
    write_legacy_story(root, story_url(1))
    write_legacy_state(root)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "schema 1")
    before = git(repo, "rev-parse", "HEAD").strip()
    code, out = run("verify", "--data", str(root))
    assert code == 1 and "schema-1 archive: run quietedit migrate" in out
    code, out = run("migrate", "--data", str(root), "--evidence", str(repo / "evidence"))
    assert code == 0
    assert out.startswith("moved 2 documents (6 revisions, 2 events), kept 6 evidence pages")
    assert len(list((repo / "evidence").glob("*/*.warc.gz"))) == 1
    assert run("verify", "--data", str(root), "--since", before) == (0, "")  # not committed
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "migrate")
    assert run("verify", "--data", str(root)) == (0, "")
    assert run("verify", "--data", str(root), "--since", before) == (0, "")


def test_a_hand_tampered_schema_1_revision_in_the_migrating_change_is_reported(
    repo: Path,
) -> None:
    root = repo / "data"
    doc = write_legacy_story(root)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "schema 1")
    before = git(repo, "rev-parse", "HEAD").strip()
    tampered = Layout(root).legacy_document_dir(doc) / "revisions" / "000003.json"
    forge(tampered, title="Changed on the way")  # self-consistent, and the newest: no link
    assert run("migrate", "--data", str(root), "--evidence", str(repo / "evidence"))[0] == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "migrate")
    sha = git(repo, "rev-parse", "HEAD").strip()
    assert run("verify", "--data", str(root)) == (0, "")  # the files alone look sound
    code, out = run("verify", "--data", str(root), "--since", before)
    assert code == 1
    assert out.splitlines() == [
        f"{tampered}: deleted in commit {sha[:12]}; revisions, events and evidence are create-only",
        f"{tampered}: deleted since {before}; revisions, events and evidence are create-only",
    ]
    assert verify_since(root, before).documents == 1


def test_a_schema_1_archive_on_a_file_system_without_hard_links_is_copied(
    legacy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = snapshot(legacy, "documents/*/*/*.json")
    real_link = os.link
    calls: list[str] = []

    def no_cross_links(src: str | Path, dst: str | Path) -> None:
        if ".tmp" not in str(src):
            calls.append(str(src))
            raise OSError(18, "Invalid cross-device link")
        real_link(src, dst)

    monkeypatch.setattr(os, "link", no_cross_links)
    assert migrate_archive(legacy, keep_page=FakeKeeper()).problems == []
    assert calls
    assert snapshot(legacy, "documents/*/*/*/*/*/*/*.json") == before
    assert verify_archive(legacy).problems == ()


def test_a_page_that_cannot_be_kept_leaves_its_document_for_the_next_run(legacy: Path) -> None:
    stuck = document_id(story_url(1))
    keeper = FakeKeeper()

    def full_disk(document: str, url: str, observed_at: datetime, body: bytes) -> EvidenceRef:
        if document == stuck:
            raise OSError(28, "No space left on device")
        return keeper(document, url, observed_at, body)

    report = migrate_archive(legacy, keep_page=full_disk)
    assert [p.message for p in report.problems] == [
        "not moved (No space left on device); run quietedit migrate again"
    ]
    assert len(list((Layout(legacy).legacy_document_dir(stuck) / "evidence").glob("*"))) == 3
    assert "unfinished migration" in str(verify_archive(legacy).problems[0])
    assert migrate_archive(legacy, keep_page=keeper).problems == []
    assert verify_archive(legacy).problems == ()
    assert len(keeper.calls) == 6
