"""Checks that a snapshot store is whole: the tests run them after every fault."""

from __future__ import annotations

import hashlib
import pickle
import subprocess
import zlib
from collections.abc import Iterable
from pathlib import Path

from spectrack.store import BRANCH, STATE_ROOT, PageState, Store


def git(path: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(path), *args], capture_output=True, text=True, check=True
    ).stdout


def head(path: Path) -> str:
    return git(path, "rev-parse", BRANCH).strip()


def assert_consistent(path: Path, earlier_heads: Iterable[str] = ()) -> None:
    """Objects sound, history only grown, pages and their states in agreement, tree checked out."""
    subprocess.run(["git", "-C", str(path), "fsck", "--no-dangling", "--no-progress"], check=True)
    current = head(path)
    for earlier in earlier_heads:
        ancestor = subprocess.run(
            ["git", "-C", str(path), "merge-base", "--is-ancestor", earlier, current], check=False
        )
        assert ancestor.returncode == 0, f"{earlier} was rewritten"
    assert git(path, "status", "--porcelain", "--untracked-files=no") == ""
    files = git(path, "ls-tree", "-r", "--name-only", BRANCH).split()
    pages = {f for f in files if not f.startswith(".") and f.endswith(".md")}
    states = {f for f in files if f.startswith(STATE_ROOT + "/")}
    assert {f"{STATE_ROOT}/{p}.json" for p in pages} == states
    assert not (path / STATE_ROOT).exists(), "page state stays out of the checkout"
    for page in pages:
        data = subprocess.run(
            ["git", "-C", str(path), "show", f"{BRANCH}:{STATE_ROOT}/{page}.json"],
            capture_output=True,
            check=True,
        ).stdout
        state = PageState.from_json(data, page)
        assert state.page + ".md" == page
        assert state.sha256 == hashlib.sha256((path / page).read_bytes()).hexdigest()
    with Store.open(path) as store:
        for revision in store.revisions():
            touched = git(path, "show", "--name-only", "--format=", revision.commit).split()
            assert revision.path in touched


def page_bytes(path: Path, page: str) -> bytes:
    return (path / f"{page}.md").read_bytes()


def pickles(path: Path) -> list[object]:
    """A cache file's pickles in order: its header, then each saved chunk."""
    found = []
    data = path.read_bytes()
    while data:
        # Each frame: its length (8 bytes), its CRC-32 (4 bytes), then the pickle.
        length = int.from_bytes(data[:8], "big")
        body = data[12 : 12 + length]
        assert zlib.crc32(body).to_bytes(4, "big") == data[8:12], "a damaged frame"
        found.append(pickle.loads(body))
        data = data[12 + length :]
    return found
