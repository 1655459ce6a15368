"""``quietedit demo``: the bundled newsroom's scripted edits, archived and published."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from lxml import etree

from quietedit.archive.evidence import evidence_file_name
from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.archive.warc import scan_warc
from quietedit.article.identity import canonical_url, document_id
from quietedit.cli import cli
from quietedit.decide.shard import WHOLE
from quietedit.demo import MARKER, live
from quietedit.demo.newsroom import HOST, PORT
from quietedit.demo.stories import STORIES, Story, round_time

ATOM = "{http://www.w3.org/2005/Atom}"


def run_demo_command(data: Path, site: Path) -> Result:
    args = ["demo", "--data", str(data), "--out", str(site)]
    return CliRunner().invoke(cli, args, catch_exceptions=False)


def snapshot(data: Path) -> dict[str, bytes]:
    """Every file of the archive but the lock folder, by relative path."""
    return {
        str(path.relative_to(data)): path.read_bytes()
        for path in sorted(data.rglob("*"))
        if path.is_file() and path.relative_to(data).parts[0] != ".tmp"
    }


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("demo")
    result = run_demo_command(root / "data", root / "site")
    assert result.exit_code == 0, result.stderr
    summary = "9 documents, 16 revisions; events: 1 feed-edit, 1 flip-flop, 1 gone, 4 live-update"
    assert summary in result.stdout
    assert f"quietedit serve --out {root / 'site'}" in result.stdout
    assert f"--data {root / 'data'} --evidence {root / 'evidence'}" in result.stdout
    return root


def story(slug: str) -> Story:
    return next(s for s in STORIES if s.slug == slug)


def doc_of(slug: str) -> str:
    return document_id(canonical_url(f"http://{HOST}:{PORT}{story(slug).path}"))


@pytest.fixture(scope="module", autouse=True)
def newsroom_port_was_free(demo_dir: Path) -> None:
    """The document ids above assume the demo's fixed port; say so if it was taken."""
    demo = Archive(demo_dir / "data").read_state(MARKER)
    assert demo is not None
    assert demo["newsroom"] == f"http://{HOST}:{PORT}", f"port {PORT} was taken by another process"


def test_the_demo_archive_verifies_and_is_marked_as_the_demos(demo_dir: Path) -> None:
    report = verify_archive(demo_dir / "data")
    assert report.problems == ()
    assert report.revisions == 16
    archive = Archive(demo_dir / "data")
    assert archive.read_state(MARKER) is not None
    assert len(archive.document_ids()) == len(STORIES) + 1  # and the live blog


def test_each_scripted_edit_leaves_exactly_its_trace(demo_dir: Path) -> None:
    archive = Archive(demo_dir / "data")

    def revisions(slug: str) -> list[str]:
        stored = archive.revisions(doc_of(slug))
        return ["\n".join(b.text for b in r.article.blocks) for r in stored]

    def events(slug: str) -> list[tuple[str, int | None]]:
        return [(e.kind, e.revision) for e in archive.events(doc_of(slug))]

    # a corrected number, silently: two revisions, no event
    budget = revisions("council-approves-budget")
    assert len(budget) == 2
    assert "48.6 million" in budget[0] and "46.8 million" in budget[1]
    assert events("council-approves-budget") == []
    # the headline rewritten on the page and in the feed: a revision and a feed-edit
    tram = archive.revisions(doc_of("tram-extension-delayed"))
    assert [r.article.title for r in tram] == [
        "Tram extension opening pushed back to autumn",
        "Tram extension delayed by six months after wiring fault found on Castle Hill",
    ]
    assert tram[1].observation.observed_at == round_time(2)
    assert events("tram-extension-delayed") == [("feed-edit", 1)]
    # a correction note, with the figure it corrects
    hospital = revisions("emergency-waits-record")
    assert len(hospital) == 2
    assert "Correction: An earlier version of this article" in hospital[1]
    assert "four hours and twelve minutes to be seen" in hospital[1]
    # a removed paragraph and a moved one: one new revision each
    fire = revisions("north-quay-warehouse-fire")
    assert len(fire) == 2 and "teenagers" in fire[0] and "teenagers" not in fire[1]
    meals = revisions("free-school-lunches")
    assert len(meals) == 2 and sorted(meals[0].split("\n")) == sorted(meals[1].split("\n"))
    # furniture-only churn in every round: one revision, no events
    assert len(revisions("marathon-route-changes")) == 1
    assert events("marathon-route-changes") == []
    # A, B, A: two revisions and one flip-flop back to revision 1
    assert len(revisions("swing-bridge-closure")) == 2
    assert events("swing-bridge-closure") == [("flip-flop", 1)]
    # a deleted article: one gone event, though two rounds saw the 404
    assert len(revisions("ferry-operator-sale-talks")) == 1
    gone = archive.events(doc_of("ferry-operator-sale-talks"))
    assert [(e.kind, e.detail) for e in gone] == [("gone", {"status": 404})]


