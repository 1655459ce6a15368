"""Validity of the site's feeds: Atom 1.0 against RFC 4287, RSS 2.0 against its spec.

:func:`atom_problems` parses a document (no DTD, no entities, no network), validates it
against ``tests/schemas/atom.rng`` (a RELAX NG grammar written for this project from
RFC 4287's text) and then applies the RFC's rules that a grammar cannot express, each
:class:`Problem` naming its section. :func:`rss_problems` does the same for RSS 2.0 from
the RSS 2.0 specification's required elements and value formats. Both return every problem
found (an empty tuple means valid) and never raise on bad input: a validator that stops at
the first problem hides the rest.
"""

from __future__ import annotations

import base64
import binascii
import calendar
import functools
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from lxml import etree

SCHEMA: Final = Path(__file__).parents[1] / "schemas" / "atom.rng"
ATOM_NS: Final = "http://www.w3.org/2005/Atom"
XML_NS: Final = "http://www.w3.org/XML/1998/namespace"
A: Final = "{" + ATOM_NS + "}"

RFC_3339: Final = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|([+-])(\d{2}):(\d{2}))"
)
"""RFC 3339 ``date-time`` with Atom's upper-case ``T`` and ``Z`` (RFC 4287 §3.3)."""

SCHEME: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
IRI_FORBIDDEN: Final = re.compile(
    # RFC 3987 §2.2: no spaces, controls, delimiters outside the grammar; §4.1: no bidi
    # formatting characters; §2.2 ucschar excludes the non-characters
    '[\x00-\x20\x7f-\x9f<>"{}|\\\\^`\u200e\u200f\u202a-\u202e\ufdd0-\ufdef\ufffe\uffff]'
)
BAD_PERCENT: Final = re.compile(r"%(?![0-9A-Fa-f]{2})")
ISEGMENT_NZ_NC: Final = re.compile(r"[^:/?#\[\]@\s]+")
"""RFC 4287 §4.2.7.2: a bare relation name (no colon, no slash), else it must be an IRI."""
IANA_RELATIONS: Final = "http://www.iana.org/assignments/relation/"
COMPOSITE: Final = re.compile(r"(multipart|message)/", re.IGNORECASE)
XML_MEDIA_TYPE: Final = re.compile(r"[^/;\s]+/([^;\s]*[+/])?xml(\s*;.*)?", re.IGNORECASE)

RFC_822: Final = re.compile(
    r"((Mon|Tue|Wed|Thu|Fri|Sat|Sun), )?(\d{1,2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|"
    r"Nov|Dec) (\d{2}|\d{4}) (\d{2}):(\d{2})(:(\d{2}))? "
    r"(UT|GMT|EST|EDT|CST|CDT|MST|MDT|PST|PDT|[A-IK-Za-ik-z]|[+-]\d{4})"
)
"""RFC 822 §5 date-time, with the four-digit years the RSS 2.0 specification prefers."""
MONTHS: Final = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
DAYS: Final = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


@dataclass(frozen=True, slots=True)
class Problem:
    """One way a document breaks a rule: which rule, where (a path or line), what."""

    rule: str
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message} [{self.rule}]"


@functools.cache
def atom_schema() -> Any:
    """The RELAX NG grammar, loaded once."""
    return etree.RelaxNG(etree.parse(str(SCHEMA)))


def parse_xml(data: bytes) -> tuple[Any, Problem | None]:
    """The document's root element, or the well-formedness problem (entities never expand)."""
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, remove_comments=False
    )
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        return None, Problem("XML 1.0 (well-formedness)", f"line {exc.lineno}", str(exc.msg))
    return root, None


def where(element: Any) -> str:
    """An element's position, for messages: its path and line."""
    return f"{element.getroottree().getpath(element)} (line {element.sourceline})"


def atom_feed_files(site: Path) -> list[Path]:
    """Every ``*.xml`` file of the site whose root is an atom:feed (sitemaps are not)."""
    found = []
    for path in sorted(site.rglob("*.xml")):
        if ".quietedit-cache" in path.parts:
            continue
        root, _ = parse_xml(path.read_bytes())
        if root is None or root.tag == f"{A}feed":
            found.append(path)  # an unparsable .xml is kept: validation reports it
    return found


