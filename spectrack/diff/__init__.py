"""The semantic diff: two versions of a page (or of a tree of pages) → a `Report`."""

from __future__ import annotations

import os
from pathlib import Path

from spectrack.diff.engine import diff_documents, diff_texts
from spectrack.model import Report
from spectrack.pages import pair_pages, read_page

__all__ = ["diff_documents", "diff_paths", "diff_texts"]


def diff_paths(old: str | os.PathLike[str], new: str | os.PathLike[str]) -> Report:
    """Compare two files, or two directories of pages paired by relative path."""
    pages = []
    for name, old_path, new_path in pair_pages(Path(old), Path(new)):
        old_text = read_page(old_path) if old_path else None
        new_text = read_page(new_path) if new_path else None
        pages.append(
            diff_texts(old_text, new_text, name, old_name=old_path.name if old_path else None)
        )
    return Report(tuple(pages))
