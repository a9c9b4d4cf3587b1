from __future__ import annotations

import json
import os
import re
import subprocess
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pytest import CaptureFixture

from spectrack.cli import main
from spectrack.dates import Precision, TimeSource, UpstreamTime
from spectrack.errors import InputError, StoreBusyError, StoreError
from spectrack.history import log_entries, upstream_label
from spectrack.serve import LocalSite
from spectrack.store import CHECKOUT_PENDING, PageState, RevisionEvent, Store
from tests.conftest import StepClock
from tests.storecheck import assert_consistent, git, head, page_bytes

URL = "https://docs.example.org/spec/tools"


def day(text: str) -> UpstreamTime:
    moment = datetime.fromisoformat(text).replace(tzinfo=UTC)
    return UpstreamTime(moment, TimeSource.SITEMAP, Precision.DAY, text)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    """A store with three revisions of one page (recorded a day apart) and one other page."""
    clock = StepClock(datetime(2030, 1, 1, tzinfo=UTC))
    opened = Store.create(tmp_path / "store", clock)
    for recorded, (when, body) in enumerate(
        [
            ("2025-01-10", b"# Tools\n\nServers SHOULD validate input.\n"),
            ("2025-02-10", b"# Tools\n\nServers MUST validate input.\n"),
            ("2025-03-10", b"# Tools\n\nServers MUST validate all input.\n"),
        ]
    ):
        clock.now = datetime(2030, 1, 1 + recorded, tzinfo=UTC)
        with opened.writer(clock) as writer:
            writer.record("mcp", URL, body, day(when), lastmod=when)
            if recorded == 0:
                writer.record("mcp", URL + "/other", b"# Other\n", day(when))
    yield opened
    opened.close()


def test_history_is_oldest_first_with_every_field(store: Store) -> None:
    history = store.history("mcp/spec/tools")
    assert [r.event for r in history] == [
        RevisionEvent.ADDED,
        RevisionEvent.CHANGED,
        RevisionEvent.CHANGED,
    ]
    assert [r.upstream_time.month for r in history] == [1, 2, 3]
    assert [r.recorded_time.day for r in history] == [1, 2, 3]
    first = history[0]
    assert (first.page, first.path, first.source, first.url) == (
        "mcp/spec/tools",
        "mcp/spec/tools.md",
        "mcp",
        URL,
    )
    assert (first.time_source, first.precision, first.lastmod_raw) == (
        TimeSource.SITEMAP,
        Precision.DAY,
        "2025-01-10",
    )
    assert store.first_seen("mcp/spec/tools") == first.recorded_time


def test_listing_sources_pages_and_state(store: Store) -> None:
    assert store.sources() == ["mcp"]
    assert store.pages() == ["mcp/spec/tools", "mcp/spec/tools/other"]
    state = store.state("mcp/spec/tools")
    assert state is not None and state.url == URL and state.lastmod == "2025-03-10"
    assert state.first_seen == store.history("mcp/spec/tools")[0].recorded_time
    assert set(store.states("mcp")) == {URL, URL + "/other"}


def test_read_at_commits_dates_and_revisions(store: Store) -> None:
    history = store.history("mcp/spec/tools")
    assert store.read("mcp/spec/tools", history[0].commit) == (
        "# Tools\n\nServers SHOULD validate input.\n"
    )
    assert store.read("mcp/spec/tools", history[0].commit + "^") is None
    assert store.at("mcp/spec/tools", datetime(2025, 2, 20, tzinfo=UTC)) == history[1]
    assert store.at("mcp/spec/tools", datetime(2025, 2, 10, tzinfo=UTC)) == history[1]
    assert store.at("mcp/spec/tools", datetime(2024, 12, 31, tzinfo=UTC)) is None
    assert store.revision_at("mcp/spec/tools", history[1].commit[:8]) == history[1]
    other = store.history("mcp/spec/tools/other")[0]
    assert store.revision_at("mcp/spec/tools", other.commit) == history[0]
    with pytest.raises(InputError, match="no such revision"):
        store.rev_parse("deadbeef")


def test_revisions_since_filter_on_recorded_time(store: Store) -> None:
    since = store.revisions(since=datetime(2030, 1, 2, tzinfo=UTC))
    assert [r.upstream_time.month for r in since] == [2, 3]
    assert store.revisions(source="other") == []


