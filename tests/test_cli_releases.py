"""``spectrack releases``, and the nearest release in ``spectrack log`` and the JSON report."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest

from spectrack.cli import cli
from spectrack.serve import LocalSite, Reply
from tests.feeds import github_atom, npm_document, serve
from tests.storecheck import git
from tests.test_cli_store import run

README = Path(__file__).resolve().parents[1] / "README.md"
V1 = {"/spec/tools": b"# Tools\n\nServers SHOULD validate input.\n"}
V2 = {"/spec/tools": b"# Tools\n\nServers MUST validate input.\n"}


@pytest.fixture
def configured(tmp_path: Path, site: LocalSite, monkeypatch: pytest.MonkeyPatch) -> LocalSite:
    """A working folder whose configuration tracks the local site with two release feeds."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "spectrack.toml").write_text(
        f'[store]\npath = "snapshots"\n\n[[source]]\nname = "mcp"\n'
        f'sitemap = "{site.url("/sitemap.xml")}"\nmarkdown = "{{url}}.md"\n\n'
        f'[[source.releases]]\nkind = "github"\nrepo = "acme/tool"\n'
        f'url = "{site.url("/gh/releases.atom")}"\n\n'
        f'[[source.releases]]\nkind = "npm"\npackage = "@acme/sdk"\nwindow = "1h"\n'
        f'url = "{site.url("/npm/sdk")}"\n'
    )
    return site


def publish(site: LocalSite, pages: dict[str, bytes], lastmod: str) -> None:
    """The pages, and feeds: v2.0.0 on 2025-06-18 at 12:00, npm 3.1.0 at 08:30 (window 1 h)."""
    site.publish(pages, lastmod=lastmod)
    serve(
        site,
        "/gh/releases.atom",
        github_atom("acme/tool", [("v2.0.0", "2025-06-18T12:00:00Z")]),
        "application/atom+xml",
    )
    serve(
        site,
        "/npm/sdk",
        npm_document("@acme/sdk", {"3.1.0": "2025-06-18T08:30:00.000Z"}),
        "application/json",
    )


def test_releases_records_the_feeds_and_exits_zero(
    configured: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    publish(configured, V1, "2025-06-17")
    code, out, err = run(capsys, "releases")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "mcp: github acme/tool: 1 recorded, 1 new",
        "mcp: npm @acme/sdk: 1 recorded, 1 new",
    ]
    assert Path("snapshots/.spectrack/releases/mcp.json").is_file()
    code, out, err = run(capsys, "releases", "--quiet", "--source", "mcp")
    assert (code, out, err) == (0, "", "")


