"""The SSRF guard in action: on by default, checking the address actually connected to."""

from __future__ import annotations

import asyncio
import socket
import ssl

import pytest
from pytest_httpserver import HTTPServer

from quietedit.errors import BlockedURLError, NetworkError, UnsupportedURLError
from quietedit.fetch import check_public_url, fetch_document
from tests.fetch.conftest import NEWS, Resolver, recording_sleep, run

FEED = b"<rss version='2.0'><channel/></rss>"


def test_the_default_guard_refuses_loopback(server: HTTPServer) -> None:
    server.expect_request("/feed.xml").respond_with_data(FEED)
    with pytest.raises(BlockedURLError, match="loopback"):
        run(fetch_document(server.url_for("/feed.xml"), retries=3))
    assert not server.log


@pytest.mark.parametrize(
    "host", ["0x7f.1", "2130706433", "0177.0.0.1", "127.1", "127.0.0.1.", "[::ffff:127.0.0.1]",
             "localhost", "LocalHost."],
)  # fmt: skip
def test_the_default_guard_refuses_loopback_in_every_notation(
    server: HTTPServer, port: int, resolver: Resolver, host: str
) -> None:
    server.expect_request("/feed.xml").respond_with_data(FEED)
    with pytest.raises((BlockedURLError, UnsupportedURLError)):
        run(fetch_document(f"http://{host}:{port}/feed.xml", resolve=resolver, retries=3))
    assert not server.log and not resolver.lookups


@pytest.mark.parametrize("host", ["0x7f.1", "2130706433", "127.1", "127.0.0.1."])
def test_an_odd_notation_connects_to_the_address_it_spells_without_dns(
    server: HTTPServer, port: int, resolver: Resolver, host: str
) -> None:
    server.expect_request("/feed.xml").respond_with_data(FEED)
    document = run(
        fetch_document(f"http://{host}:{port}/feed.xml", resolve=resolver, allow_private=True)
    )
    assert document.body == FEED and not resolver.lookups


def test_a_name_resolving_to_loopback_is_refused_when_connecting(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    server.expect_request("/feed.xml").respond_with_data(FEED)
    with pytest.raises(BlockedURLError, match=r"news\.example\.test.*127\.0\.0\.1.*loopback"):
        run(fetch_document(f"http://{NEWS}:{port}/feed.xml", resolve=resolver, retries=3))
    assert resolver.lookups == [NEWS]  # refused once, not retried
    assert not server.log


def test_relaxing_the_guard_reaches_loopback_under_the_host_name(
    server: HTTPServer, port: int, resolver: Resolver
) -> None:
    server.expect_request("/feed.xml").respond_with_data(FEED)
    document = run(
        fetch_document(f"http://{NEWS}:{port}/feed.xml", resolve=resolver, allow_private=True)
    )
    assert document.body == FEED
    ((request, _),) = server.log
    assert request.headers["Host"] == f"{NEWS}:{port}"  # connected to 127.0.0.1, asked for NEWS


def test_every_answer_is_checked_so_a_mixed_name_is_refused(server: HTTPServer, port: int) -> None:
    # With loopback allowed, the first answer would connect; the metadata address in the
    # second makes the name unusable.
    resolver = Resolver({"mixed.example.test": ["127.0.0.1", "169.254.169.254"]})
    server.expect_request("/feed.xml").respond_with_data(FEED)
    with pytest.raises(BlockedURLError, match=r"169\.254\.169\.254"):
        run(
            fetch_document(
                f"http://mixed.example.test:{port}/feed.xml", resolve=resolver, allow_private=True
            )
        )
    assert not server.log


def test_dns_rebinding_after_a_check_cannot_steer_the_connection(
    server: HTTPServer, port: int
) -> None:
    """A validate hook's lookup saw a harmless answer; the connection looks up again, checks
    that answer, and refuses it: the address connected to is the address checked."""
    answers = iter([["127.0.0.1"], ["169.254.169.254"], ["169.254.169.254"]])
    lookups: list[str] = []

    def rebinding(host: str) -> list[str]:
        lookups.append(host)
        return next(answers)

    def validate(url: str) -> None:
        check_public_url(url, resolve=rebinding, allow_private=True)

    server.expect_request("/feed.xml").respond_with_data(FEED)
    with pytest.raises(BlockedURLError, match=r"169\.254\.169\.254"):
        run(
            fetch_document(
                f"http://rebind.example.test:{port}/feed.xml",
                validate=validate,
                resolve=rebinding,
                allow_private=True,
                sleep=recording_sleep([]),
            )
        )
    assert len(lookups) == 2 and not server.log


def test_a_redirect_to_a_name_resolving_to_a_blocked_address_is_refused_when_connecting(
    server: HTTPServer, port: int
) -> None:
    """Every hop's new connection is checked: the name passes the URL check (no DNS), its
    answer is refused when the guard's backend connects, and nothing reaches it."""
    resolver = Resolver({"meta.example.test": ["169.254.169.254"]})
    server.expect_request("/story").respond_with_data(
        "", status=302, headers={"Location": f"http://meta.example.test:{port}/latest/"}
    )
    with pytest.raises(BlockedURLError, match=r"meta\.example\.test.*169\.254\.169\.254"):
        run(
            fetch_document(
                f"http://{NEWS}:{port}/story", resolve=resolver, allow_private=True, retries=2
            )
        )
    assert resolver.lookups == [NEWS, "meta.example.test"]  # refused once, not retried
    assert len(server.log) == 1


def test_async_resolvers_are_awaited(server: HTTPServer, port: int) -> None:
    async def resolve(host: str) -> list[str]:
        await asyncio.sleep(0)
        return ["127.0.0.1"]

    server.expect_request("/feed.xml").respond_with_data(FEED)
    document = run(
        fetch_document(f"http://{NEWS}:{port}/feed.xml", resolve=resolve, allow_private=True)
    )
    assert document.body == FEED


def test_tls_is_negotiated_for_the_host_name_not_the_address(resolver: Resolver) -> None:
    """SNI carries the name: httpcore calls start_tls(server_hostname=<URL host>) on the
    stream the guard's backend opened to the checked address."""
    seen: dict[str, object] = {}

    async def scenario() -> None:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)  # no certificate: the handshake fails

        def record_sni(_sock: object, name: str | None, _context: object) -> None:
            seen["sni"] = name

        context.sni_callback = record_sni

        async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writer.close()

        listener = await asyncio.start_server(accept, "127.0.0.1", 0, ssl=context)
        port = listener.sockets[0].getsockname()[1]
        try:
            with pytest.raises(NetworkError):
                await fetch_document(
                    f"https://{NEWS}:{port}/feed.xml",
                    resolve=resolver,
                    allow_private=True,
                    retries=0,
                )
        finally:
            listener.close()
            await listener.wait_closed()

    loop = asyncio.new_event_loop()
    loop.set_exception_handler(lambda _loop, _context: None)  # the failed handshake's report
    try:
        loop.run_until_complete(scenario())
    finally:
        loop.close()
    assert seen["sni"] == NEWS
    assert resolver.lookups == [NEWS]


