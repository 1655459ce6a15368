"""A loaded ``feeds.yaml`` document and an environment mapping → one ``Config`` (pure).

No file, no process environment: ``load`` reads those and calls ``parse_config``. Every
problem is collected, one line each, then raised as one ``ConfigError``::

    <source>: <key path>: <bad value> <what is wrong>; <how to fix>

Each setting comes from, in order of precedence, its ``QUIETEDIT_<KEY_PATH>`` variable, the
``settings:`` mapping of the file, or its default in ``settings`` (the one place defaults
live). Every value seen is checked (a file value a variable overrides is still checked), and
so are the rules between settings.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, cast

from quietedit.config.catalogue import FeedConfig, parse_feeds
from quietedit.config.settings import (
    SECTIONS,
    SETTINGS,
    Settings,
    settings_from_values,
    settings_reference,
    value_at,
)
from quietedit.config.specs import ENV_PREFIX, PARSERS, SettingSpec
from quietedit.config.values import (
    InvalidValueError,
    ProblemReport,
    check_keys,
    format_duration,
    mapping_at,
    show_value,
)
from quietedit.errors import ConfigError

ENV_SOURCE: Final = "environment"
# QUIETEDIT_* variables that other modules read and that are not settings; the typo check
# accepts these. Add a name here when a module starts reading one.
OTHER_ENV_VARIABLES: frozenset[str] = frozenset(
    {
        # quietedit post's accounts (docs/commands.md#quietedit-post): secrets, never settings
        "QUIETEDIT_MASTODON_URL",
        "QUIETEDIT_MASTODON_TOKEN",
        "QUIETEDIT_BLUESKY_SERVICE",
        "QUIETEDIT_BLUESKY_HANDLE",
        "QUIETEDIT_BLUESKY_PASSWORD",
        # quietedit capture's Internet Archive keys (docs/commands.md#quietedit-capture)
        "QUIETEDIT_ARCHIVE_ORG_ACCESS_KEY",
        "QUIETEDIT_ARCHIVE_ORG_SECRET_KEY",
    }
)

_TOP_KEYS = ("feeds", "settings")
_SECTION_NAMES = tuple(name for name, _ in SECTIONS)


@dataclass(frozen=True, slots=True)
class Config:
    """The feeds and settings; ``source`` is the file they came from, or "(defaults)"."""

    feeds: tuple[FeedConfig, ...]
    settings: Settings
    source: str


def parse_config(
    document: object, *, environ: Mapping[str, str], source: str, base_dir: Path
) -> Config:
    """Validate a loaded YAML document (None for an empty file) against ``environ``.

    Relative paths resolve against ``base_dir``. Collects every problem, then raises one
    ``ConfigError``.
    """
    report = ProblemReport(source)
    top = mapping_at(document, "(top level)", report, fix="write 'feeds:' and 'settings:' keys")
    check_keys(top, _TOP_KEYS, "", report)
    referenced: set[str] = set()
    feeds = parse_feeds(top.get("feeds"), environ=environ, report=report, referenced=referenced)
    settings = parse_settings(
        top.get("settings"), environ=environ, report=report, base_dir=base_dir
    )
    _check_environment(environ, referenced, report)
    if report.problems or settings is None:
        raise ConfigError(report.problems)
    return Config(feeds=feeds, settings=settings, source=source)


def parse_settings(
    value: object, *, environ: Mapping[str, str], report: ProblemReport, base_dir: Path
) -> Settings | None:
    """The effective settings; None when ``report`` holds any problem.

    Values are typed (float seconds, int bytes, ``Path`` resolved against ``base_dir``).
    """
    written: dict[str, object] = {}
    top = mapping_at(value, "settings", report, fix="write one 'key: value' line per setting")
    leaves = [spec.key for spec in SETTINGS if "." not in spec.key]
    check_keys(top, [*leaves, *_SECTION_NAMES], "settings", report, elsewhere=_misplaced_setting)
    for key, item in top.items():
        if key in leaves:
            written[key] = item
        elif key in _SECTION_NAMES:
            path = f"settings.{key}"
            section = mapping_at(item, path, report, fix=f"indent its settings under '{key}:'")
            known = [
                spec.key.partition(".")[2] for spec in SETTINGS if spec.key.startswith(f"{key}.")
            ]
            check_keys(section, known, path, report)
            written.update({f"{key}.{leaf}": v for leaf, v in section.items() if leaf in known})
    values: dict[str, Any] = {}
    origins: dict[str, _Origin] = {}
    for spec in SETTINGS:
        candidates = [_Origin(report.source, f"settings.{spec.key}", spec.default, explicit=False)]
        if spec.key in written:
            candidates.append(_Origin(report.source, f"settings.{spec.key}", written[spec.key]))
        if spec.env in environ:
            candidates.append(_Origin(ENV_SOURCE, spec.env, environ[spec.env]))
        # Every candidate is checked, not only the winner: a file value that a variable
        # overrides is still wrong, and would surface the day the variable goes.
        for origin in candidates:
            values[spec.key] = _setting_value(spec, origin, base_dir=base_dir, report=report)
        origins[spec.key] = candidates[-1]
    _check_related(values, origins, report)
    return None if report.problems else settings_from_values(values)


@dataclass(frozen=True, slots=True)
class _Origin:
    """Where a setting's value came from: problems are reported there."""

    source: str
    path: str
    raw: object
    explicit: bool = True  # False for the default


