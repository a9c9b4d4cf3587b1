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


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # A requirement that opens with its keyword asks it of the subject its heading names:
        # moved under another heading, it asks it of another subject.
        (
            "## Clients\n\nMUST retry.\n\n## Servers\n\nMUST log.",
            "## Clients\n\nMUST log.\n\n## Servers\n\nMUST retry.",
        ),
        (
            "## Clients\n\n- MUST retry.\n- MUST wait.\n\n## Servers\n\n- MUST log.",
            "## Clients\n\n- MUST wait.\n\n## Servers\n\n- MUST log.\n- MUST retry.",
        ),
        (
            "## Clients\n\n**MUST** retry.\n\n## Servers\n\nThey listen.",
            "## Clients\n\n## Servers\n\nThey listen.\n\n**MUST** retry.",
        ),
        (
            "## Client rules\n\nMUST retry.\n\n## Server rules\n\nMUST log.",
            "## Client rules\n\nMUST log.\n\n## Server rules\n\nMUST retry.",
        ),
        # So does a pronoun that opens its paragraph.
        (
            "## Clients\n\nThey MUST retry.\n\n## Servers\n\nThey listen.",
            "## Clients\n\n## Servers\n\nThey MUST retry.\n\nThey listen.",
        ),
    ],
)
def test_a_requirement_moved_to_another_heading_that_names_its_subject_is_normative(
    old: str, new: str
) -> None:
    assert verdict(old, new) == "normative"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # Sections that changed places with their headings, also renumbered.
        (
            "## Clients\n\nMUST retry.\n\n## Servers\n\nMUST wait.",
            "## Servers\n\nMUST wait.\n\n## Clients\n\nMUST retry.",
        ),
        (
            "## 1. Clients\n\nMUST retry.\n\nMUST log.\n\n## 2. Servers\n\nMUST wait.",
            "## 1. Servers\n\nMUST wait.\n\n## 2. Clients\n\nMUST log.\n\nMUST retry.",
        ),
        # Moved under its own heading, or a sentence with a subject of its own moved.
        ("## Clients\n\nMUST retry.\n\nMUST log.", "## Clients\n\nMUST log.\n\nMUST retry."),
        # Moved under its own heading, reworded with the same nouns.
        (
            "## Client rules\n\nMUST retry.\n\nJars open.\n\nLids shut.",
            "## Rules for clients\n\nJars open.\n\nLids shut.\n\nMUST retry.",
        ),
        (
            "## Clients\n\nClients MUST retry.\n\n## Servers\n\nThey listen.",
            "## Clients\n\n## Servers\n\nThey listen.\n\nClients MUST retry.",
        ),
        # A paragraph parted after the sentence that a pronoun stands for.
        ("Clients connect. They MUST retry.", "Clients connect.\n\nThey MUST retry."),
    ],
)
def test_a_requirement_moved_with_its_subject_stays_a_move(old: str, new: str) -> None:
    assert verdict(old, new) in {"formatting", "editorial"}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Clients connect. They MUST retry.", "Servers connect. They MUST retry."),
        ("A client opens the jar. It SHOULD wait.", "A kettle opens the jar. It SHOULD wait."),
        ("Jars cool. They MUST be sealed.", "Lids cool. They MUST be sealed."),
    ],
)
def test_a_pronoun_left_standing_for_another_subject_is_normative(old: str, new: str) -> None:
    assert verdict(old, new) == "normative"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # The subject said otherwise, or the rest of the sentence before changed.
        ("A client connects. It MUST retry.", "The clients connect. It MUST retry."),
        ("The client opens a jar. It MUST retry.", "The client opens a kettle. It MUST retry."),
        (
            "The client connects. It MUST retry. Jars cool.",
            "The client connects. It MUST retry. Lids cool.",
        ),
        ("Cleints connect. They MUST retry.", "Clients connect. They MUST retry."),
        ("Clients connect. They MUST retry.", "Clients call. They MUST retry."),
        (
            "The client connects to a relay. It MUST retry.",
            "Once ready, the client connects to a relay. It MUST retry.",
        ),
        # A paragraph parted or joined where the pronoun stands.
        ("Clients connect. They MUST retry.", "Clients connect.\n\nThey MUST retry."),
        ("Clients connect.\n\nThey MUST retry.", "Clients connect. They MUST retry."),
    ],
)
def test_a_pronoun_that_stands_for_the_same_subject_stays_editorial(old: str, new: str) -> None:
    assert verdict(old, new) in {"formatting", "editorial"}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # Items of a list whose order the requirement says matters changed places, each
        # taking the punctuation of the place it went to.
        (
            "Relays MUST, in this order:\n\n1. retry;\n2. log.",
            "Relays MUST, in this order:\n\n1. log;\n2. retry.",
        ),
        (
            "Relays MUST, in this order:\n\n- retry the jar;\n- log the lid.",
            "Relays MUST, in this order:\n\n- log the lid;\n- retry the jar.",
        ),
        (
            "Relays MUST, in order:\n\n1. retry,\n2. wait, and\n3. log.",
            "Relays MUST, in order:\n\n1. wait,\n2. retry, and\n3. log.",
        ),
    ],
)
def test_items_exchanged_in_an_ordered_list_are_normative(old: str, new: str) -> None:
    assert verdict(old, new) == "normative"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # The order says nothing, or the items kept it.
        (
            "Relays MUST:\n\n- retry the jar;\n- log the lid.",
            "Relays MUST:\n\n- log the lid;\n- retry the jar.",
        ),
        (
            "Relays MUST, in this order:\n\n- retry the jar;\n- log the lid.",
            "Relays MUST, in this order:\n\n* retry the jar;\n* log the lid.",
        ),
        (
            "Relays MUST, in this order:\n\n- retry the jar;\n- log the lid.",
            "Relays MUST, in this order:\n\n- retry the jar.\n- log the lid.",
        ),
    ],
)
def test_items_of_a_list_that_kept_their_order_or_need_none_stay_editorial(
    old: str, new: str
) -> None:
    assert verdict(old, new) in {"formatting", "editorial"}


