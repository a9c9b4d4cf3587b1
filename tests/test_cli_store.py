from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spectrack.cli import main
from spectrack.serve import LocalSite, Reply
from spectrack.store import Store

V1 = {
    "/spec/tools": b"# Tools\n\nServers SHOULD validate input.\n",
    "/spec/prompts": b"# Prompts\n\nPrompts are templates.\n",
}
V2 = {
    "/spec/tools": b"# Tools\n\nServers MUST validate input.\n",
    "/spec/prompts": b"# Prompts\n\nPrompts are reusable templates.\n",
}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as stop:
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def tracked(tmp_path: Path, site: LocalSite, monkeypatch: pytest.MonkeyPatch) -> LocalSite:
    """A working folder with a configuration tracking the local site (two fetched revisions)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "spectrack.toml").write_text(
        f'[store]\npath = "snapshots"\n\n[[source]]\nname = "mcp"\n'
        f'sitemap = "{site.url("/sitemap.xml")}"\nmarkdown = "{{url}}.md"\n'
    )
    return site


def fetch_two_revisions(site: LocalSite, capsys: pytest.CaptureFixture[str]) -> None:
    site.publish(V1, lastmod="2025-03-26")
    assert run(capsys, "fetch", "--quiet")[0] == 0
    site.publish(V2, lastmod="2025-06-18")
    assert run(capsys, "fetch", "--quiet")[0] == 0


def test_init_writes_the_example_and_creates_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "init")
    assert code == 0 and "wrote spectrack.toml" in out
    Store.open(tmp_path / "snapshots").close()
    (tmp_path / "spectrack.toml").write_text("# mine\n[store]\npath = 'other'\n")
    code, out, _ = run(capsys, "init")
    assert code == 0 and "kept existing spectrack.toml" in out
    assert (tmp_path / "spectrack.toml").read_text().startswith("# mine")
    Store.open(tmp_path / "other").close()


def test_init_in_a_folder_that_does_not_exist_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "init", "--config", "ci/spectrack.toml")
    assert (code, out) == (2, "")
    assert err == (
        "spectrack: error: ci/spectrack.toml: cannot write the configuration: there is no "
        "folder ci; create it first\n"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("kind", ["device", "pipe", "folder"])
def test_init_refuses_a_configuration_path_that_is_no_regular_file(
    tmp_path: Path, kind: str
) -> None:
    config = tmp_path / "spectrack.toml"
    if kind == "device":
        config.symlink_to(os.devnull)
    elif kind == "pipe":
        os.mkfifo(config)
    else:
        config.mkdir()
    # A process of its own: reading the pipe would wait for a writer for ever.
    done = subprocess.run(
        [sys.executable, "-m", "spectrack", "init", "--config", "spectrack.toml"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    what = (
        "a folder, not a configuration file; name the file to write, such as "
        "spectrack.toml/spectrack.toml"
        if kind == "folder"
        else "not a regular file (a device, pipe or socket); name the configuration file to "
        "write, such as spectrack.toml"
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"spectrack: error: spectrack.toml: {what}\n"
    assert [path.name for path in tmp_path.iterdir()] == ["spectrack.toml"]


def test_init_on_a_repository_of_other_work_refuses_and_keeps_the_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    subprocess.run(["git", "init", "-q", "--initial-branch=master"], check=True)
    (tmp_path / "notes.md").write_text("v1\n")
    subprocess.run(["git", "add", "notes.md"], check=True)
    identity = ["-c", "user.name=x", "-c", "user.email=x@example.org"]
    subprocess.run(["git", *identity, "commit", "-q", "-m", "v1"], check=True)
    (tmp_path / "notes.md").write_text("v1\nuncommitted work\n")
    (tmp_path / "spectrack.toml").write_text('[store]\npath = "."\n')
    code, _, err = run(capsys, "init")
    assert code == 2
    assert err == "spectrack: error: .: a git repository, but not a spectrack snapshot store\n"
    assert (tmp_path / "notes.md").read_text() == "v1\nuncommitted work\n"


def test_fetch_prints_the_summary_and_exits_0(
    tracked: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    tracked.publish(V1, lastmod="2025-03-26")
    code, out, err = run(capsys, "fetch")
    assert code == 0
    assert out.splitlines() == [
        "mcp: listed 2, fetched 2, new 2, changed 0 (normative 0, editorial 0, formatting 0), "
        "unchanged 0, removed 0, unlisted 0, failed 0"
    ]
    tracked.publish(V2, lastmod="2025-06-18")
    code, out, err = run(capsys, "fetch", "--source", "mcp", "--all")
    assert code == 0 and "changed 2 (normative 1, editorial 1, formatting 0)" in out
    assert err == ""


def test_fetch_with_failed_pages_lists_them_and_exits_3(
    tracked: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    tracked.publish(V1, lastmod="2025-03-26")
    tracked.routes["/spec/prompts.md"] = Reply(200, b"<!DOCTYPE html><html></html>")
    code, out, err = run(capsys, "fetch", "--quiet")
    assert code == 3
    assert out == ""
    assert f"spectrack: failed: {tracked.url('/spec/prompts.md')}: served an HTML" in err


def test_fetch_configuration_errors_exit_2(
    tracked: LocalSite, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "fetch", "--source", "nope")
    assert code == 2 and "no source named 'nope' (sources: mcp)" in err
    (tmp_path / "bad.toml").write_text(
        '[[source]]\nname = "x"\nsitemap = "https://x.org/s"\nconcurency = 2\n'
    )
    code, _, err = run(capsys, "fetch", "--config", "bad.toml")
    assert code == 2 and "bad.toml:4: [[source]] #1 ('x') key 'concurency': unknown key" in err


def test_log_lists_changes_newest_first_with_verdicts(
    tracked: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    fetch_two_revisions(tracked, capsys)
    code, out, _ = run(capsys, "log")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 4
    assert lines[0].startswith("2025-06-18") and "sitemap" in lines[0]
    verdicts = sorted(line.split()[4] for line in lines)
    assert verdicts == ["added", "added", "editorial", "normative"]
    code, out, _ = run(capsys, "log", "--class", "normative")
    assert len(out.splitlines()) == 1 and "mcp/spec/tools" in out
    code, out, _ = run(capsys, "log", tracked.url("/spec/prompts"))
    assert [line.split()[4] for line in out.splitlines()] == ["editorial", "added"]
    code, out, _ = run(capsys, "log", "--since", "2999-01-01")
    assert code == 0 and out == ""
    for command in ("log", "diff"):
        code, out, err = run(capsys, command, "--since", "")
        assert (code, out) == (2, "") and "'': not a date" in err, command
    code, _, err = run(capsys, "log", "mcp/none")
    assert code == 2 and "mcp/none: no such page" in err


def test_log_shows_a_lastmod_as_precise_as_the_sitemap_gave_it(
    tracked: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    # A lastmod of "2025-03" read "2025-03-01": an edit on a day nobody named.
    tracked.publish(V1, lastmod={"/spec/tools": "2025-03", "/spec/prompts": "2024"})
    assert run(capsys, "fetch", "--quiet")[0] == 0
    code, out, _ = run(capsys, "log")
    shown = sorted((line.split()[0], line.split()[5]) for line in out.splitlines())
    assert code == 0 and shown == [("2024", "mcp/spec/prompts"), ("2025-03", "mcp/spec/tools")]


def test_diff_addresses_store_pages(tracked: LocalSite, capsys: pytest.CaptureFixture[str]) -> None:
    fetch_two_revisions(tracked, capsys)
    code, out, _ = run(capsys, "diff", "mcp/spec/tools", "--fail-on", "normative")
    assert code == 1 and "SHOULD → MUST" in out
    code, out, _ = run(capsys, "diff", tracked.url("/spec/tools"), "--format", "json")
    assert json.loads(out)["verdict"] == "normative"
    code, out, _ = run(capsys, "diff", "mcp/spec/tools@2025-04-01", "mcp/spec/tools@2025-07-01")
    assert "SHOULD → MUST" in out
    code, out, _ = run(capsys, "diff", "mcp/spec/tools@2025-07-01", "mcp/spec/tools")
    assert "unchanged" in out.lower() or "0 of 1" in out
    with Store.open(Path("snapshots")) as store:
        first, second = store.history("mcp/spec/prompts")
    code, out, _ = run(capsys, "diff", f"mcp/spec/prompts@{first.commit[:10]}", "--format", "json")
    assert json.loads(out)["pages"][0]["status"] == "added"
    code, out, _ = run(
        capsys,
        "diff",
        f"mcp/spec/prompts@{first.commit[:10]}",
        f"mcp/spec/prompts@{second.commit}",
        "--format",
        "json",
    )
    report = json.loads(out)
    assert report["verdict"] == "editorial" and report["pages"][0]["path"] == "mcp/spec/prompts.md"


def test_a_page_url_copied_from_a_browser_addresses_the_page(
    tracked: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    """A fragment (a heading's anchor) and the host's letter case name the same page; a date
    after the fragment still says when."""
    fetch_two_revisions(tracked, capsys)
    url = tracked.url("/spec/tools").replace("http://", "HTTP://") + "#validation"
    code, out, err = run(capsys, "log", url)
    assert (code, err) == (0, "") and len(out.splitlines()) == 2
    code, out, err = run(capsys, "diff", url + "@2025-04-01", "--format", "json")
    assert (code, err) == (0, "")
    assert [page["status"] for page in json.loads(out)["pages"]] == ["added"]


def test_a_url_with_or_without_its_trailing_slash_says_which_page_it_was_read_as(
    tracked: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    # …/jars/ and …/jars are two pages of the store; …/lids/ found …/lids without a word.
    tracked.publish({"/jars": b"# Jars\n", "/jars/": b"# Jar index\n", "/lids": b"# Lids\n"})
    assert run(capsys, "fetch", "--quiet")[0] == 0
    for url, page in (("/jars/", "mcp/jars/index"), ("/jars", "mcp/jars")):
        code, out, err = run(capsys, "log", tracked.url(url))
        assert (code, err) == (0, "") and [line.split()[5] for line in out.splitlines()] == [page]
    lids = tracked.url("/lids")
    note = f"spectrack: note: {lids}/ is no page URL of the store; read as {lids} (mcp/lids)\n"
    code, out, err = run(capsys, "log", lids + "/")
    assert (code, err) == (0, note) and out.split()[5] == "mcp/lids"
    code, out, err = run(capsys, "diff", lids + "/", "--format", "json")
    assert (code, err) == (0, note) and json.loads(out)["pages"][0]["path"] == "mcp/lids.md"


def test_a_page_name_that_is_not_utf8_is_no_page_of_the_store(
    tracked: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    fetch_two_revisions(tracked, capsys)
    for command in ("log", "diff"):
        # As a shell passes it: bytes that no UTF-8 text holds.
        run = subprocess.run(
            [sys.executable, "-m", "spectrack", command, b"mcp/spec/tools\xff"],
            capture_output=True,
            check=False,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])},
        )
        assert (run.returncode, run.stdout) == (2, b""), run.stderr
        assert run.stderr.startswith(b"spectrack: error: mcp/spec/tools")
        assert run.stderr.endswith(b": no such page in the store snapshots\n")
        assert len(run.stderr.splitlines()) == 1


def test_urls_that_are_not_utf8_are_refused_before_anything_is_written(
    tracked: LocalSite, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    fetch_two_revisions(tracked, capsys)
    spec = tmp_path / "spec"
    subprocess.run(["git", "init", "-q", str(spec)], check=True)
    (spec / "a.md").write_text("# A\n")
    subprocess.run(["git", "-C", str(spec), "add", "a.md"], check=True)
    identity = ["-c", "user.name=x", "-c", "user.email=x@example.org"]
    subprocess.run(["git", "-C", str(spec), *identity, "commit", "-qm", "a"], check=True)
    for args, message in (
        (
            ["import-git", str(spec), "--path", ".", "--source", "up", "--store", "imported"],
            b"--url-base 'https://x.org/\\udcff': not a URL (bytes that are not UTF-8 in it)",
        ),
        (
            ["site", "--out", "site"],
            b"base URL 'https://x.org/\\udcff': expected an http:// or https:// URL",
        ),
    ):
        option = "--url-base" if args[0] == "import-git" else "--base-url"
        run = subprocess.run(
            [sys.executable, "-m", "spectrack", *args, option, b"https://x.org/\xff"],
            capture_output=True,
            check=False,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])},
        )
        assert (run.returncode, run.stdout, run.stderr) == (
            2,
            b"",
            b"spectrack: error: " + message + b"\n",
        )
    assert not (tmp_path / "imported").exists() and not (tmp_path / "site").exists()


def test_diff_since_reports_every_page_recorded_since(
    tracked: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    fetch_two_revisions(tracked, capsys)
    code, out, _ = run(capsys, "diff", "--since", "1d", "--format", "json")
    report = json.loads(out)
    assert code == 0
    assert [p["status"] for p in report["pages"]] == ["added", "added"]
    code, out, _ = run(capsys, "diff", "--since", "2999-01-01", "--format", "json")
    assert json.loads(out)["pages"] == []
    code, _, err = run(capsys, "diff", "--since", "1d", "mcp/spec/tools")
    assert code == 2 and "give no PAGE with it" in err


def test_store_addressing_mistakes_say_what_is_wrong(
    tracked: LocalSite, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fetch_two_revisions(tracked, capsys)
    for args in (
        ["diff", "mcp/spec/tools@yesterday"],
        ["diff", "mcp/spec/tools@HEAD~1", "mcp/spec/tools@yesterday"],
    ):
        code, _, err = run(capsys, *args)
        assert code == 2
        assert err.startswith("spectrack: error: mcp/spec/tools@yesterday: 'yesterday' is neither")
    code, _, err = run(capsys, "diff", "mcp/none@yesterday")
    assert code == 2 and "mcp/none@yesterday: no such page" in err
    for args in (["log", "--source", "nosuch"], ["diff", "--since", "1d", "--source", "nosuch"]):
        code, out, err = run(capsys, *args)
        assert (code, out) == (2, "")
        assert "--source 'nosuch': no such source in the store snapshots (sources: mcp)" in err
    code, _, err = run(capsys, "diff", "--since", "1d", "--store", str(tmp_path / "elsewhere"))
    assert code == 2
    assert "--since reads the snapshot store at" in err and "no such file" not in err


def test_a_source_whose_pages_were_all_removed_keeps_its_history(
    tracked: LocalSite, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "spectrack.toml"
    config.write_text(config.read_text() + "max_removal = 1.0\n")
    tracked.publish(V1, lastmod="2025-03-26")
    assert run(capsys, "fetch", "--quiet")[0] == 0
    tracked.publish({}, lastmod="2025-06-18")
    assert run(capsys, "fetch", "--quiet")[0] == 0
    assert not (tmp_path / "snapshots" / "mcp").exists()
    code, out, err = run(capsys, "log", "--source", "mcp")
    assert (code, err) == (0, "")
    assert [line.split()[4] for line in out.splitlines()] == ["removed"] * 2 + ["added"] * 2
    code, out, err = run(capsys, "diff", "--since", "2000-01-01", "--source", "mcp")
    assert (code, err) == (0, "")
    assert out.startswith("spectrack: UNCHANGED · 0 of 0 pages changed"), "added, then removed"
    code, _, err = run(capsys, "log", "--source", "nosuch")
    assert code == 2 and "(sources: mcp)" in err


def test_diff_of_two_files_still_works_beside_a_store(
    tracked: LocalSite, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fetch_two_revisions(tracked, capsys)
    (tmp_path / "a.md").write_text("# A\n\nClients MAY retry.\n")
    (tmp_path / "b.md").write_text("# A\n\nClients SHOULD retry.\n")
    code, out, _ = run(capsys, "diff", "a.md", "b.md", "--fail-on", "normative")
    assert code == 1 and "strengthened" in out
    code, _, err = run(capsys, "diff", "a.md", "mcp/spec/tools")
    assert code == 2 and "mcp/spec/tools: no such file or directory" in err
    code, _, err = run(capsys, "diff", "a.md")
    assert code == 2 and "a.md: give two files or directories to compare" in err


def test_diff_of_a_missing_file_without_a_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.md").write_text("# A\n")
    code, _, err = run(capsys, "diff", "a.md", "missing.md")
    assert code == 2 and "missing.md: no such file or directory" in err


def test_import_git_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import subprocess

    monkeypatch.chdir(tmp_path)
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "docs").mkdir()
    (repo / "docs" / "a.md").write_text("# A\n\nText.\n")
    subprocess.run(["git", "-C", str(repo), "add", "."], check=True)
    subprocess.run(
        [
            "git",
            "-C",
            str(repo),
            "-c",
            "user.name=x",
            "-c",
            "user.email=x@example.org",
            "commit",
            "-q",
            "-m",
            "one",
        ],
        check=True,
    )
    code, out, _ = run(
        capsys,
        "import-git",
        str(repo),
        "--path",
        "docs",
        "--source",
        "up",
        "--url-base",
        "https://x.org/docs",
        "--store",
        "store",
    )
    assert code == 0 and out == "up: 1 commits, 1 revisions, 1 pages\n"
    code, out, _ = run(capsys, "log", "--store", "store")
    assert "commit" in out and "up/docs/a" in out and "added" in out


@pytest.mark.parametrize(
    ("repo", "folder", "source", "message"),
    [
        ("missing", "docs", "up", "missing: not a git repository"),
        (".", "docs", "../up", "'../up': not a source name"),
        ("spec", "../docs", "up", "--path '../docs': must stay inside the repository"),
        ("spec", "docs", "up", "the repository has no commit yet"),
    ],
)
def test_import_git_refuses_bad_arguments_before_making_a_store(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    repo: str,
    folder: str,
    source: str,
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    subprocess.run(["git", "init", "-q", "spec"], check=True)
    code, _, err = run(
        capsys,
        "import-git",
        repo,
        "--path",
        folder,
        "--source",
        source,
        "--url-base",
        "https://x.org",
    )
    assert code == 2 and message in err
    assert not (tmp_path / "snapshots").exists()


def test_store_pages_are_located_at_their_files_for_annotations(
    tracked: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    fetch_two_revisions(tracked, capsys)
    code, out, _ = run(
        capsys, "diff", "mcp/spec/tools", "--format", "github", "--fail-on", "normative"
    )
    assert code == 1
    assert "::error file=snapshots/mcp/spec/tools.md,line=3" in out


def test_two_store_pages_compared_locate_each_side_in_its_own_file(
    tracked: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    # What the old page says and the new one does not was removed from the old page: its
    # annotation names that page's file, not the new page's at the old page's line.
    tracked.publish(
        {
            "/spec/old": b"# Old\n\nIntro.\n\nClients MUST retry.\n",
            "/spec/new": b"# New\n\nServers SHOULD log.\n",
        },
        lastmod="2025-03-26",
    )
    assert run(capsys, "fetch", "--quiet")[0] == 0
    code, out, _ = run(capsys, "diff", "mcp/spec/old", "mcp/spec/new", "--format", "github")
    assert code == 0
    annotations = [line for line in out.splitlines() if line.startswith("::error ")]
    removed = [line for line in annotations if "normative removed" in line]
    added = [line for line in annotations if "normative added" in line]
    assert removed and removed[0].startswith("::error file=snapshots/mcp/spec/old.md,line=5,")
    assert added and added[0].startswith("::error file=snapshots/mcp/spec/new.md,line=3,")


def test_git_revisions_still_win_when_no_store_page_matches(
    tracked: LocalSite, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import subprocess

    fetch_two_revisions(tracked, capsys)
    repo = tmp_path  # the working folder is a spec repository with the store inside it
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    identity = ["-c", "user.name=x", "-c", "user.email=x@example.org"]
    for text in ("Clients MAY cache.\n", "Clients MUST cache.\n"):
        (repo / "page.md").write_text("# Cache\n\n" + text)
        subprocess.run(["git", "-C", str(repo), "add", "page.md"], check=True)
        subprocess.run(["git", "-C", str(repo), *identity, "commit", "-qm", "edit"], check=True)
    code, out, _ = run(capsys, "diff", "HEAD~1", "HEAD", "--format", "json")
    report = json.loads(out)
    assert code == 0 and report["verdict"] == "normative"
    assert [p["path"] for p in report["pages"]] == ["page.md"]


def test_a_page_whose_name_holds_an_at_and_a_date_or_hex_is_that_page(
    tracked: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    """``schema@2025-06-18`` is a page of its own (versioned pages are named so), not page
    ``schema`` at a date; a revision or date can still follow it."""
    pages = {
        "/spec/schema@2025-06-18": b"# Schema\n\nFields MAY be sent.\n",
        "/spec/pkg@cafe": b"# Package\n\nClients MAY pin it.\n",
    }
    tracked.publish(pages, lastmod="2025-03-26")
    assert run(capsys, "fetch", "--quiet")[0] == 0
    tracked.publish(
        {path: body.replace(b"MAY", b"MUST") for path, body in pages.items()}, lastmod="2025-06-18"
    )
    assert run(capsys, "fetch", "--quiet")[0] == 0
    for page in ("mcp/spec/schema@2025-06-18", "mcp/spec/pkg@cafe"):
        code, out, err = run(capsys, "diff", page, "--format", "json")
        assert (code, err) == (0, "")
        assert json.loads(out)["pages"][0]["path"] == page + ".md"
        assert json.loads(out)["verdict"] == "normative"
        code, out, err = run(capsys, "diff", f"{page}@2025-04-01", page, "--format", "json")
        assert (code, err) == (0, "")
        assert json.loads(out)["verdict"] == "normative"


def test_an_empty_store_or_config_is_refused_not_read_as_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--store "$STORE"`` with the variable unset made the working folder a store."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.md").write_text("# Notes\n")
    spec = tmp_path / "spec"
    subprocess.run(["git", "init", "-q", "-b", "main", str(spec)], check=True)
    (spec / "a.md").write_text("# A\n")
    subprocess.run(["git", "-C", str(spec), "add", "a.md"], check=True)
    identity = ["-c", "user.name=x", "-c", "user.email=x@example.org"]
    subprocess.run(["git", "-C", str(spec), *identity, "commit", "-qm", "a"], check=True)
    common = ["--path", ".", "--source", "s", "--url-base", "https://x.org/d"]
    for args in (
        ["import-git", str(spec), *common, "--store", ""],
        ["import-git", str(spec), *common, "--config", ""],
        ["log", "--store", ""],
        ["init", "--config", ""],
    ):
        code, out, err = run(capsys, *args)
        assert (code, out) == (2, "")
        option = "--store" if "--store" in args else "--config"
        assert f"Invalid value for '{option}': an empty value names no file or folder" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.md", "spec"]
