"""The data model shared by every stage: a parsed page (`Document`) and a diff (`Report`).

All classes are frozen and slotted; stages pass them along and never mutate them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum


class ChangeClass(StrEnum):
    """How much a change matters, from least to most (see DESIGN.md, "Classes of change")."""

    FORMATTING = "formatting"
    EDITORIAL = "editorial"
    NORMATIVE = "normative"

    @property
    def rank(self) -> int:
        return _CLASS_RANK[self]


_CLASS_RANK = {ChangeClass.FORMATTING: 1, ChangeClass.EDITORIAL: 2, ChangeClass.NORMATIVE: 3}

UNCHANGED = "unchanged"
"""The verdict of a page or report without any change."""

VERDICTS = (UNCHANGED, *(c.value for c in ChangeClass))
"""Every verdict, from least to most important."""


def verdict_rank(verdict: str) -> int:
    """0 for ``unchanged``, then 1-3 for formatting, editorial, normative."""
    return VERDICTS.index(verdict)


class ChangeKind(StrEnum):
    ADDED = "added"
    REMOVED = "removed"
    MODIFIED = "modified"
    STRENGTHENED = "strengthened"
    WEAKENED = "weakened"
    MOVED = "moved"
    REFORMATTED = "reformatted"


class BlockKind(StrEnum):
    HEADING = "heading"
    PARAGRAPH = "paragraph"
    LIST_ITEM = "list_item"
    TABLE_ROW = "table_row"
    CODE = "code"
    """Fenced or indented code, diagrams included: never normative."""
    COMPONENT = "component"
    """An MDX component or HTML element whose only text is in its attributes (a card title)."""
    THEMATIC_BREAK = "thematic_break"


@dataclass(frozen=True, slots=True)
class Keyword:
    """One BCP 14 keyword occurrence in a sentence."""

    word: str
    """The keyword in its canonical spelling, e.g. ``MUST NOT``."""
    negative: bool
    strength: int
    """1 for MAY/OPTIONAL, 2 for SHOULD/RECOMMENDED, 3 for MUST/REQUIRED/SHALL (same scale when negative)."""


@dataclass(frozen=True, slots=True)
class Sentence:
    text: str
    """Plain text: markup stripped, whitespace collapsed, keywords kept in capitals."""
    key: str
    """Comparison key: `text` plus the targets of the links it holds."""
    line: int
    """1-based line of the page where the sentence starts."""
    end_line: int
    keywords: tuple[Keyword, ...] = ()
    marks: tuple[tuple[int, int], ...] = ()
    """Where ``keywords`` stand in ``text``: (start, end) offsets. A keyword quoted as code is
    none, though the text, without its backticks, shows the same word."""
    code: tuple[str, ...] = ()
    """The sentence's code spans as written: identifiers, whose letter case, spelling and
    punctuation count where the prose's do not."""


@dataclass(frozen=True, slots=True)
class Block:
    """A leaf block of a page: one heading, paragraph, list item, table row, code block or component."""

    kind: BlockKind
    text: str
    """Plain text of the whole block."""
    key: str
    """Canonical comparison key: equal keys mean readers see the same words and links."""
    section: tuple[str, ...]
    """Heading path above the block (the block's own text for a heading)."""
    line: int
    end_line: int
    raw: str
    """The source lines the block came from, to tell a reformatted block from an untouched one."""
    sentences: tuple[Sentence, ...]
    marks: tuple[tuple[int, int], ...] = ()
    """Where the keywords of the sentences stand in ``text``."""
    admonition: str | None = None
    """Kind of the innermost admonition around the block (note, tip, important, warning, caution)."""
    language: str = ""
    """For a code block, the first word of its info string, lowercase (``json``, ``mermaid``)."""
    lead_in: Sentence | None = None
    """For a block inside a list: the sentence ending in a colon that introduces the list. A
    requirement ("Servers MUST reject a request when:") introduces every item, which is part of
    it; a plain lead-in ("Clients:") only the items that go on from it with a keyword ("MUST
    retry."), and only outside any list."""


