"""One ingest run at scale over loopback newsrooms, in two configurations.

A child process serves N newsrooms (127.0.0.2, 127.0.0.3, ...), each with an RSS feed,
robots.txt and article pages (realistic markup around ~600 words), every response after
``--latency``. The parent runs ``run_ingest`` into a fresh archive and prints, for each
configuration:

- **stress** (``--articles`` per host, default 2,000 in all): no spacing, two requests in
  flight per host, every host at once, no hourly ceiling. Nothing but latency bounds it, so
  its ratio measures how far the run is bound by its own work (CPU, disk) instead;
- **polite** (``--polite-articles`` per host): the product's default politeness (1 s per
  host, or ``--polite-interval``; 120 requests per host and hour; 8 hosts at once), with
  the run's article budget lifted so every article is fetched.

Figures: wall time against the ideal of that configuration (the makespan of a
zero-cost run that obeys its politeness, simulated request by request: spacing,
concurrency per host and across hosts, the feed before robots.txt before the articles;
target at most 1.3 x); CPU per article of the ingest process and of its worker processes,
network excluded (the servers are another process; target 10 ms); peak memory (target
250 MB) of the ingest process and of each worker (``VmHWM``, sampled from /proc every
0.1 s; a worker's figure counts the pages it shares with the fork server, so the sum is an
upper bound).

Loopback only; the server processes exit by themselves. Linux for the worker figures.

    .venv/bin/python bench/ingest.py [--hosts 20] [--articles 100] [--latency 0.05]
        [--polite-articles 10] [--polite-interval 1] [--only stress|polite] [--workers N]
        [--furniture-kb 300]

``--workers`` is ``run.workers`` (0: automatic, 1: no worker processes). ``--furniture-kb``
grows each page towards real size: the default pages are 5 KB, cheap to extract (~1.5 ms),
so they measure the run's own overhead rather than extraction.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from quietedit.archive.store import Archive
from quietedit.config import FeedConfig, PolitenessSettings, parse_config
from quietedit.fetch.politeness import PER_HOST_CONCURRENCY
from quietedit.ingest.run import run_ingest

SERVER_LIFETIME = 300.0
SENTENCE = (
    "the council said on Monday that the budget for school repairs and bus lines would "
    "grow by four percent next year after a long debate in the chamber"
)
WORDS = SENTENCE.split(" ")


def article(host: int, n: int, *, furniture_kb: int = 0) -> bytes:
    """Story ``n`` of newsroom ``host``; ``furniture_kb`` adds a mega-menu and footer link
    lists of about that size, the bulk of a real news page (the extraction corpus averages
    350 KB a page), and most of its extraction cost."""
    links = furniture_kb * 1024 // 64
    menu = "".join(
        f"<li class='menu-item'><a href='/section/{k}'>Section {k} news</a></li>"
        for k in range(links)
    )
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
        f"<a href='/'>Home</a><a href='/news'>News</a><ul>{menu}</ul></nav></header><main>"
        "<article>"
        f"<h1>Story {n} of newsroom {host}</h1><p class='byline'>By A. Reporter</p>"
        f"{paragraphs}</article><aside><ul>{related}</ul></aside></main>"
        "<footer>© Newsroom</footer></body></html>"
    ).encode()


async def serve(hosts: int, articles: int, latency: float, furniture_kb: int) -> None:
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
                    n = int(path.rsplit("/", 1)[1])
                    body = article(host, n, furniture_kb=furniture_kb)
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


def ideal_wall(
    *,
    hosts: int,
    articles: int,
    latency: float,
    interval: float,
    per_host: int,
    max_hosts: int,
    hourly: int,
) -> tuple[float, int]:
    """The makespan of a run that costs nothing but waiting, and the requests it defers.

    Simulates the politeness rules request by request: per host, starts ``interval``
    apart, at most ``per_host`` in flight; at most ``max_hosts`` hosts with requests in
    flight; at most ``hourly`` requests per host. Phases as the run has them: every feed,
    then per host robots.txt, whose answer the host's articles wait for.
    """
    chains = [["feed"] for _ in range(hosts)]
    next_start = [0.0] * hosts
    in_flight = [0] * hosts
    made = [0] * hosts
    finishing: list[tuple[float, int]] = []
    pending = [1] * hosts  # feeds first
    blocked = [False] * hosts  # articles wait for robots.txt
    phase, now, deferred = 1, 0.0, 0
    while True:
        started = False
        active = sum(1 for n in in_flight if n)
        for h in range(hosts):
            if not pending[h] or blocked[h] or now < next_start[h] or in_flight[h] >= per_host:
                continue
            if not in_flight[h] and active >= max_hosts:
                continue
            if made[h] >= hourly:
                deferred += pending[h]
                pending[h] = 0
                continue
            if not in_flight[h]:
                active += 1
            pending[h] -= 1
            made[h] += 1
            in_flight[h] += 1
            next_start[h] = now + interval
            finishing.append((now + latency, h))
            if phase == 2 and chains[h] == ["robots"]:
                chains[h], blocked[h] = ["articles"], True
            started = True
        if started:
            continue
        if not finishing and not any(pending):
            if phase == 1:  # every feed polled: robots.txt, then the articles
                phase, chains, pending = 2, [["robots"] for _ in range(hosts)], [1] * hosts
                continue
            return now, deferred
        waits = [t for t, _ in finishing]
        starts = [next_start[h] for h in range(hosts) if pending[h] and not blocked[h]]
        now = min(waits + [t for t in starts if t > now])
        for t, h in [f for f in finishing if f[0] <= now]:
            finishing.remove((t, h))
            in_flight[h] -= 1
            if blocked[h]:  # robots.txt answered: the articles may go
                blocked[h], pending[h] = False, articles


class Sampler:
    """Peak memory and CPU of the ingest's worker processes, read from /proc."""

    def __init__(self, exclude: set[int]) -> None:
        self.exclude = exclude | {os.getpid()}
        self.peak: dict[int, float] = {}  # pid -> MB
        self.cpu: dict[int, float] = {}  # pid -> seconds
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        group, tick = os.getpgrp(), os.sysconf("SC_CLK_TCK")
        while not self.stop.wait(0.1):
            for stat in Path("/proc").glob("[0-9]*/stat"):
                pid = int(stat.parent.name)
                try:
                    fields = stat.read_text().rsplit(")", 1)[1].split()
                    if int(fields[2]) != group or pid in self.exclude:
                        continue
                    status = (stat.parent / "status").read_text()
                    command = (stat.parent / "cmdline").read_bytes()
                except (OSError, IndexError, ValueError):
                    continue
                # workers: forked by the fork server (a child of ours), or spawned
                forked = b"forkserver" in command and int(fields[1]) != os.getpid()
                if not (forked or b"spawn_main" in command):
                    continue
                for line in status.splitlines():
                    if line.startswith("VmHWM:"):
                        self.peak[pid] = max(self.peak.get(pid, 0), int(line.split()[1]) / 1024)
                self.cpu[pid] = (int(fields[11]) + int(fields[12])) / tick

    def __enter__(self) -> Sampler:
        if Path("/proc/self/stat").exists():
            self.thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join()