# --- Atom -------------------------------------------------------------------------------


def atom_problems(data: bytes) -> tuple[Problem, ...]:
    """Every way ``data`` is not a valid Atom 1.0 Feed or Entry Document (RFC 4287)."""
    root, broken = parse_xml(data)
    if broken is not None:
        return (broken,)
    schema = atom_schema()
    problems: list[Problem] = []
    if not schema.validate(root):
        problems.extend(
            Problem("RFC 4287 grammar (tests/schemas/atom.rng)", f"line {e.line}", e.message)
            for e in schema.error_log
        )
    if root.tag not in {f"{A}feed", f"{A}entry"}:
        return tuple(problems)  # the grammar said so; the rules below assume Atom
    for check in ATOM_RULES:
        problems.extend(check(root))
    return tuple(problems)


def _atom(element: Any, name: str) -> list[Any]:
    return list(element.iterchildren(f"{A}{name}"))


def _entries(root: Any) -> list[Any]:
    return [root] if root.tag == f"{A}entry" else _atom(root, "entry")


def dates_are_rfc_3339(root: Any) -> list[Problem]:
    """§3.3: a Date construct is an RFC 3339 date-time that exists on the calendar."""
    problems = []
    for element in root.iter(f"{A}updated", f"{A}published"):
        reason = rfc_3339_error(element.text or "")
        if reason is not None:
            problems.append(Problem("RFC 4287 §3.3", where(element), reason))
    return problems


def rfc_3339_error(text: str) -> str | None:
    """Why ``text`` is not an RFC 3339 date-time (upper-case T and Z), or ``None``."""
    match = RFC_3339.fullmatch(text)
    if match is None:
        return f"{text!r} is not an RFC 3339 date-time such as 2026-11-28T07:30:00Z"
    year, month, day, hour, minute, second = (int(match[n]) for n in range(1, 7))
    if not 1 <= month <= 12:
        return f"{text!r}: month {month} does not exist"
    if not 1 <= day <= calendar.monthrange(year, month)[1]:
        return f"{text!r}: day {day} does not exist in {year}-{month:02}"
    if hour > 23 or minute > 59 or second > 60:  # 60: a leap second (RFC 3339 §5.7)
        return f"{text!r}: time of day out of range"
    if match[9] is not None and (int(match[10]) > 23 or int(match[11]) > 59):
        return f"{text!r}: zone offset out of range"
    return None


def iri_error(text: str, *, absolute: bool) -> str | None:
    """Why ``text`` is not an RFC 3987 IRI (``absolute``) or IRI reference, or ``None``."""
    bad = IRI_FORBIDDEN.search(text)
    if bad is not None:
        return f"{text!r} contains {bad.group()!r}, which no IRI may contain (RFC 3987)"
    if BAD_PERCENT.search(text):
        return f"{text!r} has a '%' not followed by two hex digits"
    if absolute and SCHEME.match(text) is None:
        return f"{text!r} is a relative reference; an IRI starts with a scheme (tag:, https:)"
    return None


def ids_are_absolute_iris(root: Any) -> list[Problem]:
    """§4.2.6: atom:id holds an IRI, and "IRI" excludes relative references."""
    problems = []
    for element in root.iter(f"{A}id"):
        reason = iri_error(element.text or "", absolute=True)
        if reason is not None:
            problems.append(Problem("RFC 4287 §4.2.6", where(element), reason))
    return problems


IRI_REFERENCE_ATTRIBUTES: Final = (
    ("link", "href", "§4.2.7.1"),
    ("content", "src", "§4.1.3.2"),
    ("generator", "uri", "§4.2.4"),
    ("category", "scheme", "§4.2.2.2"),
)
IRI_REFERENCE_ELEMENTS: Final = (("uri", "§3.2.2"), ("icon", "§4.2.5"), ("logo", "§4.2.8"))


