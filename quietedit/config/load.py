"""``feeds.yaml`` and the ``QUIETEDIT_*`` variables, read: the shell of the config package.

``load_config`` reads the file (safe YAML, duplicate keys detected, UTF-8) and the process
environment, and hands both to the pure ``parse.parse_config``. A file that cannot be read
and invalid YAML raise one ``ConfigError`` naming the place and the fix, like every other
configuration problem.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Final

import yaml

from quietedit.config.validate import Config, parse_config
from quietedit.config.values import join_path
from quietedit.errors import ConfigError

logger = logging.getLogger("quietedit.config")

DEFAULT_CONFIG_PATH: Final = Path("feeds.yaml")
DEFAULTS_SOURCE: Final = "(defaults)"


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
            [
                f"{path}: file not found; check the path, or create it "
                "(docs/configuration.md has an example)"
            ]
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
