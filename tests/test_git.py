"""The one git runner: an inherited repository never leaks in, failures name the command."""

from __future__ import annotations

from pathlib import Path

import pytest

from spectrack.errors import InputError, StoreError
from spectrack.git import run_git
from tests.ci_support import new_repo


def test_an_inherited_git_dir_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mine = new_repo(tmp_path / "mine")
    mine.write("a.md", "# A\n")
    wanted = mine.commit("mine")
    other = new_repo(tmp_path / "other")
    other.write("b.md", "# B\n")
    other.commit("other")
    monkeypatch.setenv("GIT_DIR", str(other.root / ".git"))
    assert run_git(mine.root, "rev-parse", "HEAD").decode().strip() == wanted


def test_a_failure_names_the_repository_the_command_and_gits_message(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as raised:
        run_git(tmp_path, "rev-parse", "HEAD", error=StoreError)
    message = str(raised.value)
    assert message.startswith(f"{tmp_path}: git rev-parse failed: ")
    assert "not a git repository" in message
    with pytest.raises(InputError, match="git log failed"):
        run_git(tmp_path, "log")


def test_a_failure_names_the_command_after_its_options_and_gits_fatal_line(
    tmp_path: Path,
) -> None:
    # fast-import says why on a fatal line, then where it dumped its crash report: the error
    # must carry the why, and name fast-import rather than the '-c' before it.
    repo = new_repo(tmp_path / "repo")
    with pytest.raises(StoreError) as raised:
        run_git(repo.root, "-c", "x.y=z", "fast-import", stdin=b"nonsense\n", error=StoreError)
    message = str(raised.value)
    assert message.startswith(f"{repo.root}: git fast-import failed: fatal: ")
    assert "nonsense" in message and "crash report" not in message


def test_unchecked_runs_return_the_output_of_a_failing_command(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "repo")
    out = run_git(repo.root, "rev-parse", "--verify", "--quiet", "no-such-ref", check=False)
    assert out == b""
