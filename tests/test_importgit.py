from __future__ import annotations

import os
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from spectrack.config import single_source_config
from spectrack.dates import Precision, TimeSource
from spectrack.errors import InputError
from spectrack.importgit import import_git, page_url
from spectrack.serve import LocalSite
from spectrack.site import build, present
from spectrack.site.collect import collect
from spectrack.store import RevisionEvent, Store
from spectrack.track import run_fetch
from tests.conftest import StepClock
from tests.interrupt import StopAfter
from tests.storecheck import assert_consistent, head


class Upstream:
    """A specification repository in a temporary folder, committed at chosen dates."""

    def __init__(self, path: Path) -> None:
        self.path = path
        subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)

    def git(self, *args: str, date: str = "2024-01-01T00:00:00+00:00") -> str:
        env = dict(
            os.environ,
            GIT_AUTHOR_NAME="Editor",
            GIT_AUTHOR_EMAIL="editor@example.org",
            GIT_COMMITTER_NAME="Editor",
            GIT_COMMITTER_EMAIL="editor@example.org",
            GIT_AUTHOR_DATE=date,
            GIT_COMMITTER_DATE=date,
        )
        done = subprocess.run(
            ["git", "-C", str(self.path), *args],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout.strip()

    def commit(self, date: str, files: dict[str, bytes | None], message: str = "edit") -> str:
        for name, data in files.items():
            target = self.path / name
            if data is None:
                self.git("rm", "-q", name)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            self.git("add", name)
        self.git("commit", "-q", "-m", message, date=date)
        return self.git("rev-parse", "HEAD")


@pytest.fixture
def upstream(tmp_path: Path) -> Upstream:
    repo = Upstream(tmp_path / "spec")
    repo.commit(
        "2024-03-26T09:00:00+01:00",
        {
            "docs/spec/index.mdx": b"# Overview\n\nIntro.\n",
            "docs/spec/server/tools.mdx": b"# Tools\n\nServers SHOULD validate input.\n",
            "docs/spec/logo.png": b"\x89PNG",
            "README.md": b"# Repo\n",
        },
    )
    repo.commit(
        "2024-06-18T12:00:00+00:00",
        {"docs/spec/server/tools.mdx": b"# Tools\n\nServers MUST validate input.\n"},
    )
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("2024-07-01T00:00:00+00:00", {"docs/spec/server/prompts.md": b"# Prompts\n"})
    repo.commit("2024-07-02T00:00:00+00:00", {"docs/spec/server/prompts.md": b"# Prompts\n\nv2\n"})
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "-m", "merge", "feature", date="2024-07-10T00:00:00+00:00")
    repo.commit("2024-08-01T00:00:00+00:00", {"docs/spec/latin1.md": b"caf\xe9\n"})
    repo.commit("2024-09-01T00:00:00+00:00", {"docs/spec/index.mdx": None})
    return repo


def test_each_commit_touching_a_page_becomes_a_revision(upstream: Upstream, tmp_path: Path) -> None:
    store = Store.create(tmp_path / "store")
    summary = import_git(
        store,
        upstream.path,
        folder="docs/spec",
        source="mcp",
        url_base="https://docs.example.org/specification/",
        clock=StepClock(),
    )
    assert (summary.commits, summary.revisions, summary.pages) == (5, 5, 3)
    assert len(summary.skipped) == 1 and "latin1.md: not UTF-8" in summary.skipped[0]
    revisions = store.revisions()
    assert [(r.page, r.event) for r in revisions] == [
        ("mcp/specification", RevisionEvent.ADDED),
        ("mcp/specification/server/tools", RevisionEvent.ADDED),
        ("mcp/specification/server/tools", RevisionEvent.CHANGED),
        ("mcp/specification/server/prompts", RevisionEvent.ADDED),
        ("mcp/specification", RevisionEvent.REMOVED),
    ]
    first = revisions[0]
    assert first.upstream_time == datetime(2024, 3, 26, 8, tzinfo=UTC)
    assert (first.time_source, first.precision) == (TimeSource.COMMIT, Precision.SECOND)
    assert first.url == "https://docs.example.org/specification"
    assert first.upstream_commit == upstream.git("rev-list", "--max-parents=0", "HEAD")
    merged = revisions[3]
    assert merged.upstream_time == datetime(2024, 7, 10, tzinfo=UTC), "dated by the merge"
    assert store.read(merged.page, merged.commit) == "# Prompts\n\nv2\n"
    assert store.read("mcp/specification/server/tools", revisions[1].commit) == (
        "# Tools\n\nServers SHOULD validate input.\n"
    )
    assert revisions[-1].upstream_time == datetime(2024, 9, 1, tzinfo=UTC)
    assert_consistent(store.path)
    store.close()


