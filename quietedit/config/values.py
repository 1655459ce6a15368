"""The value syntax of ``feeds.yaml`` and ``QUIETEDIT_*`` variables, and problem reporting (pure).

Each ``parse_*`` function takes what YAML produced, or the text of an environment variable,
and returns the typed value or raises ``InvalidValueError``. The error's message is written
to follow the bad value's repr: ``'10x' is not a duration; write ...``; ``quietedit.config``
puts the source and key path in front of it (``ProblemReport``).

- durations: a number of seconds, or ``"<number><unit>"`` with unit ms, s, m, h or d
  (``"10m"``, ``"1.5h"``, ``"500ms"``) → float seconds;
- sizes: a whole number of bytes, or ``"<number><unit>"`` with B, KB, MB, GB (powers of
  1000) or KiB, MiB, GiB (powers of 1024), any letter case → int bytes;
- booleans: YAML true/false, or the text true/false/yes/no/1/0 in any letter case.

Negative, NaN and infinite values are refused, and so is a boolean where a number belongs:
YAML reads ``true`` as a bool, and treating it as 1 would hide a mistake.
"""

from __future__ import annotations

import difflib
import math
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, localcontext
from typing import Any

from quietedit.analysis.watch import normal, term_problem, term_slug

# Longer than ten years is a slipped unit, not a wish; the cap also keeps every later
# datetime/timedelta sum far from overflowing.
MAX_DURATION_SECONDS = 10 * 365 * 86_400

_DURATION_UNITS: dict[str, Decimal] = {
    "d": Decimal(86_400),
    "h": Decimal(3_600),
    "m": Decimal(60),
    "s": Decimal(1),
    "ms": Decimal("0.001"),
}
_SIZE_UNITS: dict[str, int] = {
    "gib": 1024**3,
    "gb": 1000**3,
    "mib": 1024**2,
    "mb": 1000**2,
    "kib": 1024,
    "kb": 1000,
    "b": 1,
}
_SIZE_NAMES = {"gib": "GiB", "gb": "GB", "mib": "MiB", "mb": "MB", "kib": "KiB", "kb": "KB"}
_NUMBER = r"(?P<number>\d+(?:\.\d*)?|\.\d+)"
# Units are case-sensitive for durations ("M" could be read as months) but not for sizes,
# where "10mb" has only one sensible reading.
_DURATION_TEXT = re.compile(rf"{_NUMBER}\s*(?P<unit>ms|s|m|h|d)?")
_SIZE_TEXT = re.compile(rf"{_NUMBER}\s*(?P<unit>[kmg]i?b|b)?", re.IGNORECASE)
_INTEGER_TEXT = re.compile(r"[-+]?\d+")
_FLOAT_TEXT = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?", re.IGNORECASE)
_TRUE_WORDS = frozenset({"true", "yes", "1"})
_FALSE_WORDS = frozenset({"false", "no", "0"})
_SHOWN_LENGTH = 80
_PLAIN_KEY = re.compile(r"[A-Za-z0-9_-]+")
# Enough digits that products and quotients of config-sized numbers are exact.
_PRECISION = 100

_DURATION_FIX = "write seconds (30) or a number with a unit ms, s, m, h or d ('10m', '1.5h')"
_SIZE_FIX = "write bytes (1048576) or a number with a unit B, KB, MB, GB, KiB, MiB or GiB ('10MiB')"


class InvalidValueError(ValueError):
    """A value does not fit its syntax; the message continues after the value's repr."""


@dataclass(frozen=True, slots=True)
class ProblemReport:
    """Collects problem lines ``<source>: <key path>: <message>``; ``source`` is the default."""

    source: str
    problems: list[str] = field(default_factory=list)

    def add(self, path: str, message: str, *, source: str | None = None) -> None:
        """Record one problem; ``message`` starts with the bad value's repr where there is one."""
        self.problems.append(f"{source or self.source}: {path}: {message}")


def show_value(value: object) -> str:
    """The repr of ``value`` for a problem line, shortened past 80 characters."""
    shown = repr(value)
    return shown if len(shown) <= _SHOWN_LENGTH else shown[: _SHOWN_LENGTH - 3] + "..."


def join_path(path: str, key: object) -> str:
    """``path.key``, ``path['odd key']`` for a key with dots or spaces, or ``key`` at the top."""
    if not (isinstance(key, str) and _PLAIN_KEY.fullmatch(key)):
        return f"{path}[{key!r}]"
    return f"{path}.{key}" if path else key


