"""Request headers (pure): defaults, caller overrides, validators, credentials and origins."""

from __future__ import annotations

import pytest

from quietedit.errors import InvalidHeaderError
from quietedit.fetch import discovered_url_headers
from quietedit.fetch.headers import (
    DEFAULT_ACCEPT,
    caller_headers,
    origin_of,
    request_headers,
    same_origin,
)

URL = "https://news.example.org/feed.xml"
UA = "quietedit/0.1.0 (+https://github.com/quietedit/quietedit)"


def build(caller: dict[str, str], *, credentials: bool = True, **validators: str) -> dict[str, str]:
    return dict(
        request_headers(
            caller_headers(caller, url=URL),
            user_agent=UA,
            accept_encoding="gzip, deflate",
            credentials=credentials,
            **validators,
        )
    )


def test_defaults_identify_us_and_prefer_feeds() -> None:
    headers = build({})
    assert headers == {
        "user-agent": UA,
        "accept": DEFAULT_ACCEPT,
        "accept-encoding": "gzip, deflate",
    }


def test_caller_headers_are_lowercased_and_override_the_defaults() -> None:
    headers = build({"User-Agent": "Desk/1", "ACCEPT": "text/html", "X-Edition": " de "})
    assert headers["user-agent"] == "Desk/1" and headers["accept"] == "text/html"
    assert headers["x-edition"] == "de"


def test_the_cache_owns_the_conditional_headers() -> None:
    forged = {"If-None-Match": '"forged"', "if-modified-since": "yesterday"}
    assert "if-none-match" not in build(forged)
    headers = build(forged, etag='"v2"', last_modified="Mon, 30 Nov 2026 06:00:00 GMT")
    assert headers["if-none-match"] == '"v2"'
    assert headers["if-modified-since"] == "Mon, 30 Nov 2026 06:00:00 GMT"


def test_credentials_are_left_out_when_not_allowed() -> None:
    caller = {"Authorization": "Bearer t", "Proxy-Authorization": "Basic x", "Cookie": "s=1",
              "X-Api-Version": "2"}  # fmt: skip
    assert set(build(caller, credentials=False)) == {
        "user-agent", "accept", "accept-encoding", "x-api-version",
    }  # fmt: skip
    assert build(caller)["authorization"] == "Bearer t"


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("X Bad", "1", "not an HTTP token"),
        ("", "1", "not an HTTP token"),
        ("X-A", "a\r\nX-Evil: 1", "control character"),
        ("X-A", "a\x00", "control character"),
        ("X-A", "café", "not ASCII"),
        ("Host", "evil.example", "set by quietedit"),
        ("Content-Length", "0", "set by quietedit"),
        ("Accept-Encoding", "zstd", "set by quietedit"),
    ],
)
def test_bad_caller_headers_are_refused_with_the_header_named(
    name: str, value: str, message: str
) -> None:
    with pytest.raises(InvalidHeaderError, match=message) as caught:
        caller_headers({name: value}, url=URL)
    assert caught.value.url == URL


def test_pairs_are_accepted_as_well_as_mappings() -> None:
    assert caller_headers([("X-A", "1"), ("x-a", "2")], url=URL) == (("x-a", "2"),)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("https://news.example.org/a", "https://NEWS.example.org:443/b?x", True),
        ("http://news.example.org/a", "http://news.example.org:80/", True),
        ("https://news.example.org/", "http://news.example.org/", False),  # scheme
        ("https://news.example.org/", "https://cdn.example.org/", False),  # host
        ("https://news.example.org/", "https://news.example.org:8443/", False),  # port
        ("https://news.example.org/", "https://example.org/", False),  # parent domain
    ],
)
def test_origins_compare_scheme_host_and_port(a: str, b: str, same: bool) -> None:
    assert same_origin(a, b) is same


def test_origin_fills_in_the_default_port() -> None:
    assert origin_of("HTTPS://News.Example.org/x") == ("https", "news.example.org", 443)


def test_a_url_discovered_on_another_origin_is_fetched_without_credentials() -> None:
    headers = {"Authorization": "Bearer t", "Cookie": "s=1", "Accept-Language": "de"}
    page = "https://news.example.org/politik/"
    assert discovered_url_headers(
        headers, found_on=page, url="https://feeds.example.net/p.xml"
    ) == {"Accept-Language": "de"}
    assert (
        discovered_url_headers(headers, found_on=page, url="https://news.example.org/p.xml")
        == headers
    )
    assert discovered_url_headers(None, found_on=page, url="https://x.example/") == {}
