"""One digest of spectrack's own code, templates and assets, and of what shapes their results,
for what must not outlive an upgrade.

The site keys its files by it and the report cache its reports: any edit to spectrack, and any
upgrade of Python or of a library that parses or renders (markdown-it-py reads a page otherwise),
changes it, so a new version never reuses what an older one made.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Mapping
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

_PACKAGE = Path(__file__).parent
_SUFFIXES = (".py", ".html", ".xml", ".css", ".js", ".svg")
SHAPING_LIBRARIES = ("markdown-it-py", "mdit-py-plugins", "pyspellchecker", "jinja2", "markupsafe")
"""The libraries whose version can change a report or a page of the site."""


@cache
def code_digest() -> str:
    return digest_of(_PACKAGE, installed_versions())


def installed_versions() -> dict[str, str]:
    """Python's version and each shaping library's, as installed."""
    versions = {"python": ".".join(map(str, sys.version_info[:2]))}
    for name in SHAPING_LIBRARIES:
        try:
            versions[name] = version(name)
        except PackageNotFoundError:
            versions[name] = "absent"
    return versions


def digest_of(package: Path, versions: Mapping[str, str]) -> str:
    """The digest of the files of ``package`` and of ``versions``."""
    digest = hashlib.blake2b(digest_size=16)
    for name, number in sorted(versions.items()):
        digest.update(f"{name}={number}\n".encode())
    for path in sorted(package.rglob("*")):
        if path.is_file() and path.suffix in _SUFFIXES:
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()
