"""README.md documents every command, option, feeds.yaml key and setting (so docs can't rot)."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from quietedit.cli import cli
from quietedit.config import FeedConfig, SettingSpec, settings_reference

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def section(heading: str) -> str:
    """The README text from ``heading`` up to the next heading of the same or higher level."""
    start = README.index(heading + "\n")
    level = heading.split(" ")[0]
    ends = [README.find(f"\n{'#' * n} ", start + len(heading)) for n in range(2, len(level) + 1)]
    ends = [e for e in ends if e != -1]
    return README[start : min(ends) if ends else None]


def option_flags(command: click.Command) -> list[str]:
    return [
        flag for param in command.params if isinstance(param, click.Option) for flag in param.opts
    ]


CONTEXT = click.Context(cli)
COMMANDS = cli.list_commands(CONTEXT)


def test_the_two_commands_come_first() -> None:
    head = README[: README.index("\nquietedit catches")]
    assert head.count("```sh") == 2
    assert "pip install -e ." in head and "pip install -e '.[test]'" in head
    assert "python -m pytest" in head


@pytest.mark.parametrize("name", COMMANDS)
def test_every_command_and_option_is_documented(name: str) -> None:
    command = cli.get_command(CONTEXT, name)
    assert command is not None
    assert command.help, f"{name} has no --help text"
    assert "Example:" in command.help, f"{name}'s help has no example"
    text = section(f"### `quietedit {name}`")
    for flag in option_flags(command):
        assert f"`{flag}" in text, f"{flag} of {name} is not in its README section"


def test_global_options_are_documented() -> None:
    text = section("### `quietedit`")
    for flag in [*option_flags(cli), "--help"]:
        assert f"`{flag}" in text, flag


def test_no_undocumented_command_is_described() -> None:
    described = {
        line.removeprefix("### `quietedit ").rstrip("`")
        for line in README.splitlines()
        if line.startswith("### `quietedit ")
    }
    assert described == set(COMMANDS)


@pytest.mark.parametrize("spec", settings_reference(), ids=lambda s: s.key)
def test_every_setting_and_its_variable_is_documented(spec: SettingSpec) -> None:
    text = section("## `feeds.yaml` reference")
    assert f"`{spec.key.rpartition('.')[2]}`" in text, spec.key
    assert f"`{spec.env}`" in text, spec.env


@pytest.mark.parametrize("field", FeedConfig.__dataclass_fields__)
def test_every_feed_key_is_documented(field: str) -> None:
    assert f"`{field}`" in section("## `feeds.yaml` reference")
