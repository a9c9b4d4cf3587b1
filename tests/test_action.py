"""The composite action and the documented workflows: consistent, injection-safe, and working."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from spectrack.formats import FORMATS
from spectrack.formats.github import outputs
from spectrack.formats.options import FormatOptions
from spectrack.model import Report
from tests.ci_support import LANTERN_V1, LANTERN_V2, new_repo

ROOT = Path(__file__).resolve().parents[1]
ACTION: dict[str, Any] = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
DOCS = (ROOT / "docs/ci.md").read_text(encoding="utf-8")
YAML_BLOCKS = re.findall(r"```yaml\n(.*?)```", DOCS, flags=re.DOTALL)


def run_step() -> dict[str, Any]:
    step: dict[str, Any] = next(s for s in ACTION["runs"]["steps"] if s.get("id") == "spectrack")
    return step


def step_environment(inputs: dict[str, str]) -> dict[str, str]:
    """The run step's environment for these inputs, with the test's Python first on PATH."""
    environment = {
        name: re.sub(r"\$\{\{ inputs\.([\w-]+) \}\}", lambda m: inputs[m.group(1)], value)
        for name, value in run_step()["env"].items()
    }
    environment["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    return environment


def run_script(
    script: str, cwd: Path, environment: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", script],
        cwd=cwd,
        env={**os.environ, **environment},
        capture_output=True,
        text=True,
        check=False,
    )


def workflow_steps(document: Any) -> list[dict[str, Any]]:
    if isinstance(document, dict) and "jobs" in document:
        return [step for job in document["jobs"].values() for step in job.get("steps", [])]
    return []


def test_action_outputs_mirror_what_the_github_format_writes() -> None:
    declared = set(ACTION["outputs"])
    assert declared == set(outputs(Report(), FormatOptions()))
    for name, output in ACTION["outputs"].items():
        assert output["value"] == f"${{{{ steps.spectrack.outputs.{name} }}}}"


def test_documented_workflows_parse_and_use_only_declared_inputs() -> None:
    documents = [yaml.safe_load(block) for block in YAML_BLOCKS]
    workflows = [d for d in documents if workflow_steps(d)]
    assert len(workflows) == 2, "a scheduled tracking workflow and a pull-request workflow"
    assert {"schedule", "workflow_dispatch"} <= set(workflows[0][True])  # YAML reads `on` as True
    assert "pull_request" in workflows[1][True]
    inputs = set(ACTION["inputs"])
    uses_action = 0
    for workflow in workflows:
        for step in workflow_steps(workflow):
            if str(step.get("uses", "")).startswith("OWNER/spectrack@"):
                uses_action += 1
                assert set(step.get("with", {})) <= inputs, step
                assert step["with"]["format"] in FORMATS
    assert uses_action == 2
    gitlab = next(d for d in documents if "spectrack" in d and "script" in d["spectrack"])
    assert gitlab["spectrack"]["artifacts"]["reports"]["junit"] == "spectrack-junit.xml"


def test_no_run_script_interpolates_expressions() -> None:
    """Expressions go through env: pasted into a script, a branch name could run as shell code."""
    scripts = [step["run"] for step in ACTION["runs"]["steps"] if "run" in step]
    for block in YAML_BLOCKS:
        document = yaml.safe_load(block)
        scripts += [step["run"] for step in workflow_steps(document) if "run" in step]
        if isinstance(document, dict) and "spectrack" in document:
            scripts += document["spectrack"]["script"]
    assert len(scripts) >= 6
    for script in scripts:
        assert "${{" not in script, script


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_the_action_script_runs_spectrack_with_its_inputs(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "spec")
    repo.write("docs/lantern.md", LANTERN_V1)
    base = repo.commit("first")
    repo.write("docs/lantern.md", LANTERN_V2)
    head = repo.commit("second")
    github_output = tmp_path / "github-output"
    inputs = {
        "command": f"diff {base}...{head} -- docs",
        "format": "github",
        "fail-on": "normative",
        "exit-zero": "false",
        "ack-file": "",
        "output": "sarif=spectrack.sarif junit=spectrack.xml",
    }
    step = run_step()
    environment = step_environment(inputs)
    environment["GITHUB_OUTPUT"] = str(github_output)
    done = run_script(step["run"], repo.root, environment)
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("::error file=docs/lantern.md,line=7,")
    values = dict(line.split("=", 1) for line in github_output.read_text().splitlines())
    assert values["verdict"] == "normative"
    assert values["normative_count"] == "1"
    sarif = json.loads((repo.root / "spectrack.sarif").read_text())
    assert sarif["runs"][0]["results"][0]["ruleId"] == "normative/strengthened"
    assert "<testsuites" in (repo.root / "spectrack.xml").read_text()

    environment["SPECTRACK_EXIT_ZERO"] = "true"
    relaxed = run_script(step["run"], repo.root, environment)
    assert relaxed.returncode == 0, relaxed.stderr


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_the_action_reads_inputs_written_over_several_lines(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "spec")
    repo.write("docs/lantern.md", LANTERN_V1)
    repo.write("notes/draft.md", "# Draft\n\nDrafts MAY change.\n")
    base = repo.commit("first")
    repo.write("docs/lantern.md", LANTERN_V2)
    repo.write("notes/draft.md", "# Draft\n\nDrafts MUST change.\n")
    head = repo.commit("second")
    # As a workflow writes them in YAML block scalars (`output: |`), one item a line.
    inputs = {
        "command": f"diff {base}...{head}\n-- docs\n",
        "format": "json",
        "fail-on": "never",
        "exit-zero": "false",
        "ack-file": "",
        "output": "sarif=spectrack.sarif\njunit=spectrack.xml\n",
    }
    done = run_script(run_step()["run"], repo.root, step_environment(inputs))
    assert done.returncode == 0, done.stderr
    assert [page["path"] for page in json.loads(done.stdout)["pages"]] == ["docs/lantern.md"]
    assert (repo.root / "spectrack.sarif").is_file()
    assert (repo.root / "spectrack.xml").is_file()