def test_resolve_by_id_path_or_url(store: Store) -> None:
    assert store.resolve("mcp/spec/tools") == "mcp/spec/tools"
    assert store.resolve("mcp/spec/tools.md") == "mcp/spec/tools"
    assert store.resolve(URL) == "mcp/spec/tools"
    assert store.resolve(URL + "/") == "mcp/spec/tools"
    assert store.find("mcp/spec/nothing") is None
    with pytest.raises(InputError, match="no such page"):
        store.resolve("https://docs.example.org/none")


def test_resolve_a_url_as_a_browser_shows_it(store: Store) -> None:
    # Copied from an address bar: a fragment names a part of the same page, and the scheme and
    # host name the same site in any case, as dot segments name the same document.
    assert store.resolve(URL + "#calling-tools") == "mcp/spec/tools"
    assert store.resolve("HTTPS://Docs.Example.org/spec/tools") == "mcp/spec/tools"
    assert store.resolve("https://docs.example.org/spec/./x/../tools") == "mcp/spec/tools"
    assert store.find("https://docs.example.org/Spec/tools") is None, "a path keeps its case"
    assert store.find("https://[docs.example.org/spec/tools") is None


def test_same_bytes_make_no_revision(store: Store) -> None:
    before = head(store.path)
    with store.writer(StepClock()) as writer:
        recorded = writer.record(
            "mcp",
            URL,
            b"# Tools\n\nServers MUST validate all input.\n",
            day("2025-03-10"),
            lastmod="2025-03-10",
        )
    assert recorded.event is None
    assert head(store.path) == before


def test_an_author_date_git_cannot_show_reads_as_the_recorded_time(tmp_path: Path) -> None:
    clock = StepClock()
    opened = Store.create(tmp_path / "store", clock)
    # What an earlier version stored for a sitemap lastmod before 1970.
    with opened.writer(clock) as writer:
        writer.record("mcp", URL, b"# Tools\n", day("1969-12-31"), lastmod="1969-12-31")
    (revision,) = opened.history("mcp/spec/tools")
    assert revision.upstream_time == revision.recorded_time
    assert (revision.time_source, revision.precision) == (TimeSource.FETCH, Precision.SECOND)
    assert revision.lastmod_raw == "1969-12-31"
    opened.close()


def test_a_page_path_with_a_space_reads_where_it_is_absent(tmp_path: Path) -> None:
    clock = StepClock()
    opened = Store.create(tmp_path / "store", clock)
    with opened.writer(clock) as writer:
        writer.record("mcp", URL + "/two%20words", b"# Two words\n", day("2025-04-01"))
    (revision,) = opened.history("mcp/spec/tools/two words")
    assert opened.read("mcp/spec/tools/two words", revision.commit) == "# Two words\n"
    assert opened.read("mcp/spec/tools/two words", revision.commit + "^") is None
    assert opened.find("mcp/spec/no such page") is None
    assert opened.read_file("a b c") is None
    opened.close()


