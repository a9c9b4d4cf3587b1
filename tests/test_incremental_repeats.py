"""Windowed diffs agree with whole-page diffs when a page repeats the same block."""

from __future__ import annotations

from spectrack.diff import diff_texts

HEADING = "## Small kettles\n\n"
NOTE = "<!-- checked by the kettle group -->\n\n"
OLD = HEADING * 4
NEW = (HEADING + NOTE) * 4 + "A kettle is REQUIRED here.\n\n" + NOTE


def test_windows_agree_with_the_whole_page_when_headings_repeat() -> None:
    whole = diff_texts(OLD, NEW, "page.md", incremental=False)
    assert [change.kind.value for change in whole.changes] == ["added"]
    assert diff_texts(OLD, NEW, "page.md") == whole
