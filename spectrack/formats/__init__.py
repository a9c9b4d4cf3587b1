"""Output formats: each turns a `Report` into text on a stream. ``FORMATS`` is the registry."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from spectrack.formats import github, junit, markdown, sarif
from spectrack.formats import json as json_format
from spectrack.formats import text as text_format
from spectrack.formats.options import FormatOptions
from spectrack.model import Report

__all__ = ["FORMATS", "FormatOptions", "Writer"]

Writer = Callable[[Report, TextIO, FormatOptions], None]

FORMATS: dict[str, Writer] = {
    "text": text_format.write,
    "json": json_format.write,
    "github": github.write,
    "markdown": markdown.write,
    "sarif": sarif.write,
    "junit": junit.write,
}
"""Format name → writer; ``--format`` offers exactly these."""
