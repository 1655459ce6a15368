"""`--shard K/N`: N runners ingest disjoint parts of one archive, and git merges them.

The newsroom is five sites on loopback (one server, told apart by the Host header), with
the shards of their registrable domains fixed by the documented formula:

    islandradio.test -> 1    harbourtimes.test, fjordbay-cdn.test -> 2
    valleypost.test, northgazette.test, fjordbay.test -> 3

The North Gazette (shard 3) also lists a Harbour Times story (shard 2), as syndication
does, so one document is reachable from feeds of two shards; and Fjord Bay's feed is
served from its CDN's domain (shard 2) while its articles are on its own (shard 3), as
FeedBurner or CDN-hosted feeds are.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from quietedit.archive.store import Archive
from quietedit.archive.verify import verify_archive
from quietedit.article.identity import canonical_url, document_id, registrable_domain
from quietedit.cli import cli
from quietedit.config import Config, load_config
from quietedit.decide.shard import (
    MAX_SHARDS,
    WHOLE,
    Shard,
    is_ledger_name,
    parse_shard,
    partition_key,
    shard_of,
)
from quietedit.errors import InvalidShardError
from quietedit.fetch import LedgerEntry
from quietedit.ingest.listfiles import head_of_part
from quietedit.ingest.run import run_ingest
from tests.conftest import git

T0 = datetime(2026, 11, 30, 6, 0, tzinfo=UTC)
N = 3
HOSTS = {  # host -> the shard the formula gives its registrable domain, for N = 3
    "www.islandradio.test": 1,
    "www.harbourtimes.test": 2,
    "news.valleypost.test": 3,
    "www.northgazette.test": 3,
    "feeds.fjordbay-cdn.test": 2,
    "www.fjordbay.test": 3,
}
FJORD_CDN, FJORD = "feeds.fjordbay-cdn.test", "www.fjordbay.test"
SEA_WALL, MARKET = "/2026/11/30/sea-wall-repairs", "/2026/11/30/fish-market-hours"
SYNDICATED = "/news/2026/11/30/council-budget"  # on the Harbour Times, also in the Gazette


# -- the newsroom ------------------------------------------------------------------------

STORIES: dict[tuple[str, str], tuple[str, list[str]]] = {
    ("www.harbourtimes.test", SYNDICATED): (
        "Council approves budget after late-night debate",
        [
            "The city council approved a budget of {amount} million euros on Monday night, "
            "after a debate about bus lines and school repairs that ran past midnight.",
            "Council leader Maria Okafor called the vote a fair compromise between the "
            "northern and the southern districts.",
        ],
    ),
    ("www.harbourtimes.test", "/news/2026/11/30/ferries-suspended"): (
        "Storm stops ferries to the islands",
        [
            "Ferry services between the harbour and the islands were suspended on Monday "
            "after gusts of up to 110 kilometres an hour were recorded along the coast.",
            "The operator said crossings would resume on Tuesday if the wind dropped.",
        ],
    ),
    ("www.harbourtimes.test", "/sport/2026/11/30/derby-postponed"): (
        "Harbour derby postponed",
        [
            "Saturday's derby between Harbour United and Port Athletic has been postponed "
            "because the stadium roof was damaged in the storm.",
            "The league said a new date would be announced within a week.",
        ],
    ),
    ("news.valleypost.test", "/politics/school-closures"): (
        "Two village schools to close",
        [
            "The regional government will close two village schools at the end of the "
            "school year and move their pupils to a new building in the town centre.",
            "Parents said they had not been consulted and announced a protest.",
        ],
    ),
    ("news.valleypost.test", "/politics/bridge-tender"): (
        "Bridge tender reopened",
        [
            "The valley's transport office reopened the tender for the new river bridge "
            "after the only bid came in far over budget.",
            "Construction is now expected to start in the autumn.",
        ],
    ),
    ("www.northgazette.test", "/2026/11/30/rail-works"): (
        "Holiday rail works on the main line",
        [
            "Rail services will run a reduced timetable over the holidays while engineers "
            "replace a bridge on the main line north of the city.",
            "Replacement buses will connect the two closest stations every twenty minutes.",
        ],
    ),
    (FJORD, SEA_WALL): (
        "Sea wall repairs begin",
        [
            "Repairs to the sea wall along the old harbour began on Monday, with {crews} "
            "working in shifts before the next high tide.",
            "The town said the promenade would stay closed until the work is finished.",
        ],
    ),
    (FJORD, MARKET): (
        "Fish market keeps winter hours",
        [
            "The fish market will open from seven until noon on weekdays through February, "
            "the traders' association said.",
            "Saturday markets continue as before.",
        ],
    ),
    ("www.islandradio.test", "/stories/storm-warning"): (
        "Storm warning for the islands",
        [
            "The weather service issued a {level} warning for the islands, with gusts of "
            "up to 110 kilometres an hour expected overnight.",
            "Residents were asked to secure loose objects and stay indoors.",
        ],
    ),
}


def page(host: str, title: str, paragraphs: list[str], *, round_: int) -> str:
    """An article page with the furniture real news sites wrap around the text."""
    site = host.split(".")[1].title()
    body = "".join(f"<p>{text}</p>" for text in paragraphs)
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{title} | {site}</title></head><body>"
        "<header><nav><a href='/'>Home</a> <a href='/news'>News</a></nav></header>"
        f"<main><article><h1>{title}</h1><p class='byline'>By Ana Ruiz</p>{body}</article>"
        f"<aside><h2>Most read</h2><ul><li><a href='/x/{round_}'>Most read {round_}</a></li>"
        f"</ul></aside></main><footer><p>© {site}. All rights reserved.</p></footer>"
        "</body></html>"
    )


class Newsroom:
    """Four sites on one loopback server; ``round`` says what each URL serves now."""

    def __init__(self, server: HTTPServer) -> None:
        self.server = server
        self.round = 1
        self.gazette_teaser = "From our partners at the Harbour Times."
        server.expect_request(re.compile(r"/.*")).respond_with_handler(self.dispatch)

    def url(self, host: str, path: str) -> str:
        return f"http://{host}:{self.server.port}{path}"

    def dispatch(self, request: Request) -> Response:
        host = request.host.rsplit(":", 1)[0]
        path = request.path
        if path == "/robots.txt":
            return Response("User-agent: *\nDisallow: /private/\n", content_type="text/plain")
        feeds = {
            ("www.harbourtimes.test", "/rss/news.xml"): self.harbour_news,
            ("www.harbourtimes.test", "/rss/sport.xml"): self.harbour_sport,
            ("news.valleypost.test", "/atom.xml"): self.valley_atom,
            ("www.northgazette.test", "/feed/"): self.gazette,
            ("www.islandradio.test", "/feed.json"): self.island_json,
            (FJORD_CDN, "/fjordbay/latest.atom"): self.fjord_atom,
        }
        if (host, path) in feeds:
            return feeds[host, path]()
        story = STORIES.get((host, path))
        if story is None:
            return Response("Not found", status=404)
        if path == "/politics/school-closures" and self.round >= 2:  # taken down
            return Response("Not found", status=404)
        title, template = story
        text = [
            t.format(
                amount="4.2" if self.round == 1 else "4.8",
                level="yellow" if self.round == 1 else "orange",
                crews="two crews" if self.round == 1 else "four crews",
            )
            for t in template
        ]
        return Response(
            page(host, title, text, round_=self.round), content_type="text/html; charset=utf-8"
        )

    def _rss(self, host: str, title: str, items: list[tuple[str, str, str]]) -> Response:
        entries = "".join(
            f"<item><title>{headline}</title><link>{link}</link><guid>{link}</guid>"
            f"<pubDate>Mon, 30 Nov 2026 05:00:00 GMT</pubDate>"
            f"<description>{teaser}</description></item>"
            for headline, link, teaser in items
        )
        body = (
            '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel>'
            f"<title>{title}</title><link>{self.url(host, '/')}</link>"
            f"<description>News</description>{entries}</channel></rss>"
        )
        return Response(body, content_type="application/rss+xml")

    def harbour_news(self) -> Response:
        host = "www.harbourtimes.test"
        ferries = "Storm stops ferries" if self.round == 1 else "Storm stops all ferries"
        return self._rss(
            host,
            "Harbour Times",
            [
                (
                    "Council approves budget",
                    self.url(host, SYNDICATED),
                    "The vote ran past midnight.",
                ),
                (
                    ferries,
                    self.url(host, "/news/2026/11/30/ferries-suspended"),
                    "Gusts of 110 km/h.",
                ),
            ],
        )

    def harbour_sport(self) -> Response:
        """Round 3: the derby story has left the feed (to the feed's day file)."""
        host = "www.harbourtimes.test"
        derby = (
            "Derby postponed",
            self.url(host, "/sport/2026/11/30/derby-postponed"),
            "Roof damage.",
        )
        ferries = (
            "Storm stops ferries",
            self.url(host, "/news/2026/11/30/ferries-suspended"),
            "Fans travel by road.",
        )
        return self._rss(
            host, "Harbour Times Sport", [derby, ferries] if self.round < 3 else [ferries]
        )

    def gazette(self) -> Response:
        host = "www.northgazette.test"
        partner = self.url("www.harbourtimes.test", SYNDICATED) + (
            "?utm_source=northgazette&amp;utm_medium=partner"
        )
        return self._rss(
            host,
            "The North Gazette",
            [
                (
                    "Holiday rail works",
                    self.url(host, "/2026/11/30/rail-works"),
                    "Buses replace trains.",
                ),
                ("Harbour council approves budget", partner, self.gazette_teaser),
            ],
        )

    def valley_atom(self) -> Response:
        host = "news.valleypost.test"
        entries = "".join(
            f"<entry><title>{title}</title><id>{self.url(host, path)}</id>"
            f'<link rel="alternate" href="{self.url(host, path)}"/>'
            "<published>2026-11-30T05:00:00Z</published><updated>2026-11-30T05:00:00Z"
            f"</updated><summary>{title}.</summary></entry>"
            for (story_host, path), (title, _) in sorted(STORIES.items())
            if story_host == host
        )
        body = (
            '<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom">'
            f"<title>Valley Post</title><id>{self.url(host, '/')}</id>"
            f"<updated>2026-11-30T05:00:00Z</updated>{entries}</feed>"
        )
        return Response(body, content_type="application/atom+xml")

    def fjord_atom(self) -> Response:
        """Fjord Bay's feed, served by its CDN: round 2 edits the sea wall headline and
        bumps both entries' ``updated`` (claims); round 3 bumps the market's again."""
        wall = "Sea wall repairs begin" + ("" if self.round == 1 else " after storm damage")
        wall_updated = "05:00" if self.round == 1 else "06:30"
        market_updated = {1: "05:00", 2: "06:40"}.get(self.round, "07:40")
        entries = "".join(
            f"<entry><title>{title}</title><id>tag:fjordbay.test,2026:{path}</id>"
            f'<link rel="alternate" href="{self.url(FJORD, path)}"/>'
            f"<published>2026-11-30T05:00:00Z</published><updated>2026-11-30T{updated}:00Z"
            f"</updated><summary>{title}.</summary></entry>"
            for title, path, updated in (
                (wall, SEA_WALL, wall_updated),
                ("Fish market keeps winter hours", MARKET, market_updated),
            )
        )
        body = (
            '<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom">'
            f"<title>Fjord Bay</title><id>tag:fjordbay.test,2026:feed</id>"
            f"<updated>2026-11-30T05:00:00Z</updated>{entries}</feed>"
        )
        return Response(body, content_type="application/atom+xml")

    def island_json(self) -> Response:
        host = "www.islandradio.test"
        link = self.url(host, "/stories/storm-warning")
        feed = {
            "version": "https://jsonfeed.org/version/1.1",
            "title": "Island Radio",
            "home_page_url": self.url(host, "/"),
            "items": [
                {
                    "id": link,
                    "url": link,
                    "title": "Storm warning for the islands",
                    "summary": "Gusts of up to 110 km/h.",
                    "date_published": "2026-11-30T05:00:00Z",
                }
            ],
        }
        return Response(json.dumps(feed), content_type="application/feed+json")


FEEDS = [  # (slug, host, path)
    ("fjord-bay", FJORD_CDN, "/fjordbay/latest.atom"),
    ("harbour-news", "www.harbourtimes.test", "/rss/news.xml"),
    ("harbour-sport", "www.harbourtimes.test", "/rss/sport.xml"),
    ("island-radio", "www.islandradio.test", "/feed.json"),
    ("north-gazette", "www.northgazette.test", "/feed/"),
    ("valley-post", "news.valleypost.test", "/atom.xml"),
]


@pytest.fixture
def newsroom() -> Iterator[Newsroom]:
    server = HTTPServer(threaded=True)
    server.start()
    yield Newsroom(server)
    server.clear()
    server.stop()


def write_config(path: Path, newsroom: Newsroom, *, hourly: int = 120) -> Config:
    lines = ["feeds:"]
    for slug, host, feed_path in FEEDS:
        lines += [f"  - url: {newsroom.url(host, feed_path)}", f"    name: {slug}"]
        lines += [f"    slug: {slug}"]
    lines += [
        "settings:",
        "  allow_private_addresses: true",
        "  politeness:",
        "    min_host_interval: 0s",
        f"    max_requests_per_host_per_hour: {hourly}",
        "  fetch:",
        "    retries: 0",
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load_config(path, environ={})


def loopback(host: str) -> list[str]:
    """Every newsroom host name resolves to the loopback server."""
    return ["127.0.0.1"]


def ingest(config: Config, data: Path, *, round_: int, shard: Shard = WHOLE) -> None:
    now = T0 + timedelta(hours=round_ - 1)
    run_ingest(config, Archive(data), now=now, simulated=True, resolve=loopback, shard=shard)


def files(root: Path) -> dict[str, bytes]:
    """Every committed archive file below ``root`` by relative path (``.tmp/`` left out)."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".tmp" not in p.relative_to(root).parts
    }


def without_evidence_file(path: str, data: bytes) -> bytes:
    """A revision file without what names the run's WARC file: the file's name, and the
    hashes that cover it; any other file as it is."""
    if "/revisions/" not in path:
        return data
    record = json.loads(data)
    if isinstance(record["evidence"], dict):
        record["evidence"] = {**record["evidence"], "file": "<run>"}
    record["hash"] = record["previous"] = "<hash>"
    return json.dumps(record, sort_keys=True).encode()


def checks_entries(found: dict[str, bytes]) -> dict[str, Any]:
    """Every checks entry (document → its schedule and validators) of the partitions'
    checks files of ``found``, whoever wrote them (each document is in one writer's)."""
    entries: dict[str, Any] = {}
    for path, data in found.items():
        if re.fullmatch(r"documents/[0-9/]{10}/checks[^/]*\.json", path):
            documents = json.loads(data)["documents"]
            assert not set(documents) & set(entries)
            entries.update(documents)
    return entries


def index_entries(found: dict[str, bytes]) -> dict[str, str]:
    """Every index entry (document → partition) of the files of ``found``, whoever wrote
    them."""
    entries: dict[str, str] = {}
    for path, data in found.items():
        if path.startswith("index/"):
            entries.update(json.loads(data)["documents"])
    return entries


def requests_of(data: Path, name: str) -> list[dict[str, Any]]:
    record = json.loads((data / "state" / f"{name}.json").read_text(encoding="utf-8"))
    rows: list[dict[str, Any]] = record["requests"]
    return rows


# -- the partition (pure) ----------------------------------------------------------------


def documented_shard(url: str, count: int) -> int:
    """The documented formula (docs/github.md), written out independently of the code under test."""
    key = registrable_domain(urlsplit(url).hostname or "")
    return 1 + int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big") % count


def test_the_partition_is_the_documented_formula_and_stable_across_versions() -> None:
    for host, expected in HOSTS.items():
        url = f"https://{host}/any/path"
        assert shard_of(url, count=N) == documented_shard(url, N) == expected
    # pinned: a change here moves archives' feeds between shards; say so in CHANGELOG
    assert shard_of("https://www.bbc.co.uk/news/world-1", count=7) == documented_shard(
        "https://www.bbc.co.uk/news/world-1", 7
    )
    assert partition_key("https://news.bbc.co.uk/x") == "bbc.co.uk"


def test_every_host_of_one_site_lands_in_one_shard() -> None:
    urls = [
        "https://www.example.co.uk/news/a",
        "http://m.example.co.uk:8080/b?utm_source=x",
        "https://live.sport.example.co.uk/c",
        "https://EXAMPLE.co.uk/d",
    ]
    for count in (2, 3, 5, 17):
        assert len({shard_of(url, count=count) for url in urls}) == 1
    # an internationalised name keys the same in Unicode and in punycode
    assert partition_key("https://www.bücher.example/feed") == partition_key(
        "https://xn--bcher-kva.example/artikel/1"
    )


@given(url=st.text(max_size=80), count=st.integers(min_value=1, max_value=MAX_SHARDS))
def test_any_url_even_a_broken_one_has_exactly_one_owner(url: str, count: int) -> None:
    owners = [k for k in range(1, count + 1) if Shard(k, count).owns(url)]
    assert owners == [shard_of(url, count=count)]


@given(
    count=st.integers(min_value=1, max_value=MAX_SHARDS),
    data=st.data(),
    spaces=st.sampled_from(["", " "]),
)
def test_every_valid_spec_parses_to_itself(count: int, data: st.DataObject, spaces: str) -> None:
    index = data.draw(st.integers(min_value=1, max_value=count))
    shard = parse_shard(f"{spaces}{index}{spaces}/{spaces}{count}{spaces}")
    assert (shard.index, shard.count, str(shard)) == (index, count, f"{index}/{count}")
    assert shard.whole is (count == 1)


@given(text=st.text(max_size=30))
def test_a_bad_spec_is_an_invalid_shard_error_never_another_exception(text: str) -> None:
    outcome: Shard | InvalidShardError
    try:
        outcome = parse_shard(text)
    except InvalidShardError as exc:
        outcome = exc
    if isinstance(outcome, InvalidShardError):
        assert outcome.value == text
    else:
        assert 1 <= outcome.index <= outcome.count <= MAX_SHARDS


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("4/3", "K must be from 1 to 3"),
        ("0/3", "K must be from 1 to 3"),
        ("1/0", "N must be at least 1"),
        ("2", "expected K/N"),
        ("1/3/5", "expected K/N"),
        ("-1/3", "expected K/N"),
        ("a/b", "expected K/N"),
        ("1/257", f"N must be at most {MAX_SHARDS}"),
        ("", "expected K/N"),
    ],
)
def test_bad_specs_are_refused_with_the_reason(text: str, reason: str) -> None:
    with pytest.raises(InvalidShardError, match=re.escape(reason)) as caught:
        parse_shard(text)
    assert caught.value.value == text


def test_ledger_names_are_one_per_shard_and_the_unsharded_one() -> None:
    assert WHOLE.ledger_name == parse_shard("1/1").ledger_name == "ledger"
    assert parse_shard("2/3").ledger_name == "ledger-shard-2-of-3"
    names = {Shard(k, n).ledger_name for n in range(1, 6) for k in range(1, n + 1)}
    assert len(names) == 1 + 2 + 3 + 4 + 5  # every shard of every N has a file of its own
    assert all(is_ledger_name(name) for name in names)
    assert not any(map(is_ledger_name, ["ledgers", "ledger-shard-0-of-3", "demo", "ledger-2"]))


# -- the command line --------------------------------------------------------------------


@pytest.mark.parametrize("command", ["ingest", "run"])
@pytest.mark.parametrize("value", ["4/3", "0/2", "x", "1/0", "3"])
def test_a_bad_shard_option_exits_2_with_a_clear_message(
    command: str, value: str, tmp_path: Path
) -> None:
    result = CliRunner().invoke(cli, [command, "--shard", value, "--data", str(tmp_path / "d")])
    assert result.exit_code == 2
    assert "Invalid value for '--shard'" in result.stderr
    assert f"'{value}'" in result.stderr
    assert "Traceback" not in result.output + result.stderr
    assert not (tmp_path / "d").exists()  # refused before anything was written


def test_every_shard_polls_every_feed_and_keeps_only_its_own_documents_on_the_command_line(
    httpserver: HTTPServer, tmp_path: Path
) -> None:
    # the command line has no resolver: this feed lives on 127.0.0.1 itself
    feed = httpserver.url_for("/feed/")
    local = httpserver.url_for("/2026/11/30/rail-works")
    # a partner's story on another site, which hashes to the other shard of two
    partner = "http://www.fjordbay.test/2026/11/30/sea-wall-repairs"
    items = "".join(
        f"<item><title>{title}</title><link>{link}</link><guid>{link}</guid></item>"
        for title, link in (("Holiday rail works", local), ("Sea wall repairs begin", partner))
    )
    httpserver.expect_request("/feed/").respond_with_data(
        f'<?xml version="1.0"?><rss version="2.0"><channel><title>Local Gazette</title>'
        f"<link>{httpserver.url_for('/')}</link><description>News</description>{items}"
        "</channel></rss>",
        content_type="application/rss+xml",
    )
    config = tmp_path / "feeds.yaml"
    config.write_text(
        f"feeds:\n  - url: {feed}\n    name: Local Gazette\n"
        "settings:\n  allow_private_addresses: true\n  politeness:\n"
        "    min_host_interval: 0s\n",
        encoding="utf-8",
    )
    owner = shard_of(feed, count=2)
    docs = {document_id(canonical_url(url)): shard_of(url, count=2) for url in (local, partner)}
    assert shard_of(partner, count=2) != owner  # the scenario rests on this
    data = tmp_path / "data"
    ran: set[int] = set()
    for k in (3 - owner, owner):  # the other shard first: the feed record is not yet there
        args = ["ingest", "--config", str(config), "--data", str(data), "--feeds-only"]
        result = CliRunner().invoke(
            cli, [*args, "--now", "2026-11-30T06:00:00Z", "--shard", f"{k}/2"]
        )
        assert result.exit_code == 0, result.output
        assert result.stdout.startswith(f"shard {k}/2: feeds: 1 polled;")
        ran.add(k)
        archive = Archive(data)
        assert archive.feed_slugs() == ([] if k != owner else ["local-gazette"])
        assert set(archive.document_ids()) == {doc for doc, s in docs.items() if s in ran}
    assert set(Archive(data).document_ids()) == set(docs)  # each created by its own shard
    for k in (1, 2):  # each shard asked for the feed once, and for nothing else
        assert [r["url"] for r in requests_of(data, f"ledger-shard-{k}-of-2")] == [feed]


# -- N shards together make the archive one run makes -------------------------------------


def owners_of_changes(clone: Path, feeds: dict[str, str]) -> set[int]:
    """The shards (of N) that own the files this clone changed since its last commit:
    a document by its canonical URL, a feed by its configured URL, a ledger by its name."""
    owners = set()
    for line in git(clone, "status", "--porcelain", "-uall", "data").splitlines():
        path = Path(line[3:]).relative_to("data")
        if path.parts[0] == "documents" and len(path.parts) == 5:  # <YYYY>/<MM>/<DD>/checks…
            match = re.fullmatch(rf"checks-shard-([0-9]+)-of-{N}\.json", path.name)
            owners.add(int(match[1]) if match else 0)
        elif path.parts[0] == "documents":  # documents/<YYYY>/<MM>/<DD>/<bb>/<id>/...
            home = clone / "data" / Path(*path.parts[:6])
            record = json.loads((home / "document.json").read_text(encoding="utf-8"))
            owners.add(shard_of(record["url"], count=N))
        elif path.parts[0] in ("feeds", "departed"):  # a feed's record and day files
            owners.add(shard_of(feeds[path.stem], count=N))
        else:  # a shard's own ledger, partition list (and its parts) and index files
            name = part_head(path.stem) or path.stem  # a list's part: its list's
            match = re.fullmatch(
                rf"(?:ledger-|partitions-|entries-|sealed-[0-9]+-)shard-([0-9]+)-of-{N}"
                r"(?:-[0-9a-f]{3})?",  # an index file ends with its shard's key
                name,
            )
            owners.add(int(match[1]) if match and path.parts[0] in ("state", "index") else 0)
    return owners


def push_with_rebase(clone: Path) -> None:
    """What each matrix job does after its ingest: commit data/, rebase onto the others'
    pushes, push. ``check=True`` in ``git``: a conflict fails the test."""
    git(clone, "add", "-A", "data")
    git(clone, "commit", "-q", "--allow-empty", "-m", f"Ingest ({clone.name})")
    git(clone, "pull", "-q", "--rebase", "origin", "main")
    git(clone, "push", "-q", "origin", "HEAD:main")


def trust_of(data: Path, slug: str) -> dict[str, Any]:
    record = json.loads((data / "feeds" / f"{slug}.json").read_text(encoding="utf-8"))
    trust: dict[str, Any] = record["trust"]
    return trust


def requests_since(data: Path, name: str, since: datetime) -> Counter[tuple[str, int]]:
    """(url, status) of the requests a ledger holds from ``since`` on (one round's)."""
    return Counter(
        (r["url"], r["status"])
        for r in requests_of(data, name)
        if datetime.fromisoformat(r["at"].replace("Z", "+00:00")) >= since
    )


ROUNDS = (1, 2, 3)


def is_part(path: str) -> bool:
    """Whether ``path`` (below ``data/``) is a part of an observed list."""
    return part_head(path) is not None


def part_head(path: str) -> str | None:
    return head_of_part(path.removeprefix("state/").removesuffix(".json"))


def test_three_shards_merged_by_git_make_the_archive_one_run_makes(
    newsroom: Newsroom, tmp_path: Path
) -> None:
    config = write_config(tmp_path / "feeds.yaml", newsroom)
    for host, expected in HOSTS.items():  # the scenario rests on these
        assert shard_of(newsroom.url(host, "/"), count=N) == expected
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    seed = tmp_path / "seed"
    git(tmp_path, "clone", "-q", str(origin), str(seed))
    (seed / ".gitignore").write_text("/data/.tmp/\n", encoding="utf-8")
    git(seed, "add", ".gitignore")
    git(seed, "commit", "-q", "-m", "An empty archive")
    git(seed, "push", "-q", "origin", "HEAD:main")
    start = git(seed, "rev-parse", "HEAD").strip()

    unsharded = tmp_path / "unsharded" / "data"
    clones = {k: tmp_path / f"shard-{k}" for k in range(1, N + 1)}
    for clone in clones.values():
        git(tmp_path, "clone", "-q", str(origin), str(clone))
    merged = tmp_path / "merged"
    git(tmp_path, "clone", "-q", str(origin), str(merged))

    def doc(host: str, path: str) -> str:
        return document_id(canonical_url(newsroom.url(host, path)))

    cross = doc("www.harbourtimes.test", SYNDICATED)
    wall, market = doc(FJORD, SEA_WALL), doc(FJORD, MARKET)
    feed_urls = {feed.slug: feed.url for feed in config.feeds}
    for round_ in ROUNDS:
        newsroom.round = round_
        ingest(config, unsharded, round_=round_)
        for clone in clones.values():  # like a matrix: every shard starts from one commit
            git(clone, "pull", "-q", "--rebase", "origin", "main")
        for k, clone in clones.items():
            ingest(config, clone / "data", round_=round_, shard=Shard(k, N))
            assert owners_of_changes(clone, feed_urls) == {k}  # disjoint write sets
        for clone in clones.values():  # one after another, each rebasing onto the others
            push_with_rebase(clone)
        git(merged, "pull", "-q", "origin", "main")

        a, b = files(unsharded), files(merged / "data")
        state_a = {p for p in a if p.startswith(("state/", "index/")) or "/checks" in p}
        state_b = {p for p in b if p.startswith(("state/", "index/")) or "/checks" in p}
        # by design: the one ledger, partition list and index file of each index shard (and
        # checks file of each partition) of the unsharded run are one per ingest shard
        heads_a = {p for p in state_a if p.startswith("state/") and not is_part(p)}
        heads_b = {p for p in state_b if p.startswith("state/") and not is_part(p)}
        assert heads_a == {"state/ledger.json", "state/partitions.json"}
        assert heads_b == {
            f"state/{name}-shard-{k}-of-{N}.json"
            for k in clones
            for name in ("ledger", "partitions")
        }
        # the parts of each observed list (one per partition), each of its own writer's list
        assert {part_head(p) for p in state_a if is_part(p)} <= {"partitions"}
        assert {part_head(p) for p in state_b if is_part(p)} <= {
            f"partitions-shard-{k}-of-{N}" for k in clones
        }
        assert index_entries(a) == index_entries(b)
        assert checks_entries(a) == checks_entries(b)
        assert set(a) - state_a == set(b) - state_b
        # documents, revisions, events: byte for byte, cross-site ones included, but for
        # the revisions' evidence file, which is each shard's own (and the hashes over it)
        records = {p for p in a if p.startswith("feeds/")}
        same = set(a) - state_a - records
        assert [
            p
            for p in sorted(same)
            if without_evidence_file(p, a[p]) != without_evidence_file(p, b[p])
        ] == []
        evidence_files = {json.loads(b[p])["evidence"]["file"] for p in same if "/revisions/" in p}
        assert {name.rsplit("-shard-", 1)[1] for name in evidence_files} == {
            f"{k}-of-{N}.warc.gz" for k in clones
        }
        # feed records: byte for byte but for `trust`, which only the checks of the feed's
        # own shard's documents move (docs/github.md); Fjord Bay's documents are all on shard 3
        for path in sorted(records):
            record_a, record_b = json.loads(a[path]), json.loads(b[path])
            trust_a, trust_b = record_a.pop("trust"), record_b.pop("trust")
            assert record_a == record_b, path
            if path != "feeds/fjord-bay.json":
                assert trust_a == trust_b, path
        assert trust_of(merged / "data", "fjord-bay") == {
            "unproductive_claims": 0,
            "last_probe_at": None,
        }
        # unsharded, the market's unproductive claims count (rounds 2 and 3); in round 2
        # the sea wall's productive claim resets the count if its check comes later
        expected = {1: 0, 2: int(wall < market), 3: 1 + int(wall < market)}[round_]
        assert trust_of(unsharded, "fjord-bay")["unproductive_claims"] == expected

        # the same requests: each article's in the ledger of the shard that owns its
        # host, and every feed's poll in every shard's ledger (N polls instead of one)
        since = T0 + timedelta(hours=round_ - 1)
        made_a = requests_since(unsharded, "ledger", since)
        polls_a = Counter({key: n for key, n in made_a.items() if key[0] in feed_urls.values()})
        assert len(polls_a) == len(FEEDS)
        made_b: Counter[tuple[str, int]] = Counter()
        for k in clones:
            rows = requests_since(merged / "data", f"ledger-shard-{k}-of-{N}", since)
            polls_b = Counter({key: n for key, n in rows.items() if key in polls_a})
            assert polls_b == polls_a
            pages = rows - polls_b
            assert {shard_of(url, count=N) for url, _ in pages} <= {k}
            made_b.update(pages)
        assert made_b == made_a - polls_a

        assert verify_archive(merged / "data").problems == ()
        verified = CliRunner().invoke(
            cli, ["verify", "--data", str(merged / "data"), "--since", start]
        )
        assert verified.exit_code == 0, verified.output

    # what the rounds recorded, so the comparison above compared something
    archive = Archive(merged / "data")
    assert len(archive.document_ids()) == 9
    record = json.loads(archive.document_file(cross).read_text(encoding="utf-8"))
    assert record["feeds"] == ["harbour-news", "north-gazette"]  # a link from each shard's feed
    assert len(record["links"]) == 2
    assert [r.number for r in archive.revisions(cross)] == [1, 2]
    kinds = Counter(e.kind for doc in archive.document_ids() for e in archive.events(doc))
    assert kinds == {"feed-edit": 2, "gone": 1}
    [edit] = archive.events(wall)  # the CDN-hosted feed's headline edit, on shard 3's document
    assert (edit.kind, edit.detail["feed"], edit.detail["fields"]) == (
        "feed-edit",
        "fjord-bay",
        ["title", "summary"],
    )
    # the revision records the claim of the feed as polled in that very run
    second = archive.revisions(wall)[1]
    assert second.observation.signals == {
        "feed_updated": {"feed": "fjord-bay", "value": "2026-11-30T06:30:00Z"}
    }
    assert len(archive.revisions(market)) == 1
    storm = doc("www.islandradio.test", "/stories/storm-warning")
    assert len(archive.revisions(storm)) == 2
    assert len(git(merged, "log", "--format=%H").split()) == 1 + len(ROUNDS) * N
    # the entry that left a feed in round 3, in that feed's day file, written by its shard
    left = [p for p in files(merged / "data") if p.startswith("departed/")]
    assert left == ["departed/2026/11/30/harbour-sport.json"]


def test_another_shards_feed_edit_goes_to_the_documents_shard_and_the_record_to_the_feeds(
    newsroom: Newsroom, tmp_path: Path
) -> None:
    config = write_config(tmp_path / "feeds.yaml", newsroom)
    committed = tmp_path / "committed"
    for k in (2, 3):  # disjoint write sets: one after another on one folder is a merge
        ingest(config, committed, round_=1, shard=Shard(k, N))
    cross = document_id(canonical_url(newsroom.url("www.harbourtimes.test", SYNDICATED)))
    folder, gazette = f"documents/{cross}/", "feeds/north-gazette.json"
    before = files(committed)
    shards = {k: tmp_path / f"shard-{k}" for k in (2, 3)}
    for path in [*shards.values(), tmp_path / "unsharded"]:
        shutil.copytree(committed, path)

    newsroom.round = 2
    newsroom.gazette_teaser = "Councillors argued until 2 am, our partners report."
    for k, data in shards.items():
        ingest(config, data, round_=2, shard=Shard(k, N))
    ingest(config, tmp_path / "unsharded", round_=2)
    owner, feeder = files(shards[2]), files(shards[3])
    unsharded = files(tmp_path / "unsharded")

    # the document's shard records the Gazette's teaser edit as an unsharded run does ...
    events = sorted(p for p in owner if p.startswith(folder + "events/"))
    assert events == sorted(p for p in unsharded if p.startswith(folder + "events/"))
    assert [owner[p] for p in events] == [unsharded[p] for p in events]
    [event] = Archive(shards[2]).events(cross)
    assert (event.kind, event.detail["feed"]) == ("feed-edit", "north-gazette")
    # ... but leaves the Gazette's record to its shard, which leaves the document alone
    assert owner[gazette] == before[gazette]
    assert feeder[gazette] == unsharded[gazette] != before[gazette]
    assert {p: v for p, v in feeder.items() if p.startswith(folder)} == {
        p: v for p, v in before.items() if p.startswith(folder)
    }

    # the Gazette's shard failed to push: the next run compares with the same old record,
    # and the edit the document already has is not recorded a second time
    ingest(config, shards[2], round_=3, shard=Shard(2, N))
    assert [e.kind for e in Archive(shards[2]).events(cross)] == ["feed-edit"]


def test_a_shard_respects_the_back_off_in_another_shards_feed_record(
    newsroom: Newsroom, tmp_path: Path
) -> None:
    config = write_config(tmp_path / "feeds.yaml", newsroom)
    data = tmp_path / "data"
    ingest(config, data, round_=1, shard=Shard(3, N))  # the Gazette's and Valley's shard
    archive = Archive(data)
    record = archive.read_feed("north-gazette")
    assert record is not None
    health = dict(record["health"])  # type: ignore[arg-type]
    health.update(failures=3, last_polled_at="2026-11-30T06:30:00Z", last_error="HTTP 503")
    archive.write_feed("north-gazette", {**record, "health": health})
    gazette_feed = newsroom.url("www.northgazette.test", "/feed/")
    valley_feed = newsroom.url("news.valleypost.test", "/atom.xml")

    report = run_ingest(
        config,
        archive,
        now=T0 + timedelta(hours=1),
        simulated=True,
        resolve=loopback,
        shard=Shard(2, N),
        feeds_only=True,
    )
    asked = [r["url"] for r in requests_of(data, "ledger-shard-2-of-3")]
    assert gazette_feed not in asked  # backing off until 06:30 + 40 min, as its shard would
    assert valley_feed in asked  # another shard's feed that is not failing is polled
    assert report.feeds["skipped"] == 1


def test_a_shard_is_held_to_the_hourly_budget_other_ledgers_spent(
    newsroom: Newsroom, tmp_path: Path
) -> None:
    config = write_config(tmp_path / "feeds.yaml", newsroom, hourly=3)
    harbour = "www.harbourtimes.test"
    fresh = tmp_path / "fresh"
    ingest(config, fresh, round_=1, shard=Shard(2, N))
    assert any(r["host"] == harbour for r in requests_of(fresh, "ledger-shard-2-of-3"))

    data = tmp_path / "data"
    spent = [
        LedgerEntry(T0 - timedelta(minutes=m), newsroom.url(harbour, "/"), harbour, 200, 10, 0.1, 0)
        for m in (30, 20, 10)
    ]
    earlier = Archive(data)  # an unsharded run made them before the archive was split
    earlier.write_state("ledger", {"requests": [e.to_record() for e in spent], "daily": {}})
    unsharded_ledger = (data / "state" / "ledger.json").read_bytes()
    ingest(config, data, round_=1, shard=Shard(2, N))
    assert [r for r in requests_of(data, "ledger-shard-2-of-3") if r["host"] == harbour] == []
    assert (data / "state" / "ledger.json").read_bytes() == unsharded_ledger


# -- the matrix workflow -----------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
SHARDED = ROOT / ".github" / "workflows" / "update-sharded.yml"


def test_the_sharded_workflow_is_off_by_default_and_its_matrix_matches_its_n() -> None:
    workflow = yaml.safe_load(SHARDED.read_text(encoding="utf-8"))
    assert set(workflow[True]) == {"workflow_dispatch"}  # YAML reads the key `on` as True
    update = yaml.safe_load((SHARDED.parent / "update.yml").read_text(encoding="utf-8"))
    # one concurrency group with update.yml: never two writers of the archive at once
    assert workflow["concurrency"]["group"] == update["concurrency"]["group"].replace(
        "${{ github.workflow }}", update["name"]
    )
    assert workflow["concurrency"]["cancel-in-progress"] is False
    ingest = workflow["jobs"]["ingest"]
    shards = ingest["strategy"]["matrix"]["shard"]
    steps = {step.get("name", step.get("uses")): step for step in ingest["steps"]}
    run_step = steps["Ingest this shard's feeds and articles"]
    assert run_step["env"]["SHARD"] == f"${{{{ matrix.shard }}}}/{len(shards)}"
    assert shards == list(range(1, len(shards) + 1))
    scripts = "\n".join(step.get("run", "") for step in ingest["steps"])
    assert "quietedit verify --since" in scripts and ".github/scripts/push-data.sh" in scripts
    push = (ROOT / ".github" / "scripts" / "push-data.sh").read_text(encoding="utf-8")
    assert "git pull --rebase" in push
    build = workflow["jobs"]["build"]
    # after every shard, and after the one capture job (which itself follows the shards)
    assert build["needs"] == ["ingest", "capture"]
    assert workflow["jobs"]["capture"]["needs"] == "ingest"
    checkout = build["steps"][0]
    assert checkout["with"]["ref"] == "${{ github.ref }}"  # the head after every push
    assert workflow["jobs"]["deploy"]["needs"] == "build"


def test_the_docs_link_the_shipped_sharded_workflow_and_state_the_formula() -> None:
    page = (ROOT / "docs" / "github.md").read_text(encoding="utf-8")
    assert "](../.github/workflows/update-sharded.yml)" in page and SHARDED.is_file()
    formula = 'int.from_bytes(sha256(registrable_domain(host).encode("utf-8")).digest()[:8], "big")'
    assert f"shard = 1 + {formula} % N" in page  # what documented_shard() computes