@dataclass(frozen=True, slots=True)
class Admonition:
    """A callout, whatever syntax wrote it, folded into GitHub's five kinds."""

    kind: str
    syntax: str
    """Where it came from: ``mdx``, ``github``, ``docusaurus``, ``mkdocs`` or ``hugo``."""
    line: int
    end_line: int


@dataclass(frozen=True, slots=True)
class Document:
    title: str | None
    blocks: tuple[Block, ...]
    admonitions: tuple[Admonition, ...] = ()
    line_count: int = 0


@dataclass(frozen=True, slots=True)
class Side:
    """One side (old or new) of a change."""

    text: str
    line: int
    end_line: int
    keywords: tuple[str, ...] = ()
    marks: tuple[tuple[int, int], ...] = ()
    """Where the keywords stand in ``text``, to highlight them (see `Sentence.marks`)."""

    def runs(self, limit: int | None = None) -> list[tuple[str, bool]]:
        """The text cut into runs, each a keyword or not, for a report to highlight.

        Longer than ``limit``, the text keeps its ends joined by " … "; a keyword the cut
        crosses is left plain.
        """
        text, head, tail = elided(self.text, limit)
        shift = len(text) - len(self.text)
        marks = [(a, b) for a, b in self.marks if b <= head] + [
            (a + shift, b + shift) for a, b in self.marks if a >= tail and shift
        ]
        runs = []
        position = 0
        for start, end in marks:
            if start > position:
                runs.append((text[position:start], False))
            runs.append((text[start:end], True))
            position = end
        if position < len(text):
            runs.append((text[position:], False))
        return runs


def elided(text: str, limit: int | None) -> tuple[str, int, int]:
    """``text`` with its middle left out to fit ``limit``: the two ends joined by " … ", how
    much of the start is kept, and where the kept end starts (all of it is kept when it fits)."""
    if limit is None or len(text) <= limit:
        return text, len(text), len(text)
    head = (limit - 3) // 2
    tail = len(text) - head
    return text[:head] + " … " + text[tail:], head, tail


@dataclass(frozen=True, slots=True)
class Change:
    change_class: ChangeClass
    kind: ChangeKind
    section: tuple[str, ...]
    old: Side | None
    new: Side | None


@dataclass(frozen=True, slots=True)
class HunkLine:
    op: str
    """``" "`` context, ``"-"`` removed, ``"+"`` added."""
    old: int | None
    new: int | None
    text: str


@dataclass(frozen=True, slots=True)
class Hunk:
    old_start: int
    old_count: int
    new_start: int
    new_count: int
    change_class: ChangeClass
    lines: tuple[HunkLine, ...]


class PageStatus(StrEnum):
    MODIFIED = "modified"
    ADDED = "added"
    REMOVED = "removed"
    UNCHANGED = "unchanged"


@dataclass(frozen=True, slots=True)
class PageReport:
    path: str
    status: PageStatus
    changes: tuple[Change, ...]
    hunks: tuple[Hunk, ...]
    lines_added: int
    lines_removed: int
    verdict: str = field(init=False, repr=False, compare=False)
    """The highest class among the changes, or ``unchanged``: worked out once, as every output
    (each line of a site's lists, each feed) asks for it."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "verdict", highest_verdict(c.change_class for c in self.changes))


@dataclass(frozen=True, slots=True)
class Report:
    pages: tuple[PageReport, ...] = field(default_factory=tuple)

    @property
    def verdict(self) -> str:
        return highest_verdict(c.change_class for p in self.pages for c in p.changes)

    @property
    def counts(self) -> dict[str, int]:
        counts = {c.value: 0 for c in ChangeClass}
        for page in self.pages:
            for change in page.changes:
                counts[change.change_class.value] += 1
        return {c.value: counts[c.value] for c in reversed(ChangeClass)}


def highest_verdict(classes: Iterable[ChangeClass]) -> str:
    """The verdict of a set of change classes: the highest of them, or ``unchanged``."""
    return max((c.value for c in classes), key=verdict_rank, default=UNCHANGED)