_OPENS_OTHERWISE = "a plain lead-in's item is read with it only where nothing but a condition stands before its keyword"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Kettle owners:\n\n- If hot, MUST descale.",
            "Kettle sellers:\n\n- If hot, MUST descale.",
        ),
        (
            "Kettle owners:\n\n- When the jar is full, MUST descale.",
            "Kettle sellers:\n\n- When the jar is full, MUST descale.",
        ),
        pytest.param(
            "Kettle owners:\n\n- They MUST descale.",
            "Kettle sellers:\n\n- They MUST descale.",
            marks=pytest.mark.xfail(strict=True, reason=_OPENS_OTHERWISE),
        ),
        ("Kettle owners:\n\n- MUST descale.", "Kettle sellers:\n\n- MUST descale."),
    ],
)
def test_a_plain_lead_in_given_another_subject_changes_items_without_one(
    old: str, new: str
) -> None:
    assert verdict(old, new) == "normative"


def test_an_item_that_names_its_subject_before_a_comma_keeps_it_under_a_plain_lead_in() -> None:
    old = "Kettle owners:\n\n- Jars with cracks, MUST be replaced."
    new = "Kettle sellers:\n\n- Jars with cracks, MUST be replaced."
    assert verdict(old, new) == "editorial"


def test_an_item_after_a_condition_is_quoted_with_its_plain_lead_in() -> None:
    report = diff_texts(
        "Kettle owners:\n\n- If hot, MUST descale.\n",
        "Kettle owners:\n\n- If hot, MUST descale weekly.\n",
        "kettles.md",
    )
    (change,) = [c for c in report.changes if c.change_class.value == "normative"]
    assert change.new is not None
    assert change.new.text == "Kettle owners: If hot, MUST descale weekly."


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # The subject after a phrase or a clause that opens the sentence before.
        (
            "When idle, clients connect. They MUST retry.",
            "When idle, servers connect. They MUST retry.",
        ),
        (
            "Jars open and the clients connect. They MUST retry.",
            "Jars open and the servers connect. They MUST retry.",
        ),
    ],
)
def test_a_pronoun_left_standing_for_another_subject_after_an_opening_clause_is_normative(
    old: str, new: str
) -> None:
    assert verdict(old, new) == "normative"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "When idle, clients connect. They MUST retry.",
            "When idle, clients call. They MUST retry.",
        ),
        ("Clients connect. They MUST retry.", "When idle, clients connect. They MUST retry."),
        ("Also. They MUST retry.", "Moreover. They MUST retry."),
    ],
)
def test_a_pronoun_after_an_opening_clause_that_keeps_its_subject_stays_editorial(
    old: str, new: str
) -> None:
    assert verdict(old, new) in {"formatting", "editorial"}
