"""The ``settings:`` of ``feeds.yaml``: every setting, its default, and their validation (pure).

``SETTINGS`` is the one place defaults live: each setting's key path under ``settings:``,
its ``QUIETEDIT_*`` variable, its default as written in YAML, its kind and its bounds. The
README's reference and ``quietedit config`` are generated from or checked against it.

``parse_settings`` is pure: it applies, for each setting, its variable over the file's value
over the default, checks every value it sees (a file value a variable overrides is still
checked) and the rules between settings, and reports each problem where the value came from.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from quietedit.config.values import (
    InvalidValueError,
    ProblemReport,
    check_keys,
    format_duration,
    format_size,
    mapping_at,
    parse_bool,
    parse_duration,
    parse_int,
    parse_number,
    parse_size,
    parse_text,
    show_value,
)
from quietedit.version import __version__

ENV_PREFIX = "QUIETEDIT_"
ENV_SOURCE = "environment"


@dataclass(frozen=True, slots=True)
class SettingSpec:
    """One setting: where it lives, its variable, its default as written in YAML, its rules.

    ``key`` is the path under ``settings:`` ("fetch.timeout"); ``kind`` is one of bool, text,
    integer, number, duration, size, path. Bounds are in the setting's unit (seconds, bytes)
    and ``constraint`` says them, and any rule relating settings, in words.
    """

    key: str
    env: str
    default: str
    kind: str
    description: str
    constraint: str
    minimum: float | None = None
    minimum_exclusive: bool = False
    maximum: float | None = None

    def admits(self, value: float) -> bool:
        """Whether ``value`` lies within the bounds."""
        if self.minimum is not None and (
            value < self.minimum or (self.minimum_exclusive and value == self.minimum)
        ):
            return False
        return self.maximum is None or value <= self.maximum


def _setting(
    key: str,
    default: str,
    kind: str,
    description: str,
    *,
    minimum: float | None = None,
    above: float | None = None,
    maximum: float | None = None,
    also: str = "",
) -> SettingSpec:
    def show(bound: float) -> str:
        if kind == "duration":
            return format_duration(bound)
        return format_size(int(bound)) if kind == "size" else f"{bound:g}"

    words = {"bool": "true or false", "text": "non-empty, one line", "path": "non-empty"}
    parts = [words[kind]] if kind in words else []
    if above is not None:
        parts.append(f"greater than {show(above)}")
    if minimum is not None and maximum is not None:
        parts.append(f"from {show(minimum)} to {show(maximum)}")
    elif minimum is not None:
        parts.append(f"at least {show(minimum)}")
    elif maximum is not None:
        parts.append(f"at most {show(maximum)}")
    parts += [also] if also else []
    return SettingSpec(
        key=key,
        env=ENV_PREFIX + key.upper().replace(".", "_"),
        default=default,
        kind=kind,
        description=description,
        constraint=" and ".join(parts),
        minimum=above if above is not None else minimum,
        minimum_exclusive=above is not None,
        maximum=maximum,
    )


SETTINGS: tuple[SettingSpec, ...] = (
    _setting(
        "allow_private_addresses",
        "false",
        "bool",
        "Lift the SSRF guard so loopback and private networks can be fetched "
        "(tests, the demo, newsroom intranets); logged loudly.",
    ),
    _setting(
        "user_agent",
        f"quietedit/{__version__} (+https://github.com/quietedit/quietedit)",
        "text",
        "The User-Agent of every request; say who you are so publishers can reach you.",
    ),
    _setting(
        "recheck.age_factor",
        "0.25",
        "number",
        "Re-check an article after this fraction of its age.",
        above=0,
        maximum=1,
    ),
    _setting(
        "recheck.min_interval",
        "10m",
        "duration",
        "Floor of the re-check interval.",
        above=0,
    ),
    _setting(
        "recheck.max_interval",
        "12h",
        "duration",
        "Cap of the re-check interval.",
        above=0,
        also="at least recheck.min_interval",
    ),
    _setting(
        "recheck.observation_window",
        "7d",
        "duration",
        "Retire an article after this long without a change, times (1 + its observed changes).",
        above=0,
    ),
    _setting(
        "recheck.max_window_factor",
        "4",
        "number",
        "Cap on that (1 + observed changes) multiplier.",
        minimum=1,
    ),
    _setting(
        "recheck.distrust_after_claims",
        "20",
        "integer",
        "A feed's `updated` claims stop forcing re-checks after this many in a row "
        "produced no revision, until one does.",
        minimum=1,
    ),
    _setting(
        "recheck.probe_interval",
        "1d",
        "duration",
        "A distrusted feed still has one `updated` claim honoured per this interval, "
        "so it can earn trust back.",
        above=0,
    ),
    _setting(
        "recheck.failure_max_interval",
        "7d",
        "duration",
        "Cap of the exponential back-off of an article whose fetches fail; it is retried "
        "this rarely, never abandoned.",
        above=0,
    ),
    _setting(
        "run.max_articles",
        "100",
        "integer",
        "Article fetches per ingest run; the rest carry over, most overdue first.",
        minimum=0,
    ),
    _setting(
        "run.max_duration",
        "25m",
        "duration",
        "Wall-time budget of one ingest run.",
        above=0,
    ),
    _setting(
        "run.workers",
        "0",
        "integer",
        "Processes that read (extract) article pages while the run fetches: 1 reads them "
        "in the ingest process, N starts N workers, 0 one per CPU core for runs of at "
        "least 64 checks (smaller ones read in-process).",
        minimum=0,
        maximum=64,
    ),
    _setting(
        "politeness.max_requests_per_host_per_hour",
        "120",
        "integer",
        "Exact ceiling on requests to one host within any hour.",
        minimum=1,
    ),
    _setting(
        "politeness.min_host_interval",
        "1s",
        "duration",
        "Spacing between two requests to the same host.",
        minimum=0,
    ),
    _setting(
        "politeness.max_concurrency",
        "8",
        "integer",
        "Hosts fetched in parallel.",
        minimum=1,
        maximum=64,
    ),
    _setting(
        "fetch.timeout",
        "15s",
        "duration",
        "Timeout of one attempt; 0 disables it.",
        minimum=0,
    ),
    _setting(
        "fetch.deadline",
        "60s",
        "duration",
        "Total time for one fetch, retries and waits included.",
        above=0,
        also="at least fetch.timeout when that is above 0",
    ),
    _setting(
        "fetch.retries",
        "2",
        "integer",
        "Extra attempts after the first.",
        minimum=0,
        maximum=10,
    ),
    _setting(
        "fetch.backoff",
        "0.5s",
        "duration",
        "Base of the full-jitter exponential backoff between attempts.",
        minimum=0,
    ),
    _setting(
        "fetch.max_wait",
        "30s",
        "duration",
        "Cap on any one wait, from Retry-After or from backoff.",
        minimum=0,
    ),
    _setting(
        "fetch.max_bytes",
        "10MiB",
        "size",
        "Cap on a response body, counted after decompression.",
        minimum=1024,
    ),
    _setting("paths.data", "data", "path", "The archive folder (committed to git)."),
    _setting("paths.site", "site", "path", "Where `quietedit build` writes the site."),
    _setting(
        "paths.templates",
        "templates",
        "path",
        "Templates, static assets and Markdown pages.",
    ),
)

SECTIONS = tuple(dict.fromkeys(spec.key.partition(".")[0] for spec in SETTINGS if "." in spec.key))
_PARSERS: dict[str, Callable[[object], object]] = {
    "bool": parse_bool,
    "text": parse_text,
    "integer": parse_int,
    "number": parse_number,
    "duration": parse_duration,
    "size": parse_size,
    "path": lambda value: Path(parse_text(value)),
}


def parse_settings(
    value: object, *, environ: Mapping[str, str], report: ProblemReport, base_dir: Path
) -> dict[str, Any] | None:
    """Each setting's effective value by key path; None when ``report`` holds any problem.

    Values are typed (float seconds, int bytes, ``Path`` resolved against ``base_dir``).
    """
    written: dict[str, object] = {}
    top = mapping_at(value, "settings", report, fix="write one 'key: value' line per setting")
    leaves = [spec.key for spec in SETTINGS if "." not in spec.key]
    check_keys(top, [*leaves, *SECTIONS], "settings", report, elsewhere=_misplaced_setting)
    for key, item in top.items():
        if key in leaves:
            written[key] = item
        elif key in SECTIONS:
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
    return None if report.problems else values


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
        value = _PARSERS[spec.kind](raw)
    except InvalidValueError as exc:
        report.add(path, f"{show_value(raw)} {exc}", source=source)
        return None
    if isinstance(value, int | float) and not isinstance(value, bool) and not spec.admits(value):
        report.add(
            path,
            f"{show_value(raw)} is out of range; use a value {spec.constraint} "
            f"(default {spec.default})",
            source=source,
        )
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
    by_leaf = {spec_key.partition(".")[2]: spec_key for spec_key in sectioned}
    match = difflib.get_close_matches(key, sectioned, n=1) or [
        by_leaf[leaf] for leaf in difflib.get_close_matches(key, list(by_leaf), n=1)
    ]
    if not match:
        return None
    section, _, leaf = match[0].partition(".")
    return f"{leaf!r} under '{section}:'"
