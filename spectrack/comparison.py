"""A report together with where its pages live, so that CI formats can point at files and lines."""

from __future__ import annotations

import os
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
    """Compare two files or two directories; pages are located where they were read, from the
    root of the git work tree around the current folder when there is one (where annotations
    and SARIF look for files), else from the current folder."""
    root = work_tree_root(Path.cwd())
    locations = {
        name: PageFiles(_located(old_path, root), _located(new_path, root))
        for name, old_path, new_path in pair_pages(old, new)
    }
    return Comparison(diff_paths(old, new), locations)


def work_tree_root(folder: Path) -> Path | None:
    # Found by its .git, not by asking git: comparing two files needs no git installed.
    return next((place for place in (folder, *folder.parents) if (place / ".git").exists()), None)


def _located(path: Path | None, root: Path | None) -> str | None:
    if path is None:
        return None
    if root is not None:
        # Spelled out, not resolved: a link inside the work tree is named where it stands.
        absolute = Path(os.path.abspath(path))
        if absolute.is_relative_to(root):
            return absolute.relative_to(root).as_posix()
    return path.as_posix()
