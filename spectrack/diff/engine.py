"""Two versions of a page → a `PageReport`: aligned units, classified changes, tagged hunks."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence

from spectrack.diff.align import Region, Unit, align, find_moves, units_of, words_of
from spectrack.diff.classify import classify_pair, classify_single
from spectrack.diff.lines import LineDiff, Opcode, build_hunk, group_hunks, line_diff, split_lines
from spectrack.markdown import parse
from spectrack.markdown.inline import clean
from spectrack.model import (
    Block,
    Change,
    ChangeClass,
    ChangeKind,
    Document,
    Hunk,
    PageReport,
    PageStatus,
    Side,
)


def side_of(unit: Unit) -> Side:
    sentence = unit.sentence
    return Side(
        sentence.text, sentence.line, sentence.end_line, tuple(k.word for k in sentence.keywords)
    )


def block_side(blocks: Sequence[Block]) -> Side:
    return Side(
        " ".join(b.text for b in blocks),
        blocks[0].line,
        blocks[-1].end_line,
        tuple(k.word for b in blocks for s in b.sentences for k in s.keywords),
    )


def _section(old: Unit | None, new: Unit | None) -> tuple[str, ...]:
    unit = new or old
    assert unit is not None
    return unit.block.section


def _reformatted(equal: Iterable[tuple[Unit, Unit]]) -> list[Change]:
    """Blocks whose units all match but whose source changed: formatting."""
    changes = []
    seen: set[tuple[int, int]] = set()
    for old, new in equal:
        pair = (id(old.block), id(new.block))
        if pair in seen or old.block.raw == new.block.raw:
            continue
        seen.add(pair)
        changes.append(
            Change(
                ChangeClass.FORMATTING,
                ChangeKind.REFORMATTED,
                new.block.section,
                block_side([old.block]),
                block_side([new.block]),
            )
        )
    return changes


def _same_words(region: Region) -> bool:
    """Whether readers see the same words in a region (a re-laid-out list, a repaired fence)."""
    return [w for u in region.old for w in words_of(u.sentence.key)] == [
        w for u in region.new for w in words_of(u.sentence.key)
    ]


def _unique_blocks(units: Sequence[Unit]) -> list[Block]:
    blocks: list[Block] = []
    for unit in units:
        if not blocks or blocks[-1] is not unit.block:
            blocks.append(unit.block)
    return blocks


def _region_changes(region: Region, moved: set[int]) -> list[Change]:
    if region.old and region.new and _same_words(region):
        return [
            Change(
                ChangeClass.FORMATTING,
                ChangeKind.REFORMATTED,
                region.new[0].block.section,
                block_side(_unique_blocks(region.old)),
                block_side(_unique_blocks(region.new)),
            )
        ]
    changes = []
    for old, new in region.pairs:
        if (old is not None and id(old) in moved) or (new is not None and id(new) in moved):
            continue
        if old is not None and new is not None:
            change_class, kind = classify_pair(old, new)
        elif old is not None:
            change_class, kind = classify_single(old), ChangeKind.REMOVED
        else:
            assert new is not None
            change_class, kind = classify_single(new), ChangeKind.ADDED
        changes.append(
            Change(
                change_class,
                kind,
                _section(old, new),
                side_of(old) if old else None,
                side_of(new) if new else None,
            )
        )
    return changes


def _overlaps(side: Side | None, lines: Sequence[int]) -> bool:
    if side is None or not lines:
        return False
    index = bisect_right(lines, side.end_line) - 1
    return index >= 0 and lines[index] >= side.line


def _hunk_lines(group: Sequence[Opcode]) -> tuple[list[int], list[int]]:
    old = [i + 1 for tag, i1, i2, _, _ in group if tag != "equal" for i in range(i1, i2)]
    new = [j + 1 for tag, _, _, j1, j2 in group if tag != "equal" for j in range(j1, j2)]
    return old, new


def _section_at(document: Document, line: int) -> tuple[str, ...]:
    section: tuple[str, ...] = ()
    for block in document.blocks:
        if block.line > line:
            break
        section = block.section
    return section


def _tag_hunks(
    diff: LineDiff, changes: list[Change], new_doc: Document
) -> tuple[list[Hunk], list[Change]]:
    """Tag each hunk with the highest class of the changes it covers.

    A hunk that covers no change (a blank line, a removed ``<div />``) is formatting, and becomes
    a ``reformatted`` change of its own so that every difference is counted.
    """
    hunks = []
    extra = []
    for group in group_hunks(diff):
        old_lines, new_lines = _hunk_lines(group)
        covered = [
            c.change_class
            for c in changes
            if _overlaps(c.old, old_lines) or _overlaps(c.new, new_lines)
        ]
        if covered:
            change_class = max(covered, key=lambda c: c.rank)
        else:
            change_class = ChangeClass.FORMATTING
            line = new_lines[0] if new_lines else group[0][3] + 1
            extra.append(
                Change(
                    ChangeClass.FORMATTING,
                    ChangeKind.REFORMATTED,
                    _section_at(new_doc, line),
                    _raw_side(diff.old_lines, old_lines),
                    _raw_side(diff.new_lines, new_lines),
                )
            )
        hunks.append(build_hunk(group, diff, change_class))
    return hunks, extra


def _raw_side(lines: Sequence[str], numbers: Sequence[int]) -> Side | None:
    if not numbers:
        return None
    return Side(clean(" ".join(lines[n - 1] for n in numbers)), numbers[0], numbers[-1])


def _whole_page(document: Document, added: bool) -> list[Change]:
    """An added or removed page: each requirement sentence is a normative change."""
    kind = ChangeKind.ADDED if added else ChangeKind.REMOVED
    changes = []
    for unit in units_of(document.blocks):
        if unit.sentence.keywords:
            side = side_of(unit)
            changes.append(
                Change(
                    ChangeClass.NORMATIVE,
                    kind,
                    unit.block.section,
                    None if added else side,
                    side if added else None,
                )
            )
    if not changes and document.blocks:
        side = block_side(document.blocks[:1])
        changes.append(
            Change(
                ChangeClass.EDITORIAL, kind, (), None if added else side, side if added else None
            )
        )
    return changes


def diff_texts(old: str | None, new: str | None, path: str) -> PageReport:
    """Compare two versions of a page; None on one side means the page was added or removed."""
    old_lines = split_lines(old) if old is not None else []
    new_lines = split_lines(new) if new is not None else []
    diff = line_diff(old_lines, new_lines)
    if old is None or new is None:
        present = new if old is None else old
        assert present is not None
        document = parse(present, name=path)
        changes = _whole_page(document, added=old is None)
        hunks, _ = _tag_hunks(diff, changes, document)
        status = PageStatus.ADDED if old is None else PageStatus.REMOVED
        return PageReport(path, status, tuple(changes), tuple(hunks), diff.added, diff.removed)
    if not diff.changed:
        return PageReport(path, PageStatus.UNCHANGED, (), (), 0, 0)
    old_doc = parse(old, name=path)
    new_doc = parse(new, name=path)
    changes = diff_documents(old_doc, new_doc)
    hunks, extra = _tag_hunks(diff, changes, new_doc)
    changes = sorted(changes + extra, key=lambda change: _position(change, diff.opcodes))
    return PageReport(
        path, PageStatus.MODIFIED, tuple(changes), tuple(hunks), diff.added, diff.removed
    )


def _position(change: Change, opcodes: Sequence[Opcode]) -> tuple[int, int]:
    """Where a change sits in the new page; a removal sits where its old line went."""
    if change.new is not None:
        return change.new.line, 0
    assert change.old is not None
    index = change.old.line - 1
    for tag, i1, i2, j1, _ in opcodes:
        if i1 <= index < i2:
            return j1 + 1 + (index - i1 if tag == "equal" else 0), 1
    return len(opcodes) and opcodes[-1][4] + 1, 1


def diff_documents(old: Document, new: Document) -> list[Change]:
    """The semantic changes between two parsed documents (without line hunks)."""
    equal, regions = align(units_of(old.blocks), units_of(new.blocks))
    changes = _reformatted(equal)
    moves = find_moves(regions)
    moved = {id(unit) for pair in moves for unit in pair}
    for region in regions:
        changes.extend(_region_changes(region, moved))
    changes.extend(
        Change(ChangeClass.FORMATTING, ChangeKind.MOVED, n.block.section, side_of(o), side_of(n))
        for o, n in moves
    )
    return changes
