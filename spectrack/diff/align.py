"""Align the comparable units of two documents: sentences of prose, whole code blocks and rows.

Units with equal keys are matched by sequence alignment; in the stretches between matches, units
are paired by word similarity (so a reworded sentence is one modification, not a removal and an
addition); what stays unpaired is removed or added, and a removed unit whose key is added elsewhere
is a move (the engine pairs leftovers across regions, see `spectrack.diff.engine`).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from dataclasses import dataclass
from difflib import Match
from math import ceil

from spectrack.diff.lines import trimmed_opcodes
from spectrack.markdown.inline import key_of, split_key
from spectrack.model import Block, BlockKind, Keyword, Sentence

SIMILARITY_THRESHOLD = 0.4
"""Share of common words (Jaccard) above which two units are one modified unit."""
PAIRS_PER_UNIT = 64
"""How many index entries per unit a region may look at for similar pairs (see `_partners`):
where most words are shared by all units, the filter would keep every pair."""
ARTICLES = frozenset({"a", "an", "the"})
"""Words whose addition, removal or exchange is grammar, not a change of requirement."""
PLACE_SIMILARITY = SIMILARITY_THRESHOLD / 2
"""How alike two requirements must be to pair as one changed when each is the only one in its
place (see `places_kept`)."""
SMALL_REGION = 64
"""Most pairs of units (old × new) a region may have for every pair to be compared."""
NEARBY = 16
"""How far from its own place a unit looks for its partner among units still too alike for the
similarity filter once tied ones are paired."""

WORD = re.compile(r"\w+")
WORD_OR_SIGN = re.compile(
    r"[\[(]-?\d+(?:\.\d+)?,-?\d+(?:\.\d+)?[\])]"
    r"|\d+(?:[.,]\d+)+|\w+|[<>≤≥≠]=?|[=!]=|(?<![\w.-])[-+](?=\d)|[/+*^$%&@#~=]"
    "|[\u25a0-\u25ff\u2600-\u27bf\U0001f534-\U0001f53d\U0001f7e0-\U0001f7eb]"
)
"""An interval (``(0,10]`` is not ``[0,10)``; see `signs_of`), a word, a number with its
separators (``1,024`` is not ``1.024``), a comparison, the sign
of a number or another symbol (``/``, ``*``, ``%``; a shape, a tick or a cross: ``●``,
``🟢``, ``✓``, ``❌``; pictures such as 🚀 stay decoration): text whose bounds, types or patterns
turned around by one of these says something else, though no word changed (a feature table's
``✓`` → ``✗``). Sentence punctuation is none of them, nor ``|``, which parts a table row's
cells (an HTML table's cells show none)."""

_PUNCTUATION = re.compile(r"[!?()\[\]{}|\"⟨⟩]|[.,;](?!\w)|(?<!\w)[.,;]")
"""Marks between which the pieces of a sentence may be listed in any order (see `pieces_of`):
not those within a word or number (``1,500``, ``e.g``), which are part of it."""
_TYPESET = str.maketrans({"−": "-", "≥": ">=", "≤": "<=", "≠": "!="})
"""Signs typeset otherwise but read alike: the minus sign is a hyphen-minus, and ``≥`` is
``>=``."""
_TYPESET_SIGNS = re.compile(f"[{''.join(map(chr, _TYPESET))}]")
_INTERVAL = re.compile(r"([\[(])\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*([\])])")
"""An interval as written, spaced or not: ``(0, 10]``."""


def signs_of(text: str) -> list[str]:
    """The words and signs of ``text`` (see `WORD_OR_SIGN`); an interval is one sign, its
    brackets saying which of its ends it holds."""
    if _TYPESET_SIGNS.search(text):
        text = text.translate(_TYPESET)
    if "," in text and _INTERVAL.search(text):
        text = _INTERVAL.sub(r"\1\2,\3\4", text)
    return WORD_OR_SIGN.findall(text)


ANCHOR_KINDS = frozenset({BlockKind.HEADING, BlockKind.COMPONENT})
"""Blocks that hold what follows them (a heading, a tab's title): aligned before the rest."""
WHOLE_BLOCK_KINDS = frozenset(
    {BlockKind.CODE, BlockKind.HEADING, BlockKind.TABLE_ROW, BlockKind.COMPONENT}
)
"""Blocks compared as one unit rather than sentence by sentence."""
_NEVER_LED_IN = frozenset({BlockKind.CODE, BlockKind.HEADING, BlockKind.COMPONENT})
"""Blocks that are no part of the requirement whose list they stand in: code, headings and
components (a table's rows are, as a list's items are)."""


@dataclass(frozen=True, slots=True, eq=False)
class Unit:
    """A sentence of prose or a whole block; compared by identity, aligned by key."""

    block: Block
    sentence: Sentence

    @property
    def lead_in(self) -> Sentence | None:
        """The requirement whose list or table the unit stands in (see `_lead_in_of`)."""
        return _lead_in_of(self.block)

    @property
    def own_keywords(self) -> tuple[Keyword, ...]:
        """The sentence's keywords without those of the requirement whose list it stands in."""
        lead_in = self.lead_in
        keywords = self.sentence.keywords
        return keywords if lead_in is None else keywords[len(lead_in.keywords) :]

    @property
    def lead_in_key(self) -> str:
        """The key of the requirement whose list the unit stands in, or ``""``."""
        lead_in = self.lead_in
        return "" if lead_in is None else lead_in.key


@dataclass(frozen=True, slots=True)
class Region:
    """A stretch of units that differ between the two sides."""

    old: tuple[Unit, ...]
    new: tuple[Unit, ...]

    def pairs(self) -> list[tuple[Unit | None, Unit | None]]:
        """How the units pair up: worked out only when asked, since a region whose words did
        not change needs no pairing, and pairing a long one costs time."""
        if _requirements_in_place(self.old, self.new):
            return list(zip(self.old, self.new, strict=True))
        return pair_by_similarity(self.old, self.new)


def words_of(text: str, *, fold_case: bool = True) -> list[str]:
    return WORD.findall(text.lower() if fold_case else text)


def piece_runs(key: str) -> list[tuple[str, ...]]:
    """A sentence's runs of words between punctuation marks, in order."""
    runs = (signs_of(run) for run in _PUNCTUATION.split(key))
    return [tuple(run) for run in runs if run]


def pieces_of(key: str) -> tuple[tuple[str, ...], ...]:
    """A sentence's runs of words between punctuation marks, in sorted order: the same pieces
    listed in another order (the fields of a signature, the items of a series) say the same."""
    return tuple(sorted(piece_runs(key)))


def units_of(blocks: Sequence[Block]) -> list[Unit]:
    units = []
    for block in blocks:
        whole = block.kind in WHOLE_BLOCK_KINDS
        if whole or len(block.sentences) <= 1:
            if len(block.sentences) == 1:
                keywords, code = block.sentences[0].keywords, block.sentences[0].code
            else:
                keywords = tuple(k for s in block.sentences for k in s.keywords)
                code = tuple(term for s in block.sentences for term in s.code)
            sentences: Sequence[Sentence] = (
                Sentence(
                    block.text, block.key, block.line, block.end_line, keywords, block.marks, code
                ),
            )
        else:
            sentences = block.sentences
        lead_in = _lead_in_of(block)
        if lead_in is not None:
            sentences = [_under(lead_in, sentence) for sentence in sentences]
        units.extend([Unit(block, sentence) for sentence in sentences])
    return units


def _lead_in_of(block: Block) -> Sentence | None:
    """The requirement whose list or table a block stands in, unless the block is one of
    `_NEVER_LED_IN`."""
    return None if block.kind in _NEVER_LED_IN else block.lead_in


def _under(lead_in: Sentence, sentence: Sentence) -> Sentence:
    """A sentence of a list that a lead-in introduces, shown after it.

    Below a requirement it is part of that requirement: it takes its keywords and is still
    aligned by its own key, since the requirement's changes are its own. Below a plain lead-in
    ("Clients:") it is aligned by both keys, since the lead-in is its subject.
    """
    shift = len(lead_in.text) + 1
    return Sentence(
        f"{lead_in.text} {sentence.text}",
        sentence.key if lead_in.keywords else _joined_keys(lead_in.key, sentence.key),
        sentence.line,
        sentence.end_line,
        lead_in.keywords + sentence.keywords,
        lead_in.marks + tuple((start + shift, end + shift) for start, end in sentence.marks),
        lead_in.code + sentence.code,
    )


def _joined_keys(first: str, second: str) -> str:
    """The key of two sentences read as one: their words, then the link targets of both, which
    a key keeps at its end (see `key_of`), so that a target the first one's link changed is
    still read as a target, not as words of the requirement."""
    (first_words, first_targets), (second_words, second_targets) = map(split_key, (first, second))
    return key_of(f"{first_words} {second_words}", [*first_targets, *second_targets])


def _word_set(unit: Unit) -> frozenset[str]:
    """The words a unit is compared by (only units that are not equal to another need them),
    without a plural's "s": a field renamed to its plural ("lid - OPTIONAL." → "lids -
    OPTIONAL.") is the same sentence changed, not one removed and another added."""
    return frozenset(map(singular, words_of(unit.sentence.key)))


def singular(word: str) -> str:
    """A word without the "s" of a plural: not of a short word ("is", "its") nor of "ss"."""
    return word[:-1] if len(word) > 3 and word[-1] == "s" and word[-2] != "s" else word


def similarity(old: frozenset[str], new: frozenset[str]) -> float:
    """Jaccard similarity of two units' word sets."""
    if not old or not new:
        return 0.0
    common = len(old & new)
    return common / (len(old) + len(new) - common)


def _candidates(
    old: Sequence[frozenset[str]], new: Sequence[frozenset[str]], budget: int | None = None
) -> set[tuple[int, int]] | None:
    """Index pairs that can reach ``SIMILARITY_THRESHOLD``, without comparing every pair; None
    when finding them would look at more than ``budget`` index entries on either side.

    PPJoin's filters, exact for Jaccard similarity t (Xiao et al., 2008): words are ordered rarest
    first, and the first word two sets share — where a pair that reaches t must share one — lies
    within the first ``|x| - ceil(t·|x|) + 1`` words of the larger set and the first
    ``|y| - ceil(2t/(1+t)·|y|) + 1`` of the smaller; and from it, no more words can be shared than
    the fewer left in either set after it. Without the last two, pages whose sentences share
    common words ("The client MUST …") made every pair a candidate.
    """
    frequency = Counter(word for words in (*old, *new) for word in words)
    old_words = [sorted(words, key=lambda word: (frequency[word], word)) for words in old]
    new_words = [sorted(words, key=lambda word: (frequency[word], word)) for words in new]
    found = _probe(old_words, new_words, larger_or_equal=True, budget=budget)
    other_way = _probe(new_words, old_words, larger_or_equal=False, budget=budget)
    if found is None or other_way is None:
        return None
    found.update((i, j) for j, i in other_way)
    return found


def _probe(
    probing: Sequence[list[str]],
    indexed: Sequence[list[str]],
    *,
    larger_or_equal: bool,
    budget: int | None,
) -> set[tuple[int, int]] | None:
    """Pairs (probing index, indexed index) whose probing set is the larger (or, with
    ``larger_or_equal``, as large) and which the filters of `_candidates` keep; None once more
    than ``budget`` index entries were looked at."""
    t = SIMILARITY_THRESHOLD
    index: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for j, words in enumerate(indexed):
        size = len(words)
        for position, word in enumerate(words[: size - _at_least(2 * t / (1 + t) * size) + 1]):
            index[word].append((j, position, size))
    found: set[tuple[int, int]] = set()
    looked_at = 0
    for i, words in enumerate(probing):
        size = len(words)
        seen: set[int] = set()
        for position, word in enumerate(words[: size - _at_least(t * size) + 1]):
            entries = index.get(word, ())
            looked_at += len(entries)
            if budget is not None and looked_at > budget:
                return None
            for j, other_position, other_size in entries:
                if j in seen or other_size > size or (other_size == size and not larger_or_equal):
                    continue
                seen.add(j)
                # Words from the first shared one on: the most the two can still share.
                if min(size - position, other_size - other_position) >= _at_least(
                    t * (size + other_size) / (1 + t)
                ):
                    found.add((i, j))
    return found


def _at_least(bound: float) -> int:
    """The smallest whole number of words reaching ``bound``, forgiving float error (2·0.4/1.4 × 7
    is 4.000000000000001): a filter that errs must err towards keeping a pair."""
    return ceil(bound - 1e-9)


def pair_by_similarity(
    old: Sequence[Unit], new: Sequence[Unit]
) -> list[tuple[Unit | None, Unit | None]]:
    """Pair units greedily, most similar first; unpaired ones stand alone. Keeps old order."""
    sides = _Sides(
        old,
        new,
        [_word_set(unit) for unit in old] if new else [],
        [_word_set(unit) for unit in new] if old else [],
    )
    partner = _partners(sides)
    taken = set(partner.values())
    pairs: list[tuple[Unit | None, Unit | None]] = []
    for i, old_unit in enumerate(old):
        pairs.append((old_unit, new[partner[i]] if i in partner else None))
    pairs.extend((None, new[j]) for j in range(len(new)) if j not in taken)
    return pairs


@dataclass(frozen=True, slots=True)
class _Sides:
    """The units of both sides to pair, and the words each is compared by."""

    old: Sequence[Unit]
    new: Sequence[Unit]
    old_words: Sequence[frozenset[str]]
    new_words: Sequence[frozenset[str]]

    def score(self, i: int, j: int) -> float:
        """How alike old unit ``i`` and new unit ``j`` are; 0 for code turned into prose."""
        if (
            self.old[i].block.kind is BlockKind.CODE
            and self.new[j].block.kind is not BlockKind.CODE
        ):
            return 0.0
        return similarity(self.old_words[i], self.new_words[j])

    def picked(self, old: Sequence[int], new: Sequence[int]) -> _Sides:
        """The units at indices ``old`` and ``new``, in that order."""
        return _Sides(
            [self.old[i] for i in old],
            [self.new[j] for j in new],
            [self.old_words[i] for i in old],
            [self.new_words[j] for j in new],
        )


def _partners(sides: _Sides) -> dict[int, int]:
    """Old index → new index of the units paired, most similar first.

    In a region too alike for the similarity filter, units that a word only they hold ties
    together (`_ties`) are paired first; the others, too alike again, are compared only with
    the units near their place among the others (`NEARBY`).
    """
    found = _filtered(sides)
    if found is not None:
        return found
    partner = _ties(sides)
    taken = set(partner.values())
    old_rest = [i for i in range(len(sides.old)) if i not in partner]
    new_rest = [j for j in range(len(sides.new)) if j not in taken]
    rest = sides.picked(old_rest, new_rest)
    between = _filtered(rest)
    if between is None:
        between = _greedy(rest, _nearby(len(old_rest), len(new_rest)))
    partner.update((old_rest[a], new_rest[b]) for a, b in between.items())
    return partner


def _filtered(sides: _Sides) -> dict[int, int] | None:
    """`_greedy` over every pair of a small region or over the pairs the similarity filter
    keeps; None when the filter would look at too many index entries (`PAIRS_PER_UNIT`)."""
    old_count, new_count = len(sides.old), len(sides.new)
    if old_count * new_count <= SMALL_REGION:
        return _greedy(sides, ((i, j) for i in range(old_count) for j in range(new_count)))
    candidates = _candidates(
        sides.old_words, sides.new_words, PAIRS_PER_UNIT * (old_count + new_count)
    )
    return None if candidates is None else _greedy(sides, candidates)


def _nearby(old_count: int, new_count: int) -> Iterator[tuple[int, int]]:
    """Each old unit with the new units about as far into the region as it is."""
    scale = new_count / old_count
    for i in range(old_count):
        place = round(i * scale)
        for j in range(max(0, place - NEARBY), min(new_count, place + NEARBY + 1)):
            yield i, j


def _greedy(sides: _Sides, pairs_to_score: Iterable[tuple[int, int]]) -> dict[int, int]:
    """The pairs taken most similar first, then nearest first, among ``pairs_to_score``."""
    scored = []
    for i, j in pairs_to_score:
        score = sides.score(i, j)
        if score >= SIMILARITY_THRESHOLD:
            scored.append((score, -abs(i - j), i, j))
    scored.sort(reverse=True)
    partner: dict[int, int] = {}
    taken: set[int] = set()
    for _, _, i, j in scored:
        if i not in partner and j not in taken:
            partner[i] = j
            taken.add(j)
    return partner


def _ties(sides: _Sides) -> dict[int, int]:
    """Old index → new index of the units that a word only they hold ties together.

    Patience diff's unique lines, for words: a word that one old unit alone and one new unit
    alone hold (a number, a name) ties the two, unless either is tied to another unit too or
    the two are not alike enough.
    """
    old_holders = _sole_holders(sides.old_words)
    new_holders = _sole_holders(sides.new_words)
    ties = {(i, new_holders[word]) for word, i in old_holders.items() if word in new_holders}
    old_ties = Counter(i for i, _ in ties)
    new_ties = Counter(j for _, j in ties)
    return {
        i: j
        for i, j in sorted(ties)
        if old_ties[i] == new_ties[j] == 1 and sides.score(i, j) >= SIMILARITY_THRESHOLD
    }


def _sole_holders(word_sets: Sequence[frozenset[str]]) -> dict[str, int]:
    """Word → index of the one set holding it, for words only one set holds."""
    holder: dict[str, int] = {}
    shared: set[str] = set()
    for index, words in enumerate(word_sets):
        for word in words:
            if word in holder:
                shared.add(word)
            else:
                holder[word] = index
    return {word: index for word, index in holder.items() if word not in shared}


def align(
    old: Sequence[Unit],
    new: Sequence[Unit],
    changed: tuple[Callable[[Unit], bool], Callable[[Unit], bool]] | None = None,
) -> tuple[list[tuple[Unit, Unit]], list[Region]]:
    """Equal units (old, new) and the regions between them.

    ``changed`` tells, side by side, whether a unit stands on a line the line diff changed: of
    equal copies, one on such a line is the one removed or added (see `_onto_changed_lines`).
    """
    old_keys = [u.sentence.key for u in old]
    new_keys = [u.sentence.key for u in new]
    pairs = list(_slid(_anchored_blocks(old, new, old_keys, new_keys), old_keys, new_keys))
    if changed is not None:
        _onto_changed_lines(pairs, 1, new_keys, lambda j: changed[1](new[j]))
        _onto_changed_lines(pairs, 0, old_keys, lambda i: changed[0](old[i]))
    equal: list[tuple[Unit, Unit]] = []
    regions: list[Region] = []
    i0 = j0 = 0
    for i, j in pairs:
        if i > i0 or j > j0:
            regions.append(Region(tuple(old[i0:i]), tuple(new[j0:j])))
        equal.append((old[i], new[j]))
        i0, j0 = i + 1, j + 1
    if i0 < len(old) or j0 < len(new):
        regions.append(Region(tuple(old[i0:]), tuple(new[j0:])))
    return equal, regions


def _anchored_blocks(
    old: Sequence[Unit], new: Sequence[Unit], old_keys: Sequence[str], new_keys: Sequence[str]
) -> list[Match]:
    """`_matching_blocks` of the headings and titled components first (those written once on
    each side), then of the units between each two that match: what a heading or a tab's title
    holds is matched under it.

    Two requirements that exchanged their keywords under two headings stay in place, each a
    strengthening or a weakening, where matching the sentences first would match one of them
    across the other heading and make both moves.
    """
    old_anchors = _anchors(old, old_keys)
    new_anchors = _anchors(new, new_keys)
    if not old_anchors or not new_anchors:
        return _matching_blocks(old_keys, new_keys)
    anchors = [
        (old_anchors[match.a + step], new_anchors[match.b + step])
        for match in _matching_blocks(
            [old_keys[i] for i in old_anchors], [new_keys[j] for j in new_anchors]
        )
        for step in range(match.size)
    ]
    matches: list[Match] = []
    i0 = j0 = 0
    for i, j in [*anchors, (len(old), len(new))]:
        matches.extend(
            Match(i0 + match.a, j0 + match.b, match.size)
            for match in _matching_blocks(old_keys[i0:i], new_keys[j0:j])
        )
        if i < len(old):
            matches.append(Match(i, j, 1))
        i0, j0 = i + 1, j + 1
    return matches


def _anchors(units: Sequence[Unit], keys: Sequence[str]) -> list[int]:
    """Indices of the headings and titled components whose text no other of them has: a
    heading written twice ("Example") could be either copy."""
    indices = [index for index, unit in enumerate(units) if unit.block.kind in ANCHOR_KINDS]
    counts = Counter(keys[index] for index in indices)
    return [index for index in indices if counts[keys[index]] == 1]


def _matching_blocks(old_keys: Sequence[str], new_keys: Sequence[str]) -> list[Match]:
    """difflib's matching blocks, the keys both sides start and end with matched first (see
    `trimmed_opcodes`: a changed window of thousands of equal sentences cost difflib the square
    of their number)."""
    return [
        Match(i1, j1, i2 - i1)
        for tag, i1, i2, j1, _ in trimmed_opcodes(old_keys, new_keys, autojunk=False)
        if tag == "equal"
    ]


def _requirements_in_place(old: Sequence[Unit], new: Sequence[Unit]) -> bool:
    """Whether each requirement of a short region is the same one as the requirement in its
    place on the other side, keywords aside.

    The keyword is a word of its own, so in a short sentence or a table row ("Tokens SHOULD
    expire." → "Tokens MUST expire.") a changed keyword alone keeps the two below the
    similarity threshold, and rows that exchanged their keywords look as much like each other
    as like themselves. Only requirements in the same places are compared this way, each the
    other's closest match: across a page, every lone "REQUIRED" would look like every lone
    "OPTIONAL".
    """
    if len(old) != len(new) or not old or len(old) * len(new) > SMALL_REGION:
        return False
    if any(
        not unit.sentence.keywords or unit.block.kind is BlockKind.CODE for unit in (*old, *new)
    ):
        return False
    old_words = [_without_keywords(unit) for unit in old]
    new_words = [_without_keywords(unit) for unit in new]
    for before, after in zip(old_words, new_words, strict=True):
        score = similarity(before, after)
        if score < SIMILARITY_THRESHOLD:
            return False
        if any(similarity(before, other) > score for other in new_words) or any(
            similarity(other, after) > score for other in old_words
        ):
            return False
    return True


def with_keywords_exchanged(
    pairs: Sequence[tuple[Unit | None, Unit | None]],
) -> list[tuple[Unit | None, Unit | None]]:
    """``pairs``, but each requirement left alone whose words but its keywords are those of
    one requirement alone left on the other side paired with it: a keyword exchanged in a
    sentence that moved ("| lid | REQUIRED |" → "| lid | MUST |" in a table now further
    down). In its region, `_requirements_in_place` pairs it; a window that sees the removal
    and the addition in different regions must pair it too. A requirement of keywords alone
    (a lone "OPTIONAL"), or whose other words another requirement on its side shares too,
    pairs with none: which one changed is not known."""
    old_alone = _by_words_without_keywords(old for old, new in pairs if new is None)
    if not old_alone:
        return list(pairs)
    new_alone = _by_words_without_keywords(new for old, new in pairs if old is None)
    partner = {
        id(olds[0]): news[0]
        for words, olds in old_alone.items()
        if len(olds) == 1 and len(news := new_alone.get(words, [])) == 1
    }
    return _joined(pairs, partner)


def _joined(
    pairs: Sequence[tuple[Unit | None, Unit | None]], partner: dict[int, Unit]
) -> list[tuple[Unit | None, Unit | None]]:
    """``pairs``, each old unit left alone that ``partner`` (by its id) names a new unit left
    alone for paired with it."""
    if not partner:
        return list(pairs)
    taken = {id(new) for new in partner.values()}
    return [
        (old, partner[id(old)]) if old is not None and id(old) in partner else (old, new)
        for old, new in pairs
        if not (old is None and new is not None and id(new) in taken)
    ]


def places_kept(regions: Iterable[Region]) -> dict[int, Unit]:
    """Old requirement (by its id) → the new one in its place, for each region whose sides
    each hold one requirement (besides sentences without keywords), the same one changed (see
    `_same_place`): see `with_places_kept`."""
    kept = {}
    for region in regions:
        old, new = _requirements(region.old), _requirements(region.new)
        if len(old) == len(new) == 1 and _same_place(old[0], new[0]):
            kept[id(old[0])] = new[0]
    return kept


def _requirements(units: Iterable[Unit]) -> list[Unit]:
    """The units with keywords, but code."""
    return [
        unit for unit in units if unit.sentence.keywords and unit.block.kind is not BlockKind.CODE
    ]


def _same_place(before: Unit, after: Unit) -> bool:
    """Whether two requirements, each alone in its place, are one changed: with the same
    keywords, one says every word of the other and more ("Lids MUST click." → "Lids MUST click
    for the sake of clarity."); both say the same up to their first keyword ("A jar MUST NOT
    …", a list item rewritten); or they share words (but keywords and articles), if fewer than
    the similarity threshold asks of sentences that may have come from anywhere
    (`PLACE_SIMILARITY`)."""
    old_words, new_words = _word_set(before), _word_set(after)
    if before.sentence.keywords == after.sentence.keywords and (
        old_words <= new_words or new_words <= old_words
    ):
        return True
    if similarity(_content_words(before), _content_words(after)) >= PLACE_SIMILARITY:
        return True
    subject = _subject_and_keyword(before)
    return bool(subject) and subject == _subject_and_keyword(after)


def _subject_and_keyword(unit: Unit) -> list[str]:
    """The words of a requirement up to its own first keyword, the keyword's included (not
    those of the requirement whose list it stands in)."""
    sentence = unit.sentence
    lead_in = unit.lead_in
    if lead_in is None:
        return words_of(sentence.text[: sentence.marks[0][1]]) if sentence.marks else []
    own_marks = sentence.marks[len(lead_in.marks) :]
    if not own_marks:
        return []
    return words_of(sentence.text[len(lead_in.text) + 1 : own_marks[0][1]])


def with_places_kept(
    pairs: Sequence[tuple[Unit | None, Unit | None]], places: dict[int, Unit]
) -> list[tuple[Unit | None, Unit | None]]:
    """``pairs``, but each requirement left alone paired with the one that took its place (see
    `places_kept`) if that one is left alone too: rewritten in place, it is one requirement
    `modified`, not one removed and another added. Only after the pairing across regions,
    which may find the requirement's words again elsewhere (a sentence that moved there)."""
    alone_new = {id(new) for old, new in pairs if old is None and new is not None}
    partner = {
        id(old): places[id(old)]
        for old, new in pairs
        if old is not None
        and new is None
        and id(old) in places
        and id(places[id(old)]) in alone_new
    }
    return _joined(pairs, partner)


def _by_words_without_keywords(units: Iterable[Unit | None]) -> dict[frozenset[str], list[Unit]]:
    """Requirements (not code) that say more than their keywords, by their other words."""
    found: dict[frozenset[str], list[Unit]] = defaultdict(list)
    for unit in _requirements(unit for unit in units if unit is not None):
        words = _without_keywords(unit)
        if len(words) > 1:
            found[words].append(unit)
    return found


def _content_words(unit: Unit) -> frozenset[str]:
    """A requirement's words without its keywords and articles, which any two share."""
    return _word_set(unit) - _spelled_keywords(unit) - ARTICLES


def _without_keywords(unit: Unit) -> frozenset[str]:
    return (_word_set(unit) - _spelled_keywords(unit)) | {"\0keyword"}


def _spelled_keywords(unit: Unit) -> set[str]:
    """The words of a unit's keywords, in lowercase."""
    return {part.lower() for keyword in unit.sentence.keywords for part in keyword.word.split()}


def _onto_changed_lines(
    pairs: list[tuple[int, int]], side: int, keys: Sequence[str], changed: Callable[[int], bool]
) -> None:
    """Move each unit left unmatched on one ``side`` of ``pairs`` (0 old, 1 new) onto a changed
    line: where it stands on an unchanged line next to matched copies of its key, the nearest
    such copy on a changed line is left unmatched instead, the copies between matched one place
    over. A copy added to a run of equal sentences is then the one the edit wrote, whatever
    stretch of the run a window sees."""
    if len(pairs) == len(keys):
        return
    matched = {pair[side]: index for index, pair in enumerate(pairs)}
    for free in range(len(keys)):
        if free in matched or changed(free):
            continue
        found = _changed_copy(free, keys, matched, changed)
        if found is None:
            continue
        step, other = found
        for at in range(free + step, other + step, step):
            index = matched.pop(at)
            i, j = pairs[index]
            pairs[index] = (at - step, j) if side == 0 else (i, at - step)
            matched[at - step] = index


def _changed_copy(
    free: int, keys: Sequence[str], matched: Container[int], changed: Callable[[int], bool]
) -> tuple[int, int] | None:
    """The direction and place of the nearest matched copy of ``keys[free]`` on a changed line
    that a run of matched copies joins to ``free``, if any."""
    for step in (-1, 1):
        other = free + step
        while 0 <= other < len(keys) and keys[other] == keys[free] and other in matched:
            if changed(other):
                return step, other
            other += step
    return None


def _slid(
    blocks: Iterable[Match], old_keys: Sequence[str], new_keys: Sequence[str]
) -> Iterator[tuple[int, int]]:
    """The equal pairs of difflib's matching blocks, each lone insertion or deletion moved as
    late as the equal units after it allow.

    A unit added beside an equal one (a sentence written twice in a row) could be either copy.
    difflib picks one by the units around the pair, so a window of a page and the whole page
    could name different copies; here the last copy is always the one added or removed.
    """
    i0 = j0 = 0
    for a, b, size in blocks:
        for k in range(size):
            i, j = a + k, b + k
            if i == i0 and j > j0 and new_keys[j0] == new_keys[j]:
                j = j0
            elif j == j0 and i > i0 and old_keys[i0] == old_keys[i]:
                i = i0
            yield i, j
            i0, j0 = i + 1, j + 1
