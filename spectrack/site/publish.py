"""`spectrack site` as one call: a store's recorded changes into a folder of static files."""

from __future__ import annotations

import os
from pathlib import Path

from spectrack.collector import collector_paused
from spectrack.errors import InputError
from spectrack.progress import Progress
from spectrack.site.build import BuildResult, build, check_folder
from spectrack.site.collect import DEFAULT_TITLE, collect
from spectrack.store import Store


def publish(
    store: Store,
    out: str | os.PathLike[str],
    base_url: str | None = None,
    title: str = DEFAULT_TITLE,
    progress: Progress | None = None,
) -> BuildResult:
    """Build the site of every change recorded in ``store`` into the folder ``out``.

    The cycle collector stays paused throughout: the site's data is made, used and dropped
    within, holds no reference cycles (a test checks), and is freed by reference counting, so no
    collection pass walks its hundreds of thousands of objects.
    """
    out = Path(out)
    root = store.path.resolve()
    target = out.resolve()
    if target == root or root in target.parents:
        # Its files would lie among the recorded pages (or in .git), files no run recorded
        # mixed into the store.
        raise InputError(
            f"{out}: inside the snapshot store {store.path}; write the site to a folder of its own"
        )
    # Said now, not after diffing every revision.
    check_folder(out)
    with collector_paused():
        return build(collect(store, title, progress), out, base_url, progress)
