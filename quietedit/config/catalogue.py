"""The ``feeds:`` list of ``feeds.yaml``: entries, URLs, slugs, headers and ``${VAR}`` (pure).

``parse_feeds`` is pure: it reads the environment only through the mapping it is given, adds
one line per problem to a ``ProblemReport`` and returns the entries that are valid. Header
values may use ``${NAME}`` (replaced from the environment; ``$${`` is a literal ``${``); the
names used are recorded so the typo check on ``QUIETEDIT_*`` variables accepts them.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

from quietedit.config.patterns import MAX_PATTERNS, PatternError, UrlFilter, check_pattern
from quietedit.config.values import (
    InvalidValueError,
    ProblemReport,
    check_keys,
    describe_type,
    join_path,
    parse_bool,
    parse_terms,
    parse_text,
    show_value,
)

SLUG_PATTERN = re.compile(r"[a-z0-9][a-z0-9-]{0,62}")
MAX_NAME_LENGTH = 200
FEED_KEYS = (
    "url", "name", "slug", "headers", "enabled", "render", "kind", "include", "exclude", "watch",
)  # fmt: skip

RENDERERS: Final = ("chromium",)
"""What ``render:`` may name: browsers article pages can be rendered in."""
FEED_KINDS = ("feed", "homepage")
"""What a ``feeds.yaml`` entry's URL is: a feed (RSS, Atom, JSON Feed, a news sitemap, or a
page advertising one), or a home or section page whose article links are followed."""
# RFC 9110 section 5.6.2: a field name is a token.
_HEADER_NAME = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
# "$${" comes first so that a literal "${" is never read as the start of a variable; the
# last branch catches a "${" that starts no valid variable.
_EXPANSION = re.compile(r"\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$\{")


@dataclass(frozen=True, slots=True)
class FeedConfig:
    """One entry of ``feeds:``; ``headers`` are sent with every request for this feed;
    ``render`` names the browser its article pages are rendered in (None: fetched only);
    ``kind`` is one of :data:`FEED_KINDS`, and ``include``/``exclude`` decide which of its
    links are tracked (:attr:`links`, :mod:`quietedit.config.patterns`)."""

    url: str
    name: str
    slug: str
    headers: tuple[tuple[str, str], ...]
    enabled: bool
    render: str | None = None
    kind: str = "feed"
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    watch: tuple[str, ...] = ()  # terms watched in this feed's articles (settings.watch: all)

    @property
    def links(self) -> UrlFilter:
        """Which of the feed's links are tracked (``include``/``exclude``)."""
        return UrlFilter(self.include, self.exclude)


def derive_slug(text: str) -> str:
    """A slug from a feed name or host: ASCII, lowercase, hyphens, at most 63 characters.

    Returns "" when nothing usable remains (a name in a non-Latin script, say); the caller
    then falls back to the URL's host.
    """
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return slug[:63].rstrip("-")


def parse_feeds(
    value: object, *, environ: Mapping[str, str], report: ProblemReport, referenced: set[str]
) -> tuple[FeedConfig, ...]:
    """The valid entries of ``feeds:`` (None means no feeds); problems go to ``report``.

    Adds to ``referenced`` every variable name a header's ``${...}`` uses.
    """
    if value is None:
        return ()
    if not isinstance(value, list):
        report.add(
            "feeds",
            f"{show_value(value)} is {describe_type(value)}, not a list; "
            "start each feed with '- url: ...' on its own line",
        )
        return ()
    scope = _Scope(report, environ, referenced)
    drafts = [_parse_feed(entry, f"feeds[{index}]", scope) for index, entry in enumerate(value)]
    first_by_slug: dict[str, _Draft] = {}
    first_by_url: dict[str, _Draft] = {}
    for draft in drafts:
        if draft.slug is not None:
            first = first_by_slug.setdefault(draft.slug, draft)
            if first is not draft:
                report.add(
                    f"{draft.path}.slug",
                    f"{draft.slug!r} ({draft.slug_origin}) is also the slug of {first.path} "
                    f"({first.slug_origin}); give {draft.path} an explicit slug, "
                    f"e.g. slug: {draft.slug[:61]}-2",
                )
        if draft.url is not None:
            first = first_by_url.setdefault(_url_identity(draft.url), draft)
            if first is not draft:
                report.add(
                    f"{draft.path}.url",
                    f"{show_value(draft.url)} is already the URL of {first.path} "
                    f"({first.url!r}); remove one of the two entries",
                )
    return tuple(draft.feed for draft in drafts if draft.feed is not None)


