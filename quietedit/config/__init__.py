"""``feeds.yaml`` and ``QUIETEDIT_*`` variables → one validated, immutable ``Config``.

``load_config`` is the shell: it reads the file (safe YAML, duplicate keys detected) and the
environment. ``parse_config`` is the core: a loaded document and an environment mapping in, a
``Config`` out, or one ``ConfigError`` listing every problem found, one line each::

    <source>: <key path>: <bad value> <what is wrong>; <how to fix>

Every setting comes from, in order of precedence, its ``QUIETEDIT_<KEY_PATH>`` variable, the
``settings:`` mapping of the file, or its default in ``settings_reference()`` (the one place
defaults live). The parts: ``settings`` (the settings table and its checks),
``feeds`` (the feeds list, slugs, headers, ``${VAR}``) and ``values`` (the
syntax of durations, sizes and booleans, and the problem lines).
"""

from __future__ import annotations

import difflib
import logging
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from quietedit.config.feeds import FeedConfig, derive_slug, parse_feeds
from quietedit.config.settings import ENV_PREFIX, ENV_SOURCE, SETTINGS, SettingSpec, parse_settings
from quietedit.config.values import ProblemReport, check_keys, join_path, mapping_at
from quietedit.errors import ConfigError

__all__ = [
    "DEFAULT_CONFIG_PATH",
    "Config",
    "FeedConfig",
    "FetchSettings",
    "PathSettings",
    "PolitenessSettings",
    "RecheckSettings",
    "RunSettings",
    "SettingSpec",
    "Settings",
    "derive_slug",
    "effective_settings",
    "load_config",
    "parse_config",
    "settings_reference",
]

logger = logging.getLogger(__name__)

DEFAULT_CONFIG_PATH = Path("feeds.yaml")
DEFAULTS_SOURCE = "(defaults)"
# QUIETEDIT_* variables that other modules read and that are not settings; the typo check
# accepts these. Add a name here when a module starts reading one.
OTHER_ENV_VARIABLES: frozenset[str] = frozenset()

_TOP_KEYS = ("feeds", "settings")


@dataclass(frozen=True, slots=True)
class RecheckSettings:
    """The re-check curve and retirement of articles; durations in seconds."""

    age_factor: float
    min_interval: float
    max_interval: float
    observation_window: float
    max_window_factor: float
    distrust_after_claims: int
    probe_interval: float
    failure_max_interval: float


@dataclass(frozen=True, slots=True)
class RunSettings:
    """The budget of one ingest run; ``max_duration`` in seconds; ``workers`` as the
    ``run.workers`` setting says (0: automatic)."""

    max_articles: int
    max_duration: float
    workers: int = 0


@dataclass(frozen=True, slots=True)
class PolitenessSettings:
    """Limits per host; ``min_host_interval`` in seconds."""

    max_requests_per_host_per_hour: int
    min_host_interval: float
    max_concurrency: int


@dataclass(frozen=True, slots=True)
class FetchSettings:
    """The HTTP client's policy; durations in seconds, ``max_bytes`` in bytes."""

    timeout: float
    deadline: float
    retries: int
    backoff: float
    max_wait: float
    max_bytes: int


@dataclass(frozen=True, slots=True)
class PathSettings:
    """Folders, already resolved against the config file's folder."""

    data: Path
    site: Path
    templates: Path


@dataclass(frozen=True, slots=True)
class Settings:
    """Every setting, effective (environment > file > default)."""

    allow_private_addresses: bool
    user_agent: str
    recheck: RecheckSettings
    run: RunSettings
    politeness: PolitenessSettings
    fetch: FetchSettings
    paths: PathSettings


@dataclass(frozen=True, slots=True)
class Config:
    """The feeds and settings; ``source`` is the file they came from, or "(defaults)"."""

    feeds: tuple[FeedConfig, ...]
    settings: Settings
    source: str


def settings_reference() -> tuple[SettingSpec, ...]:
    """Every setting in file order, with its variable, default, kind, rule and meaning."""
    return SETTINGS


def effective_settings(config: Config) -> dict[str, object]:
    """All settings as a JSON-ready nested dict: seconds, bytes, paths as strings."""
    result: dict[str, Any] = {}
    for spec in SETTINGS:
        *sections, leaf = spec.key.split(".")
        target, owner = result, config.settings
        for section in sections:
            target = target.setdefault(section, {})
            owner = getattr(owner, section)
        value = getattr(owner, leaf)
        target[leaf] = str(value) if isinstance(value, Path) else value
    return result


def load_config(path: Path | None = None, *, environ: Mapping[str, str] | None = None) -> Config:
    """Read ``path`` (or ``feeds.yaml`` if it exists) and ``environ`` (or ``os.environ``).

    Without a path and without ``feeds.yaml``, the result is the defaults (plus environment
    overrides) and no feeds. A given path that cannot be read, invalid YAML and invalid
    content all raise one ``ConfigError`` listing every problem.
    """
    env: Mapping[str, str] = os.environ if environ is None else environ
    if path is None and not DEFAULT_CONFIG_PATH.exists():
        config = parse_config(None, environ=env, source=DEFAULTS_SOURCE, base_dir=Path.cwd())
    else:
        path = DEFAULT_CONFIG_PATH if path is None else path
        source = str(path)
        document, duplicates = _load_yaml(_read_text(path), source=source)
        base_dir = path.absolute().parent
        try:
            config = parse_config(document, environ=env, source=source, base_dir=base_dir)
        except ConfigError as exc:
            if not duplicates:
                raise
            raise ConfigError([*duplicates, *exc.problems]) from exc
        if duplicates:
            raise ConfigError(duplicates)
    if config.settings.allow_private_addresses:
        logger.warning(
            "%s: allow_private_addresses is on: the SSRF guard lets requests reach loopback "
            "and private networks; keep this for tests, the demo and newsroom intranets",
            config.source,
        )
    return config


