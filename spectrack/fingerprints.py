"""Stable fingerprints of changes, to recognise the same change across runs.

A fingerprint hashes what a change *is* — the page, its class and kind, and the normalized old and
new text — never where it sits, so it survives edits that only move line numbers. Two identical
changes on one page (the same sentence added in two places) are told apart by their order.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter

from spectrack.model import Change, PageReport, Side

FINGERPRINT_LENGTH = 16
"""Hex digits in a fingerprint (64 bits)."""

FINGERPRINT_PATTERN = re.compile(rf"[0-9a-f]{{{FINGERPRINT_LENGTH}}}")

_VERSION = "spectrack-change/1"
"""Hashed first: changing what a fingerprint covers means a new version, never silent drift."""


def normalize(text: str) -> str:
    """Text as the fingerprint sees it: Unicode NFC, whitespace runs collapsed, ends trimmed."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def _side_text(side: Side | None) -> str:
    return "\x00absent" if side is None else normalize(side.text)


def fingerprint(path: str, change: Change, occurrence: int = 0) -> str:
    """The fingerprint of ``change`` on page ``path``; ``occurrence`` counts earlier twins."""
    parts = (
        _VERSION,
        path,
        change.change_class.value,
        change.kind.value,
        _side_text(change.old),
        _side_text(change.new),
        str(occurrence),
    )
    # A file name that is not UTF-8 reaches here with its bytes as surrogates: keep them.
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogateescape")).hexdigest()
    return digest[:FINGERPRINT_LENGTH]


def page_fingerprints(page: PageReport) -> tuple[str, ...]:
    """The fingerprint of each change of ``page``, in the order of ``page.changes``."""
    seen: Counter[str] = Counter()
    prints = []
    for change in page.changes:
        first = fingerprint(page.path, change)
        prints.append(fingerprint(page.path, change, seen[first]) if seen[first] else first)
        seen[first] += 1
    return tuple(prints)
