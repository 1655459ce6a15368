"""The SSRF guard's address table and host notations (pure)."""

from __future__ import annotations

import contextlib
import ipaddress

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quietedit.fetch.addresses import (
    IPV4_SPECIAL,
    IPV6_SPECIAL,
    block_reason,
    checked_addresses,
    classify_address,
    host_block_reason,
    parse_host_address,
)


def category(text: str) -> str | None:
    verdict = classify_address(ipaddress.ip_address(text))
    return None if verdict is None else verdict.category


@pytest.mark.parametrize(
    ("address", "expected"),
    [
        ("127.0.0.1", "loopback"),
        ("127.255.255.254", "loopback"),
        ("10.1.2.3", "private"),
        ("172.16.0.1", "private"),
        ("172.31.255.255", "private"),
        ("192.168.1.1", "private"),
        ("169.254.169.254", "link-local"),
        ("100.64.0.1", "shared"),
        ("100.127.255.255", "shared"),
        ("224.0.0.251", "multicast"),
        ("239.255.255.250", "multicast"),
        ("233.252.0.7", "documentation"),
        ("240.0.0.1", "reserved"),
        ("255.255.255.255", "reserved"),
        ("192.0.0.9", "reserved"),  # misread as global by Python 3.11.7's is_global
        ("192.88.99.1", "reserved"),
        ("192.0.2.10", "documentation"),
        ("198.51.100.7", "documentation"),
        ("203.0.113.99", "documentation"),
        ("198.18.0.1", "benchmarking"),
        ("198.19.255.255", "benchmarking"),
        ("0.0.0.0", "unspecified"),  # noqa: S104 - an address to classify, not a bind
        ("0.1.2.3", "unspecified"),
        ("::", "unspecified"),
        ("::1", "loopback"),
        ("fc00::1", "private"),
        ("fd12:3456:789a::1", "private"),
        ("fec0::1", "private"),
        ("fe80::1", "link-local"),
        ("ff02::1", "multicast"),
        ("2001:db8::1", "documentation"),
        ("3fff::1", "documentation"),
        ("100::1", "reserved"),
        ("64:ff9b:1::1", "private"),
        ("5f00::1", "reserved"),
        ("2001:2::1", "reserved"),
        ("4000::1", "reserved"),  # outside 2000::/3
        ("::ffff:127.0.0.1", "loopback"),  # IPv4-mapped
        ("::ffff:169.254.169.254", "link-local"),
        ("::10.0.0.1", "private"),  # IPv4-compatible
        ("64:ff9b::a9fe:a9fe", "link-local"),  # NAT64 of 169.254.169.254
        ("2002:7f00:1::1", "loopback"),  # 6to4 of 127.0.0.1
        ("2002:c0a8:101::1", "private"),  # 6to4 of 192.168.1.1
        ("2001:0:4136:e378:8000:63bf:a247:28f1", "reserved"),  # Teredo, public ends
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "documentation"),  # client 192.0.2.45
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", "loopback"),  # Teredo client 127.0.0.1
    ],
)
def test_special_addresses_are_classified(address: str, expected: str) -> None:
    assert category(address) == expected


@pytest.mark.parametrize(
    "address",
    ["93.184.215.14", "8.8.8.8", "1.1.1.1", "151.101.1.69", "2a00:1450:4001:82b::200e",
     "2606:4700::6810:85e5", "::ffff:93.184.215.14", "2002:5db8:d70e::1", "64:ff9b::808:808"],
)  # fmt: skip
def test_public_addresses_pass(address: str) -> None:
    assert classify_address(ipaddress.ip_address(address)) is None
    assert block_reason(ipaddress.ip_address(address), allow_private=False) is None


def test_every_row_names_its_source() -> None:
    for row in (*IPV4_SPECIAL, *IPV6_SPECIAL):
        assert row.source.startswith("RFC "), row