def test_a_rename_to_the_same_url_keeps_the_page(tmp_path: Path) -> None:
    repo = Upstream(tmp_path / "spec")
    repo.commit(
        "2024-01-05T00:00:00+00:00",
        {
            "docs/rules.mdx": b"# Rules\n\nClients MUST retry.\n",
            "docs/guide/index.md": b"# Guide\n",
            "docs/gone.md": b"# Gone\n",
        },
    )
    repo.git("mv", "docs/rules.mdx", "docs/rules.md")
    repo.git("mv", "docs/guide/index.md", "docs/guide.md")
    repo.git("rm", "-q", "docs/gone.md")
    repo.git("commit", "-q", "-m", "rename", date="2024-02-05T00:00:00+00:00")
    with Store.create(tmp_path / "store") as store:
        import_git(store, repo.path, folder="docs", source="mcp", url_base="https://x.org/d")
        assert store.pages("mcp") == ["mcp/d/guide", "mcp/d/rules"]
        assert [(r.page, r.event) for r in store.revisions()][-1] == (
            "mcp/d/gone",
            RevisionEvent.REMOVED,
        )
        assert store.read("mcp/d/rules", "HEAD") == "# Rules\n\nClients MUST retry.\n"
        assert_consistent(store.path)


def test_an_index_page_in_capitals_names_its_folder(tmp_path: Path) -> None:
    repo = Upstream(tmp_path / "spec")
    repo.commit(
        "2024-01-05T00:00:00+00:00",
        {"docs/guide/INDEX.MD": b"# Guide\n", "docs/Index.mdx": b"# Home\n"},
    )
    with Store.create(tmp_path / "store") as store:
        import_git(store, repo.path, folder="docs", source="mcp", url_base="https://x.org/d")
        assert sorted(r.url for r in store.revisions()) == [
            "https://x.org/d",
            "https://x.org/d/guide",
        ]
        assert store.pages("mcp") == ["mcp/d", "mcp/d/guide"]
        assert_consistent(store.path)


def test_a_page_stays_while_another_file_of_its_url_remains(tmp_path: Path) -> None:
    repo = Upstream(tmp_path / "spec")
    repo.commit("2024-01-01T00:00:00+00:00", {"docs/tools.md": b"# Tools\n\nOld layout.\n"})
    repo.commit("2024-02-01T00:00:00+00:00", {"docs/tools/index.md": b"# Tools\n\nNew layout.\n"})
    repo.commit("2024-02-15T00:00:00+00:00", {"docs/tools.md": b"# Tools\n\nOld, edited.\n"})
    repo.commit("2024-03-01T00:00:00+00:00", {"docs/tools.md": None})
    with Store.create(tmp_path / "store") as store:
        import_git(store, repo.path, folder="docs", source="mcp", url_base="https://x.org/d")
        assert store.pages("mcp") == ["mcp/d/tools"]
        assert RevisionEvent.REMOVED not in [r.event for r in store.revisions()]
        assert store.read("mcp/d/tools", "HEAD") == "# Tools\n\nNew layout.\n"
        repo.commit("2024-04-01T00:00:00+00:00", {"docs/tools/index.md": None})
    with Store.create(tmp_path / "again") as store:
        import_git(store, repo.path, folder="docs", source="mcp", url_base="https://x.org/d")
        assert store.pages("mcp") == []
        assert store.revisions()[-1].event is RevisionEvent.REMOVED
        assert_consistent(store.path)


