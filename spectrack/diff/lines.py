"""The plain line diff: unified hunks with old and new line numbers on every line.

The semantic diff reuses its opcodes to know which lines changed, so the line diff is computed
once per page. Lines shared at the start and the end of both pages are set aside before difflib
aligns the rest: most revisions change a small part of a page.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import NamedTuple

from spectrack.model import ChangeClass, Hunk, HunkLine

CONTEXT = 3
ANCHORED_ABOVE = 2000 * 2000
"""Above this many pairs of items (old × new) left between the shared head and tail, items found
once on each side anchor the alignment before difflib runs between them: difflib's time grows
with the square of a long stretch whose changes are scattered through it."""

Opcode = tuple[str, int, int, int, int]


@dataclass(frozen=True, slots=True)
class LineDiff:
    old_lines: Sequence[str]
    new_lines: Sequence[str]
    opcodes: tuple[Opcode, ...]
    """difflib-style opcodes over whole lines (0-based, end exclusive), covering both pages."""

    @property
    def changed(self) -> list[Opcode]:
        return [op for op in self.opcodes if op[0] != "equal"]

    @property
    def added(self) -> int:
        return sum(j2 - j1 for tag, _, _, j1, j2 in self.opcodes if tag in ("insert", "replace"))

    @property
    def removed(self) -> int:
        return sum(i2 - i1 for tag, i1, i2, _, _ in self.opcodes if tag in ("delete", "replace"))


def split_lines(text: str) -> list[str]:
    """Lines without their line ends; a final newline does not make an extra empty line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def line_diff(old_lines: Sequence[str], new_lines: Sequence[str]) -> LineDiff:
    return LineDiff(old_lines, new_lines, tuple(trimmed_opcodes(old_lines, new_lines)))


def trimmed_opcodes(
    old: Sequence[Hashable],
    new: Sequence[Hashable],
    *,
    autojunk: bool = True,
    anchored_above: int = ANCHORED_ABOVE,
) -> list[Opcode]:
    """difflib's opcodes from ``old`` to ``new``, with their shared head and tail set aside first.

    Besides being cheaper when little changed, this keeps a small edit in a long sequence whose
    items repeat (a word in a sentence of thousands) from costing difflib time quadratic in its
    length. What lies between is anchored first when it is longer than ``anchored_above`` allows
    (see `ANCHORED_ABOVE`).
    """
    opcodes = _trimmed(old, new, autojunk, anchored_above, None)
    assert opcodes is not None, "only a bound refuses"
    return opcodes


def bounded_opcodes(
    old: Sequence[Hashable], new: Sequence[Hashable], most_pairs: int
) -> list[Opcode] | None:
    """`trimmed_opcodes` without difflib's junk heuristic, anchored past ``most_pairs`` pairs of
    items; None when difflib would still be left a stretch of more than ``most_pairs`` pairs
    (its time grows with the cube of a long run of repeated items)."""
    return _trimmed(old, new, False, most_pairs, most_pairs)


def _trimmed(
    old: Sequence[Hashable],
    new: Sequence[Hashable],
    autojunk: bool,
    anchored_above: int,
    refused_above: int | None,
) -> list[Opcode] | None:
    head, tail = shared_ends(old, new)
    old_end, new_end = len(old) - tail, len(new) - tail
    middle = _anchored(
        old, new, _Stretch(head, old_end, head, new_end), autojunk, anchored_above, refused_above
    )
    if middle is None:
        return None
    opcodes: list[Opcode] = [("equal", 0, head, 0, head)] if head else []
    opcodes += middle
    if tail:
        opcodes.append(("equal", old_end, len(old), new_end, len(new)))
    merged: list[Opcode] = []
    for opcode in opcodes:
        if merged and opcode[0] == merged[-1][0] == "equal":
            opcode = ("equal", merged[-1][1], opcode[2], merged[-1][3], opcode[4])
            merged.pop()
        merged.append(opcode)
    return merged


_STRIDE = 32
"""How many items `shared_ends` compares at once before it compares them one by one."""


