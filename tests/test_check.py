"""`spectrack check`: a local site on 127.0.0.1, a real store in tmp_path, the CLI in-process."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from jsonschema.validators import validator_for
from junitparser import Failure, JUnitXml

from spectrack.check import PendingCheck, mark_checked, run_check
from spectrack.config import load_config
from spectrack.diff import diff_texts
from spectrack.errors import StoreBusyError
from spectrack.fingerprints import page_fingerprints
from spectrack.serve import LocalSite, Reply
from spectrack.store import Store
from spectrack.track import run_fetch
from tests.ci_support import Run, run_cli
from tests.conftest import RecordingSleep, StepClock
from tests.github_runner import read
from tests.storecheck import assert_consistent, git, head
from tests.test_action import ACTION, run_script, run_step, step_environment
from tests.test_format_sarif import sarif_schema

TOOLS_V1 = b"# Tools\n\nServers SHOULD validate input.\n"
TOOLS_V2 = b"# Tools\n\nServers MUST validate input.\n"
PROMPTS_V1 = b"# Prompts\n\nPrompts are templates.\n"
PROMPTS_V2 = b"# Prompts\n\nPrompts are reusable templates.\n"
V1 = {"/spec/tools": TOOLS_V1, "/spec/prompts": PROMPTS_V1}
V2 = {"/spec/tools": TOOLS_V2, "/spec/prompts": PROMPTS_V1}
TOOLS_FILE = "snapshots/spec/spec/tools.md"
"""Where the tools page is stored, from the working folder: what every format must point at."""


def config_text(site: LocalSite, *, ignore: tuple[str, ...] = (), store: str = "snapshots") -> str:
    top = f"ignore = {json.dumps(list(ignore))}\n\n" if ignore else ""
    return (
        f'{top}[store]\npath = "{store}"\nlock_wait = 2\n\n'
        "[fetch]\nretries = 0\ntimeout = 5\n\n"
        f'[[source]]\nname = "spec"\nsitemap = "{site.url("/sitemap.xml")}"\n'
        'markdown = "{url}.md"\n'
    )


@pytest.fixture
def site(site: LocalSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> LocalSite:
    """The local site serving V1, and a working folder whose spectrack.toml tracks it."""
    monkeypatch.chdir(tmp_path)
    Path("spectrack.toml").write_text(config_text(site))
    site.publish(V1, lastmod="2025-03-26")
    return site


def check(capsys: pytest.CaptureFixture[str], *args: str) -> Run:
    return run_cli(capsys, "check", "--quiet", *args)


def json_pages(run: Run) -> dict[str, str]:
    """Page path → status of a ``--format json`` report."""
    return {page["path"]: page["status"] for page in json.loads(run.out)["pages"]}


def marker() -> str | None:
    with Store.open(Path("snapshots")) as store:
        return store.checked("spec")


def tools_fingerprint() -> str:
    """The fingerprint of the SHOULD → MUST change, as any report of the stored page shows it."""
    page = diff_texts(TOOLS_V1.decode(), TOOLS_V2.decode(), "spec/spec/tools.md")
    (fingerprint,) = page_fingerprints(page)
    return fingerprint


def test_the_first_check_reports_every_page_and_a_second_one_nothing(
    site: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    first = check(capsys, "--format", "json")
    assert first.code == 0, first.err
    assert json_pages(first) == {"spec/spec/prompts.md": "added", "spec/spec/tools.md": "added"}
    checked = marker()
    assert checked is not None
    with Store.open(Path("snapshots")) as store:
        assert {r.commit for r in store.revisions_between(None, checked)} == {
            r.commit for r in store.revisions()
        }, "the marker sits after every revision the report covered"
    store_head = head(Path("snapshots"))

    second = check(capsys, "--format", "json", "--fail-on", "formatting")
    assert second.code == 0, second.err
    assert json_pages(second) == {}
    assert json.loads(second.out)["verdict"] == "unchanged"
    assert head(Path("snapshots")) == store_head, "nothing new: no commit, the marker stays"
    assert marker() == checked
    assert_consistent(Path("snapshots"))


def test_a_normative_change_fails_and_every_format_points_at_the_stored_file(
    site: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    assert check(capsys).code == 0
    site.publish(V2, lastmod="2025-06-18")
    run = check(
        capsys,
        "--format",
        "github",
        "--fail-on",
        "normative",
        "--output",
        "sarif=spectrack.sarif",
        "--output",
        "junit=spectrack.xml",
    )
    assert run.code == 1, run.err
    errors = [command for command in read(run.out).commands if command.name == "error"]
    assert len(errors) == 1
    assert errors[0].properties["file"] == TOOLS_FILE
    assert errors[0].properties["line"] == "3"
    assert "Servers MUST validate input." in Path(TOOLS_FILE).read_text().splitlines()[2]
    assert f"fingerprint: {tools_fingerprint()}" in errors[0].data

    sarif: dict[str, Any] = json.loads(Path("spectrack.sarif").read_text())
    (result,) = sarif["runs"][0]["results"]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == TOOLS_FILE
    assert location["region"]["startLine"] == 3
    assert result["ruleId"] == "normative/strengthened"

    junit = JUnitXml.fromfile("spectrack.xml")
    cases = {case.name: case for suite in junit for case in suite}
    assert list(cases) == ["spec/spec/tools.md"]
    (failure,) = [r for r in cases["spec/spec/tools.md"].result if isinstance(r, Failure)]
    assert failure.text.startswith(f"{TOOLS_FILE}:3: normative strengthened")

    again = check(capsys, "--format", "github", "--fail-on", "normative")
    assert again.code == 0, "the change was reported; the next check reports only newer ones"
    assert not [command for command in read(again.out).commands if command.name == "error"]

    schema = sarif_schema()
    validator_for(schema)(schema).validate(sarif)


def test_a_change_acknowledged_in_the_ack_file_passes_and_is_still_shown(
    site: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    assert check(capsys).code == 0
    site.publish(V2, lastmod="2025-06-18")
    assert run_cli(capsys, "fetch", "--quiet").code == 0
    preview = run_cli(capsys, "diff", "spec/spec/tools", "--format", "github")
    (error,) = [c for c in read(preview.out).commands if c.name == "error"]
    fingerprint = re.search(r"fingerprint: ([0-9a-f]{16})", error.data)
    assert fingerprint is not None and fingerprint.group(1) == tools_fingerprint()
    assert run_cli(capsys, "ack", fingerprint.group(1), "--reason", "Validated already").code == 0

    run = check(capsys, "--format", "github", "--fail-on", "normative")
    assert run.code == 0, run.err
    commands = read(run.out).commands
    assert not [command for command in commands if command.name == "error"]
    (notice,) = [command for command in commands if command.name == "notice"]
    assert notice.properties["file"] == TOOLS_FILE
    assert "acknowledged: Validated already" in notice.data
    assert run.err == ""


def test_the_ignore_list_acknowledges_changes_and_warns_about_unknown_ones(
    site: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    assert check(capsys).code == 0
    unknown = "0123456789abcdef"
    Path("spectrack.toml").write_text(
        config_text(site, ignore=(tools_fingerprint().upper(), unknown))
    )
    site.publish(V2, lastmod="2025-06-18")
    run = run_cli(capsys, "check", "--fail-on", "normative")
    assert run.code == 0, run.err
    assert "✓ acknowledged" in run.out and "SHOULD → MUST" in run.out
    warning = f"spectrack: warning: spectrack.toml, ignore[1]: {unknown} matches no change here\n"
    assert run.err.endswith(warning)
    site.publish(V1, lastmod="2025-06-19")
    # Each change is reported once: every later check warns unless --quiet, as for other warnings.
    quiet = check(capsys, "--fail-on", "normative")
    assert (quiet.code, quiet.err) == (1, "")


def test_the_ignore_list_reason_names_its_entry(
    site: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    assert check(capsys).code == 0
    Path("spectrack.toml").write_text(config_text(site, ignore=(tools_fingerprint(),)))
    site.publish(V2, lastmod="2025-06-18")
    run = check(capsys, "--format", "github", "--fail-on", "normative")
    assert run.code == 0, run.err
    (notice,) = [c for c in read(run.out).commands if c.name == "notice"]
    assert "acknowledged: spectrack.toml, ignore[0]" in notice.data


def test_the_ack_file_is_read_beside_the_configuration(
    site: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("spectrack.toml").unlink()
    Path("tracking").mkdir()
    Path("tracking/spectrack.toml").write_text(config_text(site))
    Path("spectrack-ack.toml").write_text("[[ack]\n")  # read by mistake, it would be an error
    assert check(capsys, "--config", "tracking/spectrack.toml").code == 0
    site.publish(V2, lastmod="2025-06-18")
    assert (
        run_cli(
            capsys,
            "ack",
            tools_fingerprint(),
            "--reason",
            "beside the configuration",
            "--config",
            "tracking/spectrack.toml",
        ).code
        == 0
    )
    assert Path("spectrack-ack.toml").read_text() == "[[ack]\n", "the other file is left alone"
    missing = run_cli(capsys, "ack", tools_fingerprint(), "--reason", "r", "--config", "none.toml")
    assert (missing.code, missing.err) == (
        2,
        "spectrack: error: none.toml: no such configuration file\n",
    )
    absolute = str(Path.cwd() / "tracking/spectrack.toml")
    run = check(capsys, "--config", absolute, "--format", "github", "--fail-on", "normative")
    assert run.code == 0, run.err
    (notice,) = [c for c in read(run.out).commands if c.name == "notice"]
    assert notice.properties["file"] == "tracking/" + TOOLS_FILE, "from the working folder"
    assert "acknowledged: beside the configuration" in notice.data


def test_store_files_are_named_from_the_work_tree_root_in_a_job_run_in_a_subfolder(
    site: LocalSite, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    git(Path.cwd(), "init", "-q")
    Path("tracking").mkdir()
    Path("spectrack.toml").rename("tracking/spectrack.toml")
    monkeypatch.chdir("tracking")
    assert check(capsys).code == 0
    site.publish(V2, lastmod="2025-06-18")
    run = check(capsys, "--format", "github", "--fail-on", "normative")
    assert run.code == 1, run.err
    (error,) = [c for c in read(run.out).commands if c.name == "error"]
    assert error.properties["file"] == "tracking/" + TOOLS_FILE


def test_fetch_failures_exit_3_unless_a_change_reaches_fail_on(
    site: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    assert check(capsys).code == 0
    site.publish({**V1, "/spec/prompts": PROMPTS_V2}, lastmod="2025-06-18")
    site.routes["/spec/tools.md"] = Reply(500, b"down\n")
    editorial = check(capsys, "--format", "json", "--fail-on", "normative")
    assert editorial.code == 3
    assert json_pages(editorial) == {"spec/spec/prompts.md": "modified"}
    assert f"spectrack: failed: {site.url('/spec/tools.md')}" in editorial.err

    site.publish({"/spec/tools": TOOLS_V2, "/spec/prompts": PROMPTS_V1}, lastmod="2025-07-01")
    site.routes["/spec/prompts.md"] = Reply(500, b"down\n")
    normative = check(capsys, "--format", "json", "--fail-on", "normative")
    assert normative.code == 1, "findings win over fetch failures"
    assert json_pages(normative) == {"spec/spec/tools.md": "modified"}
    relaxed = check(capsys, "--fail-on", "normative", "--exit-zero")
    assert relaxed.code == 3, "--exit-zero never hides an incomplete run"


def test_a_report_that_cannot_be_written_leaves_the_marker(
    site: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    assert check(capsys).code == 0
    before = marker()
    site.publish(V2, lastmod="2025-06-18")
    Path("taken.sarif").mkdir()
    failed = check(capsys, "--fail-on", "normative", "--output", "sarif=taken.sarif")
    assert failed.code == 2
    assert failed.err.startswith("spectrack: error: taken.sarif: cannot write the sarif report")
    assert marker() == before

    retried = check(capsys, "--format", "json", "--fail-on", "normative")
    assert retried.code == 1, "the change is reported again"
    assert json_pages(retried) == {"spec/spec/tools.md": "modified"}
    assert marker() != before
    assert check(capsys, "--fail-on", "normative").code == 0


def test_a_store_busy_after_the_report_is_a_warning_and_the_verdict_is_the_exit_code(
    site: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("spectrack.toml").write_text(config_text(site).replace("lock_wait = 2", "lock_wait = 0.2"))
    assert check(capsys).code == 0
    before = marker()
    many = "".join(f"Servers MUST check field {n}.\n\n" for n in range(300)).encode()
    site.publish({**V2, "/spec/tools": TOOLS_V2 + b"\n" + many}, lastmod="2025-06-18")
    # Another run takes the store's lock while the check writes its SARIF report to a FIFO: the
    # report, far larger than a pipe holds, is read whole only once the lock is held, so the
    # check reaches its markers with the store busy.
    sarif = Path("report.sarif")
    os.mkfifo(sarif)
    finished = threading.Event()
    received: list[bytes] = []

    def another_run() -> None:
        with sarif.open("rb") as report, Store.open(Path("snapshots")) as store, store.lock(30):
            received.append(report.read())
            finished.wait(30)

    other = threading.Thread(target=another_run)
    other.start()
    try:
        busy = check(capsys, "--fail-on", "normative", "--output", f"sarif={sarif}")
    finally:
        finished.set()
        other.join()
    assert busy.code == 1, "the report's verdict is the job's result"
    assert len(json.loads(received[0])["runs"][0]["results"]) == 301
    (warning,) = busy.err.splitlines()
    assert warning.startswith(
        "spectrack: warning: the check markers did not move, so the next check reports these "
        "changes again: snapshots: another spectrack run is using the store"
    )
    assert marker() == before
    again = check(capsys, "--format", "json", "--fail-on", "normative")
    assert again.code == 1 and json_pages(again) == {"spec/spec/tools.md": "modified"}
    assert marker() != before


def test_a_missing_ack_file_stops_a_check_before_its_fetch(
    site: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    run = check(capsys, "--ack-file", "acks.toml")
    assert (run.code, run.out) == (2, "")
    assert run.err == "spectrack: error: acks.toml: no such acknowledgement file\n"
    assert site.requests == [] and not Path("snapshots").exists()


def test_an_output_in_a_missing_folder_stops_a_check_before_its_fetch(
    site: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    run = check(capsys, "--output", "sarif=reports/spectrack.sarif")
    assert (run.code, run.out) == (2, "")
    assert run.err == (
        "spectrack: error: reports/spectrack.sarif: cannot write the sarif report (reports does "
        "not exist)\n"
    )
    Path("reports").write_text("a file where the folder should be\n")
    run = check(capsys, "--output", "sarif=reports/spectrack.sarif")
    assert run.err == (
        "spectrack: error: reports/spectrack.sarif: cannot write the sarif report (reports is a "
        "file, not a folder)\n"
    )
    assert site.requests == [] and not Path("snapshots").exists()


def test_a_closed_standard_output_leaves_the_marker(site: LocalSite) -> None:
    closed = ["sh", "-c", '"$@" >&-', "sh", sys.executable, "-m", "spectrack"]
    run = subprocess.run(
        [*closed, "check", "--quiet", "--fail-on", "normative"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (run.returncode, run.stderr) == (
        2,
        "spectrack: error: cannot write the report to standard output (it is closed)\n",
    )
    assert marker() is None, "the next check reports the same pages"


def test_the_marker_travels_with_a_clone_of_the_store(
    site: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    assert check(capsys).code == 0
    subprocess.run(["git", "clone", "-q", "snapshots", "cloned"], check=True)
    Path("spectrack.toml").write_text(config_text(site, store="cloned"))
    run = check(capsys, "--format", "json", "--fail-on", "formatting")
    assert run.code == 0, run.err
    assert json_pages(run) == {}

    url = (Path.cwd() / "snapshots").as_uri()
    subprocess.run(["git", "clone", "-q", "--depth", "1", url, "shallow"], check=True)
    Path("spectrack.toml").write_text(config_text(site, store="shallow"))
    shallow = check(capsys)
    assert shallow.code == 2
    assert "which this clone of the store lacks" in shallow.err
    assert "fetch-depth: 0" in shallow.err


@pytest.mark.parametrize(
    "damage",
    [
        b"not json\n",
        b'{"commit": "HEAD"}\n',
        b'{"commit": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    ],
)
def test_a_damaged_marker_is_a_one_line_error_naming_it_and_is_left_as_it_is(
    site: LocalSite, capsys: pytest.CaptureFixture[str], damage: bytes
) -> None:
    assert check(capsys).code == 0
    marker_file = Path("snapshots/.spectrack/checks/spec.json")
    marker_file.write_bytes(damage)
    git(Path("snapshots"), "commit", "--quiet", "--all", "--message", "Edited by hand")
    store_head = head(Path("snapshots"))
    run = check(capsys)
    assert run.code == 2
    assert run.err.startswith("spectrack: error: ") and run.err.count("\n") == 1
    assert ".spectrack/checks/spec.json: unreadable check marker" in run.err
    assert head(Path("snapshots")) == store_head and marker_file.read_bytes() == damage


def test_checking_one_source_moves_only_its_marker(
    site: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    sitemap = site.url("/sitemap.xml")
    Path("spectrack.toml").write_text(
        "[fetch]\nretries = 0\n\n"
        f'[[source]]\nname = "tools"\nsitemap = "{sitemap}"\nmarkdown = "{{url}}.md"\n'
        'include = ["/spec/tools"]\n\n'
        f'[[source]]\nname = "prompts"\nsitemap = "{sitemap}"\nmarkdown = "{{url}}.md"\n'
        'include = ["/spec/prompts"]\n'
    )
    only_tools = check(capsys, "--source", "tools", "--format", "json")
    assert only_tools.code == 0, only_tools.err
    assert json_pages(only_tools) == {"tools/spec/tools.md": "added"}
    everything = check(capsys, "--format", "json")
    assert json_pages(everything) == {"prompts/spec/prompts.md": "added"}
    assert json_pages(check(capsys, "--format", "json")) == {}
    unknown = check(capsys, "--source", "nope")
    assert unknown.code == 2 and "no source named 'nope'" in unknown.err


def test_changes_recorded_while_a_check_reports_are_left_for_the_next_one(
    site: LocalSite,
) -> None:
    config = load_config(Path("spectrack.toml"))
    clock, sleep = StepClock(), RecordingSleep()
    pending = run_check(config, clock=clock, sleep=sleep)
    assert [page.path for page in pending.comparison.report.pages] == [
        "spec/spec/prompts.md",
        "spec/spec/tools.md",
    ]
    site.publish(V2, lastmod="2025-06-18")
    assert run_fetch(config, clock=clock, sleep=sleep).ok
    assert mark_checked(config, pending, clock) == ("spec",)
    later = run_check(config, clock=clock, sleep=sleep)
    assert [(p.path, p.verdict) for p in later.comparison.report.pages] == [
        ("spec/spec/tools.md", "normative")
    ]
    assert mark_checked(config, later, clock) == ("spec",)
    assert mark_checked(config, pending, clock) == (), "a marker never moves back"
    assert marker() == later.head


def test_a_check_waits_for_the_one_reporting_and_reports_only_what_follows_it(
    site: LocalSite,
) -> None:
    # Margin for the second check's wait: the test lets it wait a full second.
    Path("spectrack.toml").write_text(config_text(site).replace("lock_wait = 2", "lock_wait = 30"))
    config = load_config(Path("spectrack.toml"))
    assert mark_checked(config, run_check(config)) == ("spec",)
    site.publish(V2, lastmod="2025-06-18")
    first = run_check(config)
    assert [page.path for page in first.comparison.report.pages] == ["spec/spec/tools.md"]
    later: list[PendingCheck] = []
    second = threading.Thread(target=lambda: later.append(run_check(config)))
    second.start()
    second.join(timeout=1.0)
    assert second.is_alive(), "the second check waits while the first one's report is written"
    assert mark_checked(config, first) == ("spec",)
    second.join()
    (pending,) = later
    assert (pending.comparison.report.pages, pending.sources) == ((), ())
    assert mark_checked(config, pending) == ()
    assert marker() == first.head


def test_a_check_whose_report_was_not_written_lets_the_next_one_report(
    site: LocalSite,
) -> None:
    Path("spectrack.toml").write_text(config_text(site).replace("lock_wait = 2", "lock_wait = 0.1"))
    config = load_config(Path("spectrack.toml"))
    with (
        run_check(config) as unwritten,
        pytest.raises(StoreBusyError, match="another spectrack run is using the store"),
    ):
        run_check(config)
    again = run_check(config)
    assert again.comparison.report.pages == unwritten.comparison.report.pages
    assert mark_checked(config, again) == ("spec",)


def test_a_page_edited_back_between_checks_is_not_reported(
    site: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    assert check(capsys).code == 0
    site.publish(V2, lastmod="2025-06-18")
    assert run_cli(capsys, "fetch", "--quiet").code == 0
    site.publish(V1, lastmod="2025-06-19")
    assert run_cli(capsys, "fetch", "--quiet").code == 0
    run = check(capsys, "--format", "json", "--fail-on", "formatting")
    assert run.code == 0 and json_pages(run) == {}


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_the_action_runs_check_by_default(site: LocalSite) -> None:
    inputs = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    assert inputs["command"] == "check"
    github_output = Path("github-output")
    environment = step_environment(inputs)
    environment["GITHUB_OUTPUT"] = str(github_output.resolve())

    def run_action() -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
        github_output.write_text("")
        done = run_script(run_step()["run"], Path.cwd(), environment)
        values = dict(line.split("=", 1) for line in github_output.read_text().splitlines())
        return done, values

    first, values = run_action()
    assert first.returncode == 1, first.stderr
    assert values["verdict"] == "normative", "the first check reports the pages, as added"
    second, values = run_action()
    assert second.returncode == 0, second.stderr
    assert values["verdict"] == "unchanged"
    site.publish(V2, lastmod="2025-06-18")
    third, values = run_action()
    assert third.returncode == 1
    assert third.stdout.startswith(f"::error file={TOOLS_FILE},line=3,")
    assert (values["verdict"], values["normative_count"]) == ("normative", "1")
