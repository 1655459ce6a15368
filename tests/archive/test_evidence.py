"""WARC evidence: records that standard readers parse, the same bytes for the same input,
files a killed writer left repaired on the next append, and ``check_evidence``."""

from __future__ import annotations

import gzip
import hashlib
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from warcio.archiveiterator import ArchiveIterator

from quietedit.archive.evidence import (
    EvidenceLog,
    check_evidence,
    evidence_file_name,
    is_evidence_file_name,
)
from quietedit.archive.warc import http_headers, scan_warc
from quietedit.decide.shard import WHOLE, Shard
from quietedit.errors import ArchiveError
from quietedit.revisions import EvidenceRef

NOW = datetime(2026, 11, 30, 8, 17, tzinfo=UTC)
NAME = "2026-11/quietedit-20261130T081700Z.warc.gz"
DOC = "news-example-org-5358b171ce9e8281"
URL = "https://news.example.org/politics/2026/11/30/council-budget-vote"
PAGE = (
    "<!doctype html><html lang=en><head><meta charset=utf-8><title>Council passes budget</title>"
    "</head><body><article><h1>Council passes budget</h1><p>The city council approved a "
    "budget of 4.2 million euros on Monday, after a debate that ran past midnight.</p>"
    "<p>Council leader Maria Okafor said the vote was “a fair compromise”.</p></article>"
    "</body></html>"
).encode()
HEADERS = (
    ("Date", "Mon, 30 Nov 2026 08:16:59 GMT"),
    ("Content-Type", "text/html; charset=utf-8"),
    ("Content-Encoding", "gzip"),
    ("Transfer-Encoding", "chunked"),
    ("ETag", 'W/"5f3a-council"'),
    ("Set-Cookie", "consent=1; Path=/"),
    ("Set-Cookie", "ab=b; Path=/"),
)


def write_run(folder: Path, count: int = 3, *, name: str = NAME) -> list[EvidenceRef]:
    """``count`` responses of one document, then a schema-1 page as a resource record."""
    references = []
    with EvidenceLog(folder, name) as log:
        for n in range(count):
            references.append(
                log.append_response(
                    document=DOC,
                    url=URL,
                    observed_at=NOW + timedelta(minutes=n, microseconds=n * 250),
                    status=200,
                    headers=HEADERS,
                    body=PAGE.replace(b"Monday", f"Monday ({n})".encode()),
                )
            )
        references.append(
            log.append_resource(
                document=DOC, url=URL, observed_at=NOW, content_type="text/html", body=PAGE
            )
        )
    return references


ReadRecord = tuple[str, dict[str, str], str | None, list[tuple[str, str]], bytes]


def read_back(path: Path) -> list[ReadRecord]:
    """Every record as warcio reads it, digests checked: type, WARC headers, status line,
    HTTP headers, payload."""
    records = []
    with path.open("rb") as stream:
        for record in ArchiveIterator(stream, check_digests="raise"):
            http = record.http_headers
            records.append(
                (
                    record.rec_type,
                    dict(record.rec_headers.headers),
                    None if http is None else f"{http.protocol} {http.statusline}",
                    [] if http is None else list(http.headers),
                    record.raw_stream.read(),
                )
            )
    return records


# ---- names ---------------------------------------------------------------------------------------


def test_file_name_is_month_folder_and_run_start_with_the_shard_before_the_suffix() -> None:
    assert evidence_file_name(NOW, shard=WHOLE) == NAME
    later = datetime(2027, 1, 1, 0, 0, 5, 999, tzinfo=UTC)
    assert (
        evidence_file_name(later, shard=Shard(2, 3))
        == "2027-01/quietedit-20270101T000005Z-shard-2-of-3.warc.gz"
    )
    assert is_evidence_file_name("2027-01/quietedit-20270101T000005Z-shard-2-of-3.warc.gz")


