"""The demo (`python -m spectrack.demo`, ``make demo``) over the example specification."""

from __future__ import annotations

import re
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest

from spectrack.demo import EXAMPLE_SPEC, revision_dirs, track_revisions, write_step
from spectrack.diff import diff_paths
from spectrack.errors import InputError
from spectrack.formats import FormatOptions
from spectrack.model import ChangeClass, ChangeKind


def run_demo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "spectrack.demo", *args],
        capture_output=True,
        text=True,
        check=False,
    )


def steps_of(output: str) -> dict[str, str]:
    """The demo's output cut at its step headings, by heading (``rev1 → rev2``)."""
    parts = re.split(r"^── (.+?) ─+$", output, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_the_demo_shows_the_requirement_hidden_in_the_platform_switch(tmp_path: Path) -> None:
    done = run_demo(str(EXAMPLE_SPEC), str(tmp_path / "demo"))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "\x1b[" not in done.stdout
    steps = steps_of(done.stdout)
    assert list(steps) == ["rev1 (first fetch)", "rev1 → rev2", "rev2 → rev3", "rev3 → rev4"]
    assert "kettle: listed 4, fetched 4, new 4" in steps["rev1 (first fetch)"]
    switch = steps["rev2 → rev3"]
    assert "1 normative, 0 editorial" in switch
    assert "  ! normative strengthened  SHOULD → MUST  Safety › Dry boiling" in switch
    assert "- A kettle that has reported itself empty SHOULD ignore" in switch
    assert "+ A kettle that has reported itself empty MUST ignore" in switch
    assert switch.count("! normative") == 1
    assert "~ editorial" not in switch


def test_the_demo_ends_with_the_change_site(tmp_path: Path) -> None:
    done = run_demo(str(EXAMPLE_SPEC), str(tmp_path / "demo"))
    assert done.returncode == 0, done.stderr
    index = tmp_path / "demo" / "site" / "index.html"
    assert index.as_uri() in done.stdout
    assert "Safety changed" in index.read_text(encoding="utf-8")
    assert f"spectrack serve {tmp_path / 'demo' / 'site'}" in done.stdout


def test_each_fetched_revision_shows_what_the_example_readme_promises(tmp_path: Path) -> None:
    steps = {s.revision: s.report for s in track_revisions(EXAMPLE_SPEC, tmp_path / "store")}
    verdicts = {key: {p.path: p.verdict for p in r.pages} for key, r in steps.items()}
    assert verdicts["rev1"] == {}
    assert verdicts["rev2"] == {
        "kettle/heating.md": "normative",
        "kettle/messages.md": "editorial",
        "kettle/overview.md": "formatting",
        "kettle/safety.md": "formatting",
    }
    assert verdicts["rev3"] == {
        "kettle/heating.md": "formatting",
        "kettle/messages.md": "formatting",
        "kettle/overview.md": "formatting",
        "kettle/safety.md": "normative",
    }
    assert verdicts["rev4"] == {"kettle/errors.md": "normative"}
    heating = next(p for p in steps["rev2"].pages if p.path == "kettle/heating.md")
    kinds = sorted(c.kind.value for c in heating.changes if c.change_class is ChangeClass.NORMATIVE)
    assert kinds == ["added", "modified", "removed", "strengthened", "weakened", "weakened"]
    safety = next(p for p in steps["rev2"].pages if p.path == "kettle/safety.md")
    assert {c.kind for c in safety.changes} == {ChangeKind.MOVED}


def test_revisions_are_ordered_by_number(tmp_path: Path) -> None:
    for name in ("rev10", "rev2", "rev1", "rev9"):
        (tmp_path / name).mkdir()
    (tmp_path / "README.md").write_text("not a revision")
    assert [p.name for p in revision_dirs(tmp_path)] == ["rev1", "rev2", "rev9", "rev10"]


@pytest.mark.parametrize("revisions", [[], ["rev1"]])
def test_fewer_than_two_revisions_is_an_input_error(tmp_path: Path, revisions: list[str]) -> None:
    for name in revisions:
        (tmp_path / name).mkdir()
    with pytest.raises(InputError, match="needs at least two revision folders"):
        revision_dirs(tmp_path)


def test_a_missing_example_is_a_one_line_error(tmp_path: Path) -> None:
    done = run_demo(str(tmp_path / "nowhere"))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        f"spectrack demo: error: {tmp_path / 'nowhere'}: no example specification here "
        "(expected a folder of revisions)\n"
    )