def mapping_at(value: object, path: str, report: ProblemReport, *, fix: str) -> Mapping[Any, Any]:
    """``value`` if it is a mapping, {} if it is empty (null); else a problem and {}."""
    if value is None:
        return {}
    if isinstance(value, Mapping):
        return value
    report.add(path, f"{show_value(value)} is {describe_type(value)}, not a mapping; {fix}")
    return {}


def check_keys(
    mapping: Mapping[Any, Any],
    known: Sequence[str],
    path: str,
    report: ProblemReport,
    *,
    elsewhere: Callable[[str], str | None] | None = None,
) -> None:
    """Report each key of ``mapping`` not in ``known``, with the closest known key if any.

    ``elsewhere`` may name where an unknown key belongs when no sibling resembles it.
    """
    for key in mapping:
        if key in known:
            continue
        match = difflib.get_close_matches(str(key), known, n=1)
        hint = elsewhere(str(key)) if elsewhere and not match else None
        if match:
            fix = f"did you mean {match[0]!r}?"
        elif hint:
            fix = f"did you mean {hint}?"
        else:
            fix = f"remove it (known keys: {', '.join(known)})"
        report.add(join_path(path, key), f"unknown key; {fix}")


def describe_type(value: object) -> str:
    """Name what YAML made of ``value`` the way a config author would say it ("a list")."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, date):
        return "a date"
    return f"a {type(value).__name__}"


def parse_bool(value: object) -> bool:
    """A YAML bool, or true/false/yes/no/1/0 as text in any letter case."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        word = value.strip().lower()
        if word in _TRUE_WORDS:
            return True
        if word in _FALSE_WORDS:
            return False
    raise _wrong_type(value, "true/false", "write true or false (yes/no and 1/0 work as text too)")


def parse_int(value: object) -> int:
    """A whole number (YAML int or its text); never a bool or a float."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _INTEGER_TEXT.fullmatch(value.strip()):
        return int(value)
    if isinstance(value, float):
        raise InvalidValueError("is not a whole number; write it without a decimal point")
    raise _wrong_type(value, "a whole number", "write digits only, e.g. 20")


def parse_number(value: object) -> float:
    """A finite number (YAML int/float or its text); never a bool."""
    if isinstance(value, str) and _FLOAT_TEXT.fullmatch(value.strip()):
        value = float(value)
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise _wrong_type(value, "a number", "write a number such as 0.25")
    number = float(value)
    if not math.isfinite(number):
        raise InvalidValueError("is not a finite number; write a number such as 0.25")
    return number


def parse_duration(value: object) -> float:
    """Seconds from a number or ``"<number><unit>"``; 0 to ten years."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidValueError(f"is not a finite duration; {_DURATION_FIX}")
        exact = Decimal(value)
    elif isinstance(value, str):
        match = _DURATION_TEXT.fullmatch(value.strip())
        if match is None:
            if value.strip().startswith("-"):
                raise InvalidValueError(f"is negative; {_DURATION_FIX}")
            raise InvalidValueError(f"is not a duration; {_DURATION_FIX}")
        with localcontext() as context:
            context.prec = _PRECISION
            exact = Decimal(match["number"]) * _DURATION_UNITS[match["unit"] or "s"]
    else:
        raise _wrong_type(value, "a duration", _DURATION_FIX)
    if exact < 0:
        raise InvalidValueError(f"is negative; {_DURATION_FIX}")
    if exact > MAX_DURATION_SECONDS:
        raise InvalidValueError("is longer than ten years; check the unit (ms, s, m, h or d)")
    # + 0.0 turns a YAML -0.0 into 0.0
    return float(exact) + 0.0


def parse_size(value: object) -> int:
    """Bytes from a whole number or ``"<number><unit>"`` that comes to whole bytes."""
    if isinstance(value, int) and not isinstance(value, bool):
        size = value
    elif isinstance(value, str):
        match = _SIZE_TEXT.fullmatch(value.strip())
        if match is None:
            if value.strip().startswith("-"):
                raise InvalidValueError(f"is negative; {_SIZE_FIX}")
            raise InvalidValueError(f"is not a size; {_SIZE_FIX}")
        with localcontext() as context:
            context.prec = _PRECISION
            exact = Decimal(match["number"]) * _SIZE_UNITS[(match["unit"] or "b").lower()]
        if exact != exact.to_integral_value():
            raise InvalidValueError(f"is not a whole number of bytes; {_SIZE_FIX}")
        size = int(exact)
    elif isinstance(value, float):
        raise InvalidValueError(f"is not a whole number of bytes; {_SIZE_FIX}")
    else:
        raise _wrong_type(value, "a size", _SIZE_FIX)
    if size < 0:
        raise InvalidValueError(f"is negative; {_SIZE_FIX}")
    return size


