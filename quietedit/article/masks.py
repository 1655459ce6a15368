"""Volatile spans: text a page changes on every fetch that is not an edit (pure).

Each :class:`Mask` replaces its spans with a fixed placeholder (``{relative-time}``,
``{timestamp}``, ``{session-id}``, ``{count}``) before the content hash is taken, so
"5 minutes ago" becoming "an hour ago" is not a new revision. The price, stated in the
seed's own limitations: an edit confined to a masked span is invisible. So the masks
are narrow on purpose, and each carries examples it must mask and look-alikes it must
leave alone (both are tested):

- relative times only with digits or "a/an/one" and plausible values (up to 59 minutes,
  23 hours, 9 days: "5 minutes ago", "vor einer Minute"), never "three years ago",
  "48 hours ago" or "vor zwei Tagen", which are prose;
- clock times only in a dateline: after "Updated", "Published", "Stand", "aktualisiert"
  … at the start of the text, after a separator, or capitalised;
- counts of comments, views, shares only where page furniture stands: alone, between
  separators, or in the compact "3.4K views" form prose does not use;
- session and ad ids: ``sid=…``-style values, UUIDs, long hex and mixed-case base64-like
  tokens that no word or number looks like.

Masks run on text already folded by :func:`quietedit.article.fingerprint.fold_text`
(NFC, ASCII punctuation, single spaces); they are idempotent.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

Replacement = str | Callable[[re.Match[str]], str]


@dataclass(frozen=True, slots=True)
class Mask:
    """One kind of volatile span: how to find it, what replaces it, and examples.

    ``examples`` are (text, masked text) pairs; ``keeps`` are texts the mask must leave
    exactly as they are. ``triggers`` make it cheap: the pattern only runs on text whose
    lower case contains one of them (every span it masks contains one); ``gate``, when
    given, is a further cheap test every text with a span passes.
    """

    name: str
    pattern: re.Pattern[str]
    replacement: Replacement
    triggers: tuple[str, ...]
    examples: tuple[tuple[str, str], ...]
    keeps: tuple[str, ...]
    gate: Callable[[str], bool] | None = None

    def apply(self, text: str) -> str:
        lowered = text.lower()
        if not any(trigger in lowered for trigger in self.triggers):
            return text
        if self.gate is not None and not self.gate(text):
            return text
        return self.pattern.sub(self.replacement, text)


# Separators that page furniture uses between items ("By Ana Ruiz | 12 comments · Share").
_SEPARATOR: Final = r"[|\u00b7\u2022/,;:()\[\]]"
_FURNITURE_WORDS: Final = (
    r"Share|Shares|Tweet|Email|E-Mail|Print|Drucken|Teilen|Merken|Save|WhatsApp|Facebook|"
    r"Twitter|Comments?|Kommentare?|Views|Likes|Aufrufe"
)
_AFTER_FURNITURE: Final = rf"(?=\s*(?:$|{_SEPARATOR}|- |(?:{_FURNITURE_WORDS})\b))"
_ENDS_WITH_SEPARATOR: Final = re.compile(rf"(?:{_SEPARATOR}| -)\s*$")

# Count: 12, 1,234, 1.234, 3.4K, 1.2M, 12 Tsd. (the compact forms need no context).
_PLAIN_NUMBER: Final = r"\d{1,3}(?:[.,]\d{3})+|\d+"
_COMPACT_NUMBER: Final = r"\d+(?:[.,]\d+)?\s?(?:[KkMm]\b|Tsd\.|Mio\.)"
_COUNTED: Final = (
    r"(?:comments?|replies|views|shares|likes|reactions|reads|Kommentare?|Antworten|"
    r"Aufrufe|Reaktionen|Leser(?:innen)?|mal geteilt|mal gelesen)"
)

_DATELINE_KEYWORD: Final = (
    r"(?:last updated|first published|updated|published|posted|modified|last modified|as of|"
    r"zuletzt aktualisiert|aktualisiert|ver\u00f6ffentlicht|erstellt|ge\u00e4ndert|stand)"
)
_MONTH: Final = (
    r"(?:jan(?:uary|uar)?|j\u00e4n(?:ner)?|feb(?:ruary|ruar)?|m(?:ar(?:ch)?|\u00e4rz)|"
    r"apr(?:il)?|ma[iy]|june?|juni|july?|juli|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"o[ck]t(?:ober)?|nov(?:ember)?|de[cz](?:ember)?)\.?"
)
_WEEKDAY: Final = (
    r"(?:(?:mon|tue|tues|wed|wednes|thu|thurs|fri|sat|satur|sun)(?:day)?|montag|dienstag|"
    r"mittwoch|donnerstag|freitag|samstag|sonntag|mo|di|mi|do|fr|sa|so)\.?,?\s+"
)
_DATE: Final = (
    rf"(?:{_WEEKDAY})?(?:\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}\.\s?\d{{1,2}}\.\s?(?:\d{{4}}|\d{{2}})?|"
    rf"\d{{1,2}}/\d{{1,2}}/\d{{2,4}}|\d{{1,2}}\.?\s+{_MONTH}(?:\s+\d{{4}})?|"
    rf"{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?)"
)
_CLOCK: Final = (
    r"\d{1,2}[:.]\d{2}(?:[:.]\d{2})?(?!\d)(?:\s?[ap]\.?m\.?)?"
    r"(?:\s?(?:uhr|h\b|gmt|utc|bst|cet|cest|mez|mesz|[ecmp][sd]?t\b|z\b|[+-]\d{2}:?\d{2})){0,2}"
)
_DATELINE: Final = re.compile(
    rf"\b(?P<keyword>{_DATELINE_KEYWORD})(?P<gap>\s*:?\s*(?:(?:on|at|am|um)\s+)?)"
    rf"(?P<stamp>(?:{_DATE},?\s*(?:(?:at|um|-)\s*)?)?{_CLOCK})",
    re.IGNORECASE,
)


_DATELINE_TRIGGERS: Final = (
    "updated", "published", "posted", "modified", "as of", "aktualisiert",
    "ver\u00f6ffentlicht", "erstellt", "ge\u00e4ndert", "stand",
)  # fmt: skip


def _mask_dateline(match: re.Match[str]) -> str:
    """Mask the stamp only where a dateline can stand: at the start of the text, after a
    separator, or with the keyword capitalised ("Updated", "Stand") as datelines write it."""
    before = match.string[: match.start()]
    at_boundary = not before.strip() or _ENDS_WITH_SEPARATOR.search(before) is not None
    if at_boundary or match.group("keyword")[0].isupper():
        return match.group("keyword") + match.group("gap") + "{timestamp}"
    return match.group(0)


RELATIVE_TIME_EN: Final = Mask(
    name="relative-time",
    pattern=re.compile(
        r"\b(?:just now|(?:a )?(?:few )?moments? ago|"
        r"(?:(?:about|around|over|nearly|almost|less than|more than|under) )?"
        r"(?:(?:an?|one|a few|[1-5]?\d) ?(?:s|secs?|seconds?|m|mins?|minutes?)|"
        r"(?:an?|one|1?\d|2[0-3]) ?(?:h|hrs?|hours?)|(?:an?|one|[1-9]) ?(?:d|days?))\.? ago)(?!\w)",
        re.IGNORECASE,
    ),
    replacement="{relative-time}",
    triggers=("ago", "just now"),
    examples=(
        ("Updated 5 minutes ago", "Updated {relative-time}"),
        ("an hour ago", "{relative-time}"),
        ("Posted about 2 hours ago by Ana Ruiz", "Posted {relative-time} by Ana Ruiz"),
        ("just now", "{relative-time}"),
        ("3h ago | 12m ago", "{relative-time} | {relative-time}"),
        ("2 days ago", "{relative-time}"),
    ),
    keeps=(
        "The meeting lasted 5 minutes.",
        "The wall fell 30 years ago.",
        "She was arrested three days ago.",
        "The attack happened 12 days ago.",
        "We got the keys 48 hours ago.",
        "3 people died.",
    ),
)

RELATIVE_TIME_DE: Final = Mask(
    name="relative-time-de",
    pattern=re.compile(
        r"\b(?:gerade eben|vor (?:wenigen|ein paar) (?:Sekunden|Minuten)|"
        r"vor (?:(?:etwa|rund|\u00fcber|knapp|mehr als|weniger als) )?"
        r"(?:(?:einer|[1-5]?\d) ?(?:Sekunden?|Sek\.?|Minuten?|Min\.?)|"
        r"(?:einer|1?\d|2[0-3]) ?(?:Stunden?|Std\.?))|"
        r"vor (?:einem|[1-9]) Tag(?:en)?)(?!\w)",
        re.IGNORECASE,
    ),
    replacement="{relative-time}",
    triggers=("vor ", "gerade eben"),
    examples=(
        ("vor 3 Stunden", "{relative-time}"),
        ("Aktualisiert vor einer Minute", "Aktualisiert {relative-time}"),
        ("gerade eben", "{relative-time}"),
        ("vor 5 Min.", "{relative-time}"),
        ("vor 2 Tagen", "{relative-time}"),
    ),
    keeps=(
        "Die Sitzung dauerte 5 Minuten.",
        "Die Mauer fiel vor 30 Jahren.",
        "Er wurde vor zwei Tagen festgenommen.",
        "Das geschah vor 12 Tagen.",
        "Die Verhandlungen begannen vor 48 Stunden.",
    ),
)

DATELINE: Final = Mask(
    name="dateline-time",
    pattern=_DATELINE,
    replacement=_mask_dateline,
    triggers=_DATELINE_TRIGGERS,
    examples=(
        ("Updated 10:42 GMT", "Updated {timestamp}"),
        ("Stand: 14:05 Uhr", "Stand: {timestamp}"),
        ("Updated 30 November 2026, 10:42", "Updated {timestamp}"),
        ("By Ana Ruiz | Published 9:05 am ET", "By Ana Ruiz | Published {timestamp}"),
        ("zuletzt aktualisiert am 30.11.2026 um 14:05 Uhr", "zuletzt aktualisiert am {timestamp}"),
        ("Last updated: Nov. 30, 2026 at 10:42 a.m. EST", "Last updated: {timestamp}"),
    ),
    keeps=(
        "The train left at 10:42.",
        "The report, published 12 March, showed a rise.",
        "The ministry updated its guidance at 10:00 on Monday.",
        "The score was 2:1 after 90 minutes.",
    ),
)

_SESSION_CANDIDATE: Final = re.compile(
    r"(?P<key>\b(?i:sid|sessionid|session_id|phpsessid|jsessionid|sessid|ad_?id|token|"
    r"cachebuster|cb)=)[^\s&#\"'<>]+"
    r"|\b(?i:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b"
    r"|(?<![\w+=])(?P<token>[0-9A-Za-z]{16,})(?P<padding>={0,2})(?![\w+=])"
)
_HEX: Final = re.compile(r"[0-9a-fA-F]+")
_LOWER_RUN: Final = re.compile(r"[a-z]{7}")  # 1 in 500 at a random base64 position


def _may_hold_session_id(text: str) -> bool:
    """Every span of the session mask has a ``=`` or sits in a word of 16+ characters (a
    UUID, a long token); most prose has neither, and this test is 20x cheaper than the
    pattern."""
    return "=" in text or any(len(word) >= 16 for word in text.split())


def _mask_session(match: re.Match[str]) -> str:
    """Mask a ``key=`` value and a UUID always; a long token only when it is shaped like a
    machine id: hex with at least three digits and three letters, or 24+ characters of
    mixed-case base64 with at least two digits and no run of seven lower-case letters.
    Words, numbers, glued camel-case words and code identifiers are not."""
    if match.group("key"):
        return match.group("key") + "{session-id}"
    token = match.group("token")
    if token is None:
        return "{session-id}"
    digits = sum(char.isdigit() for char in token)
    if _HEX.fullmatch(token):
        return "{session-id}" if digits >= 3 and len(token) - digits >= 3 else match.group(0)
    mixed_case = any(char.islower() for char in token) and any(char.isupper() for char in token)
    words = _LOWER_RUN.search(token) is not None  # "BuildConcepts11Styling": glued words
    if len(token) >= 24 and digits >= 2 and mixed_case and not words:
        return "{session-id}"
    return match.group(0)


SESSION_ID: Final = Mask(
    name="session-id",
    pattern=_SESSION_CANDIDATE,
    replacement=_mask_session,
    triggers=("=", *"0123456789"),
    gate=_may_hold_session_id,
    examples=(
        ("Read more: /story?sid=8f3a2c91d4e5b607", "Read more: /story?sid={session-id}"),
        ("ad 3f2504e0-4f89-11d3-9a0c-0305e82c3301", "ad {session-id}"),
        ("ref 9f86d081884c7d659a2feaa0c55ad015", "ref {session-id}"),
        ("id aGVsbG8gd29ybGQgdGhpcyBpcw8x", "id {session-id}"),
    ),
    keeps=(
        "ISBN 9783161484100",
        "Donaudampfschifffahrtsgesellschaftskapitaen",
        "COVID-19 cases rose by 1234567 in 2026.",
        "call 0049 30 1234567",
        "deadbeefcafebabe",
        "https://www.sciencedirect.com/science/article/pii/B9780128039687000010",
        "let needle = Utf8CaseInsensitiveNeedle::new();",
        "What You BuildConcepts11StylingCSS frameworks",
    ),
)

_COUNT_TRIGGERS: Final = (
    "comment", "repl", "view", "share", "like", "reaction", "read", "kommentar", "antwort",
    "aufruf", "reaktion", "leser", "geteilt", "gelesen", "tweet", "mail", "print", "drucken",
    "teilen", "merken", "save", "whatsapp", "facebook", "twitter",
)  # fmt: skip
_COUNT_PATTERN: Final = re.compile(
    rf"(?<![\w.,])(?:(?P<compact>{_COMPACT_NUMBER} (?P<compact_what>{_COUNTED}))\b"
    rf"|(?P<plain>{_PLAIN_NUMBER}) (?P<what>{_COUNTED}){_AFTER_FURNITURE})"
    rf"|(?P<label>\b(?:{_FURNITURE_WORDS})) ?:? ?\(?(?P<labelled>\d[\d.,]*[KkMm]?)\)?"
    rf"(?!\s*(?:%|percent|per cent|Prozent))(?![\w.,])"
)


def _mask_count(match: re.Match[str]) -> str:
    """Compact counts and labelled counts anywhere; a plain "12 comments" only where
    furniture stands: at the start of the text or after a separator."""
    if match.group("compact"):
        return "{count} " + match.group("compact_what")
    if match.group("label"):
        return match.group(0).replace(match.group("labelled"), "{count}", 1)
    before = match.string[: match.start()]
    if before.strip() and _ENDS_WITH_SEPARATOR.search(before) is None:
        return match.group(0)
    return "{count} " + match.group("what")


COUNT: Final = Mask(
    name="count",
    pattern=_COUNT_PATTERN,
    replacement=_mask_count,
    triggers=_COUNT_TRIGGERS,
    examples=(
        ("1,234 comments", "{count} comments"),
        ("12 Kommentare", "{count} Kommentare"),
        ("3.4K views", "{count} views"),
        ("Share 57", "Share {count}"),
        (
            "By Ana Ruiz | 12 comments | 1.2M views",
            "By Ana Ruiz | {count} comments | {count} views",
        ),
        ("Comments (12)", "Comments ({count})"),
    ),
    keeps=(
        "3 people died.",
        "The agency received 1,234 comments on the proposed rule.",
        "The two parties share 57 percent of the vote.",
        "Turnout was 61 percent.",
    ),
)

MASKS: Final = (RELATIVE_TIME_EN, RELATIVE_TIME_DE, DATELINE, SESSION_ID, COUNT)
"""Every mask, in the order they are applied."""


def mask_volatile(text: str) -> str:
    """``text`` with every volatile span replaced by its mask's placeholder; idempotent.

    The masks run until nothing changes, because one mask's span can hide another's
    ("3.4K Kommentare 5": the noun of one count is the label of the next). Every change
    removes digits or trigger words and placeholders never match, so this ends, in two
    rounds on real text.
    """
    while True:
        masked = text
        for mask in MASKS:
            masked = mask.apply(masked)
        if masked == text:
            return text
        text = masked
