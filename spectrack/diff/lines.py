"""The plain line diff: unified hunks with old and new line numbers on every line.

The semantic diff reuses its opcodes to know which lines changed, so the line diff is computed
once per page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from spectrack.model import ChangeClass, Hunk, HunkLine

CONTEXT = 3

Opcode = tuple[str, int, int, int, int]


@dataclass(frozen=True, slots=True)
class LineDiff:
    old_lines: Sequence[str]
    new_lines: Sequence[str]
    matcher: SequenceMatcher[str]

    @property
    def opcodes(self) -> Sequence[Opcode]:
        """difflib opcodes over whole lines (0-based, end exclusive); difflib caches them."""
        return self.matcher.get_opcodes()

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
    return LineDiff(old_lines, new_lines, SequenceMatcher(None, old_lines, new_lines))


def group_hunks(diff: LineDiff) -> list[list[Opcode]]:
    """Opcodes grouped into hunks with ``CONTEXT`` lines around each change (difflib's grouping)."""
    if not diff.changed:
        return []
    return [list(group) for group in diff.matcher.get_grouped_opcodes(CONTEXT)]


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