@pytest.mark.parametrize(
    "name",
    [
        "../2026-11/quietedit-20261130T081700Z.warc.gz",
        "2026-11/../../etc/passwd",
        "/etc/2026-11/quietedit-20261130T081700Z.warc.gz",
        "2026-11/quietedit-20261130T081700Z.warc.gz/../x",
        "2026-12/quietedit-20261130T081700Z.warc.gz",  # month folder disagrees
        "2026-11/quietedit-20261131T081700Z.warc.gz",  # no such day
        "2026-11/quietedit-20261130T081700Z-shard-4-of-3.warc.gz",
        "2026-11\\quietedit-20261130T081700Z.warc.gz",
        "2026-11/quietedit-20261130T081700Z.warc.gz\n",
        "2026-11/quietedit-20261130T081700Z.warc",
        "",
    ],
)
def test_hostile_names_are_no_evidence_file_names(name: str, tmp_path: Path) -> None:
    assert not is_evidence_file_name(name)
    with pytest.raises(ValueError, match="not an evidence file name"):
        EvidenceLog(tmp_path, name)
    reference = EvidenceRef(file=name, record="urn:uuid:x", sha256="sha256:" + "0" * 64)
    problems = check_evidence(tmp_path, [("rev.json", reference)])
    assert [p.path for p in problems] == ["rev.json"]
    assert "is not an evidence file name" in problems[0].message


# ---- records -------------------------------------------------------------------------------------


def test_records_read_back_with_warcio_status_headers_body_and_digests(tmp_path: Path) -> None:
    references = write_run(tmp_path, count=2)
    records = read_back(tmp_path / NAME)
    assert [r[0] for r in records] == ["warcinfo", "response", "response", "resource"]
    warcinfo_id = records[0][1]["WARC-Record-ID"]
    assert records[0][1]["WARC-Filename"] == "quietedit-20261130T081700Z.warc.gz"
    assert records[0][1]["WARC-Date"] == "2026-11-30T08:17:00Z"
    assert all(r[1]["WARC-Warcinfo-ID"] == warcinfo_id for r in records[1:])

    kind, warc, status, http, body = records[2]
    assert warc["WARC-Target-URI"] == URL
    assert warc["WARC-Date"] == "2026-11-30T08:18:00.000250Z"
    assert warc["WARC-Record-ID"] == f"<{references[1].record}>"
    assert warc["Quietedit-Document"] == DOC
    assert warc["Content-Type"] == "application/http; msgtype=response"
    assert status == "HTTP/1.1 200 OK"
    assert body == PAGE.replace(b"Monday", b"Monday (1)")
    assert references[1].sha256 == "sha256:" + hashlib.sha256(body).hexdigest()
    assert warc["WARC-Payload-Digest"].startswith("sha256:")
    assert http == [
        ("Date", "Mon, 30 Nov 2026 08:16:59 GMT"),
        ("Content-Type", "text/html; charset=utf-8"),
        ("X-Archive-Orig-Content-Encoding", "gzip"),
        ("X-Archive-Orig-Transfer-Encoding", "chunked"),
        ("ETag", 'W/"5f3a-council"'),
        ("Set-Cookie", "consent=1; Path=/"),
        ("Set-Cookie", "ab=b; Path=/"),
        ("Content-Length", str(len(body))),
    ]

    kind, warc, status, http, body = records[3]
    assert (kind, status, body) == ("resource", None, PAGE)
    assert warc["Content-Type"] == "text/html"


def test_every_record_is_its_own_gzip_member_and_gzip_writes_no_time(tmp_path: Path) -> None:
    write_run(tmp_path)
    data = (tmp_path / NAME).read_bytes()
    assert data[4:8] == b"\0\0\0\0"  # MTIME
    assert gzip.decompress(data).count(b"WARC/1.1\r\n") == 5
    ends = [record.end for record in scan_warc(tmp_path / NAME).records]
    assert ends[-1] == len(data)
    for start, end in zip([0, *ends], ends, strict=False):
        assert data[start : start + 2] == b"\x1f\x8b"
        assert gzip.decompress(data[start:end]).startswith(b"WARC/1.1\r\n")


def test_the_same_run_gives_the_same_bytes(tmp_path: Path) -> None:
    write_run(tmp_path / "one")
    write_run(tmp_path / "two")
    assert (tmp_path / "one" / NAME).read_bytes() == (tmp_path / "two" / NAME).read_bytes()


def test_record_ids_differ_by_document_time_and_payload(tmp_path: Path) -> None:
    references = write_run(tmp_path, count=3)
    assert len({r.record for r in references}) == len(references)
    assert all(r.record.startswith("urn:uuid:") for r in references)


