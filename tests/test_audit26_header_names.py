"""A header's name that the page calls a header elsewhere is read in any case in every sentence.

HTTP compares header names in any case; a sentence that names a header without the word
"header" beside it ("a reply without a `Jar-Session-Id`") still means the header the page
names so elsewhere.
"""

from __future__ import annotations

import pytest

from spectrack.diff import diff_texts

_PAGE = (
    "# Relays\n\n"
    "Relays MUST send the `{name}` header on each request.\n\n"
    "When a relay gets a reply without a `{name}`, it MUST start a new session.\n"
)


def _classes(old: str, new: str) -> list[str]:
    return [change.change_class.value for change in diff_texts(old, new, "relays.md").changes]


def test_a_header_named_so_elsewhere_on_the_page_is_read_in_any_case() -> None:
    old = _PAGE.format(name="Jar-Session-Id")
    new = _PAGE.format(name="JAR-Session-Id")
    assert _classes(old, new) == ["editorial", "editorial"]


def test_a_name_the_page_never_calls_a_header_keeps_its_case() -> None:
    old = "# Relays\n\nWhen a relay gets a reply without a `Jar-Session-Id`, it MUST retry.\n"
    new = "# Relays\n\nWhen a relay gets a reply without a `JAR-Session-Id`, it MUST retry.\n"
    assert _classes(old, new) == ["normative"]


@pytest.mark.parametrize(
    ("page", "name"),
    [
        pytest.param(
            "Relays MUST set the `Jar-Mode` header to `Fast-Lane`.\n\n"
            "A relay in `{name}` mode MUST skip the queue.\n",
            "Fast-Lane",
            id="a value the page sets a header to",
        ),
        pytest.param(
            "Relays MUST put the `Lid-Size` key in the header object.\n\n"
            "A relay without a `{name}` MUST refuse the lid.\n",
            "Lid-Size",
            id="a name the page calls a key beside a header",
        ),
        pytest.param(
            "Relays MUST send `Jar-Id`. Headers are optional.\n\n"
            "A relay without a `{name}` MUST refuse the jar.\n",
            "Jar-Id",
            id="the word header in the next sentence",
        ),
        pytest.param(
            "Relays MUST send the `Jar-Id` header on each request.\n\n"
            "The body's `{name}` key MUST hold the jar's number.\n",
            "Jar-Id",
            id="a name the sentence calls a key though the page calls it a header",
        ),
        pytest.param(
            "Relays MUST send the `Jar-Mode` header on each request.\n\n"
            "A relay MUST set its lid's mode to `{name}`.\n",
            "Jar-Mode",
            id="a value the sentence sets though the page calls it a header",
        ),
    ],
)
def test_a_name_not_read_as_a_header_keeps_its_case(page: str, name: str) -> None:
    old = "# Relays\n\n" + page.format(name=name)
    new = "# Relays\n\n" + page.format(name=name.upper())
    assert _classes(old, new) == ["normative"]
