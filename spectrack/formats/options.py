"""Options every output format receives."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FormatOptions:
    verbose: bool = False
    """List formatting changes one by one instead of summarising them."""
    color: bool | None = None
    """Colour the output; None means: when writing to a terminal."""
