"""`quietedit reextract`: each revision's stored WARC page read again with the current
extractor, differing readings kept as create-only derived records that `verify` checks."""

from __future__ import annotations

import gzip
import itertools
import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from quietedit.archive.records import dump_json, record_hash
from quietedit.archive.reextract import ReextractReport, reextract
from quietedit.archive.since import verify_since
from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.article import extract
from quietedit.cli import cli
from quietedit.decide import reading
from quietedit.demo import run_demo
from quietedit.model import Article, Block
from tests.conftest import git

MAX_BYTES = 10 * 1024 * 1024
NEW_VERSION = "quietedit-extract/2"


@pytest.fixture(scope="module")
def demo_archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's archive and evidence, made once: 9 documents, 16 revisions."""
    root = tmp_path_factory.mktemp("reextract-demo")
    run_demo(root / "data")
    return root


@pytest.fixture
def copy(demo_archive: Path, tmp_path: Path) -> Path:
    shutil.copytree(demo_archive / "data", tmp_path / "data")
    shutil.copytree(demo_archive / "evidence", tmp_path / "evidence")
    return tmp_path


def joined_lists(article: Article) -> Article:
    """A real change of extraction: a bulleted list read as one paragraph."""
    blocks: list[Block] = []
    for block in article.blocks:
        if block.kind == "list-item" and blocks and blocks[-1].kind in ("list-item", "list"):
            blocks[-1] = Block(f"{blocks[-1].text}; {block.text}", "paragraph")
        else:
            blocks.append(block)
    return Article(article.title, tuple(blocks), article.publisher)


@pytest.fixture
def new_extractor(monkeypatch: pytest.MonkeyPatch) -> None:
    original = extract.extract_article

    def changed(*args: object, **kwargs: object) -> Article:
        return joined_lists(original(*args, **kwargs))  # type: ignore[arg-type]

    monkeypatch.setattr(reading, "extract_article", changed)


def snapshot(root: Path, folder: str = "revisions") -> dict[str, bytes]:
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob(f"{folder}/*.json"))
    }


def lists_in(data: Path) -> set[tuple[str, int]]:
    """The revisions holding two list items in a row: what the new extractor changes."""
    found = set()
    for path in data.rglob("revisions/*.json"):
        record = json.loads(path.read_text(encoding="utf-8"))
        kinds = [block["kind"] for block in record["blocks"]]
        if any(a == b == "list-item" for a, b in itertools.pairwise(kinds)):
            found.add((record["document"], record["number"]))
    return found


def evidence_files(data: Path) -> list[str]:
    """The WARC files the revisions name, sorted."""
    return sorted(
        {
            json.loads(path.read_text(encoding="utf-8"))["evidence"]["file"]
            for path in data.rglob("revisions/*.json")
        }
    )


def run(
    root: Path,
    *,
    extractor: str = extract.EXTRACTOR_VERSION,
    documents: list[str] | None = None,
    since: datetime | None = None,
) -> ReextractReport:
    return reextract(
        Archive(root / "data"),
        root / "evidence",
        max_bytes=MAX_BYTES,
        extractor=extractor,
        documents=documents,
        since=since,
    )


def test_the_same_extractor_reads_every_stored_page_as_recorded(copy: Path) -> None:
    report = reextract(Archive(copy / "data"), copy / "evidence", max_bytes=MAX_BYTES)
    assert report.counts["unchanged"] == 16
    assert report.written == [] and report.problems == []
    assert not list((copy / "data").rglob("derived"))


@pytest.mark.usefixtures("new_extractor")
def test_a_changed_extractor_adds_derived_records_and_never_touches_a_revision(
    copy: Path,
) -> None:
    data = copy / "data"
    before = snapshot(data)
    expected = lists_in(data)
    assert expected, "the demo has a list to read differently"
    report = reextract(Archive(data), copy / "evidence", max_bytes=MAX_BYTES,
                       extractor=NEW_VERSION)  # fmt: skip
    assert report.counts["written"] == len(expected)
    assert report.counts["unchanged"] == 16 - len(expected)
    assert snapshot(data) == before
    named = set()
    for path in map(Path, report.written):
        assert path.parent.name == "derived"
        assert path.name.endswith(path.parent.parent.name[-16:] + ".json")
        record = json.loads(path.read_text(encoding="utf-8"))
        assert record["extractor"] == NEW_VERSION
        assert not any(block["kind"] == "list-item" for block in record["blocks"])
        revision = json.loads(
            next(path.parent.parent.glob(f"revisions/{record['revision']:06d}-*.json")).read_text()
        )
        assert record["revision_hash"] == revision["hash"]
        assert record["evidence"] == revision["evidence"]
        named.add((record["document"], record["revision"]))
    assert named == expected
    assert verify_archive(data).problems == ()

    again = reextract(Archive(data), copy / "evidence", max_bytes=MAX_BYTES, extractor=NEW_VERSION)
    assert again.written == [] and again.counts["done"] == len(expected)


