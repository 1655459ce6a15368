"""A writer killed with SIGKILL at any moment leaves an archive that verify accepts, and
evidence that ``check_evidence`` accepts."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from quietedit.archive.evidence import check_evidence
from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.archive.warc import scan_warc
from quietedit.article.identity import document_id

# Appends large revisions, new documents and state for ever, so that writes take long enough
# for a kill to land inside them; prints "ready" once imports are done.
WRITER = r"""
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.errors import ArchiveError
from quietedit.model import Article, Block
from quietedit.revisions import Observation

archive = Archive(Path(sys.argv[1]))
start = datetime(2026, 11, 30, tzinfo=UTC)
url = "https://news.example.org/live/2026/11/30/storm-coverage"
doc = document_id(url)
sys.stdout.write("ready\n")
sys.stdout.flush()
n = 0
while True:
    n += 1
    archive.write_document(doc, {"url": url, "checks": n, "discovered_at": "2026-11-30T06:00:00Z"})
    # a new document now and then: its index entry, then its folder, in a new partition
    other = "https://news.example.org/brief/%d" % n
    seen = (start - timedelta(days=n % 40)).isoformat().replace("+00:00", "Z")
    archive.write_document(document_id(other), {"url": other, "discovered_at": seen})
    latest = archive.latest_revision(doc)
    number = 1 if latest is None else latest.number + 1
    blocks = tuple(Block("Update %d, paragraph %d: rain and wind." % (number, i))
                   for i in range(200))
    archive.append_revision(doc, Observation(
        url=url, observed_at=start + timedelta(minutes=number),
        article=Article(title="Storm live: update %d" % number, blocks=blocks),
        extractor="crash-test"))
    archive.write_state("ledger", {"requests": n})
"""

KILLS = 30


def test_sigkill_at_many_points_never_corrupts_the_archive(tmp_path: Path) -> None:
    root = tmp_path / "data"
    rng = random.Random(20261130)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    for attempt in range(KILLS):
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(root)],
            stdout=subprocess.PIPE,
            env=env,
        )
        assert writer.stdout is not None
        assert writer.stdout.readline() == b"ready\n"
        wait_for_a_revision(root)  # each writer gets on, however slow the disk's fsync
        if attempt % 2:
            time.sleep(rng.uniform(0.0, 0.1))  # anywhere in the write cycle
        else:
            _wait_for_a_write_in_progress(root / ".tmp", rng)  # inside a write
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        writer.stdout.close()
        report = verify_archive(root)
        assert report.problems == (), f"after kill {attempt}: {report.problems}"
    # Each kill inside a write leaves that write's temp file behind: enough of them did.
    interrupted = len(list((root / ".tmp").iterdir()))
    assert interrupted >= 3, f"only {interrupted} kills landed inside a write"
    storm = document_id("https://news.example.org/live/2026/11/30/storm-coverage")
    revisions = Archive(root).revisions(storm)
    # The kills interrupted writers in many states, and every writer went on from the
    # last complete revision: the chain is unbroken from 1 to n.
    assert len(revisions) >= KILLS // 3
    assert [r.number for r in revisions] == list(range(1, len(revisions) + 1))


def wait_for_a_revision(root: Path, *, timeout: float = 30.0) -> None:
    """Return as soon as the writer has stored one more revision (or after ``timeout``
    seconds): the kills then land anywhere in the cycles after it, and every writer adds
    to the chain the test counts, on a disk whose fsync takes milliseconds as on one
    where it is free."""
    start = _revisions(root)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and _revisions(root) == start:
        time.sleep(0.002)


def _revisions(root: Path) -> int:
    return sum(1 for _ in root.glob("documents/**/revisions/*.json"))


def _wait_for_a_write_in_progress(tmp: Path, rng: random.Random) -> None:
    """Return as soon as a new temp file appears in ``tmp``, plus a few random microseconds."""
    seen = set(os.listdir(tmp)) if tmp.exists() else set()
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        if tmp.exists() and set(os.listdir(tmp)) - seen:
            time.sleep(rng.uniform(0, 0.002))
            return


@pytest.mark.parametrize("leftover", [b"", b'{"schema": 1, "hash": "sha2', b"\x00" * 10])
def test_leftover_temp_files_never_block_the_next_writer(archive: Archive, leftover: bytes) -> None:
    from tests.conftest import seed_story

    archive.layout.tmp_dir.mkdir(parents=True)
    (archive.layout.tmp_dir / "000001.json.abc123").write_bytes(leftover)
    doc = seed_story(archive, revisions=2)
    assert verify_archive(archive.root).problems == ()
    assert len(archive.revisions(doc)) == 2


# Appends WARC records and the revisions naming them for ever, on a "disk" that takes
# short writes (4 KiB, as POSIX allows) slowly, so that kills land inside appends.
WARC_WRITER = r"""
import base64, os, random, sys, time
from datetime import UTC, datetime, timedelta
from pathlib import Path
import quietedit.archive.evidence as evidence_module
from quietedit.archive.evidence import EvidenceLog
from quietedit.archive.store import Archive
from quietedit.article.identity import document_id
from quietedit.model import Article, Block
from quietedit.revisions import Observation

