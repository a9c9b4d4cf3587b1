"""Golden JSON reports of the fixture pairs under ``tests/fixtures/diff/``.

A golden pins the whole report (lines, hunks, texts); ``EXPECTED`` below states, by hand, what
each pair is about, so that regenerating the goldens (``make goldens``) can never quietly accept
a wrong verdict.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.goldens import FIXTURES, GOLDEN, cases, render, report_of, write_goldens

Finding = tuple[str, str, tuple[str, ...], tuple[str, ...]]
"""(class, kind, old keywords, new keywords) of a change that is not formatting."""

EXPECTED: dict[str, tuple[str, list[Finding]]] = {
    "strengthened": ("normative", [("normative", "strengthened", ("SHOULD",), ("MUST",))]),
    "weakened": ("normative", [("normative", "weakened", ("MUST",), ("MAY",))]),
    "lowercase-weakened": ("normative", [("normative", "weakened", ("SHOULD NOT",), ())]),
    "added-requirement": (
        "normative",
        [("normative", "added", (), ("MUST NOT",)), ("normative", "added", (), ("MAY",))],
    ),
    "removed-requirement": ("normative", [("normative", "removed", ("SHALL",), ())]),
    "modified-requirement": ("normative", [("normative", "modified", ("MUST",), ("MUST",))]),
    "editorial-prose": (
        "editorial",
        [("editorial", "modified", (), ()), ("editorial", "modified", (), ())],
    ),
    "code-change": ("editorial", [("editorial", "modified", (), ())]),
    "link-target": ("editorial", [("editorial", "modified", (), ())]),
    "moved-block": ("formatting", []),
    "platform-switch": ("normative", [("normative", "strengthened", ("SHOULD",), ("MUST",))]),
    "front-matter-title": ("formatting", []),
    "mdx-nested-markdown": ("normative", [("normative", "strengthened", ("SHOULD",), ("MUST",))]),
    "unclosed-note": ("editorial", [("editorial", "modified", (), ())]),
    "stray-closing-tag": ("formatting", []),
    "unbalanced-fence": ("formatting", []),
    "lead-in-list": (
        "normative",
        [
            ("normative", "modified", ("MUST",), ("MUST",)),
            ("normative", "added", (), ("MUST",)),
            ("editorial", "modified", (), ()),
            ("editorial", "modified", (), ()),
        ],
    ),
}

CASE_NAMES = [case.name for case in cases()]


def findings(report: dict[str, Any]) -> list[Finding]:
    return [
        (
            change["class"],
            change["kind"],
            tuple(change["old"]["keywords"]) if change["old"] else (),
            tuple(change["new"]["keywords"]) if change["new"] else (),
        )
        for page in report["pages"]
        for change in page["changes"]
        if change["class"] != "formatting"
    ]


def test_every_fixture_has_a_golden_and_an_expectation() -> None:
    assert sorted(CASE_NAMES) == sorted(EXPECTED)
    missing = [name for name in CASE_NAMES if not (FIXTURES / name / GOLDEN).is_file()]
    assert not missing, f"no {GOLDEN} in {missing}: run `make goldens`"


@pytest.mark.parametrize("name", CASE_NAMES)
def test_report_matches_its_golden(name: str) -> None:
    golden = FIXTURES / name / GOLDEN
    assert render(report_of(FIXTURES / name)) == golden.read_text(encoding="utf-8"), (
        f"{golden} is out of date: run `make goldens` and review the difference"
    )


@pytest.mark.parametrize("name", CASE_NAMES)
def test_golden_states_what_the_pair_is_about(name: str) -> None:
    report = json.loads((FIXTURES / name / GOLDEN).read_text(encoding="utf-8"))
    verdict, expected_findings = EXPECTED[name]
    assert report["verdict"] == verdict
    assert sorted(findings(report)) == sorted(expected_findings)
    if verdict == "formatting":
        assert report["counts"]["formatting"] > 0


def test_moved_block_is_reported_as_moves() -> None:
    report = json.loads((FIXTURES / "moved-block" / GOLDEN).read_text(encoding="utf-8"))
    kinds = {change["kind"] for change in report["pages"][0]["changes"]}
    assert kinds == {"moved"}


TOP_KEYS = {"schema", "verdict", "counts", "pages"}
PAGE_KEYS = {"path", "status", "verdict", "lines", "changes", "hunks"}
CHANGE_KEYS = {"class", "kind", "section", "old", "new"}
SIDE_KEYS = {"text", "line", "keywords"}
HUNK_KEYS = {"old_start", "old_count", "new_start", "new_count", "class", "lines"}
LINE_KEYS = {"op", "old", "new", "text"}


@pytest.mark.parametrize("name", CASE_NAMES)
def test_golden_has_exactly_the_keys_of_the_json_contract(name: str) -> None:
    report = json.loads((FIXTURES / name / GOLDEN).read_text(encoding="utf-8"))
    assert set(report) == TOP_KEYS
    assert report["schema"] == "spectrack.diff/1"
    assert list(report["counts"]) == ["normative", "editorial", "formatting"]
    for page in report["pages"]:
        assert set(page) == PAGE_KEYS
        assert set(page["lines"]) == {"added", "removed"}
        for change in page["changes"]:
            assert set(change) == CHANGE_KEYS
            for side in (change["old"], change["new"]):
                assert side is None or set(side) == SIDE_KEYS
        for hunk in page["hunks"]:
            assert set(hunk) == HUNK_KEYS
            for line in hunk["lines"]:
                assert set(line) == LINE_KEYS
                assert line["op"] in {" ", "-", "+"}


@pytest.mark.parametrize("name", CASE_NAMES)
def test_golden_hunks_number_every_line_of_both_pages(name: str) -> None:
    """Each hunk line carries the line number it has in the page it comes from."""
    case = FIXTURES / name
    old_lines = (case / "old.md").read_text(encoding="utf-8").splitlines()
    new_lines = (case / "new.md").read_text(encoding="utf-8").splitlines()
    report = json.loads((case / GOLDEN).read_text(encoding="utf-8"))
    (page,) = report["pages"]
    added = removed = 0
    for hunk in page["hunks"]:
        for line in hunk["lines"]:
            if line["op"] != "+":
                assert old_lines[line["old"] - 1] == line["text"]
            if line["op"] != "-":
                assert new_lines[line["new"] - 1] == line["text"]
            added += line["op"] == "+"
            removed += line["op"] == "-"
    assert page["lines"] == {"added": added, "removed": removed}


def test_write_goldens_rewrites_only_what_changed(tmp_path: Path) -> None:
    case = tmp_path / "one"
    case.mkdir()
    (case / "old.md").write_text("# Hoses\n\nHoses MAY be green.\n", encoding="utf-8")
    (case / "new.md").write_text("# Hoses\n\nHoses SHOULD be green.\n", encoding="utf-8")
    assert write_goldens(tmp_path) == [case / GOLDEN]
    assert json.loads((case / GOLDEN).read_text(encoding="utf-8"))["verdict"] == "normative"
    assert write_goldens(tmp_path) == []
    (case / "new.md").write_text("# Hoses\n\nHoses MUST be green.\n", encoding="utf-8")
    assert write_goldens(tmp_path) == [case / GOLDEN]
    assert "strengthened" in (case / GOLDEN).read_text(encoding="utf-8")
