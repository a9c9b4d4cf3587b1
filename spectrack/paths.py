"""A page URL → its file in the snapshot store, safely.

``https://host/specification/draft/server/tools`` of source ``mcp`` becomes
``mcp/specification/draft/server/tools.md``. Whatever the URL holds, the file stays inside the
source's folder and works on every common file system:

- the path is split on ``/`` *before* percent-decoding, so a decoded ``%2f`` or ``..`` is part of a
  name, never a separator or a step up;
- in each name, separators (``/``, ``\\``), characters Windows refuses, control characters, a
  leading dot (``.``, ``..``, ``.git``), a trailing dot or space and ``%`` itself are written as
  ``%XX``, so the mapping is one-to-one and a name never means something to git or the shell;
- a folder name never ends in ``.md`` (that dot is escaped) and a file name always does, so a page
  and a folder never claim the same name; a trailing ``/`` is ``index``;
- a name longer than 120 bytes is cut and suffixed with a hash of the whole name; a path over
  600 bytes becomes ``<source>/_long/<hash>.md``; a query string adds a hash of itself;
- a path equal to a path already taken in the source, ignoring case, gets a ``~<hash>`` suffix.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import PurePosixPath
from urllib.parse import unquote_to_bytes, urlsplit

from spectrack.errors import StoreError

PAGE_SUFFIX = ".md"
MAX_NAME_BYTES = 120
MAX_PATH_BYTES = 600
_UNSAFE = frozenset('/\\:*?"<>|%')
_RESERVED = frozenset(
    ["CON", "PRN", "AUX", "NUL"] + [f"{p}{n}" for p in ("COM", "LPT") for n in range(1, 10)]
)


def reserved_name(name: str) -> bool:
    """Whether Windows keeps ``name`` for a device (``con``, ``LPT1.txt``): no file or folder
    may bear it."""
    return name.split(".")[0].upper() in _RESERVED


def _hash(text: str, length: int) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:length]


def _escape(char: str) -> str:
    return "".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))


def _decode(segment: str) -> str:
    try:
        return unquote_to_bytes(segment).decode("utf-8")
    except UnicodeDecodeError:
        return segment


def safe_name(name: str, *, folder: bool) -> str:
    """One path segment as a file or folder name (see the module docstring)."""
    out = [
        _escape(c) if c in _UNSAFE or ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 else c for c in name
    ]
    if out and out[0] == ".":
        out[0] = _escape(".")
    if out and out[-1] in (".", " "):
        out[-1] = _escape(out[-1])
    text = "".join(out)
    if reserved_name(text):
        text = _escape(text[0]) + text[1:]
    if folder and text.lower().endswith(PAGE_SUFFIX):
        text = text[: -len(PAGE_SUFFIX)] + _escape(".") + text[-2:]
    if len(text.encode("utf-8")) > MAX_NAME_BYTES:
        cut = text.encode("utf-8")[: MAX_NAME_BYTES - 20].decode("utf-8", "ignore")
        if "%" in cut[-2:]:
            cut = cut[: cut.rindex("%")]
        text = f"{cut}~{_hash(name, 16)}"
    return text


def ensure_inside(source: str, path: str) -> str:
    """``path`` itself when it is a clean relative path in the source's folder; else `StoreError`."""
    parts = PurePosixPath(path).parts
    clean = (
        len(parts) >= 2
        and parts[0] == source
        and "\\" not in path
        and "\x00" not in path
        and not path.startswith("/")
        and all(part not in ("", ".", "..") and not part.startswith(".") for part in parts)
        and "/".join(parts) == path
    )
    if not clean:
        raise StoreError(f"refusing unsafe store path {path!r} for source {source!r}")
    return path


def page_file(source: str, url: str, taken: Callable[[str], bool] = lambda _: False) -> str:
    """The store file of a page; ``taken(path)`` says whether a case-folded path is in use."""
    parts = urlsplit(url)
    raw = [s for s in parts.path.split("/") if s]
    if not raw or parts.path.endswith("/"):
        raw.append("index")
    names = [safe_name(_decode(s), folder=True) for s in raw[:-1]]
    last = _decode(raw[-1])
    if last.lower().endswith(PAGE_SUFFIX) and len(last) > len(PAGE_SUFFIX):
        last = last[: -len(PAGE_SUFFIX)]
    stem = safe_name(last, folder=False)
    if parts.query:
        stem += f"~q{_hash(parts.query, 12)}"
    path = "/".join([source, *names, stem])
    if len(path.encode("utf-8")) > MAX_PATH_BYTES:
        path = f"{source}/_long/{_hash(url, 32)}"
    if taken((path + PAGE_SUFFIX).casefold()):
        path += f"~{_hash(url, 10)}"
    return ensure_inside(source, path + PAGE_SUFFIX)