def test_open_refuses_what_is_not_a_store(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no snapshot store here"):
        Store.open(tmp_path)
    subprocess.run(["git", "init", "-q", str(tmp_path / "plain")], check=True)
    with pytest.raises(StoreError, match="not a spectrack snapshot store"):
        Store.open(tmp_path / "plain")


def test_a_worktree_of_a_store_is_refused_with_what_to_do(store: Store, tmp_path: Path) -> None:
    linked = tmp_path / "linked"
    subprocess.run(
        ["git", "-C", str(store.path), "worktree", "add", "-q", "--detach", str(linked)],
        check=True,
    )
    with pytest.raises(StoreError, match=r"linked: a git worktree .* use `git clone`"):
        Store.open(linked)


def test_a_second_writer_waits_then_says_the_store_is_busy(store: Store) -> None:
    with (
        store.lock(1.0),
        pytest.raises(StoreBusyError) as error,
        store.writer(StepClock(), lock_wait=0.2),
    ):
        pass
    assert f"(pid {os.getpid()})" in str(error.value)
    assert "another spectrack run is using the store" in str(error.value)
    with store.writer(StepClock(), lock_wait=0.2):
        pass


def test_stale_git_locks_of_a_killed_run_are_cleared(store: Store) -> None:
    (store.path / ".git" / "index.lock").write_text("")
    (store.path / ".git" / "refs" / "heads" / "main.lock").write_text("")
    # A run lists a file before it writes it.
    (store.path / ".git" / CHECKOUT_PENDING).write_bytes(b"mcp/spec/tools.md\0")
    (store.path / "mcp" / "spec" / "tools.md").write_text("half written")
    with store.writer(StepClock()) as writer:
        writer.record("mcp", URL + "/new", b"# New\n", day("2025-04-01"))
    assert "mcp/spec/tools/new" in store.pages()
    assert_consistent(store.path)


def test_history_moved_under_a_run_is_never_rewritten(store: Store) -> None:
    with (
        pytest.raises(StoreError, match="fast-import failed"),
        store.writer(StepClock()) as writer,
    ):
        writer.record("mcp", URL + "/new", b"# New\n", day("2025-04-01"))
        (store.path / "README.md").write_text("someone else's commit\n")
        git(store.path, "add", "README.md")
        outsider = ("-c", "user.name=x", "-c", "user.email=x@example.org")
        git(store.path, *outsider, "commit", "-q", "-m", "outside commit")
    assert git(store.path, "log", "-1", "--format=%s") == "outside commit\n"
    assert "mcp/spec/tools/new" not in store.pages()
    with store.writer(StepClock()):
        pass
    assert not (store.path / "mcp/spec/tools/new.md").exists(), "unpublished, so not checked out"


def test_the_files_of_a_killed_runs_lost_commits_are_undone(store: Store) -> None:
    # The killed run wrote two pages into the working tree; fast-import published neither.
    (store.path / "mcp" / "gone").mkdir()
    (store.path / "mcp" / "gone" / "lost.md").write_text("never committed")
    (store.path / "mcp" / "spec" / "tools.md").write_text("a lost revision")
    (store.path / "mcp" / "keep.md").write_text("not spectrack's")
    pending = store.path / ".git" / CHECKOUT_PENDING
    pending.write_bytes(b"mcp/gone/lost.md\0mcp/spec/tools.md\0")
    with store.writer(StepClock()):
        pass
    assert not (store.path / "mcp" / "gone").exists()
    assert (
        page_bytes(store.path, "mcp/spec/tools") == b"# Tools\n\nServers MUST validate all input.\n"
    )
    assert (store.path / "mcp" / "keep.md").exists(), "only files a run wrote are removed"
    assert not pending.exists()
    (store.path / "mcp" / "keep.md").unlink()
    assert_consistent(store.path)


def test_removal_keeps_history(store: Store) -> None:
    with store.writer(StepClock()) as writer:
        page = writer.remove("mcp", URL, "gone")
    assert page == "mcp/spec/tools" and page not in store.pages()
    assert not (store.path / "mcp/spec/tools.md").exists()
    assert store.history(page)[-1].event is RevisionEvent.REMOVED
    assert store.read(page, "HEAD") is None
    assert store.resolve(URL) == page, "removed pages can still be addressed"
    last_text = store.history(page)[-2]
    assert store.read(page, last_text.commit) == "# Tools\n\nServers MUST validate all input.\n"
    assert store.at(page, datetime(2040, 1, 1, tzinfo=UTC)) == store.history(page)[-1]
    assert_consistent(store.path)


def test_a_page_created_again_in_the_run_that_removed_it_keeps_its_name(store: Store) -> None:
    with store.writer(StepClock()) as writer:
        writer.record("mcp", URL + "/new", b"# New\n", day("2025-05-01"))
        page = writer.remove("mcp", URL, "gone")
        again = writer.record("mcp", URL, b"# Tools\n\nBack again.\n", day("2025-06-01"))
    assert again.page == page == "mcp/spec/tools"
    assert [r.event for r in store.history(page)][-2:] == [
        RevisionEvent.REMOVED,
        RevisionEvent.ADDED,
    ]
    assert_consistent(store.path)


def test_a_source_without_pages_is_known_by_its_history(store: Store) -> None:
    with store.writer(StepClock()) as writer:
        writer.remove("mcp", URL, "gone")
        writer.remove("mcp", URL + "/other", "gone")
    assert store.sources() == []
    store.require_sources(["mcp"])
    with pytest.raises(InputError, match=r"--source 'other': no such source .* \(sources: mcp\)"):
        store.require_sources(["mcp", "other"])


def test_an_interrupted_creation_is_completed(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path / "store")], check=True)
    with Store.create(tmp_path / "store") as created:
        assert created.head() is not None and created.pages() == []
    assert_consistent(tmp_path / "store")