def references_are_iris(root: Any) -> list[Problem]:
    """§3.2.2, §4.1.3.2, §4.2.2.2, §4.2.4, §4.2.5, §4.2.7.1, §4.2.8, §2 (xml:base): IRI
    references, by RFC 3987's character rules."""
    found: list[tuple[str, Any, str]] = []
    for name, attribute, section in IRI_REFERENCE_ATTRIBUTES:
        for element in root.iter(f"{A}{name}"):
            value = element.get(attribute)
            if value is not None:
                found.append((section, element, value))
    for name, section in IRI_REFERENCE_ELEMENTS:
        found.extend((section, element, element.text or "") for element in root.iter(f"{A}{name}"))
    for element in root.iter():
        base = element.get(f"{{{XML_NS}}}base") if isinstance(element.tag, str) else None
        if base is not None and element.tag.startswith(A):
            found.append(("§2", element, base))
    problems = []
    for section, element, value in found:
        reason = iri_error(value, absolute=False)
        if reason is not None:
            problems.append(Problem(f"RFC 4287 {section}", where(element), reason))
    return problems


def authors_are_present(root: Any) -> list[Problem]:
    """§4.1.1 and §4.1.2: every entry has an author of its own, in its atom:source, or
    inherited from a feed that has one."""
    if root.tag == f"{A}feed" and _atom(root, "author"):
        return []
    problems = []
    for entry in _entries(root):
        sources = _atom(entry, "source")
        if not _atom(entry, "author") and not (sources and _atom(sources[0], "author")):
            problems.append(
                Problem(
                    "RFC 4287 §4.1.2",
                    where(entry),
                    "entry has no atom:author and neither its atom:source nor the feed has one",
                )
            )
    return problems


def is_alternate(link: Any) -> bool:
    """§4.2.7.2: no rel means "alternate"; the IANA IRI form names the same relation."""
    rel = link.get("rel", "alternate")
    return rel in {"alternate", IANA_RELATIONS + "alternate"}


def alternates_are_distinct(root: Any) -> list[Problem]:
    """§4.1.1 and §4.1.2: at most one alternate link per combination of type and hreflang."""
    holders = [*([root] if root.tag == f"{A}feed" else []), *_entries(root)]
    problems = []
    for holder in holders:
        keys = Counter(
            (link.get("type"), link.get("hreflang"))
            for link in _atom(holder, "link")
            if is_alternate(link)
        )
        for (kind, language), count in sorted(keys.items(), key=str):
            if count > 1:
                section = "§4.1.1" if holder.tag == f"{A}feed" else "§4.1.2"
                problems.append(
                    Problem(
                        f"RFC 4287 {section}",
                        where(holder),
                        f"{count} alternate links with type={kind!r} hreflang={language!r}",
                    )
                )
    return problems


def relations_are_names_or_iris(root: Any) -> list[Problem]:
    """§4.2.7.2: rel is a bare name (isegment-nz-nc) or an IRI."""
    problems = []
    for link in root.iter(f"{A}link"):
        rel = link.get("rel")
        if rel is None or ISEGMENT_NZ_NC.fullmatch(rel):
            continue
        reason = iri_error(rel, absolute=True)
        if reason is not None:
            problems.append(Problem("RFC 4287 §4.2.7.2", where(link), f"rel: {reason}"))
    return problems


def _content_kind(content: Any) -> str:
    """``text``, ``xhtml``, ``xml``, ``text-media``, ``base64`` or ``out-of-line`` (§4.1.3)."""
    if content.get("src") is not None:
        return "out-of-line"
    kind = content.get("type", "text")
    if kind in {"text", "html", "xhtml"}:
        return "xhtml" if kind == "xhtml" else "text"
    if XML_MEDIA_TYPE.fullmatch(kind):
        return "xml"
    if kind.lower().startswith("text/"):
        return "text-media"
    return "base64"


def entries_have_content_or_alternate(root: Any) -> list[Problem]:
    """§4.1.2: an entry without atom:content has at least one alternate link."""
    return [
        Problem(
            "RFC 4287 §4.1.2",
            where(entry),
            "entry has no atom:content and no alternate link",
        )
        for entry in _entries(root)
        if not _atom(entry, "content") and not any(map(is_alternate, _atom(entry, "link")))
    ]


