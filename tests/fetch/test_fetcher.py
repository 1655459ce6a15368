"""A run's Fetcher: robots.txt per hop, per-host politeness with an injected clock, the ledger."""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from quietedit.errors import (
    BlockedURLError,
    HostDeferredError,
    HTTPStatusError,
    RobotsDisallowedError,
)
from quietedit.fetch import Fetcher, LedgerEntry, RawDocument, RequestLedger
from quietedit.fetch.politeness import Politeness
from tests.fetch.conftest import CDN, NEWS, FakeClock, Resolver, make_fetcher, run, settings

ARTICLE = (
    b"<!doctype html><html lang='de'><head><title>Stadtrat beschliesst Budget</title></head>"
    b"<body><article><h1>Stadtrat beschliesst Budget</h1><p>Der Stadtrat hat am Montag ...</p>"
    b"</article></body></html>"
)
ROBOTS = b"""# robots.txt of a regional news site
User-agent: *
Disallow: /suche
Disallow: /*?utm_

User-agent: quietedit
Disallow: /intern/
Disallow: /caf%C3%A9
Allow: /intern/impressum$
"""


def at(port: int, path: str, host: str = NEWS) -> str:
    return f"http://{host}:{port}{path}"


def paths(server: HTTPServer) -> list[str]:
    return [request.path for request, _ in server.log]


def fetch_all(fetcher: Fetcher, *calls: tuple[str, str]) -> list[RawDocument | BaseException]:
    """Run fetches one after another in one event loop; errors are returned, not raised."""

    async def scenario() -> list[RawDocument | BaseException]:
        results: list[RawDocument | BaseException] = []
        async with fetcher:
            for kind, url in calls:
                method = fetcher.fetch_article if kind == "article" else fetcher.fetch_feed
                try:
                    results.append(await method(url))
                except Exception as exc:  # noqa: BLE001 - the test inspects each outcome
                    results.append(exc)
        return results

    return run(scenario())


# ---- robots.txt ----------------------------------------------------------------------------


def test_robots_is_checked_on_every_redirect_hop(
    server: HTTPServer, port: int, resolver: Resolver, clock: FakeClock
) -> None:
    server.expect_request("/robots.txt").respond_with_data(ROBOTS, content_type="text/plain")
    server.expect_request("/2026/11/budget").respond_with_data(
        "", status=301, headers={"Location": "/intern/budget-entwurf"}
    )
    server.expect_request("/intern/budget-entwurf").respond_with_data(ARTICLE)
    (result,) = fetch_all(make_fetcher(resolver, clock), ("article", at(port, "/2026/11/budget")))
    assert isinstance(result, RobotsDisallowedError)
    assert result.url == at(port, "/intern/budget-entwurf") and not result.transient
    assert paths(server) == ["/robots.txt", "/2026/11/budget"]  # the hop was never requested


def test_robots_is_fetched_once_per_origin_and_run(
    server: HTTPServer, port: int, resolver: Resolver, clock: FakeClock
) -> None:
    server.expect_request("/robots.txt").respond_with_data(ROBOTS)
    server.expect_request("/a").respond_with_data(ARTICLE)
    server.expect_request("/b").respond_with_data(ARTICLE)

    async def scenario() -> None:
        async with make_fetcher(resolver, clock) as fetcher:
            await asyncio.gather(
                fetcher.fetch_article(at(port, "/a")),
                fetcher.fetch_article(at(port, "/b")),
                fetcher.fetch_article(at(port, "/a")),
            )

    run(scenario())
    assert paths(server).count("/robots.txt") == 1
    assert sorted(paths(server)) == ["/a", "/a", "/b", "/robots.txt"]


def test_robots_rules_match_after_percent_encoding_normalisation(
    server: HTTPServer, port: int, resolver: Resolver, clock: FakeClock
) -> None:
    server.expect_request("/robots.txt").respond_with_data(ROBOTS)
    server.expect_request("/intern/impressum").respond_with_data(ARTICLE)
    results = fetch_all(
        make_fetcher(resolver, clock),
        ("article", at(port, "/café")),  # the rule spells it /caf%C3%A9
        ("article", at(port, "/intern/impressum")),  # Allow ...$ beats Disallow /intern/
        ("article", at(port, "/%69ntern/x")),  # %69 is "i"
    )
    assert isinstance(results[0], RobotsDisallowedError)
    assert isinstance(results[1], RawDocument)
    assert isinstance(results[2], RobotsDisallowedError)


