"""``feeds.yaml`` and ``QUIETEDIT_*`` variables → one validated, immutable ``Config``.

The parts, shell first:

- ``load``: the shell — reads the file (safe YAML, duplicate keys detected) and the process
  environment (``load_config``);
- ``parse`` (pure): a loaded document and an environment mapping in, a ``Config`` out, or one
  ``ConfigError`` listing every problem, by key (``parse_config``);
- ``settings`` (pure): every setting defined once — key, type, default, bounds, meaning and
  the reason for the default — as the frozen dataclasses the rest of the code takes
  (``Settings``, ``FetchSettings`` …) and the reference generated from them
  (``settings_reference``);
- ``catalogue`` (pure): the feeds list, slugs, headers, ``${VAR}``;
- ``values`` (pure): the syntax of durations, sizes and booleans, and the problem lines.
"""

from __future__ import annotations

from pathlib import Path

from quietedit.config.catalogue import FeedConfig, derive_slug
from quietedit.config.load import DEFAULT_CONFIG_PATH, load_config
from quietedit.config.parse import Config, parse_config
from quietedit.config.settings import (
    FetchSettings,
    PathSettings,
    PolitenessSettings,
    RecheckSettings,
    RunSettings,
    Settings,
    SettingSpec,
    settings_reference,
    value_at,
)

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


def effective_settings(config: Config) -> dict[str, object]:
    """All settings as a JSON-ready nested dict: seconds, bytes, paths as strings."""
    result: dict[str, object] = {}
    for spec in settings_reference():
        *sections, leaf = spec.key.split(".")
        target = result
        for section in sections:
            target = target.setdefault(section, {})  # type: ignore[assignment]
        value = value_at(config.settings, spec.key)
        target[leaf] = str(value) if isinstance(value, Path) else value
    return result
