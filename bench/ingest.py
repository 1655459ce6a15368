"""One ingest run at scale over loopback newsrooms, in two configurations.

A child process serves N newsrooms (127.0.0.2, 127.0.0.3, ...), each with an RSS feed,
robots.txt and article pages (realistic markup around ~600 words), every response after
``--latency``. The parent runs ``run_ingest`` into a fresh archive and prints, for each
configuration:

- **stress** (``--articles`` per host, default 2,000 in all): no spacing, two requests in
  flight per host, every host at once, no hourly ceiling. Nothing but latency bounds it, so
  its ratio measures how far the run is bound by its own work (CPU, disk) instead;
- **polite** (``--polite-articles`` per host, default 2,000 in all, about 105 s): the
  product's default politeness (1 s per host, or ``--polite-interval``; 120 requests per
  host and hour; 8 hosts at once), with the run's article budget lifted so every article
  is fetched.

Figures: wall time against the ideal of that configuration (the makespan of a
zero-cost run that obeys its politeness, simulated request by request: spacing,
concurrency per host and across hosts, the feed before robots.txt before the articles;
target at most 1.3 x); CPU per article, total and without the network (target 10 ms), of
the ingest process and of its worker processes; peak memory (target 250 MB) of the
ingest process and of each worker (``VmHWM``, sampled from /proc every 0.1 s; a worker's
figure counts the pages it shares with the fork server, so the sum is an upper bound).

How CPU is counted. The ingest process's CPU is its ``process_time`` (user + kernel, all
threads) over ``run_ingest``, less the CPU of this bench's own sampling thread (a sweep of
/proc costs ~1.5 ms, ten sweeps a second: ~15 ms of CPU per second of the run, which a
long polite run used to count as the ingest's). Workers' CPU is read from /proc by the
sampler, with that of the fork server they are forked from and multiprocessing's
resource tracker: both live as long as the bench, so each configuration counts their CPU
during its run, and the fork server's start goes to the first one that starts workers.
The newsroom servers are another process and count nowhere.

The network's share is measured, not estimated: after the ingest pass, a **network
pass** serves a fresh copy of the same newsroom and fetches exactly what the ingest
fetched, the same way -- every feed (conditional, with its headers), then every article
in the run's plan order (by document id), each robots.txt once per host as the fetcher
asks for it -- through the product's own ``Fetcher`` with the same settings, politeness
and ledger clock, bodies discarded. Its CPU per article (HTTP client, SSRF guard,
politeness waits and timers, robots.txt, sockets, the event loop) is the network's cost;
"without the network" is the ingest process's CPU less that, and workers do no I/O.
The pass does only that work on an otherwise idle loop, while in the ingest the same
fetching competes for the GIL with the writer threads, so its figure is a lower bound:
the figure without the network errs high, against the target, never in its favour.
``--no-network-pass`` skips it (and the figures that need it).

Loopback only; the server processes exit by themselves. Linux for the worker figures.

    .venv/bin/python bench/ingest.py [--hosts 20] [--articles 100] [--latency 0.05]
        [--polite-articles 100] [--polite-interval 1] [--only stress|polite] [--workers N]
        [--furniture-kb 300] [--no-network-pass]

``--workers`` is ``run.workers`` (0: automatic, 1: no worker processes). ``--furniture-kb``
grows each page towards real size: the default pages are 5 KB, cheap to extract (~1.5 ms),
so they measure the run's own overhead rather than extraction.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

# Worker processes import the main module again, as ``__mp_main__`` (every multiprocessing
# child that is not forked does). The command line's main module imports next to nothing
# (its commands load on demand), so this one imports the product only when it runs as
# the script: else each worker would start ~0.3 s of CPU dearer here than in production.
if __name__ == "__main__" or TYPE_CHECKING:
    from quietedit.archive.store import Archive
    from quietedit.article.identity import canonical_url, document_id
    from quietedit.config import Config, FeedConfig, PolitenessSettings, parse_config
    from quietedit.fetch import Fetcher, Politeness, RequestLedger
    from quietedit.fetch.politeness import PER_HOST_CONCURRENCY
    from quietedit.ingest.poll import ValidatorCache
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
    """Peak memory and CPU of the ingest's worker processes, read from /proc; and the CPU
    of its helpers, the fork server the workers are forked from and multiprocessing's
    resource tracker, which live as long as the bench: counted from the sampler's start."""

    def __init__(self, exclude: set[int]) -> None:
        self.exclude = exclude | {os.getpid()}
        self.peak: dict[int, float] = {}  # pid -> MB
        self.cpu: dict[int, float] = {}  # pid -> seconds
        self.helpers: dict[int, float] = {}  # pid -> seconds, since the sampler started
        self.helpers_before: dict[int, float] = {}
        self.own_cpu = 0.0  # this sampling thread's CPU, user and kernel: not the run's
        self.own_kernel = 0.0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def sweep(self, *, helpers_only: bool = False) -> None:
        group, tick = os.getpgrp(), os.sysconf("SC_CLK_TCK")
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
            cpu = (int(fields[11]) + int(fields[12])) / tick
            ours = int(fields[1]) == os.getpid()
            if ours and (b"forkserver" in command or b"resource_tracker" in command):
                self.helpers_before.setdefault(pid, 0.0 if self.thread.is_alive() else cpu)
                self.helpers[pid] = cpu - self.helpers_before[pid]
                continue
            # workers: forked by the fork server (a child of ours), or spawned
            forked = b"forkserver" in command and not ours
            if helpers_only or not (forked or b"spawn_main" in command):
                continue
            for line in status.splitlines():
                if line.startswith("VmHWM:"):
                    self.peak[pid] = max(self.peak.get(pid, 0), int(line.split()[1]) / 1024)
            self.cpu[pid] = cpu

    def run(self) -> None:
        while not self.stop.wait(0.1):
            self.sweep()
        usage = resource.getrusage(resource.RUSAGE_THREAD)
        self.own_cpu, self.own_kernel = usage.ru_utime + usage.ru_stime, usage.ru_stime

    def __enter__(self) -> Sampler:
        if Path("/proc/self/stat").exists():
            self.sweep(helpers_only=True)  # helpers already running: from their CPU now
            self.thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop.set()
        if self.thread.is_alive():
            self.thread.join()
            self.sweep(helpers_only=True)


