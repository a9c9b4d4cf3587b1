"""Two versions of a page → a `PageReport`: aligned units, classified changes, tagged hunks."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Container, Iterable, Sequence, Set
from functools import partial
from typing import Any

from spectrack.diff.align import (
    ANCHOR_KINDS,
    WORD,
    Region,
    Unit,
    align,
    pair_by_similarity,
    pieces_of,
    places_kept,
    signs_of,
    units_of,
    with_keywords_exchanged,
    with_places_kept,
    words_of,
)
from spectrack.diff.classify import (
    ORDER_WORDS,
    PRONOUNS,
    Vocabulary,
    classify_pair,
    classify_single,
    place_in_block,
    same_code,
    same_requirement,
    speaks_of_order,
    subject_moved,
)
from spectrack.diff.footnotes import renamed_labels, with_labels_renamed
from spectrack.diff.lines import LineDiff, Opcode, build_hunk, group_hunks, line_diff, split_lines
from spectrack.diff.windows import Window, windows
from spectrack.markdown import Outline, parse, parse_window, scan
from spectrack.markdown.inline import SCHEME, clean, key_of, split_key
from spectrack.markdown.parser import detect_dialect
from spectrack.model import (
    Block,
    BlockKind,
    Change,
    ChangeClass,
    ChangeKind,
    Document,
    Hunk,
    PageReport,
    PageStatus,
    Sentence,
    Side,
)
from spectrack.normative import CONDITIONS
from spectrack.pages import page_text

_CODE_TOKEN = re.compile(r"\w+|[^\w\s]")
"""A word or any other sign of code: in code, ``?``, ``;`` and ``-1`` say something."""


def side_of(unit: Unit) -> Side:
    sentence = unit.sentence
    return Side(
        sentence.text,
        sentence.line,
        sentence.end_line,
        tuple(k.word for k in sentence.keywords),
        sentence.marks,
    )


def block_side(blocks: Sequence[Block]) -> Side:
    marks: list[tuple[int, int]] = []
    offset = 0
    for block in blocks:
        marks.extend((start + offset, end + offset) for start, end in block.marks)
        offset += len(block.text) + 1
    return Side(
        " ".join(b.text for b in blocks),
        blocks[0].line,
        blocks[-1].end_line,
        tuple(k.word for b in blocks for s in b.sentences for k in s.keywords),
        tuple(marks),
    )


def _section(old: Unit | None, new: Unit | None) -> tuple[str, ...]:
    unit = new or old
    assert unit is not None
    return unit.block.section


def _reformatted(equal: Iterable[tuple[Unit, Unit]], touched: set[int]) -> list[Change]:
    """Blocks whose units all match but whose source changed: formatting.

    A block with a unit in a changed region (``touched``) is covered by that change already.
    """
    changes = []
    seen: set[tuple[int, int]] = set()
    for old, new in equal:
        pair = (id(old.block), id(new.block))
        if pair in seen or old.block.raw == new.block.raw:
            continue
        if id(old.block) in touched or id(new.block) in touched:
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


def _words_kept(region: Region) -> ChangeClass | None:
    """The class of a region whose readers see the same words (a re-laid-out list, a repaired
    fence): formatting; editorial where only a letter's case changed too as sentences were
    split or joined ("…; it" → "…. It"); None where the words changed.

    Words, marks and keywords are compared as a multiset: a sentence moved to another paragraph
    keeps what readers see. The same words rearranged can make other text, though (subject and
    object exchanged, two table cells swapped between rows): each sentence must run unbroken
    through the other side's words, or be one there with its pieces between punctuation marks
    in another order (the fields of a signature, the items of a series); a requirement sentence
    and a table row must always run unbroken. Where either side holds code, which shows its
    source as it stands (a link's target inside the text, which a repaired fence turns into a
    link), only words count and only requirements must run whole; but where both sides hold
    code only, its signs and punctuation count too. Code spans count letter for letter (see
    `same_code`), and a link to a site's path names the page that a link on the other side
    names alone (see `_as_named_pages`).
    """
    marks = not _holds_code(region)
    if marks and _keywords(region.old) != _keywords(region.new):
        return None
    if _said_order(region.old) != _said_order(region.new):
        return None
    if not same_code(
        [unit.sentence for unit in region.old], [unit.sentence for unit in region.new]
    ):
        return None
    symbols = not marks and all(
        unit.block.kind is BlockKind.CODE for unit in (*region.old, *region.new)
    )
    named_by_old, named_by_new = _page_names(region.old), _page_names(region.new)
    old_runs = [_visible_words(unit, marks, symbols, named_by_new) for unit in region.old]
    new_runs = [_visible_words(unit, marks, symbols, named_by_old) for unit in region.new]
    if _runs_kept(region, old_runs, new_runs, marks):
        return ChangeClass.FORMATTING
    if len(region.old) != len(region.new) and (
        _runs_kept(region, _lowercase(old_runs), _lowercase(new_runs), marks)
        or _split_at_and(region.old, region.new)
        or _split_at_and(region.new, region.old)
        or _listed_without_conjunctions(region, old_runs, new_runs, marks)
    ):
        return ChangeClass.EDITORIAL
    return None


def _said_order(units: Sequence[Unit]) -> list[str]:
    """The words of the items of ``units`` that stand in a list whose requirement says its
    order matters ("in this order:"), in their order: items that changed places there changed
    the requirement, also where each kept its words and the punctuation stayed behind ("1.
    retry;" "2. log." → "1. log;" "2. retry.")."""
    ordered: dict[str, bool] = {}
    words = []
    for unit in units:
        key = unit.lead_in_key
        if key and key not in ordered:
            # Asked once per list: `setdefault` would work its argument out for every item.
            ordered[key] = speaks_of_order(key)
        if key and ordered[key]:
            words.extend(words_of(unit.sentence.key))
    return words


_CONJUNCTIONS = frozenset({"and"})
"""What a list's items say without it: all of them. A lost "or" made alternatives a list of
requirements all to be met, but under a prohibition (MUST NOT be chipped or cracked) the items
say what "or" says: none of them."""


def _listed_without_conjunctions(
    region: Region, old_runs: list[list[str]], new_runs: list[list[str]], marks: bool
) -> bool:
    """Whether a sentence was laid out as a lead-in and a list (or the list written back as a
    sentence) losing at most the "and" that joined its last items ("MUST be washed, dried and
    sealed." → "MUST be:" and the items "washed", "dried", "sealed"), the items perhaps in
    another order (see `_in_said_order`)."""
    listed_old = any(unit.lead_in is not None for unit in region.old)
    listed_new = any(unit.lead_in is not None for unit in region.new)
    if listed_old == listed_new:
        return False
    sentence, listed = (new_runs, old_runs) if listed_old else (old_runs, new_runs)
    said = Counter(word.lower() for run in sentence for word in run)
    shown = Counter(word.lower() for run in listed for word in run)
    lost = said - shown
    prohibited = any(
        keyword.negative
        for unit in (*region.old, *region.new)
        for keyword in unit.sentence.keywords
    )
    conjunctions = _CONJUNCTIONS | {"or"} if prohibited else _CONJUNCTIONS
    if not conjunctions.issuperset(lost) or shown - said:
        return False
    old_units, new_units = region.old, region.new
    old_runs, new_runs = _without(conjunctions, old_runs), _without(conjunctions, new_runs)
    if listed_old:
        old_units, old_runs = _in_said_order(old_units, old_runs, new_runs)
    else:
        new_units, new_runs = _in_said_order(new_units, new_runs, old_runs)
    return _runs_kept(Region(old_units, new_units), old_runs, new_runs, marks)


def _in_said_order(
    units: tuple[Unit, ...], runs: list[list[str]], said: list[list[str]]
) -> tuple[tuple[Unit, ...], list[list[str]]]:
    """A list's units and their words with its items put in the order in which the sentence
    that lists them (its words ``said``) says them: a series reordered says the same (see
    `same_requirement`). Not where the order matters: a numbered list, a lead-in that says so,
    or words of order in the sentence or the items ("connect, then log in")."""
    stream = _stream([word for run in said for word in run])
    slots = [index for index, unit in enumerate(units) if unit.lead_in is not None]
    if len(slots) < 2 or any(
        _NUMBERED_ITEM.match(units[slot].block.raw) or speaks_of_order(units[slot].lead_in_key)
        for slot in slots
    ):
        return units, runs
    if not ORDER_WORDS.isdisjoint(word.lower() for run in (*said, *runs) for word in run):
        return units, runs
    places = [stream.find(_stream(runs[slot])) for slot in slots]
    if min(places) < 0:
        return units, runs
    ordered_units, ordered_runs = list(units), list(runs)
    by_place = sorted(range(len(slots)), key=places.__getitem__)
    for slot, source in zip(slots, (slots[index] for index in by_place), strict=True):
        ordered_units[slot], ordered_runs[slot] = units[source], runs[source]
    return tuple(ordered_units), ordered_runs


_NUMBERED_ITEM = re.compile(r"\s*\d+[.)]")
"""A numbered list's item, whose number gives its place."""


def _without(words: Set[str], runs: list[list[str]]) -> list[list[str]]:
    return [[word for word in run if word.lower() not in words] for run in runs]


_VERB_KEYWORDS = frozenset({"must", "shall", "should", "may"})


def _split_at_and(joined: Sequence[Unit], parts: Sequence[Unit]) -> bool:
    """Whether ``parts`` say what the one sentence ``joined`` says, split where "and" joined
    two requirements of one subject, each later part naming the subject again or by a pronoun
    ("Jars MUST be sealed and MUST be labelled." → "Jars MUST be sealed. They MUST be
    labelled."). A pronoun does not carry a condition or another phrase said before the subject
    ("If lids are hot, relays MUST …", "For hot lids, relays MUST …"): a later part must say it
    again."""
    if len(joined) != 1 or len(parts) < 2:
        return False
    first = words_of(parts[0].sentence.key)
    verb = next((index for index, word in enumerate(first) if word in _VERB_KEYWORDS), 0)
    subject = first[:verb]
    opening = parts[0].sentence
    set_off = "," in opening.text[: opening.marks[0][0] if opening.marks else 0]
    pronoun_may_stand = CONDITIONS.isdisjoint(subject) and not set_off
    expected = list(first)
    for part in parts[1:]:
        words = words_of(part.sentence.key)
        if subject and words[: len(subject)] == subject:
            rest = words[len(subject) :]
        elif words[:1] and words[0] in PRONOUNS and pronoun_may_stand:
            rest = words[1:]
        else:
            return False
        if not rest or rest[0] not in _VERB_KEYWORDS:
            return False
        expected += ["and", *rest]
    return words_of(joined[0].sentence.key) == expected


def _runs_kept(
    region: Region, old_runs: list[list[str]], new_runs: list[list[str]], marks: bool
) -> bool:
    """Whether the words of a region's units (``old_runs``, ``new_runs``) are the same words,
    each unit running unbroken through the other side's or rearranged as `_kept_whole` allows."""
    old = [word for run in old_runs for word in run]
    new = [word for run in new_runs for word in run]
    if len(old) != len(new) or sorted(old) != sorted(new):
        return False
    return _kept_whole(region.old, old_runs, region.new, new, marks) and _kept_whole(
        region.new, new_runs, region.old, old, marks
    )


def _lowercase(runs: list[list[str]]) -> list[list[str]]:
    return [[word.lower() for word in run] for run in runs]


def _place(sentence: Sentence) -> tuple[str, int]:
    """Where a sentence stands, by which a lead-in is found among the units: an item's unit
    carries its lead-in's own sentence, not the lead-in's unit."""
    return sentence.key, sentence.line


def _keywords(units: Sequence[Unit]) -> list[str]:
    """The keywords of ``units``, sorted: "MUST NOT" and "MUST, NOT" read alike as words. An
    item whose lead-in stands among ``units`` counts only its own, which readers see once, on
    the lead-in ("Servers MUST log, check and reply." laid out as "Servers MUST:" and a list)."""
    present = {_place(unit.sentence) for unit in units}
    return sorted(
        keyword.word
        for unit in units
        for keyword in (
            unit.own_keywords
            if unit.lead_in is not None and _place(unit.lead_in) in present
            else unit.sentence.keywords
        )
    )


def _kept_whole(
    units: Sequence[Unit],
    runs: Sequence[list[str]],
    others: Sequence[Unit],
    words: list[str],
    marks: bool,
) -> bool:
    """Whether every unit of ``units`` (whose words are ``runs``) runs unbroken through
    ``words`` (those of ``others``), or may be rearranged: any but a requirement in code
    (``marks`` False), elsewhere one that has the pieces of one of ``others`` and is no table
    row, whose cells say what they say by their column."""
    stream = _stream(words)
    position = 0
    pieces: set[tuple[tuple[str, ...], ...]] | None = None
    for unit, words_seen in zip(units, runs, strict=True):
        run = _stream(words_seen)
        # Units mostly keep their order: look on from the last one first.
        found = stream.find(run, position)
        if found < 0:
            found = stream.find(run)
        if found >= 0:
            position = found + len(run) - 1
            continue
        if unit.sentence.keywords:
            return False
        if not marks:
            continue
        if unit.block.kind is BlockKind.TABLE_ROW:
            return False
        if pieces is None:
            pieces = {pieces_of(other.sentence.key) for other in others}
        if pieces_of(unit.sentence.key) not in pieces:
            return False
    return True


def _stream(words: list[str]) -> str:
    return "\0" + "\0".join(words) + "\0"


def _holds_code(region: Region) -> bool:
    return any(unit.block.kind is BlockKind.CODE for unit in (*region.old, *region.new))


def _visible_words(unit: Unit, marks: bool, symbols: bool, names: Set[str]) -> list[str]:
    """The words readers see in a unit, with its punctuation marks and signs if ``marks``: its
    text and link targets (a site's path as the page it ``names``), a code block's language
    (with every sign, if ``symbols``)."""
    if unit.block.kind is BlockKind.CODE:
        source = unit.block.language + " " + unit.sentence.text
        return _CODE_TOKEN.findall(source) if symbols else words_of(source, fold_case=False)
    key = _as_named_pages(unit.sentence.key, names) if names else unit.sentence.key
    if marks:
        return signs_of(key)
    return words_of(key, fold_case=False)


def _page_names(units: Sequence[Unit]) -> set[str]:
    """The pages that links of ``units`` name alone (a relative link, a Hugo ``ref`` to a
    page's name), with their anchors: the last segment of their path is all they keep."""
    return {
        target
        for unit in units
        for target in split_key(unit.sentence.key)[1]
        if target[:1] not in ("", "/", "#") and not SCHEME.match(target)
    }


def _as_named_pages(key: str, names: Set[str]) -> str:
    """``key`` with each link to a site's path (``/docs/v2/basic/lifecycle#start``) written as
    the page it ends in (``lifecycle#start``) where ``names`` holds that page: a link made
    absolute, or a Hugo ``ref`` replaced by the path it resolves to, still leads there."""
    words, targets = split_key(key)
    if not targets:
        return key
    written = []
    for target in targets:
        path, hash_mark, anchor = target.partition("#")
        page = path.rsplit("/", 1)[-1] + hash_mark + anchor
        written.append(page if target.startswith("/") and page in names else target)
    return key_of(words, written)


def _unique_blocks(units: Sequence[Unit]) -> list[Block]:
    blocks: list[Block] = []
    for unit in units:
        if not blocks or blocks[-1] is not unit.block:
            blocks.append(unit.block)
    return blocks


def _region_change(region: Region, change_class: ChangeClass) -> Change:
    """The one change of a region whose words did not change (see `_words_kept`)."""
    return Change(
        change_class,
        ChangeKind.REFORMATTED if change_class is ChangeClass.FORMATTING else ChangeKind.MODIFIED,
        region.new[0].block.section,
        block_side(_unique_blocks(region.old)),
        block_side(_unique_blocks(region.new)),
    )


class _ListOrders:
    """The items of every list (or table) a requirement introduces, in page order on each side,
    by the requirement's key: worked out on first use, as few moves stand under a requirement
    that speaks of an order."""

    def __init__(self, windows: Sequence[tuple[list[Unit], list[Unit]]]) -> None:
        self._windows = windows
        self._sides: tuple[dict[str, list[str]], dict[str, list[str]]] | None = None
        # By the keys of the requirement on each side: where each item both lists hold stands
        # among them, worked out once for all the items of a list that ask.
        self._places: dict[tuple[str, str], tuple[dict[str, int], dict[str, int]]] = {}

    def moved_within(self, old: Unit, new: Unit) -> bool:
        """Whether an item stands elsewhere among the items both sides of its list hold (not
        where its whole list moved, past a heading or to another section)."""
        lists = (old.lead_in_key, new.lead_in_key)
        places = self._places.get(lists)
        if places is None:
            places = self._places[lists] = self._shared_places(*lists)
        before, after = places
        key = _item_words(old)
        return key in before and before[key] != after[key]

    def _shared_places(self, old_key: str, new_key: str) -> tuple[dict[str, int], dict[str, int]]:
        """Where each item that the old list of ``old_key`` and the new one of ``new_key`` both
        hold first stands among the items they share, on each side."""
        if self._sides is None:
            self._sides = ({}, {})
            for units in self._windows:
                for side, found in zip(self._sides, units, strict=True):
                    for unit in found:
                        if unit.lead_in is not None:
                            side.setdefault(unit.lead_in_key, []).append(_item_words(unit))
        before = self._sides[0].get(old_key, [])
        after = self._sides[1].get(new_key, [])
        shared = set(before) & set(after)
        return _first_places(before, shared), _first_places(after, shared)


def _first_places(items: Sequence[str], shared: Container[str]) -> dict[str, int]:
    """Where each of ``items`` that is ``shared`` first stands among those that are."""
    places: dict[str, int] = {}
    for place, item in enumerate(item for item in items if item in shared):
        places.setdefault(item, place)
    return places


def _item_words(unit: Unit) -> str:
    """An item's words, by which it is found among its list's: an item that changed places
    may take the punctuation of the place it went to ("1. retry;" "2. log." → "1. log;" "2.
    retry.")."""
    return " ".join(words_of(unit.sentence.key))


class _Sentences:
    """How many copies of each sentence (by key) the windows of each side hold, counted on
    first use: a sentence outside them stands alike on both sides."""

    def __init__(self, windows: Sequence[tuple[list[Unit], list[Unit]]]) -> None:
        self._windows = windows
        self._counts: tuple[Counter[str], Counter[str]] | None = None
        # By the id of a block, which the windows keep alive.
        self._places: dict[int, dict[int, int]] = {}

    def _counted(self) -> tuple[Counter[str], Counter[str]]:
        if self._counts is None:
            self._counts = (
                Counter(unit.sentence.key for old, _ in self._windows for unit in old),
                Counter(unit.sentence.key for _, new in self._windows for unit in new),
            )
        return self._counts

    def kept(self, key: str) -> bool:
        """Whether no copy of an old sentence was lost on the new side."""
        old, new = self._counted()
        return new[key] >= old[key]

    def there_before(self, key: str) -> bool:
        """Whether no copy of a new sentence was gained over the old side."""
        old, new = self._counted()
        return old[key] >= new[key]

    def place(self, unit: Unit) -> int:
        """Where a unit's sentence stands among its block's (see `place_in_block`), each
        block's places mapped once: many sentences of one long paragraph may ask."""
        places = self._places.get(id(unit.block))
        if places is None:
            sentences = unit.block.sentences
            places = {id(sentence): index for index, sentence in enumerate(sentences)}
            self._places[id(unit.block)] = places
        return places.get(id(unit.sentence), 0)

    def lead_in_alone(self, old: Unit, new: Unit) -> bool:
        """Whether one of two units stands in the list of a requirement that only its side
        holds, and the other in no list: that requirement's removal (or addition) is reported
        on its own, and its keywords are no change of the unit's."""
        if old.lead_in is not None and new.lead_in is None:
            return not self.kept(old.lead_in_key)
        if old.lead_in is None and new.lead_in is not None:
            return not self.there_before(new.lead_in_key)
        return False


def _pair_change(
    old: Unit | None,
    new: Unit | None,
    new_vocabulary: Vocabulary,
    list_orders: _ListOrders | None = None,
    sentences: _Sentences | None = None,
    place: Callable[[Unit], int] = place_in_block,
) -> Change:
    if old is not None and new is not None:
        if old.sentence.key != new.sentence.key or old.sentence.keywords != new.sentence.keywords:
            own_keywords = sentences is not None and sentences.lead_in_alone(old, new)
            change_class, kind = classify_pair(old, new, new_vocabulary, own_keywords=own_keywords)
            if change_class is not ChangeClass.NORMATIVE and _reordered(old, new, list_orders):
                change_class, kind = ChangeClass.NORMATIVE, ChangeKind.MODIFIED
        elif not same_requirement(
            old.lead_in_key, new.lead_in_key, new_vocabulary
        ) or subject_moved(old, new, place):
            # The same item in the list of another requirement with the same keywords, or the
            # same words asked of the subject of another place.
            change_class, kind = ChangeClass.NORMATIVE, ChangeKind.MODIFIED
        elif _reordered(old, new, list_orders):
            change_class, kind = ChangeClass.NORMATIVE, ChangeKind.MODIFIED
        else:
            change_class, kind = ChangeClass.FORMATTING, ChangeKind.MOVED
    elif old is not None:
        change_class, kind = classify_single(old), ChangeKind.REMOVED
    else:
        assert new is not None
        change_class, kind = classify_single(new), ChangeKind.ADDED
    return Change(
        change_class,
        kind,
        _section(old, new),
        side_of(old) if old else None,
        side_of(new) if new else None,
    )


def _reordered(old: Unit, new: Unit, list_orders: _ListOrders | None) -> bool:
    """Whether an item stands elsewhere in a list whose requirement says its order matters
    ("…, in this order:"): where it stands is part of the requirement."""
    return (
        list_orders is not None
        and speaks_of_order(old.lead_in_key)
        and list_orders.moved_within(old, new)
    )


def _lists_whole(
    pairs: list[tuple[Unit | None, Unit | None]], side: int, units: Iterable[Sequence[Unit]]
) -> tuple[list[tuple[Unit | None, Unit | None]], list[Change]]:
    """``pairs`` without the requirements that were added (``side`` 1) or removed (0) with
    every item of their list, and those as one change each: a requirement and its list are
    one sentence ("Servers MUST reject a request when: the lid is open; the jar is cold")."""
    alone = [pair[side] for pair in pairs if pair[1 - side] is None]
    lead_ins = {
        _place(unit.sentence): unit for unit in alone if unit is not None and unit.sentence.keywords
    }
    items: dict[tuple[str, int], list[Unit]] = {}
    for unit in alone:
        if unit is not None and unit.lead_in is not None and _place(unit.lead_in) in lead_ins:
            items.setdefault(_place(unit.lead_in), []).append(unit)
    if not items:
        return pairs, []
    listed = Counter(
        _place(unit.lead_in) for run in units for unit in run if unit.lead_in is not None
    )
    # A list inside an item of another is left as it is: its items stand under two lead-ins.
    nested = {_place(unit.sentence) for found in items.values() for unit in found}
    whole = {
        place: found
        for place, found in items.items()
        if len(found) == listed[place]
        and place not in nested
        and not any(_place(unit.sentence) in items for unit in found)
    }
    folded = {id(unit) for place, found in whole.items() for unit in (lead_ins[place], *found)}
    changes = []
    for place, found in whole.items():
        lead_in = lead_ins[place]
        listed_side = _listed_side(side_of(lead_in), [side_of(unit) for unit in found])
        changes.append(
            Change(
                ChangeClass.NORMATIVE,
                ChangeKind.ADDED if side else ChangeKind.REMOVED,
                lead_in.block.section,
                None if side else listed_side,
                listed_side if side else None,
            )
        )
    kept = [pair for pair in pairs if pair[1 - side] is not None or id(pair[side]) not in folded]
    return kept, changes


def _listed_side(lead_in: Side, items: Sequence[Side]) -> Side:
    """A requirement's side and its list's items' (each shown after the requirement) as one:
    the items' own words follow the requirement's, parted by semicolons where an item ends in
    no punctuation of its own."""
    own = len(lead_in.text) + 1
    text, keywords, marks = lead_in.text, list(lead_in.keywords), list(lead_in.marks)
    for index, item in enumerate(sorted(items, key=lambda item: item.line)):
        text += "; " if index and not text.endswith((";", ":", ",", ".")) else " "
        shift = len(text) - own
        text += item.text[own:]
        keywords += item.keywords[len(lead_in.keywords) :]
        marks += [(a + shift, b + shift) for a, b in item.marks[len(lead_in.marks) :]]
    return Side(
        text,
        lead_in.line,
        max(item.end_line for item in (lead_in, *items)),
        tuple(keywords),
        tuple(marks),
    )


def _overlaps(side: Side | None, lines: Sequence[int]) -> bool:
    return side is not None and _touches(side.line, side.end_line, lines)


def _touches(first: int, last: int, lines: Sequence[int]) -> bool:
    """Whether lines ``first`` to ``last`` hold one of ``lines`` (sorted)."""
    index = bisect_right(lines, last) - 1
    return index >= 0 and lines[index] >= first


def _hunk_lines(group: Sequence[Opcode]) -> tuple[list[int], list[int]]:
    old = [i + 1 for tag, i1, i2, _, _ in group if tag != "equal" for i in range(i1, i2)]
    new = [j + 1 for tag, _, _, j1, j2 in group if tag != "equal" for j in range(j1, j2)]
    return old, new


def _section_at(page: Outline, line: int) -> tuple[str, ...]:
    return tuple(text for _, text in page.context_at(line).headings)


def _tag_hunks(
    diff: LineDiff, changes: list[Change], new_page: Outline
) -> tuple[list[Hunk], list[Change]]:
    """Tag each hunk with the highest class of the changes it covers.

    A hunk that covers no change (a blank line, a removed ``<div />``) is formatting, and becomes
    a ``reformatted`` change of its own so that every difference is counted.
    """
    groups = group_hunks(diff)
    changed_lines = [_hunk_lines(group) for group in groups]
    covered: list[list[ChangeClass]] = [[] for _ in groups]
    extents = (
        ([group[0][1] + 1 for group in groups], [group[-1][2] for group in groups]),
        ([group[0][3] + 1 for group in groups], [group[-1][4] for group in groups]),
    )
    for side_index, (starts, ends) in enumerate(extents):
        for change in changes:
            side = change.new if side_index else change.old
            if side is None:
                continue
            index = bisect_right(starts, side.end_line) - 1
            while index >= 0 and ends[index] >= side.line:
                if _overlaps(side, changed_lines[index][side_index]):
                    covered[index].append(change.change_class)
                index -= 1
    hunks = []
    extra = []
    for group, (old_lines, new_lines), classes in zip(groups, changed_lines, covered, strict=True):
        if classes:
            change_class = max(classes, key=lambda c: c.rank)
        else:
            change_class = ChangeClass.FORMATTING
            line = new_lines[0] if new_lines else group[0][3] + 1
            extra.append(
                Change(
                    ChangeClass.FORMATTING,
                    ChangeKind.REFORMATTED,
                    _section_at(new_page, line),
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


def diff_texts(
    old: str | None,
    new: str | None,
    path: str,
    *,
    incremental: bool = True,
    old_name: str | None = None,
) -> PageReport:
    """Compare two versions of a page; None on one side means the page was added or removed.
    ``old_name`` is the old version's file name where it was another (a page moved from
    ``.md`` to ``.mdx``): its dialect reads the old text.

    Only the windows around changed lines are parsed unless ``incremental`` is false, which
    parses both pages whole (the same verdict, hunk classes and editorial and normative changes,
    slower; kept to check that claim). Any text is read, however malformed or deeply nested.
    """
    # Pages read by spectrack arrive so already (`decode_page`); text handed in may not.
    old = page_text(old) if old is not None else None
    new = page_text(new) if new is not None else None
    old_lines = split_lines(old) if old is not None else []
    new_lines = split_lines(new) if new is not None else []
    diff = line_diff(old_lines, new_lines)
    if old is None or new is None:
        present = new if old is None else old
        assert present is not None
        changes = _whole_page(parse(present, name=path), added=old is None)
        hunks, _ = _tag_hunks(diff, changes, scan(present, path))
        status = PageStatus.ADDED if old is None else PageStatus.REMOVED
        return PageReport(path, status, tuple(changes), tuple(hunks), diff.added, diff.removed)
    if not diff.changed and (
        old_name is None or detect_dialect(old, old_name) is detect_dialect(new, path)
    ):
        return PageReport(path, PageStatus.UNCHANGED, (), (), 0, 0)
    old_page, new_page = scan(old, old_name or path), scan(new, path)
    if incremental:
        spans = windows(diff.opcodes, old_page, new_page)
    else:
        spans = [Window(0, len(old_page.lines), 0, len(new_page.lines))]
    # Pages whose link definitions or dialects differ may read the same inline source otherwise.
    old_cache: dict[str, Any] = {}
    alike = old_page.dialect is new_page.dialect and old_page.definitions == new_page.definitions
    new_cache = old_cache if alike else {}
    parsed = [
        (
            parse_window(old_page, span.old_start, span.old_end, old_cache)[0],
            parse_window(new_page, span.new_start, span.new_end, new_cache)[0],
        )
        for span in spans
    ]
    renames = renamed_labels(old, new)
    if renames:
        parsed = [
            (with_labels_renamed(old_blocks, renames), blocks) for old_blocks, blocks in parsed
        ]
    changes = diff_blocks(
        parsed,
        Vocabulary(new, old),
        lambda block: new.count(block.raw) > 1,
        _on_changed_lines(diff),
    )
    hunks, extra = _tag_hunks(diff, changes, new_page)
    if not diff.changed and not changes and not extra:
        # A renamed page (keys.md → keys.mdx) that its new dialect reads alike.
        return PageReport(path, PageStatus.UNCHANGED, (), (), 0, 0)
    old_starts = [opcode[1] for opcode in diff.opcodes]
    changes = sorted(
        changes + extra, key=lambda change: _position(change, diff.opcodes, old_starts)
    )
    return PageReport(
        path, PageStatus.MODIFIED, tuple(changes), tuple(hunks), diff.added, diff.removed
    )


def _on_changed_lines(diff: LineDiff) -> tuple[Callable[[Unit], bool], Callable[[Unit], bool]]:
    """Whether an old unit, and whether a new unit, stands on a line the line diff changed."""
    old_lines, new_lines = _hunk_lines(diff.opcodes)
    return partial(_unit_touches, old_lines), partial(_unit_touches, new_lines)


def _unit_touches(lines: Sequence[int], unit: Unit) -> bool:
    return _touches(unit.sentence.line, unit.sentence.end_line, lines)


def _position(
    change: Change, opcodes: Sequence[Opcode], old_starts: Sequence[int]
) -> tuple[int, int]:
    """Where a change sits in the new page; a removal sits where its old line went.

    ``old_starts`` are the opcodes' first old lines, to find a line's opcode by bisection.
    """
    if change.new is not None:
        return change.new.line, 0
    assert change.old is not None
    index = change.old.line - 1
    # The old lines of the opcodes follow each other, so the last opcode starting at or before
    # the line holds it, if any does (an insertion holds none, and never follows at its start).
    found = bisect_right(old_starts, index) - 1
    if found >= 0:
        tag, i1, i2, j1, _ = opcodes[found]
        if i1 <= index < i2:
            return j1 + 1 + (index - i1 if tag == "equal" else 0), 1
    return len(opcodes) and opcodes[-1][4] + 1, 1


def _uncrossed(
    pairs: Sequence[tuple[Unit | None, Unit | None]],
) -> list[tuple[Unit | None, Unit | None]]:
    """``pairs`` of sentences (or of a sentence and nothing), but where two sentences under two
    headings took each other's words, each still under its own heading (two passages that
    changed places with their headings, each seen by its own window), the two moves they are.
    Where the headings stayed, or read alike, the words say something else in their new place
    (one attribute now has the other's format)."""
    result = list(pairs)
    where = {
        (old.sentence.key, new.sentence.key): index
        for index, (old, new) in enumerate(result)
        if old is not None and new is not None and old.sentence.key != new.sentence.key
    }
    for index, (old, new) in enumerate(result):
        if old is None or new is None or old.sentence.key == new.sentence.key:
            continue
        other = where.get((new.sentence.key, old.sentence.key))
        if other is None:
            continue
        other_old, other_new = result[other]
        if (
            other_old is not None
            and other_new is not None
            and other_old.sentence.key == new.sentence.key
            and other_new.sentence.key == old.sentence.key
            and _same_heading(old, other_new)
            and _same_heading(other_old, new)
            and not _same_heading(old, other_old)
        ):
            result[index], result[other] = (old, other_new), (other_old, new)
    return result


def _same_heading(old: Unit, new: Unit) -> bool:
    """Whether two units stand under the same closest heading (the headings above it may have
    changed: a level added, a chapter renamed)."""
    return old.block.section[-1:] == new.block.section[-1:]


def _other_requirement(
    equal: Sequence[tuple[Unit, Unit]], sentences: _Sentences
) -> list[tuple[Unit, Unit]]:
    """Sentences with the same words that state another requirement: a keyword of their own
    that became code or text (or the reverse), an item moved from the list of one requirement
    to another's while both requirements stand on both sides, or a requirement whose subject,
    borrowed from the sentence before, changed there (see `subject_moved`).
    (Under a reworded lead-in, the rewording is the change, reported once.)"""
    # Cheap tests first, on every equal pair: most keep their keywords and their block, and
    # stand in no list.
    differing = [
        (before, after)
        for before, after in equal
        if before.sentence.keywords != after.sentence.keywords
        or (
            (before.block.lead_in or after.block.lead_in)
            and before.lead_in_key != after.lead_in_key
        )
        or (before.sentence.keywords and before.block.key != after.block.key)
    ]
    if not differing:
        return []
    return [
        (before, after)
        for before, after in differing
        if before.own_keywords != after.own_keywords
        or (
            before.lead_in_key != after.lead_in_key
            and sentences.kept(before.lead_in_key)
            and sentences.there_before(after.lead_in_key)
        )
        or subject_moved(before, after, sentences.place, in_place=True)
    ]


def _moved_keys(regions: Sequence[Region]) -> set[str]:
    """The keys that regions hold on both sides: of sentences that moved (or of copies)."""
    old_keys = {unit.sentence.key for region in regions for unit in region.old}
    return {unit.sentence.key for region in regions for unit in region.new} & old_keys


class _Places:
    """The window and index among its side's units there of each unit of ``regions`` (the
    only ones asked for), worked out on first use: few regions are a sentence split or
    joined."""

    def __init__(
        self, windows: Sequence[tuple[list[Unit], list[Unit]]], regions: Sequence[Region]
    ) -> None:
        self._windows = windows
        self._regions = regions
        self._found: dict[int, tuple[int, int]] | None = None

    def __getitem__(self, unit: Unit) -> tuple[int, int]:
        if self._found is None:
            wanted = {id(each) for region in self._regions for each in (*region.old, *region.new)}
            self._found = {
                id(each): (window, index)
                for window, sides in enumerate(self._windows)
                for side in sides
                for index, each in enumerate(side)
                if id(each) in wanted
            }
        return self._found[id(unit)]


def _rearranged(
    unpaired_old: Sequence[Unit], unpaired_new: Sequence[Unit], places: _Places
) -> list[tuple[Region, ChangeClass]]:
    """The units left unpaired in their regions that no copy on the other side explains, as
    regions where they are sentences split or joined (see `_split_or_joined`): all of them as
    one, or else each run of them that follows each other on its page with a run of the other
    side that holds the same words.

    Where blocks also moved around such a sentence (an item moved past it, a heading moved
    above it), the whole page may find the old sentence in one region and the new in another,
    where a window that sees only the edit finds one region."""
    if not _may_split_or_join(unpaired_old, unpaired_new):
        return []
    old_keys = {unit.sentence.key for unit in unpaired_old}
    new_keys = {unit.sentence.key for unit in unpaired_new}
    region = _without_aside(unpaired_old, unpaired_new, new_keys, old_keys)
    kept = _split_or_joined(region, places)
    if kept is not None:
        return [(region, kept)]
    if not _may_split_or_join(region.old, region.new):
        # Runs of as many units on both sides are judged pair by pair (see `_split_or_joined`).
        return []
    by_words: dict[tuple[int, int], list[tuple[Unit, ...]]] = {}
    for run in _runs(region.new, places):
        by_words.setdefault(_words_digest(run), []).append(run)
    found = []
    for run in _runs(region.old, places):
        alike = by_words.get(_words_digest(run), [])
        for other in alike:
            candidate = Region(run, other)
            kept = _split_or_joined(candidate, places)
            if kept is not None:
                found.append((candidate, kept))
                alike.remove(other)
                break
    return found


def _runs(units: Sequence[Unit], places: _Places) -> list[tuple[Unit, ...]]:
    """``units`` (in page order) cut where one does not follow the one before on its page."""
    runs: list[list[Unit]] = []
    for unit in units:
        window, index = places[unit]
        if runs and places[runs[-1][-1]] == (window, index - 1):
            runs[-1].append(unit)
        else:
            runs.append([unit])
    return [tuple(run) for run in runs]


def _words_digest(units: Sequence[Unit]) -> tuple[int, int]:
    """How many words ``units`` hold and the sum of their hashes: the same for runs that hold
    the same words in any order (runs found alike are compared word by word after), and
    worked out without a list of the words of a long run."""
    count = total = 0
    for unit in units:
        for word in WORD.finditer(unit.sentence.key.lower()):
            count += 1
            total += hash(word[0])
    return count, total


def _may_split_or_join(old: Sequence[Unit], new: Sequence[Unit]) -> bool:
    """Whether units may hold a sentence split or joined: one at least on each side, and more
    on one side than one."""
    return bool(old) and bool(new) and len(old) + len(new) > 2


def _without_aside(
    old: Sequence[Unit], new: Sequence[Unit], old_moved: Container[str], new_moved: Container[str]
) -> Region:
    """A region of ``old`` and ``new`` without the units set aside (see `_aside`): the old ones
    by the keys in ``old_moved``, the new ones by those in ``new_moved``."""
    return Region(
        tuple(unit for unit in old if not _aside(unit, old_moved)),
        tuple(unit for unit in new if not _aside(unit, new_moved)),
    )


def _aside(unit: Unit, moved: Container[str]) -> bool:
    """Whether a unit stands apart from a sentence split or joined beside it: it moved (its
    key is among ``moved``), or it is a heading or a title, which holds no sentence's words."""
    return unit.sentence.key in moved or unit.block.kind in ANCHOR_KINDS


def _split_or_joined(region: Region, places: _Places) -> ChangeClass | None:
    """The class of a region whose units, not as many on both sides, each side a run of units
    that follow each other on its page (by ``places``: window and index of each unit), kept
    their words (see `_words_kept`); None for any other. Found apart from units that moved
    beside them, they read as a window that sees them alone reads them; units that can pair
    one to one are judged pair by pair, each change its own."""
    if not region.old or not region.new or len(region.old) == len(region.new):
        return None
    for side in (region.old, region.new):
        window, first = places[side[0]]
        if any(places[unit] != (window, first + k) for k, unit in enumerate(side)):
            return None
    return _words_kept(region)


def diff_blocks(
    windows: Iterable[tuple[Sequence[Block], Sequence[Block]]],
    new_vocabulary: Vocabulary,
    repeated: Callable[[Block], bool],
    changed: tuple[Callable[[Unit], bool], Callable[[Unit], bool]] | None = None,
) -> list[Change]:
    """The semantic changes between pairs of old and new block runs (whole pages or windows).

    Units left unpaired in their region are paired once more across all regions, so that a
    sentence that moved is a move (or a modification, if it also changed), not a removal and an
    addition. A "move" of a block whose source the page ``repeated``ly holds is no move: it only
    says that the line diff matched another copy. ``new_vocabulary`` holds every (lowercase)
    word of the new page, to tell a corrected misspelling from a changed word; ``changed``
    tells which units stand on changed lines (see `align`).
    """
    changes: list[Change] = []
    equal: list[tuple[Unit, Unit]] = []
    touched: set[int] = set()
    paired: list[tuple[Unit | None, Unit | None]] = []
    unpaired_old: list[Unit] = []
    unpaired_new: list[Unit] = []
    units: list[tuple[list[Unit], list[Unit]]] = []
    regions: list[Region] = []
    for old_blocks, new_blocks in windows:
        old_units, new_units = units_of(old_blocks), units_of(new_blocks)
        units.append((old_units, new_units))
        window_equal, window_regions = align(old_units, new_units, changed)
        equal.extend(window_equal)
        regions.extend(window_regions)
    places = _Places(units, regions)
    kept_places = places_kept(regions)
    moved: set[str] | None = None
    for region in regions:
        touched.update(id(unit.block) for unit in (*region.old, *region.new))
        kept = _words_kept(region) if region.old and region.new else None
        if kept is None and _may_split_or_join(region.old, region.new):
            if moved is None:
                moved = _moved_keys(regions)
            staying = _without_aside(region.old, region.new, moved, moved)
            if len(staying.old) + len(staying.new) < len(region.old) + len(region.new):
                kept = _split_or_joined(staying, places)
            if kept is not None:
                # Those set aside are paired across regions below.
                unpaired_old.extend(unit for unit in region.old if _aside(unit, moved))
                unpaired_new.extend(unit for unit in region.new if _aside(unit, moved))
                region = staying
        if kept is not None:
            changes.append(_region_change(region, kept))
            continue
        for old, new in region.pairs():
            if old is not None and new is not None:
                paired.append((old, new))
            elif old is not None:
                unpaired_old.append(old)
            elif new is not None:
                unpaired_new.append(new)
    rearranged = _rearranged(unpaired_old, unpaired_new, places)
    if rearranged:
        changes.extend(_region_change(*found) for found in rearranged)
        taken = {id(unit) for region, _ in rearranged for unit in (*region.old, *region.new)}
        unpaired_old = [unit for unit in unpaired_old if id(unit) not in taken]
        unpaired_new = [unit for unit in unpaired_new if id(unit) not in taken]
    paired.extend(
        (old, new)
        for old, new in with_places_kept(
            with_keywords_exchanged(pair_by_similarity(unpaired_old, unpaired_new)), kept_places
        )
        if not (
            old is not None
            and new is not None
            and old.block.raw == new.block.raw
            and repeated(new.block)
        )
    )
    list_orders = _ListOrders(units)
    sentences = _Sentences(units)
    paired = _uncrossed(paired)
    for side in (0, 1):
        paired, folded = _lists_whole(paired, side, [window[side] for window in units])
        changes.extend(folded)
    changes.extend(
        _pair_change(old, new, new_vocabulary, list_orders, sentences, sentences.place)
        for old, new in paired
    )
    for before, after in _other_requirement(equal, sentences):
        touched.update((id(before.block), id(after.block)))
        changes.append(_pair_change(before, after, new_vocabulary, place=sentences.place))
    changes.extend(_reformatted(equal, touched))
    return changes


def diff_documents(old: Document, new: Document) -> list[Change]:
    """The semantic changes between two parsed documents (without line hunks)."""
    raws = Counter(block.raw for block in new.blocks)
    renames = renamed_labels("\n".join(block.raw for block in old.blocks), "\n".join(raws))
    old_blocks = with_labels_renamed(old.blocks, renames) if renames else old.blocks
    return diff_blocks(
        [(old_blocks, new.blocks)],
        Vocabulary(" ".join(b.key for b in new.blocks), " ".join(b.key for b in old.blocks)),
        lambda block: raws[block.raw] > 1,
    )