@dataclass(frozen=True, slots=True)
class _Scope:
    report: ProblemReport
    environ: Mapping[str, str]
    referenced: set[str]


@dataclass(frozen=True, slots=True)
class _Draft:
    """What one entry yielded, valid or not, for the checks across entries."""

    path: str
    url: str | None
    slug: str | None
    slug_origin: str
    feed: FeedConfig | None


def _parse_feed(entry: object, path: str, scope: _Scope) -> _Draft:
    report = scope.report
    if not isinstance(entry, Mapping):
        report.add(
            path,
            f"{show_value(entry)} is {describe_type(entry)}, not a mapping; "
            "write the feed as 'url: ...' and 'name: ...' lines",
        )
        return _Draft(path, None, None, "", None)
    before = len(report.problems)
    check_keys(entry, FEED_KEYS, path, report)
    url = _feed_url(entry, path, report)
    name = _feed_name(entry, path, report)
    headers = _feed_headers(entry.get("headers"), f"{path}.headers", scope)
    enabled = _feed_enabled(entry, path, report)
    render = _feed_render(entry, path, report)
    kind = _feed_kind(entry, path, report)
    include = _feed_patterns(entry, "include", path, report)
    exclude = _feed_patterns(entry, "exclude", path, report)
    watch = _feed_watch(entry, path, report)
    slug, origin = _feed_slug(entry, path, name=name, url=url, report=report)
    feed = None
    if (url and name and slug and headers is not None and enabled is not None) and len(
        report.problems
    ) == before:
        feed = FeedConfig(
            url=url,
            name=name,
            slug=slug,
            headers=headers,
            enabled=enabled,
            kind=kind or "feed",
            include=include,
            exclude=exclude,
            watch=watch,
            render=render,
        )
    return _Draft(path, url, slug, origin, feed)


def _feed_url(entry: Mapping[Any, Any], path: str, report: ProblemReport) -> str | None:
    path = f"{path}.url"
    if "url" not in entry:
        report.add(path, "missing; add the feed's address, e.g. url: https://example.org/feed.xml")
        return None
    problem = _url_problem(entry["url"])
    if problem:
        report.add(path, problem)
        return None
    return str(entry["url"])


def _url_problem(value: object) -> str | None:
    if not isinstance(value, str):
        return f"{show_value(value)} is {describe_type(value)}, not a URL; write url: https://..."
    shown = show_value(value)
    if any(char.isspace() or unicodedata.category(char) == "Cc" for char in value):
        return f"{shown} contains whitespace or a control character; percent-encode it (%20)"
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018  # read for the ValueError a bad port raises
    except ValueError as exc:
        return f"{shown} is not a valid URL ({exc}); check the host and port"
    if parts.scheme not in ("http", "https"):
        return f"{shown} is not http(s); use an http:// or https:// feed URL"
    if parts.username is not None or parts.password is not None:
        # The message must not carry the password into a log or a CI transcript.
        redacted = parts._replace(netloc="***@" + parts.netloc.rpartition("@")[2]).geturl()
        return (
            f"{show_value(redacted)} contains credentials; remove 'user:password@' and send "
            "them in headers, e.g. Authorization: 'Basic ${FEED_CREDENTIALS}'"
        )
    if not parts.hostname:
        return f"{shown} has no host; write the full URL, e.g. https://example.org/feed.xml"
    return None


def _url_identity(url: str) -> str:
    """The URL as compared for duplicates: scheme, host, non-default port, path, query."""
    parts = urlsplit(url)
    port = "" if parts.port in (None, {"http": 80, "https": 443}[parts.scheme]) else parts.port
    query = f"?{parts.query}" if parts.query else ""
    return f"{parts.scheme}://{parts.hostname}:{port}{parts.path or '/'}{query}"


