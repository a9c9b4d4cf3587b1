"""Progress that stops a long operation part-way, as Ctrl-C would: for what must survive it."""

from __future__ import annotations

from spectrack.progress import SilentProgress


class StopAfter(SilentProgress):
    """Raises KeyboardInterrupt at the ``steps``-th step reported."""

    def __init__(self, steps: int) -> None:
        super().__init__()
        self.left = steps

    def advance(self) -> None:
        self.left -= 1
        if self.left == 0:
            raise KeyboardInterrupt
