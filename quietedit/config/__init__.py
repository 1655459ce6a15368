"""``feeds.yaml`` and ``QUIETEDIT_*`` variables → one validated, immutable ``Config``.

The parts, shell first:

- ``load``: the shell — reads the file (safe YAML, duplicate keys detected) and the process
  environment (``load_config``);
- ``validate`` (pure): a loaded document and an environment mapping in, a ``Config`` out, or one
  ``ConfigError`` listing every problem, by key (``parse_config``);
- ``settings`` (pure): every setting defined once — key, type, default, bounds, meaning and
  the reason for the default — as the frozen dataclasses the rest of the code takes
  (``Settings``, ``FetchSettings`` …) and the reference generated from them
  (``settings_reference``);
- ``catalogue`` (pure): the feeds list, slugs, headers, ``${VAR}``;
- ``values`` (pure): the syntax of durations, sizes and booleans, and the problem lines.

Names here load on first use, so a pure module importing one of the pure parts never loads
the shell's ``load``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from quietedit.lazy import lazy_exports

if TYPE_CHECKING:
    from quietedit.config.catalogue import FeedConfig, derive_slug
    from quietedit.config.load import DEFAULT_CONFIG_PATH, load_config
    from quietedit.config.settings import (
        FetchSettings,
        PathSettings,
        PolitenessSettings,
        RecheckSettings,
        RunSettings,
        Settings,
        settings_reference,
    )
    from quietedit.config.specs import SettingSpec
    from quietedit.config.validate import Config, effective_settings, parse_config

_EXPORTS = {
    "FeedConfig": "quietedit.config.catalogue",
    "derive_slug": "quietedit.config.catalogue",
    "DEFAULT_CONFIG_PATH": "quietedit.config.load",
    "load_config": "quietedit.config.load",
    "Config": "quietedit.config.validate",
    "effective_settings": "quietedit.config.validate",
    "parse_config": "quietedit.config.validate",
    "FetchSettings": "quietedit.config.settings",
    "PathSettings": "quietedit.config.settings",
    "PolitenessSettings": "quietedit.config.settings",
    "RecheckSettings": "quietedit.config.settings",
    "RunSettings": "quietedit.config.settings",
    "Settings": "quietedit.config.settings",
    "SettingSpec": "quietedit.config.specs",
    "settings_reference": "quietedit.config.settings",
}

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

__getattr__ = lazy_exports(__name__, _EXPORTS)
