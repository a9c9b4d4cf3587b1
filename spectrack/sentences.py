"""Split a block's plain text into sentences.

A sentence ends at ``.``, ``!`` or ``?`` (and any closing quotes or brackets) followed by
whitespace and something that can start a sentence. Abbreviations (``e.g.``, ``i.e.``),
code spans and URLs never end one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

ABBREVIATIONS = frozenset(
    [
        "e.g",
        "i.e",
        "vs",
        "cf",
        "al",
        "approx",
        "fig",
        "figs",
        "no",
        "nos",
        "resp",
        "incl",
        "esp",
        "viz",
        "ca",
        "ch",
        "sec",
        "secs",
        "eq",
        "ref",
        "refs",
        "mr",
        "mrs",
        "ms",
        "dr",
        "st",
        "jr",
        "sr",
        "inc",
        "ltd",
        "co",
        "corp",
        "ver",
    ]
)
_BOUNDARY = re.compile(r"[.!?][\"'”’)\]]*(\s+)(?=[\"'“‘(\[`*_]*[A-Z])")


def split_sentences(text: str, protected: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """(start, end) offsets of each sentence of ``text``; ``protected`` ranges are never split."""
    spans = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        end = match.start(1)
        if any(lo <= match.start() < hi for lo, hi in protected):
            continue
        word = text[text.rfind(" ", 0, end) + 1 : end].rstrip(".!?\"'”’)]").lower()
        if word in ABBREVIATIONS:
            continue
        if end > start:
            spans.append((start, end))
        start = match.end()
    if start < len(text):
        spans.append((start, len(text)))
    return spans
