"""How a setting is declared and described: its field, its spec, its bounds (pure).

A section of ``settings:`` (``settings.py``) declares each setting as a dataclass field made
by :func:`setting`, whose metadata holds the default as written in YAML, the kind, the
bounds and the reasons. From that metadata :func:`section_specs` makes each
:class:`SettingSpec` (a row of the reference and of ``quietedit config``, and the parser's
rules), and :func:`check_bounds` checks a section's values on construction. ``PARSERS``
reads a value of each kind.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from quietedit.config.values import (
    format_duration,
    format_size,
    parse_bool,
    parse_duration,
    parse_int,
    parse_number,
    parse_size,
    parse_terms,
    parse_text,
    parse_words,
    show_value,
)

ENV_PREFIX: Final = "QUIETEDIT_"
_META: Final = "quietedit.setting"

PARSERS: Final[dict[str, Callable[[object], object]]] = {
    "bool": parse_bool,
    "text": parse_text,
    "integer": parse_int,
    "number": parse_number,
    "duration": parse_duration,
    "size": parse_size,
    "path": lambda value: Path(parse_text(value)),
    "words": parse_words,
    "terms": parse_terms,
}


@dataclass(frozen=True, slots=True)
class SettingSpec:
    """One setting: where it lives, its variable, its default as written in YAML, its rules.

    ``key`` is the path under ``settings:`` ("fetch.timeout"); ``kind`` is one of bool, text,
    integer, number, duration, size, path. Bounds are in the setting's unit (seconds, bytes)
    and ``constraint`` says them, and any rule relating settings, in words. ``reason`` says
    why the default is what it is.
    """

    key: str
    env: str
    default: str
    kind: str
    description: str
    constraint: str
    reason: str = ""
    minimum: float | None = None
    minimum_exclusive: bool = False
    maximum: float | None = None
    choices: tuple[str, ...] = ()  # a words setting's vocabulary

    def admits(self, value: float) -> bool:
        """Whether ``value`` lies within the bounds."""
        if self.minimum is not None and (
            value < self.minimum or (self.minimum_exclusive and value == self.minimum)
        ):
            return False
        return self.maximum is None or value <= self.maximum

    def out_of_range(self, raw: object) -> str:
        """The problem text for ``raw``, a value outside the bounds."""
        return (
            f"{show_value(raw)} is out of range; use a value {self.constraint} "
            f"(default {self.default})"
        )


@dataclass(frozen=True, slots=True)
class _Rule:
    """What ``setting`` stores in a field's metadata; the key is filled in from the field."""

    default: str
    kind: str
    description: str
    reason: str
    minimum: float | None
    above: float | None
    maximum: float | None
    also: str
    choices: tuple[str, ...]


def setting(
    kind: str,
    default: str,
    description: str,
    *,
    why: str,
    minimum: float | None = None,
    above: float | None = None,
    maximum: float | None = None,
    also: str = "",
    choices: tuple[str, ...] = (),
) -> Any:
    """A settings field: ``default`` as written in YAML ("10m"), parsed to the field's value.

    ``above`` is an exclusive minimum; ``also`` a rule between settings, in words (the parser
    checks those). ``why`` is the reason for the default. ``choices`` are the words a
    ``words`` setting may hold.
    """
    rule = _Rule(default, kind, description, why, minimum, above, maximum, also, choices)
    return field(default=PARSERS[kind](default), metadata={_META: rule})


def _spec(key: str, rule: _Rule) -> SettingSpec:
    def show(bound: float) -> str:
        if rule.kind == "duration":
            return format_duration(bound)
        return format_size(int(bound)) if rule.kind == "size" else f"{bound:g}"

    words = {
        "bool": "true or false",
        "text": "non-empty, one line",
        "path": "non-empty",
        "terms": "at most 100 words or phrases of at most 100 characters, each with a letter "
        "or digit; `*` only at a term's end; no two with one slug",
    }
    parts = [words[rule.kind]] if rule.kind in words else []
    if rule.choices:
        parts.append("some of " + ", ".join(rule.choices))
    if rule.above is not None:
        parts.append(f"greater than {show(rule.above)}")
    if rule.minimum is not None and rule.maximum is not None:
        parts.append(f"from {show(rule.minimum)} to {show(rule.maximum)}")
    elif rule.minimum is not None:
        parts.append(f"at least {show(rule.minimum)}")
    elif rule.maximum is not None:
        parts.append(f"at most {show(rule.maximum)}")
    parts += [rule.also] if rule.also else []
    return SettingSpec(
        key=key,
        env=ENV_PREFIX + key.upper().replace(".", "_"),
        default=rule.default,
        kind=rule.kind,
        description=rule.description,
        constraint=" and ".join(parts),
        reason=rule.reason,
        minimum=rule.above if rule.above is not None else rule.minimum,
        minimum_exclusive=rule.above is not None,
        maximum=rule.maximum,
        choices=rule.choices,
    )


def section_specs(section: type, prefix: str) -> Iterator[tuple[str, SettingSpec]]:
    """(field name, spec) of each setting of a section dataclass, keys under ``prefix``."""
    for item in dataclasses.fields(section):
        rule = item.metadata.get(_META)
        if rule is not None:
            yield item.name, _spec(prefix + item.name, rule)


def check_bounds(section: object, prefix: str = "") -> None:
    """Raise ``ValueError`` naming each field of ``section`` outside its setting's bounds."""
    problems = [
        f"{spec.key}: {spec.out_of_range(value)}"
        for name, spec in section_specs(type(section), prefix)
        if isinstance(value := getattr(section, name), int | float)
        and not isinstance(value, bool)
        and not spec.admits(value)
    ]
    if problems:
        raise ValueError("; ".join(problems))
