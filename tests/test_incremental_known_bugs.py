"""Known differences between the incremental and the whole-page diff, pinned until fixed."""

from __future__ import annotations

import pytest

from spectrack.diff import diff_texts

OLD = '<div id="enable-section-numbers" />\n\n## Small kettles\n\n## Small kettles\n'
NEW = "## Small kettles\n\n## Small kettles\n\nA element is **REQUIRED** here.\n"


@pytest.mark.xfail(
    strict=True,
    reason="the incremental diff reports one of two identical headings as moved when a leading "
    "presentational <div> goes (found by test_properties' incremental property)",
)
def test_two_identical_headings_after_a_dropped_div_are_not_moved() -> None:
    whole = diff_texts(OLD, NEW, "page.md", incremental=False)
    assert [change.kind.value for change in whole.changes] == ["added"]
    assert diff_texts(OLD, NEW, "page.md") == whole
