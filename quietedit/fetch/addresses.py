"""Which IP addresses the SSRF guard lets quietedit connect to: an explicit table, no I/O (pure).

``ipaddress.is_global`` is not used: the Python this project supports (3.11.7 here) misreads
several special-purpose ranges (CVE-2024-4032 among them), and its answers change between
patch releases. The tables below are taken from the IANA special-purpose address registries,
each row with the RFC that defines it:

- https://www.iana.org/assignments/iana-ipv4-special-registry/
- https://www.iana.org/assignments/iana-ipv6-special-registry/

Every range there that is not globally reachable is refused. A few registry rows that are
globally reachable anycast services (AS112, AMT, PCP/TURN anycast) sit inside blocks refused
here as a whole; no news site is served from them. IPv6 outside 2000::/3 (global unicast)
is refused as reserved. IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-compatible,
NAT64, 6to4, Teredo) are judged by the address they carry.

Host names are resolved elsewhere; here a URL host is read the way resolvers read it, so
``2130706433``, ``0x7f.1``, ``0177.0.0.1`` and ``127.1`` are all 127.0.0.1 (the WHATWG URL
standard's IPv4 parser, which matches ``inet_aton``).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

LIFTABLE: Final = frozenset({"loopback", "private"})
"""The categories ``allow_private_addresses`` lifts; every other special range stays refused."""


@dataclass(frozen=True, slots=True)
class SpecialRange:
    """One row of the table: a network, what it is, and where that is defined."""

    network: IPNetwork
    category: str
    name: str
    source: str


def _row(cidr: str, category: str, name: str, source: str) -> SpecialRange:
    return SpecialRange(ipaddress.ip_network(cidr), category, name, source)


# First match wins: the narrower rows come before the blocks that contain them.
IPV4_SPECIAL: Final = (
    _row("0.0.0.0/8", "unspecified", '"this network"', "RFC 791"),
    _row("10.0.0.0/8", "private", "private-use", "RFC 1918"),
    _row("100.64.0.0/10", "shared", "shared address space (carrier-grade NAT)", "RFC 6598"),
    _row("127.0.0.0/8", "loopback", "loopback", "RFC 1122"),
    _row("169.254.0.0/16", "link-local", "link-local (cloud metadata lives here)", "RFC 3927"),
    _row("172.16.0.0/12", "private", "private-use", "RFC 1918"),
    _row("192.0.0.0/24", "reserved", "IETF protocol assignments", "RFC 6890"),
    _row("192.0.2.0/24", "documentation", "TEST-NET-1", "RFC 5737"),
    _row("192.88.99.0/24", "reserved", "deprecated 6to4 relay anycast", "RFC 7526"),
    _row("192.168.0.0/16", "private", "private-use", "RFC 1918"),
    _row("198.18.0.0/15", "benchmarking", "benchmarking", "RFC 2544"),
    _row("198.51.100.0/24", "documentation", "TEST-NET-2", "RFC 5737"),
    _row("203.0.113.0/24", "documentation", "TEST-NET-3", "RFC 5737"),
    _row("233.252.0.0/24", "documentation", "MCAST-TEST-NET", "RFC 6676"),
    _row("224.0.0.0/4", "multicast", "multicast", "RFC 5771"),
    _row("255.255.255.255/32", "reserved", "limited broadcast", "RFC 919"),
    _row("240.0.0.0/4", "reserved", "reserved for future use", "RFC 1112"),
)

IPV6_SPECIAL: Final = (
    _row("::/128", "unspecified", "unspecified", "RFC 4291"),
    _row("::1/128", "loopback", "loopback", "RFC 4291"),
    _row("64:ff9b:1::/48", "private", "local-use NAT64", "RFC 8215"),
    _row("100::/64", "reserved", "discard-only", "RFC 6666"),
    _row("100:0:0:1::/64", "reserved", "dummy prefix", "RFC 9780"),
    _row("2001:db8::/32", "documentation", "documentation", "RFC 3849"),
    _row("2001::/23", "reserved", "IETF protocol assignments", "RFC 2928"),
    _row("3fff::/20", "documentation", "documentation", "RFC 9637"),
    _row("5f00::/16", "reserved", "SRv6 SIDs", "RFC 9602"),
    _row("fc00::/7", "private", "unique local", "RFC 4193"),
    _row("fe80::/10", "link-local", "link-local", "RFC 4291"),
    _row("fec0::/10", "private", "site-local (deprecated)", "RFC 3879"),
    _row("ff00::/8", "multicast", "multicast", "RFC 4291"),
)

_GLOBAL_UNICAST: Final = ipaddress.IPv6Network("2000::/3")
_IPV4_COMPATIBLE: Final = ipaddress.IPv6Network("::/96")
_NAT64: Final = ipaddress.IPv6Network("64:ff9b::/96")
_TEREDO: Final = ipaddress.IPv6Network("2001::/32")


@dataclass(frozen=True, slots=True)
class Verdict:
    """Why an address is refused: its category, and the reason in words."""

    category: str
    reason: str


def classify_address(address: IPAddress) -> Verdict | None:
    """The special range ``address`` falls in, or None for an ordinary public address."""
    if isinstance(address, ipaddress.IPv4Address):
        return _lookup(address, IPV4_SPECIAL)
    if address.scope_id:
        return Verdict("link-local", f"{address} carries a zone index, so it is link-local")
    embedded = _embedded_ipv4(address)
    if embedded is not None:
        inner, form = embedded
        verdict = classify_address(inner)
        if verdict is not None:
            return Verdict(verdict.category, f"{address} is the {form} form of {verdict.reason}")
        if address in _TEREDO:
            return Verdict("reserved", f"{address} is a Teredo tunnel address (RFC 4380)")
        return None
    verdict = _lookup(address, IPV6_SPECIAL)
    if verdict is None and address not in _GLOBAL_UNICAST:
        return Verdict("reserved", f"{address} is outside 2000::/3, the global unicast space")
    return verdict


def block_reason(address: IPAddress, *, allow_private: bool) -> str | None:
    """Why the guard refuses to connect to ``address``, or None when it may.

    ``allow_private`` lifts loopback and private ranges only (see ``LIFTABLE``); link-local
    (169.254.169.254, the cloud metadata service), multicast, reserved and the rest stay refused.
    """
    verdict = classify_address(address)
    if verdict is None or (allow_private and verdict.category in LIFTABLE):
        return None
    return verdict.reason


def _lookup(address: IPAddress, table: Iterable[SpecialRange]) -> Verdict | None:
    for row in table:
        if address in row.network:
            return Verdict(row.category, f"{address} is {row.name} ({row.network}, {row.source})")
    return None


def _embedded_ipv4(address: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, str] | None:
    """The IPv4 address an IPv6 address carries, and the form it is carried in."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped, "IPv4-mapped"
    low = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address in _IPV4_COMPATIBLE and int(address) > 1:
        return low, "IPv4-compatible"
    if address in _NAT64:
        return low, "NAT64"
    if address.sixtofour is not None:
        return address.sixtofour, "6to4"
    if address.teredo is not None:
        server, client = address.teredo
        # Either end of the tunnel being special makes the address unusable; judge the client
        # (what the packets would reach) unless only the server is special.
        return (client, "Teredo") if classify_address(client) else (server, "Teredo server")
    return None


