"""Nouns exchanged across the semicolon that parts two keyword clauses, where the first clause
ends with a series of its own: the last item before the semicolon is the first clause's object,
the first after it the next clause's subject, so exchanged, each requirement speaks of another
thing. A series reordered within one clause stays editorial.

The pages describe made-up jars, cups, lids and relays, written for these tests.
"""

from __future__ import annotations

import pytest

from spectrack.diff import diff_texts


def verdicts(old: str, new: str) -> set[str]:
    """The verdicts of the windowed and the whole-page diff, which must agree."""
    old_page, new_page = f"# Jars\n\n{old}\n", f"# Jars\n\n{new}\n"
    return {
        diff_texts(old_page, new_page, "jars.md", incremental=incremental).verdict
        for incremental in (True, False)
    }


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Relays MUST send jars, cups; lids MAY follow.",
            "Relays MUST send jars, lids; cups MAY follow.",
        ),
        (
            "Relays MUST send jars, cups and kettles; lids MAY follow.",
            "Relays MUST send jars, cups and lids; kettles MAY follow.",
        ),
    ],
)
def test_nouns_exchanged_across_the_semicolon_after_a_series_are_normative(
    old: str, new: str
) -> None:
    assert verdicts(old, new) == {"normative"}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Jars MUST be sealed, and lids or cups MAY follow.",
            "Jars MUST be sealed, and cups or lids MAY follow.",
        ),
        (
            "Relays MUST send jars, cups; lids MAY follow.",
            "Relays MUST send cups, jars; lids MAY follow.",
        ),
        (
            "Relays MUST send jars; cups, lids or kettles MAY follow.",
            "Relays MUST send jars; kettles, lids or cups MAY follow.",
        ),
    ],
)
def test_a_series_reordered_within_one_clause_stays_editorial(old: str, new: str) -> None:
    assert verdicts(old, new) == {"editorial"}