def test_a_step_is_a_heading_a_fetch_summary_and_a_text_report(tmp_path: Path) -> None:
    for name, text in (("v1", "The tap MAY drip.\n"), ("v2", "The tap MUST NOT drip.\n")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "tap.md").write_text(text)
    first, second = track_revisions(tmp_path, tmp_path / "store")
    stream = StringIO()
    write_step(second, first.revision, stream, FormatOptions(color=False))
    lines = stream.getvalue().splitlines()
    assert lines[0] == ""
    assert lines[1].startswith("── v1 → v2 ───")
    assert lines[2].startswith("kettle: listed 1, fetched 1, new 0, changed 1 (normative 1")
    assert lines[3].startswith("spectrack: NORMATIVE · 1 of 1 pages changed")
    assert "kettle/tap.md  modified  NORMATIVE  +1 −1" in lines


def test_the_example_readme_quotes_the_line_diff_of_the_platform_switch() -> None:
    readme = (EXAMPLE_SPEC.parent / "README.md").read_text(encoding="utf-8")
    quoted = re.search(r"counts (\d+) added and (\d+) removed lines", readme)
    assert quoted is not None
    report = diff_paths(EXAMPLE_SPEC / "rev2", EXAMPLE_SPEC / "rev3")
    added = sum(page.lines_added for page in report.pages)
    removed = sum(page.lines_removed for page in report.pages)
    assert (added, removed) == (int(quoted.group(1)), int(quoted.group(2)))
    assert report.counts["normative"] == 1
    assert report.counts["editorial"] == 0


def test_a_folder_holding_other_files_is_refused_and_left_alone(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    (mine / "snapshots").mkdir(parents=True)
    (mine / "snapshots" / "README.md").write_text("my real store lives here\n")
    (mine / "notes.txt").write_text("draft\n")
    done = run_demo(str(EXAMPLE_SPEC), str(mine))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"spectrack demo: error: {mine}: ")
    assert (mine / "notes.txt").read_text() == "draft\n"
    assert (mine / "snapshots" / "README.md").read_text() == "my real store lives here\n"
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt", "snapshots"]


def test_a_rerun_replaces_only_what_the_demo_wrote(tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    assert run_demo(str(EXAMPLE_SPEC), str(folder)).returncode == 0
    (folder / "notes.txt").write_text("kept\n")
    (folder / "site" / "stale.html").write_text("from an earlier run\n")
    done = run_demo(str(EXAMPLE_SPEC), str(folder))
    assert done.returncode == 0, done.stderr
    assert (folder / "notes.txt").read_text() == "kept\n"
    assert not (folder / "site" / "stale.html").exists()
    assert "rev3 → rev4" in done.stdout


def test_an_empty_folder_or_one_an_earlier_demo_left_unmarked_is_used(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run_demo(str(EXAMPLE_SPEC), str(empty)).returncode == 0
    for made in empty.iterdir():
        if made.name not in ("snapshots", "site"):
            made.unlink()
    done = run_demo(str(EXAMPLE_SPEC), str(empty))
    assert done.returncode == 0, done.stderr


def test_a_file_in_place_of_the_folder_is_a_one_line_error(tmp_path: Path) -> None:
    taken = tmp_path / "taken"
    taken.write_text("not a folder\n")
    done = run_demo(str(EXAMPLE_SPEC), str(taken))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and str(taken) in done.stderr
    assert taken.read_text() == "not a folder\n"


def test_the_site_file_names_the_readme_shows_are_those_the_demo_writes(tmp_path: Path) -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## The change site") : readme.index("## Alerting in CI")]
    named = re.findall(r"`((?:sources|pages|feeds/pages)/[^`<>]+)`", section)
    assert {name.split("/")[0] for name in named} == {"sources", "pages", "feeds"}
    done = run_demo(str(EXAMPLE_SPEC), str(tmp_path / "demo"))
    assert done.returncode == 0, done.stderr
    site = tmp_path / "demo" / "site"
    assert [name for name in named if not (site / name).is_file()] == []