@pytest.mark.parametrize(
    ("status", "line"),
    [(200, "200 OK"), (404, "404 Not Found"), (299, "299 "), (410, "410 Gone")],
)
def test_status_line_reason_comes_from_the_status_or_is_empty(status: int, line: str) -> None:
    assert http_headers(status, [], length=0).statusline == line


def test_no_header_value_can_start_a_line_of_its_own() -> None:
    built = http_headers(200, [("X-Note", "a\r\nSet-Cookie: evil=1")], length=3)
    built.compute_headers_buffer()
    assert b"\r\nSet-Cookie" not in built.headers_buff
    assert built.headers == [("X-Note", "a  Set-Cookie: evil=1"), ("Content-Length", "3")]


def test_a_run_without_records_creates_no_file(tmp_path: Path) -> None:
    with EvidenceLog(tmp_path / "evidence", NAME):
        pass
    assert not (tmp_path / "evidence").exists()


def test_a_second_run_with_the_same_name_appends_without_a_second_warcinfo(
    tmp_path: Path,
) -> None:
    write_run(tmp_path, count=1)
    write_run(tmp_path, count=1)
    kinds = [r[0] for r in read_back(tmp_path / NAME)]
    assert kinds == ["warcinfo", "response", "resource", "response", "resource"]


# ---- repair after a killed writer ----------------------------------------------------------------


def test_a_cut_or_garbage_tail_is_removed_before_the_next_append(tmp_path: Path) -> None:
    write_run(tmp_path / "whole", count=3)
    whole = (tmp_path / "whole" / NAME).read_bytes()
    ends = [record.end for record in scan_warc(tmp_path / "whole" / NAME).records]
    last_start = ends[-2]
    size = len(whole) - last_start
    cuts = sorted({*range(1, size, 17), size - 9, size - 8, size - 4, size - 1})
    tails = [whole[: last_start + cut] for cut in cuts]
    tails += [whole + b"\0" * 4096, whole + b"garbage", whole + whole[last_start : last_start + 30]]
    for n, tail in enumerate(tails):
        folder = tmp_path / f"cut-{n}"
        (folder / NAME).parent.mkdir(parents=True)
        (folder / NAME).write_bytes(tail)
        complete = len(whole) if len(tail) > len(whole) else last_start
        assert scan_warc(folder / NAME).complete == complete
        with EvidenceLog(folder, NAME) as log:
            added = log.append_response(
                document=DOC, url=URL, observed_at=NOW, status=200, headers=(), body=b"after"
            )
        records = read_back(folder / NAME)
        kept = 4 if complete == last_start else 5
        assert len(records) == kept + 1, n
        assert records[-1][1]["WARC-Record-ID"] == f"<{added.record}>"
        assert (folder / NAME).read_bytes()[:complete] == whole[:complete]
        assert scan_warc(folder / NAME).damage is None


def test_a_file_cut_inside_its_warcinfo_starts_again(tmp_path: Path) -> None:
    write_run(tmp_path, count=1)
    path = tmp_path / NAME
    path.write_bytes(path.read_bytes()[:40])
    write_run(tmp_path, count=1)
    assert [r[0] for r in read_back(path)] == ["warcinfo", "response", "resource"]


def test_damage_with_whole_records_after_it_is_refused_not_cut(tmp_path: Path) -> None:
    """Only an interrupted append is repaired: cutting at damage in the middle would
    drop records that revisions may name."""
    write_run(tmp_path, count=3)
    path = tmp_path / NAME
    data = bytearray(path.read_bytes())
    data[scan_warc(path).records[1].end + 40] ^= 0x01
    path.write_bytes(bytes(data))
    with EvidenceLog(tmp_path, NAME) as log, pytest.raises(ArchiveError, match="move the file"):
        log.append_response(
            document=DOC, url=URL, observed_at=NOW, status=200, headers=(), body=b"after"
        )
    assert path.read_bytes() == bytes(data)


# ---- check_evidence ------------------------------------------------------------------------------