def test_create_leaves_a_repository_of_other_work_untouched(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    git(work, "init", "-q", "--initial-branch=trunk")
    (work / "notes.md").write_text("v1\n")
    git(work, "add", "notes.md")
    git(work, "-c", "user.name=x", "-c", "user.email=x@example.org", "commit", "-q", "-m", "v1")
    (work / "notes.md").write_text("v1\nuncommitted work\n")
    (work / "staged.md").write_text("staged, never committed\n")
    git(work, "add", "staged.md")
    status = git(work, "status", "--porcelain")
    with pytest.raises(StoreError, match="a git repository, but not a spectrack snapshot store"):
        Store.create(work)
    assert (work / "notes.md").read_text() == "v1\nuncommitted work\n"
    assert git(work, "status", "--porcelain") == status
    assert git(work, "symbolic-ref", "HEAD") == "refs/heads/trunk\n"
    assert git(work, "for-each-ref", "--format=%(refname)") == "refs/heads/trunk\n"


def test_create_leaves_a_repository_with_only_staged_files_untouched(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    git(work, "init", "-q")
    (work / "draft.md").write_text("staged, never committed\n")
    git(work, "add", "draft.md")
    with pytest.raises(StoreError, match="not a spectrack snapshot store"):
        Store.create(work)
    assert (work / "draft.md").read_text() == "staged, never committed\n"
    assert git(work, "ls-files") == "draft.md\n"


@pytest.mark.parametrize("name", [".gitattributes", ".spectrack"])
def test_create_never_writes_over_a_file_of_the_folder(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text("mine\n")
    with pytest.raises(StoreError, match=f"{name}: exists, and a new snapshot store would"):
        Store.create(tmp_path)
    assert (tmp_path / name).read_text() == "mine\n"
    assert not (tmp_path / ".git").exists()
    git(tmp_path, "init", "-q")
    with pytest.raises(StoreError, match=f"{name}: exists"):
        Store.create(tmp_path)
    assert (tmp_path / name).read_text() == "mine\n"


def test_a_run_refuses_a_store_checked_out_at_another_branch(store: Store) -> None:
    git(store.path, "switch", "-q", "-c", "elsewhere")
    (store.path / "mcp" / "spec" / "tools.md").write_text("uncommitted work\n")
    before = head(store.path)
    with (
        pytest.raises(StoreError, match="HEAD is on elsewhere, not on the store's branch main"),
        store.writer(StepClock()) as writer,
    ):
        writer.record("mcp", URL + "/new", b"# New\n", day("2025-04-01"))
    assert (store.path / "mcp" / "spec" / "tools.md").read_text() == "uncommitted work\n"
    assert head(store.path) == before
    git(store.path, "switch", "-q", "--detach", "main")
    with pytest.raises(StoreError, match="HEAD is detached"), store.writer(StepClock()):
        pass


def test_create_refuses_a_file(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(StoreError, match="exists and is not a folder"):
        Store.create(tmp_path / "file")


def test_revisions_merged_in_are_listed_as_a_fresh_listing_lists_them(tmp_path: Path) -> None:
    origin = Store.create(tmp_path / "origin", StepClock())
    with origin.writer(StepClock()) as writer:
        writer.record("mcp", URL, b"# Tools\n", day("2025-01-01"))
        writer.record("mcp", URL + "/other", b"# Other\n", day("2025-01-01"))
    git(tmp_path, "clone", "--quiet", str(origin.path), "copy")
    with Store.open(tmp_path / "copy") as copy, copy.writer(StepClock()) as writer:
        writer.record("mcp", URL + "/other", b"# Other\n\nFrom the copy.\n", day("2025-02-01"))
    with origin.writer(StepClock()) as writer:
        writer.record("mcp", URL, b"# Tools\n\nFrom the origin.\n", day("2025-03-01"))
    assert len(origin.revisions()) == 3, "the listing is kept in .git"
    merge = ["-c", "user.name=Tester", "-c", "user.email=tester@example.org", "pull", "--quiet"]
    git(origin.path, *merge, "--no-rebase", "--no-edit", str(tmp_path / "copy"), "main")
    with Store.open(origin.path) as after_merge:
        listed = [r.commit for r in after_merge.revisions()]
    (origin.path / ".git" / "spectrack-revisions.pickle").unlink()
    with Store.open(origin.path) as fresh:
        assert listed == [r.commit for r in fresh.revisions()]
    assert len(listed) == 4


def test_a_report_worked_out_in_a_shallow_clone_does_not_outlive_deepening(
    tmp_path: Path,
) -> None:
    origin = Store.create(tmp_path / "origin", StepClock())
    for body in (b"# T\n\nClients MUST retry.\n", b"# T\n\nClients MUST retry.\n\nSee also.\n"):
        with origin.writer(StepClock()) as writer:
            writer.record("mcp", URL, body, day("2025-01-01"))
    with origin.writer(StepClock()) as writer:
        writer.record(
            "mcp", URL, b"# T\n\nClients MUST retry.\n\nSee the FAQ.\n", day("2025-01-02")
        )
    git(tmp_path, "clone", "--quiet", "--depth", "2", f"file://{origin.path}", "shallow")
    clone = tmp_path / "shallow"
    with Store.open(clone) as shallow:
        boundary = shallow.revisions()[0]
        assert boundary.commit in shallow.shallow_boundary()
        # Its parent was not fetched: the page looks added, with a requirement.
        assert [e.verdict for e in log_entries(shallow)] == ["normative", "editorial"]
    git(clone, "fetch", "--quiet", "--unshallow")
    with Store.open(clone) as deep:
        assert deep.shallow_boundary() == frozenset()
        assert [e.verdict for e in log_entries(deep)][1:] == ["editorial", "editorial"]


@pytest.mark.parametrize(
    ("trailer", "value"), [("Time-Source", "nowhere"), ("Time-Precision", "fortnight")]
)
def test_a_commit_with_trailers_no_spectrack_writes_is_a_store_error(
    store: Store, trailer: str, value: str
) -> None:
    (store.path / "mcp" / "spec" / "tools.md").write_bytes(b"# Tools\n\nEdited by hand.\n")
    git(store.path, "add", "mcp/spec/tools.md")
    message = (
        "Change mcp/spec/tools\n\nSpectrack-Source: mcp\nSpectrack-Page: mcp/spec/tools\n"
        f"Spectrack-URL: {URL}\nSpectrack-Event: changed\nSpectrack-{trailer}: {value}\n"
    )
    git(store.path, "-c", "user.name=a", "-c", "user.email=a@a", "commit", "-qm", message)
    commit = head(store.path)
    with pytest.raises(StoreError, match=f"^store commit {commit}: '{value}' is not a valid"):
        store.history("mcp/spec/tools")


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"url": 123}, "'url' is int, not a string"),
        ({"etag": ["x"]}, "'etag' is list, not a string"),
        ({"sha256": None}, "'sha256' is NoneType, not a string"),
    ],
)
def test_page_state_of_the_wrong_types_is_a_store_error(
    store: Store, change: dict[str, object], problem: str
) -> None:
    state = store.state("mcp/spec/tools")
    assert state is not None
    data = {**json.loads(state.to_json()), **change}
    with pytest.raises(StoreError, match=f"^state.json: unreadable page state \\({problem}\\)$"):
        PageState.from_json(json.dumps(data).encode(), "state.json")