def shared_ends(old: Sequence[Hashable], new: Sequence[Hashable]) -> tuple[int, int]:
    """How many items both sequences start with, and then how many they end with.

    Most lines of two versions of a page are the same: runs of `_STRIDE` items are compared
    as slices first, which compares them without a step of Python per item.
    """
    shortest = min(len(old), len(new))
    head = 0
    while head + _STRIDE <= shortest and old[head : head + _STRIDE] == new[head : head + _STRIDE]:
        head += _STRIDE
    while head < shortest and old[head] == new[head]:
        head += 1
    tail = 0
    old_end, new_end = len(old), len(new)
    while (
        tail + _STRIDE <= shortest - head
        and old[old_end - tail - _STRIDE : old_end - tail]
        == new[new_end - tail - _STRIDE : new_end - tail]
    ):
        tail += _STRIDE
    while tail < shortest - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return head, tail


class _Stretch(NamedTuple):
    """``old[i1:i2]`` against ``new[j1:j2]``, still to align."""

    i1: int
    i2: int
    j1: int
    j2: int
    parent: int = 0
    """The length of the stretch it was cut from (0: cut from none)."""

    @property
    def length(self) -> int:
        return self.i2 - self.i1 + self.j2 - self.j1

    @property
    def pairs(self) -> int:
        return (self.i2 - self.i1) * (self.j2 - self.j1)


def _anchored(
    old: Sequence[Hashable],
    new: Sequence[Hashable],
    stretch: _Stretch,
    autojunk: bool,
    anchored_above: int,
    refused_above: int | None,
) -> list[Opcode] | None:
    """Opcodes from ``old`` to ``new`` over a stretch of them.

    A stretch of more than ``anchored_above`` pairs of items is cut at its anchors (see
    `_unique_anchors`), and so is each piece between two anchors that is at most half as long
    as the stretch it was cut from (so that cutting stays within n log n steps however the
    anchors fall); difflib aligns the rest. None when difflib would be given a stretch of more
    than ``refused_above`` pairs.
    """
    opcodes: list[Opcode] = []
    pending: list[_Stretch | Opcode] = [stretch]
    while pending:
        piece = pending.pop()
        if not isinstance(piece, _Stretch):
            opcodes.append(piece)
            continue
        i1, i2, j1, j2, parent = piece
        anchors = (
            _unique_anchors(old, new, i1, i2, j1, j2) or _run_anchors(old, new, i1, i2, j1, j2)
            if piece.pairs > anchored_above and (not parent or 2 * piece.length <= parent)
            else []
        )
        if not anchors:
            if refused_above is not None and piece.pairs > refused_above:
                return None
            matcher = SequenceMatcher(None, old[i1:i2], new[j1:j2], autojunk=autojunk)
            opcodes += [
                (tag, a1 + i1, a2 + i1, b1 + j1, b2 + j1)
                for tag, a1, a2, b1, b2 in matcher.get_opcodes()
            ]
            continue
        pieces: list[_Stretch | Opcode] = []
        for i, j in anchors:
            if i > i1 or j > j1:
                pieces.append(_Stretch(i1, i, j1, j, piece.length))
            pieces.append(("equal", i, i + 1, j, j + 1))
            i1, j1 = i + 1, j + 1
        if i1 < i2 or j1 < j2:
            pieces.append(_Stretch(i1, i2, j1, j2, piece.length))
        pending += reversed(pieces)
    return opcodes


