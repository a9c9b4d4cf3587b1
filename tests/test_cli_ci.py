from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import click
import pytest

from spectrack.cli import cli
from spectrack.exitcodes import exit_code
from tests.ci_support import LANTERN_V1, LANTERN_V2, run_cli
from tests.github_runner import read

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.fixture
def pages(tmp_path: Path, monkeypatch: Any) -> tuple[str, str]:
    """Two versions of a page in the current folder, where the default ack file lives."""
    monkeypatch.chdir(tmp_path)
    Path("old.md").write_text(LANTERN_V1)
    Path("new.md").write_text(LANTERN_V2)
    return "old.md", "new.md"


@pytest.mark.parametrize(
    ("verdict", "fail_on", "exit_zero", "fetch_failed", "code"),
    [
        ("unchanged", "normative", False, False, 0),
        ("editorial", "normative", False, False, 0),
        ("normative", "normative", False, False, 1),
        ("formatting", "formatting", False, False, 1),
        ("normative", "never", False, False, 0),
        ("normative", "normative", True, False, 0),
        ("normative", "normative", False, True, 1),
        ("editorial", "normative", False, True, 3),
        ("normative", "normative", True, True, 3),
    ],
)
def test_exit_codes(
    verdict: str, fail_on: str, exit_zero: bool, fetch_failed: bool, code: int
) -> None:
    assert exit_code(verdict, fail_on, exit_zero, fetch_failed) == code


