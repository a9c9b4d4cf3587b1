"""A code name's kind said after it, or left out, names the same thing.

"the `lid` field" and "`lid`" are one identifier: the word after the code span only says what
kind of thing it is. Another kind, a kind after plain words, or any other word stays a change.
"""

from __future__ import annotations

import pytest

from spectrack.diff import diff_texts


def _classes(old: str, new: str) -> list[str]:
    page = diff_texts(f"# Relays\n\n{old}\n", f"# Relays\n\n{new}\n", "relays.md")
    return [change.change_class.value for change in page.changes]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Relays MUST drop the `lid` field when the jar is full.",
            "Relays MUST drop `lid` when the jar is full.",
        ),
        (
            "If the `lid` attribute is absent, kettles MUST wait.",
            "If the `lid` is absent, kettles MUST wait.",
        ),
        ("Kettles MAY copy `tag`.", "Kettles MAY copy the `tag` header."),
        ("Jars MUST carry the `lid` and `cap` properties.", "Jars MUST carry `lid` and `cap`."),
        ("Relays SHOULD call the `jars/seal` method.", "Relays SHOULD call `jars/seal`."),
    ],
)
def test_a_code_names_kind_said_or_left_out_is_editorial(old: str, new: str) -> None:
    assert _classes(old, new) == ["editorial"]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # Another kind is another thing of that name.
        ("Relays MUST drop the `lid` field.", "Relays MUST drop the `lid` header."),
        # After plain words the kind is part of what they name.
        ("Relays MUST drop the lid field.", "Relays MUST drop the lid."),
        # A word that is no kind, or a value rather than the thing named.
        ("Relays MUST drop the `lid` cover.", "Relays MUST drop the `lid`."),
        ("Relays MUST copy the `lid` value.", "Relays MUST copy `lid`."),
        # The kind left out while the name changed.
        ("Relays MUST drop the `lid` field.", "Relays MUST drop `cap`."),
    ],
)
def test_other_words_beside_a_code_name_stay_normative(old: str, new: str) -> None:
    assert _classes(old, new) == ["normative"]
