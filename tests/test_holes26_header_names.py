"""A header's name is read in any case wherever either version of the page calls it a header.

HTTP compares header names in any case. Where only one version says elsewhere that `Jar-Id` is
a header (the sentence saying so was removed or added beside the change), the name in a
requirement still means that header, whichever way the change runs.
"""

from __future__ import annotations

from spectrack.diff import diff_texts

_CALLED_A_HEADER = "Relays MUST send the `Jar-Id` header on each request.\n\n"
_REQUIREMENT = "When a relay gets a reply without a `{name}`, it MUST start a new session.\n"


def _requirement_class(old: str, new: str) -> str:
    """The class of the requirement's change, which the whole page's diff must give too."""
    classes = set()
    for incremental in (True, False):
        changes = diff_texts(old, new, "relays.md", incremental=incremental).changes
        (change,) = [c for c in changes if "session" in (c.new or c.old).text]
        classes.add(change.change_class.value)
    (change_class,) = classes
    return change_class


def test_a_header_only_the_old_page_names_so_is_read_in_any_case() -> None:
    old = "# Relays\n\n" + _CALLED_A_HEADER + _REQUIREMENT.format(name="Jar-Id")
    new = "# Relays\n\n" + _REQUIREMENT.format(name="JAR-ID")
    assert _requirement_class(old, new) == "editorial"


def test_a_header_only_the_new_page_names_so_is_read_in_any_case() -> None:
    old = "# Relays\n\n" + _REQUIREMENT.format(name="JAR-ID")
    new = "# Relays\n\n" + _CALLED_A_HEADER + _REQUIREMENT.format(name="Jar-Id")
    assert _requirement_class(old, new) == "editorial"


def test_a_name_neither_page_calls_a_header_keeps_its_case() -> None:
    old = "# Relays\n\nRelays MUST send `Jar-Id` on each request.\n\n" + _REQUIREMENT.format(
        name="Jar-Id"
    )
    new = "# Relays\n\n" + _REQUIREMENT.format(name="JAR-ID")
    assert _requirement_class(old, new) == "normative"