def test_a_rename_that_changes_only_case_names_the_new_page_plainly(tmp_path: Path) -> None:
    repo = Upstream(tmp_path / "spec")
    repo.commit("2024-01-05T00:00:00+00:00", {"docs/readme.md": b"# Read me\n"})
    repo.git("mv", "docs/readme.md", "docs/README.md")
    repo.git("commit", "-q", "-m", "rename", date="2024-02-05T00:00:00+00:00")
    with Store.create(tmp_path / "store") as store:
        import_git(store, repo.path, folder="docs", source="mcp", url_base="https://x.org/d")
        assert store.pages("mcp") == ["mcp/d/README"]
        assert [(r.page, r.event) for r in store.revisions()] == [
            ("mcp/d/readme", RevisionEvent.ADDED),
            ("mcp/d/readme", RevisionEvent.REMOVED),
            ("mcp/d/README", RevisionEvent.ADDED),
        ]
        assert_consistent(store.path)


def test_a_file_name_that_is_not_utf8_is_left_out_and_listed(tmp_path: Path) -> None:
    repo = Upstream(tmp_path / "spec")
    repo.commit("2024-01-05T00:00:00+00:00", {"docs/plain.md": b"# Plain\n"})
    odd = os.path.join(os.fsencode(repo.path / "docs"), b"na\xefve.md")
    with open(odd, "wb") as file:
        file.write(b"# Naive\n")
    repo.git("add", "docs")
    repo.git("commit", "-q", "-m", "odd name", date="2024-02-05T00:00:00+00:00")
    with Store.create(tmp_path / "store") as store:
        summary = import_git(
            store, repo.path, folder="docs", source="mcp", url_base="https://x.org/d"
        )
        assert store.pages("mcp") == ["mcp/d/plain"]
        assert [s.split(" ", 1)[1] for s in summary.skipped] == [
            "na\\xefve.md: file name not UTF-8"
        ]
        assert_consistent(store.path)


def test_two_files_of_one_url_in_one_commit_record_one_revision_and_say_so(
    tmp_path: Path,
) -> None:
    repo = Upstream(tmp_path / "spec")
    repo.commit(
        "2024-01-05T00:00:00+00:00",
        {"docs/tools.md": b"# Tools\n\nOne.\n", "docs/tools/index.mdx": b"# Tools\n\nTwo.\n"},
    )
    with Store.create(tmp_path / "store") as store:
        summary = import_git(
            store, repo.path, folder="docs", source="mcp", url_base="https://x.org/d"
        )
        assert [r.event for r in store.revisions()] == [RevisionEvent.ADDED]
        assert store.read("mcp/d/tools", "HEAD") == "# Tools\n\nTwo.\n"
        assert [s.split(" ", 1)[1] for s in summary.skipped] == [
            "tools.md: tools/index.mdx of the same commit is page https://x.org/d/tools too, "
            "and is the one recorded"
        ]


def test_symbolic_links_are_no_pages(tmp_path: Path) -> None:
    repo = Upstream(tmp_path / "spec")
    (repo.path / "docs").mkdir()
    (repo.path / "docs" / "secret.md").symlink_to("/etc/hostname")
    repo.git("add", "docs/secret.md")
    repo.commit("2024-01-05T00:00:00+00:00", {"docs/plain.md": b"# Plain\n"})
    with Store.create(tmp_path / "store") as store:
        import_git(store, repo.path, folder="docs", source="mcp", url_base="https://x.org/d")
        assert store.pages("mcp") == ["mcp/d/plain"]


def test_a_page_that_becomes_a_symbolic_link_is_removed_and_one_that_becomes_a_file_is_added(
    tmp_path: Path,
) -> None:
    repo = Upstream(tmp_path / "spec")
    repo.commit(
        "2024-01-05T00:00:00+00:00",
        {"docs/one.md": b"# One\n\nClients MAY retry.\n", "docs/two.md": b"# Two\n"},
    )
    (repo.path / "docs" / "one.md").unlink()
    (repo.path / "docs" / "one.md").symlink_to("two.md")
    repo.git("add", "docs/one.md")
    repo.git("commit", "-q", "-m", "one is two now", date="2024-02-01T00:00:00+00:00")
    (repo.path / "docs" / "one.md").unlink()
    repo.commit("2024-03-01T00:00:00+00:00", {"docs/one.md": b"# One\n\nClients MUST retry.\n"})
    with Store.create(tmp_path / "store") as store:
        import_git(store, repo.path, folder="docs", source="mcp", url_base="https://x.org/d")
        assert [(r.page, r.event, r.upstream_time.month) for r in store.revisions()] == [
            ("mcp/d/one", RevisionEvent.ADDED, 1),
            ("mcp/d/two", RevisionEvent.ADDED, 1),
            ("mcp/d/one", RevisionEvent.REMOVED, 2),
            ("mcp/d/one", RevisionEvent.ADDED, 3),
        ]
        assert_consistent(store.path)