def run_config(
    label: str,
    *,
    hosts: int,
    articles: int,
    latency: float,
    politeness: PolitenessSettings,
    workers: int,
    furniture_kb: int,
) -> None:
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", "--hosts", str(hosts),
         "--articles", str(articles), "--latency", str(latency),
         "--furniture-kb", str(furniture_kb)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        if server.stdout is None:
            raise RuntimeError("the server process has no stdout")
        ports = json.loads(server.stdout.readline())
        base = parse_config(None, environ={}, source="bench", base_dir=Path()).settings
        total = hosts * articles
        settings = replace(
            base,
            allow_private_addresses=True,
            politeness=politeness,
            run=replace(base.run, max_articles=total, max_duration=600.0, workers=workers),
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
        with tempfile.TemporaryDirectory() as tmp, Sampler({server.pid}) as sampler:
            cpu = time.process_time()
            kernel = resource.getrusage(resource.RUSAGE_SELF).ru_stime
            start = time.perf_counter()
            report = run_ingest(
                config, Archive(Path(tmp) / "data"), now=datetime.now(UTC), simulated=True
            )
            wall = time.perf_counter() - start
            cpu = time.process_time() - cpu
            kernel = resource.getrusage(resource.RUSAGE_SELF).ru_stime - kernel
    finally:
        server.kill()
        server.wait()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    ideal, deferred = ideal_wall(
        hosts=hosts,
        articles=articles,
        latency=latency,
        interval=politeness.min_host_interval,
        per_host=PER_HOST_CONCURRENCY,
        max_hosts=politeness.max_concurrency,
        hourly=politeness.max_requests_per_host_per_hour,
    )
    stored = max(report.articles["new-revision"], 1)
    worker_cpu = sum(sampler.cpu.values())
    size = len(article(0, 0, furniture_kb=furniture_kb)) // 1024
    print(f"\n[{label}] {total} articles of {size} KB over {hosts} hosts, "
          f"{latency * 1000:.0f} ms latency; "
          f"{politeness.min_host_interval:g} s per host, {PER_HOST_CONCURRENCY} in flight per "
          f"host, {politeness.max_concurrency} hosts at once, "
          f"{politeness.max_requests_per_host_per_hour} requests/host/hour")  # fmt: skip
    print(f"  stored revisions  {report.articles['new-revision']} ({dict(report.articles)}); "
          f"read by workers {report.read_in_workers}; carried over {report.deferred} "
          f"(the ideal defers {deferred})")  # fmt: skip
    print(f"  wall time         {wall:.2f} s   ideal {ideal:.2f} s   ratio {wall / ideal:.2f}x")
    print(f"  CPU per article   {(cpu + worker_cpu) / stored * 1000:.2f} ms "
          f"(ingest process {cpu / stored * 1000:.2f} ms, of it in the kernel "
          f"{kernel / stored * 1000:.2f} ms: fsync, open, network; "
          f"{len(sampler.cpu)} workers {worker_cpu / stored * 1000:.2f} ms)")  # fmt: skip
    workers_mb = " + ".join(f"{mb:.0f}" for mb in sorted(sampler.peak.values())) or "none"
    print(f"  peak memory       ingest process {peak:.0f} MB (whole bench so far); workers "
          f"{workers_mb} MB; sum {peak + sum(sampler.peak.values()):.0f} MB")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hosts", type=int, default=20)
    parser.add_argument("--articles", type=int, default=100, help="per host, stress run")
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--polite-articles", type=int, default=10, help="per host, polite run")
    parser.add_argument("--polite-interval", type=float, default=1.0)
    parser.add_argument("--only", choices=("stress", "polite"))
    parser.add_argument("--workers", type=int, default=0, help="run.workers (0: automatic)")
    parser.add_argument(
        "--furniture-kb", type=int, default=0, help="page furniture to add, e.g. 300 (real size)"
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.hosts, args.articles, args.latency, args.furniture_kb))
        return
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} CPUs")
    defaults = parse_config(None, environ={}, source="bench", base_dir=Path()).settings
    if args.only != "polite":
        run_config(
            "stress",
            hosts=args.hosts,
            articles=args.articles,
            latency=args.latency,
            politeness=PolitenessSettings(
                max_requests_per_host_per_hour=100_000,
                min_host_interval=0.0,
                max_concurrency=args.hosts,
            ),
            workers=args.workers,
            furniture_kb=args.furniture_kb,
        )
    if args.only != "stress":
        run_config(
            "polite",
            hosts=args.hosts,
            articles=args.polite_articles,
            latency=args.latency,
            politeness=replace(defaults.politeness, min_host_interval=args.polite_interval),
            workers=args.workers,
            furniture_kb=args.furniture_kb,
        )


if __name__ == "__main__":
    main()
