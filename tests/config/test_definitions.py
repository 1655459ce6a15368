"""Each setting is defined once: the dataclass field's metadata is the whole definition.

The typed defaults, the bounds checked on construction, the reference rows and the policies
the fetcher and the re-check take all come from that one definition; no other module of the
package writes a setting's default down again.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
from pathlib import Path

import pytest

from quietedit.config import (
    FetchSettings,
    PathSettings,
    RecheckSettings,
    Settings,
    SettingSpec,
    parse_config,
    settings_reference,
)
from quietedit.config.settings import value_at
from quietedit.config.specs import PARSERS
from quietedit.decide.recheck import RecheckPolicy
from quietedit.fetch import Fetcher, FetchPolicy, fetch_document

PACKAGE = Path(__file__).resolve().parents[2] / "quietedit"
DEFINITIONS = PACKAGE / "config" / "settings.py"
LEAVES = {spec.key.rpartition(".")[2] for spec in settings_reference()}


@pytest.mark.parametrize("spec", settings_reference(), ids=lambda spec: spec.key)
def test_every_default_as_written_parses_to_the_typed_default(spec: SettingSpec) -> None:
    parsed = PARSERS[spec.kind](spec.default)
    assert value_at(Settings(), spec.key) == parsed
    if isinstance(parsed, int | float) and not isinstance(parsed, bool):
        assert spec.admits(parsed), f"{spec.key}'s default is outside its own bounds"


@pytest.mark.parametrize("spec", settings_reference(), ids=lambda spec: spec.key)
def test_every_setting_says_why_its_default_is_what_it_is(spec: SettingSpec) -> None:
    assert spec.reason and spec.description and spec.constraint


def test_the_loaded_defaults_are_the_dataclass_defaults(tmp_path: Path) -> None:
    loaded = parse_config(None, environ={}, source="-", base_dir=tmp_path).settings
    defaults = Settings()
    paths = PathSettings(
        data=tmp_path / defaults.paths.data,
        evidence=tmp_path / defaults.paths.evidence,
        site=tmp_path / defaults.paths.site,
        templates=tmp_path / defaults.paths.templates,
    )
    assert loaded == dataclasses.replace(defaults, paths=paths)


def test_the_policies_are_the_settings_sections() -> None:
    settings = Settings()
    assert FetchPolicy is FetchSettings and RecheckPolicy is RecheckSettings
    assert Fetcher(settings, politeness=False).policy is settings.fetch
    assert FetchPolicy() == settings.fetch and RecheckPolicy() == settings.recheck


def test_fetch_documents_defaults_are_the_fetch_settings() -> None:
    parameters = inspect.signature(fetch_document).parameters
    defaults = FetchSettings()
    for name in ("timeout", "retries", "backoff"):
        assert parameters[name].default == getattr(defaults, name)
    assert (parameters["timeout"].default, parameters["retries"].default) == (15.0, 2)


@pytest.mark.parametrize(
    ("build", "complaint"),
    [
        (lambda: FetchPolicy(retries=11), "fetch.retries: 11 is out of range; use a value from 0"),
        (lambda: FetchPolicy(max_bytes=10), "fetch.max_bytes: 10 is out of range"),
        (lambda: RecheckPolicy(max_window_factor=0.5), "at least 1 (default 4)"),
    ],
)
def test_a_section_outside_its_bounds_is_refused_with_the_rule_and_default(
    build: object, complaint: str
) -> None:
    with pytest.raises(ValueError, match=complaint.replace("(", r"\(").replace(")", r"\)")):
        build()  # type: ignore[operator]


def is_number(node: ast.expr | None) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int | float)
        and not isinstance(node.value, bool)
    )


def second_defaults(tree: ast.AST) -> list[str]:
    """Numbers written as the default of a field or parameter named like a setting."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if (
                    isinstance(item, ast.AnnAssign)
                    and isinstance(item.target, ast.Name)
                    and item.target.id in LEAVES
                    and item.value is not None
                    and is_number(item.value)
                ):
                    found.append(
                        f"line {item.lineno}: {item.target.id} = {ast.unparse(item.value)}"
                    )
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            positional = args.posonlyargs + args.args
            pairs = [
                *zip(
                    positional[len(positional) - len(args.defaults) :], args.defaults, strict=True
                ),
                *((a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d),
            ]
            found += [
                f"line {arg.lineno}: {arg.arg}={ast.unparse(default)}"
                for arg, default in pairs
                if arg.arg in LEAVES and is_number(default)
            ]
    return found


@pytest.mark.parametrize(
    "path",
    [p for p in sorted(PACKAGE.rglob("*.py")) if p != DEFINITIONS],
    ids=lambda p: str(p.relative_to(PACKAGE)),
)
def test_no_module_writes_a_settings_default_down_again(path: Path) -> None:
    assert second_defaults(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_the_second_default_check_sees_one() -> None:
    bad = ast.parse(
        "class P:\n    timeout: float = 15.0\n"
        "def fetch(url, *, retries=2, headers=None): ...\n"
        "def ok(timeout=DEFAULTS.timeout): ...\n"
    )
    assert second_defaults(bad) == ["line 2: timeout = 15.0", "line 3: retries=2"]
