"""One digest of spectrack's own code, templates and assets, for what must not outlive an upgrade.

The site keys its files by it and the report cache its reports: any edit to spectrack changes it,
so a new version never reuses what an older one made.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).parent
_SUFFIXES = (".py", ".html", ".xml", ".css", ".js", ".svg")


@cache
def code_digest() -> str:
    digest = hashlib.blake2b(digest_size=16)
    for path in sorted(_PACKAGE.rglob("*")):
        if path.is_file() and path.suffix in _SUFFIXES:
            digest.update(path.relative_to(_PACKAGE).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()
