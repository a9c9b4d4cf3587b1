"""From a real snapshot store to the site: `collect` and `spectrack site`."""

from __future__ import annotations

import gc
import pickle
import subprocess
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from spectrack.chunkfile import frame
from spectrack.cli import main
from spectrack.codedigest import code_digest
from spectrack.collector import collector_paused
from spectrack.dates import Precision, TimeSource, UpstreamTime
from spectrack.errors import InputError
from spectrack.history import log_entries, revision_report
from spectrack.model import PageStatus
from spectrack.releases import RecordedFeed, Release, feeds_to_json, release_path
from spectrack.reportcache import CACHE_FILE, SCHEMA, ReportCache, RevisionFacts, StoredReport
from spectrack.site import build, present
from spectrack.site.collect import collect
from spectrack.site.publish import publish
from spectrack.store import Store
from tests.conftest import StepClock
from tests.site.scan import scan_file
from tests.storecheck import pickles

LAMP = "https://lamps.example/docs/lamp"
KETTLE = "https://lamps.example/docs/kettle"


def day(text: str) -> UpstreamTime:
    moment = datetime.fromisoformat(text).replace(tzinfo=UTC)
    return UpstreamTime(moment, TimeSource.SITEMAP, Precision.DAY, text)


def record(store: Store, clock: StepClock, url: str, body: str, when: str) -> None:
    with store.writer(clock) as writer:
        writer.record("lamps", url, body.encode(), day(when), lastmod=when)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """The lamp page added, strengthened and added to; a kettle page added, then removed."""
    clock = StepClock(datetime(2030, 1, 1, tzinfo=UTC))
    opened = Store.create(tmp_path / "store", clock)
    record(opened, clock, LAMP, "# Lamp\n\nThe lamp SHOULD glow.\n", "2025-01-10")
    record(opened, clock, KETTLE, "# Kettle\n\nThe kettle sings.\n", "2025-01-11")
    record(opened, clock, LAMP, "# Lamp\n\nThe lamp MUST glow.\n", "2025-02-10")
    record(
        opened, clock, LAMP, "# Lamp\n\nThe lamp MUST glow.\n\nIt is made of brass.\n", "2025-03-10"
    )
    with opened.writer(clock) as writer:
        writer.remove("lamps", KETTLE, "no longer listed")
    yield opened
    opened.close()


def test_every_revision_becomes_a_change_with_its_report(store: Store) -> None:
    revisions = store.revisions()
    data = collect(store)
    assert [c.change_id for c in data.changes] == [r.commit for r in revisions]
    for change, revision in zip(data.changes, revisions, strict=True):
        assert change.report.full == revision_report(store, revision)
        assert change.upstream == UpstreamTime(
            revision.upstream_time, revision.time_source, revision.precision, revision.lastmod_raw
        )
        assert (change.url, change.page_path, change.recorded_at) == (
            revision.url,
            revision.path,
            revision.recorded_time,
        )
    assert [c.title for c in data.changes] == ["Lamp", "Kettle", "Lamp", "Lamp", "Kettle"]
    assert [c.verdict for c in data.changes] == [
        "normative",
        "editorial",
        "normative",
        "editorial",
        "editorial",
    ]
    assert data.generated_at == revisions[-1].recorded_time
    assert [s.name for s in data.sources] == ["lamps"]


def test_a_page_history_links_its_changes(store: Store) -> None:
    lamp = [c for c in collect(store).changes if c.url == LAMP]
    assert [c.previous_id for c in lamp] == [None, lamp[0].change_id, lamp[1].change_id]
    assert [c.next_id for c in lamp] == [lamp[1].change_id, lamp[2].change_id, None]
    assert {c.page_edits for c in lamp} == {3}
    assert {c.first_seen for c in lamp} == {lamp[0].recorded_at}


