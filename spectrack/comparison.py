"""A report together with where its pages live, so that CI formats can point at files and lines."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from spectrack.diff import diff_paths
from spectrack.model import Report
from spectrack.pages import pair_pages
from spectrack.releases import ReleaseMatch


@dataclass(frozen=True, slots=True)
class PageFiles:
    """Where the two versions of a page are, relative to the repository root."""

    old: str | None
    new: str | None


@dataclass(frozen=True, slots=True)
class Comparison:
    report: Report
    locations: Mapping[str, PageFiles] = field(default_factory=dict)
    """Page path → its files; a page missing here is located at its own path."""
    releases: Mapping[str, ReleaseMatch | None] | None = None
    """Page path → the release nearest its upstream edit, for pages of the snapshot store;
    None when the pages have no upstream edit time (files, git revisions)."""


def compare_paths(old: Path, new: Path) -> Comparison:
    """Compare two files or two directories; pages are located where they were read."""
    locations = {
        name: PageFiles(
            old_path.as_posix() if old_path else None, new_path.as_posix() if new_path else None
        )
        for name, old_path, new_path in pair_pages(old, new)
    }
    return Comparison(diff_paths(old, new), locations)