def test_a_missing_robots_txt_allows_everything(
    server: HTTPServer, port: int, resolver: Resolver, clock: FakeClock
) -> None:
    server.expect_request("/robots.txt").respond_with_data("not here", status=404)
    server.expect_request("/intern/x").respond_with_data(ARTICLE)
    (result,) = fetch_all(make_fetcher(resolver, clock), ("article", at(port, "/intern/x")))
    assert isinstance(result, RawDocument)


@pytest.mark.parametrize("status", [500, 503, 429])
def test_an_unreachable_robots_txt_disallows_the_origin_for_the_run(
    server: HTTPServer, port: int, resolver: Resolver, clock: FakeClock, status: int
) -> None:
    server.expect_request("/robots.txt").respond_with_data("", status=status)
    server.expect_request("/a").respond_with_data(ARTICLE)
    results = fetch_all(
        make_fetcher(resolver, clock, retries=1),
        ("article", at(port, "/a")),
        ("article", at(port, "/a")),
    )
    assert all(isinstance(r, RobotsDisallowedError) for r in results)
    assert "unreachable" in str(results[0])
    assert "/a" not in paths(server)
    assert paths(server).count("/robots.txt") == 2  # one fetch and its one retry, for the run


def test_robots_is_per_origin(
    server: HTTPServer, port: int, resolver: Resolver, clock: FakeClock
) -> None:
    def robots(request: Request) -> Response:
        closed = request.headers["Host"].startswith(CDN)
        return Response(b"User-agent: *\nDisallow: /\n" if closed else b"")

    server.expect_request("/robots.txt").respond_with_handler(robots)
    server.expect_request("/a").respond_with_data(ARTICLE)
    results = fetch_all(
        make_fetcher(resolver, clock),
        ("article", at(port, "/a")),
        ("article", at(port, "/a", host=CDN)),
    )
    assert isinstance(results[0], RawDocument)
    assert isinstance(results[1], RobotsDisallowedError)


def test_an_article_on_a_host_the_guard_refuses_is_blocked_not_robots_disallowed(
    server: HTTPServer, port: int, clock: FakeClock
) -> None:
    resolver = Resolver({"metadata.example.test": ["169.254.169.254"]})
    results = fetch_all(
        make_fetcher(resolver, clock),
        ("article", at(port, "/a", host="metadata.example.test")),
        ("article", at(port, "/b", host="metadata.example.test")),
    )
    assert all(isinstance(r, BlockedURLError) for r in results)
    assert not server.log


def test_feeds_are_not_subject_to_robots(
    server: HTTPServer, port: int, resolver: Resolver, clock: FakeClock
) -> None:
    server.expect_request("/robots.txt").respond_with_data(b"User-agent: *\nDisallow: /\n")
    server.expect_request("/feed.xml").respond_with_data(b"<rss/>")
    (result,) = fetch_all(make_fetcher(resolver, clock), ("feed", at(port, "/feed.xml")))
    assert isinstance(result, RawDocument)
    assert paths(server) == ["/feed.xml"]


def test_crawl_delay_feeds_the_per_host_spacing(
    server: HTTPServer, port: int, resolver: Resolver, clock: FakeClock
) -> None:
    server.expect_request("/robots.txt").respond_with_data(b"User-agent: *\nCrawl-delay: 7\n")
    server.expect_request("/a").respond_with_data(ARTICLE)
    fetcher = make_fetcher(resolver, clock, interval=1.0)
    fetch_all(fetcher, ("article", at(port, "/a")), ("article", at(port, "/a")))
    assert fetcher.politeness is not None
    starts = [entry.at for entry in fetcher.politeness.ledger]
    assert [e.url.rsplit("/", 1)[1] for e in fetcher.politeness.ledger] == ["robots.txt", "a", "a"]
    assert starts[2] - starts[1] == timedelta(seconds=7)


# ---- politeness ----------------------------------------------------------------------------


