"""Helpers for the CI-alerting tests: real git repositories, a CLI runner, fixture pages.

The fixture pages describe a made-up "Lantern" signalling protocol, written for these tests.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from spectrack.cli import main

LANTERN_V1 = """\
# Lantern signals

A lantern announces itself with a beacon frame.

## Beacons

Every beacon SHOULD carry the lantern's colour.
Receivers MAY ignore beacons from unknown lanterns.

Beacons are sent once a minute.
"""

LANTERN_V2 = """\
# Lantern signals

A lantern  announces itself with a *beacon* frame.

## Beacons

Every beacon MUST carry the lantern's colour.
Receivers MAY ignore beacons from unknown lanterns.

Beacons are sent twice a minute.
"""

GLOSSARY = """\
# Glossary

A *lantern* is any device that sends beacons.
"""


@dataclass
class GitRepo:
    """A real git repository in a temporary folder, with a fixed author for reproducibility."""

    root: Path

    def git(self, *args: str) -> str:
        env = {
            **os.environ,
            "GIT_AUTHOR_NAME": "Test",
            "GIT_AUTHOR_EMAIL": "test@example.invalid",
            "GIT_COMMITTER_NAME": "Test",
            "GIT_COMMITTER_EMAIL": "test@example.invalid",
        }
        done = subprocess.run(
            ["git", *args], cwd=self.root, env=env, capture_output=True, text=True, check=True
        )
        return done.stdout.strip()

    def write(self, path: str, text: str) -> None:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")

    def commit(self, message: str) -> str:
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.git("rev-parse", "HEAD")


def new_repo(root: Path) -> GitRepo:
    root.mkdir(parents=True, exist_ok=True)
    repo = GitRepo(root)
    repo.git("init", "-q", "-b", "main")
    return repo


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> Run:
    """Run the spectrack CLI in-process, as `spectrack ARGS…`, and capture what it printed."""
    capsys.readouterr()
    try:
        main(list(args))
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    else:
        code = 0
    captured = capsys.readouterr()
    return Run(code, captured.out, captured.err)