def parse_config(
    document: object, *, environ: Mapping[str, str], source: str, base_dir: Path
) -> Config:
    """Validate a loaded YAML document (None for an empty file) against ``environ``.

    Pure: reads no file and no process environment. Relative paths resolve against
    ``base_dir``. Collects every problem, then raises one ``ConfigError``.
    """
    report = ProblemReport(source)
    top = mapping_at(document, "(top level)", report, fix="write 'feeds:' and 'settings:' keys")
    check_keys(top, _TOP_KEYS, "", report)
    referenced: set[str] = set()
    feeds = parse_feeds(top.get("feeds"), environ=environ, report=report, referenced=referenced)
    values = parse_settings(top.get("settings"), environ=environ, report=report, base_dir=base_dir)
    _check_environment(environ, referenced, report)
    if report.problems or values is None:
        raise ConfigError(report.problems)
    return Config(feeds=feeds, settings=_build_settings(values), source=source)


# ---- YAML ---------------------------------------------------------------------------------


class _DuplicateKeyLoader(yaml.SafeLoader):
    """SafeLoader that records duplicate mapping keys, which PyYAML would silently drop."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.duplicates: list[tuple[str, int, int]] = []  # (key path, line, first line)

    def construct_document(self, node: yaml.Node) -> Any:
        self.duplicates.extend(_duplicate_keys(node, "", set()))
        return super().construct_document(node)


def _duplicate_keys(node: yaml.Node, path: str, seen: set[int]) -> Iterator[tuple[str, int, int]]:
    if id(node) in seen:  # an alias to a node already walked, possibly recursive
        return
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        first_lines: dict[str, int] = {}
        for key_node, value_node in node.value:
            # Only plain keys can be compared; "<<" merges may repeat by design.
            comparable = isinstance(key_node, yaml.ScalarNode) and key_node.value != "<<"
            child = join_path(path, key_node.value if comparable else "?")
            if comparable:
                line = key_node.start_mark.line + 1
                if key_node.value in first_lines:
                    yield child, line, first_lines[key_node.value]
                first_lines.setdefault(key_node.value, line)
            yield from _duplicate_keys(value_node, child, seen)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            yield from _duplicate_keys(item, f"{path}[{index}]", seen)


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise ConfigError(
            [f"{path}: file not found; check the path, or create it (the README has an example)"]
        ) from exc
    except OSError as exc:
        raise ConfigError(
            [f"{path}: cannot be read ({exc.strerror}); give the path of a readable file"]
        ) from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            [f"{path}: byte {exc.start} is not UTF-8; save the file as UTF-8"]
        ) from exc


def _at(mark: yaml.Mark | None, prefix: str = "") -> str:
    return f"{prefix}line {mark.line + 1}, column {mark.column + 1}" if mark else ""


def _load_yaml(text: str, *, source: str) -> tuple[object, list[str]]:
    """The document (None when empty) and one problem line per duplicate key."""
    loader = _DuplicateKeyLoader(text)
    try:
        document = loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        what = exc.problem or exc.context or "invalid YAML"
        if exc.problem and exc.context:
            what += f" ({exc.context}{_at(exc.context_mark, ' at ')})"
        where = _at(exc.problem_mark or exc.context_mark) or "(YAML)"
        raise ConfigError(
            [f"{source}: {where}: {what}; fix the YAML there (quotes and indentation first)"]
        ) from exc
    except yaml.YAMLError as exc:
        raise ConfigError([f"{source}: (YAML): {exc}; fix the YAML syntax"]) from exc
    finally:
        loader.dispose()
    duplicates = [
        f"{source}: {path}: duplicate key at line {line} (first at line {first}); keep only one"
        for path, line, first in loader.duplicates
    ]
    return document, duplicates


def _build_settings(values: Mapping[str, Any]) -> Settings:
    return Settings(
        allow_private_addresses=values["allow_private_addresses"],
        user_agent=values["user_agent"],
        recheck=RecheckSettings(
            age_factor=values["recheck.age_factor"],
            min_interval=values["recheck.min_interval"],
            max_interval=values["recheck.max_interval"],
            observation_window=values["recheck.observation_window"],
            max_window_factor=values["recheck.max_window_factor"],
            distrust_after_claims=values["recheck.distrust_after_claims"],
            probe_interval=values["recheck.probe_interval"],
            failure_max_interval=values["recheck.failure_max_interval"],
        ),
        run=RunSettings(
            max_articles=values["run.max_articles"],
            max_duration=values["run.max_duration"],
            workers=values["run.workers"],
        ),
        politeness=PolitenessSettings(
            max_requests_per_host_per_hour=values["politeness.max_requests_per_host_per_hour"],
            min_host_interval=values["politeness.min_host_interval"],
            max_concurrency=values["politeness.max_concurrency"],
        ),
        fetch=FetchSettings(
            timeout=values["fetch.timeout"],
            deadline=values["fetch.deadline"],
            retries=values["fetch.retries"],
            backoff=values["fetch.backoff"],
            max_wait=values["fetch.max_wait"],
            max_bytes=values["fetch.max_bytes"],
        ),
        paths=PathSettings(
            data=values["paths.data"],
            site=values["paths.site"],
            templates=values["paths.templates"],
        ),
    )


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
            else "unset or rename it; the README's feeds.yaml reference lists the variables"
        )
        report.add(name, f"unknown variable; {fix}", source=ENV_SOURCE)
