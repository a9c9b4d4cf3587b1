"""Give each aligned difference its class and kind (DESIGN.md, "Classes of change").

Code and diagrams are examples: a change there is editorial, never normative. A sentence pair
whose keywords differ is normative (added, removed, strengthened, weakened or modified). A pair
with the same keywords is normative ``modified`` unless it still states the same requirement
(see `same_requirement`); without keywords it is editorial.
"""

from __future__ import annotations

import re

from spectrack.diff.align import Unit
from spectrack.model import BlockKind, ChangeClass, ChangeKind
from spectrack.normative import compare_keywords

_SYNONYMS = {"shall": "must", "required": "must", "recommended": "should", "optional": "may"}
_LINK_TARGETS = re.compile(r" ⟨[^⟩]*⟩$")
_WORD = re.compile(r"\w+")


def requirement_words(unit: Unit) -> list[str]:
    """The words of a sentence without link targets, case, punctuation or keyword synonyms."""
    text = _LINK_TARGETS.sub("", unit.sentence.key).lower()
    return [_SYNONYMS.get(word, word) for word in _WORD.findall(text)]


def same_requirement(old: Unit, new: Unit) -> bool:
    """Whether two sentences with the same keywords state the same requirement.

    True when they differ only in link targets, punctuation, letter case or keyword synonyms.
    """
    return requirement_words(old) == requirement_words(new)


def classify_pair(old: Unit, new: Unit) -> tuple[ChangeClass, ChangeKind]:
    if BlockKind.CODE in (old.block.kind, new.block.kind):
        return ChangeClass.EDITORIAL, ChangeKind.MODIFIED
    keyword_change = compare_keywords(
        old.sentence.keywords, new.sentence.keywords, new.sentence.text
    )
    if keyword_change is not None:
        return ChangeClass.NORMATIVE, keyword_change
    if not old.sentence.keywords or same_requirement(old, new):
        return ChangeClass.EDITORIAL, ChangeKind.MODIFIED
    return ChangeClass.NORMATIVE, ChangeKind.MODIFIED


def classify_single(unit: Unit) -> ChangeClass:
    """The class of a unit that was only removed or only added."""
    return ChangeClass.NORMATIVE if unit.sentence.keywords else ChangeClass.EDITORIAL
