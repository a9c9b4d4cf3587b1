from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from spectrack.gitrev import RevisionRange, compare_inputs, revision_range
from tests.ci_support import GLOSSARY, LANTERN_V1, LANTERN_V2, GitRepo, new_repo, run_cli

PREAMBLE = "# Lantern signals\n\nThis paragraph was added at the top.\n\nAnd this one too.\n\n"

RENAMED_OLD = """\
# Wicks

Wicks are trimmed by hand.

A wick MUST be trimmed before lighting.

Spare wicks are kept dry.

Old wicks are recycled.
"""

RENAMED_NEW = """\
# Wicks

Wicks are trimmed by hand.

Spare wicks are kept dry.

Old wicks are recycled.
"""


@pytest.fixture
def spec_repo(tmp_path: Path, monkeypatch: Any) -> tuple[GitRepo, str, str]:
    """A repository whose second commit changes the spec under docs/ in every way; the cwd."""
    repo = new_repo(tmp_path / "spec-repo")
    repo.write("README.md", "# About\n\nThis repository SHOULD be read first.\n")
    repo.write("docs/spec/lantern.md", LANTERN_V1)
    repo.write("docs/glossary.md", GLOSSARY)
    repo.write("docs/wicks.md", RENAMED_OLD)
    repo.write("docs/retired.md", "# Retired\n\nRetired lanterns MAY be kept.\n")
    repo.write("docs/notes.txt", "Not a page: MUST be ignored.\n")
    base = repo.commit("first")
    repo.write("README.md", "# About\n\nThis repository MUST be read first.\n")
    repo.write("docs/spec/lantern.md", LANTERN_V2.replace("# Lantern signals\n\n", PREAMBLE, 1))
    (repo.root / "docs/wicks.md").unlink()
    repo.write("docs/candles/wicks.md", RENAMED_NEW)
    (repo.root / "docs/retired.md").unlink()
    repo.write("docs/added.mdx", "# Added\n\nNew lanterns SHOULD be registered.\n")
    repo.write("docs/notes.txt", "Still not a page: MUST be ignored, twice.\n")
    head = repo.commit("second")
    monkeypatch.chdir(repo.root)
    return repo, base, head


