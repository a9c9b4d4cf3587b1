"""The store's revisions as last listed, kept between runs so that only new commits are read.

Listing thousands of revisions means a ``git log`` of the whole history and parsing every commit
message; the store's history only grows (see the store contract), so a run lists only the
commits after the last one listed. The list lives in the store's ``.git`` folder
(`spectrack.chunkfile`): each chunk holds the revisions of the commits ``base..head``, and
chunks must follow one another (each ``base`` the previous ``head``) to count.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from spectrack.chunkfile import MAX_CHUNKS, ChunkFile

if TYPE_CHECKING:
    from spectrack.store import Revision

SCHEMA = "spectrack.revisions/1"
CACHE_FILE = "spectrack-revisions.pickle"
"""File name inside the store's ``.git`` folder."""


@dataclass(frozen=True, slots=True)
class _Chunk:
    base: str | None
    """The last commit of the previous chunk; None for the first."""
    head: str
    revisions: tuple[Revision, ...]
    """The revisions among the commits after ``base`` up to ``head``, oldest first."""


class RevisionCache:
    """The revisions up to one store commit, read from and saved to one `ChunkFile`."""

    def __init__(self, store_path: Path) -> None:
        self.file = ChunkFile(store_path / ".git" / CACHE_FILE, SCHEMA)
        self.head: str | None = None
        """The commit the list is complete up to; None when nothing is known."""
        self.revisions: list[Revision] = []
        self._chunks = 0
        self._intact = False

    @classmethod
    def load(cls, store_path: Path) -> RevisionCache:
        cache = cls(store_path)
        found = cache.file.read()
        cache._intact = found.intact
        for chunk in found.chunks:
            if not isinstance(chunk, _Chunk) or chunk.base != cache.head:
                # Two runs that appended the same commits, or a foreign chunk: stop trusting
                # the file here, and let the next save write it afresh.
                cache._intact = False
                break
            cache.revisions += chunk.revisions
            cache.head = chunk.head
            cache._chunks += 1
        return cache

    def extend(self, head: str, revisions: list[Revision]) -> None:
        """Add the revisions of the commits after the cached head up to ``head``, and save."""
        chunk = _Chunk(self.head, head, tuple(revisions))
        self.revisions += revisions
        self.head = head
        try:
            if self._intact and self._chunks < MAX_CHUNKS:
                self.file.append(chunk)
                self._chunks += 1
            else:
                self.file.rewrite(_Chunk(None, head, tuple(self.revisions)))
                self._chunks = 1
                self._intact = True
        except OSError:
            # A read-only store: the next run lists these commits again.
            return

    def restart(self, head: str, revisions: list[Revision]) -> None:
        """Replace what is known (the cached head is not in the history up to ``head``)."""
        self.head = None
        self.revisions = []
        self._intact = False
        self.extend(head, revisions)
