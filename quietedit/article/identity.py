"""Identity: the canonical URL of an article, and the document id derived from it (pure).

:func:`canonical_url` turns the many URLs of one article (tracking parameters, AMP and
mobile variants, a fragment, ``index.html``) into one, and with the page's HTML prefers
the page's own ``rel=canonical`` or ``og:url`` when that is safe to believe.

An id is ``<host>-<hash>``: the host, reduced to lower-case letters, digits and hyphens
and cut to 40 characters, so that a person browsing ``data/`` can tell sources apart;
then the first 16 hex digits of the SHA-256 of the full canonical URL, which is what
makes it unique. Ids are lower-case throughout, so they cannot collide on a
case-insensitive file system, contain no dot or slash, so they cannot traverse, and are
at most 57 characters long.
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
from functools import cache
from typing import Final
from urllib.parse import unquote, urljoin, urlsplit

import idna
from publicsuffixlist import PublicSuffixList
from selectolax.lexbor import LexborHTMLParser

from quietedit.article.tracking import drops_parameter
from quietedit.errors import InvalidURLError

HOST_PART_MAX: Final = 40
HASH_PART_LEN: Final = 16  # 64 bits: a collision needs ~4 billion documents
DOCUMENT_ID_PATTERN: Final = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,39})-[0-9a-f]{16}")
_NOT_ALNUM: Final = re.compile(r"[^a-z0-9]+")

MAX_URL_LENGTH: Final = 8192
"""Longer URLs are refused: servers commonly reject more than 8 KiB of request line."""

DEFAULT_PORTS: Final = {"http": 80, "https": 443}

# What may stay unescaped (RFC 3986 pchar, query and fragment characters, plus "%" so that
# escapes survive); everything else is percent-encoded as UTF-8.
_UNRESERVED: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
_SUB_DELIMS: Final = "!$&'()*+,;="
_PATH_SAFE: Final = frozenset(_UNRESERVED + _SUB_DELIMS + ":@/")
_QUERY_SAFE: Final = _PATH_SAFE | frozenset("?")
_ESCAPE: Final = re.compile(r"%([0-9A-Fa-f]{2})")
_SCHEME: Final = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_C0_OR_SPACE: Final = "".join(map(chr, range(0x21)))
_TAB_OR_NEWLINE: Final = re.compile(r"[\t\n\r]")
_LABEL: Final = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")
_SESSION_PATH_PARAMETER: Final = re.compile(r";(?:jsessionid|phpsessid|sessionid)=[^/]*", re.I)

# AMP: caches that serve a publisher's page under their own host, and the URL shapes of
# AMP renderings on the publisher's site.
_AMP_CACHE_HOSTS: Final = (".cdn.ampproject.org", ".bing-amp.com")
_AMP_CACHE_PATH: Final = re.compile(r"/(?:c|v|wp)/(s/)?([^/?#]+)(.*)", re.S)
_GOOGLE_AMP_VIEWER: Final = re.compile(r"/amp/(s/)?([^/?#]+\.[^/?#]+)(.*)", re.S)
_AMP_SUFFIX: Final = re.compile(r"(?:\.amp)+(\.s?html?)?$", re.I)
_HOST_VARIANT_LABELS: Final = frozenset({"m", "mobile", "amp"})  # m.example.com, amp.…
_MOBILE_PATH_SEGMENTS: Final = frozenset({"m", "mobile"})  # example.com/m/story
_INDEX_FILE: Final = re.compile(r"index\.s?html?", re.I)  # a directory's own page

# A page that is a home or section page, not an article: one short word-only segment
# (optionally after a language segment). A rel=canonical pointing at one is a template
# bug, and believing it would merge every article of the site into one document.
_SECTION_SEGMENT: Final = re.compile(r"[^\W\d_]+(?:[-_][^\W\d_]+){0,2}(?:\.s?html?)?")
_LANGUAGE_SEGMENT: Final = re.compile(r"[a-z]{2}(?:[-_][a-z]{2})?", re.I)


def canonical_url(url: str, *, html: str | None = None) -> str:
    """The one URL that names the article at ``url``; idempotent.

    Without ``html``: scheme and host in lower case (an internationalised host in
    punycode), no credentials, no default port, no fragment (but a ``#!`` route is kept:
    it is the page's identity), tracking, session and view parameters dropped (see
    :mod:`quietedit.article.tracking`), the query sorted by name, dot segments resolved,
    escapes in upper case, other characters percent-encoded (a ``%`` that starts no
    escape becomes ``%25``); AMP unwrapped (AMP caches, ``amp.`` hosts, ``/amp``
    segments, ``.amp`` suffixes, ``?amp``), mobile variants folded (``m.``/``mobile.``
    hosts become ``www.`` on a registrable domain, a leading ``/m/`` or ``/mobile/`` goes),
    and a trailing ``index.html`` reduced to its directory. A trailing slash is kept as
    written (``/news`` and ``/news/`` may be different resources).

    With ``html`` (the page fetched from ``url``): its ``<link rel=canonical>`` in the
    head, else its ``og:url``, normalised the same way, is the answer when it is on the
    same registrable domain (a syndicated copy on another publisher stays its own
    document), is not a home or section page (unless it is this very page), and the page
    does not name two different canonical URLs. Otherwise the normalised ``url``.

    Raises :class:`~quietedit.errors.InvalidURLError` (a ``ValueError``) when ``url`` is
    not an absolute http(s) URL with a valid host, or is longer than 8192 characters.
    Bad HTML never raises; it is simply not believed.
    """
    own = normalise_url(url)
    if html is None:
        return own
    for candidate in _claimed_urls(html, page_url=own):
        if candidate == own or _believable(candidate, own):
            return candidate
    return own


def normalise_url(url: str) -> str:
    """:func:`canonical_url` without HTML: the URL's own normal form (same errors)."""
    current = _strip_url(url)
    while True:
        scheme, host, port, path, query, fragment = _split(current, original=url)
        unwrapped = _unwrap_amp_cache(host, path + query)
        if unwrapped is None:
            break
        current = unwrapped
    host = _fold_host_variants(host)
    netloc = host if port in (None, DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    text = f"{scheme}://{netloc}{_normalise_path(path)}{_normalise_query(query)}"
    if fragment.startswith("#!"):
        text += "#!" + _normalise_escapes(fragment[2:], _QUERY_SAFE)
    return text


def registrable_domain(host: str) -> str:
    """The part of ``host`` its owner registered (``news.bbc.co.uk`` -> ``bbc.co.uk``), by
    the Public Suffix List bundled with ``publicsuffixlist`` (never fetched); an IP
    address or a host that is itself a public suffix stands for itself."""
    if host.startswith("[") or _is_ipv4(host):
        return host
    return _public_suffix_list().privatesuffix(host) or host


@cache
def _public_suffix_list() -> PublicSuffixList:
    return PublicSuffixList()  # the package's bundled snapshot; it has no network code


def _strip_url(url: str) -> str:
    """What a browser does first: trim C0 controls and spaces, remove tabs and newlines."""
    text = _TAB_OR_NEWLINE.sub("", url.strip(_C0_OR_SPACE))
    if len(text) > MAX_URL_LENGTH:
        raise InvalidURLError(url, f"is longer than {MAX_URL_LENGTH} characters")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidURLError(url, "contains a lone surrogate (not text)") from None
    return text


def _split(text: str, *, original: str) -> tuple[str, str, int | None, str, str, str]:
    """Scheme, host (lower case, ASCII), port, path, ``?query`` and ``#fragment``."""
    match = _SCHEME.match(text)
    if match is None:
        raise InvalidURLError(original, "is not absolute: write it with https://")
    scheme = match.group(1).lower()
    if scheme not in DEFAULT_PORTS:
        raise InvalidURLError(original, f"is a {scheme}: URL, not an http(s) web page")
    rest, _, fragment = text[match.end() :].partition("#")
    rest, _, query = rest.partition("?")
    rest = rest.replace("\\", "/").lstrip("/")
    authority, slash, path = rest.partition("/")
    host, port = _host_and_port(authority.rpartition("@")[2], original=original)
    return (
        scheme,
        host,
        port,
        slash + path,
        "?" + query if query else "",
        "#" + fragment if fragment else "",
    )


def _host_and_port(authority: str, *, original: str) -> tuple[str, int | None]:
    if authority.startswith("["):
        inside, bracket, after = authority[1:].partition("]")
        if not bracket or (after and not after.startswith(":")):
            raise InvalidURLError(original, "has a malformed [IPv6] host")
        try:
            host = f"[{ipaddress.IPv6Address(inside).compressed}]"
        except ValueError:
            raise InvalidURLError(original, f"has an invalid IPv6 address [{inside}]") from None
        port_text = after[1:]
    else:
        name, colon, port_text = authority.rpartition(":")
        if not colon:
            name, port_text = authority, ""
        host = _ascii_host(name, original=original)
    if not port_text:
        return host, None
    if not port_text.isascii() or not port_text.isdigit() or int(port_text) > 65535:
        raise InvalidURLError(original, f"has an invalid port {port_text[:20]!r}")
    return host, int(port_text)


def _ascii_host(name: str, *, original: str) -> str:
    """The host in lower-case ASCII: escapes decoded, IDNA (UTS #46) applied, validated."""
    try:
        host = unquote(name, errors="strict") if "%" in name else name
    except UnicodeDecodeError:
        raise InvalidURLError(original, f"has an undecodable host {name[:100]!r}") from None
    host = host.lower().rstrip(".")
    if not host:
        raise InvalidURLError(original, "has no host")
    if not host.isascii():
        try:
            host = idna.encode(host, uts46=True).decode("ascii")
        except (idna.IDNAError, UnicodeError):
            raise InvalidURLError(original, f"has an invalid international host {name!r}") from None
    if _is_ipv4(host):
        return str(ipaddress.IPv4Address(host))
    labels = host.split(".")
    if len(host) > 253 or not all(_LABEL.fullmatch(label) for label in labels):
        raise InvalidURLError(original, f"has an invalid host {name[:100]!r}")
    for label in labels:
        if label.startswith("xn--"):
            try:
                idna.decode(label)
            except (idna.IDNAError, UnicodeError):
                raise InvalidURLError(original, f"has invalid punycode {label!r}") from None
    return host


def _is_ipv4(host: str) -> bool:
    try:
        ipaddress.IPv4Address(host)
    except ValueError:
        return False
    return True


def _unwrap_amp_cache(host: str, path_and_query: str) -> str | None:
    """The publisher's URL inside an AMP cache or Google AMP viewer URL, or None."""
    if host.endswith(_AMP_CACHE_HOSTS):
        match = _AMP_CACHE_PATH.fullmatch(path_and_query)
    elif host == "www.google.com":
        match = _GOOGLE_AMP_VIEWER.fullmatch(path_and_query)
    else:
        return None
    if match is None:
        return None
    scheme = "https" if match.group(1) else "http"
    return f"{scheme}://{match.group(2)}{match.group(3)}"


def _fold_host_variants(host: str) -> str:
    """``m.``, ``mobile.`` and ``amp.`` hosts name the same articles as the main host."""
    if host.startswith("["):
        return host
    registrable = registrable_domain(host)
    while host != registrable and host.partition(".")[0] in _HOST_VARIANT_LABELS:
        rest = host.partition(".")[2]
        host = "www." + rest if rest == registrable else rest
    return host


def _normalise_path(path: str) -> str:
    """Escapes, dot segments, then the AMP, mobile and index-file variants (in an order
    that no later step can undo, so that the result is a fixed point)."""
    path = _SESSION_PATH_PARAMETER.sub("", path)
    segments = _remove_dot_segments(_normalise_escapes(path, _PATH_SAFE) or "/").split("/")[1:]
    unsuffixed = _AMP_SUFFIX.sub(r"\1", segments[-1])
    if unsuffixed not in (".", ".."):
        segments[-1] = unsuffixed
    if any(segment and segment.lower() != "amp" for segment in segments):
        segments = [segment for segment in segments if segment.lower() != "amp"]
    while len(segments) > 1 and segments[0].lower() in _MOBILE_PATH_SEGMENTS and any(segments[1:]):
        del segments[0]
    if _INDEX_FILE.fullmatch(segments[-1]):
        segments[-1] = ""
    return "/" + "/".join(segments)


def _remove_dot_segments(path: str) -> str:
    """RFC 3986 section 5.2.4: resolve ``.`` and ``..`` segments of an absolute path."""
    output: list[str] = []
    for segment in path.split("/")[1:]:
        if segment == "..":
            if output:
                output.pop()
        elif segment != ".":
            output.append(segment)
    if path.split("/")[-1] in (".", ".."):
        output.append("")
    return "/" + "/".join(output)


def _normalise_query(query: str) -> str:
    kept = []
    for item in query[1:].split("&"):
        if not item:
            continue
        name, _, value = item.partition("=")
        if drops_parameter(_decoded(name), _decoded(value)):
            continue
        kept.append(_normalise_escapes(item, _QUERY_SAFE))
    kept.sort(key=lambda item: item.partition("=")[0])
    return "?" + "&".join(kept) if kept else ""


def _decoded(text: str) -> str:
    return unquote(text.replace("+", " "), errors="replace")


def _normalise_escapes(text: str, safe: frozenset[str]) -> str:
    """Decode escapes of unreserved characters, upper-case the others, and percent-encode
    every character outside ``safe`` (a ``%`` that starts no escape included), so the
    result is the same however the input was escaped, and stays the same when repeated."""
    out: list[str] = []
    position = 0
    size = len(text)
    while position < size:
        char = text[position]
        if char == "%":
            match = _ESCAPE.match(text, position)
            if match is None:
                out.append("%25")
                position += 1
                continue
            decoded = chr(int(match.group(1), 16))
            out.append(decoded if decoded in _UNRESERVED else match.group(0).upper())
            position += 3
            continue
        if char in safe:
            out.append(char)
        else:
            out.append("".join(f"%{byte:02X}" for byte in char.encode("utf-8")))
        position += 1
    return "".join(out)


def _claimed_urls(html: str, *, page_url: str) -> list[str]:
    """What the page says its URL is, normalised, strongest claim first."""
    tree = LexborHTMLParser(html)
    base = page_url
    base_node = tree.css_first("head base[href]")
    if base_node is not None:
        base = _joined(page_url, base_node.attributes.get("href")) or page_url
    canonicals = {
        joined
        for node in tree.css("head link[rel][href]")
        if "canonical" in (node.attributes.get("rel") or "").lower().split()
        and (joined := _joined(base, node.attributes.get("href")))
    }
    og_urls = [
        node.attributes.get("content")
        for node in tree.css('head meta[property="og:url" i][content]')
    ]
    claims = sorted(canonicals) if len(canonicals) == 1 else []  # two different: believe none
    claims += [joined for og in og_urls[:1] if (joined := _joined(base, og))]
    normalised = []
    for claim in claims:
        try:
            normalised.append(normalise_url(claim))
        except InvalidURLError:
            continue
    return normalised


def _joined(base: str, href: str | None) -> str | None:
    if not href or not href.strip():
        return None
    try:
        return urljoin(base, href.strip())
    except ValueError:  # urljoin refuses some malformed hrefs ("http://[::1")
        return None


def _believable(candidate: str, page_url: str) -> bool:
    """Whether the page's claimed URL may replace its own: on the same registrable domain,
    and not a home or section page unless it is the page itself (``/keyserver-tlog`` may
    call itself ``/keyserver-tlog/``)."""
    claimed, page = urlsplit(candidate), urlsplit(page_url)
    if registrable_domain(_bracketed(claimed.hostname or "")) != registrable_domain(
        _bracketed(page.hostname or "")
    ):
        return False
    same_page = (claimed.path.rstrip("/"), claimed.fragment) == (
        page.path.rstrip("/"),
        page.fragment,
    )
    return same_page or not is_home_or_section(candidate)


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def is_home_or_section(url: str) -> bool:
    """Whether ``url`` is a home page or a section front ("/politics"), not an article."""
    parts = urlsplit(url)
    if parts.query or parts.fragment:
        return False
    segments = [segment for segment in parts.path.split("/") if segment]
    if segments and _LANGUAGE_SEGMENT.fullmatch(segments[0]):
        segments = segments[1:]
    return not segments or (
        len(segments) == 1 and _SECTION_SEGMENT.fullmatch(unquote(segments[0])) is not None
    )


def document_id(canonical_url: str) -> str:
    """Return the archive id of the document whose canonical URL is ``canonical_url``."""
    try:
        host = urlsplit(canonical_url).hostname or ""
    except ValueError:  # an unparsable netloc ("http://[::1") still gets an id
        host = ""
    host_part = _NOT_ALNUM.sub("-", host.lower()).strip("-")[:HOST_PART_MAX]
    host_part = host_part.rstrip("-") or "doc"
    digest = hashlib.sha256(canonical_url.encode("utf-8", "surrogatepass")).hexdigest()
    return f"{host_part}-{digest[:HASH_PART_LEN]}"


def is_document_id(text: str) -> bool:
    """Whether ``text`` has the shape of a document id (and so is a safe path component)."""
    return DOCUMENT_ID_PATTERN.fullmatch(text) is not None