def test_a_run_never_writes_over_a_file_of_its_own_in_the_store_folder(tmp_path: Path) -> None:
    clock = StepClock()
    opened = Store.create(tmp_path / "store", clock)
    with opened.writer(clock) as writer:
        writer.record("mcp", URL + "/other", b"# Other\n", day("2025-01-10"))
    before = head(opened.path)
    notes = opened.path / "mcp" / "spec" / "tools.md"
    notes.parent.mkdir(parents=True, exist_ok=True)
    notes.write_bytes(b"my own notes\n")
    with (
        pytest.raises(StoreError, match=f"^{notes}: a file the store does not hold is where page"),
        opened.writer(clock) as writer,
    ):
        writer.record("mcp", URL, b"# Tools\n", day("2025-01-11"))
    assert notes.read_bytes() == b"my own notes\n"
    assert head(opened.path) == before
    opened.close()


@pytest.mark.parametrize(
    ("meta", "problem"),
    [
        (b'{"format": 999}\n', "store format 999, newer than this spectrack's (1); upgrade"),
        (b"{bad\n", "not the JSON object spectrack writes"),
        (b'{"format": "one"}\n', "store format 'one', which no spectrack writes"),
    ],
)
def test_a_store_of_another_format_is_refused(store: Store, meta: bytes, problem: str) -> None:
    (store.path / ".spectrack" / "store.json").write_bytes(meta)
    git(store.path, "add", ".spectrack/store.json")
    git(store.path, "-c", "user.name=a", "-c", "user.email=a@a", "commit", "-qm", "edited")
    with pytest.raises(StoreError, match=re.escape(problem)):
        Store.open(store.path)