@pytest.mark.parametrize(
    ("address", "lifted"),
    [
        ("127.0.0.1", True),
        ("10.0.0.1", True),
        ("fd00::1", True),
        ("::ffff:192.168.0.1", True),
        ("169.254.169.254", False),
        ("100.64.0.1", False),
        ("224.0.0.1", False),
        ("0.0.0.0", False),  # noqa: S104 - an address to classify, not a bind
        ("192.0.2.1", False),
        ("fe80::1", False),
    ],
)
def test_allow_private_lifts_only_loopback_and_private(address: str, lifted: bool) -> None:
    parsed = ipaddress.ip_address(address)
    assert block_reason(parsed, allow_private=False) is not None
    assert (block_reason(parsed, allow_private=True) is None) is lifted


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1", "2130706433", "0x7f000001", "0x7f.1", "0177.0.0.1", "0177.0.0.01", "127.1",
     "127.0.1", "0x7F.0.0.1", "127.0.0.1.", "[::1]", "[::ffff:7f00:1]", "[0:0:0:0:0:0:0:1]"],
)  # fmt: skip
def test_every_loopback_notation_is_read_as_loopback(host: str) -> None:
    address = parse_host_address(host)
    assert address is not None
    assert address.is_loopback or str(address).startswith("::ffff:7f")
    assert host_block_reason(host, allow_private=False) is not None
    assert host_block_reason(host, allow_private=True) is None


@pytest.mark.parametrize(
    "host", ["0xa9fea9fe", "2852039166", "0251.0376.0251.0376", "169.254.43518"]
)
def test_metadata_address_in_odd_notations_stays_blocked(host: str) -> None:
    assert parse_host_address(host) == ipaddress.IPv4Address("169.254.169.254")
    assert host_block_reason(host, allow_private=True) is not None


@pytest.mark.parametrize("host", ["08.0.0.1", "256.0.0.1", "1.2.3.4.5", "0x1g.0.0.1", "4294967296"])
def test_numeric_looking_hosts_that_are_no_address_are_refused(host: str) -> None:
    with pytest.raises(ValueError, match="IPv4"):
        parse_host_address(host)
    assert host_block_reason(host, allow_private=True) is not None


@pytest.mark.parametrize(
    "host", ["news.example.org", "1.2.3.example", "0x.example", "xn--bcher-kva.de"]
)
def test_names_are_left_to_dns(host: str) -> None:
    assert parse_host_address(host) is None
    assert host_block_reason(host, allow_private=False) is None


@pytest.mark.parametrize("host", ["localhost", "LOCALHOST.", "api.localhost"])
def test_localhost_names_are_loopback(host: str) -> None:
    assert "loopback" in (host_block_reason(host, allow_private=False) or "")
    assert host_block_reason(host, allow_private=True) is None


@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_every_ipv4_notation_names_the_same_address(value: int) -> None:
    address = ipaddress.IPv4Address(value)
    a, b, c, d = address.packed
    spellings = [
        str(value),
        hex(value),
        f"{a}.{b}.{c}.{d}",
        f"0{a:o}.0{b:o}.0{c:o}.0{d:o}",
        f"{hex(a)}.{hex(b)}.{hex(c)}.{hex(d)}",
        f"{a}.{(b << 16) | (c << 8) | d}",
        f"{a}.{b}.{(c << 8) | d}",
    ]
    for spelling in spellings:
        assert parse_host_address(spelling) == address, spelling


@given(st.text(max_size=40))
def test_parsing_any_host_never_crashes(host: str) -> None:
    with contextlib.suppress(ValueError):
        parse_host_address(host)
    host_block_reason(host, allow_private=False)


def test_one_refused_answer_refuses_the_name() -> None:
    with pytest.raises(ValueError, match=r"10\.0\.0\.7"):
        checked_addresses(["93.184.215.14", "10.0.0.7"], host="mixed.example", allow_private=False)
    with pytest.raises(ValueError, match=r"169\.254\.169\.254"):
        checked_addresses(
            ["127.0.0.1", "169.254.169.254"], host="mixed.example", allow_private=True
        )


def test_answers_are_deduplicated_in_order() -> None:
    answers = ["2a00:1450:4001:82b::200e", "93.184.215.14", "93.184.215.14"]
    checked = checked_addresses(answers, host="news.example", allow_private=False)
    assert [str(a) for a in checked] == ["2a00:1450:4001:82b::200e", "93.184.215.14"]


@pytest.mark.parametrize("answers", [[], ["not-an-address"], ["fe80::1%eth0"]])
def test_empty_unreadable_or_zoned_answers_are_refused(answers: list[str]) -> None:
    with pytest.raises(ValueError, match=r"news\.example"):
        checked_addresses(answers, host="news.example", allow_private=True)
