"""A header's name that the page calls a header elsewhere is read in any case in every sentence.

HTTP compares header names in any case; a sentence that names a header without the word
"header" beside it ("a reply without a `Jar-Session-Id`") still means the header the page
names so elsewhere.
"""

from __future__ import annotations

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


def test_a_value_the_page_sets_a_header_to_keeps_its_case() -> None:
    page = (
        "# Relays\n\n"
        "Relays MUST set the `Jar-Mode` header to `{value}`.\n\n"
        "A relay in `{value}` mode MUST skip the queue.\n"
    )
    old = page.format(value="Fast-Lane")
    new = page.replace("in `{value}` mode", "in `FAST-LANE` mode").format(value="Fast-Lane")
    assert _classes(old, new) == ["normative"]


def test_a_name_the_page_calls_a_key_beside_a_header_keeps_its_case() -> None:
    page = (
        "# Relays\n\n"
        "Relays MUST put the `Lid-Size` key in the header object.\n\n"
        "A relay without a `{name}` MUST refuse the lid.\n"
    )
    old = page.format(name="Lid-Size")
    new = page.format(name="LID-SIZE")
    assert _classes(old, new) == ["normative"]


def test_the_word_header_in_the_next_sentence_names_no_header() -> None:
    page = (
        "# Relays\n\n"
        "Relays MUST send `Jar-Id`. Headers are optional.\n\n"
        "A relay without a `{name}` MUST refuse the jar.\n"
    )
    old = page.format(name="Jar-Id")
    new = page.format(name="JAR-ID")
    assert _classes(old, new) == ["normative"]


def test_a_name_the_sentence_calls_a_key_keeps_its_case_though_the_page_calls_it_a_header() -> None:
    page = (
        "# Relays\n\n"
        "Relays MUST send the `Jar-Id` header on each request.\n\n"
        "The body's `{name}` key MUST hold the jar's number.\n"
    )
    old = page.format(name="Jar-Id")
    new = page.format(name="JAR-ID")
    assert _classes(old, new) == ["normative"]


def test_a_value_the_sentence_sets_keeps_its_case_though_the_page_calls_it_a_header() -> None:
    page = (
        "# Relays\n\n"
        "Relays MUST send the `Jar-Mode` header on each request.\n\n"
        "A relay MUST set its lid's mode to `{name}`.\n"
    )
    old = page.format(name="Jar-Mode")
    new = page.format(name="JAR-MODE")
    assert _classes(old, new) == ["normative"]
