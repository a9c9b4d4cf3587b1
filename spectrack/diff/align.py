"""Align the comparable units of two documents: sentences of prose, whole code blocks and rows.

Units with equal keys are matched by sequence alignment; in the stretches between matches, units
are paired by word similarity (so a reworded sentence is one modification, not a removal and an
addition); what stays unpaired is removed or added, and a removed unit whose key is added elsewhere
is a move (the engine pairs leftovers across regions, see `spectrack.diff.engine`).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from difflib import Match, SequenceMatcher
from math import ceil

from spectrack.model import Block, BlockKind, Sentence

SIMILARITY_THRESHOLD = 0.4
"""Share of common words (Jaccard) above which two units are one modified unit."""

WORD = re.compile(r"\w+")

WHOLE_BLOCK_KINDS = frozenset(
    {BlockKind.CODE, BlockKind.HEADING, BlockKind.TABLE_ROW, BlockKind.COMPONENT}
)
"""Blocks compared as one unit rather than sentence by sentence."""


@dataclass(frozen=True, slots=True, eq=False)
class Unit:
    """A sentence of prose or a whole block; compared by identity, aligned by key."""

    block: Block
    sentence: Sentence


@dataclass(frozen=True, slots=True)
class Region:
    """A stretch of units that differ between the two sides."""

    old: tuple[Unit, ...]
    new: tuple[Unit, ...]

    def pairs(self) -> list[tuple[Unit | None, Unit | None]]:
        """How the units pair up: worked out only when asked, since a region whose words did
        not change needs no pairing, and pairing a long one costs time."""
        if len(self.old) == len(self.new) == 1 and _one_requirement(self.old[0], self.new[0]):
            return [(self.old[0], self.new[0])]
        return pair_by_similarity(self.old, self.new)


def words_of(text: str, *, fold_case: bool = True) -> list[str]:
    return WORD.findall(text.lower() if fold_case else text)


def units_of(blocks: Sequence[Block]) -> list[Unit]:
    units = []
    for block in blocks:
        whole = block.kind in WHOLE_BLOCK_KINDS
        if whole or len(block.sentences) <= 1:
            keywords = tuple(k for s in block.sentences for k in s.keywords)
            sentences: Sequence[Sentence] = (
                Sentence(block.text, block.key, block.line, block.end_line, keywords, block.marks),
            )
        else:
            sentences = block.sentences
        lead_in = block.lead_in
        if lead_in is not None and not whole:
            # Code is never part of a requirement.
            sentences = [_under(lead_in, sentence) for sentence in sentences]
        units.extend([Unit(block, sentence) for sentence in sentences])
    return units


def _under(lead_in: Sentence, sentence: Sentence) -> Sentence:
    """A sentence of a list that a requirement introduces, as part of that requirement: shown
    after it and with its keywords, still aligned by its own key."""
    shift = len(lead_in.text) + 1
    return Sentence(
        f"{lead_in.text} {sentence.text}",
        sentence.key,
        sentence.line,
        sentence.end_line,
        lead_in.keywords + sentence.keywords,
        lead_in.marks + tuple((start + shift, end + shift) for start, end in sentence.marks),
    )


def _word_set(unit: Unit) -> frozenset[str]:
    """The words a unit is compared by (only units that are not equal to another need them)."""
    return frozenset(words_of(unit.sentence.key))


def similarity(old: frozenset[str], new: frozenset[str]) -> float:
    """Jaccard similarity of two units' word sets."""
    if not old or not new:
        return 0.0
    common = len(old & new)
    return common / (len(old) + len(new) - common)