def test_a_failed_import_stores_nothing_and_can_be_retried(
    upstream: Upstream, tmp_path: Path
) -> None:
    options = {"folder": "docs/spec", "source": "mcp", "url_base": "https://x.org/s"}
    with Store.create(tmp_path / "store") as store:
        before = head(store.path)
        with pytest.raises(KeyboardInterrupt):
            import_git(store, upstream.path, progress=StopAfter(3), **options)  # type: ignore[arg-type]
        assert head(store.path) == before
        assert store.pages() == [] and not (store.path / "mcp").exists()
        assert not list((store.path / ".git").glob("fast_import_crash_*"))
        assert_consistent(store.path, [before])
        summary = import_git(store, upstream.path, **options)  # type: ignore[arg-type]
        assert summary.revisions == 5
        assert_consistent(store.path, [before])


def test_importing_into_a_source_with_pages_is_refused(upstream: Upstream, tmp_path: Path) -> None:
    with Store.create(tmp_path / "store") as store:
        options = {"folder": "docs/spec", "source": "mcp", "url_base": "https://x.org/s"}
        import_git(store, upstream.path, **options)  # type: ignore[arg-type]
        before = len(store.revisions())
        with pytest.raises(InputError, match="already has 2 pages"):
            import_git(store, upstream.path, **options)  # type: ignore[arg-type]
        assert len(store.revisions()) == before


@pytest.mark.parametrize(
    ("folder", "pages"),
    [
        (".", {"mcp/s/README", "mcp/s/docs/spec/server/tools", "mcp/s/docs/spec/server/prompts"}),
        ("./docs/spec", {"mcp/s/server/tools", "mcp/s/server/prompts"}),
        ("/docs/spec/", {"mcp/s/server/tools", "mcp/s/server/prompts"}),
    ],
)
def test_a_folder_written_with_dots_or_slashes_names_the_same_pages(
    upstream: Upstream, tmp_path: Path, folder: str, pages: set[str]
) -> None:
    with Store.create(tmp_path / "store") as store:
        import_git(store, upstream.path, folder=folder, source="mcp", url_base="https://x.org/s")
        assert set(store.pages()) == pages


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"folder": "nowhere"}, "no commit touches a Markdown page"),
        ({"folder": "docs/../.."}, "must stay inside the repository"),
        ({"source": "../x"}, "not a source name"),
        ({"url_base": "docs.example.org"}, r"not an http\(s\) URL"),
        ({"url_base": "http://[::1/docs"}, r"not a URL \(Invalid IPv6 URL\)"),
        ({"url_base": "http://:80/docs"}, r"not a URL \(no host name\)"),
        ({"url_base": "https://x.org/docs?v=2"}, r"no query \(\?\) or fragment"),
        ({"url_base": "https://x.org/docs#top"}, r"no query \(\?\) or fragment"),
    ],
)
def test_bad_arguments(upstream: Upstream, tmp_path: Path, options: dict, message: str) -> None:
    arguments = {"folder": "docs/spec", "source": "mcp", "url_base": "https://x.org/s", **options}
    with Store.create(tmp_path / "store") as store, pytest.raises(InputError, match=message):
        import_git(store, upstream.path, **arguments)


def test_not_a_repository(tmp_path: Path) -> None:
    with Store.create(tmp_path / "store") as store, pytest.raises(InputError, match="not a git"):
        import_git(store, tmp_path / "none", folder="d", source="s", url_base="https://x.org")


def test_a_repository_without_commits(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path / "empty")], check=True)
    with (
        Store.create(tmp_path / "store") as store,
        pytest.raises(InputError, match="empty: the repository has no commit yet"),
    ):
        import_git(store, tmp_path / "empty", folder="d", source="s", url_base="https://x.org")


