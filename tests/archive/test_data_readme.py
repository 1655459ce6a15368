"""data/README.md stays true: its layout and its example records are checked against the code."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path, PurePosixPath

from quietedit.archive.derived import (
    derived_link_problems,
    derived_problems,
    derived_to_record,
    new_derived,
)
from quietedit.archive.eventrecords import check_event_record
from quietedit.archive.files import create_file
from quietedit.archive.layout import INDEX_CHUNK_ENTRIES, PathKind, classify_path
from quietedit.archive.records import (
    check_revision_record,
    check_state_record,
    dump_json,
)
from quietedit.archive.store import Archive
from quietedit.model import JSON, Article
from quietedit.revisions import EvidenceRef
from tests.conftest import T0, seed_story

EVIDENCE = EvidenceRef(
    file="2026-11/quietedit-20261130T060000Z.warc.gz",
    record="urn:uuid:00000000-0000-5000-8000-000000000001",
    sha256="sha256:" + "0" * 64,
)
README = Path(__file__).resolve().parents[2] / "data" / "README.md"


def section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else None]


def fenced_blocks(text: str, language: str = "") -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.DOTALL)


def documented_patterns() -> list[str]:
    layout = fenced_blocks(section("Layout"))[0]
    return [line.split()[0] for line in layout.splitlines() if line.strip()]


def pattern_regex(pattern: str) -> re.Pattern[str]:
    parts = re.split(r"(<[^>]+>)", pattern)
    body = "".join("[^/]+" if p.startswith("<") else re.escape(p) for p in parts)
    return re.compile(body + (".*" if pattern.endswith("/") else ""))


def test_every_file_the_archive_writes_has_a_documented_place(tmp_path: Path) -> None:
    archive = Archive(tmp_path / "data")
    doc = seed_story(archive)
    archive.append_event(doc, "gone", observed_at=T0, revision=3, detail={"status": 410})
    record = archive.read_document(doc) or {}
    archive.write_document(doc, {**record, "schedule": {"last_checked_at": "2026-11-30T07:00:00Z"}})
    revision = archive.revisions(doc)[-1]
    derived = new_derived(
        replace(revision, observation=replace(revision.observation, evidence=EVIDENCE)),
        Article("Re-read"),
        number=1,
        extractor="quietedit-extract/2",
    )
    target = archive.layout.derived_file(doc, archive.partition(doc) or "", 1)
    create_file(archive.layout.tmp_dir, target, dump_json(derived_to_record(derived)))
    archive.write_feed("city-desk", {})
    archive.write_departed("city-desk", "2026/11/30", {"entries": {}})
    archive.write_state("ledger", {})
    (archive.root / "README.md").write_text("x")
    for n in range(INDEX_CHUNK_ENTRIES + 1):  # a shard's open file full: sealed
        seen: dict[str, JSON] = {"discovered_at": "2026-11-30T06:00:00Z"}
        archive.index.place(f"news-example-org-fff{n:013x}", seen, writer="")
    archive.layout.tmp_dir.mkdir(exist_ok=True)
    (archive.layout.tmp_dir / "000004.json.abc").write_text("")
    written = [
        PurePosixPath(p.relative_to(archive.root).as_posix())
        for p in archive.root.rglob("*")
        if p.is_file()
    ]
    regexes = {pattern: pattern_regex(pattern) for pattern in documented_patterns()}
    for path in written:
        assert any(r.fullmatch(str(path)) for r in regexes.values()), f"{path} undocumented"
    for pattern, regex in regexes.items():
        assert any(regex.fullmatch(str(path)) for path in written), f"{pattern} unused"


def test_the_documented_layout_names_every_kind_of_file_the_code_knows() -> None:
    kinds = set()
    for pattern in documented_patterns():
        example = re.sub(r"<NNNNNN>", "000001", pattern)
        example = re.sub(r"<sha256>", "a" * 64, example).replace("<hh>", "aa")
        example = example.replace("<YYYY>/<MM>/<DD>", "2026/11/30")
        example = re.sub(r"<[^>]+>", "x", example) + ("x" if pattern.endswith("/") else "")
        placed = classify_path(PurePosixPath(example))
        assert placed is not None, pattern
        kinds.add(placed[0])
    # schema-1 evidence pages are only ever read (by quietedit migrate), never written
    assert kinds == set(PathKind) - {PathKind.EVIDENCE}


def test_the_example_revision_is_a_valid_record() -> None:
    record = json.loads(fenced_blocks(section("Revision files"), "json")[0])
    assert check_revision_record(record) == []
    assert record["number"] == 2


def test_the_example_document_record_is_valid() -> None:
    record = json.loads(fenced_blocks(section("Documents, feeds and state"), "json")[0])
    assert check_state_record(record, kind="document") == []


def test_every_revision_field_is_described() -> None:
    table = section("Revision files")
    record = json.loads(fenced_blocks(table, "json")[0])
    for field in record:
        assert f"| `{field}` |" in table, field


def test_the_example_derived_record_is_valid_and_names_the_example_revision() -> None:
    record = json.loads(fenced_blocks(section("Derived records"), "json")[0])
    revision = json.loads(fenced_blocks(section("Revision files"), "json")[0])
    assert derived_problems(record, document=revision["document"], number=1) == []
    assert derived_link_problems(record, revision) == []
    table = section("Derived records")
    for field in record:
        assert f"`{field}`" in table, field


def test_the_example_event_is_a_valid_record() -> None:
    record = json.loads(fenced_blocks(section("Event files"), "json")[0])
    assert check_event_record(record) == []