def _candidates(
    old: Sequence[frozenset[str]], new: Sequence[frozenset[str]]
) -> set[tuple[int, int]]:
    """Index pairs that can reach ``SIMILARITY_THRESHOLD``, without comparing every pair.

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
    found = _probe(old_words, new_words, larger_or_equal=True)
    found.update((i, j) for j, i in _probe(new_words, old_words, larger_or_equal=False))
    return found


def _probe(
    probing: Sequence[list[str]], indexed: Sequence[list[str]], *, larger_or_equal: bool
) -> set[tuple[int, int]]:
    """Pairs (probing index, indexed index) whose probing set is the larger (or, with
    ``larger_or_equal``, as large) and which the filters of `_candidates` keep."""
    t = SIMILARITY_THRESHOLD
    index: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for j, words in enumerate(indexed):
        size = len(words)
        for position, word in enumerate(words[: size - _at_least(2 * t / (1 + t) * size) + 1]):
            index[word].append((j, position, size))
    found: set[tuple[int, int]] = set()
    for i, words in enumerate(probing):
        size = len(words)
        seen: set[int] = set()
        for position, word in enumerate(words[: size - _at_least(t * size) + 1]):
            for j, other_position, other_size in index.get(word, ()):
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
    old_words = [_word_set(unit) for unit in old] if new else []
    new_words = [_word_set(unit) for unit in new] if old else []
    if len(old) * len(new) <= 64:
        pairs_to_score: Iterable[tuple[int, int]] = (
            (i, j) for i in range(len(old)) for j in range(len(new))
        )
    else:
        pairs_to_score = _candidates(old_words, new_words)
    candidates = []
    for i, j in pairs_to_score:
        old_unit, new_unit = old[i], new[j]
        if old_unit.block.kind is BlockKind.CODE and new_unit.block.kind is not BlockKind.CODE:
            continue
        score = similarity(old_words[i], new_words[j])
        if score >= SIMILARITY_THRESHOLD:
            candidates.append((score, -abs(i - j), i, j))
    candidates.sort(reverse=True)
    partner: dict[int, int] = {}
    taken: set[int] = set()
    for _, _, i, j in candidates:
        if i not in partner and j not in taken:
            partner[i] = j
            taken.add(j)
    pairs: list[tuple[Unit | None, Unit | None]] = []
    for i, old_unit in enumerate(old):
        pairs.append((old_unit, new[partner[i]] if i in partner else None))
    pairs.extend((None, new[j]) for j in range(len(new)) if j not in taken)
    return pairs


def align(old: Sequence[Unit], new: Sequence[Unit]) -> tuple[list[tuple[Unit, Unit]], list[Region]]:
    """Equal units (old, new) and the regions between them."""
    old_keys = [u.sentence.key for u in old]
    new_keys = [u.sentence.key for u in new]
    matcher = SequenceMatcher(None, old_keys, new_keys, autojunk=False)
    equal: list[tuple[Unit, Unit]] = []
    regions: list[Region] = []
    i0 = j0 = 0
    for i, j in _slid(matcher.get_matching_blocks(), old_keys, new_keys):
        if i > i0 or j > j0:
            regions.append(Region(tuple(old[i0:i]), tuple(new[j0:j])))
        equal.append((old[i], new[j]))
        i0, j0 = i + 1, j + 1
    if i0 < len(old) or j0 < len(new):
        regions.append(Region(tuple(old[i0:]), tuple(new[j0:])))
    return equal, regions


def _one_requirement(old: Unit, new: Unit) -> bool:
    """Whether a requirement that took the place of another is the same one, its keyword aside.

    The keyword is a word of its own, so in a short sentence or a table row ("Tokens SHOULD
    expire." → "Tokens MUST expire.") a changed keyword alone keeps the two below the
    similarity threshold. Only a lone unit replacing a lone unit is compared this way: across a
    page, every lone "REQUIRED" would look like every lone "OPTIONAL".
    """
    if not old.sentence.keywords or not new.sentence.keywords:
        return False
    if old.block.kind is BlockKind.CODE or new.block.kind is BlockKind.CODE:
        return False
    return similarity(_without_keywords(old), _without_keywords(new)) >= SIMILARITY_THRESHOLD


def _without_keywords(unit: Unit) -> frozenset[str]:
    spelled = {part.lower() for keyword in unit.sentence.keywords for part in keyword.word.split()}
    return (_word_set(unit) - spelled) | {"\0keyword"}


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
