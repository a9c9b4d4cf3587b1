"""Golden reports of the diff fixtures: ``make goldens`` (``python -m tests.goldens``) rewrites them.

Each folder under ``tests/fixtures/diff/`` holds a pair of pages, ``old.md`` and ``new.md``, and
``expected.json``: the ``spectrack.diff/1`` report of diffing them. After a deliberate change to
the engine, regenerate the goldens and review the diff of the JSON files before committing it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from spectrack.diff import diff_paths
from spectrack.formats.json import report_dict

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "diff"
GOLDEN = "expected.json"


def cases(root: Path = FIXTURES) -> list[Path]:
    """Every fixture folder under ``root``, by name."""
    return sorted(path for path in root.iterdir() if (path / "old.md").is_file())


def report_of(case: Path) -> dict[str, Any]:
    """The JSON report of a fixture pair, as ``spectrack diff --format json`` writes it."""
    return report_dict(diff_paths(case / "old.md", case / "new.md"))


def render(report: dict[str, Any]) -> str:
    return json.dumps(report, ensure_ascii=False, indent=2) + "\n"


def write_goldens(root: Path = FIXTURES) -> list[Path]:
    """Rewrite the golden of every fixture under ``root``; returns the ones that changed."""
    changed = []
    for case in cases(root):
        golden = case / GOLDEN
        text = render(report_of(case))
        if not golden.is_file() or golden.read_text(encoding="utf-8") != text:
            golden.write_text(text, encoding="utf-8")
            changed.append(golden)
    return changed


def main() -> None:
    changed = write_goldens()
    for golden in changed:
        print(f"updated {golden.relative_to(FIXTURES.parents[2])}")
    print(f"{len(cases())} goldens, {len(changed)} updated")


if __name__ == "__main__":
    main()