def test_the_site_tells_silent_edits_from_acknowledged_ones(demo_dir: Path) -> None:
    site = demo_dir / "site"
    silent = {}
    for slug in (
        "council-approves-budget",
        "tram-extension-delayed",
        "emergency-waits-record",
        "north-quay-warehouse-fire",
        "free-school-lunches",
        "swing-bridge-closure",
    ):
        api = site / "api" / "documents" / f"{doc_of(slug)}.json"
        (diff,) = json.loads(api.read_text(encoding="utf-8"))["diffs"]
        silent[slug] = diff["classification"]["silent"]
    assert silent == {
        "council-approves-budget": True,
        "tram-extension-delayed": False,  # dateModified bumped
        "emergency-waits-record": False,  # dateModified bumped, correction note
        "north-quay-warehouse-fire": True,
        "free-school-lunches": True,
        "swing-bridge-closure": True,
    }


def test_the_site_has_a_home_page_and_a_feed_of_the_edits(demo_dir: Path) -> None:
    site = demo_dir / "site"
    assert "Marrowby" in (site / "index.html").read_text(encoding="utf-8")
    entries = etree.fromstring((site / "feed.xml").read_bytes()).findall(f"{ATOM}entry")
    # one per edit, the live blog's new posts being live updates; the flip-flop back and
    # the article taken down are events, each an entry of its own
    titles = {entry.findtext(f"{ATOM}title") for entry in entries}
    events = {t.split(":")[0] for t in titles if t and t.startswith(("Flip-flop:", "Taken down:"))}
    assert len(entries) == 7 + 2 and events == {"Flip-flop", "Taken down"}, titles
    assert any(title and "Tram extension delayed" in title for title in titles)


def test_every_revision_has_its_raw_page_in_the_evidence_beside_the_archive(
    demo_dir: Path,
) -> None:
    evidence = demo_dir / "evidence"
    assert [p.relative_to(evidence).as_posix() for p in sorted(evidence.rglob("*.warc.gz"))] == [
        evidence_file_name(round_time(n), shard=WHOLE)
        for n in (1, 2, 3, 4)  # round 4: no edit, but the live blog's new post
    ]
    args = ["verify", "--data", str(demo_dir / "data"), "--evidence", str(evidence)]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.stdout


def evidence_records(folder: Path) -> list[tuple[str, str, str]]:
    """Every WARC record's file, id and payload hash, sorted."""
    return sorted(
        (path.name, record.record, record.sha256)
        for path in folder.rglob("*.warc.gz")
        for record in scan_warc(path).records
    )


def test_a_rerun_starts_afresh_and_gives_byte_identical_archives(
    demo_dir: Path, tmp_path: Path
) -> None:
    first = snapshot(demo_dir / "data")
    records = evidence_records(demo_dir / "evidence")
    result = run_demo_command(demo_dir / "data", tmp_path / "site")
    assert result.exit_code == 0, result.stderr
    assert snapshot(demo_dir / "data") == first
    assert evidence_records(demo_dir / "evidence") == records  # the same, none twice


def test_a_folder_that_is_not_a_demo_archive_is_refused_and_left_alone(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "documents").mkdir(parents=True)
    precious = data / "documents" / "notes.txt"
    precious.write_text("mine", encoding="utf-8")
    result = CliRunner().invoke(cli, ["demo", "--data", str(data), "--out", str(tmp_path / "s")])
    assert result.exit_code == 1
    assert "not a quietedit demo archive" in result.stderr
    assert "pass --data with an empty or new folder" in result.stderr
    assert precious.read_text(encoding="utf-8") == "mine"
    assert not (tmp_path / "s").exists()


def test_the_front_page_shows_the_retitle_and_the_ab_test(demo_dir: Path) -> None:
    found = json.loads(
        (demo_dir / "site" / "api" / "homepages" / "gazette-front.json").read_text("utf-8")
    )
    headlines = {
        link["url"].rsplit("/", 1)[1]: [h["text"] for h in link["headlines"]]
        for link in found["links"]
    }
    assert headlines["tram-extension-delayed"] == [
        "Tram extension opening pushed back to autumn",
        "Tram extension delayed by six months after wiring fault found on Castle Hill",
    ]
    assert headlines["marathon-route-changes"] == [
        "Marathon route to avoid seafront for the first time",
        "Seafront off the marathon route as sea wall is rebuilt",
    ]
    assert len(headlines) == len(STORIES)  # the front links every story, each once
    page = (demo_dir / "site" / "homepages" / "gazette-front" / "index.html").read_text("utf-8")
    assert "Seafront off the marathon route" in page


def test_the_live_blog_has_one_edit_among_its_live_updates(demo_dir: Path) -> None:
    doc = document_id(canonical_url(f"http://{HOST}:{PORT}{live.PATH}"))
    found = json.loads((demo_dir / "site" / "api" / "documents" / f"{doc}.json").read_text("utf-8"))
    (diff,) = found["diffs"]
    assert [b["op"] for b in diff["diff"]["blocks"]] == ["changed"]
    assert diff["classification"]["kinds"] == ["facts"]
    counts = [e["detail"]["count"] for e in found["events"] if e["kind"] == "live-update"]
    assert counts == [0, 2, 1, 1]  # revision 1's posts; round 2; round 3 (with the edit); round 4
    feed = (demo_dir / "site" / "articles" / doc / "live.xml").read_text("utf-8")
    assert feed.count("<entry>") == 3