def test_ack_makes_fail_on_pass_while_the_change_is_still_shown(
    pages: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = pages
    first = run_cli(capsys, "diff", "--format", "github", "--fail-on", "normative", old, new)
    assert first.code == 1
    errors = [c for c in read(first.out).commands if c.name == "error"]
    assert len(errors) == 1
    fingerprint = re.search(r"fingerprint: ([0-9a-f]{16})", errors[0].data)
    assert fingerprint is not None

    acked = run_cli(capsys, "ack", fingerprint.group(1).upper(), "--reason", "Lamp team agreed")
    assert acked.code == 0, acked.err
    assert "acknowledged 1 change(s) in spectrack-ack.toml" in acked.out
    assert "Lamp team agreed" in Path("spectrack-ack.toml").read_text()

    second = run_cli(capsys, "diff", "--format", "github", "--fail-on", "normative", old, new)
    assert second.code == 0
    commands = read(second.out).commands
    assert not [c for c in commands if c.name == "error"]
    notice = next(c for c in commands if c.name == "notice")
    assert "acknowledged: Lamp team agreed" in notice.data
    assert fingerprint.group(1) in notice.data

    text = run_cli(capsys, "diff", "--fail-on", "editorial", old, new)
    assert text.code == 1, "the editorial change is not acknowledged"
    assert "strengthened  SHOULD → MUST  Lantern signals › Beacons  ✓ acknowledged" in text.out
    assert text.out.startswith("spectrack: NORMATIVE · ")
    assert "· 1 acknowledged, open: EDITORIAL\n" in text.out

    again = run_cli(capsys, "ack", fingerprint.group(1), "--reason", "twice")
    assert "acknowledged 0 change(s)" in again.out and "1 already acknowledged" in again.out


def test_unknown_acknowledgements_are_warnings(
    pages: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = pages
    assert run_cli(capsys, "ack", "0123456789abcdef", "--reason", "an old change").code == 0
    run = run_cli(capsys, "diff", "--fail-on", "normative", old, new)
    assert run.code == 1
    assert "spectrack: warning: spectrack-ack.toml, ack #1: 0123456789abcdef" in run.err


def test_bad_acknowledgement_input_is_a_usage_error(
    pages: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = pages
    bad = run_cli(capsys, "ack", "not-a-print", "--reason", "x")
    assert bad.code == 2
    assert bad.err.startswith("spectrack: error: 'not-a-print': not a change fingerprint")
    assert run_cli(capsys, "ack", "0123456789abcdef").code == 2, "--reason is required"
    missing = run_cli(capsys, "diff", "--ack-file", "nowhere.toml", old, new)
    assert missing.code == 2
    assert "nowhere.toml: no such acknowledgement file" in missing.err
    Path("spectrack-ack.toml").write_text("[[ack]\n")
    broken = run_cli(capsys, "diff", old, new)
    assert broken.code == 2
    assert broken.err.startswith("spectrack: error: spectrack-ack.toml: invalid TOML")
    assert not Path("nowhere.toml").exists()


def test_extra_outputs_are_written_by_the_same_run(
    pages: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = pages
    run = run_cli(
        capsys, "diff", "--output", "junit=report.xml", "--output", "json=report.json", old, new
    )
    assert run.code == 0
    assert run.out.startswith("spectrack: NORMATIVE")
    assert Path("report.xml").read_text().startswith("<?xml")
    assert '"schema": "spectrack.diff/1"' in Path("report.json").read_text()
    bad = run_cli(capsys, "diff", "--output", "pdf=report.pdf", old, new)
    assert bad.code == 2
    assert "expected FORMAT=PATH" in bad.err
    unwritable = run_cli(capsys, "diff", "--output", "sarif=missing/dir/x.sarif", old, new)
    assert unwritable.code == 2
    assert unwritable.err.startswith("spectrack: error: missing/dir/x.sarif: cannot write")


def test_two_outputs_to_one_file_are_refused(
    pages: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    # The same file by another spelling: the junit report would have replaced the sarif one.
    old, new = pages
    Path("reports").mkdir()
    run = run_cli(
        capsys,
        "diff",
        "--output",
        "sarif=reports/a",
        "--output",
        "junit=./reports/../reports/a",
        old,
        new,
    )
    assert run.code == 2
    assert run.err.startswith("spectrack: error: ./reports/../reports/a: named by two --output")
    assert len(run.err.splitlines()) == 1
    assert not Path("reports/a").exists()


@pytest.mark.parametrize("output_format", ["sarif", "junit", "markdown", "json", "github", "text"])
def test_step_outputs_and_job_summary_are_written_once_whatever_the_format(
    pages: tuple[str, str],
    output_format: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    old, new = pages
    summary = Path("summary.md").resolve()
    monkeypatch.setenv("GITHUB_OUTPUT", str(Path("outputs.txt").resolve()))
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    run = run_cli(
        capsys, "diff", "--format", output_format, "--output", "github=also.txt", old, new
    )
    assert run.code == 0
    lines = Path("outputs.txt").read_text().splitlines()
    assert len(lines) == len(set(lines)) == 5
    assert "verdict=normative" in lines
    assert summary.read_text().count("<!-- spectrack-report -->") == 1
    alone = run_cli(capsys, "diff", "--format", "json", old, new)
    assert alone.code == 0
    assert summary.read_text().count("<!-- spectrack-report -->") == 1, "no github report"


def test_source_without_since_is_a_usage_error(
    pages: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = pages
    run = run_cli(capsys, "diff", "--source", "lamps", old, new)
    assert run.code == 2
    assert "--source applies only with --since" in run.err


def test_repo_with_since_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = run_cli(capsys, "diff", "--since", "1d", "--repo", str(tmp_path))
    assert (run.code, run.out) == (2, "")
    assert "--repo names git revisions to compare; --since reads the store" in run.err


def test_a_single_argument_without_revisions_is_a_usage_error(
    pages: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    run = run_cli(capsys, "diff", "old.md")
    assert run.code == 2
    assert "give two files or directories" in run.err
    typo = run_cli(capsys, "diff", "odl.md", "nwe.md")
    assert typo.code == 2
    assert typo.err.startswith("spectrack: error: odl.md, nwe.md: no such files or directories")


def test_every_option_of_the_ci_commands_is_documented() -> None:
    readme = README.read_text(encoding="utf-8")
    section = readme[readme.index("## Alerting in CI") :]
    for name in ("diff", "ack", "check"):
        command = cli.commands[name]
        for parameter in command.params:
            if isinstance(parameter, click.Option):
                documented = [flag for flag in parameter.opts if flag in section]
                assert documented, f"spectrack {name} {parameter.opts[0]} is not in the README"
    for format_name in ("github", "markdown", "sarif", "junit"):
        assert f"--format {format_name}" in section


def test_annotations_name_files_from_the_work_trees_root(
    tmp_path: Path, monkeypatch: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """A job that runs in a subfolder (the action's working-directory) still points GitHub and
    SARIF at the files from the repository's root; outside a work tree, names stay as given."""
    subprocess.run(["git", "init", "-q", str(tmp_path / "repo")], check=True)
    specs = tmp_path / "repo" / "specs"
    for version, text in (("v1", LANTERN_V1), ("v2", LANTERN_V2)):
        (specs / version).mkdir(parents=True)
        (specs / version / "lantern.md").write_text(text)
    monkeypatch.chdir(specs)
    run = run_cli(capsys, "diff", "--format", "github", "v1", "v2")
    errors = [c for c in read(run.out).commands if c.name == "error"]
    assert errors and {c.properties["file"] for c in errors} == {"specs/v2/lantern.md"}
    sarif = json.loads(run_cli(capsys, "diff", "--format", "sarif", "../specs/v1", "v2").out)
    uris = {
        location["physicalLocation"]["artifactLocation"]["uri"]
        for result in sarif["runs"][0]["results"]
        for location in result["locations"]
    }
    assert uris == {"specs/v2/lantern.md"}
    monkeypatch.chdir(tmp_path)
    (tmp_path / "loose").mkdir()
    for version in ("v1", "v2"):
        (tmp_path / "loose" / f"{version}.md").write_text(
            (specs / version / "lantern.md").read_text()
        )
    loose = run_cli(capsys, "diff", "--format", "github", "loose/v1.md", "loose/v2.md")
    assert {c.properties["file"] for c in read(loose.out).commands if c.name == "error"} == {
        "loose/v2.md"
    }
