"""``quietedit capture`` against a loopback stand-in of Save Page Now 2: a copy asked for
each new revision, its job polled on the next run, the copy recorded as an event and
linked from the edit's page; failures back off and never fail the run."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from quietedit.archive.store import Archive
from quietedit.capture.state import CaptureState
from quietedit.cli import cli
from quietedit.publish import BuildOptions, build_site
from tests.conftest import STORY, STORY_URL, T0, observation, seed_story

ACCESS, SECRET = "ia-access-3c1f", "ia-secret-9e72d0"


class FakeSavePageNow:
    """``POST /save`` and ``GET /save/status/<job>``, as the Internet Archive answers them."""

    def __init__(self, server: HTTPServer) -> None:
        self.url = server.url_for("/").rstrip("/")
        self.jobs: dict[str, dict[str, str]] = {}
        self.requests: list[tuple[str, str, str]] = []  # method, path, url asked
        self.answer_save: list[tuple[int, dict[str, str], dict[str, str]]] = []
        self.finish = "success"  # what a job is when polled: success, error or pending
        server.expect_request("/save", method="POST").respond_with_handler(self._save)
        server.expect_request(
            re.compile(r"^/save/status/[\w-]+$"), method="GET"
        ).respond_with_handler(self._status)

    def _authorised(self, request: Request) -> bool:
        ok = request.headers.get("Authorization") == f"LOW {ACCESS}:{SECRET}"
        return ok and request.headers.get("Accept") == "application/json"

    def _save(self, request: Request) -> Response:
        url = request.form.get("url", "")
        self.requests.append(("POST", request.path, url))
        if not self._authorised(request):
            return _json({"status": "error", "message": "You need to be logged in"}, 401)
        if self.answer_save:
            status, body, headers = self.answer_save.pop(0)
            return _json(body, status, headers)
        job = f"spn2-{len(self.jobs):040x}"
        self.jobs[job] = {"url": url}
        return _json({"url": url, "job_id": job})

    def _status(self, request: Request) -> Response:
        job = request.path.rsplit("/", 1)[-1]
        self.requests.append(("GET", request.path, ""))
        if not self._authorised(request) or job not in self.jobs:
            return _json({"status": "error", "message": "not found"}, 404)
        if self.finish == "success":
            return _json({"status": "success", "job_id": job, "timestamp": "20261130071502",
                          "original_url": self.jobs[job]["url"], "duration_sec": 6.2})  # fmt: skip
        if self.finish == "error":
            return _json({"status": "error", "status_ext": "error:service-unavailable",
                          "message": "Your capture did not succeed."})  # fmt: skip
        return _json({"status": "pending", "job_id": job})


def _json(body: object, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(json.dumps(body), status=status, headers=headers or {},
                    content_type="application/json")  # fmt: skip


@pytest.fixture
def spn(httpserver: HTTPServer) -> FakeSavePageNow:
    return FakeSavePageNow(httpserver)


def run(
    tmp_path: Path, spn: FakeSavePageNow, at: str, *, keys: bool = True
) -> tuple[int, str, str]:
    config = tmp_path / "feeds.yaml"
    config.write_text(
        f"settings:\n  archive_org:\n    enabled: true\n    base_url: {spn.url}\n"
        "    backoff: 10m\n    max_captures: 5\n",
        encoding="utf-8",
    )
    env = {"QUIETEDIT_ARCHIVE_ORG_ACCESS_KEY": ACCESS, "QUIETEDIT_ARCHIVE_ORG_SECRET_KEY": SECRET}
    result = CliRunner().invoke(
        cli,
        ["capture", "--config", str(config), "--data", str(tmp_path / "data"), "--now", at],
        env=env if keys else {},
    )
    return result.exit_code, result.stdout, result.stderr


def edit_story(archive: Archive, doc: str, hours: int) -> None:
    lede = STORY[0].replace("4.2", f"5.{hours}")
    archive.append_revision(doc, observation(lede, *STORY[1:], at=T0 + timedelta(hours=hours)))


def test_a_new_revision_is_asked_for_polled_next_run_recorded_and_linked(
    tmp_path: Path, spn: FakeSavePageNow
) -> None:
    archive = Archive(tmp_path / "data")
    doc = seed_story(archive, revisions=2)  # observed 06:00 and 07:00
    assert run(tmp_path, spn, "2026-11-30T07:30:00Z")[0] == 0  # the first run: a start point
    assert spn.requests == []

    edit_story(archive, doc, 2)  # revision 3, 08:00
    code, _, err = run(tmp_path, spn, "2026-11-30T08:10:00Z")
    assert code == 0 and "1 asked for, 1 pending" in err
    assert spn.requests == [("POST", "/save", STORY_URL)]
    assert archive.events(doc) == []  # nothing waited for

    code, out, _ = run(tmp_path, spn, "2026-11-30T09:10:00Z")
    copy = f"{spn.url}/web/20261130071502/{STORY_URL}"
    assert code == 0 and out.strip() == copy
    (event,) = archive.events(doc)
    assert (event.kind, event.revision, event.detail["snapshot"]) == ("archived", 3, copy)
    # nothing asked twice, nothing polled twice
    code, _, _ = run(tmp_path, spn, "2026-11-30T10:10:00Z")
    assert [r[0] for r in spn.requests] == ["POST", "GET"]

    out_dir = tmp_path / "site"
    build_site(BuildOptions(data=tmp_path / "data", out=out_dir, search=False))
    page = (out_dir / f"articles/{doc}/index.html").read_text(encoding="utf-8")
    # beside the edit to revision 3, in the heading of its place in the timeline
    heading = page.split('<li id="r3">', 1)[1].split("</h3>", 1)[0]
    assert f'<a href="{copy}" rel="nofollow noopener">web archive copy</a>' in heading
    article = (out_dir / f"articles/{doc}/index.html").read_text(encoding="utf-8")
    assert "The Internet Archive made a public copy of revision 3." in article


def test_a_refused_request_backs_off_and_the_revision_waits(
    tmp_path: Path, spn: FakeSavePageNow
) -> None:
    archive = Archive(tmp_path / "data")
    doc = seed_story(archive, revisions=1)
    run(tmp_path, spn, "2026-11-30T06:30:00Z")
    edit_story(archive, doc, 1)
    edit_story(archive, doc, 2)
    spn.answer_save.append((429, {"status": "error", "message": f"slow down {SECRET}"},
                            {"Retry-After": "600"}))  # fmt: skip

    code, _, err = run(tmp_path, spn, "2026-11-30T08:10:00Z")
    assert code == 0  # never fails the run
    assert "HTTP 429, Retry-After 600: slow down ***" in err and SECRET not in err
    assert "0 asked for, 0 pending, 2 waiting" in err
    # within the backoff: no request at all
    run(tmp_path, spn, "2026-11-30T08:15:00Z")
    assert len(spn.requests) == 1
    # after it: both asked, oldest first
    code, _, err = run(tmp_path, spn, "2026-11-30T08:25:00Z")
    assert "2 asked for, 2 pending, 0 waiting" in err
    state = CaptureState.from_record(archive.read_state("captures"))
    assert state.failures == 0 and state.retry_at is None
    assert [(p.revision, bool(p.job)) for p in state.pending] == [(2, True), (3, True)]


def test_a_retry_after_longer_than_the_backoff_is_honoured(
    tmp_path: Path, spn: FakeSavePageNow
) -> None:
    archive = Archive(tmp_path / "data")
    doc = seed_story(archive, revisions=1)
    run(tmp_path, spn, "2026-11-30T06:30:00Z")
    edit_story(archive, doc, 1)
    spn.answer_save.append((429, {"status": "error", "message": "too many captures"},
                            {"Retry-After": "3600"}))  # fmt: skip

    run(tmp_path, spn, "2026-11-30T08:10:00Z")
    state = CaptureState.from_record(archive.read_state("captures"))
    assert state.retry_at == "2026-11-30T09:10:00Z"  # the hour asked, not the 10m backoff
    run(tmp_path, spn, "2026-11-30T08:40:00Z")  # past the backoff, within the hour
    assert len(spn.requests) == 1
    code, _, err = run(tmp_path, spn, "2026-11-30T09:11:00Z")
    assert code == 0 and "1 asked for, 1 pending, 0 waiting" in err
    assert len(spn.requests) == 2


def test_a_failed_capture_is_asked_again_once_then_given_up(
    tmp_path: Path, spn: FakeSavePageNow
) -> None:
    archive = Archive(tmp_path / "data")
    doc = seed_story(archive, revisions=1)
    run(tmp_path, spn, "2026-11-30T06:30:00Z")
    edit_story(archive, doc, 1)
    spn.finish = "error"
    run(tmp_path, spn, "2026-11-30T07:10:00Z")  # asked
    run(tmp_path, spn, "2026-11-30T08:10:00Z")  # failed: asked again
    code, _, err = run(tmp_path, spn, "2026-11-30T09:10:00Z")  # failed again: given up
    assert code == 0
    assert "revision 2: no copy made (error:service-unavailable" in err
    assert [r[0] for r in spn.requests] == ["POST", "GET", "POST", "GET"]
    assert archive.events(doc) == []


def test_without_keys_or_when_disabled_nothing_is_asked(
    tmp_path: Path, spn: FakeSavePageNow
) -> None:
    seed_story(Archive(tmp_path / "data"), revisions=1)
    code, _, err = run(tmp_path, spn, "2026-11-30T06:30:00Z", keys=False)
    assert code == 0 and "QUIETEDIT_ARCHIVE_ORG_ACCESS_KEY is not set" in err
    result = CliRunner().invoke(cli, ["capture", "--data", str(tmp_path / "data")], env={})
    assert result.exit_code == 0 and "enabled is false" in result.stderr
    assert spn.requests == []


def test_a_copy_that_cannot_be_recorded_is_reported_and_the_run_succeeds(
    tmp_path: Path, spn: FakeSavePageNow, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the document left the index, or its folder cannot be fetched into a sparse checkout:
    # the run's own revisions must still be verified and committed after this step
    from quietedit.errors import ArchiveError

    archive = Archive(tmp_path / "data")
    doc = seed_story(archive, revisions=2)
    run(tmp_path, spn, "2026-11-30T07:30:00Z")
    edit_story(archive, doc, 2)
    run(tmp_path, spn, "2026-11-30T08:10:00Z")

    def refuse(self: Archive, document: str, *args: object, **kwargs: object) -> None:
        raise ArchiveError(tmp_path / "data", f"{document} is not in the index")

    monkeypatch.setattr(Archive, "append_event", refuse)
    code, out, err = run(tmp_path, spn, "2026-11-30T09:10:00Z")
    assert code == 0 and out.strip() == ""
    assert f"{doc} revision 3: copy " in err and "not recorded" in err and "not in the index" in err
    monkeypatch.undo()
    assert archive.events(doc) == []
    run(tmp_path, spn, "2026-11-30T10:10:00Z")  # dropped, not polled for ever
    assert [r[0] for r in spn.requests] == ["POST", "GET"]