def test_requests_to_one_host_are_spaced_by_the_minimum_interval(
    server: HTTPServer, port: int, resolver: Resolver, clock: FakeClock
) -> None:
    server.expect_request("/feed.xml").respond_with_data(b"<rss/>")
    fetcher = make_fetcher(resolver, clock, interval=2.5)
    fetch_all(fetcher, *[("feed", at(port, "/feed.xml"))] * 3)
    assert fetcher.politeness is not None
    starts = [entry.at.timestamp() for entry in fetcher.politeness.ledger]
    assert [round(b - a, 6) for a, b in itertools.pairwise(starts)] == [2.5, 2.5]


def test_the_hourly_budget_is_exact_and_names_when_the_host_frees_up(
    server: HTTPServer, port: int, resolver: Resolver, clock: FakeClock
) -> None:
    server.expect_request("/feed.xml").respond_with_data(b"<rss/>")
    fetcher = make_fetcher(resolver, clock, per_hour=3, interval=10)
    url = at(port, "/feed.xml")

    async def attempt() -> RawDocument | HostDeferredError:
        try:
            return await fetcher.fetch_feed(url)
        except HostDeferredError as exc:
            return exc

    async def scenario() -> tuple[list[RawDocument | HostDeferredError], ...]:
        async with fetcher:
            first_hour = [await attempt() for _ in range(4)]
            deferred = first_hour[3]
            assert isinstance(deferred, HostDeferredError)
            clock.now = deferred.retry_at - 1  # a second early: still three in the hour
            too_early = await attempt()
            clock.now = deferred.retry_at  # an hour after the first request: one more
            return first_hour, [too_early, await attempt()]

    first_hour, later = run(scenario())
    assert [isinstance(r, RawDocument) for r in first_hour] == [True, True, True, False]
    deferred = first_hour[3]
    assert isinstance(deferred, HostDeferredError) and deferred.transient
    assert fetcher.politeness is not None
    first = fetcher.politeness.ledger.to_records()[0]["at"]
    assert deferred.retry_at == datetime.fromisoformat(str(first)).timestamp() + 3600
    assert "3 requests this hour" in str(deferred)
    assert [isinstance(r, RawDocument) for r in later] == [False, True]
    assert len(server.log) == 4


def test_the_budget_counts_the_previous_runs_requests_from_the_ledger(
    server: HTTPServer, port: int, resolver: Resolver, clock: FakeClock
) -> None:
    server.expect_request("/feed.xml").respond_with_data(b"<rss/>")
    now = datetime.fromtimestamp(clock.now, UTC)
    earlier = [
        LedgerEntry(now - timedelta(minutes=m), at(port, "/feed.xml"), NEWS, 200, 10, 0.1, 0)
        for m in (70, 50, 20)  # the first is more than an hour old
    ]
    politeness = Politeness(
        settings(per_hour=3).politeness,
        ledger=RequestLedger.from_records(RequestLedger(earlier).to_records()),
        clock=clock,
        sleep=clock.sleep,
    )
    fetcher = Fetcher(
        settings(per_hour=3), allow_private=True, resolve=resolver, politeness=politeness,
        clock=clock, sleep=clock.sleep,
    )  # fmt: skip
    results = fetch_all(fetcher, ("feed", at(port, "/feed.xml")), ("feed", at(port, "/feed.xml")))
    assert isinstance(results[0], RawDocument)
    assert isinstance(results[1], HostDeferredError)
    assert results[1].retry_at == (now - timedelta(minutes=50)).timestamp() + 3600
    assert len(server.log) == 1


def test_a_retry_after_pauses_the_whole_host(
    server: HTTPServer, port: int, resolver: Resolver, clock: FakeClock
) -> None:
    server.expect_request("/a").respond_with_data("", status=429, headers={"Retry-After": "20"})
    server.expect_request("/b").respond_with_data(b"<rss/>")
    fetcher = make_fetcher(resolver, clock, retries=0)
    results = fetch_all(fetcher, ("feed", at(port, "/a")), ("feed", at(port, "/b")))
    assert isinstance(results[0], HTTPStatusError) and results[0].status == 429
    assert isinstance(results[1], RawDocument)
    assert fetcher.politeness is not None
    a, b = fetcher.politeness.ledger
    assert b.at - a.at == timedelta(seconds=20)