# ---- check_public_url: the same guard as one call ------------------------------------------


def public(host: str) -> list[str]:
    table = {
        "news.example.org": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
        "intranet.example.org": ["10.20.30.40"],
        "mixed.example.org": ["93.184.215.14", "192.168.0.10"],
    }
    if host not in table:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    return table[host]


def test_check_public_url_accepts_a_name_with_only_public_answers() -> None:
    check_public_url("https://news.example.org/feed.xml", resolve=public)
    check_public_url("http://93.184.215.14/feed.xml", resolve=public)


@pytest.mark.parametrize(
    ("url", "fragment"),
    [
        ("https://intranet.example.org/", "10.20.30.40"),
        ("https://mixed.example.org/", "192.168.0.10"),
        ("http://127.0.0.1/", "loopback"),
        ("http://[::1]:8080/", "loopback"),
        ("http://0x7f.1/", "loopback"),
        ("http://2130706433/", "loopback"),
        ("http://localhost:8000/", "loopback"),
        ("http://169.254.169.254/latest/meta-data/", "link-local"),
    ],
)
def test_check_public_url_refuses_internal_targets(url: str, fragment: str) -> None:
    with pytest.raises(BlockedURLError, match=fragment.replace(".", r"\.")):
        check_public_url(url, resolve=public)


def test_check_public_url_reports_an_unknown_name_as_a_network_error() -> None:
    with pytest.raises(NetworkError, match=r"cannot resolve 'nowhere\.example\.org'"):
        check_public_url("https://nowhere.example.org/", resolve=public)


@pytest.mark.parametrize(
    "url", ["ftp://news.example.org/", "https:///feed", "https://u:p@news.example.org/", "x"]
)
def test_check_public_url_refuses_unsupported_urls(url: str) -> None:
    with pytest.raises(UnsupportedURLError):
        check_public_url(url, resolve=public)


def test_check_public_url_lifts_private_ranges_only_when_asked() -> None:
    check_public_url("https://intranet.example.org/", resolve=public, allow_private=True)
    with pytest.raises(BlockedURLError):
        check_public_url("http://169.254.169.254/", resolve=public, allow_private=True)
