"""``python -m spectrack.demo`` (``make demo``): diff the bundled example specification.

The example (``examples/spec/``, see ``examples/README.md``) is a folder per revision. Each
step compares one revision with the next and prints the text report under a short heading.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import TextIO

from spectrack.diff import diff_paths
from spectrack.errors import InputError, SpectrackError
from spectrack.formats import FORMATS, FormatOptions
from spectrack.model import Report

EXAMPLE_SPEC = Path(__file__).resolve().parent.parent / "examples" / "spec"
"""The example's revisions, in the source tree next to the package."""

_NUMBER = re.compile(r"\d+")


@dataclass(frozen=True, slots=True)
class Step:
    """One revision compared with the next."""

    old: Path
    new: Path
    report: Report


def revision_dirs(spec: Path) -> list[Path]:
    """The revision folders of ``spec`` in order (``rev2`` before ``rev10``)."""
    if not spec.is_dir():
        raise InputError(f"{spec}: no example specification here (expected a folder of revisions)")
    folders = [path for path in spec.iterdir() if path.is_dir()]
    folders.sort(key=lambda path: [int(n) for n in _NUMBER.findall(path.name)] + [path.name])
    if len(folders) < 2:
        raise InputError(f"{spec}: needs at least two revision folders to compare")
    return folders


def diff_revisions(spec: Path) -> list[Step]:
    """Each revision of ``spec`` diffed with the one after it."""
    folders = revision_dirs(spec)
    return [Step(old, new, diff_paths(old, new)) for old, new in pairwise(folders)]


def write_step(step: Step, stream: TextIO, options: FormatOptions) -> None:
    heading = f"{step.old.name} → {step.new.name}"
    stream.write(f"\n── {heading} {'─' * max(3, 72 - len(heading))}\n")
    stream.flush()
    FORMATS["text"](step.report, stream, options)


def main() -> None:
    spec = Path(sys.argv[1]) if len(sys.argv) > 1 else EXAMPLE_SPEC
    try:
        steps = diff_revisions(spec)
    except SpectrackError as error:
        print(f"spectrack demo: error: {error}", file=sys.stderr)
        sys.exit(error.exit_code)
    print(f"The example specification in {spec}: {len(steps) + 1} revisions.")
    for step in steps:
        write_step(step, sys.stdout, FormatOptions())


if __name__ == "__main__":
    main()
