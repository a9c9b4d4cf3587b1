"""A reader of workflow commands that follows the GitHub Actions runner's rules.

It reads output line by line the way the runner does: a line is a command when, after leading
whitespace, it starts with ``::NAME`` of a known command and has a second ``::`` (the v2 syntax),
or when it holds ``##[NAME]`` anywhere (the older v1 syntax). Properties are split on ``,`` and
``=`` and unescaped (``%0D`` ``%0A`` ``%3A`` ``%2C`` ``%25``), the message likewise (``%0D``
``%0A`` ``%25``). After ``::stop-commands::TOKEN`` nothing is a command until ``::TOKEN::``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

KNOWN_COMMANDS = frozenset(
    {
        "add-mask",
        "add-matcher",
        "add-path",
        "debug",
        "echo",
        "endgroup",
        "error",
        "group",
        "notice",
        "remove-matcher",
        "save-state",
        "set-env",
        "set-output",
        "stop-commands",
        "warning",
    }
)


@dataclass(frozen=True)
class Command:
    name: str
    properties: dict[str, str]
    data: str


@dataclass
class RunnerLog:
    commands: list[Command] = field(default_factory=list)
    """Commands the runner would have carried out, in order (stop and resume included)."""
    command_lines: list[str] = field(default_factory=list)
    """The lines those commands were read from."""
    fenced: list[str] = field(default_factory=list)
    """Lines read while commands were stopped."""
    plain: list[str] = field(default_factory=list)
    """Other lines that were not commands."""


def unescape_data(text: str) -> str:
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def unescape_property(text: str) -> str:
    return (
        text.replace("%0D", "\r")
        .replace("%0A", "\n")
        .replace("%3A", ":")
        .replace("%2C", ",")
        .replace("%25", "%")
    )


def _parse_v2(line: str, known: set[str]) -> Command | None:
    line = line.lstrip()
    if not line.startswith("::"):
        return None
    end = line.find("::", 2)
    if end < 0:
        return None
    info = line[2:end]
    name, _, properties = info.partition(" ")
    if name not in known:
        return None
    parsed = {}
    for item in properties.strip().split(","):
        key, equals, value = item.partition("=")
        if item and equals and key and value:
            parsed[key] = unescape_property(value)
    return Command(name, parsed, unescape_data(line[end + 2 :]))


def _parse_v1(line: str, known: set[str]) -> Command | None:
    start = line.find("##[")
    if start < 0:
        return None
    close = line.find("]", start)
    if close < 0:
        return None
    name = line[start + 3 : close].partition(" ")[0]
    if name not in known:
        return None
    return Command(name, {}, unescape_data(line[close + 1 :]))


def read(output: str) -> RunnerLog:
    log = RunnerLog()
    known = set(KNOWN_COMMANDS)
    stop_token: str | None = None
    # The runner reads lines as .NET's StreamReader.ReadLine does: split at CR, LF or CR LF.
    for line in re.split(r"\r\n|\r|\n", output):
        command = _parse_v2(line, known) or _parse_v1(line, known)
        if stop_token is not None:
            if command is not None and command.name == stop_token:
                log.commands.append(command)
                log.command_lines.append(line)
                known.discard(stop_token)
                stop_token = None
            else:
                log.fenced.append(line)
            continue
        if command is None:
            log.plain.append(line)
            continue
        log.commands.append(command)
        log.command_lines.append(line)
        if command.name == "stop-commands":
            stop_token = command.data
            known.add(stop_token)
    return log