def diff_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    run = run_cli(capsys, "diff", "--format", "json", *args)
    assert run.code == 0, run.err
    loaded: dict[str, Any] = json.loads(run.out)
    return loaded


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def test_diff_between_two_commits_under_a_path(
    spec_repo: tuple[GitRepo, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    repo, base, head = spec_repo
    report = diff_json(capsys, base, head, "--", "docs")
    pages = {page["path"]: page for page in report["pages"]}
    assert {path: page["status"] for path, page in pages.items()} == {
        "docs/added.mdx": "added",
        "docs/candles/wicks.md": "modified",
        "docs/glossary.md": "unchanged",
        "docs/retired.md": "removed",
        "docs/spec/lantern.md": "modified",
    }
    assert report["verdict"] == "normative"
    head_text = (repo.root / "docs/spec/lantern.md").read_text()
    strengthened = next(
        c for c in pages["docs/spec/lantern.md"]["changes"] if c["kind"] == "strengthened"
    )
    assert strengthened["new"]["line"] == line_of(head_text, "MUST carry") == 11
    assert strengthened["old"]["line"] == line_of(LANTERN_V1, "SHOULD carry") == 7
    wick = pages["docs/candles/wicks.md"]["changes"]
    assert [(c["class"], c["kind"], c["old"]["line"]) for c in wick] == [
        ("normative", "removed", line_of(RENAMED_OLD, "MUST be trimmed"))
    ]


def test_a_path_with_no_page_in_either_revision_is_an_error(
    spec_repo: tuple[GitRepo, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    _, base, head = spec_repo
    run = run_cli(capsys, "diff", "--fail-on", "normative", base, head, "--", "dcos")
    assert run.code == 2
    assert run.err == (
        f"spectrack: error: dcos: no Markdown or MDX page there in {base} or {head}\n"
    )


def test_range_forms_and_the_whole_repository(
    spec_repo: tuple[GitRepo, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    _, base, head = spec_repo
    two_args = diff_json(capsys, base, head, "--", "docs")
    assert diff_json(capsys, f"{base}..{head}", "--", "docs") == two_args
    assert diff_json(capsys, f"{base}..", "docs") == two_args
    everything = diff_json(capsys, base, head)
    assert {p["path"] for p in everything["pages"]} == {
        "README.md",
        *(p["path"] for p in two_args["pages"]),
    }


def test_paths_are_relative_to_the_folder_and_pages_to_the_root(
    spec_repo: tuple[GitRepo, str, str], capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    repo, base, head = spec_repo
    monkeypatch.chdir(repo.root / "docs")
    inside = diff_json(capsys, base, head, "--", "spec")
    assert [p["path"] for p in inside["pages"]] == ["docs/spec/lantern.md"]
    monkeypatch.chdir(repo.root.parent)
    elsewhere = diff_json(capsys, "--repo", str(repo.root / "docs"), base, head, "--", "spec")
    assert elsewhere == inside


def test_three_dots_compare_with_where_the_branch_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    repo = new_repo(tmp_path / "branches")
    repo.write("docs/lantern.md", LANTERN_V1)
    repo.write("docs/glossary.md", GLOSSARY)
    repo.commit("start")
    repo.git("checkout", "-q", "-b", "feature")
    repo.write("docs/lantern.md", LANTERN_V2)
    repo.commit("feature work")
    repo.git("checkout", "-q", "main")
    repo.write("docs/glossary.md", GLOSSARY.replace("any device", "any small device"))
    repo.commit("main moves on")
    monkeypatch.chdir(repo.root)
    since_fork = diff_json(capsys, "main...feature", "--", "docs")
    tips = diff_json(capsys, "main..feature", "--", "docs")
    status = {p["path"]: p["verdict"] for p in since_fork["pages"]}
    assert status == {"docs/glossary.md": "unchanged", "docs/lantern.md": "normative"}
    assert {p["path"]: p["verdict"] for p in tips["pages"]}["docs/glossary.md"] == "editorial"


def test_removed_lines_of_a_renamed_page_point_at_the_old_path(
    spec_repo: tuple[GitRepo, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    _, base, head = spec_repo
    run = run_cli(capsys, "diff", "--format", "sarif", base, head, "--", "docs")
    results = json.loads(run.out)["runs"][0]["results"]
    located = {
        (r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
        for r in results
    }
    assert ("normative/removed", "docs/wicks.md") in located
    assert ("normative/removed", "docs/retired.md") in located
    assert ("normative/strengthened", "docs/spec/lantern.md") in located


def test_exit_codes_with_revisions(
    spec_repo: tuple[GitRepo, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    repo, base, head = spec_repo
    assert run_cli(capsys, "diff", "--fail-on", "normative", base, head, "--", "docs").code == 1
    quiet = run_cli(
        capsys, "diff", "--fail-on", "normative", "--exit-zero", base, head, "--", "docs"
    )
    assert quiet.code == 0
    assert "strengthened" in quiet.out
    misplaced = run_cli(capsys, "diff", base, head, "--", "docs", "--fail-on", "normative")
    assert misplaced.code == 2
    assert "options go before --" in misplaced.err
    unknown = run_cli(capsys, "diff", base, "no-such-branch", "--", "docs")
    assert unknown.code == 2
    assert unknown.err.startswith("spectrack: error: no-such-branch: not a commit")
    assert "Traceback" not in unknown.err
    outside = run_cli(capsys, "diff", "--repo", str(repo.root.parent), base, head)
    assert outside.code == 2
    assert "not inside a git repository" in outside.err


def test_a_bare_repository_is_compared_from_its_objects(
    spec_repo: tuple[GitRepo, str, str], capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    repo, base, head = spec_repo
    under_docs = diff_json(capsys, base, head, "--", "docs")
    everything = diff_json(capsys, base, head)
    bare = repo.root.parent / "spec.git"
    repo.git("clone", "-q", "--bare", str(repo.root), str(bare))
    monkeypatch.chdir(repo.root.parent)
    assert diff_json(capsys, "--repo", str(bare), base, head, "--", "docs") == under_docs
    assert diff_json(capsys, "--repo", str(bare), f"{base}..{head}") == everything
    monkeypatch.chdir(bare)
    assert diff_json(capsys, base, head) == everything


def test_a_repository_in_a_folder_named_in_latin1_is_compared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    repo = new_repo(tmp_path / os.fsdecode(b"caf\xe9"))
    repo.write("docs/lantern.md", LANTERN_V1)
    base = repo.commit("v1")
    repo.write("docs/lantern.md", LANTERN_V2)
    head = repo.commit("v2")
    monkeypatch.chdir(repo.root)
    report = diff_json(capsys, base, head)
    assert [(p["path"], p["verdict"]) for p in report["pages"]] == [
        ("docs/lantern.md", "normative")
    ]


def test_revision_range_reads_the_command_line(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "old.md").write_text("# A\n")
    (tmp_path / "new.md").write_text("# B\n")
    here = Path(".")
    assert revision_range("old.md", "new.md", (), None) is None
    assert revision_range("v1", "v2", (), None) == RevisionRange(here, "v1", "v2")
    assert revision_range("v1..v2", None, (), None) == RevisionRange(here, "v1", "v2")
    assert revision_range("v1..v2", "docs", ("more",), None) == RevisionRange(
        here, "v1", "v2", ("docs", "more")
    )
    assert revision_range("main...", None, (), None) == RevisionRange(
        here, "main", "HEAD", (), since_merge_base=True
    )
    assert revision_range("v1", None, ("docs",), tmp_path) == RevisionRange(
        tmp_path, "v1", "HEAD", ("docs",)
    )


def test_a_parent_folder_in_a_missing_path_is_no_revision_range(
    spec_repo: tuple[GitRepo, str, str], capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    repo, base, head = spec_repo
    monkeypatch.chdir(repo.root / "docs")
    assert revision_range("../docs/missing.md", "glossary.md", (), None) is None
    assert revision_range("nowhere/../glossary.md", "glossary.md", (), None) is None
    assert revision_range("origin/main..HEAD", None, (), None) == RevisionRange(
        Path("."), "origin/main", "HEAD"
    )
    run = run_cli(capsys, "diff", "../docs/missing.md", "glossary.md")
    assert (run.code, run.out) == (2, "")
    assert run.err == "spectrack: error: ../docs/missing.md: no such file or directory\n"
    ranged = diff_json(capsys, f"{base}..{head}", "--", ".")
    assert "docs/added.mdx" in {page["path"] for page in ranged["pages"]}


def test_page_names_that_are_not_utf8_stay_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    repo = new_repo(tmp_path / "latin1")
    # Latin-1 names, as an old file system might write them: two pages one byte apart.
    acute, grave = (os.fsdecode(b"docs/kettle-caf" + byte + b".md") for byte in (b"\xe9", b"\xe8"))
    for name in (acute, grave):
        repo.write(name, "# Kettle\n\nThe kettle MAY whistle.\n")
    base = repo.commit("two kettles")
    repo.write(acute, "# Kettle\n\nThe kettle MUST whistle.\n")
    head = repo.commit("one kettle must")
    monkeypatch.chdir(repo.root)
    report = compare_inputs(base, head, ("docs",), None).report
    assert {page.path: page.verdict for page in report.pages} == {
        acute: "normative",
        grave: "unchanged",
    }
    assert len(diff_json(capsys, base, head, "--", "docs")["pages"]) == 2


def test_pages_come_from_git_objects_and_bad_bytes_are_named(
    spec_repo: tuple[GitRepo, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    repo, base, head = spec_repo
    committed = diff_json(capsys, base, head, "--", "docs")
    repo.write("docs/spec/lantern.md", "# Scribbled over in the working tree\n")
    assert diff_json(capsys, base, head, "--", "docs") == committed
    (repo.root / "docs/spec/lantern.md").write_bytes(b"# Lantern\n\n\xff\xfe broken\n")
    broken = repo.commit("bad bytes")
    run = run_cli(capsys, "diff", head, broken, "--", "docs")
    assert run.code == 2
    assert run.err.startswith(f"spectrack: error: {broken}:docs/spec/lantern.md: not UTF-8")
    whole = run_cli(capsys, "diff", head, broken)
    assert whole.code == 2
    assert whole.err.startswith(f"spectrack: error: {broken}:docs/spec/lantern.md: not UTF-8")


def test_glob_and_exclude_paths_count_unchanged_pages_as_git_diff_reads_them(
    spec_repo: tuple[GitRepo, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _, head = spec_repo
    repo.write("docs/notes.txt", "Only the notes changed this time.\n")
    notes_only = repo.commit("notes only")
    globbed = diff_json(capsys, head, notes_only, "--", "docs/*.md")
    assert {p["path"]: p["status"] for p in globbed["pages"]} == {
        "docs/glossary.md": "unchanged",
        "docs/candles/wicks.md": "unchanged",
        "docs/spec/lantern.md": "unchanged",
    }
    excluded = diff_json(capsys, head, notes_only, "--", "docs", ":(exclude)docs/spec")
    assert "docs/spec/lantern.md" not in {p["path"] for p in excluded["pages"]}
    assert "docs/added.mdx" in {p["path"] for p in excluded["pages"]}


def test_three_dots_without_a_common_ancestor_say_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    repo = new_repo(tmp_path / "origin")
    repo.write("docs/lantern.md", LANTERN_V1)
    repo.commit("start")
    repo.git("checkout", "-q", "-b", "feature")
    repo.write("docs/lantern.md", LANTERN_V2)
    repo.commit("feature work")
    repo.git("checkout", "-q", "main")
    repo.write("docs/glossary.md", GLOSSARY)
    repo.commit("main moves on")
    # What a CI checkout of depth 1 holds: each branch tip, without the commit they share.
    shallow = tmp_path / "shallow"
    url = (tmp_path / "origin").as_uri()
    repo.git("clone", "-q", "--depth", "1", "--no-single-branch", url, str(shallow))
    monkeypatch.chdir(shallow)
    run = run_cli(capsys, "diff", "--fail-on", "normative", "origin/main...origin/feature")
    assert (run.code, run.out) == (2, "")
    assert run.err == (
        "spectrack: error: origin/main...origin/feature: no common ancestor in the git "
        f"repository {shallow} (a shallow clone? fetch the history of both, e.g. fetch-depth: 0)\n"
    )


def test_a_range_of_two_empty_revisions_is_an_error(
    spec_repo: tuple[GitRepo, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    # `diff ${BASE}...${HEAD} -- docs` with both variables unset, as on a push event.
    run = run_cli(capsys, "diff", "--fail-on", "normative", "...", "--", "docs")
    assert (run.code, run.out) == (2, "")
    assert run.err == "spectrack: error: ...: a range that names neither revision\n"


@pytest.mark.parametrize("written", ["...HEAD", "..HEAD"])
def test_a_range_with_no_base_is_an_error(
    written: str, spec_repo: tuple[GitRepo, str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    # `diff ${BASE}...${HEAD}` with BASE unset, as on a push event, compared HEAD with itself.
    run = run_cli(capsys, "diff", "--fail-on", "normative", written, "--", "docs")
    assert (run.code, run.out) == (2, "")
    assert run.err == (
        f"spectrack: error: {written}: a range with no BASE revision (an unset variable?); "
        f"write HEAD{written} to compare from HEAD\n"
    )


def test_a_repository_with_no_page_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    repo = new_repo(tmp_path / "code")
    repo.write("main.c", "int main(void) { return 0; }\n")
    first = repo.commit("first")
    repo.write("main.c", "int main(void) { return 1; }\n")
    second = repo.commit("second")
    monkeypatch.chdir(tmp_path)
    run = run_cli(capsys, "diff", "--fail-on", "normative", "--repo", "code", first, second)
    assert (run.code, run.out) == (2, "")
    assert run.err == (
        f"spectrack: error: the git repository {repo.root}: no Markdown or MDX page there in "
        f"{first} or {second}\n"
    )


def test_a_repository_of_another_owner_is_named_with_the_way_to_allow_it(
    spec_repo: tuple[GitRepo, str, str], capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    repo, base, head = spec_repo
    # git's own switch for what a CI container sees: a checkout owned by another user.
    monkeypatch.setenv("GIT_TEST_ASSUME_DIFFERENT_OWNER", "1")
    if run_cli(capsys, "diff", base, head, "--", "docs").code == 0:
        pytest.skip("this git does not check the owner of a repository")
    run = run_cli(capsys, "diff", "--fail-on", "normative", base, head, "--", "docs")
    assert (run.code, run.out) == (2, "")
    assert run.err == (
        "spectrack: error: .: git refuses a repository owned by another user; allow it with: "
        f"git config --global --add safe.directory {repo.root}\n"
    )


def test_a_page_renamed_to_mdx_reads_its_old_text_as_markdown(
    tmp_path: Path, monkeypatch: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = new_repo(tmp_path / "spec-repo")
    # Indented under a blank line, the sentence is code in Markdown and text in MDX.
    repo.write("docs/lamp.md", "# Lamp\n\nThe lamp glows.\n\n    Wicks MUST be trimmed.\n")
    base = repo.commit("first")
    repo.git("mv", "docs/lamp.md", "docs/lamp.mdx")
    head = repo.commit("second")
    monkeypatch.chdir(repo.root)
    report = diff_json(capsys, f"{base}..{head}")
    (page,) = report["pages"]
    # Code made text with every word kept reads as a repaired fence does.
    assert (page["path"], page["status"]) == ("docs/lamp.mdx", "modified")
    assert [(c["class"], c["kind"], c["new"]["text"]) for c in page["changes"]] == [
        ("formatting", "reformatted", "Wicks MUST be trimmed.")
    ]