def summaries_accompany_opaque_content(root: Any) -> list[Problem]:
    """§4.1.2: out-of-line (src) and Base64 content come with an atom:summary."""
    problems = []
    for entry in _entries(root):
        for content in _atom(entry, "content"):
            kind = _content_kind(content)
            if kind in {"out-of-line", "base64"} and not _atom(entry, "summary"):
                problems.append(
                    Problem(
                        "RFC 4287 §4.1.2",
                        where(entry),
                        f"{kind} content (type={content.get('type')!r}) needs an atom:summary",
                    )
                )
    return problems


def content_types_are_allowed(root: Any) -> list[Problem]:
    """§4.1.3.1: never a composite media type; §4.1.3.3 rule 6: Base64 decodes."""
    problems = []
    for content in root.iter(f"{A}content"):
        kind = content.get("type", "")
        if COMPOSITE.match(kind):
            problems.append(
                Problem("RFC 4287 §4.1.3.1", where(content), f"{kind!r} is a composite type")
            )
        elif _content_kind(content) == "base64":
            try:
                base64.b64decode("".join((content.text or "").split()), validate=True)
            except (binascii.Error, ValueError):
                problems.append(
                    Problem(
                        "RFC 4287 §4.1.3.3",
                        where(content),
                        f"content of type {kind!r} is not valid Base64",
                    )
                )
    return problems


def repeated_ids_differ_in_updated(root: Any) -> list[Problem]:
    """§4.1.1: entries sharing an id are versions of one entry, and their atom:updated
    SHOULD differ."""
    seen: dict[tuple[str, str], Any] = {}
    problems = []
    for entry in _entries(root):
        key = (entry.findtext(f"{A}id") or "", entry.findtext(f"{A}updated") or "")
        if key in seen:
            problems.append(
                Problem(
                    "RFC 4287 §4.1.1 (SHOULD)",
                    where(entry),
                    f"id {key[0]!r} repeats with the same atom:updated {key[1]!r}",
                )
            )
        seen[key] = entry
    return problems


ATOM_RULES: Final = (
    dates_are_rfc_3339,
    ids_are_absolute_iris,
    references_are_iris,
    authors_are_present,
    alternates_are_distinct,
    relations_are_names_or_iris,
    entries_have_content_or_alternate,
    summaries_accompany_opaque_content,
    content_types_are_allowed,
    repeated_ids_differ_in_updated,
)
"""The RFC's rules beyond the grammar, in the order their problems are reported."""


def duplicate_entry_ids(data: bytes) -> list[str]:
    """The ids that appear on more than one entry.

    Not an RFC rule (§4.1.1 allows a repeated id: the same entry, re-sent): the site's own,
    which gives every edit a new id so that feed readers show each one.
    """
    root, broken = parse_xml(data)
    if broken is not None:
        return []
    counts = Counter(entry.findtext(f"{A}id") for entry in _entries(root))
    return sorted(str(key) for key, count in counts.items() if count > 1)


# --- RSS 2.0 ----------------------------------------------------------------------------


def rfc_822_error(text: str) -> str | None:
    """Why ``text`` is not an RFC 822 date-time (four-digit years preferred), or ``None``."""
    match = RFC_822.fullmatch(text.strip())
    if match is None:
        return f"{text!r} is not an RFC 822 date such as 'Sat, 28 Nov 2026 07:30:00 GMT'"
    day, month_name, year_text = int(match[3]), match[4], match[5]
    year = int(year_text) if len(year_text) == 4 else 1900 + int(year_text)
    month = MONTHS.index(month_name) + 1
    if not 1 <= day <= calendar.monthrange(year, month)[1]:
        return f"{text!r}: day {day} does not exist in {month_name} {year}"
    if int(match[6]) > 23 or int(match[7]) > 59 or int(match[9] or 0) > 60:
        return f"{text!r}: time of day out of range"
    if match[2] is not None and DAYS[calendar.weekday(year, month, day)] != match[2]:
        return f"{text!r}: {year}-{month:02}-{day:02} is not a {match[2]}"
    return None


