"""A cache file of pickled chunks inside a store's ``.git`` folder, grown by appending.

The file is a header (what wrote it: a schema name and spectrack's code digest) followed by
chunks, one per save. Each, header included, is framed by its length and a CRC-32 that is
checked before unpickling: a flipped byte could otherwise unpickle into wrong data (another
commit id, another verdict) rather than fail. CRC-32 finds every damaged byte and burst of up to
32 bits, at a fifth of the cost of a cryptographic digest; it guards against accidents, not
against someone who can write the store's ``.git`` (see below). A file in the unframed format of earlier versions
fails that check, and is set aside and written afresh like any other unreadable file. A run that
adds a little appends a little, so keeping the cache of a long history up to date costs
kilobytes, not the whole history. Losing the file costs only time.

It is a pickle, read back only from the store's own ``.git`` folder: whoever can write there
can already make git run their code through hooks.
"""

from __future__ import annotations

import os
import pickle
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from spectrack.codedigest import code_digest
from spectrack.collector import collector_paused

MAX_CHUNKS = 64
"""Appended chunks after which a save writes the whole file afresh as one chunk."""

_LENGTH = 8
_CHECK = 4


class _Damaged(Exception):
    """A frame cut short or whose check does not match its bytes."""


def frame(value: Any) -> bytes:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return len(data).to_bytes(_LENGTH, "big") + zlib.crc32(data).to_bytes(_CHECK, "big") + data


def _unframe(file: IO[bytes]) -> Any:
    prefix = file.read(_LENGTH + _CHECK)
    if len(prefix) != _LENGTH + _CHECK:
        raise _Damaged
    length = int.from_bytes(prefix[:_LENGTH], "big")
    data = file.read(length)
    if len(data) != length or zlib.crc32(data).to_bytes(_CHECK, "big") != prefix[_LENGTH:]:
        raise _Damaged
    return pickle.loads(data)


@dataclass(frozen=True, slots=True)
class Chunks:
    """What a read found."""

    chunks: list[Any]
    """The chunks that could be read, in file order."""
    intact: bool
    """Whether the whole file was read; appending is only for an intact file."""


class ChunkFile:
    """One cache file: its path and the schema its chunks follow."""

    def __init__(self, path: Path, schema: str) -> None:
        self.path = path
        self.schema = schema

    def header(self) -> dict[str, str]:
        return {"schema": self.schema, "code": code_digest()}

    def read(self) -> Chunks:
        """The file's chunks; none when it is missing or another version of spectrack wrote it."""
        chunks: list[Any] = []
        try:
            with collector_paused(), self.path.open("rb") as file:
                if _unframe(file) != self.header():
                    return Chunks([], intact=False)
                while file.peek(1):
                    chunks.append(_unframe(file))
        except Exception:
            # Missing, cut short, damaged, or pickled by a version whose classes moved: what
            # was read stays, and the next save writes the file afresh.
            return Chunks(chunks, intact=False)
        return Chunks(chunks, intact=True)

    def append(self, chunk: Any) -> None:
        """Add one chunk to an intact file (`OSError` when that fails)."""
        data = frame(chunk)
        # One unbuffered write in append mode: two runs saving at once add whole chunks one
        # after the other rather than interleaved.
        with self.path.open("ab", buffering=0) as file:
            file.write(data)

    def rewrite(self, chunk: Any) -> None:
        """The header and one chunk, written aside and moved into place (`OSError` on failure)."""
        partial = self.path.with_name(f"{self.path.name}.{os.getpid()}.partial")
        try:
            with partial.open("wb") as file:
                file.write(frame(self.header()) + frame(chunk))
            os.replace(partial, self.path)
        finally:
            partial.unlink(missing_ok=True)


def reduce_by_constructor(value: Any) -> tuple[Any, ...]:
    """A ``__reduce__`` for slotted dataclasses whose fields all go to the constructor.

    A cache load makes thousands of them; calling the constructor is cheaper than the generic
    state protocol that slotted dataclasses otherwise pickle with.
    """
    return (type(value), tuple(getattr(value, name) for name in value.__slots__))
