"""Pausing Python's cycle collector while a stage makes many long-lived objects and no cycles.

Loading thousands of reports or planning a site of thousands of pages creates objects in the
hundreds of thousands; each full pass of the collector walks all of them and finds nothing, and
those passes add half again to such a stage. Reference counting still frees everything.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Within the block the collector does not run; afterwards it is as it was."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()