def _edit(path: Path) -> None:
    with path.open("ab") as file:
        file.write(b"note\n")


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ("unstaged edit", "mcp/spec/tools/other.md"),
        ("staged edit", "mcp/spec/tools/other.md"),
        ("deleted file", "mcp/spec/tools/other.md"),
        ("staged deletion", "mcp/spec/tools/other.md"),
        ("staged new file", "mcp/notes.md"),
    ],
)
def test_a_run_refuses_to_start_over_uncommitted_changes_and_keeps_them(
    store: Store, change: str, named: str
) -> None:
    other = store.path / "mcp" / "spec" / "tools" / "other.md"
    if change in ("unstaged edit", "staged edit"):
        _edit(other)
    if change == "staged edit":
        git(store.path, "add", "mcp/spec/tools/other.md")
    if change == "deleted file":
        other.unlink()
    if change == "staged deletion":
        git(store.path, "rm", "-q", "mcp/spec/tools/other.md")
    if change == "staged new file":
        (store.path / "mcp" / "notes.md").write_bytes(b"my notes\n")
        git(store.path, "add", "mcp/notes.md")
    # An untracked file the store does not touch is no change: not named, never in the way.
    stray = store.path / "mcp" / "spec" / "stray.txt"
    stray.write_bytes(b"stray\n")
    files = {
        path: path.read_bytes() if path.exists() else None
        for path in (other, store.path / "mcp" / "notes.md", stray)
    }
    status = git(store.path, "status", "--porcelain", "--untracked-files=all")
    before = head(store.path)
    with (
        pytest.raises(StoreError) as error,
        store.writer(StepClock()) as writer,
    ):
        writer.record("mcp", URL, b"# Tools\n\nA change to another page.\n", day("2025-04-01"))
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith(
        f"{store.path}: uncommitted changes to files of the store ({named}), which a run would "
        f"undo; set them aside with `git -C {store.path} stash`"
    )
    assert head(store.path) == before
    assert git(store.path, "status", "--porcelain", "--untracked-files=all") == status
    assert {p: p.read_bytes() if p.exists() else None for p in files} == files
    # Set aside as the message says, the change survives a run and comes back.
    git(store.path, "stash", "-q")
    with store.writer(StepClock()) as writer:
        writer.record("mcp", URL, b"# Tools\n\nA change to another page.\n", day("2025-04-01"))
    assert head(store.path) != before
    assert stray.read_bytes() == b"stray\n"
    git(store.path, "stash", "pop", "-q", "--index")
    assert git(store.path, "status", "--porcelain", "--untracked-files=all") == status
    assert {p: p.read_bytes() if p.exists() else None for p in files} == files


def test_many_changes_are_named_by_a_few(store: Store) -> None:
    for name in ("a", "b", "c", "d", "e"):
        (store.path / "mcp" / f"{name}.md").write_text(name)
    git(store.path, "add", "mcp")
    with (
        pytest.raises(StoreError, match=r"\(mcp/a\.md, mcp/b\.md, mcp/c\.md and 2 more\)"),
        store.writer(StepClock()),
    ):
        pass


def test_an_interrupted_run_keeps_its_commits_and_leaves_the_index_clean(store: Store) -> None:
    # Ctrl-C after some commits: they were kept, but the index still held the files before the
    # run, and `git status` showed their state files and pages as staged changes.
    with store.writer(StepClock()) as writer:
        writer.record("mcp", URL, b"# Tools\n\nServers SHOULD retry.\n", day("2025-03-26"))
    with pytest.raises(KeyboardInterrupt), store.writer(StepClock()) as writer:
        writer.record("mcp", URL, b"# Tools\n\nServers MUST retry.\n", day("2025-04-01"))
        writer.update("mcp", URL, etag='"v2"')
        raise KeyboardInterrupt
    assert [r.event for r in store.history("mcp/spec/tools")][-1] is RevisionEvent.CHANGED
    assert store.state("mcp/spec/tools").etag == '"v2"'  # type: ignore[union-attr]
    assert git(store.path, "status", "--porcelain", "--untracked-files=all") == ""
    assert not (store.path / ".git" / CHECKOUT_PENDING).exists()
    assert_consistent(store.path)


