"""The library without the command line, as the README and the package docstring show it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from spectrack import diff, diff_paths, parse
from spectrack.dates import Precision, TimeSource, UpstreamTime
from spectrack.site import build
from spectrack.site.publish import publish
from spectrack.store import Store
from tests.conftest import StepClock
from tests.site.fixtures import sample_data

LAMP = "https://lamps.example/docs/lamp"
UPSTREAM = UpstreamTime(
    datetime(2025, 1, 10, tzinfo=UTC), TimeSource.SITEMAP, Precision.DAY, "2025-01-10"
)


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


def test_the_entry_points_that_take_paths_take_strings_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for side, keyword in (("old", "SHOULD"), ("new", "MUST")):
        Path(side).mkdir()
        Path(side, "lamp.md").write_text(f"# Lamp\n\nThe lamp {keyword} glow.\n")
    assert diff.diff_paths("old", "new").verdict == "normative"
    assert diff_paths("old/lamp.md", "new/lamp.md").pages[0].path == "lamp.md"

    with Store.create("store", StepClock()) as created, created.writer(StepClock()) as writer:
        writer.record("lamps", LAMP, b"# Lamp\n\nIt glows.\n", UPSTREAM, lastmod="2025-01-10")
    with Store.open("store") as store:
        assert store.path == Path("store")
        assert publish(store, "published").written
    assert build(sample_data(), "built").written
    assert Path("published", "index.html").is_file() and Path("built", "index.html").is_file()
