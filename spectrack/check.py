"""Scheduled tracking (``spectrack check``): fetch, then report what was recorded since the last check.

A check is two steps, so that nothing is skipped when a report cannot be written:

1. `run_check` fetches the sources (`spectrack.track.run_fetch`), notes the store's head and
   compares, for each source, every page recorded since the source's marker (the store commit
   the previous successful check reported up to): the page at the marker against the page at the
   head — one net change per page, so a page edited twice shows once, and a page edited back to
   what it was does not show. A source that was never checked reports every page recorded so
   far, each as added.
2. Once the report is written, `mark_checked` moves the marker of each source that had something
   new to the noted head, in one commit of the store (see `spectrack.store`).

From reading the markers until they moved, the pending check holds the store's check lock, so a
second check (its fetch done) waits, then reports from where the first one's report ended: two
checks at once cannot report the same change twice, and as a marker never moves back, neither
skips one. A check whose report could not be written gives the lock up (`PendingCheck.release`)
and leaves the markers where they were: the next check reports the same changes again, and
whatever was recorded since.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, field

import httpx

from spectrack.comparison import Comparison
from spectrack.config import Config
from spectrack.dates import Clock, utc_now
from spectrack.fetch import Sleep
from spectrack.history import net_report
from spectrack.progress import Progress
from spectrack.store import CHECK_LOCK_FILE, Store
from spectrack.targets import store_comparison
from spectrack.track import FetchSummary, run_fetch


@dataclass(frozen=True, slots=True)
class PendingCheck:
    """A check whose report is ready to be written; its markers have not moved yet."""

    comparison: Comparison
    fetch: FetchSummary
    head: str
    """The store commit the report runs up to: where the markers move."""
    sources: tuple[str, ...]
    """Sources with revisions recorded since their marker: the markers that move."""
    hold: contextlib.ExitStack = field(compare=False)
    """The store's check lock, until `mark_checked` or `release`."""

    def release(self) -> None:
        """Give the check lock up without moving the markers (the report was not written)."""
        self.hold.close()

    def __enter__(self) -> PendingCheck:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def changes_since_check(
    store: Store, sources: Sequence[str], head: str, progress: Progress | None = None
) -> tuple[Comparison, tuple[str, ...]]:
    """Every change recorded for ``sources`` since their markers, up to store commit ``head``.

    Returns the comparison, its pages located at their files in the store, and the sources that
    had revisions since their marker.
    """
    revisions = []
    advanced = []
    for source in sources:
        recorded = store.revisions_between(store.checked(source), head, source)
        if recorded:
            advanced.append(source)
            revisions += recorded
    report = net_report(store, revisions, head, progress)
    return store_comparison(store, report), tuple(advanced)


def run_check(
    config: Config,
    *,
    names: Sequence[str] = (),
    progress: Progress | None = None,
    clock: Clock = utc_now,
    sleep: Sleep = asyncio.sleep,
    client: httpx.AsyncClient | None = None,
) -> PendingCheck:
    """Fetch the named sources (all when empty) and gather what was recorded since their check.

    The pending check holds the store's check lock (waiting ``lock_wait`` for another check to
    move its markers): call `mark_checked` once its report is written, or `release` it.
    """
    wanted = tuple(dict.fromkeys(names))
    summary = run_fetch(
        config, names=wanted, progress=progress, clock=clock, sleep=sleep, client=client
    )
    sources = wanted or tuple(source.name for source in config.sources)
    with contextlib.ExitStack() as hold, Store.open(config.store.path) as store:
        hold.enter_context(store.lock(config.store.lock_wait, CHECK_LOCK_FILE))
        head = store.head()
        assert head is not None, "Store.open refuses a store without commits"
        comparison, advanced = changes_since_check(store, sources, head, progress)
        return PendingCheck(comparison, summary, head, advanced, hold.pop_all())


def mark_checked(config: Config, check: PendingCheck, clock: Clock = utc_now) -> tuple[str, ...]:
    """Move the markers of the check's sources to its head (call once its report is written).

    Returns the sources whose marker moved. The check's lock is given up in any case. A
    `StoreError` (`StoreBusyError` when another run holds the store past ``lock_wait``) leaves
    every marker where it was: the next check reports the same changes again.
    """
    with check:
        if not check.sources:
            return ()
        with (
            Store.open(config.store.path) as store,
            store.writer(clock, config.store.lock_wait) as writer,
        ):
            return tuple(writer.mark_checked(check.sources, check.head))
