"""``--format json``: the stable ``spectrack.diff/1`` contract other tools read.

Pages of the snapshot store also carry ``release``: the nearest release (version, published,
url, delta_seconds) or null. The key is absent where there is no release context (files and
git revisions have no upstream edit time); every other key is the same in both cases.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TextIO

from spectrack.formats.options import FormatOptions
from spectrack.model import Change, Hunk, PageReport, Report, Side
from spectrack.releases import ReleaseMatch

SCHEMA = "spectrack.diff/1"


def side_dict(side: Side | None) -> dict[str, Any] | None:
    if side is None:
        return None
    return {"text": side.text, "line": side.line, "keywords": list(side.keywords)}


def change_dict(change: Change) -> dict[str, Any]:
    return {
        "class": change.change_class.value,
        "kind": change.kind.value,
        "section": list(change.section),
        "old": side_dict(change.old),
        "new": side_dict(change.new),
    }


def hunk_dict(hunk: Hunk) -> dict[str, Any]:
    return {
        "old_start": hunk.old_start,
        "old_count": hunk.old_count,
        "new_start": hunk.new_start,
        "new_count": hunk.new_count,
        "class": hunk.change_class.value,
        "lines": [
            {"op": line.op, "old": line.old, "new": line.new, "text": line.text}
            for line in hunk.lines
        ],
    }


def page_dict(page: PageReport) -> dict[str, Any]:
    return {
        "path": page.path,
        "status": page.status.value,
        "verdict": page.verdict,
        "lines": {"added": page.lines_added, "removed": page.lines_removed},
        "changes": [change_dict(change) for change in page.changes],
        "hunks": [hunk_dict(hunk) for hunk in page.hunks],
    }


def report_dict(
    report: Report, releases: Mapping[str, ReleaseMatch | None] | None = None
) -> dict[str, Any]:
    """The report; with ``releases`` (a release context), each page gains its ``release``."""
    pages = []
    for page in report.pages:
        entry = page_dict(page)
        if releases is not None:
            match = releases.get(page.path)
            entry["release"] = match.to_json() if match else None
        pages.append(entry)
    return {
        "schema": SCHEMA,
        "verdict": report.verdict,
        "counts": report.counts,
        "pages": pages,
    }


def write(report: Report, stream: TextIO, options: FormatOptions) -> None:
    json.dump(report_dict(report, options.releases), stream, ensure_ascii=False, indent=2)
    stream.write("\n")
