"""Running git: the one way every module does it (the store, git revisions, import-git).

spectrack's git commands never act on a repository named by an inherited ``GIT_DIR`` (a git hook
or ``git rebase --exec`` sets it), always speak English (``LC_ALL=C``, so messages can be quoted
in errors), and commit under a fixed identity.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from spectrack.errors import InputError, SpectrackError

REGULAR_FILES = ("100644", "100755")
"""git's modes of files read as pages; symbolic links (120000) and submodules (160000) are not."""

_INHERITED_GIT = frozenset(
    {"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR"}
)


def git_env() -> dict[str, str]:
    """The environment of spectrack's git commands: no inherited repository, fixed identity."""
    env = {k: v for k, v in os.environ.items() if k not in _INHERITED_GIT}
    env.update(
        GIT_TERMINAL_PROMPT="0",
        LC_ALL="C",
        GIT_AUTHOR_NAME="spectrack",
        GIT_AUTHOR_EMAIL="spectrack@localhost",
        GIT_COMMITTER_NAME="spectrack",
        GIT_COMMITTER_EMAIL="spectrack@localhost",
    )
    return env


def run_git(
    repo: Path,
    *args: str,
    stdin: bytes | None = None,
    check: bool = True,
    error: type[SpectrackError] = InputError,
) -> bytes:
    """Run ``git -C repo ARGS…`` and return its output.

    A failure (with ``check``) raises ``error`` — `InputError` for a user's repository,
    `StoreError` for the snapshot store — naming the repository, the git command and git's last
    message line.
    """
    try:
        done = subprocess.run(
            ["git", "-C", str(repo), *args],
            input=stdin,
            capture_output=True,
            env=git_env(),
            check=False,
        )
    except FileNotFoundError:
        raise error("git: not found on PATH; install git") from None
    if check and done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        # fast-import ends with where it dumped its crash report, after the line saying why.
        while len(message) > 1 and message[-1].startswith("fast-import: dumping crash report"):
            message.pop()
        reason = message[-1] if message else f"exit status {done.returncode}"
        raise error(f"{repo}: git {_command(args)} failed: {reason}")
    return done.stdout


def _command(args: tuple[str, ...]) -> str:
    """The git command of an argument list, past options such as ``-c name=value``."""
    index = 0
    while index < len(args) and args[index].startswith("-"):
        index += 2 if args[index] in ("-c", "-C") else 1
    return args[index] if index < len(args) else "(no command)"