class SlowDisk:
    def __getattr__(self, name):
        return getattr(os, name)

    @staticmethod
    def write(fd, data):
        time.sleep(0.0005)
        return os.write(fd, bytes(data[:4096]))

evidence_module.os = SlowDisk()
archive = Archive(Path(sys.argv[1]))
start = datetime(2026, 11, 30, tzinfo=UTC)
url = "https://news.example.org/live/2026/11/30/storm-coverage"
doc = document_id(url)
sys.stdout.write("ready\n")
sys.stdout.flush()
with EvidenceLog(Path(sys.argv[2]), sys.argv[3]) as log:
    while True:
        archive.write_document(doc, {"url": url, "discovered_at": "2026-11-30T06:00:00Z"})
        latest = archive.latest_revision(doc)
        number = 1 if latest is None else latest.number + 1
        observed = start + timedelta(minutes=number)
        noise = base64.b64encode(random.Random(number).randbytes(60_000))  # incompressible
        body = b"<html><body><p>Update %d</p><!-- %s --></body></html>" % (number, noise)
        kept = log.append_response(document=doc, url=url, observed_at=observed, status=200,
                                   headers=(("content-type", "text/html"),), body=body)
        archive.append_revision(doc, Observation(
            url=url, observed_at=observed, article=Article(title="Storm live: update %d" % number,
            blocks=(Block("Update %d: the storm moved north." % number),)),
            extractor="crash-test", evidence=kept))
"""

WARC_KILLS = 20
WARC = "2026-11/quietedit-20261130T000000Z.warc.gz"


def wait_for_growth(path: Path, *, timeout: float = 5.0) -> None:
    """Return as soon as the file at ``path`` grows (or after ``timeout`` seconds)."""
    size = path.stat().st_size if path.exists() else 0
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.stat().st_size != size:
            return
        time.sleep(0.0005)


def test_sigkill_while_evidence_is_appended_leaves_every_named_record_whole(
    tmp_path: Path,
) -> None:
    root, evidence = tmp_path / "data", tmp_path / "evidence"
    rng = random.Random(20261202)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    cut_off = 0
    for attempt in range(WARC_KILLS):
        writer = subprocess.Popen(
            [sys.executable, "-c", WARC_WRITER, str(root), str(evidence), WARC],
            stdout=subprocess.PIPE,
            env=env,
        )
        assert writer.stdout is not None
        assert writer.stdout.readline() == b"ready\n"
        wait_for_a_revision(root)
        time.sleep(rng.uniform(0.05, 0.4))
        if attempt % 2:  # every other kill waits until an append is under way: on a busy
            wait_for_growth(evidence / WARC)  # machine a random sleep may never land in one
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        writer.stdout.close()
        report = verify_archive(root)
        assert report.problems == (), f"after kill {attempt}: {report.problems}"
        assert check_evidence(evidence, report.references) == [], f"after kill {attempt}"
        if (evidence / WARC).exists():
            cut_off += scan_warc(evidence / WARC).damage is not None
    # the next writer cut each interrupted record off and went on after the last whole one
    assert cut_off >= 5, f"only {cut_off} kills landed inside an append"
    revisions = Archive(root).revisions(Archive(root).document_ids()[0])
    assert len(revisions) >= WARC_KILLS
    scan = scan_warc(evidence / WARC)
    names = {revision.observation.evidence for revision in revisions}
    assert {record.record for record in scan.records[1:]} >= {
        ref.record for ref in names if ref is not None and not isinstance(ref, str)
    }
