"""Read pages from files and directories: decoding, and pairing two trees by relative path."""

from __future__ import annotations

import codecs
import posixpath
from collections import Counter
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from spectrack.errors import InputError

PAGE_SUFFIXES = (".md", ".mdx", ".markdown")
BIDI_CONTROLS = "\u202a-\u202e\u2066-\u2069"
"""The bidirectional embeddings, overrides and isolates, as a character-class range: one that
page text leaves open turns the words shown after it backwards."""


def url_path(relative: str) -> str:
    """The URL path of a page file below a site's folder, from its POSIX path: without its suffix,
    and an index names its folder (``a/b.md`` → ``a/b``, ``a/index.md`` → ``a``).

    Letter case is ignored in ``index`` as it is in the suffix: ``INDEX.MD`` is an index too.
    """
    stem = PurePosixPath(relative).with_suffix("").as_posix()
    folder, _, name = stem.rpartition("/")
    return folder if name.lower() == "index" else stem


def decode_page(data: bytes, name: str) -> str:
    """UTF-8 text of a page with line ends normalized; binary or other encodings are an error."""
    return page_text(served_text(data, name))


def served_text(data: bytes, name: str) -> str:
    """UTF-8 text of a page as served, byte order mark and line ends kept; binary or other
    encodings are an error."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise InputError(
            f"{name}: UTF-16 text (it starts with a UTF-16 byte order mark); convert the page to UTF-8"
        )
    if b"\x00" in data:
        raise InputError(f"{name}: binary data (NUL bytes), not a Markdown/MDX page")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{name}: {not_utf8(error)}; convert the page to UTF-8") from None


def is_utf8(text: str) -> bool:
    """Whether ``text`` is UTF-8 text: a name or argument read with ``surrogateescape`` (file
    names, the command line) may hold other bytes as surrogates, which no URL or file holds."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def not_utf8(error: UnicodeDecodeError) -> str:
    """Where a text is not UTF-8, for a message: ``not UTF-8 (byte 0xff at offset 12)``."""
    return f"not UTF-8 (byte 0x{error.object[error.start]:02x} at offset {error.start})"


def page_text(text: str) -> str:
    """The text as the Markdown parser reads it: a leading byte order mark dropped, and every
    CRLF and every lone CR a newline."""
    text = text.removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def read_page(path: Path) -> str:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file or directory") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory; compare two directories or two files") from None
    except OSError as error:
        raise InputError(f"{path}: cannot read ({error.strerror})") from None
    return decode_page(data, str(path))


def page_files(root: Path) -> dict[str, Path]:
    """Markdown/MDX files under ``root`` by their POSIX path relative to it."""
    return {
        path.relative_to(root).as_posix(): path
        for path in sorted(root.rglob("*"))
        if path.is_file() and path.suffix.lower() in PAGE_SUFFIXES
    }


def pair_pages(old: Path, new: Path) -> list[tuple[str, Path | None, Path | None]]:
    """(relative path, old file, new file) for two files or two directories."""
    for path in (old, new):
        if not path.exists():
            if path.is_symlink():
                raise InputError(f"{path}: a symbolic link to nothing (or to itself)")
            raise InputError(f"{path}: no such file or directory")
    if old.is_dir() != new.is_dir():
        raise InputError(f"{old} and {new}: compare two files or two directories, not one of each")
    if not old.is_dir():
        for path in (old, new):
            if not path.is_file():
                # A FIFO or a device would be read until it ends, perhaps never.
                raise InputError(f"{path}: not a regular file")
        return [(new.name, old, new)]
    old_files, new_files = page_files(old), page_files(new)
    if not old_files and not new_files:
        # Nothing compared would pass any --fail-on: a mistyped folder must not pass a CI gate.
        raise InputError(
            f"{old} and {new}: neither folder holds a page (.md, .mdx, .markdown); "
            "check the folders"
        )
    renamed = _suffixes_changed(old_files.keys() - new_files.keys(), new_files.keys() - old_files)
    return [
        (name, old_files.get(renamed.get(name, name)), new_files.get(name))
        for name in sorted((old_files.keys() - renamed.values()) | new_files.keys())
    ]


def _suffixes_changed(old_only: Iterable[str], new_only: Iterable[str]) -> dict[str, str]:
    """New name → old name of pages whose file only changed suffix (a site moved from ``.md``
    to ``.mdx``): the same page, where one old and one new file alone share the rest."""
    old_stems = Counter(posixpath.splitext(name)[0] for name in old_only)
    new_stems = Counter(posixpath.splitext(name)[0] for name in new_only)
    old_by_stem = {posixpath.splitext(name)[0]: name for name in old_only}
    return {
        name: old_by_stem[stem]
        for name in new_only
        if old_stems[stem := posixpath.splitext(name)[0]] == 1 and new_stems[stem] == 1
    }