def test_a_later_extractor_that_reads_the_first_text_again_says_so(copy: Path) -> None:
    data = copy / "data"
    with pytest.MonkeyPatch.context() as patch:
        original = extract.extract_article
        patch.setattr(reading, "extract_article", lambda *a, **k: joined_lists(original(*a, **k)))
        first = reextract(Archive(data), copy / "evidence", max_bytes=MAX_BYTES,
                          extractor=NEW_VERSION)  # fmt: skip
    back = reextract(Archive(data), copy / "evidence", max_bytes=MAX_BYTES,
                     extractor="quietedit-extract/3")  # fmt: skip
    # the current reading of those revisions was /2's: /3 reads them as first observed
    assert len(back.written) == len(first.written) > 0
    for path in map(Path, back.written):
        record = json.loads(path.read_text(encoding="utf-8"))
        assert any(block["kind"] == "list-item" for block in record["blocks"])
    assert verify_archive(data).problems == ()


@pytest.mark.usefixtures("new_extractor")
def test_missing_and_damaged_evidence_is_reported_per_revision_and_the_run_goes_on(
    copy: Path,
) -> None:
    evidence = copy / "evidence"
    named = evidence_files(copy / "data")
    assert len(named) >= 2
    gone = evidence / named[-1]
    gone.unlink()  # the last round's file not downloaded
    damaged = evidence / named[0]
    raw = damaged.read_bytes()
    damaged.write_bytes(raw[: len(raw) // 2])  # round 1's file cut in half
    result = CliRunner().invoke(
        cli, ["reextract", "--data", str(copy / "data"), "--evidence", str(evidence)]
    )
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    missing = [line for line in lines if "missing: evidence file" in line]
    broken = [line for line in lines if "is not whole in" in line]
    assert missing and all(named[-1] in line for line in missing)
    assert broken and all("revisions/" in line for line in broken)
    assert "Traceback" not in result.output
    assert "unchanged" in result.stderr  # the others were read


def test_a_record_whose_bytes_are_not_the_revisions_page_is_refused(copy: Path) -> None:
    data = copy / "data"
    path = next(data.rglob("revisions/000001-*.json"))
    record = json.loads(path.read_text(encoding="utf-8"))
    other = next(p for p in data.rglob("revisions/000001-*.json") if p != path)
    foreign = json.loads(other.read_text(encoding="utf-8"))["evidence"]
    # the revision's file name and record id, another page's hash: as if the record changed
    wrong = dict(record["evidence"], sha256=foreign["sha256"])
    forged = dict(record, evidence=wrong)
    forged["hash"] = record_hash(forged)
    path.write_bytes(dump_json(forged))
    report = run(copy, documents=[record["document"]])
    assert [p.outcome for p in report.problems] == ["damaged"]
    assert "not the page the revision read" in report.problems[0].message


@pytest.mark.usefixtures("new_extractor")
def test_since_and_document_choose_the_revisions_read(copy: Path) -> None:
    data = copy / "data"
    (document, _number), *_ = sorted(lists_in(data))
    only = run(copy, documents=[document], extractor=NEW_VERSION)
    assert {Path(p).parent.parent.name for p in only.written} == {document}
    late = run(copy, since=datetime(2027, 1, 1, tzinfo=UTC))
    assert sum(late.counts.values()) == 0


@pytest.mark.usefixtures("new_extractor")
def test_the_git_audit_accepts_added_derived_records_and_rejects_changed_ones(
    copy: Path,
) -> None:
    data = copy / "data"
    git(copy, "init", "-q")
    git(copy, "add", "-A", "data")
    git(copy, "commit", "-q", "-m", "archive")
    base = git(copy, "rev-parse", "HEAD").strip()
    report = run(copy, extractor=NEW_VERSION)
    assert report.written
    assert verify_since(data, base).problems == ()
    git(copy, "add", "-A", "data")
    git(copy, "commit", "-q", "-m", "re-extraction")
    base = git(copy, "rev-parse", "HEAD").strip()
    derived = Path(report.written[0])
    derived.write_bytes(derived.read_bytes().replace(b"; ", b", "))
    found = [str(p) for p in verify_since(data, base).problems]
    assert any(
        line.endswith("derived records, like revisions, are create-only") and derived.name in line
        for line in found
    ), found
    assert any("hash: recorded" in line for line in found), found
    derived.unlink()
    found = [str(p) for p in verify_since(data, base).problems]
    assert any("deleted" in line and derived.name in line for line in found), found


@pytest.mark.usefixtures("new_extractor")
def test_verify_checks_the_derived_series(copy: Path) -> None:
    data = copy / "data"
    report = run(copy, extractor=NEW_VERSION)
    first = Path(report.written[0])
    record = json.loads(first.read_text(encoding="utf-8"))
    count = len(list(first.parent.glob("*.json")))
    # a record naming a revision that does not exist, with a gap before it
    stray = dict(record, number=count + 2, revision=99)
    stray["hash"] = record_hash(stray)
    target = first.with_name(f"{count + 2:06d}-{first.name[7:]}")
    target.write_bytes(dump_json(stray))
    found = [str(p) for p in verify_archive(data).problems]
    gap = f"{count + 1:06d}-"
    assert any(gap in line and "without gaps" in line for line in found), found
    assert any(target.name in line and "revision: 99 does not exist" in line for line in found)
    target.unlink()
    # one reading per revision and extractor
    twin = dict(record, number=count + 1)
    twin["hash"] = record_hash(twin)
    first.with_name(f"{count + 1:06d}-{first.name[7:]}").write_bytes(dump_json(twin))
    found = [str(p) for p in verify_archive(data).problems]
    assert any("a reading is recorded once" in line for line in found), found


def test_a_wrong_gzip_stream_is_not_a_traceback(copy: Path) -> None:
    path = copy / "evidence" / evidence_files(copy / "data")[0]
    path.write_bytes(gzip.compress(b"not a WARC file at all"))
    report = run(copy)
    assert report.problems and all(p.outcome == "damaged" for p in report.problems)


@pytest.mark.usefixtures("new_extractor")
def test_the_site_shows_the_text_first_observed_or_re_extracted_and_says_which(
    copy: Path,
) -> None:
    from quietedit.publish.build import BuildOptions, build_site

    data = copy / "data"
    report = run(copy, extractor=NEW_VERSION)
    document = Path(report.written[0]).parent.parent.name
    page = f"articles/{document}/index.html"
    observed = copy / "observed"
    build_site(BuildOptions(data=data, out=observed, search=False, workers=1))
    reread = copy / "reextracted"
    build_site(BuildOptions(data=data, out=reread, search=False, workers=1, reextracted=True))

    first = (observed / page).read_text(encoding="utf-8")
    assert '<dd class="text-shown">as first observed</dd>' in first
    assert "until midnight; No ferries" not in first
    again = (reread / page).read_text(encoding="utf-8")
    assert "as re-extracted from the stored pages (revisions 1, 2 by quietedit-extract/2" in again
    api = json.loads((reread / f"api/documents/{document}.json").read_text(encoding="utf-8"))
    assert api["reextracted"] == {"1": NEW_VERSION, "2": NEW_VERSION}
    assert "reextracted" not in json.loads(
        (observed / f"api/documents/{document}.json").read_text(encoding="utf-8")
    )
    # the edit to revision 2, in the article page's timeline, compares the texts re-read
    edit = again.split('<li id="r2">', 1)[1].split("</li>", 1)[0]
    assert "until midnight; No ferries" in edit


def test_the_command_refuses_bad_arguments_with_a_clear_message(copy: Path) -> None:
    data = str(copy / "data")
    runner = CliRunner()
    for args, expected in [
        (["--since", "last week"], "is not an ISO-8601 date or time"),
        (["--since", "2026-11-30T06:00"], "has no time zone"),
        (["--document", "../../etc"], "is not a document id"),
        (["--document", "nowhere-example-org-0123456789abcdef"], "not in the archive's index"),
    ]:
        result = runner.invoke(cli, ["reextract", "--data", data, *args])
        assert result.exit_code == 2, args
        assert expected in result.output and "Traceback" not in result.output
    late = runner.invoke(cli, ["reextract", "--data", data, "--since", "2027-01-01"])
    assert late.exit_code == 0 and "0 unchanged" in late.stderr