def test_edits_recorded_in_the_same_second_keep_the_stores_order(tmp_path: Path) -> None:
    """`spectrack import-git` records a page's whole history at once: its pager, history page,
    feed and latest edit follow the store, not the commit ids."""
    moment = datetime(2030, 1, 1, tzinfo=UTC)
    with Store.create(tmp_path / "store", lambda: moment) as store:
        for count in range(1, 9):
            when = f"2025-01-{count:02}"
            with store.writer(lambda: moment) as writer:
                body = f"# Lamp\n\nThe lamp MUST glow {count} times.\n"
                writer.record("lamps", LAMP, body.encode(), day(when), lastmod=when)
        oldest_first = [revision.commit for revision in store.revisions()]
        data = collect(store)
    assert [c.previous_id for c in data.changes] == [None, *oldest_first[:-1]]
    assert [c.next_id for c in data.changes] == [*oldest_first[1:], None]
    out = tmp_path / "site"
    build(data, out)
    feed = (out / "feeds/all.xml").read_text()
    entries = [feed.index(f"change/{commit}") for commit in oldest_first]
    assert entries == sorted(entries, reverse=True)
    source = (out / present.source_href("lamps")).read_text()
    assert [commit for commit in oldest_first if commit in source] == oldest_first[-1:]
    history = (out / present.page_href(data.changes[0].page_key)).read_text()
    assert [history.index(commit) for commit in oldest_first] == sorted(
        (history.index(commit) for commit in oldest_first), reverse=True
    )


def test_a_recorded_release_near_an_edit_is_named_on_its_change(store: Store) -> None:
    feed = RecordedFeed(
        key="github:lamps/lamp",
        label="github lamps/lamp",
        url="https://github.example/lamps/lamp/releases.atom",
        window=timedelta(hours=24),
        releases=(
            Release("1.0.0", datetime(2025, 2, 10, 6, tzinfo=UTC), None, False),
            Release("0.9.0", datetime(2024, 6, 1, tzinfo=UTC), None, False),
        ),
    )
    with store.writer(StepClock(datetime(2030, 6, 1, tzinfo=UTC))) as writer:
        writer.record_file(
            release_path("lamps"),
            feeds_to_json([feed]),
            "Record releases of lamps",
            {"Source": "lamps", "Event": "releases"},
        )
    changes = collect(store).changes
    assert len(changes) == len(store.revisions()) == 5
    near = [c for c in changes if c.release is not None]
    assert [c.upstream.raw for c in near] == ["2025-02-10"]
    assert near[0].release is not None
    assert near[0].release.line.startswith("Nearest release: 1.0.0 (github lamps/lamp), published")


def test_an_empty_store_is_a_clear_error(tmp_path: Path) -> None:
    with (
        Store.create(tmp_path / "empty", StepClock()) as empty,
        pytest.raises(InputError, match="nothing recorded yet"),
    ):
        collect(empty)


@pytest.mark.parametrize("inside", [".", "lamps", ".git"])
def test_a_site_is_never_written_into_the_store(
    store: Store, inside: str, capsys: pytest.CaptureFixture[str]
) -> None:
    def work_tree() -> list[Path]:
        return sorted(p for p in store.path.rglob("*") if ".git" not in p.parts)

    before = work_tree()
    out = store.path / inside
    with pytest.raises(SystemExit) as stop:
        main(["site", "--store", str(store.path), "--out", str(out), "--quiet"])
    assert stop.value.code == 2
    assert capsys.readouterr().err == (
        f"spectrack: error: {out}: inside the snapshot store {store.path}; "
        "write the site to a folder of its own\n"
    )
    assert work_tree() == before
    assert not (store.path / ".git" / "index.html").exists()