def _feed_name(entry: Mapping[Any, Any], path: str, report: ProblemReport) -> str | None:
    path = f"{path}.name"
    if "name" not in entry:
        report.add(path, "missing; add the name readers will see, e.g. name: Example Gazette")
        return None
    value = entry["name"]
    try:
        name = parse_text(value)
    except InvalidValueError as exc:
        report.add(path, f"{show_value(value)} {exc}")
        return None
    if len(name) > MAX_NAME_LENGTH:
        report.add(
            path,
            f"{show_value(value)} is {len(name)} characters long; "
            f"shorten it to at most {MAX_NAME_LENGTH}",
        )
        return None
    return name


def _feed_enabled(entry: Mapping[Any, Any], path: str, report: ProblemReport) -> bool | None:
    value = entry.get("enabled", True)
    try:
        return parse_bool(value)
    except InvalidValueError as exc:
        report.add(f"{path}.enabled", f"{show_value(value)} {exc}")
        return None


def _feed_render(entry: Mapping[Any, Any], path: str, report: ProblemReport) -> str | None:
    """``render:``: absent, null or false for pages fetched as they are, else a renderer."""
    value = entry.get("render")
    if value is None or value is False:
        return None
    if isinstance(value, str) and value.strip().lower() in RENDERERS:
        return value.strip().lower()
    hint = "true says which browser? " if value is True else ""
    report.add(
        f"{path}.render",
        f"{show_value(value)} is not a renderer; {hint}write 'render: chromium' for a site "
        "whose article pages write their text with JavaScript, or leave the key out",
    )
    return None


def _feed_kind(entry: Mapping[Any, Any], path: str, report: ProblemReport) -> str | None:
    value = entry.get("kind", "feed")
    if isinstance(value, str) and value in FEED_KINDS:
        return value
    shown = show_value(value)
    if not isinstance(value, str):
        report.add(
            f"{path}.kind",
            f"{shown} is {describe_type(value)}, not a kind; write kind: feed or kind: homepage",
        )
        return None
    match = difflib.get_close_matches(value.strip().lower(), FEED_KINDS, n=1)
    fix = f"did you mean {match[0]!r}?" if match else "use feed or homepage"
    report.add(f"{path}.kind", f"{shown} is not a kind of source; {fix}")
    return None


def _feed_patterns(
    entry: Mapping[Any, Any], key: str, path: str, report: ProblemReport
) -> tuple[str, ...]:
    """The ``include``/``exclude`` list: a list of patterns, or one pattern alone."""
    path = f"{path}.{key}"
    value = entry.get(key)
    if value is None:
        return ()
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list):
        report.add(
            path,
            f"{show_value(value)} is {describe_type(value)}, not a list of URL patterns; "
            f"write {key}: [/sport/live/] or one '- /sport/live/' line per pattern",
        )
        return ()
    if len(items) > MAX_PATTERNS:
        report.add(path, f"has {len(items)} patterns; keep it to at most {MAX_PATTERNS}")
        return ()
    patterns: list[str] = []
    for index, item in enumerate(items):
        where = path if isinstance(value, str) else f"{path}[{index}]"
        try:
            pattern = check_pattern(item)
        except PatternError as exc:
            report.add(where, f"{show_value(item)} {exc}")
            continue
        if pattern not in patterns:
            patterns.append(pattern)
    return tuple(patterns)


def _feed_watch(entry: Mapping[Any, Any], path: str, report: ProblemReport) -> tuple[str, ...]:
    """The feed's watched terms (``settings.watch``'s rules), none when absent."""
    value = entry.get("watch")
    if value is None:
        return ()
    try:
        return parse_terms(value)
    except InvalidValueError as exc:
        report.add(f"{path}.watch", f"{show_value(value)} {exc}")
        return ()