def test_a_bad_feed_is_a_warning_naming_it_and_exit_three(
    configured: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    publish(configured, V1, "2025-06-17")
    assert run(capsys, "releases")[0] == 0
    configured.routes["/npm/sdk"] = Reply(404, b"gone")
    code, out, err = run(capsys, "releases")
    assert code == 3
    assert "mcp: npm @acme/sdk: 1 recorded, not read" in out
    assert err == (
        f"spectrack: warning: release feed npm @acme/sdk ({configured.url('/npm/sdk')}): "
        "HTTP 404; the 1 release recorded before is kept\n"
    )


def test_usage_and_configuration_errors_exit_two(
    configured: LocalSite, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = run(capsys, "releases", "--source", "nope")
    assert code == 2 and "no source named 'nope' (sources: mcp)" in err
    bare = tmp_path / "bare.toml"
    bare.write_text(f'[[source]]\nname = "a"\nsitemap = "{configured.url("/s.xml")}"\n')
    code, _, err = run(capsys, "releases", "--config", str(bare))
    assert code == 2 and "no [[source.releases]] configured for a; nothing to fetch" in err


def test_log_and_the_json_report_show_the_nearest_release(
    configured: LocalSite, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    publish(configured, V1, "2025-06-10T00:00:00Z")
    assert run(capsys, "fetch", "--quiet")[0] == 0
    publish(configured, V2, "2025-06-18T10:00:00Z")
    assert run(capsys, "fetch", "--quiet")[0] == 0, "fetch refreshes the feeds too"
    code, out, _ = run(capsys, "log")
    assert code == 0
    newest, oldest = out.splitlines()
    assert newest.startswith("2025-06-18T10:00:00Z") and "normative" in newest
    assert newest.endswith("  release v2.0.0 came out 2 hours after the edit")
    assert "release" not in oldest.split("mcp/spec/tools")[1], "no release near 2025-06-10"

    code, out, _ = run(capsys, "diff", "mcp/spec/tools", "--format", "json")
    assert code == 0
    (page,) = json.loads(out)["pages"]
    assert page["release"] == {
        "version": "v2.0.0",
        "published": "2025-06-18T12:00:00Z",
        "url": "https://github.com/acme/tool/releases/tag/v2.0.0",
        "delta_seconds": 7200,
    }
    assert {"path", "status", "verdict", "lines", "changes", "hunks"} < page.keys()

    code, out, _ = run(capsys, "diff", "mcp/spec/tools@2025-06-12", "--format", "json")
    assert code == 0
    assert json.loads(out)["pages"][0]["release"] is None, "no release near the first revision"

    code, out, _ = run(capsys, "diff", "--since", "2000-01-01", "--format", "json")
    assert code == 0
    assert json.loads(out)["pages"][0]["release"]["version"] == "v2.0.0"

    old, new = tmp_path / "old.md", tmp_path / "new.md"
    old.write_bytes(V1["/spec/tools"])
    new.write_bytes(V2["/spec/tools"])
    code, out, _ = run(capsys, "diff", str(old), str(new), "--format", "json")
    assert code == 0
    assert "release" not in json.loads(out)["pages"][0], "files have no release context"


def test_an_entry_dated_past_the_last_date_is_a_warning_for_fetch_and_releases(
    configured: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    publish(configured, V2, "2025-06-18T10:00:00Z")
    serve(
        configured,
        "/gh/releases.atom",
        github_atom(
            "acme/tool",
            [("v2.0.0", "2025-06-18T12:00:00Z"), ("v9.9.9", "9999-12-31T23:59:59-01:00")],
        ),
        "application/atom+xml",
    )
    left_out = (
        f"spectrack: warning: release feed github acme/tool ({configured.url('/gh/releases.atom')})"
        ": 1 entry without a version or a readable publish time left out\n"
    )
    code, _, err = run(capsys, "fetch")
    assert (code, err) == (0, left_out)
    code, out, err = run(capsys, "releases")
    assert (code, err) == (0, left_out)
    assert "mcp: github acme/tool: 1 recorded, 0 new" in out
    code, out, _ = run(capsys, "log")
    assert code == 0 and out.endswith("release v2.0.0 came out 2 hours after the edit\n")


def test_a_version_that_is_no_unicode_text_is_left_out_with_a_warning_not_a_traceback(
    configured: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    publish(configured, V2, "2025-06-18T10:00:00Z")
    serve(
        configured,
        "/npm/sdk",
        rb'{"time": {"3.1.0\ud800": "2025-06-18T08:30:00Z", "3.2.0": "2025-06-18T09:30:00Z"}}',
        "application/json",
    )
    left_out = (
        f"spectrack: warning: release feed npm @acme/sdk ({configured.url('/npm/sdk')})"
        ": 1 entry without a version or a readable publish time left out\n"
    )
    code, _, err = run(capsys, "fetch")
    assert (code, err) == (0, left_out)
    code, out, err = run(capsys, "releases")
    assert (code, err) == (0, left_out)
    assert "mcp: npm @acme/sdk: 1 recorded, 0 new" in out


def log_with_a_release(
    configured: LocalSite, capsys: pytest.CaptureFixture[str], version: str
) -> str:
    """What `spectrack log` prints of one edit with a release ``version`` half an hour later."""
    publish(configured, V2, "2025-06-18T10:00:00Z")
    serve(
        configured,
        "/npm/sdk",
        npm_document("@acme/sdk", {version: "2025-06-18T10:30:00Z"}),
        "application/json",
    )
    assert run(capsys, "fetch", "--quiet")[0] == 0
    code, out, _ = run(capsys, "log")
    assert code == 0
    return out


def test_a_release_title_over_several_lines_keeps_log_to_one_line_per_revision(
    configured: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    out = log_with_a_release(configured, capsys, "3.1.0\n      (long-term\tsupport)")
    (line,) = out.splitlines()
    assert line.endswith("release 3.1.0 (long-term support) came out under an hour after the edit")


@pytest.mark.parametrize(
    ("damage", "value"),
    [
        ("published", "2025-06-18T12:00:00"),
        ("window_seconds", 10**20),
        ("version", "v2.0.0\ud800"),
    ],
)
def test_a_record_with_values_out_of_shape_is_named_in_one_line_and_left_as_it_is(
    configured: LocalSite, capsys: pytest.CaptureFixture[str], damage: str, value: object
) -> None:
    publish(configured, V2, "2025-06-18T10:00:00Z")
    assert run(capsys, "fetch", "--quiet")[0] == 0
    record = Path("snapshots/.spectrack/releases/mcp.json")
    document = json.loads(record.read_text(encoding="utf-8"))
    if damage == "window_seconds":
        document["feeds"][0]["window_seconds"] = value
    else:
        document["feeds"][0]["releases"][0][damage] = value
    record.write_text(json.dumps(document), encoding="utf-8")
    git("snapshots", "commit", "--quiet", "--all", "--message", "Edited by hand")
    edited = record.read_bytes()
    unreadable = ".spectrack/releases/mcp.json: unreadable release record ("
    for command in (["log"], ["site", "--quiet"], ["diff", "mcp/spec/tools"]):
        code, _, err = run(capsys, *command)
        assert code == 2, command
        assert err.startswith(f"spectrack: error: {unreadable}") and err.count("\n") == 1
    code, _, err = run(capsys, "releases")
    assert code == 3
    assert err.count("\n") == 2 and err.count(unreadable) == 2, "each feed is named"
    assert record.read_bytes() == edited


def test_every_option_of_releases_is_documented() -> None:
    readme = README.read_text(encoding="utf-8")
    section = readme[readme.index("## Release correlation") :]
    command = cli.commands["releases"]
    for parameter in command.params:
        if isinstance(parameter, click.Option):
            assert any(flag in section for flag in parameter.opts), parameter.opts[0]
    for key in ("kind", "repo", "package", "url", "window", '"release"', "delta_seconds"):
        assert f"`{key}`" in section or key in section, key


def test_a_version_with_a_terminal_escape_reaches_no_terminal(
    configured: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    out = log_with_a_release(configured, capsys, "3.1.0\x1b[2J\x07")
    assert "\x1b" not in out and "\x07" not in out
    assert "release 3.1.0\ufffd[2J\ufffd came out" in out
