"""A live blog over many rounds: how it is recorded, and what it costs.

Usage: .venv/bin/python bench/liveblog.py [--rounds 50] [--shown 20] [--keep]

A newsroom on loopback serves a feed listing one live blog (tests/liveblog_site.py: posts
newest first, a key-points box, JSON-LD LiveBlogPosting, only the newest ``--shown`` posts
on the page). Each round publishes one post; in round 20 an earlier post is corrected, in
round 35 one is deleted, in round 40 the key points are rewritten. One ingest per round
(15 simulated minutes apart), then one site build. It prints what the archive and the site
hold (revisions, live-update events and posts, edits) and the bytes stored, beside what
one revision per round would have stored.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from quietedit.archive.records import dump_json  # noqa: E402
from quietedit.archive.store import Archive  # noqa: E402
from quietedit.article.identity import canonical_url, document_id  # noqa: E402
from quietedit.config import parse_config  # noqa: E402
from quietedit.decide.reading import read_page  # noqa: E402
from quietedit.ingest.run import run_ingest  # noqa: E402
from quietedit.model import format_timestamp  # noqa: E402
from quietedit.publish import BuildOptions, build_site  # noqa: E402
from tests.liveblog_site import PATH, START, LiveBlog  # noqa: E402

ROUND = timedelta(minutes=15)


class Desk:
    """What the newsroom serves this round."""

    def __init__(self, blog: LiveBlog) -> None:
        self.blog = blog
        self.now = START
        self.base = ""

    def respond(self, path: str) -> tuple[int, str, bytes]:
        if path == "/robots.txt":
            return 200, "text/plain", b"User-agent: *\nDisallow: /account/\n"
        if path == "/feed.xml":
            link = f"{self.base}{PATH}"
            body = (
                '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel>'
                "<title>Northern Chronicle</title><link>/</link><description>News</description>"
                f"<item><title>Storm Ida live</title><link>{link}</link><guid>{link}</guid>"
                "</item></channel></rss>"
            )
            return 200, "application/rss+xml", body.encode()
        if path == PATH:
            return 200, "text/html; charset=utf-8", self.blog.page(self.now).encode()
        return 404, "text/plain", b"not found"


@contextmanager
def serve(desk: Desk) -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            status, kind, body = desk.respond(self.path)
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--shown", type=int, default=20)
    parser.add_argument("--keep", action="store_true", help="keep the archive and the site")
    args = parser.parse_args()
    desk = Desk(LiveBlog(shown=args.shown))
    desk.blog.add(1)
    work = Path(tempfile.mkdtemp(prefix="quietedit-liveblog-"))
    one_revision_per_round = 0
    with serve(desk) as base:
        desk.base = base
        config = parse_config(
            {
                "feeds": [{"url": f"{base}/feed.xml", "name": "Northern Chronicle"}],
                "settings": {
                    "allow_private_addresses": True,
                    "politeness": {"min_host_interval": "0s"},
                    "paths": {"evidence": str(work / "evidence")},
                },
            },
            environ={},
            source="bench",
            base_dir=work,
        )
        archive = Archive(work / "data")
        started = time.perf_counter()
        for number in range(1, args.rounds + 1):
            desk.now = START + ROUND * number
            if number > 1:
                desk.blog.add(number)
            if number == 20:
                post = desk.blog.posts[5]
                post.paragraphs[0] = re.sub(r"\d+", "1,200", post.paragraphs[0], count=1)
            if number == 35:
                del desk.blog.posts[3]
            if number == 40:
                desk.blog.key_points[0] = "The high-level bridge has reopened to traffic"
            run_ingest(config, archive, now=desk.now, simulated=True)
            # what a revision of this round's page would weigh
            reading = read_page(
                desk.blog.page(desk.now).encode(), url=base + PATH, content_type=None
            )
            one_revision_per_round += len(
                dump_json(
                    {
                        "title": reading.article.title,
                        "blocks": [
                            {"kind": b.kind, "text": b.text} for b in reading.article.blocks
                        ],
                    }
                )
            )
        ingest_seconds = time.perf_counter() - started
        doc = document_id(canonical_url(base + PATH))
    revisions = archive.revisions(doc)
    events = [e for e in archive.events(doc) if e.kind == "live-update"]
    updates = [e for e in events if e.detail.get("count")]
    posts = sum(c for e in updates if isinstance(c := e.detail.get("count"), int))
    site = work / "site"
    started = time.perf_counter()
    build_site(BuildOptions(data=work / "data", out=site, search=False))
    build_seconds = time.perf_counter() - started
    feed = (site / "feed.xml").read_text(encoding="utf-8")
    live_feed = (site / "articles" / doc / "live.xml").read_text(encoding="utf-8")
    stored = folder_bytes(archive.root / "documents")
    print(f"rounds: {args.rounds}, posts on the page: at most {args.shown}")
    print(f"revisions stored: {len(revisions)} (first seen, and each edit)")
    for revision in revisions[1:]:
        print(f"  revision {revision.number}: {format_timestamp(revision.observation.observed_at)}")
    print(f"live-update events: {len(updates)} (one per run that found new posts), posts: {posts}")
    print(
        f"edits on the site: {feed.count('<entry>')} in feed.xml; live updates in live.xml: "
        f"{live_feed.count('<entry>')}"
    )
    print(
        f"archive bytes for the document: {stored:,}; one revision per round would be "
        f"{one_revision_per_round:,} bytes of revision text alone"
    )
    print(f"ingest: {ingest_seconds:.1f} s for {args.rounds} runs; build: {build_seconds:.1f} s")
    if args.keep:
        print(f"archive and site kept in {work}")
    else:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
