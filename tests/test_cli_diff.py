"""`spectrack diff OLD NEW` on files and directories: formats, --fail-on, --verbose, colour, errors.

The page pairs are the golden fixtures (``tests/fixtures/diff``).
"""

from __future__ import annotations

import json
import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from spectrack.diff import diff_paths
from spectrack.formats.json import report_dict
from tests.ci_support import run_cli
from tests.goldens import FIXTURES

ANSI = "\x1b["
PAIRS = {
    "normative": FIXTURES / "strengthened",
    "editorial": FIXTURES / "editorial-prose",
    "formatting": FIXTURES / "moved-block",
}


def pair(verdict: str) -> tuple[str, str]:
    folder = PAIRS[verdict]
    return str(folder / "old.md"), str(folder / "new.md")


def spectrack(
    *args: str, stdout: int = subprocess.PIPE, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m spectrack ARGS…`` (this checkout's, from any folder) with an environment
    that forces nothing about colour."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "TERM")}
    return subprocess.run(
        [sys.executable, "-m", "spectrack", *args],
        stdin=subprocess.DEVNULL,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        cwd=cwd,
        env={**env, "TERM": "xterm-256color", "PYTHONPATH": str(Path(__file__).parents[1])},
    )


@pytest.fixture
def trees(tmp_path: Path) -> tuple[Path, Path]:
    """Two revisions of a small site: one page strengthened, one reworded, one added."""
    old, new = tmp_path / "v1", tmp_path / "v2"
    for name, verdict in (("valves.md", "normative"), ("guide/zones.md", "editorial")):
        for side, root in (("old.md", old), ("new.md", new)):
            target = root / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(PAIRS[verdict] / side, target)
    (new / "guide/frost.md").write_text("# Frost\n\nDrains MUST open below zero.\n")
    return old, new


def test_two_files_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    run = run_cli(capsys, "diff", *pair("normative"))
    assert run.code == 0
    lines = run.out.splitlines()
    assert (
        lines[0]
        == "spectrack: NORMATIVE · 1 of 1 pages changed · 1 normative, 0 editorial, 0 formatting"
    )
    assert "new.md  modified  NORMATIVE  +1 −1" in lines
    assert "  ! normative strengthened  SHOULD → MUST  Irrigation valves" in lines
    assert (
        "      - A valve SHOULD close by itself after one hour without a command.  (line 4)"
        in lines
    )
    assert (
        "      + A valve MUST close by itself after one hour without a command.  (line 4)" in lines
    )


def test_two_directories_text_report(
    trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    run = run_cli(capsys, "diff", *map(str, trees))
    assert run.code == 0
    assert run.out.startswith(
        "spectrack: NORMATIVE · 3 of 3 pages changed · 2 normative, 2 editorial, 0 formatting\n"
    )
    headers = [line for line in run.out.splitlines() if line and not line.startswith(" ")]
    assert headers[1:] == [
        "guide/frost.md  added  NORMATIVE  +3 −0",
        "guide/zones.md  modified  EDITORIAL  +2 −2",
        "valves.md  modified  NORMATIVE  +1 −1",
    ]


def test_json_format_is_the_library_report(
    trees: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    run = run_cli(capsys, "diff", "--format", "json", *map(str, trees))
    assert run.code == 0
    assert json.loads(run.out) == report_dict(diff_paths(*trees))
    assert json.loads(run.out)["schema"] == "spectrack.diff/1"


@pytest.mark.parametrize(
    ("verdict", "fail_on", "code"),
    [
        ("normative", "never", 0),
        ("normative", "normative", 1),
        ("normative", "editorial", 1),
        ("normative", "formatting", 1),
        ("editorial", "normative", 0),
        ("editorial", "editorial", 1),
        ("editorial", "formatting", 1),
        ("formatting", "normative", 0),
        ("formatting", "editorial", 0),
        ("formatting", "formatting", 1),
    ],
)
def test_fail_on_exit_codes(
    verdict: str, fail_on: str, code: int, capsys: pytest.CaptureFixture[str]
) -> None:
    for output_format in ("text", "json"):
        run = run_cli(
            capsys, "diff", "--format", output_format, "--fail-on", fail_on, *pair(verdict)
        )
        assert run.code == code
        assert run.err == ""


def test_an_unchanged_page_never_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = str(FIXTURES / "strengthened" / "old.md")
    run = run_cli(capsys, "diff", "--fail-on", "formatting", page, page)
    assert run.code == 0
    assert (
        run.out
        == "spectrack: UNCHANGED · 0 of 1 pages changed · 0 normative, 0 editorial, 0 formatting\n"
    )


def test_verbose_lists_formatting_changes(capsys: pytest.CaptureFixture[str]) -> None:
    quiet = run_cli(capsys, "diff", *pair("formatting"))
    assert "  · 2 formatting changes (moved 2); --verbose lists them" in quiet.out.splitlines()
    assert "formatting moved" not in quiet.out
    for flag in ("--verbose", "-v"):
        verbose = run_cli(capsys, "diff", flag, *pair("formatting"))
        assert "--verbose lists them" not in verbose.out
        moves = [line for line in verbose.out.splitlines() if "formatting moved" in line]
        assert moves == ["  · formatting moved  Sensors › Wind"] * 2
        assert "      + Strong wind carries spray away from the beds.  (line 9)" in verbose.out
        assert verbose.out.count("      (the same words in another place)") == 2
        assert "link target" not in verbose.out


def test_no_colour_when_not_on_a_terminal() -> None:
    plain = spectrack("diff", *pair("normative"))
    assert plain.returncode == 0
    assert "strengthened" in plain.stdout
    assert ANSI not in plain.stdout
    forced = spectrack("diff", "--color", *pair("normative"))
    assert ANSI in forced.stdout
    assert forced.stdout.replace(ANSI, "") != forced.stdout


def _on_a_terminal(*args: str) -> str:
    """What ``spectrack ARGS…`` prints with its output on a pseudo-terminal."""
    controller, terminal = pty.openpty()
    try:
        done = spectrack(*args, stdout=terminal)
        assert done.returncode == 0, done.stderr
    finally:
        os.close(terminal)
    chunks = []
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(controller)
    return b"".join(chunks).decode("utf-8")


def test_colour_on_a_terminal_unless_turned_off() -> None:
    assert ANSI in _on_a_terminal("diff", *pair("normative"))
    output = _on_a_terminal("diff", "--no-color", *pair("normative"))
    assert "strengthened" in output
    assert ANSI not in output


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (
            [str(FIXTURES / "strengthened" / "old.md"), "missing.md"],
            "spectrack: error: missing.md: no such file or directory\n",
        ),
        (
            [str(FIXTURES / "strengthened" / "old.md"), str(FIXTURES / "strengthened")],
            "compare two files or two directories, not one of each\n",
        ),
    ],
)
def test_input_errors_exit_2_with_one_line(arguments: list[str], message: str) -> None:
    assert_input_error(spectrack("diff", *arguments), message)


def assert_input_error(done: subprocess.CompletedProcess[str], message: str) -> None:
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.endswith(message)
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("spectrack: error: ")


@pytest.mark.parametrize("arguments", [["", ""], [""], ["", str(FIXTURES / "strengthened")]])
def test_an_empty_argument_is_an_error_not_the_current_folder(
    arguments: list[str], tmp_path: Path
) -> None:
    """An unset variable in a CI job must not compare the current folder with itself."""
    done = spectrack("diff", "--fail-on", "normative", *arguments, cwd=tmp_path)
    assert_input_error(done, "an empty argument names no file, folder, page or revision\n")


def test_a_link_to_nothing_or_to_itself_is_named_as_such(tmp_path: Path) -> None:
    loop = tmp_path / "loop.md"
    loop.symlink_to(loop)
    dangling = tmp_path / "dangling.md"
    dangling.symlink_to(tmp_path / "gone.md")
    for link in (loop, dangling):
        done = spectrack("diff", str(FIXTURES / "strengthened" / "old.md"), str(link))
        assert_input_error(done, f"{link}: a symbolic link to nothing (or to itself)\n")


def test_a_fifo_is_refused_rather_than_read_until_it_ends(tmp_path: Path) -> None:
    fifo = tmp_path / "page.md"
    os.mkfifo(fifo)
    done = spectrack("diff", str(FIXTURES / "strengthened" / "old.md"), str(fifo))
    assert_input_error(done, f"{fifo}: not a regular file\n")


@pytest.mark.parametrize(
    "arguments",
    [["--format", "yaml"], ["--fail-on", "sometimes"], ["--colour"]],
)
def test_usage_errors_exit_2(arguments: list[str]) -> None:
    done = spectrack("diff", *arguments, *pair("normative"))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("spectrack: error: ")
    assert done.stderr.endswith(" (see spectrack diff --help)\n")
    assert done.stderr.count("\n") == 1


def test_a_closed_standard_output_is_an_error_not_a_finding() -> None:
    old, new = pair("normative")
    closed = ["sh", "-c", '"$@" >&-', "sh", sys.executable, "-m", "spectrack"]
    run = subprocess.run(
        [*closed, "diff", "--fail-on", "normative", old, new],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (run.returncode, run.stderr) == (
        2,
        "spectrack: error: cannot write the report to standard output (it is closed)\n",
    )


FORMAT_NAMES = ["text", "json", "sarif", "junit", "github", "markdown"]


@pytest.mark.parametrize("output_format", FORMAT_NAMES)
def test_a_page_whose_name_is_not_utf8_is_reported(tmp_path: Path, output_format: str) -> None:
    name = b"kettle-caf\xe9.md"  # Latin-1, as an old file system might name it
    for side, text in (("old", b"The kettle boils.\n"), ("new", b"The kettle MUST boil.\n")):
        (tmp_path / side).mkdir()
        (tmp_path / side / os.fsdecode(name)).write_bytes(text)
    run = spectrack("diff", "--format", output_format, str(tmp_path / "old"), str(tmp_path / "new"))
    assert (run.returncode, run.stderr) == (0, "")
    assert "caf" in run.stdout


@pytest.mark.parametrize("output_format", FORMAT_NAMES)
def test_reports_reach_a_console_whose_code_page_lacks_their_characters(
    output_format: str,
) -> None:
    old, new = pair("normative")
    env = {**os.environ, "PYTHONIOENCODING": "cp1252"}
    run = subprocess.run(
        [sys.executable, "-m", "spectrack", "diff", "--format", output_format, old, new],
        capture_output=True,
        check=False,
        env=env,
    )
    assert (run.returncode, run.stderr) == (0, b"")
    if output_format != "text":
        run.stdout.decode("utf-8")  # machine formats stay UTF-8 whatever the code page


def test_control_characters_in_page_text_never_reach_the_terminal(tmp_path: Path) -> None:
    escape = "\x1b]8;;https://elsewhere.example\x07here\x1b]8;;\x07 \x1b[2J \u202eesrever\u2069"
    (tmp_path / "old.md").write_text("# Lamp\n\nThe lamp glows.\n")
    (tmp_path / "new.md").write_text(f"# Lamp {escape}\n\nThe lamp MUST glow {escape}.\n")
    for output_format in ("text", "github", "markdown"):
        run = spectrack(
            "diff", "--format", output_format, str(tmp_path / "old.md"), str(tmp_path / "new.md")
        )
        assert run.returncode == 0
        assert "\x1b" not in run.stdout and "\x07" not in run.stdout
        assert "\u202e" not in run.stdout and "\u2069" not in run.stdout
        assert "lamp **MUST** glow" in run.stdout or "The lamp MUST glow" in run.stdout


def test_no_line_of_a_changed_code_block_starts_a_line_of_the_report(tmp_path: Path) -> None:
    """Page text cannot pass for the report's own lines or for a CI runner's commands."""
    (tmp_path / "old.md").write_text("Intro.\n")
    (tmp_path / "new.md").write_text("Intro.\n\n```\nline1\n::error file=x::fake\n```\n")
    run = spectrack("diff", str(tmp_path / "old.md"), str(tmp_path / "new.md"))
    assert "        ::error file=x::fake" in run.stdout
    assert not [line for line in run.stdout.splitlines() if line.startswith("::")]


def test_a_long_heading_path_is_cut_like_a_sentence(tmp_path: Path) -> None:
    heading = "Heading " * 25_000
    (tmp_path / "old.md").write_text(f"# {heading}\n\nA SHOULD b.\n")
    (tmp_path / "new.md").write_text(f"# {heading}\n\nA MUST b.\n")
    for output_format in ("text", "github", "markdown"):
        run = spectrack(
            "diff", "--format", output_format, str(tmp_path / "old.md"), str(tmp_path / "new.md")
        )
        assert run.returncode == 0
        assert len(run.stdout) < 10_000, output_format
        assert "SHOULD" in run.stdout and "strengthened" in run.stdout, output_format


def test_a_line_end_in_a_file_name_stays_on_the_page_line(tmp_path: Path) -> None:
    for side in ("old", "new"):
        (tmp_path / side).mkdir()
    (tmp_path / "old" / "two\nlines.md").write_text("# Lamp\n\nThe lamp glows.\n")
    (tmp_path / "new" / "two\nlines.md").write_text("# Lamp\n\nThe lamp MUST glow.\n")
    run = spectrack("diff", str(tmp_path / "old"), str(tmp_path / "new"))
    assert "two\ufffdlines.md" in run.stdout
    assert not any(line.startswith("lines.md") for line in run.stdout.splitlines())


def test_a_closed_standard_output_fails_every_command_that_prints(tmp_path: Path) -> None:
    closed = ["sh", "-c", '"$@" >&-', "sh", sys.executable, "-m", "spectrack"]
    config = tmp_path / "spectrack.toml"
    run = subprocess.run(
        [*closed, "init", "--config", str(config)], capture_output=True, text=True, check=False
    )
    assert (run.returncode, run.stderr) == (
        2,
        "spectrack: error: cannot write the output to standard output (it is closed)\n",
    )