def test_page_urls() -> None:
    assert page_url("https://x.org/spec/", "a/b.mdx") == "https://x.org/spec/a/b"
    assert page_url("https://x.org/spec", "a/index.md") == "https://x.org/spec/a"
    assert page_url("https://x.org/spec", "index.md") == "https://x.org/spec"
    assert page_url("https://x.org", "with space.md") == "https://x.org/with%20space"
    assert page_url("https://x.org", "pkg@2/c(1).md") == "https://x.org/pkg@2/c(1)"
    assert page_url("https://x.org", "déjà vu?.md") == "https://x.org/d%C3%A9j%C3%A0%20vu%3F"


def test_a_fetch_of_the_live_site_continues_pages_whose_names_hold_at_or_parentheses(
    tmp_path: Path, site: LocalSite
) -> None:
    """Sitemaps write ``@``, ``(``, ``+`` in a path as they are; imported as ``%40``… the
    pages were other URLs, and the live site's pages came in beside them as ``pkg@2~hash``."""
    repo = Upstream(tmp_path / "spec")
    names = ("pkg@2", "c(1)", "a+b")
    repo.commit(
        "2024-01-05T00:00:00+00:00",
        {f"docs/{name}.md": f"# {name}\n\nClients MAY retry.\n".encode() for name in names},
    )
    with Store.create(tmp_path / "store") as store:
        import_git(store, repo.path, folder="docs", source="s", url_base=site.url("/docs"))
    site.publish(
        {f"/docs/{name}": f"# {name}\n\nClients MUST retry.\n".encode() for name in names},
        lastmod="2024-06-01",
    )
    config = single_source_config(
        tmp_path / "store", "s", site.url("/sitemap.xml"), markdown="{url}.md"
    )
    assert run_fetch(config, clock=StepClock()).ok
    with Store.open(tmp_path / "store") as store:
        assert store.pages() == sorted(f"s/docs/{name}" for name in names)
        assert [r.event for r in store.revisions()] == [RevisionEvent.ADDED] * 3 + [
            RevisionEvent.CHANGED
        ] * 3


def test_a_commit_dated_past_the_year_9999_in_utc_is_placed_at_its_recording(
    tmp_path: Path,
) -> None:
    """9999-12-31T23:59:59-12:00 is in the year 10000 in UTC: no reader of the store could show
    it, and the site and log stopped on it for good."""
    repo = Upstream(tmp_path / "spec")
    repo.commit("@253402343999 -1200", {"docs/a.md": b"# A\n\nClients MUST send.\n"})
    with Store.create(tmp_path / "store") as store:
        import_git(store, repo.path, folder="docs", source="s", url_base="https://x.org/d")
        (revision,) = store.revisions()
        assert revision.time_source is TimeSource.FETCH
        assert revision.upstream_time == revision.recorded_time
        build(collect(store), tmp_path / "site")
    assert (tmp_path / "site" / present.change_href(revision.commit)).is_file()


def test_a_commit_dated_before_1970_is_placed_at_its_recording(tmp_path: Path) -> None:
    """git prints no date for a commit before 1970 (a history converted from an older system),
    and the import stopped with a traceback."""
    repo = Upstream(tmp_path / "spec")
    repo.commit("2024-01-05T00:00:00+00:00", {"docs/a.md": b"# A\n\nClients MAY send.\n"})
    tree = repo.git("write-tree")
    person = "Editor <editor@example.org> -86400 +0000"
    commit = (
        subprocess.run(
            ["git", "-C", str(repo.path), "hash-object", "-t", "commit", "-w", "--stdin"],
            input=f"tree {tree}\nauthor {person}\ncommitter {person}\n\nold\n".encode(),
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .strip()
    )
    repo.git("update-ref", "HEAD", commit)
    clock = StepClock()
    with Store.create(tmp_path / "store") as store:
        import_git(
            store, repo.path, folder="docs", source="s", url_base="https://x.org/d", clock=clock
        )
        (revision,) = store.revisions()
        assert revision.upstream_commit == commit
        assert revision.time_source is TimeSource.FETCH
        assert datetime(2030, 1, 1, tzinfo=UTC) <= revision.upstream_time <= revision.recorded_time