def _unique_anchors(
    old: Sequence[Hashable], new: Sequence[Hashable], i1: int, i2: int, j1: int, j2: int
) -> list[tuple[int, int]]:
    """Where items found exactly once in ``old[i1:i2]`` and once in ``new[j1:j2]`` sit, as
    (old, new) positions: the longest run of them in the same order on both sides (the anchors
    of a patience diff)."""
    old_counts, new_counts = Counter(old[i1:i2]), Counter(new[j1:j2])
    new_place = {item: j for j, item in enumerate(new[j1:j2], j1) if new_counts[item] == 1}
    shared = [
        (i, new_place[item])
        for i, item in enumerate(old[i1:i2], i1)
        if old_counts[item] == 1 and item in new_place
    ]
    # Longest increasing run of new positions, by patience sorting: ``tops[k]`` is the smallest
    # new position ending a run of k + 1 anchors, ``before`` links each anchor to the previous.
    tops: list[int] = []
    ends: list[int] = []
    before: list[int] = []
    for index, (_, j) in enumerate(shared):
        length = bisect_left(tops, j)
        before.append(ends[length - 1] if length else -1)
        if length == len(tops):
            tops.append(j)
            ends.append(index)
        else:
            tops[length] = j
            ends[length] = index
    run: list[tuple[int, int]] = []
    index = ends[-1] if ends else -1
    while index >= 0:
        run.append(shared[index])
        index = before[index]
    return run[::-1]


def _run_anchors(
    old: Sequence[Hashable], new: Sequence[Hashable], i1: int, i2: int, j1: int, j2: int
) -> list[tuple[int, int]]:
    """Anchors for a stretch with no unique items: runs of one item repeated, each taken as
    one item, anchored as `_unique_anchors` anchors items, then item by item from their starts
    over the shorter run (where difflib too matches a run to a longer one). A stretch that is
    mostly one item repeated costs difflib the square of the run."""
    old_runs, new_runs = _runs(old, i1, i2), _runs(new, j1, j2)
    anchored = _unique_anchors(
        [item for item, _, _ in old_runs],
        [item for item, _, _ in new_runs],
        0,
        len(old_runs),
        0,
        len(new_runs),
    )
    return [
        (old_runs[a][1] + k, new_runs[b][1] + k)
        for a, b in anchored
        for k in range(min(old_runs[a][2], new_runs[b][2]))
    ]


def _runs(items: Sequence[Hashable], start: int, end: int) -> list[tuple[Hashable, int, int]]:
    """The runs of one item repeated (twice or more) in ``items[start:end]``: item, where the
    run starts, and its length."""
    runs = []
    first = start
    for index in range(start + 1, end + 1):
        if index == end or items[index] != items[first]:
            if index - first > 1:
                runs.append((items[first], first, index - first))
            first = index
    return runs


def group_hunks(diff: LineDiff) -> list[list[Opcode]]:
    """Opcodes grouped into hunks with ``CONTEXT`` unchanged lines around each change."""
    groups: list[list[Opcode]] = []
    group: list[Opcode] = []
    has_change = False
    last = len(diff.opcodes) - 1
    for index, opcode in enumerate(diff.opcodes):
        tag, i1, i2, j1, j2 = opcode
        if tag != "equal":
            group.append(opcode)
            has_change = True
            continue
        if has_change:
            if index < last and i2 - i1 <= 2 * CONTEXT:
                group.append(opcode)
                continue
            lead = min(i2 - i1, CONTEXT)
            if lead:
                group.append(("equal", i1, i1 + lead, j1, j1 + lead))
            groups.append(group)
            has_change = False
        trail = min(i2 - i1, CONTEXT) if index < last else 0
        group = [("equal", i2 - trail, i2, j2 - trail, j2)] if trail else []
    if has_change:
        groups.append(group)
    return groups


def build_hunk(group: Sequence[Opcode], diff: LineDiff, change_class: ChangeClass) -> Hunk:
    lines: list[HunkLine] = []
    for tag, i1, i2, j1, j2 in group:
        if tag == "equal":
            lines.extend(
                HunkLine(" ", i1 + k + 1, j1 + k + 1, diff.old_lines[i1 + k])
                for k in range(i2 - i1)
            )
            continue
        lines.extend(HunkLine("-", i + 1, None, diff.old_lines[i]) for i in range(i1, i2))
        lines.extend(HunkLine("+", None, j + 1, diff.new_lines[j]) for j in range(j1, j2))
    first, last = group[0], group[-1]
    return Hunk(
        old_start=first[1] + 1,
        old_count=last[2] - first[1],
        new_start=first[3] + 1,
        new_count=last[4] - first[3],
        change_class=change_class,
        lines=tuple(lines),
    )