@contextlib.contextmanager
def newsroom(hosts: int, articles: int, latency: float, furniture_kb: int) -> Iterator[list[int]]:
    """Serve the newsrooms in a child process for the ``with`` block; yields their ports."""
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", "--hosts", str(hosts),
         "--articles", str(articles), "--latency", str(latency),
         "--furniture-kb", str(furniture_kb)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        if server.stdout is None:
            raise RuntimeError("the server process has no stdout")
        yield json.loads(server.stdout.readline())
    finally:
        server.kill()
        server.wait()


def bench_config(
    ports: list[int], *, total: int, politeness: PolitenessSettings, workers: int
) -> Config:
    """The catalogue of the newsrooms on ``ports``, every article within the budget."""
    base = parse_config(None, environ={}, source="bench", base_dir=Path())
    settings = replace(
        base.settings,
        allow_private_addresses=True,
        politeness=politeness,
        run=replace(base.settings.run, max_articles=total, max_duration=600.0, workers=workers),
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
    return replace(base, feeds=feeds, settings=settings)


async def fetch_only(config: Config, *, articles: int) -> int:
    """The network pass: what the ingest fetches, fetched as it does, bodies discarded.

    As ``run_ingest``: one ``Fetcher`` with the run's settings, a politeness with an empty
    ledger on a clock that starts now, every feed polled at once (conditional, with its
    headers), then every article at once in the plan's order (document id), each through
    an empty conditional cache; robots.txt is the fetcher's to fetch, once per host, as in
    the run. Returns the articles fetched."""
    settings = config.settings
    started, base = time.monotonic(), time.time()

    def clock() -> float:
        return base + (time.monotonic() - started)

    politeness = Politeness(settings.politeness, ledger=RequestLedger(), clock=clock)
    async with Fetcher(settings, politeness=politeness, clock=clock) as fetcher:
        feeds = sorted(config.feeds, key=lambda feed: feed.slug)
        await asyncio.gather(
            *(
                fetcher.fetch_feed(
                    feed.url,
                    cache=ValidatorCache(feed.url, etag=None, last_modified=None),
                    headers=feed.headers,
                )
                for feed in feeds
            )
        )
        links = [
            feed.url.replace("/feed.xml", f"/a/{n}") for feed in feeds for n in range(articles)
        ]
        planned = sorted(links, key=lambda url: document_id(canonical_url(url)))
        fetched = await asyncio.gather(
            *(
                fetcher.fetch_article(url, cache=ValidatorCache(url, etag=None, last_modified=None))
                for url in planned
            )
        )
    return len(fetched)


def run_config(
    label: str,
    *,
    hosts: int,
    articles: int,
    latency: float,
    politeness: PolitenessSettings,
    workers: int,
    furniture_kb: int,
    network_pass: bool,
) -> None:
    total = hosts * articles
    with newsroom(hosts, articles, latency, furniture_kb) as ports:
        config = bench_config(ports, total=total, politeness=politeness, workers=workers)
        with tempfile.TemporaryDirectory() as tmp, Sampler(set()) as sampler:
            # the run's WARC evidence goes beside its throw-away archive
            paths = replace(config.settings.paths, evidence=Path(tmp) / "evidence")
            config = replace(config, settings=replace(config.settings, paths=paths))
            cpu = time.process_time()
            kernel = resource.getrusage(resource.RUSAGE_SELF).ru_stime
            start = time.perf_counter()
            report = run_ingest(
                config, Archive(Path(tmp) / "data"), now=datetime.now(UTC), simulated=True
            )
            wall = time.perf_counter() - start
            cpu = time.process_time() - cpu
            kernel = resource.getrusage(resource.RUSAGE_SELF).ru_stime - kernel
        cpu -= sampler.own_cpu
        kernel -= sampler.own_kernel
    net_cpu = net_kernel = net_wall = None
    if network_pass:
        with newsroom(hosts, articles, latency, furniture_kb) as ports:
            config = bench_config(ports, total=total, politeness=politeness, workers=workers)
            net_cpu = time.process_time()
            net_kernel = resource.getrusage(resource.RUSAGE_SELF).ru_stime
            net_wall = time.perf_counter()
            fetched = asyncio.run(fetch_only(config, articles=articles))
            net_wall = time.perf_counter() - net_wall
            net_cpu = time.process_time() - net_cpu
            net_kernel = resource.getrusage(resource.RUSAGE_SELF).ru_stime - net_kernel
        if fetched != total:
            raise RuntimeError(f"the network pass fetched {fetched} articles, not {total}")
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
    helper_cpu = sum(sampler.helpers.values())
    worker_cpu = sum(sampler.cpu.values()) + helper_cpu
    size = len(article(0, 0, furniture_kb=furniture_kb)) // 1024

    def ms(seconds: float) -> str:
        return f"{seconds / stored * 1000:.2f}"

    print(f"\n[{label}] {total} articles of {size} KB over {hosts} hosts, "
          f"{latency * 1000:.0f} ms latency; "
          f"{politeness.min_host_interval:g} s per host, {PER_HOST_CONCURRENCY} in flight per "
          f"host, {politeness.max_concurrency} hosts at once, "
          f"{politeness.max_requests_per_host_per_hour} requests/host/hour")  # fmt: skip
    print(f"  stored revisions  {report.articles['new-revision']} ({dict(report.articles)}); "
          f"read by workers {report.read_in_workers}; carried over {report.deferred} "
          f"(the ideal defers {deferred})")  # fmt: skip
    print(f"  wall time         {wall:.2f} s   ideal {ideal:.2f} s   ratio {wall / ideal:.2f}x")
    print(f"  CPU per article   total {ms(cpu + worker_cpu)} ms: ingest process {ms(cpu)} "
          f"(kernel {ms(kernel)}), {len(sampler.cpu)} workers {ms(worker_cpu)} (of it "
          f"their fork server and resource tracker {ms(helper_cpu)})")  # fmt: skip
    if net_cpu is not None and net_kernel is not None and net_wall is not None:
        print(f"    network         {ms(net_cpu)} ms (kernel {ms(net_kernel)}): all in the "
              f"ingest process; the network pass took {net_wall:.2f} s")  # fmt: skip
        print(f"    without network {ms(cpu + worker_cpu - net_cpu)} ms (target 10): ingest "
              f"process {ms(cpu - net_cpu)} (kernel {ms(kernel - net_kernel)}: fsync, "
              f"open, link, futex), workers {ms(worker_cpu)}")  # fmt: skip
    workers_mb = " + ".join(f"{mb:.0f}" for mb in sorted(sampler.peak.values())) or "none"
    print(f"  peak memory       ingest process {peak:.0f} MB (whole bench so far); workers "
          f"{workers_mb} MB; sum {peak + sum(sampler.peak.values()):.0f} MB")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hosts", type=int, default=20)
    parser.add_argument("--articles", type=int, default=100, help="per host, stress run")
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--polite-articles", type=int, default=100, help="per host, polite run")
    parser.add_argument("--polite-interval", type=float, default=1.0)
    parser.add_argument("--only", choices=("stress", "polite"))
    parser.add_argument("--workers", type=int, default=0, help="run.workers (0: automatic)")
    parser.add_argument(
        "--furniture-kb", type=int, default=0, help="page furniture to add, e.g. 300 (real size)"
    )
    parser.add_argument("--no-network-pass", action="store_true", help="skip the fetch-only pass")
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
            network_pass=not args.no_network_pass,
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
            network_pass=not args.no_network_pass,
        )


if __name__ == "__main__":
    main()
