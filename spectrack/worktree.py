"""The store's working tree, written while a run records its revisions instead of after it.

A run's commits stream into ``git fast-import`` and become visible only when it publishes them, but
their files are known at once. `WorkTree` writes each committed file (or deletes it) in a
background thread while the run waits for the network, so the end of a run does not spend a file
creation per new page on a checkout (on a slow file system, most of a first fetch's overhead).

Crash safety: every path is appended to the run's pending list *before* its file is touched, and
the list (``.git/spectrack-checkout-pending``) lives until `check_out` has made index and files
agree with the branch. A run killed before its commits were published thus leaves files the next
run can find: `check_out` deletes the listed files the branch does not have, and ``git reset
--hard`` restores the ones it has.

Someone's uncommitted work is never undone so: a run begins by asking `changed_by_hand` for tracked
files that differ from the branch, and refuses to start when a run did not leave them.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO

Git = Callable[..., bytes]
"""Runs git in the store: ``git(*args)`` → its output."""


class WorkTree:
    """Writes committed files into the working tree in a background thread, latest bytes only."""

    def __init__(self, root: Path, pending: Path, thread: ThreadPoolExecutor) -> None:
        # ``thread`` has one thread, which keeps the writes in order (a page written, then its
        # folder pruned); its owner shuts it down before `close`.
        self.root = root
        self._pending: IO[bytes] = pending.open("ab", buffering=0)
        self._latest: dict[str, bytes | None] = {}
        """Files waiting for the thread: their latest committed bytes (None: deleted)."""
        self._lock = threading.Lock()
        self._thread = thread

    def put(self, path: str, data: bytes | None) -> None:
        """Write ``path`` with ``data`` (delete it for None), soon."""
        self._pending.write(path.encode("utf-8", "surrogateescape") + b"\0")
        with self._lock:
            waiting = path in self._latest
            self._latest[path] = data
        if not waiting:
            self._thread.submit(self._apply, path)

    def _apply(self, path: str) -> None:
        with self._lock:
            data = self._latest.pop(path)
        # A file this cannot write is written (or its error reported) by `check_out`'s reset.
        with contextlib.suppress(OSError):
            if data is None:
                remove(self.root, path)
            else:
                write(self.root / path, data)

    def close(self) -> None:
        self._pending.close()


def write(target: Path, data: bytes) -> None:
    """Write a file, creating its folders; few system calls, as each one hands the GIL over."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC
    try:
        fd = os.open(target, flags, 0o666)
    except FileNotFoundError:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(target, flags, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def remove(root: Path, path: str) -> None:
    """Delete a file and the folders it leaves empty (as a git checkout does)."""
    target = root / path
    with contextlib.suppress(FileNotFoundError):
        target.unlink()
    for folder in target.parents:
        if folder == root:
            break
        try:
            folder.rmdir()
        except OSError:
            break


def listed(pending: Path) -> set[str]:
    """The paths on a pending list."""
    return {p for p in pending.read_bytes().decode("utf-8", "surrogateescape").split("\0") if p}


def changed_by_hand(pending: Path, git: Git, left_by_run: Callable[[str], bool]) -> list[str]:
    """Tracked files whose index entry or file differs from the branch, save those a killed run
    left: with a pending list, the files it lists and those ``left_by_run`` accepts (files a run
    commits without writing them, whose index entries a killed run leaves behind the branch).

    Without a pending list, index and files agree with the branch after every run, so anything
    found is someone's work, which `check_out`'s resets would discard. One ``git status`` that
    skips untracked files: it reads only file metadata (under 20 ms for 5,000 pages) unless a
    file changed since the index was written. Untracked files are not looked at: `check_out`
    deletes only those on the pending list.
    """
    try:
        run = listed(pending)
    except FileNotFoundError:
        run = None
    out = git("status", "--porcelain", "-z", "--untracked-files=no", "--no-renames")
    changed = []
    # "XY path": X the index against the branch, Y the file against the index.
    for entry in out.decode("utf-8", "surrogateescape").split("\0"):
        path = entry[3:]
        if path and not (run is not None and (path in run or left_by_run(path))):
            changed.append(path)
    return changed


def check_out(root: Path, pending: Path, git: Git) -> None:
    """Make index and files match the branch, then end the pending list (see the module docstring).

    The files `WorkTree` wrote are only read here (``reset --mixed`` records them in the index);
    ``reset --hard`` then writes whatever still differs, such as a killed run's half-written file.
    It runs only when something does differ: after a run that went well nothing does, and the
    end of a run waits for every git command here.
    """
    written = listed(pending)
    git("reset", "--mixed", "--quiet")
    # Tagged: "? path" a file git does not track, "C path" or "R path" a tracked file that
    # differs or is missing (files outside the sparse checkout are not listed).
    out = git("ls-files", "-z", "-t", "--others", "--modified", "--deleted")
    untracked = set()
    differs = False
    for entry in out.decode("utf-8", "surrogateescape").split("\0"):
        if entry.startswith("? "):
            untracked.add(entry[2:])
        elif entry:
            differs = True
    for stray in sorted(written & untracked):
        remove(root, stray)
    if differs:
        git("reset", "--hard", "--quiet")
    os.unlink(pending)