def test_a_wait_longer_than_the_deadline_defers_instead_of_waiting(
    server: HTTPServer, port: int, resolver: Resolver, clock: FakeClock
) -> None:
    server.expect_request("/robots.txt").respond_with_data(b"User-agent: *\nCrawl-delay: 3600\n")
    server.expect_request("/a").respond_with_data(ARTICLE)
    fetcher = make_fetcher(resolver, clock, deadline=30)
    (result,) = fetch_all(fetcher, ("article", at(port, "/a")))
    assert isinstance(result, HostDeferredError) and "carried over" in str(result)
    assert fetcher.politeness is not None
    (robots,) = fetcher.politeness.ledger
    assert result.retry_at == robots.at.timestamp() + 3600
    assert clock.sleeps == [] and "/a" not in paths(server)


def test_concurrency_is_bounded_per_host_and_across_hosts(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    lock = threading.Lock()
    in_flight: dict[str, int] = {}
    peaks = {"per_host": 0, "hosts": 0}

    def slow(request: Request) -> Response:
        host = request.headers["Host"].split(":")[0]
        with lock:
            in_flight[host] = in_flight.get(host, 0) + 1
            peaks["per_host"] = max(peaks["per_host"], in_flight[host])
            peaks["hosts"] = max(peaks["hosts"], sum(1 for n in in_flight.values() if n))
        time.sleep(0.1)
        with lock:
            in_flight[host] -= 1
        return Response(b"<rss/>")

    server.expect_request("/feed.xml").respond_with_handler(slow)
    politeness = Politeness(settings(concurrency=1).politeness, per_host_concurrency=2)
    fetcher = Fetcher(settings(), allow_private=True, resolve=resolver, politeness=politeness)

    async def scenario() -> None:
        async with fetcher:
            await asyncio.gather(
                *(fetcher.fetch_feed(at(port, "/feed.xml", host=h)) for h in [NEWS, CDN] * 4)
            )

    run(scenario())
    assert peaks == {"per_host": 2, "hosts": 1}
    assert len(server.log) == 8


def test_queueing_for_a_busy_host_does_not_count_against_the_timeout(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    def slow(request: Request) -> Response:
        time.sleep(0.15)
        return Response(b"<rss/>")

    server.expect_request("/feed.xml").respond_with_handler(slow)
    politeness = Politeness(settings().politeness, per_host_concurrency=1)
    fetcher = Fetcher(
        settings(timeout=0.4, retries=0), allow_private=True, resolve=resolver,
        politeness=politeness,
    )  # fmt: skip

    async def scenario() -> list[RawDocument]:
        async with fetcher:
            return await asyncio.gather(
                *(fetcher.fetch_feed(at(port, "/feed.xml")) for _ in range(5))
            )

    # Five requests one at a time take ~0.75 s, longer than the 0.4 s attempt timeout;
    # each request itself takes 0.15 s, so none times out.
    assert len(run(scenario())) == 5


# ---- the ledger ----------------------------------------------------------------------------


def test_every_request_is_recorded_and_the_ledger_round_trips_through_json(
    server: HTTPServer, port: int, resolver: Resolver, clock: FakeClock
) -> None:
    server.expect_ordered_request("/feed.xml").respond_with_data("", status=503)
    server.expect_ordered_request("/feed.xml").respond_with_data(
        "", status=302, headers={"Location": "/feed2.xml"}
    )
    server.expect_ordered_request("/feed2.xml").respond_with_data(b"<rss/>")
    fetcher = make_fetcher(resolver, clock)
    fetch_all(fetcher, ("feed", at(port, "/feed.xml")))
    assert fetcher.politeness is not None
    records: list[dict[str, Any]] = json.loads(json.dumps(fetcher.politeness.ledger.to_records()))
    assert [(r["status"], r["attempt"], r["error"]) for r in records] == [
        (503, 0, "HTTPStatusError"),
        (302, 1, None),
        (200, 1, None),
    ]
    assert records[2]["bytes"] == len(b"<rss/>") and records[2]["host"] == NEWS
    assert records[0]["at"].endswith("Z")
    restored = RequestLedger.from_records(records)
    assert list(restored) == list(fetcher.politeness.ledger)
