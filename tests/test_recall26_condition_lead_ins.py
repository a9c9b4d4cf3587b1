"""A condition written once, as a plain lead-in, above the requirements of its list: the one
missed alert of the recall audit of the unlabelled corpus pairs (a lead-in item's "don't
include" became "include" above items that keep their own subjects and keywords).

Which items a plain lead-in introduces is the parser's decision (`Block.lead_in`): today only
items that go on from it with a keyword, and only outside any list. The strict xfails below
mark the layouts it leaves out, so that the change that covers them also drops their marks.

The pages describe made-up jars, lids and kettles, written for these tests.
"""

from __future__ import annotations

import pytest

from spectrack.diff import diff_texts


def verdict(old: str, new: str) -> str:
    return diff_texts(f"# Jars\n\n{old}\n", f"# Jars\n\n{new}\n", "jars.md").verdict


_OWN_SUBJECTS = (
    "a plain lead-in introduces only items that go on from it with a keyword, not items with "
    "a subject of their own below a condition"
)
_INSIDE_A_LIST = "a plain lead-in is looked for only outside any list"


@pytest.mark.xfail(strict=True, reason=_OWN_SUBJECTS)
def test_a_condition_lead_in_negated_above_items_with_subjects_is_normative() -> None:
    items = "- Owners **MUST NOT** pour from it.\n- Kettles **SHOULD** beep."
    old = f"If a kettle's lid has no seal:\n\n{items}"
    new = f"If a kettle's lid has a seal:\n\n{items}"
    assert verdict(old, new) == "normative"


@pytest.mark.xfail(strict=True, reason=_INSIDE_A_LIST)
def test_a_condition_lead_in_item_changed_above_its_nested_items_is_normative() -> None:
    old = (
        "1. Jars **MUST** be washed.\n"
        "1. If the jar is full, owners:\n"
        "   1. **MUST NOT** shake it.\n"
        "   1. **SHOULD** seal it."
    )
    assert verdict(old, old.replace("is full", "is empty")) == "normative"


def test_a_condition_lead_in_whose_link_moved_stays_editorial() -> None:
    old = "If a jar is [sealed](lids.md):\n\n- Owners **MUST NOT** shake it."
    new = "If a jar is [sealed](/v2/lids-and-seals.md):\n\n- Owners **MUST NOT** shake it."
    assert verdict(old, new) == "editorial"


@pytest.mark.parametrize(
    "new_target",
    ["staff.md", "owners.md#top", 'owners.md "The owners"'],
)
def test_a_plain_lead_in_whose_link_changed_keeps_its_items_requirements(
    new_target: str,
) -> None:
    old = "Kettle [owners](owners.md):\n\n- **MUST** descale monthly.\n- **SHOULD** rinse."
    new = old.replace("(owners.md)", f"({new_target})")
    assert verdict(old, new) == "editorial"
