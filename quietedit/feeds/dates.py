"""Feed dates: the publisher's text in, a UTC moment and how far to trust it out (pure).

Rules (the seed's, kept on purpose):

- a date without a time zone is read as UTC and marked inexact (``exact=False``);
- a two-digit year windows into 1970-2069 (``70`` is 1970, ``69`` is 2069);
- a date more than an hour after the fetch is replaced by the fetch time (``clamped``):
  a feed cannot know the future, so it is a CMS clock or a template error.

Accepted: RFC 822/1123/2822 with or without a (possibly wrong) day name and seconds,
numeric or named zones (the table below; unknown names read as UTC, inexact), full
English and German month names and their abbreviations (``30. November 2026``,
``Mo, 30 Nov 2026 08:00:00 MEZ``), month-first forms (``November 30, 2026 8:00 AM EST``),
C ``asctime``, ISO 8601 / RFC 3339 in extended and basic form (``T`` or space,
fractions, ``Z``/``±hh:mm``/``±hhmm``/``±hh``, date alone), and ISO 8601's reduced forms
(``2026-11``, ``2026``, ``26-11-30``, ``261130``, ``-2611``, ordinal ``26334``; two-digit years
window as above). Text none of these read goes to feedparser's registered date handlers
(Greek, Hungarian, Korean and Perforce forms, :mod:`quietedit.feeds.date_handlers`) before
it gives ``value=None``; this module never raises on hostile text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from typing import Final

from quietedit.feeds.date_handlers import registered_handlers_moment

FUTURE_TOLERANCE: Final = timedelta(hours=1)
"""How far after the fetch a date may lie before it is replaced by the fetch time
(the seed's rule; an hour absorbs clock skew between the publisher and us)."""

MAX_DATE_CHARS: Final = 120
"""Longer "dates" are some other field's text (or an attack on the regexes): unparseable."""

_HOUR = 3600
ZONES: Final[dict[str, int]] = {
    # RFC 822 §5.1 and RFC 2822 §4.3 (obsolete but still written by feeds).
    "UT": 0, "UTC": 0, "GMT": 0, "Z": 0,
    "EST": -5 * _HOUR, "EDT": -4 * _HOUR, "CST": -6 * _HOUR, "CDT": -5 * _HOUR,
    "MST": -7 * _HOUR, "MDT": -6 * _HOUR, "PST": -8 * _HOUR, "PDT": -7 * _HOUR,
    # North America beyond RFC 822.
    "AKST": -9 * _HOUR, "AKDT": -8 * _HOUR, "HST": -10 * _HOUR,
    "AST": -4 * _HOUR, "ADT": -3 * _HOUR, "NST": -(3 * _HOUR + 1800), "NDT": -(2 * _HOUR + 1800),
    # Generic North American names (no daylight saving said): read as standard time, as
    # feedparser's RFC 822 table does, but never exact (see GENERIC_ZONES).
    "AT": -4 * _HOUR, "ET": -5 * _HOUR, "CT": -6 * _HOUR, "MT": -7 * _HOUR, "PT": -8 * _HOUR,
    # Europe, English and German names.
    "WET": 0, "WEST": _HOUR, "BST": _HOUR, "CET": _HOUR, "CEST": 2 * _HOUR,
    "MEZ": _HOUR, "MESZ": 2 * _HOUR, "MET": _HOUR, "MEST": 2 * _HOUR,
    "EET": 2 * _HOUR, "EEST": 3 * _HOUR, "MSK": 3 * _HOUR,
    # Asia-Pacific.
    "JST": 9 * _HOUR, "KST": 9 * _HOUR, "HKT": 8 * _HOUR, "SGT": 8 * _HOUR,
    "AWST": 8 * _HOUR, "ACST": 9 * _HOUR + 1800, "ACDT": 10 * _HOUR + 1800,
    "AEST": 10 * _HOUR, "AEDT": 11 * _HOUR, "NZST": 12 * _HOUR, "NZDT": 13 * _HOUR,
}  # fmt: skip
"""Named zones and their UTC offsets in seconds. Ambiguous names (IST: India, Ireland or
Israel?) are left out on purpose: an unknown name reads as UTC and is marked inexact."""

GENERIC_ZONES: Final = frozenset({"AT", "ET", "CT", "MT", "PT"})
"""Zone names that do not say whether daylight saving applies ("ET" is EST or EDT): read
as standard time, but the date is marked inexact."""

MONTHS: Final[dict[str, int]] = {
    name: number
    for number, names in enumerate(
        [
            ("jan", "january", "januar", "jänner", "jän", "jaen"),
            ("feb", "february", "februar", "feber"),
            ("mar", "march", "märz", "mär", "maerz", "mrz"),
            ("apr", "april"),
            ("may", "mai"),
            ("jun", "june", "juni"),
            ("jul", "july", "juli"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october", "okt", "oktober"),
            ("nov", "november"),
            ("dec", "december", "dez", "dezember"),
        ],
        start=1,
    )
    for name in names
}
"""Month names (English and German, full and abbreviated), lower case, to numbers."""


@dataclass(frozen=True, slots=True)
class NormalizedDate:
    """A feed date: the text as written and what it means in UTC.

    ``value`` is timezone-aware UTC, or ``None`` when the text is no date we can read.
    ``exact`` is true only when the text gave a time and a known zone (a clamped date
    is never exact). ``clamped`` means the text lay more than an hour after the fetch
    and ``value`` is the fetch time instead.
    """

    value: datetime | None
    exact: bool
    raw: str
    clamped: bool = False


_TIME = (
    r"(?P<hour>\d{1,2})[:.](?P<minute>\d{2})"
    r"(?:[:.](?P<second>\d{2})(?:[.,](?P<fraction>\d{1,9}))?)?"
    r"(?:\s*(?P<ampm>[ap])\.?m\.?)?"
)
_ZONE = r"(?P<zone>[a-z]{1,5}(?:\s*[+-]\d{1,2}(?::?\d{2})?)?|[+-]\d{1,2}(?::?\d{2})?)"
_DAYNAME = r"(?:[^\W\d_]{2,12}(?:\.?,\s*|\.?\s+))?"  # day names are read past, never checked

_PATTERNS: Final = tuple(
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        # ISO 8601 extended: 2026-11-30T08:00:00.123+01:00, 2026-11-30 08:00, 2026-11-30;
        # a zone only after a time ("2013-01-27-01" is no date). The month may carry
        # Google's extra zero ("2026-011-30").
        r"(?P<year>\d{4})-(?P<month>0?\d{1,2})-(?P<day>\d{1,2})"
        r"(?:(?:t|\s+)(?P<hour>\d{1,2}):(?P<minute>\d{2})"
        r"(?::(?P<second>\d{2})(?:[.,](?P<fraction>\d{1,9}))?)?"
        r"\s*" + _ZONE + "?)?",
        # ISO 8601 basic: 20261130T080000Z, 20261130
        r"(?P<year>\d{4})(?P<month>\d{2})(?P<day>\d{2})"
        r"(?:t(?P<hour>\d{2})(?P<minute>\d{2})(?P<second>\d{2})?(?:[.,](?P<fraction>\d{1,9}))?"
        r"\s*" + _ZONE + "?)?",
        # ISO 8601 reduced precision (W3C-DTF): 2026-11, 2026
        r"(?P<year>\d{4})(?:-(?P<month>\d{2}))?",
        # ISO 8601:2000 truncated two-digit years: 26-11-30, 261130, -26-11, -2611
        r"(?P<year>\d{2})-?(?P<month>\d{2})-?(?P<day>\d{2})",
        r"-(?P<year>\d{2})-?(?P<month>\d{2})",
        # ISO 8601 ordinal dates: 2026-334, 2026334, 26334
        r"(?P<year>\d{4}|\d{2})-?(?P<ordinal>[0-3]\d{2})",
        # RFC 822 and friends: [Mon,] 30 Nov 2026 08:00[:00] [zone]; 30. November 2026, 08.00 Uhr
        _DAYNAME + r"(?P<day>\d{1,2})\.?(?:\s+|-)(?P<mname>[^\W\d_]{3,9})\.?(?:\s+|-)"
        r"(?P<year>\d{2,4})(?:,?\s+(?:um\s+|at\s+)?" + _TIME + r")?(?:\s*uhr)?"
        r"\s*" + _ZONE + "?",
        # Month first: [Monday,] November 30, 2026 [at] 8:00 AM [EST]
        _DAYNAME + r"(?P<mname>[^\W\d_]{3,9})\.?\s+(?P<day>\d{1,2})(?:st|nd|rd|th)?,?\s+"
        r"(?P<year>\d{4})(?:,?\s+(?:at\s+)?" + _TIME + r")?\s*" + _ZONE + "?",
        # C asctime: Mon Nov 30 08:00:00 [UTC] 2026
        _DAYNAME
        + r"(?P<mname>[^\W\d_]{3,9})\s+(?P<day>\d{1,2})\s+"
        + _TIME
        + r"\s+(?:"
        + _ZONE
        + r"\s+)?(?P<year>\d{4})",
    )
)
_COMMENT: Final = re.compile(r"\([^()]*\)")  # RFC 2822 comments: "+0100 (CET)"
_SPACE: Final = re.compile(r"\s+")
_ETC: Final = re.compile(r"(?<=\s)etc/(?=[a-z]+$)", re.IGNORECASE)  # tz database "Etc/GMT"
_OFFSET: Final = re.compile(r"([+-])(\d{1,2})(?::?(\d{2}))?$")
_TRAILING_ZONE: Final = re.compile(r"\d:\d{2}(?::\d{2})?\s*" + _ZONE + r"$", re.IGNORECASE)


def normalize_date(text: str, *, fetched_at: datetime | None) -> NormalizedDate:
    """Read a feed date per the module's rules; never raises on the text.

    ``fetched_at`` (timezone-aware) is when the feed was fetched: dates more than an hour
    after it are clamped to it. ``None`` means no fetch time is known and nothing is
    clamped. A naive ``fetched_at`` is a programming error (``ValueError``).
    """
    if fetched_at is not None and fetched_at.tzinfo is None:
        raise ValueError(f"fetched_at {fetched_at.isoformat()} has no timezone; pass UTC")
    parsed = _parse(text)
    if parsed is None:
        return NormalizedDate(value=None, exact=False, raw=text)
    value, exact = parsed
    return _bounded(value, exact=exact, raw=text, fetched_at=fetched_at)


def _bounded(
    value: datetime, *, exact: bool, raw: str, fetched_at: datetime | None
) -> NormalizedDate:
    """A parsed moment with the future clamp applied."""
    value = value.astimezone(UTC)
    if fetched_at is not None and value > fetched_at + FUTURE_TOLERANCE:
        return NormalizedDate(value=fetched_at.astimezone(UTC), exact=False, raw=raw, clamped=True)
    return NormalizedDate(value=value, exact=exact, raw=raw)


def _parse(text: str) -> tuple[datetime, bool] | None:
    """The UTC moment ``text`` names and whether its zone was known, or None."""
    if len(text) > MAX_DATE_CHARS:
        return None
    cleaned = _ETC.sub("", _SPACE.sub(" ", _COMMENT.sub(" ", text)).strip())
    for pattern in _PATTERNS:
        match = pattern.fullmatch(cleaned)
        if match is not None:
            fields = match.groupdict()
            moment = _moment(fields)
            month_name = fields.get("mname")
            if moment is not None or month_name is None or month_name.lower() in MONTHS:
                return moment
            break  # shaped like ours but a month name we do not know (Greek): ask feedparser's
    fallback = registered_handlers_moment(cleaned)
    if fallback is None:
        return None
    return fallback, _explicit_zone(cleaned)


def _explicit_zone(text: str) -> bool:
    """Whether ``text`` ends with a time and a zone we know (for a fallback's exactness)."""
    match = _TRAILING_ZONE.search(text)
    if match is None:
        return False
    offset = _offset(match.group("zone"))
    return offset is not None and offset[1]


def _moment(fields: dict[str, str | None]) -> tuple[datetime, bool] | None:
    year_text = fields["year"] or ""
    year = int(year_text)
    if len(year_text) == 2:
        year += 2000 if year < 70 else 1900
    elif len(year_text) != 4:
        return None
    if fields.get("mname") is not None:
        month = MONTHS.get((fields["mname"] or "").lower().rstrip("."))
        if month is None:
            return None
    else:
        month = int(fields.get("month") or 1)
    day = int(fields.get("day") or 1)
    if fields.get("ordinal") is not None:
        month, day = _from_ordinal(year, int(fields["ordinal"] or 0))
    has_time = fields.get("hour") is not None
    hour = int(fields.get("hour") or 0)
    minute = int(fields.get("minute") or 0)
    second = int(fields.get("second") or 0)
    if second == 60:  # a leap second is not worth a None; 61 is no second at all
        second = 59
    fraction = (fields.get("fraction") or "")[:6].ljust(6, "0")
    ampm = (fields.get("ampm") or "").lower()
    if ampm:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if ampm == "p" else 0)
    next_day = hour == 24 and minute == 0 and second == 0  # ISO 8601's end of day
    if next_day:
        hour = 0
    offset = _offset(fields.get("zone"))
    if offset is None:
        return None
    seconds, zone_known = offset
    try:
        moment = datetime(
            year,
            month,
            day,
            hour,
            minute,
            second,
            int(fraction),
            tzinfo=timezone(timedelta(seconds=seconds)),
        )
        if next_day:
            moment += timedelta(days=1)
        return moment.astimezone(UTC), zone_known and has_time
    except (ValueError, OverflowError):
        return None


def _from_ordinal(year: int, ordinal: int) -> tuple[int, int]:
    """(month, day) of day ``ordinal`` of ``year``; (0, 0), which no date accepts, past its end."""
    try:
        moment = datetime(year, 1, 1, tzinfo=UTC) + timedelta(days=ordinal - 1)
    except (ValueError, OverflowError):
        return 0, 0
    if ordinal < 1 or moment.year != year:
        return 0, 0
    return moment.month, moment.day


def _offset(zone: str | None) -> tuple[int, bool] | None:
    """Seconds east of UTC and whether the zone was known; None for an impossible offset."""
    if zone is None or not zone.strip():
        return 0, False
    zone = zone.replace(" ", "").upper()
    numeric = _OFFSET.search(zone)
    if numeric is not None:
        sign, hours, minutes = numeric.groups()
        if int(hours) > 18 or int(minutes or 0) > 59:
            return None
        seconds = int(hours) * 3600 + int(minutes or 0) * 60
        return (-seconds if sign == "-" else seconds), True
    if zone in ZONES:
        return ZONES[zone], zone not in GENERIC_ZONES
    return 0, False
