"""The library without the command line, as the README and the package docstring show it."""

from __future__ import annotations

from pathlib import Path

from spectrack import diff, parse


def test_parse_and_diff_from_the_package(tmp_path: Path) -> None:
    document = parse("---\ntitle: Lamp\n---\n\nThe lamp SHOULD glow.\n", name="lamp.md")
    assert document.title == "Lamp"
    report = diff.diff_texts(
        "# Lamp\n\nThe lamp SHOULD glow.\n", "# Lamp\n\nThe lamp MUST glow.\n", "lamp.md"
    )
    assert (report.verdict, [c.kind.value for c in report.changes]) == (
        "normative",
        ["strengthened"],
    )
    assert diff.diff_texts(None, "# Lamp\n\nIt glows.\n", "lamp.md").status.value == "added"
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    (tmp_path / "old" / "lamp.md").write_text("# Lamp\n\nThe lamp SHOULD glow.\n")
    (tmp_path / "new" / "lamp.md").write_text("# Lamp\n\nThe lamp SHOULD  glow.\n")
    assert diff.diff_paths(tmp_path / "old", tmp_path / "new").verdict == "formatting"
