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
    """Compare two files or two directories; pages are located where they were read (see
    `located`)."""
    root = work_tree_root()
    locations = {
        name: PageFiles(
            located(old_path, root) if old_path else None,
            located(new_path, root) if new_path else None,
        )
        for name, old_path, new_path in pair_pages(old, new)
    }
    return Comparison(diff_paths(old, new), locations)


def work_tree_root() -> Path | None:
    """The root of the git work tree around the current folder, if any."""
    # Found by its .git, not by asking git: comparing two files needs no git installed.
    here = Path.cwd()
    return next((place for place in (here, *here.parents) if (place / ".git").exists()), None)


def located(path: Path, root: Path | None) -> str:
    """How CI formats name a file, so that annotations and SARIF find it whatever folder a job
    runs in: from ``root`` (`work_tree_root`) when the file is inside it, else from the current
    folder when it is inside that, else as given."""
    # Spelled out, not resolved: a link inside the work tree is named where it stands.
    absolute = Path(os.path.abspath(path))
    for folder in (root, Path.cwd()):
        if folder is not None and absolute.is_relative_to(folder):
            return absolute.relative_to(folder).as_posix()
    return path.as_posix()
