"""Footnotes renamed consistently: ``[^1]`` → ``[^heat]`` in every mark and in the note itself.

Readers see a note's number and its text, never its label, so such a rename changes nothing they
see; a mark pointed at another note does (see `renamed_labels`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

from spectrack.markdown.inline import LINK_TARGETS
from spectrack.model import Block, Sentence

_DEFINITION = re.compile(r"^ {0,3}\[\^([^\]\s]+)\]:[ \t]*(.*)$", re.M)
"""A footnote's definition: its label and the text on its first line."""
MARK = "^"
"""How a footnote's mark starts among a sentence's link targets (see `InlineText.mark`)."""


def renamed_labels(old: str, new: str) -> dict[str, str]:
    """Old label → new label of each note renamed between two versions of a page: the old
    label is defined in ``old`` alone, the new one in ``new`` alone, and their definitions start
    with the same text, which no other such note's does."""
    if "[^" not in old or "[^" not in new:
        return {}
    old_notes, new_notes = _definitions(old), _definitions(new)
    gone = _by_text({label: text for label, text in old_notes.items() if label not in new_notes})
    came = _by_text({label: text for label, text in new_notes.items() if label not in old_notes})
    return {gone[text]: came[text] for text in gone.keys() & came.keys()}


def with_labels_renamed(blocks: Sequence[Block], renames: Mapping[str, str]) -> list[Block]:
    """``blocks`` of the old version with their marks naming notes by their new labels."""
    return [
        replace(
            block,
            key=_renamed(block.key, renames),
            sentences=tuple(_sentence_renamed(s, renames) for s in block.sentences),
            lead_in=block.lead_in and _sentence_renamed(block.lead_in, renames),
        )
        if MARK in block.key
        else block
        for block in blocks
    ]


def _definitions(text: str) -> dict[str, str]:
    return {match[1]: match[2].strip() for match in _DEFINITION.finditer(text)}


def _by_text(notes: Mapping[str, str]) -> dict[str, str]:
    """Text → label of the notes whose text is their own (and not empty)."""
    counts = Counter(notes.values())
    return {text: label for label, text in notes.items() if text and counts[text] == 1}


def _sentence_renamed(sentence: Sentence, renames: Mapping[str, str]) -> Sentence:
    return replace(sentence, key=_renamed(sentence.key, renames))


def _renamed(key: str, renames: Mapping[str, str]) -> str:
    found = LINK_TARGETS.search(key)
    if found is None:
        return key
    targets = [
        MARK + renames.get(target[1:], target[1:]) if target.startswith(MARK) else target
        for target in found[1].split(" ")
    ]
    return key[: found.start()] + " ⟨" + " ".join(targets) + "⟩"
