"""Windows: the smallest stretches of two pages that hold every changed line and cut both at chunks.

Each changed stretch of the line diff is widened until both its old and its new end fall on chunk
starts of their page (see `spectrack.markdown.outline`); stretches that touch merge. Outside the
windows the two pages are the same lines, so only the windows need parsing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from spectrack.diff.lines import Opcode
from spectrack.markdown import Outline

_LABEL_USE = "\\[(?:[^\\]\\n]*\\]\\[)?\\s*({labels})\\s*\\]"


@dataclass(frozen=True, slots=True)
class Window:
    old_start: int
    old_end: int
    new_start: int
    new_end: int
    """0-based line ranges, end exclusive."""


def windows(opcodes: Sequence[Opcode], old: Outline, new: Outline) -> list[Window]:
    """The windows around the changed opcodes of a line diff between ``old`` and ``new``.

    Lines that use a link reference whose definition changed count as changed too, and so do
    the lines of front matter only one side has; pages of different dialects are one window.
    Between two windows lie the same lines on both sides, so a window widens by the same
    number of lines on both sides; when it reaches its neighbour the two merge.
    """
    if old.dialect is not new.dialect:
        # Indented lines are code in Markdown and text in MDX: every line may read otherwise.
        return [Window(0, len(old.lines), 0, len(new.lines))]
    changed = [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in opcodes if tag != "equal"]
    context = (
        _reference_users(opcodes, old, new)
        + _title_users(opcodes, old, new)
        + _front_matter_lines(opcodes, old, new)
    )
    spans = [list(span) for span in sorted(set(changed + context))]
    old_count = opcodes[-1][2] if opcodes else 0
    index = 0
    while index < len(spans):
        span = spans[index]
        while True:
            grow = max(
                span[0] - old.chunk_start_at_or_before(span[0]),
                span[2] - new.chunk_start_at_or_before(span[2]),
            )
            gap = span[0] - (spans[index - 1][1] if index else 0)
            if grow and index and grow >= gap:
                previous = spans[index - 1]
                previous[1], previous[3] = span[1], span[3]
                del spans[index]
                index -= 1
                span = previous
                continue
            if grow and gap:
                span[0] -= min(grow, gap)
                span[2] -= min(grow, gap)
                continue
            grow = max(
                old.chunk_start_at_or_after(span[1]) - span[1],
                new.chunk_start_at_or_after(span[3]) - span[3],
            )
            last = index + 1 == len(spans)
            gap = (old_count if last else spans[index + 1][0]) - span[1]
            if grow and not last and grow >= gap:
                following = spans.pop(index + 1)
                span[1], span[3] = following[1], following[3]
                continue
            if grow and gap:
                span[1] += min(grow, gap)
                span[3] += min(grow, gap)
                continue
            break
        index += 1
    merged: list[list[int]] = []
    for span in spans:
        if merged and (span[0] == merged[-1][1] or span[2] == merged[-1][3]):
            merged[-1][1], merged[-1][3] = span[1], span[3]
        else:
            merged.append(span)
    return [Window(*span) for span in merged]


def _reference_users(
    opcodes: Sequence[Opcode], old: Outline, new: Outline
) -> list[tuple[int, int, int, int]]:
    """(old, old + 1, new, new + 1) for unchanged lines that use a redefined link reference."""
    if old.definitions == new.definitions:
        return []
    before, after = old.references, new.references
    labels = {
        label for label in before.keys() | after.keys() if before.get(label) != after.get(label)
    }
    if not labels:
        return []
    pattern = re.compile(
        _LABEL_USE.format(
            labels="|".join(r"\s+".join(map(re.escape, label.split())) for label in labels)
        ),
        re.IGNORECASE,
    )
    return _unchanged_lines(opcodes, lambda _, line: pattern.search(new.lines[line]) is not None)


def _title_users(
    opcodes: Sequence[Opcode], old: Outline, new: Outline
) -> list[tuple[int, int, int, int]]:
    """The leading H1 when the front-matter title changed: whether it repeats the title may too."""
    if old.title_context == new.title_context:
        return []
    old_h1 = {heading.line for heading in old.headings[:1] if heading.level == 1}
    new_h1 = {heading.line for heading in new.headings[:1] if heading.level == 1}
    return _unchanged_lines(
        opcodes, lambda old_line, new_line: old_line in old_h1 or new_line in new_h1
    )


def _front_matter_lines(
    opcodes: Sequence[Opcode], old: Outline, new: Outline
) -> list[tuple[int, int, int, int]]:
    """The front matter's lines when only one side has front matter: the same lines read
    otherwise on the other side (below a new first line, dashes are a rule and a heading)."""
    if (old.body_start == 0) == (new.body_start == 0):
        return []
    return _unchanged_lines(
        opcodes, lambda old_line, new_line: old_line < old.body_start or new_line < new.body_start
    )


def _unchanged_lines(
    opcodes: Sequence[Opcode], picked: Callable[[int, int], bool]
) -> list[tuple[int, int, int, int]]:
    """(old, old + 1, new, new + 1) for each unchanged line that ``picked(old, new)`` selects."""
    return [
        (i1 + k, i1 + k + 1, j1 + k, j1 + k + 1)
        for tag, i1, i2, j1, _ in opcodes
        if tag == "equal"
        for k in range(i2 - i1)
        if picked(i1 + k, j1 + k)
    ]