def _is_url(text: str) -> bool:
    return re.fullmatch(r"[A-Za-z][A-Za-z0-9+.\-]*://\S+", text) is not None and (
        iri_error(text, absolute=True) is None
    )


def rss_problems(data: bytes) -> tuple[Problem, ...]:
    """Every way ``data`` breaks the RSS 2.0 specification's required elements and formats.

    channel: exactly one, with title, link (a URL) and description; items: a title or a
    description; pubDate and lastBuildDate: RFC 822; guid: isPermaLink is "true" or
    "false", and a permalink guid (the default) is a URL; enclosure: url, length, type.
    """
    root, broken = parse_xml(data)
    if broken is not None:
        return (broken,)
    if root.tag != "rss" or root.get("version") != "2.0":
        return (Problem("RSS 2.0", where(root), 'the root is not <rss version="2.0">'),)
    channels = list(root.iterchildren("channel"))
    if len(channels) != 1:
        return (Problem("RSS 2.0", where(root), f"{len(channels)} <channel> elements, not 1"),)
    channel = channels[0]
    problems = []
    for name in ("title", "link", "description"):
        found = list(channel.iterchildren(name))
        if len(found) != 1:
            problems.append(
                Problem(
                    "RSS 2.0 required channel elements", where(channel), f"{len(found)} <{name}>"
                )
            )
    link = channel.findtext("link")
    if link is not None and not _is_url(link.strip()):
        problems.append(Problem("RSS 2.0 <link>", where(channel), f"{link!r} is not a URL"))
    for name in ("pubDate", "lastBuildDate"):
        for element in channel.iterchildren(name):
            reason = rfc_822_error(element.text or "")
            if reason is not None:
                problems.append(Problem(f"RSS 2.0 <{name}>", where(element), reason))
    for item in channel.iterchildren("item"):
        problems.extend(_item_problems(item))
    return tuple(problems)


def _item_problems(item: Any) -> list[Problem]:
    problems = []
    if item.find("title") is None and item.find("description") is None:
        problems.append(
            Problem("RSS 2.0 <item>", where(item), "an item needs a <title> or a <description>")
        )
    for name in ("title", "link", "description", "guid", "pubDate", "author", "comments"):
        if len(item.findall(name)) > 1:
            problems.append(Problem("RSS 2.0 <item>", where(item), f"more than one <{name}>"))
    for link in item.iterchildren("link"):
        if not _is_url((link.text or "").strip()):
            problems.append(Problem("RSS 2.0 <link>", where(link), f"{link.text!r} is not a URL"))
    for date in item.iterchildren("pubDate"):
        reason = rfc_822_error(date.text or "")
        if reason is not None:
            problems.append(Problem("RSS 2.0 <pubDate>", where(date), reason))
    for guid in item.iterchildren("guid"):
        permalink = guid.get("isPermaLink", "true")
        if permalink not in {"true", "false"}:
            problems.append(
                Problem("RSS 2.0 <guid>", where(guid), f"isPermaLink={permalink!r}: use true/false")
            )
        elif permalink == "true" and not _is_url((guid.text or "").strip()):
            problems.append(
                Problem(
                    "RSS 2.0 <guid>",
                    where(guid),
                    f"{guid.text!r} is a permalink guid (isPermaLink defaults to true) "
                    'but not a URL; give a URL or isPermaLink="false"',
                )
            )
    for enclosure in item.iterchildren("enclosure"):
        missing = [name for name in ("url", "length", "type") if enclosure.get(name) is None]
        if missing:
            problems.append(
                Problem("RSS 2.0 <enclosure>", where(enclosure), f"missing {', '.join(missing)}")
            )
    return problems


def duplicate_guids(data: bytes) -> list[str]:
    """The guids that appear on more than one item (the site's rule; RSS 2.0 has none)."""
    root, broken = parse_xml(data)
    if broken is not None:
        return []
    counts = Counter((guid.text or "").strip() for guid in root.iter("guid"))
    return sorted(key for key, count in counts.items() if count > 1)