def test_the_site_command_builds_and_then_rewrites_only_what_moved(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "site"
    arguments = ["site", "--store", str(store.path), "--out", str(out), "--quiet"]
    main(arguments)
    assert capsys.readouterr().out == ""
    *recorded, removed = store.revisions()
    for revision in recorded:
        page = scan_file(out / present.change_href(revision.commit))
        assert f"from the site's sitemap: {revision.lastmod_raw}" in " ".join(page.text.split())
    removal = " ".join(scan_file(out / present.change_href(removed.commit)).text.split())
    assert "Kettle removed" in removal
    assert "only the fetch time is known" in removal

    main(arguments[:-1])
    assert capsys.readouterr().out.startswith(f"{out}: 0 files written, 0 removed, ")

    record(
        store, StepClock(datetime(2031, 1, 1, tzinfo=UTC)), LAMP, "# Lamp\n\nGone.\n", "2025-04-01"
    )
    main([*arguments[:-1], "--base-url", "https://changes.example/"])
    summary = capsys.readouterr().out
    assert summary.startswith(f"{out}: ")
    newest = store.revisions()[-1]
    assert (out / present.change_href(newest.commit)).is_file()
    assert "https://changes.example/changes/" in (out / "feeds/all.xml").read_text()


def test_the_site_command_refuses_a_folder_of_other_files_before_diffing(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "mine"
    out.mkdir()
    (out / "index.html").write_text("my own page")
    with pytest.raises(SystemExit) as stop:
        main(["site", "--store", str(store.path), "--out", str(out)])
    assert stop.value.code == 2
    assert capsys.readouterr().err == (
        f"spectrack: error: {out}: holds files that no `spectrack site` wrote (no .spectrack-site "
        "in it), which the site's files could replace; write the site to a new or empty folder\n"
    )
    assert [path.name for path in out.iterdir()] == ["index.html"]
    assert (out / "index.html").read_text() == "my own page"
    assert not cache_file(store).exists()


def test_the_site_command_names_a_missing_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["site", "--store", str(tmp_path / "nowhere"), "--out", str(tmp_path / "site")])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith("spectrack: error: ") and "nowhere" in error
    assert error.count("\n") == 1


# -- the report cache: a rebuild diffs only new revisions, and a bad cache is rebuilt ---------


def cache_file(store: Store) -> Path:
    return store.path / ".git" / CACHE_FILE


def retitle(store: Store, commit: str, title: str) -> None:
    """Put a title no diff of the store could give on one commit's cached facts."""
    cache = ReportCache.load(store.path)
    facts = cache.get(commit)
    assert facts is not None
    cache.put(commit, replace(facts, title=title))
    cache.save()


def chunks(store: Store) -> list[object]:
    return pickles(cache_file(store))


def test_a_second_collect_reads_the_reports_from_the_cache(store: Store) -> None:
    first = collect(store)
    assert cache_file(store).is_file()
    commit = first.changes[0].change_id
    retitle(store, commit, "Title from the cache")
    second = collect(store)
    assert second.changes[0].title == "Title from the cache"
    assert [c.report for c in second.changes] == [c.report for c in first.changes]


def test_a_new_revision_is_diffed_and_appended_to_the_cache(store: Store) -> None:
    collect(store)
    assert len(chunks(store)) == 2
    clock = StepClock(datetime(2031, 1, 1, tzinfo=UTC))
    record(store, clock, LAMP, "# Lamp\n\nThe lamp MAY glow.\n", "2025-04-10")
    data = collect(store)
    newest = store.revisions()[-1]
    assert data.changes[-1].change_id == newest.commit
    assert data.changes[-1].report.full == revision_report(store, newest)
    assert data.changes[-1].verdict == "normative"
    header, everything, appended = chunks(store)
    assert header == {"schema": SCHEMA, "code": code_digest()}
    assert appended == {
        newest.commit: RevisionFacts(StoredReport.of(revision_report(store, newest)), "Lamp")
    }
    assert newest.commit not in everything
    assert ReportCache.load(store.path).get(newest.commit) == appended[newest.commit]
    assert collect(store) == data
    assert len(chunks(store)) == 3


def test_a_cache_written_by_another_version_of_spectrack_is_set_aside(store: Store) -> None:
    first = collect(store)
    commit = first.changes[0].change_id
    header, facts = chunks(store)
    with cache_file(store).open("wb") as file:
        file.write(frame({"schema": SCHEMA, "code": "another version"}))
        file.write(frame({commit: replace(facts[commit], title="Stale title")}))
    assert collect(store).changes[0].title == "Lamp"
    assert chunks(store)[0] == header
    assert ReportCache.load(store.path).get(commit) == RevisionFacts(
        first.changes[0].report, "Lamp"
    )


def test_an_unreadable_cache_is_rebuilt(store: Store) -> None:
    expected = collect(store)
    for garbage in (b"not a pickle", b"", pickle.dumps({"schema": "other"})):
        cache_file(store).write_bytes(garbage)
        assert collect(store) == expected
        header, facts = chunks(store)
        assert header == {"schema": SCHEMA, "code": code_digest()}
        assert set(facts) == {c.change_id for c in expected.changes}


def test_a_cache_with_a_flipped_byte_is_set_aside_not_believed(store: Store) -> None:
    expected = [(e.revision.commit, e.verdict) for e in log_entries(store)]
    assert ("normative" in dict(expected).values()) and b"normative" in cache_file(
        store
    ).read_bytes()
    data = cache_file(store).read_bytes()
    cache_file(store).write_bytes(data.replace(b"normative", b"oormative"))
    assert [(e.revision.commit, e.verdict) for e in log_entries(store)] == expected
    assert len(chunks(store)) == 2, "written afresh"


def test_a_chunk_holding_something_else_is_set_aside(store: Store) -> None:
    expected = collect(store)
    commit = expected.changes[0].change_id
    for foreign in ([1], {1: "not facts"}, {commit: "not facts"}):
        with cache_file(store).open("ab") as file:
            file.write(frame(foreign))
        assert collect(store) == expected
        assert [c.report.full for c in collect(store).changes] == [
            c.report.full for c in expected.changes
        ]


def test_a_report_whose_pickle_cannot_be_read_is_worked_out_again(store: Store) -> None:
    expected = collect(store)
    header, facts = chunks(store)
    unreadable = {
        commit: replace(fact, report=StoredReport(summary(fact.report), pickled=b"unreadable"))
        for commit, fact in facts.items()
    }
    cache_file(store).write_bytes(frame(header) + frame(unreadable))
    again = collect(store)
    assert [c.report.full for c in again.changes] == [c.report.full for c in expected.changes]
    assert [c.report.full for c in again.changes] == [
        revision_report(store, revision) for revision in store.revisions()
    ]


def summary(report: StoredReport) -> tuple[str, PageStatus, str, int, int]:
    return (report.path, report.status, report.verdict, report.lines_added, report.lines_removed)


def test_a_save_cut_short_keeps_the_chunks_before_it(store: Store) -> None:
    expected = collect(store)
    commit = expected.changes[0].change_id
    retitle(store, commit, "Title from the cache")
    intact = cache_file(store).read_bytes()
    cache_file(store).write_bytes(intact[:-7])
    cut = ReportCache.load(store.path)
    assert cut.get(commit) == RevisionFacts(expected.changes[0].report, "Lamp")
    clock = StepClock(datetime(2031, 1, 1, tzinfo=UTC))
    record(store, clock, LAMP, "# Lamp\n\nThe lamp MAY glow.\n", "2025-04-10")
    data = collect(store)
    assert data.changes[0].title == "Lamp"
    _header, facts = chunks(store)
    assert set(facts) == {c.change_id for c in data.changes}


def test_the_cache_is_no_part_of_the_stores_history(store: Store) -> None:
    head = store.head()
    collect(store)
    assert store.head() == head
    status = subprocess.run(
        ["git", "-C", str(store.path), "status", "--porcelain", "--ignored"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert status.stdout == ""


def test_a_cache_that_cannot_be_written_is_no_error(tmp_path: Path, store: Store) -> None:
    revision = store.revisions()[0]
    cache = ReportCache(tmp_path / "missing" / CACHE_FILE, {})
    cache.put(
        revision.commit, RevisionFacts(StoredReport.of(revision_report(store, revision)), None)
    )
    cache.save()
    assert not (tmp_path / "missing").exists()


def test_spectrack_log_shares_the_cache_with_the_site(store: Store) -> None:
    assert [e.verdict for e in log_entries(store)] == [
        "added",
        "added",
        "normative",
        "editorial",
        "removed",
    ]
    strengthened = store.revisions()[2].commit
    cache = ReportCache.load(store.path)
    facts = cache.get(strengthened)
    assert facts is not None and facts.report.verdict == "normative"
    cache.put(
        strengthened, replace(facts, report=StoredReport.of(replace(facts.report.full, changes=())))
    )
    cache.save()
    assert [e.verdict for e in log_entries(store)][2] == "unchanged"
    assert collect(store).changes[2].verdict == "unchanged"


def test_publish_builds_the_stores_site_and_leaves_no_cycles(store: Store, tmp_path: Path) -> None:
    """`publish` keeps the cycle collector paused: sound only while nothing it makes is cyclic."""
    # Modules loaded and parsers built on first use hold cycles once per process, not per run.
    publish(store, tmp_path / "first", base_url="https://changes.example/")
    gc.collect()
    with collector_paused():
        result = publish(store, tmp_path / "published", base_url="https://changes.example/")
        assert gc.collect() == 0
    build(collect(store), tmp_path / "built", base_url="https://changes.example/")
    published = {
        p.relative_to(tmp_path / "published"): p.read_bytes() for p in files(tmp_path / "published")
    }
    built = {p.relative_to(tmp_path / "built"): p.read_bytes() for p in files(tmp_path / "built")}
    assert published == built
    assert len(result.written) == len(published)


def files(folder: Path) -> list[Path]:
    return [path for path in sorted(folder.rglob("*")) if path.is_file()]
