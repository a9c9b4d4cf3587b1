"""Missed alerts found by the third hunt: requirements whose meaning changed though a rule of
`spectrack.diff` might excuse the change, each reported as normative, and the harmless edits
beside them kept editorial.

The pages describe made-up jars, lids, relays and kettles, written for these tests.
"""

from __future__ import annotations

import pytest

from spectrack.diff import diff_texts


def verdict(old: str, new: str, path: str = "page.md") -> str:
    return diff_texts(f"# Jars\n\n{old}\n", f"# Jars\n\n{new}\n", path).verdict


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # The nouns either side of a separator are the object of one clause and the subject of
        # the next, not a series: exchanged, each requirement speaks of the other thing.
        ("Relays MUST send jars; lids MAY follow.", "Relays MUST send lids; jars MAY follow."),
        (
            "Relays MUST accept jars, lids MUST be rejected.",
            "Relays MUST accept lids, jars MUST be rejected.",
        ),
        (
            "Relays MUST send jars, kettles; glass lids MAY follow.",
            "Relays MUST send glass lids, kettles; jars MAY follow.",
        ),
    ],
)
def test_nouns_exchanged_between_two_clauses_are_normative(old: str, new: str) -> None:
    assert verdict(old, new) == "normative"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Jars, kettles or lids MUST be sent.", "Lids, kettles or jars MUST be sent."),
        ("Relays MUST send jars, kettles or lids.", "Relays MUST send lids, kettles or jars."),
        (
            "Lids MUST be red or blue if jars SHOULD seal.",
            "Lids MUST be blue or red if jars SHOULD seal.",
        ),
        (
            "Lids MUST be red or blue; jars SHOULD seal.",
            "Lids MUST be blue or red; jars SHOULD seal.",
        ),
    ],
)
def test_a_series_reordered_beside_a_clause_stays_editorial(old: str, new: str) -> None:
    assert verdict(old, new) == "editorial"
