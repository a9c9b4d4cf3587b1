"""A plain lead-in that only gains words bidding its readers note what follows ("Kettle owners
should note:") names the same subject for its items; one that gains words that narrow it
("Kettle owners in hotels:") or a bare "note", which may be a noun ("Kettle note:"), does not.

The pages describe made-up kettles, written for these tests.
"""

from __future__ import annotations

import pytest

from spectrack.diff import diff_texts

OLD = "# Kettles\n\nKettle owners:\n\n- MUST descale monthly.\n- SHOULD rinse daily.\n"


def verdicts(lead_in: str) -> set[str]:
    """The verdicts of the windowed and the whole-page diff, which must agree."""
    new = OLD.replace("Kettle owners:", lead_in)
    return {
        diff_texts(OLD, new, "kettles.md", incremental=incremental).verdict
        for incremental in (True, False)
    }


@pytest.mark.parametrize(
    "lead_in",
    [
        "Kettle owners should note:",
        "Kettle owners, please note:",
        "Kettle owners should note the following:",
        "Kettle owners, take note:",
        "Owners of kettles should note that:",
    ],
)
def test_a_lead_in_that_bids_its_readers_note_stays_editorial(lead_in: str) -> None:
    assert verdicts(lead_in) == {"editorial"}


@pytest.mark.parametrize(
    "lead_in",
    [
        "Kettle owners in hotels:",
        "Kettle owners (hotels only):",
        "Kettle owners note:",
        "Kettle sellers should note:",
    ],
)
def test_a_lead_in_that_names_another_subject_is_normative(lead_in: str) -> None:
    assert verdicts(lead_in) == {"normative"}