def parse_host_address(host: str) -> IPAddress | None:
    """The address a URL host spells, in any notation a resolver accepts; None for a name.

    ``host`` is a URL's host, with or without IPv6 brackets. A host whose last label is a
    number is an IPv4 address in decimal, octal (``0177``) or hex (``0x7f``) parts, with 1 to
    4 parts (``127.1``); one that looks numeric but is no valid address raises ``ValueError``,
    because a resolver might still read it as one.
    """
    text = host.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    if ":" in text:
        try:
            return ipaddress.IPv6Address(text)
        except ValueError as exc:
            raise ValueError(f"{host!r} is not a valid IPv6 address") from exc
    labels = text.split(".")
    if len(labels) > 1 and labels[-1] == "":
        labels.pop()  # a trailing dot ends a fully qualified name, as in "127.0.0.1."
    if not _is_number(labels[-1]):
        return None
    numbers = [_ipv4_number(label) for label in labels]
    if len(numbers) > 4 or any(n is None for n in numbers):
        raise ValueError(f"{host!r} looks numeric but is no valid IPv4 address")
    parts = [n for n in numbers if n is not None]
    *leading, last = parts
    if any(n > 255 for n in leading) or last >= 256 ** (5 - len(parts)):
        raise ValueError(f"{host!r} has a part too large for an IPv4 address")
    value = last
    for index, part in enumerate(leading):
        value += part << (8 * (3 - index))
    return ipaddress.IPv4Address(value)


def _is_number(label: str) -> bool:
    """The WHATWG "ends in a number" test for one label."""
    if label.isascii() and label.isdigit():
        return True
    return _ipv4_number(label) is not None


def _ipv4_number(label: str) -> int | None:
    """One part of an IPv4 host: decimal, ``0``-prefixed octal or ``0x``-prefixed hex."""
    if not label or not label.isascii():
        return None
    base, digits = 10, label
    if label[:2].lower() == "0x":
        base, digits = 16, label[2:]
        if not digits:
            return 0
    elif len(label) > 1 and label.startswith("0"):
        base, digits = 8, label[1:]
    allowed = "0123456789abcdefABCDEF"[: {8: 8, 10: 10, 16: 22}[base]]
    if not all(ch in allowed for ch in digits):
        return None
    return int(digits, base)


def is_localhost_name(host: str) -> bool:
    """``localhost`` and names under it, which resolve to loopback by definition (RFC 6761)."""
    name = host.strip().rstrip(".").lower()
    return name == "localhost" or name.endswith(".localhost")


def host_block_reason(host: str, *, allow_private: bool) -> str | None:
    """Why a URL host is refused before any lookup, or None when only DNS can tell.

    Catches address literals in every notation and the ``localhost`` names; a host that looks
    numeric but is no valid address is refused too.
    """
    if is_localhost_name(host):
        return None if allow_private else f"{host!r} names loopback (RFC 6761)"
    try:
        address = parse_host_address(host)
    except ValueError as exc:
        return str(exc)
    return None if address is None else block_reason(address, allow_private=allow_private)


def checked_addresses(
    answers: Iterable[str], *, host: str, allow_private: bool
) -> tuple[IPAddress, ...]:
    """Every answer of a lookup of ``host`` as an address, all of them allowed, in order.

    Raises ``ValueError`` naming the first refused (or unreadable) answer: one bad answer
    refuses the host, so a name cannot mix a public address with an internal one and win.
    """
    result: list[IPAddress] = []
    for answer in answers:
        text, zone, _ = answer.partition("%")
        try:
            address = ipaddress.ip_address(text)
        except ValueError as exc:
            raise ValueError(f"{host!r} resolved to {answer!r}, which is no IP address") from exc
        reason = (
            f"{answer} carries a zone index, so it is link-local"
            if zone
            else block_reason(address, allow_private=allow_private)
        )
        if reason is not None:
            raise ValueError(f"{host!r} resolves to a refused address: {reason}")
        if address not in result:
            result.append(address)
    if not result:
        raise ValueError(f"{host!r} resolved to no address")
    return tuple(result)
