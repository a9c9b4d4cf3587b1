"""A plural pronoun cannot stand for a subject that is plainly singular: a sentence about "a
relay" or "the relay" put between "They" and the subject it stands for leaves "They" standing
for that subject. "Each relay" may be "they", and "the kettle owners" is plural, so a sentence
with such a subject put there still takes the pronoun.

The pages describe made-up clients, relays and kettles, written for these tests.
"""

from __future__ import annotations

import pytest

from spectrack.diff import diff_texts

PAGE = "# Relays\n\nClients connect over TLS. They MUST retry a failed connection.\n"


def verdicts(new_sentence: str) -> set[str]:
    """The verdicts of the windowed and the whole-page diff, which must agree, of ``PAGE`` with
    ``new_sentence`` put between the pronoun and the sentence before it."""
    new = PAGE.replace("TLS. They", f"TLS. {new_sentence} They")
    return {
        diff_texts(PAGE, new, "relays.md", incremental=incremental).verdict
        for incremental in (True, False)
    }


@pytest.mark.parametrize(
    "sentence",
    [
        "A relay accepts TLS 1.3 only.",
        "The relay is picky about ciphers.",
        "This relay will log each attempt.",
        "The session store keeps a record.",
    ],
)
def test_a_plainly_singular_subject_between_leaves_the_pronoun_as_it_was(sentence: str) -> None:
    assert verdicts(sentence) == {"editorial"}


@pytest.mark.parametrize(
    "sentence",
    [
        "Servers wait for them.",
        "Each relay wakes hourly.",
        "The kettle owners wait.",
        "A relay accepts TLS, and servers wait.",
    ],
)
def test_a_subject_the_pronoun_may_stand_for_takes_it(sentence: str) -> None:
    assert verdicts(sentence) == {"normative"}


def test_a_singular_subject_with_nothing_before_it_keeps_the_pronoun() -> None:
    # "A user signs in. They MUST …" may be a singular "they": with no other subject before it
    # in the paragraph, the pronoun still stands for the sentence before it.
    old = "# Relays\n\nRelays listen on port 80. They MUST retry a failed connection.\n"
    new = "# Relays\n\nA relay listens on port 80. They MUST retry a failed connection.\n"
    assert {
        diff_texts(old, new, "relays.md", incremental=incremental).verdict
        for incremental in (True, False)
    } == {"editorial"}