def _feed_slug(
    entry: Mapping[Any, Any],
    path: str,
    *,
    name: str | None,
    url: str | None,
    report: ProblemReport,
) -> tuple[str | None, str]:
    """The slug and where it came from ("set explicitly", "derived from its name", ...)."""
    if "slug" in entry:
        value = entry["slug"]
        if isinstance(value, str) and SLUG_PATTERN.fullmatch(value):
            return value, "set explicitly"
        example = (derive_slug(value) if isinstance(value, str) else "") or "example-news"
        report.add(
            f"{path}.slug",
            f"{show_value(value)} is not a valid slug; use 1-63 lowercase letters, digits and "
            f"hyphens, starting with a letter or digit, e.g. slug: {example}",
        )
        return None, ""
    if name is not None and (slug := derive_slug(name)):
        return slug, "derived from its name"
    host = urlsplit(url).hostname if url else None
    if host and (slug := derive_slug(host.removeprefix("www."))):
        return slug, "derived from its host"
    if name is not None and url is not None:
        report.add(
            f"{path}.slug",
            f"cannot be derived from the name {name!r} or the URL; "
            "add slug: with lowercase letters, digits and hyphens",
        )
    return None, ""


def _feed_headers(value: object, path: str, scope: _Scope) -> tuple[tuple[str, str], ...] | None:
    if value is None:
        return ()
    if not isinstance(value, Mapping):
        scope.report.add(
            path,
            f"{show_value(value)} is {describe_type(value)}, not a mapping; "
            "write one 'Header-Name: value' line per header",
        )
        return None
    headers: list[tuple[str, str]] = []
    first_spelling: dict[str, str] = {}
    valid = True
    for name, raw in value.items():
        header_path = join_path(path, name)
        if not isinstance(name, str) or not _HEADER_NAME.fullmatch(name):
            scope.report.add(
                header_path,
                f"{show_value(name)} is not a valid header name; use letters, digits and '-', "
                "e.g. Authorization",
            )
            valid = False
            continue
        first = first_spelling.setdefault(name.lower(), name)
        if first != name:
            scope.report.add(
                header_path, f"repeats the header {first!r} (names ignore case); keep only one"
            )
        header_value = _header_value(raw, header_path, scope)
        valid = valid and header_value is not None
        headers.append((name, header_value or ""))
    return tuple(headers) if valid else None


def _header_value(raw: object, path: str, scope: _Scope) -> str | None:
    if not isinstance(raw, str):
        scope.report.add(
            path, f"{show_value(raw)} is {describe_type(raw)}, not text; quote the value"
        )
        return None
    if _has_control_character(raw):
        scope.report.add(
            path,
            f"{show_value(raw)} contains a line break or control character, which could "
            "inject headers; keep the value on one line",
        )
        return None
    expanded = _expand_variables(raw, path, scope)
    if expanded is None:
        return None
    # The expanded value may hold a secret, so these messages show the template only.
    if _has_control_character(expanded):
        scope.report.add(
            path,
            f"{show_value(raw)} expands to a line break or control character, which could "
            "inject headers; fix the environment variable",
        )
        return None
    if not expanded.isascii():
        scope.report.add(
            path,
            f"{show_value(raw)} has non-ASCII characters (after expansion), which HTTP "
            "clients refuse in header values; percent-encode or remove them",
        )
        return None
    return expanded


def _has_control_character(text: str) -> bool:
    # Tab is the one control character a field value may hold (RFC 9110 section 5.5).
    return any(unicodedata.category(char) == "Cc" and char != "\t" for char in text)


def _expand_variables(template: str, path: str, scope: _Scope) -> str | None:
    """``template`` with each ``${NAME}`` replaced from the environment, ``$${`` as ``${``."""
    failed = False

    def replace(match: re.Match[str]) -> str:
        nonlocal failed
        name = match[1]
        if match[0] == "$${":
            return "${"
        if name is None:
            scope.report.add(
                path,
                f"{show_value(template)} has a '${{' that starts no ${{NAME}}; write ${{NAME}} "
                "with letters, digits and _, or $${ for a literal ${",
            )
        else:
            scope.referenced.add(name)
            if scope.environ.get(name):
                return scope.environ[name]
            # Empty counts as missing: it is what CI gives for a secret that does not exist.
            state = "empty" if name in scope.environ else "not set"
            scope.report.add(
                path,
                f"{show_value(template)} uses ${{{name}}}, which is {state}; set the "
                f"environment variable {name} or remove the header",
            )
        failed = True
        return ""

    expanded = _EXPANSION.sub(replace, template)
    return None if failed else expanded
