"""docs/ documents every command, option, feeds.yaml key, setting and public name, and the
README stays one screen that opens with the two commands (so the docs can't rot)."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

import quietedit
from quietedit.cli import cli
from quietedit.config import FeedConfig, SettingSpec, settings_reference

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMANDS_PAGE = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
CONFIGURATION = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
PYTHON_API = (ROOT / "docs" / "python-api.md").read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    """``text`` from the line ``heading`` up to the next heading of the same or a higher
    level (fenced code is not looked into: its ``#`` lines are comments)."""
    level = len(heading) - len(heading.lstrip("#"))
    lines = text.splitlines()
    start = lines.index(heading)
    fenced = False
    for end in range(start + 1, len(lines)):
        line = lines[end]
        if line.startswith("```"):
            fenced = not fenced
        depth = len(line) - len(line.lstrip("#"))
        if not fenced and 0 < depth <= level and line[depth : depth + 1] == " ":
            return "\n".join(lines[start:end])
    return "\n".join(lines[start:])


def headings(text: str, prefix: str) -> set[str]:
    return {line for line in text.splitlines() if line.startswith(prefix)}


def option_flags(command: click.Command) -> list[str]:
    return [
        flag for param in command.params if isinstance(param, click.Option) for flag in param.opts
    ]


CONTEXT = click.Context(cli)
COMMANDS = cli.list_commands(CONTEXT)


def test_the_section_reader_stops_at_the_next_heading_only() -> None:
    text = "## a\none\n```sh\n## a comment\n```\n### a.1\ntwo\n## b\nthree"
    assert section(text, "## a") == "## a\none\n```sh\n## a comment\n```\n### a.1\ntwo"
    assert section(text, "## b") == "## b\nthree"


def test_the_two_commands_come_first() -> None:
    head = README[: README.index("\nquietedit catches")]
    assert head.count("```sh") == 2
    assert "pip install -e ." in head and "pip install -e '.[test]'" in head
    assert "python -m pytest" in head


def test_the_readme_is_one_screen() -> None:
    assert len(README.splitlines()) < 150


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_and_option_is_documented(name: str) -> None:
    command = cli.get_command(CONTEXT, name)
    assert command is not None
    assert command.help, f"{name} has no --help text"
    assert "Example:" in command.help, f"{name}'s help has no example"
    text = section(COMMANDS_PAGE, f"## `quietedit {name}`")
    for flag in option_flags(command):
        assert f"`{flag}" in text, f"{flag} of {name} is not in its section of docs/commands.md"


def test_global_options_are_documented() -> None:
    text = section(COMMANDS_PAGE, "## `quietedit`")
    for flag in [*option_flags(cli), "--help"]:
        assert f"`{flag}" in text, flag


def test_no_undocumented_command_is_described() -> None:
    described = {
        line.removeprefix("## `quietedit ").rstrip("`")
        for line in headings(COMMANDS_PAGE, "## `quietedit ")
    }
    assert described == set(COMMANDS)


def setting_row(spec: SettingSpec) -> str:
    """The table row of ``spec`` in its section of docs/configuration.md."""
    group, _, leaf = spec.key.rpartition(".")
    heading = f"## `settings.{group}`" if group else "## Top-level settings"
    assert heading in headings(CONFIGURATION, "## "), f"{heading} is not in configuration.md"
    rows = [row for row in section(CONFIGURATION, heading).splitlines() if row.startswith("|")]
    matches = [row for row in rows if row.startswith(f"| `{leaf}` |")]
    assert len(matches) == 1, f"{spec.key} has {len(matches)} rows under {heading}"
    return matches[0]


@pytest.mark.parametrize("spec", settings_reference(), ids=lambda s: s.key)
def test_every_setting_its_variable_and_default_are_documented(spec: SettingSpec) -> None:
    row = setting_row(spec)
    assert f"`{spec.env}`" in row, spec.env
    default = spec.default.replace(quietedit.__version__, "<version>")
    assert f"`{default}`" in row, f"{spec.key}: default {default!r} is not in its row"


@pytest.mark.parametrize("field", FeedConfig.__dataclass_fields__)
def test_every_feed_key_is_documented(field: str) -> None:
    rows = section(CONFIGURATION, "## `feeds`").splitlines()
    assert any(row.startswith(f"| `{field}` |") for row in rows), field


def test_no_undocumented_setting_is_described() -> None:
    """Every settings row names a setting that exists: a removed one leaves no trace."""
    known = {spec.key for spec in settings_reference()}
    for heading in ["## Top-level settings", *headings(CONFIGURATION, "## `settings.")]:
        group = heading.removeprefix("## `settings.").rstrip("`")
        prefix = "" if heading == "## Top-level settings" else f"{group}."
        for row in section(CONFIGURATION, heading).splitlines()[1:]:
            if row.startswith("| `"):
                key = prefix + row.split("`")[1]
                assert key in known, f"settings.{key} is documented but is no setting"


@pytest.mark.parametrize("name", quietedit.__all__)
def test_every_public_name_is_documented(name: str) -> None:
    in_code = rf"`[^`\n]*(?<![\w.]){re.escape(name)}(?!\w)[^`\n]*`"
    assert re.search(in_code, PYTHON_API), f"{name} is not in docs/python-api.md"
