"""End to end: a feed with ``render: chromium`` whose article pages write their text from a
script, ingested over two rounds on loopback; the evidence is the response and the DOM."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from warcio.archiveiterator import ArchiveIterator

from quietedit.archive.evidence import check_evidence
from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.article.identity import canonical_url, document_id
from quietedit.config import load_config
from quietedit.fetch.render import find_browser
from quietedit.ingest.run import run_ingest
from quietedit.revisions import EvidenceRef

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(find_browser() is None, reason="no Chromium (apt-get install chromium)"),
]
pytest.importorskip("playwright.async_api", reason="needs playwright: pip install -e '.[render]'")

T0 = datetime(2026, 11, 30, 6, 0, tzinfo=UTC)
SHELL = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The Harbour Times</title>'
    '<script src="/static/story.js" defer></script></head><body>'
    "<header><nav><a href='/'>Home</a> <a href='/news/'>News</a></nav></header>"
    '<main><article id="story"><p>Loading…</p></article></main>'
    "<footer>© The Harbour Times</footer></body></html>"
)
SCRIPT = """
fetch('/api/story/harbour.json').then(r => r.json()).then(story => {
  const article = document.getElementById('story');
  article.innerHTML = '';
  const h1 = document.createElement('h1');
  h1.textContent = story.headline;
  article.appendChild(h1);
  for (const text of story.paragraphs) {
    const p = document.createElement('p');
    p.textContent = text;
    article.appendChild(p);
  }
});
"""
PARAGRAPHS = [
    "The port authority approved a {months}-month dredging programme for the inner harbour "
    "on Tuesday, after two years of surveys and a public consultation.",
    "Fishing crews said the work would close the inner basin for six weeks in the spring, "
    "and asked for berths in the outer harbour to be opened to them in the meantime.",
    "The authority said the dredged sand would be used to rebuild the beach north of the "
    "breakwater, which lost much of its width in last winter's storms.",
]


def story(months: int) -> str:
    paragraphs = [PARAGRAPHS[0].format(months=months), *PARAGRAPHS[1:]]
    return json.dumps({"headline": "Harbour dredging to start in spring", "paragraphs": paragraphs})


def serve(server: HTTPServer, *, months: int) -> None:
    server.clear()
    base = server.url_for("").rstrip("/")
    feed = (
        '<?xml version="1.0"?><rss version="2.0"><channel><title>The Harbour Times</title>'
        f"<link>{base}/</link><item><title>Harbour dredging to start in spring</title>"
        f"<link>{base}/news/harbour</link><guid>harbour</guid>"
        "<pubDate>Mon, 30 Nov 2026 05:00:00 GMT</pubDate></item></channel></rss>"
    )
    server.expect_request("/feed.xml").respond_with_data(feed, content_type="application/rss+xml")
    server.expect_request("/robots.txt").respond_with_data(
        "User-agent: *\nDisallow: /private/\n", content_type="text/plain"
    )
    # the shell never changes and says so: only rendering sees the new figure
    server.expect_request("/news/harbour").respond_with_data(
        SHELL, content_type="text/html", headers={"ETag": '"shell-1"'}
    )
    server.expect_request("/static/story.js").respond_with_data(
        SCRIPT, content_type="text/javascript"
    )
    server.expect_request("/api/story/harbour.json").respond_with_data(
        story(months), content_type="application/json"
    )


def config(tmp_path: Path, server: HTTPServer, render: str) -> Path:
    path = tmp_path / "feeds.yaml"
    path.write_text(
        "feeds:\n"
        f"  - url: {server.url_for('/feed.xml')}\n"
        "    name: The Harbour Times\n"
        f"    {render}\n"
        "settings:\n"
        "  allow_private_addresses: true\n"
        "  politeness:\n"
        "    min_host_interval: 0s\n"
        "  fetch:\n"
        "    retries: 0\n"
        "  paths:\n"
        f"    evidence: {tmp_path / 'evidence'}\n",
        encoding="utf-8",
    )
    return path


def test_a_rendered_feed_archives_the_text_its_script_writes_round_after_round(
    httpserver: HTTPServer, tmp_path: Path
) -> None:
    settings = load_config(config(tmp_path, httpserver, "render: chromium"), environ={})
    archive = Archive(tmp_path / "data")
    doc = document_id(canonical_url(httpserver.url_for("/news/harbour")))
    for round_, months in ((0, 14), (1, 16)):
        serve(httpserver, months=months)
        report = run_ingest(settings, archive, now=T0 + timedelta(hours=round_), simulated=True)
        assert report.errors == [], report.errors
        assert verify_archive(archive.root).problems == ()

    revisions = archive.revisions(doc)
    assert [r.number for r in revisions] == [1, 2]
    texts = [" ".join(block.text for block in r.article.blocks) for r in revisions]
    assert "14-month dredging programme" in texts[0]
    assert "16-month dredging programme" in texts[1]
    assert all("Loading" not in text and "fishing crews" in text.lower() for text in texts)
    http = revisions[1].observation.http
    assert http is not None and str(http["rendered_by"]).startswith("chromium ")

    # the evidence: the server's response, then the rendered DOM referring to it
    ref = revisions[1].observation.evidence
    assert isinstance(ref, EvidenceRef)
    assert check_evidence(tmp_path / "evidence", [("r2", ref)]) == []
    with (tmp_path / "evidence" / ref.file).open("rb") as stream:
        records = [
            (r.rec_type, r.rec_headers, r.content_stream().read()) for r in ArchiveIterator(stream)
        ]
    response = next(r for r in records if r[0] == "response")
    conversion = next(r for r in records if r[0] == "conversion")
    assert response[2] == SHELL.encode()
    assert conversion[1].get_header("WARC-Record-ID") == f"<{ref.record}>"
    assert conversion[1].get_header("WARC-Refers-To") == response[1].get_header("WARC-Record-ID")
    assert conversion[1].get_header("Quietedit-Rendered-By").startswith("chromium ")
    assert b"16-month dredging programme" in conversion[2]
    assert b"16-month" not in response[2]


def test_without_render_the_same_feed_keeps_the_pages_as_served(
    httpserver: HTTPServer, tmp_path: Path
) -> None:
    settings = load_config(config(tmp_path, httpserver, "enabled: true"), environ={})
    archive = Archive(tmp_path / "data")
    serve(httpserver, months=14)
    run_ingest(settings, archive, now=T0, simulated=True)
    asked = {request.path for request, _ in httpserver.log}
    assert "/news/harbour" in asked
    assert not {"/static/story.js", "/api/story/harbour.json"} & asked
    doc = document_id(canonical_url(httpserver.url_for("/news/harbour")))
    assert all(
        "dredging programme" not in block.text
        for revision in archive.revisions(doc)
        for block in revision.article.blocks
    )