def test_a_killed_runs_files_are_repaired_but_an_edit_beside_them_refuses_first(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    def killed(*args: object) -> None:
        raise KeyboardInterrupt

    # Killed once its commits were published, before its files were checked out: the index
    # still has the files before the run (page state included), one page is half written.
    monkeypatch.setattr("spectrack.store.check_out", killed)
    with pytest.raises(KeyboardInterrupt), store.writer(StepClock()) as writer:
        writer.record("mcp", URL, b"# Tools\n\nRewritten by the run.\n", day("2025-04-01"))
        writer.record("mcp", URL + "/new", b"# New\n", day("2025-04-01"))
    monkeypatch.undo()
    published = head(store.path)
    pending = store.path / ".git" / CHECKOUT_PENDING
    assert pending.exists()
    tools = store.path / "mcp" / "spec" / "tools.md"
    tools.write_bytes(b"# Tools\n\nRewr")
    other = store.path / "mcp" / "spec" / "tools" / "other.md"
    _edit(other)
    status = git(store.path, "status", "--porcelain", "--untracked-files=all")
    with (
        pytest.raises(StoreError, match=r"store \(mcp/spec/tools/other\.md\), which a run would"),
        store.writer(StepClock()),
    ):
        pass
    assert other.read_bytes() == b"# Other\nnote\n"
    assert tools.read_bytes() == b"# Tools\n\nRewr", "nothing changed before the refusal"
    assert pending.exists()
    assert git(store.path, "status", "--porcelain", "--untracked-files=all") == status
    git(store.path, "restore", "mcp/spec/tools/other.md")
    with store.writer(StepClock()):
        pass
    assert head(store.path) == published
    assert tools.read_bytes() == b"# Tools\n\nRewritten by the run.\n"
    assert page_bytes(store.path, "mcp/spec/tools/new") == b"# New\n"
    assert not pending.exists()
    assert_consistent(store.path)


def test_fetch_over_an_edit_in_the_store_is_a_one_line_error_and_keeps_it(
    tmp_path: Path, site: LocalSite, monkeypatch: pytest.MonkeyPatch, capsys: CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "spectrack.toml").write_text(
        f'[store]\npath = "snapshots"\n\n[[source]]\nname = "mcp"\n'
        f'sitemap = "{site.url("/sitemap.xml")}"\nmarkdown = "{{url}}.md"\n'
    )
    site.publish({"/docs/a": b"# A\n", "/docs/b": b"# B\n"}, lastmod="2025-03-26")
    main(["fetch", "--quiet"])
    edited = tmp_path / "snapshots" / "mcp" / "docs" / "b.md"
    _edit(edited)
    git(tmp_path / "snapshots", "add", "mcp/docs/b.md")
    site.publish({"/docs/a": b"# A\n\nChanged.\n", "/docs/b": b"# B\n"}, lastmod="2025-06-18")
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        main(["fetch", "--quiet"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "snapshots: uncommitted changes to files of the store (mcp/docs/b.md)" in err
    assert edited.read_bytes() == b"# B\nnote\n"
    assert git(tmp_path / "snapshots", "status", "--porcelain") == "M  mcp/docs/b.md\n"


def test_a_year_or_month_lastmod_recorded_as_a_day_by_an_older_version_reads_as_one(
    tmp_path: Path,
) -> None:
    """Stores written before years and months were told apart say ``day`` of a lastmod of
    ``2025`` or ``2025-03``; the raw lastmod they kept says which it was, and log shows that."""
    clock = StepClock(datetime(2030, 1, 1, tzinfo=UTC))
    with Store.create(tmp_path / "store", clock) as opened:
        with opened.writer(clock) as writer:
            for path, raw, first in [
                ("/kettle", "2025", "2025-01-01"),
                ("/lid", "2025-03", "2025-03-01"),
                ("/spout", "2025-03-04", "2025-03-04"),
            ]:
                # What such a version wrote: the first day of the period, to the day.
                older = replace(day(first), raw=raw)
                writer.record("jars", URL + path, b"# Jar\n", older, lastmod=raw)
        revisions = opened.revisions()
        assert [r.precision for r in revisions] == [Precision.YEAR, Precision.MONTH, Precision.DAY]
        assert [upstream_label(r) for r in revisions] == ["2025", "2025-03", "2025-03-04"]
