"""An engine gap found while merging main: the incremental diff disagrees with the whole-page one."""

from __future__ import annotations

import pytest

from spectrack.diff import diff_texts

OLD = "---\ntitle: Small kettles\n---\n\n## Small kettles\n"
NEW = "---\ntitle: Small kettles \n---\n\n## Small kettles \n\nThe kettle MUST heat the kettle. \n"


@pytest.mark.xfail(
    strict=True,
    reason="engine bug: a front-matter title with a trailing space, repeated by the first "
    "heading, gives the windowed diff other changes than the whole-page diff",
)
def test_windows_agree_with_the_whole_page_when_the_title_gains_a_space() -> None:
    whole = diff_texts(OLD, NEW, "page.md", incremental=False)
    assert diff_texts(OLD, NEW, "page.md") == whole
