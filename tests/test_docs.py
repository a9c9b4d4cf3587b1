"""The README is tested: every command and option of the CLI is documented in it, every
``spectrack …`` command line in its shell examples is a valid invocation, and the examples that
use the bundled example specification run."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest

from spectrack.cli import cli, main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
_SHELL_BLOCK = re.compile(r"^```(?:sh|shell|console|bash)\n(.*?)^```", re.M | re.S)


def example_lines() -> list[str]:
    lines = []
    for block in _SHELL_BLOCK.findall(README):
        for line in block.splitlines():
            command = line.removeprefix("$ ").split("  #", 1)[0].split(" > ", 1)[0].strip()
            if command.startswith("spectrack "):
                lines.append(command)
    return lines


def test_every_command_and_option_is_documented() -> None:
    missing = []
    for name, command in cli.commands.items():
        if f"spectrack {name}" not in README:
            missing.append(f"spectrack {name}")
        for parameter in command.params:
            if isinstance(parameter, click.Option) and not any(
                flag in README for flag in parameter.opts
            ):
                missing.append(f"spectrack {name} {parameter.opts[0]}")
    assert missing == []


@pytest.mark.parametrize("line", example_lines())
def test_every_shell_example_is_a_valid_invocation(line: str) -> None:
    name, *arguments = shlex.split(line)[1:]
    cli.commands[name].make_context(name, arguments)


@pytest.mark.parametrize("line", [line for line in example_lines() if "examples/" in line])
def test_examples_on_the_bundled_specification_run(
    line: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    try:
        main([*shlex.split(line)[1:], "--no-color"])
    except SystemExit as stop:
        assert stop.code == 0, capsys.readouterr().err
    assert "strengthened" in capsys.readouterr().out
