"""Engine gaps found while merging main: the windowed diff disagrees with the whole-page one.

`tests/test_properties.py::test_incremental_diff_equals_whole_page_diff` finds such pairs on some
runs; this is one it found, kept so that they fail for certain until the engine handles them.
"""

from __future__ import annotations

import pytest

from spectrack.diff import diff_texts

PAIRS = {
    "front-matter title gains a space": (
        "---\ntitle: Small kettles\n---\n\n## Small kettles\n",
        "---\ntitle: Small kettles \n---\n\n## Small kettles \n\nThe kettle MUST heat the kettle. \n",
    ),
}


@pytest.mark.xfail(strict=True, reason="engine bug: windows and whole page give other changes")
@pytest.mark.parametrize(("old", "new"), PAIRS.values(), ids=PAIRS.keys())
def test_windows_agree_with_the_whole_page(old: str, new: str) -> None:
    whole = diff_texts(old, new, "page.md", incremental=False)
    assert diff_texts(old, new, "page.md") == whole
