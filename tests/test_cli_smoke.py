import signal
import socket
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from spectrack.cli import main
from spectrack.dates import Precision, TimeSource, UpstreamTime
from spectrack.serve import LocalSite, Reply
from spectrack.store import Store
from tests.ci_support import run_cli
from tests.conftest import StepClock
from tests.storecheck import git


def test_diff_exits_one_on_a_strengthened_requirement(tmp_path: Path, capsys) -> None:
    old = tmp_path / "old.md"
    new = tmp_path / "new.md"
    old.write_text("# Tools\n\nClients SHOULD validate input.\n")
    new.write_text("# Tools\n\nClients MUST validate input.\n")
    try:
        main(["diff", str(old), str(new), "--fail-on", "normative"])
    except SystemExit as stop:
        assert stop.code == 1
    else:
        raise AssertionError("expected exit 1")
    assert "strengthened" in capsys.readouterr().out


def test_a_path_the_system_refuses_is_a_one_line_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file where a folder should be: named on one line, exit 2, no traceback."""
    monkeypatch.chdir(tmp_path)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    # A history to import, read before the store is made where the system refuses it.
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "lamp.md").write_text("# Lamp\n")
    subprocess.run(["git", "add", "docs"], cwd=tmp_path, check=True)
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "1"],
        cwd=tmp_path,
        check=True,
    )
    (tmp_path / "taken").write_text("a file, not a folder\n")
    (tmp_path / "old.md").write_text("# Lamp\n\nThe lamp SHOULD glow.\n")
    (tmp_path / "new.md").write_text("# Lamp\n\nThe lamp MUST glow.\n")
    for args in (
        ["init", "--config", "taken/spectrack.toml"],
        [
            "import-git",
            str(tmp_path),
            "--path",
            "docs",
            "--source",
            "s",
            "--url-base",
            "https://x.example/",
            "--store",
            "taken/store",
        ],
        ["diff", "old.md", "new.md", "--output", "json=taken/report.json"],
    ):
        run = run_cli(capsys, *args)
        assert run.code == 2, args
        assert run.err.startswith("spectrack: error: taken/"), run.err
        assert len(run.err.strip().splitlines()) == 1, run.err
        assert "Traceback" not in run.err


@pytest.mark.parametrize("output_format", ["text", "json", "github"])
def test_a_reader_that_stops_early_is_no_error(tmp_path: Path, output_format: str) -> None:
    """`spectrack diff … | head -1`: the report is cut short quietly, the exit code stays."""
    old = "".join(f"Lamp {n} MUST glow.\n\n" for n in range(1200))
    (tmp_path / "old.md").write_text(old)
    (tmp_path / "new.md").write_text(old.replace("MUST", "SHOULD"))
    for fail_on, code in (("never", 0), ("normative", 1)):
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "spectrack",
                "diff",
                "old.md",
                "new.md",
                "--format",
                output_format,
                "--fail-on",
                fail_on,
            ],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline()
        process.stdout.close()
        assert process.wait(timeout=60) == code
        assert process.stderr.read() == b""


def test_a_log_reader_that_stops_early_is_no_error(tmp_path: Path) -> None:
    """`spectrack log | head -1` on a long history: exit 0, nothing on stderr."""
    clock = StepClock(datetime(2030, 1, 1, tzinfo=UTC))
    moment = UpstreamTime(datetime(2025, 1, 1, tzinfo=UTC), TimeSource.FETCH, Precision.SECOND)
    with Store.create(tmp_path / "store", clock) as store, store.writer(clock) as writer:
        for number in range(400):
            page = f"# Page {number}\n\nText.\n".encode()
            writer.record("lamps", f"https://lamps.example/docs/p{number}", page, moment)
    process = subprocess.Popen(
        [sys.executable, "-m", "spectrack", "log", "--store", str(tmp_path / "store")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    assert b"lamps/docs/p399" in process.stdout.readline()
    process.stdout.close()
    assert process.wait(timeout=60) == 0
    assert process.stderr.read() == b""


def test_spectrack_alone_shows_the_help_and_every_command(capsys) -> None:
    run = run_cli(capsys)
    assert run.code == 2
    assert run.err.startswith("Usage: spectrack [OPTIONS] COMMAND [ARGS]...\n")
    assert "\nCommands:\n" in run.err
    assert "spectrack: error:" not in run.err


def test_an_option_missing_its_value_is_one_line_with_where_to_read_more(capsys) -> None:
    run = run_cli(capsys, "log", "--since")
    assert run.code == 2
    assert run.err == (
        "spectrack: error: Option '--since' requires an argument. (see spectrack log --help)\n"
    )


def test_an_interrupted_command_says_so_and_exits_130(tmp_path: Path) -> None:
    """Ctrl-C while a fetch waits for a site that never answers: one line, exit 130."""
    with socket.create_server(("127.0.0.1", 0)) as silent_site:
        port = silent_site.getsockname()[1]
        (tmp_path / "spectrack.toml").write_text(
            f'[[source]]\nname = "lamps"\nsitemap = "http://127.0.0.1:{port}/sitemap.xml"\n'
        )
        process = subprocess.Popen(
            [sys.executable, "-m", "spectrack", "fetch", "--quiet"],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        # Once it asks for the sitemap, the command runs: the interpreter is past its imports.
        silent_site.settimeout(60)
        connection, _ = silent_site.accept()
        with connection:
            process.send_signal(signal.SIGINT)
            _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    # Click starts a new line first, past the ^C a terminal echoes.
    assert err.strip() == b"spectrack: aborted"


def test_ctrl_c_during_a_fetch_keeps_its_commits_and_leaves_the_store_clean(
    tmp_path: Path, site: LocalSite
) -> None:
    """The pages recorded before the Ctrl-C are committed, and `git status` of the store says
    nothing: it showed their files as staged changes until the next run."""
    pages = {f"/lamp/{name}": f"# {name}\n\nA lamp MAY dim.\n".encode() for name in "abc"}
    reached, release = threading.Event(), threading.Event()

    def hang(handler: object) -> Reply:
        reached.set()
        release.wait(30)
        return Reply(500)

    (tmp_path / "spectrack.toml").write_text(
        f'[[source]]\nname = "lamps"\nsitemap = "{site.url("/sitemap.xml")}"\n'
        'markdown = "{url}.md"\nconcurrency = 1\n'
    )
    fetch = [sys.executable, "-m", "spectrack", "fetch", "--quiet"]
    site.publish(pages)
    subprocess.run(fetch, cwd=tmp_path, check=True)
    site.publish({path: body + b"\nA lamp MUST dim.\n" for path, body in pages.items()})
    site.routes["/lamp/c.md"] = hang
    process = subprocess.Popen(fetch, cwd=tmp_path, stderr=subprocess.PIPE)
    snapshots = tmp_path / "snapshots"
    try:
        assert reached.wait(60)
        # The pages before it are answered: their commits are on their way once the run has
        # written their new text into the store's working tree.
        assert _eventually(
            lambda: all(
                b"MUST" in _read_or_empty(snapshots / "lamps" / "lamp" / f"{name}.md")
                for name in "ab"
            )
        )
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
    finally:
        release.set()
    assert (process.returncode, err) == (130, b"\nspectrack: aborted\n")
    with Store.open(snapshots) as store:
        assert [len(store.history(f"lamps/lamp/{name}")) for name in "abc"] == [2, 2, 1]
    assert git(snapshots, "status", "--porcelain", "--untracked-files=all") == ""


def _read_or_empty(path: Path) -> bytes:
    """A file's bytes, or none while it is not there yet."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return b""


def _eventually(condition: Callable[[], bool], timeout: float = 60.0) -> bool:
    """Whether ``condition`` holds within ``timeout`` seconds (polled every 10 ms)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.mark.parametrize("launch", ["python -m spectrack", "installed script"])
def test_ctrl_c_while_the_command_still_loads_is_as_quiet_as_later(
    tmp_path: Path, launch: str
) -> None:
    # A module the command loads (the Markdown parser's), found first here: it says that it
    # is loading, then waits for the Ctrl-C.
    (tmp_path / "markdown_it.py").write_text(
        "import time\nprint('loading', flush=True)\ntime.sleep(60)\n"
    )
    if launch == "installed script":
        pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
        entry = tomllib.loads(pyproject.read_text())["project"]["scripts"]["spectrack"]
        module, function = entry.split(":")
        # What an installer writes as the `spectrack` script.
        script = f"import sys\nfrom {module} import {function}\nsys.exit({function}())\n"
        command = [sys.executable, "-c", script, "--version"]
    else:
        command = [sys.executable, "-m", "spectrack", "--version"]
    process = subprocess.Popen(
        command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None
    assert process.stdout.readline() == b"loading\n"
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert (process.returncode, out, err) == (130, b"", b"\nspectrack: aborted\n")