def parse_text(value: object) -> str:
    """Non-empty single-line text without control characters, surrounding blanks removed."""
    if not isinstance(value, str):
        raise _wrong_type(value, "text", "write the text, quoted if YAML would read it otherwise")
    text = value.strip()
    if not text:
        raise InvalidValueError("is empty; write a value")
    if any(unicodedata.category(char) == "Cc" for char in text):
        raise InvalidValueError("contains a line break or control character; keep it to one line")
    return text


def parse_words(value: object) -> tuple[str, ...]:
    """Words from a YAML list of texts or one text of comma-separated words (the form a
    variable takes): ``[facts, headline]`` or ``"facts, headline"`` → ``("facts", "headline")``;
    blanks around each word removed, order kept, repeats dropped; none at all is allowed."""
    if isinstance(value, str):
        items: list[object] = list(value.split(","))
    elif isinstance(value, list):
        items = list(value)
    else:
        raise _wrong_type(value, "a list of words", "write a list such as [facts, headline]")
    words: list[str] = []
    for item in items:
        if not isinstance(item, str):
            raise InvalidValueError(
                f"holds {show_value(item)}, which is not a word; write a list such as "
                "[facts, headline]"
            )
        word = item.strip()
        if not word and isinstance(value, str):
            continue  # "" is the empty list; a trailing comma is harmless
        if not word or any(unicodedata.category(c) == "Cc" or c.isspace() for c in word):
            raise InvalidValueError(
                f"holds {show_value(item)}, which is not one word; write a list such as "
                "[facts, headline]"
            )
        if word not in words:
            words.append(word)
    return tuple(words)


MAX_TERMS = 100
"""Watched terms in one list at most: each has a feed per source it applies to."""


def parse_terms(value: object) -> tuple[str, ...]:
    """Watched terms (``quietedit.analysis.watch``) from a YAML list of texts or one text of
    comma-separated terms (the form a variable takes): each a word or phrase, optionally
    ending in ``*``, at most ``MAX_TERM_LENGTH`` characters; order kept, repeats dropped;
    two different terms with the same feed address (slug) are an error."""
    if isinstance(value, str):
        # "[]" is the empty list written as a variable's text
        items: list[object] = [t for t in value.split(",") if t.strip() not in ("", "[]")]
    elif isinstance(value, list):
        items = list(value)
    else:
        raise _wrong_type(value, "a list of terms", "write a list such as [Merz, 'Klima*']")
    if len(items) > MAX_TERMS:
        raise InvalidValueError(f"has {len(items)} terms; watch at most {MAX_TERMS}")
    terms: list[str] = []
    slugs: dict[str, str] = {}
    for item in items:
        if not isinstance(item, str):
            raise InvalidValueError(
                f"holds {show_value(item)}, which is not text; write a list such as "
                "[Merz, 'Klima*']"
            )
        term = normal(item)
        problem = term_problem(term)
        if problem:
            raise InvalidValueError(f"holds {show_value(item)}, which {problem}")
        slug = term_slug(term)
        if slug in slugs and slugs[slug].casefold() != term.casefold():
            raise InvalidValueError(
                f"holds {show_value(slugs[slug])} and {show_value(term)}, which share the "
                f"feed address watch/{slug}.xml; keep one of them"
            )
        if slug not in slugs:
            slugs[slug] = term
            terms.append(term)
    return tuple(terms)


def format_duration(seconds: float) -> str:
    """The exact spelling in the largest whole unit (600 → "10m", 0.5 → "500ms", 0.25 → "250ms").

    ``parse_duration(format_duration(x)) == x`` for every finite ``x`` from 0 to ten years.
    """
    exact = Decimal(repr(float(seconds)))
    if not exact:
        return "0s"
    with localcontext() as context:
        context.prec = _PRECISION
        for unit, factor in _DURATION_UNITS.items():
            count = exact / factor
            if count == count.to_integral_value() and count * factor == exact:
                return f"{int(count)}{unit}"
    return f"{exact.normalize():f}s"


def format_size(size: int) -> str:
    """The largest unit that divides ``size`` exactly (10485760 → "10MiB"), else bytes."""
    for unit, factor in _SIZE_UNITS.items():
        if size and factor > 1 and size % factor == 0:
            return f"{size // factor}{_SIZE_NAMES[unit]}"
    return f"{size}B"


def _wrong_type(value: object, expected: str, fix: str) -> InvalidValueError:
    if isinstance(value, str):
        return InvalidValueError(f"is not {expected}; {fix}")
    return InvalidValueError(f"is {describe_type(value)}, not {expected}; {fix}")