def test_sound_evidence_has_no_problems(tmp_path: Path) -> None:
    references = write_run(tmp_path)
    schema_1 = "sha256:" + hashlib.sha256(PAGE).hexdigest()
    items = [(f"rev-{n}.json", r) for n, r in enumerate(references)]
    assert check_evidence(tmp_path, [*items, ("old.json", schema_1)]) == []


def test_missing_file_is_reported_as_missing_with_where_to_get_it(tmp_path: Path) -> None:
    references = write_run(tmp_path / "elsewhere")
    problems = check_evidence(tmp_path, [("rev.json", references[0])])
    assert len(problems) == 1
    assert problems[0].path == "rev.json"
    assert problems[0].message.startswith("missing: evidence file " + NAME)
    assert "evidence-2026-11" in problems[0].message


def test_missing_record_and_schema_1_hash_are_reported(tmp_path: Path) -> None:
    reference = write_run(tmp_path)[0]
    stranger = EvidenceRef(NAME, "urn:uuid:00000000-0000-5000-8000-000000000000", reference.sha256)
    missing_hash = "sha256:" + "a" * 64
    problems = check_evidence(tmp_path, [("a.json", stranger), ("b.json", missing_hash)])
    assert [(p.path, p.message) for p in problems] == [
        ("a.json", f"evidence record {stranger.record} is not in {NAME}"),
        ("b.json", f"missing: no evidence record has payload {missing_hash}"),
    ]


def test_a_changed_payload_is_an_error_naming_file_and_record(tmp_path: Path) -> None:
    """A record rewritten whole, a valid gzip member with its digests recomputed, still
    does not match the hash the revision keeps."""
    reference = write_run(tmp_path, count=1)[0]
    forged = tmp_path / "forged"
    with EvidenceLog(forged, NAME) as log:
        other = log.append_response(
            document=DOC, url=URL, observed_at=NOW, status=200, headers=HEADERS, body=b"forged"
        )
    os.replace(forged / NAME, tmp_path / NAME)
    changed = EvidenceRef(NAME, other.record, reference.sha256)
    problems = check_evidence(tmp_path, [("rev.json", changed)])
    assert len(problems) == 1
    assert problems[0].path == "rev.json"
    assert other.record in problems[0].message and NAME in problems[0].message
    assert "was changed" in problems[0].message


def test_a_tampered_byte_in_the_gzip_data_damages_the_file(tmp_path: Path) -> None:
    references = write_run(tmp_path, count=3)
    path = tmp_path / NAME
    data = bytearray(path.read_bytes())
    ends = [record.end for record in scan_warc(path).records]
    data[ends[1] + 40] ^= 0x01  # inside the second response's gzip member
    path.write_bytes(bytes(data))
    items = [(f"rev-{n}.json", r) for n, r in enumerate(references)]
    problems = check_evidence(tmp_path, items)
    by_path = {p.path: p.message for p in problems}
    assert by_path[str(path)].startswith("damaged WARC file:")
    assert "rev-0.json" not in by_path  # before the damage: still checked, and sound
    assert "is not in" in by_path["rev-1.json"]
    assert "is not in" in by_path["rev-2.json"]


def test_a_changed_http_header_fails_the_block_digest(tmp_path: Path) -> None:
    reference = write_run(tmp_path, count=1)[0]
    path = tmp_path / NAME
    scan = scan_warc(path)
    start, end = scan.records[0].end, scan.records[1].end
    data = path.read_bytes()
    member = gzip.decompress(data[start:end]).replace(b"consent=1", b"consent=0")
    path.write_bytes(data[:start] + gzip.compress(member, mtime=0) + data[end:])
    problems = check_evidence(tmp_path, [("rev.json", reference)])
    assert [p.path for p in problems] == [str(path)]
    assert "block digest failed" in problems[0].message


def test_a_record_cut_off_at_the_end_is_no_problem_unless_named(tmp_path: Path) -> None:
    """A writer killed mid-append leaves part of a record that no revision names."""
    references = write_run(tmp_path, count=3)
    path = tmp_path / NAME
    ends = [record.end for record in scan_warc(path).records]
    path.write_bytes(path.read_bytes()[: ends[-2] + 100])
    items = [(f"rev-{n}.json", r) for n, r in enumerate(references)]
    assert check_evidence(tmp_path, items[:3]) == []
    problems = check_evidence(tmp_path, items)
    assert [p.path for p in problems] == ["rev-3.json"]
    assert f"is not in {NAME} (read up to byte {ends[-2]}: incomplete record" in problems[0].message


