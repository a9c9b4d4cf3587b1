"""Progress of long operations: a rich bar on a terminal, nothing in CI or with ``--quiet``.

Library code reports to a `Progress` it is given; `progress_for` picks the CLI's.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Protocol

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TaskID, TextColumn, TimeElapsedColumn
from rich.progress import Progress as RichBar
from rich.text import Text


class Progress(Protocol):
    """Where a long run reports how far it got, and its warnings."""

    def start(self, label: str, total: int) -> None: ...

    def advance(self) -> None: ...

    def warn(self, message: str) -> None: ...


class SilentProgress:
    """Shows nothing; warnings are kept in `warnings`."""

    def __init__(self) -> None:
        self.warnings: list[str] = []

    def start(self, label: str, total: int) -> None:
        pass

    def advance(self) -> None:
        pass

    def warn(self, message: str) -> None:
        self.warnings.append(message)


class WarningProgress(SilentProgress):
    """No bar (not a terminal, or CI); warnings go to stderr as lines."""

    def warn(self, message: str) -> None:
        super().warn(message)
        print(f"spectrack: warning: {message}", file=sys.stderr)


class BarProgress:
    """A rich progress bar on stderr, one task per `start`."""

    def __init__(self, bar: RichBar) -> None:
        self.bar = bar
        self.task: TaskID | None = None

    def start(self, label: str, total: int) -> None:
        if self.task is not None:
            self.bar.update(self.task, visible=False)
        self.task = self.bar.add_task(label, total=total)

    def advance(self) -> None:
        if self.task is not None:
            self.bar.advance(self.task)

    def warn(self, message: str) -> None:
        # A Text, not a string: a warning quotes sitemap values and URLs, in which rich would
        # read `[/x]` as markup (an unmatched closing tag raises) and `:smile:` as an emoji.
        line = Text.assemble(("warning:", "yellow"), " ", message)
        self.bar.console.print(line, highlight=False)


def on_terminal() -> bool:
    return sys.stderr.isatty() and not os.environ.get("CI")


@contextlib.contextmanager
def progress_for(quiet: bool) -> Iterator[Progress]:
    """The CLI's progress: silent with ``quiet``, lines off a terminal or in CI, else a bar."""
    if quiet:
        yield SilentProgress()
        return
    if not on_terminal():
        yield WarningProgress()
        return
    bar = RichBar(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with bar:
        yield BarProgress(bar)
