"""Headings and lead-ins that name the same nouns joined otherwise, found by the second review
of stop 26: "Messages to relays" and "Messages by relays" hold the same words once the joining
words are left out, yet speak of other messages, so a requirement that takes its subject from
one or the other asks something of another thing. Each is checked on the whole page too, which
must agree.

The pages describe made-up kettles, lids and relays, written for these tests.
"""

from __future__ import annotations

import pytest

from spectrack.diff import diff_texts


def verdicts(old: str, new: str) -> set[str]:
    return {
        diff_texts(old, new, "kettle.md").verdict,
        diff_texts(old, new, "kettle.md", incremental=False).verdict,
    }


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("Messages sent to relays:", "Messages sent by relays:"),
        ("Kettles with lids:", "Kettles and lids:"),
        ("Kettles in hotels:", "Kettles on hotels:"),
        ("Lids with kettles:", "Lids and kettles should note:"),
    ],
)
def test_a_lead_in_joining_its_nouns_otherwise_names_another_subject(
    before: str, after: str
) -> None:
    old = f"# Kettles\n\nThe kettles we sell.\n\n{before}\n\n- MUST be sealed.\n"
    assert verdicts(old, old.replace(before, after)) == {"normative"}


def test_a_requirement_moved_below_a_heading_joining_its_nouns_otherwise_is_normative() -> None:
    page = (
        "# Relays\n\n## Messages to relays\n\nRelays keep them.\n\n"
        "## Messages by relays\n\nRelays send them.\n"
    )
    old = page.replace("Relays keep them.", "Relays keep them.\n\nMUST be signed.")
    new = page.replace("Relays send them.", "Relays send them.\n\nMUST be signed.")
    assert verdicts(old, new) == {"normative"}


@pytest.mark.parametrize(
    "after",
    ["Rules for kettle owners should note:", "Rules for owners of kettles:", "Kettle owner rules:"],
)
def test_a_lead_in_that_only_adds_or_drops_joining_words_names_the_same(after: str) -> None:
    old = "# Kettles\n\nThe kettles we sell.\n\nRules for kettle owners:\n\n- MUST descale.\n"
    assert verdicts(old, old.replace("Rules for kettle owners:", after)) <= {
        "formatting",
        "editorial",
    }
