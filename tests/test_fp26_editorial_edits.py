"""Editorial edits that the rules for a requirement's borrowed subject took for normative ones,
found by the false-alert hunt of stop 26: a pronoun followed back through sentences that
pronouns open, an "It" that cannot stand for a plural subject, and a requirement moved into a
subsection of its heading. Each is checked on the whole page too, which must agree.

The pages describe made-up kettles, relays and queues, written for these tests.
"""

from __future__ import annotations

import pytest

from spectrack.diff import diff_texts

PAGE = """# Kettle relay

## Clients

Clients connect to the relay over TLS. They MUST retry a failed connection.
They SHOULD log every retry.

## Servers

MUST answer each frame within two seconds.

Servers keep a queue of pending frames. It MUST NOT hold more than 64 frames.
"""


def verdicts(old: str, new: str) -> set[str]:
    return {
        diff_texts(old, new, "relay.md").verdict,
        diff_texts(old, new, "relay.md", incremental=False).verdict,
    }


def edited(old: str, new: str) -> str:
    assert old in PAGE
    return PAGE.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # A phrase that no comma sets off opens the sentence a pronoun stands for.
        (
            "Clients connect to the relay over TLS.",
            "In practice clients connect to the relay over TLS.",
        ),
        # The pronoun before a pronoun named for what it stands for.
        ("They MUST retry a failed connection.", "Clients MUST retry a failed connection."),
        # Two sentences that pronouns open changed places.
        (
            "They MUST retry a failed connection.\nThey SHOULD log every retry.",
            "They SHOULD log every retry. They MUST retry a failed connection.",
        ),
        # "It" stood for the queue, an object, not for the servers: rewording that sentence
        # or putting one about the queue between leaves it so.
        (
            "Servers keep a queue of pending frames.",
            "A queue of pending frames is kept by each server.",
        ),
        (
            "Servers keep a queue of pending frames.",
            "Servers keep a queue of pending frames. The queue lives in memory.",
        ),
    ],
)
def test_a_pronoun_that_still_stands_for_the_same_thing_stays_editorial(old: str, new: str) -> None:
    assert verdicts(PAGE, edited(old, new)) <= {"formatting", "editorial"}


SERVERS = (
    "## Servers\n\nMUST answer each frame within two seconds.\n\n"
    "Servers keep a queue of pending frames. It MUST NOT hold more than 64 frames.\n"
)


@pytest.mark.parametrize(
    "new",
    [
        # Moved into a subsection of its heading.
        "## Servers\n\nServers keep a queue of pending frames. It MUST NOT hold more than 64"
        " frames.\n\n### Response time\n\nMUST answer each frame within two seconds.\n",
        # Moved below its heading, renamed to say more of the same subject.
        "## Server requirements\n\nServers keep a queue of pending frames. It MUST NOT hold"
        " more than 64 frames.\n\nMUST answer each frame within two seconds.\n",
    ],
)
def test_a_requirement_moved_under_a_heading_of_its_subject_stays_editorial(new: str) -> None:
    assert verdicts(PAGE, edited(SERVERS, new)) <= {"formatting", "editorial"}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # Out of a subsection, to the section of another subject beside it.
        (
            "## Servers\n\n### Timing\n\nMUST answer.\n\n## Clients\n\nClients wait.",
            "## Servers\n\n### Timing\n\n## Clients\n\nClients wait.\n\nMUST answer.",
        ),
        # The sentence before a pronoun chain names another subject.
        (
            "Clients connect. They wait. They MUST retry.",
            "Servers connect. They wait. They MUST retry.",
        ),
        # "It" after a subject in the singular still stands for it.
        ("The relay keeps a queue. It MUST wait.", "The kettle keeps a queue. It MUST wait."),
    ],
)
def test_a_subject_changed_behind_the_same_words_stays_normative(old: str, new: str) -> None:
    assert verdicts(f"# Jars\n\n{old}\n", f"# Jars\n\n{new}\n") == {"normative"}


@pytest.mark.parametrize(
    "lead_in",
    ["Owners of kettles:", "For kettle owners:", "Kettle owner:"],
)
@pytest.mark.parametrize("item", ["If the kettle is hot, MUST wait.", "MUST descale monthly."])
def test_a_plain_lead_in_reworded_to_name_the_same_subject_stays_editorial(
    lead_in: str, item: str
) -> None:
    old = f"# Kettles\n\nKettle owners:\n\n- {item}\n- SHOULD rinse daily.\n"
    assert verdicts(old, old.replace("Kettle owners:", lead_in)) <= {"formatting", "editorial"}


@pytest.mark.parametrize(
    ("lead_in", "item"),
    [
        ("Kettle sellers:", "If the kettle is hot, MUST wait."),
        ("Owners of kettles:", "If the kettle is hot, MUST wait long."),
    ],
)
def test_a_plain_lead_in_or_its_item_changed_in_what_it_names_stays_normative(
    lead_in: str, item: str
) -> None:
    old = "# Kettles\n\nKettle owners:\n\n- If the kettle is hot, MUST wait.\n"
    new = f"# Kettles\n\n{lead_in}\n\n- {item}\n"
    assert verdicts(old, new) == {"normative"}