def _setting_value(
    spec: SettingSpec, origin: _Origin, *, base_dir: Path, report: ProblemReport
) -> Any:
    """The value ``origin.raw`` stands for, or None after reporting why it stands for none."""
    raw, path, source = origin.raw, origin.path, origin.source
    if raw is None:
        report.add(
            path,
            f"has no value; write one or remove the key to use the default ({spec.default})",
            source=source,
        )
        return None
    try:
        value = PARSERS[spec.kind](raw)
    except InvalidValueError as exc:
        report.add(path, f"{show_value(raw)} {exc}", source=source)
        return None
    words: tuple[str, ...] = cast(tuple[str, ...], value) if spec.choices else ()
    unknown = [word for word in words if word not in spec.choices]
    if unknown:
        report.add(
            path,
            f"{show_value(raw)} holds {unknown[0]!r}, which is not one of "
            f"{', '.join(spec.choices)}; remove or correct it",
            source=source,
        )
        return None
    if isinstance(value, int | float) and not isinstance(value, bool) and not spec.admits(value):
        report.add(path, spec.out_of_range(raw), source=source)
        return None
    return base_dir / value if isinstance(value, Path) else value


def _check_related(
    values: Mapping[str, Any], origins: Mapping[str, _Origin], report: ProblemReport
) -> None:
    """The rules between settings (a cap not below its floor)."""
    _check_order("recheck.min_interval", "recheck.max_interval", values, origins, report)
    if values["fetch.timeout"]:  # 0 means no timeout, which any deadline exceeds
        _check_order("fetch.timeout", "fetch.deadline", values, origins, report)


def _check_order(
    low_key: str,
    high_key: str,
    values: Mapping[str, Any],
    origins: Mapping[str, _Origin],
    report: ProblemReport,
) -> None:
    """Report ``high_key`` < ``low_key`` at the value the user set (the upper one if both)."""
    low, high = values[low_key], values[high_key]
    if low is None or high is None or high >= low:
        return
    if origins[high_key].explicit or not origins[low_key].explicit:
        origin, message = origins[high_key], f"is shorter than {low_key} ({format_duration(low)})"
        fix = f"raise it or lower {low_key}"
    else:
        origin, message = origins[low_key], f"is longer than {high_key} ({format_duration(high)})"
        fix = f"lower it or raise {high_key}"
    report.add(origin.path, f"{show_value(origin.raw)} {message}; {fix}", source=origin.source)


def _misplaced_setting(key: str) -> str | None:
    """Where a settings key that matches no sibling belongs: "'timeout' under 'fetch:'"."""
    sectioned = [spec.key for spec in SETTINGS if "." in spec.key]
    by_leaf: dict[str, str] = {}
    for spec_key in sectioned:  # a leaf of two sections (timeout): the first one's
        by_leaf.setdefault(spec_key.partition(".")[2], spec_key)
    match = (
        ([by_leaf[key]] if key in by_leaf else [])
        or difflib.get_close_matches(key, sectioned, n=1)
        or [by_leaf[leaf] for leaf in difflib.get_close_matches(key, list(by_leaf), n=1)]
    )
    if not match:
        return None
    section, _, leaf = match[0].partition(".")
    return f"{leaf!r} under '{section}:'"


def _check_environment(
    environ: Mapping[str, str], referenced: set[str], report: ProblemReport
) -> None:
    """Every QUIETEDIT_* variable must be a setting's or be used by a ${...} in the file."""
    known = {spec.env for spec in SETTINGS} | OTHER_ENV_VARIABLES
    suffixes = sorted(name.removeprefix(ENV_PREFIX) for name in known)
    for name in sorted(environ):
        upper = name.upper()
        if not upper.startswith(ENV_PREFIX) or name in known or name in referenced:
            continue
        # Matching on the part after the prefix: the shared prefix would make anything "close".
        match = difflib.get_close_matches(upper.removeprefix(ENV_PREFIX), suffixes, n=1)
        fix = (
            f"did you mean {ENV_PREFIX}{match[0]}?"
            if match
            else "unset or rename it; docs/configuration.md lists the variables"
        )
        report.add(name, f"unknown variable; {fix}", source=ENV_SOURCE)


def effective_settings(config: Config) -> dict[str, object]:
    """All settings as a JSON-ready nested dict: seconds, bytes, paths as strings."""
    result: dict[str, object] = {}
    for spec in settings_reference():
        *sections, leaf = spec.key.split(".")
        target = result
        for section in sections:
            target = target.setdefault(section, {})  # type: ignore[assignment]
        value = value_at(config.settings, spec.key)
        if isinstance(value, Path):
            value = str(value)
        target[leaf] = list(value) if isinstance(value, tuple) else value
    return result
