"""Split a block's plain text into sentences.

A sentence ends at ``.``, ``!``, ``?`` or ``…`` (and any closing quotes or brackets) followed by
whitespace and something that can start a sentence: a capital, or a code span (identifiers
start with small letters). Abbreviations (``e.g.``, ``(e.g.``), code spans and URLs never end
one.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from itertools import accumulate

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
_BOUNDARY = re.compile(r"[.!?…][\"'”’)\]]*(\s+)(?=[\"'“‘(\[`*_]*[A-Z])")
_BOUNDARY_BEFORE = re.compile(r"[.!?…][\"'”’)\]]*(\s+)\Z")
"""A sentence's end right before an offset: `_BOUNDARY` without what must follow it."""
_LONGEST_END = 16
"""How far before a code span its sentence's end is looked for: whitespace comes collapsed, so
only closing quotes and brackets stand between."""


class Ranges:
    """(start, end) ranges of a text, sorted, to ask which hold an offset or start in a stretch
    without looking at every range (a paragraph may hold thousands of code spans)."""

    def __init__(self, ranges: Iterable[tuple[int, int]]) -> None:
        self.ranges = sorted(ranges)
        self._starts = [start for start, _ in self.ranges]
        self._reach = list(accumulate((end for _, end in self.ranges), max))
        """The furthest end of the ranges up to each one."""

    def hold(self, offset: int) -> bool:
        """Whether some range holds ``offset`` (its start at or before it, its end after it)."""
        index = bisect_right(self._starts, offset)
        return index > 0 and self._reach[index - 1] > offset

    def starting_within(self, start: int, end: int) -> list[tuple[int, int]]:
        """The ranges that start at ``start`` or after it and before ``end``."""
        return self.ranges[bisect_left(self._starts, start) : bisect_left(self._starts, end)]


def split_sentences(
    text: str,
    protected: Ranges | Iterable[tuple[int, int]] = (),
    parts: Sequence[int] = (),
    code_starts: Sequence[int] = (),
) -> list[tuple[int, int]]:
    """(start, end) offsets of each sentence of ``text``; ``protected`` ranges are never split.

    ``parts`` are offsets where a new part of the text starts whatever precedes it (an HTML
    block element such as ``<p>`` or ``<li>``): a sentence always ends before one.
    ``code_starts`` are offsets where code spans start: after a sentence's end, one starts the
    next sentence even with a small letter (``notifications/message`` is an identifier).
    """
    kept = protected if isinstance(protected, Ranges) else Ranges(protected)
    ends = list(_BOUNDARY.finditer(text))
    for start in code_starts:
        if 0 < start < len(text) and not text[start].isupper():
            before = _BOUNDARY_BEFORE.search(text, max(0, start - _LONGEST_END), start)
            if before is not None:
                ends.append(before)
    cuts: list[tuple[int, int]] = []  # (where a sentence ends, where the next one starts)
    for match in ends:
        end = match.start(1)
        # A mark that ends a protected range ("~~Lids MUST dry.~~ Jars …") still ends its
        # sentence; one inside a range ("`e.g. Foo`") does not.
        if kept.hold(match.start()) and kept.hold(end):
            continue
        word = text[text.rfind(" ", 0, end) + 1 : end].strip(".!?…\"'“”‘’()[]").lower()
        if word not in ABBREVIATIONS:
            cuts.append((end, match.end()))
    if parts or code_starts:
        cuts = sorted([*cuts, *((part, part) for part in parts if part < len(text))])
    spans = []
    start = 0
    for end, restart in cuts:
        if text[end - 1 : end] == " ":
            end -= 1
        if end > start:
            spans.append((start, end))
        start = max(start, restart)
    if start < len(text):
        spans.append((start, len(text)))
    return spans