def test_a_file_that_is_no_warc_file_holds_no_record(tmp_path: Path) -> None:
    reference = write_run(tmp_path, count=1)[0]
    (tmp_path / NAME).write_bytes(b"not a WARC file at all\n")
    problems = check_evidence(tmp_path, [("rev.json", reference)])
    assert [p.path for p in problems] == ["rev.json"]
    assert "is not in" in problems[0].message and "damaged gzip data" in problems[0].message


@pytest.fixture(scope="module")
def sound_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, list[EvidenceRef]]:
    folder = tmp_path_factory.mktemp("sound")
    references = write_run(folder, count=3)
    return (folder / NAME).read_bytes(), references


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    cut=st.integers(min_value=0, max_value=10_000),
    flips=st.lists(st.tuples(st.integers(min_value=0), st.integers(0, 7)), max_size=3),
    inserted=st.tuples(st.integers(min_value=0), st.binary(max_size=40)),
)
def test_whatever_happened_to_a_file_reading_it_keeps_only_sound_records(
    sound_file: tuple[bytes, list[EvidenceRef]],
    tmp_path: Path,
    cut: int,
    flips: list[tuple[int, int]],
    inserted: tuple[int, bytes],
) -> None:
    """Cut, flipped and inserted bytes: reading never fails, and every record it returns
    is one that was written, whole and unchanged, in its place."""
    good, references = sound_file
    data = bytearray(good[: len(good) - cut % len(good)])
    for position, bit in flips:
        if data:
            data[position % len(data)] ^= 1 << bit
    where, extra = inserted
    data[where % (len(data) + 1) : where % (len(data) + 1)] = extra
    path = tmp_path / "mangled" / NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(data))
    written = [(r.record, r.sha256) for r in references]
    read = [(r.record, r.sha256) for r in scan_warc(path).records[1:]]
    assert read == written[: len(read)]
    check_evidence(tmp_path / "mangled", [("rev.json", r) for r in references])


def test_an_evidence_name_that_is_a_link_or_a_device_is_never_read(tmp_path: Path) -> None:
    month = tmp_path / "2026-11"
    month.mkdir()
    name = "2026-11/quietedit-20261130T081700Z.warc.gz"
    (tmp_path / name).symlink_to("/dev/zero")
    ref = EvidenceRef(
        file=name,
        record="urn:uuid:" + "0" * 8 + "-0000-0000-0000-" + "0" * 12,
        sha256="sha256:" + "0" * 64,
    )
    problems = check_evidence(tmp_path, [("revisions/000001.json", ref)])
    assert any("not a regular file" in p.message for p in problems)


def test_a_rendered_page_is_a_conversion_record_referring_to_its_response(tmp_path: Path) -> None:
    with EvidenceLog(tmp_path, NAME) as log:
        response = log.append_response(
            document=DOC, url=URL, observed_at=NOW, status=200, headers=HEADERS, body=PAGE
        )
        # a static page renders to its own bytes: the records must still differ
        rendered = log.append_rendered(
            document=DOC,
            url=URL,
            observed_at=NOW,
            body=PAGE,
            content_type="text/html; charset=utf-8",
            refers_to=response,
            rendering=[("By", "chromium 140.0"), ("Refused", "robots.txt: " + URL + "/x")],
        )
    assert rendered.record != response.record
    assert rendered.sha256 == response.sha256
    assert check_evidence(tmp_path, [("r1", response), ("r1", rendered)]) == []
    with (tmp_path / NAME).open("rb") as stream:
        records = list(ArchiveIterator(stream))
    conversion = records[-1]
    assert conversion.rec_type == "conversion"
    assert conversion.rec_headers.get_header("WARC-Refers-To") == f"<{response.record}>"
    assert conversion.rec_headers.get_header("Content-Type") == "text/html; charset=utf-8"
    assert conversion.rec_headers.get_header("Quietedit-Rendered-By") == "chromium 140.0"
    assert [record.kind for record in scan_warc(tmp_path / NAME).records] == [
        "warcinfo",
        "response",
        "conversion",
    ]
