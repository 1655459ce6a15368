"""Fetcher throughput: 1,000 requests to 20 loopback hosts with 50 ms server latency.

One server per address (127.0.0.2 ... 127.0.0.21), run in a child process so its work and
memory are not counted as the client's. The client is one ``Fetcher`` (SSRF guard relaxed
for loopback, no spacing, a budget that does not bind) with two requests in flight per host
and all 20 hosts in parallel. Printed: wall time, its ratio to the ideal (the busiest host's
serial time divided by the per-host concurrency), and the client's peak memory
(``resource.getrusage``). Targets: at most 1.3 x the ideal, under 150 MB.

Runs on loopback only and stops by itself (the server process exits after a minute at most).

    .venv/bin/python bench/fetch.py [--requests 1000] [--hosts 20] [--latency 0.05]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import resource
import subprocess
import sys
import time
from dataclasses import replace

from quietedit.config import PolitenessSettings, Settings
from quietedit.fetch import Fetcher
from quietedit.fetch.politeness import Politeness

PER_HOST = 2
SERVER_LIFETIME = 60.0  # seconds; the server exits even if this script dies
BODY = (
    b"<!doctype html><html lang='de'><head><meta charset='utf-8'><title>Stadtrat</title></head>"
    b"<body><article><h1>Stadtrat beschliesst Budget</h1>"
    + b"<p>Der Stadtrat hat am Montag ein Budget von 4,2 Millionen Euro beschlossen.</p>" * 25
    + b"</article></body></html>"
)


async def serve(hosts: int, latency: float) -> None:
    """Child process: one keep-alive HTTP/1.1 server per address; prints the ports as JSON."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                if not head:
                    break
                await asyncio.sleep(latency)
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                    b"Content-Length: %d\r\n\r\n" % len(BODY) + BODY
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    servers = [
        await asyncio.start_server(handle, f"127.0.0.{2 + n}", 0, backlog=256) for n in range(hosts)
    ]
    ports = [server.sockets[0].getsockname()[1] for server in servers]
    print(json.dumps(ports), flush=True)
    await asyncio.sleep(SERVER_LIFETIME)


async def client(urls: list[str], hosts: int) -> tuple[float, float, int]:
    base = Settings()
    settings = replace(
        base,
        politeness=PolitenessSettings(
            max_requests_per_host_per_hour=100_000, min_host_interval=0.0, max_concurrency=hosts
        ),
    )
    politeness = Politeness(settings.politeness, per_host_concurrency=PER_HOST)
    async with Fetcher(settings, allow_private=True, politeness=politeness) as fetcher:
        started, cpu = time.perf_counter(), time.process_time()
        documents = await asyncio.gather(*(fetcher.fetch_feed(url) for url in urls))
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert all(doc.body == BODY for doc in documents)  # noqa: S101 - a wrong answer is no result
    return elapsed, cpu, len(politeness.ledger)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--hosts", type=int, default=20)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.hosts, args.latency))
        return

    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", "--hosts", str(args.hosts),
         "--latency", str(args.latency)],
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert server.stdout is not None  # noqa: S101
        ports = json.loads(server.stdout.readline())
        urls = [
            f"http://127.0.0.{2 + n % args.hosts}:{ports[n % args.hosts]}/artikel/{n}"
            for n in range(args.requests)
        ]
        elapsed, cpu, recorded = asyncio.run(client(urls, args.hosts))
    finally:
        server.terminate()
        server.wait(timeout=10)

    busiest = max(collections.Counter(url.split("/")[2] for url in urls).values())
    ideal = busiest * args.latency / PER_HOST
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(f"requests:          {args.requests} to {args.hosts} hosts ({recorded} in the ledger)")
    print(f"server latency:    {args.latency * 1000:.0f} ms, {PER_HOST} in flight per host")
    print(f"wall time:         {elapsed:.3f} s")
    print(
        f"ideal:             {ideal:.3f} s (busiest host {busiest} requests serially / {PER_HOST})"
    )
    print(f"ratio to ideal:    {elapsed / ideal:.2f}x (target <= 1.3x)")
    print(f"throughput:        {args.requests / elapsed:,.0f} requests/s")
    print(f"client CPU:        {cpu:.3f} s ({cpu / args.requests * 1000:.2f} ms per request)")
    load = os.getloadavg()[0]
    print(f"machine load:      {load:.2f} (1-minute average; other work skews the wall time)")
    print(f"peak memory:       {peak_mb:.1f} MB (target < 150 MB)")


if __name__ == "__main__":
    main()
