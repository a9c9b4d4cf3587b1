"""Bounded decompression: a gzip or deflate body never grows past a byte limit, however it was built.

`Inflater` is fed the raw (possibly compressed) bytes piece by piece and never holds more than the
limit plus one small piece of output, so a gzip bomb costs at most ``limit`` bytes of memory.
"""

from __future__ import annotations

import zlib

GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 64 * 1024


class TooLargeError(Exception):
    """The decoded body passed the limit."""


class CorruptError(Exception):
    """Compressed data that is invalid or ends early."""


def _decompressor(encoding: str) -> zlib._Decompress | None:
    if encoding in ("", "identity"):
        return None
    if encoding in ("gzip", "x-gzip"):
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    if encoding == "deflate":
        return zlib.decompressobj(zlib.MAX_WBITS)
    raise CorruptError(f"unsupported Content-Encoding {encoding!r}")


class Inflater:
    """Decodes one body in the given content encoding (``gzip``, ``deflate`` or identity)."""

    def __init__(self, encoding: str, limit: int) -> None:
        self.limit = limit
        self.encoding = encoding
        self.decompressor = _decompressor(encoding.strip().lower())
        self.parts: list[bytes] = []
        self.size = 0

    def _keep(self, data: bytes) -> None:
        self.size += len(data)
        if self.size > self.limit:
            raise TooLargeError(f"larger than {self.limit:,} bytes once decoded")
        self.parts.append(data)

    def feed(self, data: bytes) -> None:
        if self.decompressor is None:
            self._keep(data)
            return
        try:
            pending = data
            while pending:
                self._keep(self.decompressor.decompress(pending, _CHUNK))
                pending = self.decompressor.unconsumed_tail
                if self.decompressor.eof:
                    break
        except zlib.error as error:
            raise CorruptError(f"invalid {self.encoding} data: {error}") from None

    def finish(self) -> bytes:
        if self.decompressor is not None:
            try:
                while not self.decompressor.eof:
                    piece = self.decompressor.decompress(self.decompressor.unconsumed_tail, _CHUNK)
                    if not piece:
                        break
                    self._keep(piece)
            except zlib.error as error:
                raise CorruptError(f"invalid {self.encoding} data: {error}") from None
            if not self.decompressor.eof:
                raise CorruptError(f"{self.encoding} data ends early (truncated)")
        return b"".join(self.parts)


def inflate(data: bytes, limit: int) -> bytes:
    """``data`` itself, or its gzip decompression when it starts with the gzip magic bytes."""
    inflater = Inflater("gzip" if data.startswith(GZIP_MAGIC) else "", limit)
    inflater.feed(data)
    return inflater.finish()
