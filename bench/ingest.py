"""One ingest run at scale: 2,000 articles over 20 loopback hosts with 50 ms latency.

A child process serves 20 newsrooms (127.0.0.2 ... 127.0.0.21), each with an RSS feed of
100 articles, robots.txt and the article pages (realistic markup around ~600 words), every
response after 50 ms. The parent runs ``run_ingest`` into a fresh archive with the
politeness the bench needs to be bound by latency alone (no spacing, two requests in flight
per host, all hosts at once) and prints:

- wall time against the politeness-bound ideal (the busiest host's requests x latency / 2);
  target at most 1.3 x;
- CPU milliseconds per article in the ingesting process (fetch client, extraction, hashing,
  archive writes; the servers are another process, and waiting costs no CPU); target 10 ms;
- peak memory of the ingesting process; target 250 MB.

Loopback only; the server process exits by itself.

    .venv/bin/python bench/ingest.py [--hosts 20] [--articles 100] [--latency 0.05]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from quietedit.archive.store import Archive
from quietedit.config import FeedConfig, PolitenessSettings, parse_config
from quietedit.ingest.run import run_ingest

SERVER_LIFETIME = 300.0
SENTENCE = (
    "the council said on Monday that the budget for school repairs and bus lines would "
    "grow by four percent next year after a long debate in the chamber"
)
WORDS = SENTENCE.split(" ")


def article(host: int, n: int) -> bytes:
    paragraphs = "".join(
        "<p>"
        + " ".join(WORDS[(i + j + n) % len(WORDS)] for j in range(22)).capitalize()
        + f" ({host}-{n}-{i}).</p>"
        for i in range(28)
    )
    related = "".join(f"<li><a href='/a/{k}'>Related story {k}</a></li>" for k in range(12))
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>Story {n} | Newsroom {host}</title></head><body><header><nav>"
        "<a href='/'>Home</a><a href='/news'>News</a></nav></header><main><article>"
        f"<h1>Story {n} of newsroom {host}</h1><p class='byline'>By A. Reporter</p>"
        f"{paragraphs}</article><aside><ul>{related}</ul></aside></main>"
        "<footer>© Newsroom</footer></body></html>"
    ).encode()


async def serve(hosts: int, articles: int, latency: float) -> None:
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        host = int(writer.get_extra_info("sockname")[0].rsplit(".", 1)[1]) - 2
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                path = head.split(b" ", 2)[1].decode()
                await asyncio.sleep(latency)
                kind = "text/html; charset=utf-8"
                if path == "/robots.txt":
                    body, kind = b"User-agent: *\nAllow: /\n", "text/plain"
                elif path == "/feed.xml":
                    name = writer.get_extra_info("sockname")
                    base = f"http://{name[0]}:{name[1]}"
                    items = "".join(
                        f"<item><title>Story {n}</title><link>{base}/a/{n}</link>"
                        f"<guid>{base}/a/{n}</guid>"
                        "<pubDate>Mon, 30 Nov 2026 05:00:00 GMT</pubDate></item>"
                        for n in range(articles)
                    )
                    body = (
                        f"<?xml version='1.0'?><rss version='2.0'><channel><title>N{host}"
                        f"</title><link>{base}/</link>{items}</channel></rss>"
                    ).encode()
                    kind = "application/rss+xml"
                else:
                    body = article(host, int(path.rsplit("/", 1)[1]))
                writer.write(
                    f"HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}"
                    "\r\n\r\n".encode()
                    + body
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, ValueError):
            pass
        finally:
            writer.close()

    servers = [
        await asyncio.start_server(handle, f"127.0.0.{2 + n}", 0, backlog=256) for n in range(hosts)
    ]
    print(json.dumps([s.sockets[0].getsockname()[1] for s in servers]), flush=True)
    await asyncio.sleep(SERVER_LIFETIME)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hosts", type=int, default=20)
    parser.add_argument("--articles", type=int, default=100)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.hosts, args.articles, args.latency))
        return
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", "--hosts", str(args.hosts),
         "--articles", str(args.articles), "--latency", str(args.latency)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        if server.stdout is None:
            raise RuntimeError("the server process has no stdout")
        ports = json.loads(server.stdout.readline())
        base = parse_config(None, environ={}, source="bench", base_dir=Path()).settings
        total = args.hosts * args.articles
        settings = replace(
            base,
            allow_private_addresses=True,
            politeness=PolitenessSettings(
                max_requests_per_host_per_hour=100_000,
                min_host_interval=0.0,
                max_concurrency=args.hosts,
            ),
            run=replace(base.run, max_articles=total, max_duration=600.0),
        )
        feeds = tuple(
            FeedConfig(
                url=f"http://127.0.0.{2 + n}:{port}/feed.xml",
                name=f"Newsroom {n}",
                slug=f"newsroom-{n}",
                headers=(),
                enabled=True,
            )
            for n, port in enumerate(ports)
        )
        config = replace(
            parse_config(None, environ={}, source="bench", base_dir=Path()),
            feeds=feeds,
            settings=settings,
        )
        with tempfile.TemporaryDirectory() as tmp:
            cpu = time.process_time()
            start = time.perf_counter()
            report = run_ingest(
                config, Archive(Path(tmp) / "data"), now=datetime.now(UTC), simulated=True
            )
            wall = time.perf_counter() - start
            cpu = time.process_time() - cpu
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        per_host = args.articles + 2  # feed, robots.txt, articles
        ideal = per_host * args.latency / 2
        stored = report.articles["new-revision"]
        print(f"{total} articles over {args.hosts} hosts, {args.latency * 1000:.0f} ms latency")
        print(f"stored revisions  {stored} ({dict(report.articles)})")
        print(f"wall time         {wall:.2f} s   ideal {ideal:.2f} s   ratio {wall / ideal:.2f}x")
        print(f"CPU per article   {cpu / max(stored, 1) * 1000:.2f} ms")
        print(f"peak memory       {peak:.0f} MB")
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()
