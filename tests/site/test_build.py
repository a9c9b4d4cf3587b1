"""The built files: what each page says, where links go, safety rules, determinism, increments."""

from __future__ import annotations

import gc
import json
import pickle
import posixpath
import re
from collections.abc import Callable
from dataclasses import fields, replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from markupsafe import Markup

from spectrack.collector import collector_paused
from spectrack.diff import diff_texts
from spectrack.errors import InputError
from spectrack.model import ChangeClass, PageStatus, highest_verdict
from spectrack.reportcache import StoredReport
from spectrack.site import (
    ChangeEntry,
    Precision,
    SiteData,
    TimeSource,
    UpstreamTime,
    build,
    present,
)
from spectrack.site.build import CSP, MANIFEST, MARKER, RECENT_LIMIT, BuildResult
from tests.interrupt import StopAfter
from tests.site.conftest import BuiltSite
from tests.site.fixtures import (
    KETTLE_V1,
    LAMP_RELEASE,
    NEXT_EDIT,
    SAMPLE_EDITS,
    Edit,
    sample_data,
    site_data,
)
from tests.site.scan import html_files, scan_file


def change(data: SiteData, change_id: str) -> ChangeEntry:
    return next(entry for entry in data.changes if entry.change_id == change_id)


def tree(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_every_page_carries_the_strict_policy_and_no_inline_code(sample_site: BuiltSite) -> None:
    pages = html_files(sample_site.folder)
    assert len(pages) > len(sample_site.data.changes)
    for page in pages:
        scan = scan_file(page)
        policies = [
            tag.attrs.get("content")
            for tag in scan.all("meta")
            if tag.attrs.get("http-equiv") == "Content-Security-Policy"
        ]
        assert policies == [CSP], page
        for tag in scan.tags:
            assert "style" not in tag.attrs, (page, tag)
            assert not [name for name in tag.attrs if name.startswith("on")], (page, tag)
        scripts = scan.all("script")
        assert len(scripts) == 1 and (scripts[0].attrs["src"] or "").endswith("assets/site.js")
        assert not scan.all("style")


def test_every_local_link_leads_to_a_built_file(sample_site: BuiltSite) -> None:
    folder = sample_site.folder
    checked = 0
    for page in html_files(folder):
        here = page.relative_to(folder).parent.as_posix()
        for tag in scan_file(page).tags:
            target = tag.attrs.get("href") or tag.attrs.get("src")
            if not target or target.startswith(("https://", "http://", "#")):
                continue
            resolved = posixpath.normpath(posixpath.join(here, target.split("#")[0]))
            assert (folder / resolved).is_file(), f"{page}: {target}"
            checked += 1
    assert checked > 100


def test_index_lists_the_changes_newest_upstream_edit_first(sample_site: BuiltSite) -> None:
    scan = scan_file(sample_site.folder / "index.html")
    listed = [
        tag.attrs["href"]
        for tag in scan.tags
        if tag.name == "a" and tag.attrs.get("class") == "title"
    ]
    newest_first = sorted(
        sample_site.data.changes, key=lambda e: (e.upstream.time, e.recorded_at), reverse=True
    )
    assert listed == [present.change_href(e.change_id) for e in newest_first]
    verdicts = [tag.attrs["data-verdict"] for tag in scan.all("li") if "data-verdict" in tag.attrs]
    assert verdicts == [e.verdict for e in newest_first]
    for label in ("Normative", "Editorial", "Formatting only"):
        assert label in scan.text
    newest = newest_first[0].report
    shown = f"+{newest.lines_added} −{newest.lines_removed}"
    spoken = f"{present.plural(newest.lines_added, 'line')} added, {newest.lines_removed} removed"
    assert f"{shown}{spoken}" in scan.text
    assert not [tag for tag in scan.tags if "aria-label" in tag.attrs and tag.name == "span"]


def test_a_lastmod_of_a_year_or_month_is_shown_as_that_year_or_month() -> None:
    month = UpstreamTime(
        datetime(2025, 3, 1, tzinfo=UTC), TimeSource.SITEMAP, Precision.MONTH, "2025-03"
    )
    year = UpstreamTime(
        datetime(2024, 1, 1, tzinfo=UTC), TimeSource.SITEMAP, Precision.YEAR, "2024"
    )
    assert present.upstream_text(month) == "2025-03"
    assert present.upstream_note(month) == "to the month, from the site's sitemap: 2025-03"
    assert present.upstream_text(year) == "2024"
    assert present.upstream_note(year) == "to the year, from the site's sitemap: 2024"


def test_a_change_page_states_times_origin_counts_and_neighbours(sample_site: BuiltSite) -> None:
    data = sample_site.data
    entry = change(data, "c03")
    page = scan_file(sample_site.folder / present.change_href("c03"))
    text = " ".join(page.text.split())
    assert "Greeting changed" in text
    assert entry.page_path in text
    assert present.second_text(entry.upstream.time) in text
    assert f"to the second, from the site's sitemap: {entry.upstream.raw})" in text
    assert f"Recorded by spectrack {present.second_text(entry.recorded_at)}" in text
    assert f"Page first seen {present.second_text(change(data, 'c01').recorded_at)}" in text
    assert "Recorded edits of this page 3 (all time)" in text
    assert f"+{entry.report.lines_added} −{entry.report.lines_removed}" in text
    assert "SHOULD → MUST: strengthened" in text
    assert f"Nearest release {LAMP_RELEASE.line}" in text
    assert "published 5 hours after this edit" in text
    links = {tag.attrs.get("rel"): tag.attrs["href"] for tag in page.all("a") if "rel" in tag.attrs}
    assert links["prev"] == "../changes/c01.html"
    assert links["next"] == "../changes/c06.html"
    assert links["noopener noreferrer nofollow"] == entry.url

    day = " ".join(scan_file(sample_site.folder / present.change_href("c04")).text.split())
    assert f"{present.day_text(change(data, 'c04').upstream.time)} (to the day" in day
    commit = scan_file(sample_site.folder / present.change_href("c05")).text
    assert "from a commit" in commit
    first = scan_file(sample_site.folder / present.change_href("c01")).text
    assert "This is the first recorded change of this page." in first
    assert "Nearest release" not in first


def test_normative_changes_come_before_editorial_and_formatting(sample_site: BuiltSite) -> None:
    text = scan_file(sample_site.folder / present.change_href("c08")).text
    order = [text.index(heading) for heading in ("Normative changes", "Editorial changes")]
    order.append(text.index("Formatting changes"))
    order.append(text.index("Changed lines"))
    assert order == sorted(order)
    assert "2 formatting changes (reformatted 2)" in text


def test_hunk_rows_carry_both_line_numbers_and_formatting_hunks_start_closed(
    sample_site: BuiltSite,
) -> None:
    report = change(sample_site.data, "c08").report
    html = (sample_site.folder / present.change_href("c08")).read_text()
    page = scan_file(sample_site.folder / present.change_href("c08"))
    details = [tag for tag in page.all("details") if tag.attrs.get("class") != "formatting"]
    assert [("open" in tag.attrs) for tag in details] == [
        hunk.change_class.value != "formatting" for hunk in report.hunks
    ]
    assert {hunk.change_class.value for hunk in report.hunks} == {"normative", "formatting"}
    for hunk in report.hunks:
        for line in hunk.lines:
            old = "" if line.old is None else str(line.old)
            new = "" if line.new is None else str(line.new)
            assert f'<td class="ln">{old}</td><td class="ln">{new}</td>' in html


def test_two_builds_of_the_same_data_are_identical(tmp_path: Path) -> None:
    build(sample_data(), tmp_path / "one")
    build(sample_data(), tmp_path / "two")
    assert tree(tmp_path / "one") == tree(tmp_path / "two")


def test_a_build_with_nothing_to_rewrite_reads_no_changes_or_hunks(tmp_path: Path) -> None:
    data = sample_data()
    build(data, tmp_path)
    summaries_only = [
        replace(entry, report=StoredReport(summary(entry.report), pickled=b"unreadable"))
        for entry in data.changes
    ]
    result = build(replace(data, changes=tuple(summaries_only)), tmp_path)
    site_files = tree(tmp_path).keys() - {MANIFEST, MARKER}
    assert result.written == () and result.unchanged == len(site_files)
    with pytest.raises(pickle.UnpicklingError):
        assert summaries_only[0].report.hunks


def summary(report: StoredReport) -> tuple[str, PageStatus, str, int, int]:
    return (report.path, report.status, report.verdict, report.lines_added, report.lines_removed)


def test_a_stored_report_pickles_whole_and_keeps_its_summary_at_hand() -> None:
    old = "# Kettle\n\nThe kettle SHOULD whistle when the water boils.\n"
    report = diff_texts(old, old.replace("SHOULD", "MUST"), "kettle.md")
    stored = pickle.loads(pickle.dumps(StoredReport.of(report)))
    assert summary(stored) == (report.path, report.status, "normative", 1, 1)
    assert stored.full == report
    assert (stored.changes, stored.hunks) == (report.changes, report.hunks)
    assert stored == StoredReport.of(report) != StoredReport.of(replace(report, changes=()))


def test_one_new_change_rewrites_only_what_shows_it(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(sample_data(), out)
    before = {path: (out / path).stat().st_mtime_ns for path in tree(out)}
    grown = site_data([*SAMPLE_EDITS, NEXT_EDIT])
    kettle = change(grown, NEXT_EDIT.change_id)

    result = build(grown, out)

    assert kettle.verdict == "normative"
    siblings = [e.change_id for e in grown.changes if e.page_key == kettle.page_key]
    expected = {
        MANIFEST,
        "index.html",
        present.archive_href(present.month_of(kettle.upstream.time)),
        "feeds/all.xml",
        "feeds/normative.xml",
        present.page_feed_href(kettle.page_key),
        present.page_href(kettle.page_key),
        present.source_href(kettle.source),
        *(present.change_href(change_id) for change_id in siblings),
    }
    assert set(result.written) == expected
    assert result.removed == ()
    assert result.unchanged == len(tree(out).keys() - expected - {MARKER})
    for path, modified in before.items():
        if path not in expected:
            assert (out / path).stat().st_mtime_ns == modified, path
    fresh = tmp_path / "fresh"
    build(grown, fresh)
    assert tree(out) == tree(fresh)
    assert build(grown, out).written == ()


def test_an_older_change_shown_otherwise_has_its_page_rewritten(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(sample_data(), out)
    retitled = [replace(e, title="Old kettle") if e.change_id == "c02" else e for e in SAMPLE_EDITS]
    result = build(site_data(retitled), out)
    assert present.change_href("c02") in result.written
    assert "Old kettle added" in scan_file(out / present.change_href("c02")).text
    build(site_data(retitled), tmp_path / "fresh")
    assert tree(out) == tree(tmp_path / "fresh")


def test_a_change_no_longer_in_the_data_loses_its_files(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(site_data([*SAMPLE_EDITS, NEXT_EDIT]), out)
    (out / "README.md").write_text("not ours")
    result = build(sample_data(), out)
    assert present.change_href(NEXT_EDIT.change_id) in result.removed
    assert not (out / present.change_href(NEXT_EDIT.change_id)).exists()
    assert (out / "README.md").read_text() == "not ours"
    fresh = tmp_path / "fresh"
    build(sample_data(), fresh)
    assert {p: b for p, b in tree(out).items() if p != "README.md"} == tree(fresh)


@pytest.mark.parametrize("foreign", ["index.html", "notes/todo.txt", ".hidden"])
def test_a_folder_holding_files_no_build_wrote_is_refused_untouched(
    tmp_path: Path, foreign: str
) -> None:
    out = tmp_path / "site"
    (out / foreign).parent.mkdir(parents=True)
    (out / foreign).write_text("not the site's")
    with pytest.raises(InputError, match=rf"^{re.escape(str(out))}: holds files that no "):
        build(sample_data(), out)
    assert tree(out) == {foreign: b"not the site's"}


def test_a_git_checkout_to_publish_from_is_built_into_and_its_files_are_kept(
    tmp_path: Path,
) -> None:
    out = tmp_path / "site"
    (out / ".git").mkdir(parents=True)
    (out / ".git" / "HEAD").write_text("ref: refs/heads/pages\n")
    (out / "CNAME").write_text("jars.example\n")
    (out / ".nojekyll").write_text("")
    build(sample_data(), out)
    build(sample_data(), tmp_path / "fresh")
    kept = {".git/HEAD": b"ref: refs/heads/pages\n", "CNAME": b"jars.example\n", ".nojekyll": b""}
    assert tree(out) == tree(tmp_path / "fresh") | kept


def test_a_git_checkout_holding_other_files_is_refused_untouched(tmp_path: Path) -> None:
    out = tmp_path / "site"
    (out / ".git").mkdir(parents=True)
    (out / "index.html").write_text("not the site's")
    with pytest.raises(InputError, match=rf"^{re.escape(str(out))}: holds files that no "):
        build(sample_data(), out)
    assert tree(out) == {"index.html": b"not the site's"}


def test_a_first_build_stopped_part_way_leaves_a_folder_the_next_build_takes_up(
    tmp_path: Path,
) -> None:
    out = tmp_path / "site"
    with pytest.raises(KeyboardInterrupt):
        build(sample_data(), out, progress=StopAfter(3))
    assert MANIFEST not in tree(out) and MARKER in tree(out)
    build(sample_data(), out)
    build(sample_data(), tmp_path / "fresh")
    assert tree(out) == tree(tmp_path / "fresh")


def test_a_site_built_before_the_marker_is_taken_up_by_its_manifest(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(sample_data(), out)
    (out / MARKER).unlink()
    assert build(sample_data(), out).written == (MARKER,)
    assert (out / MARKER).is_file()


def test_a_lost_manifest_or_file_is_recovered_without_needless_writes(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(sample_data(), out)
    (out / MANIFEST).write_text("{not json")
    (out / "index.html").unlink()
    result = build(sample_data(), out)
    assert set(result.written) == {MANIFEST, "index.html"}
    assert json.loads((out / MANIFEST).read_text())["schema"] == "spectrack.site/1"


class Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def start(self, label: str, total: int) -> None:
        self.calls.append((label, total))

    def advance(self) -> None:
        self.calls.append(("advance", 1))

    def warn(self, message: str) -> None:
        self.calls.append((message, 0))


def test_progress_reports_every_file(tmp_path: Path) -> None:
    recorder = Recorder()
    result = build(sample_data(), tmp_path, progress=recorder)
    files = len(result.written) - 2  # the marker and the manifest are no pages of the site
    assert recorder.calls == [("writing the site", files)] + [("advance", 1)] * files


ALTERNATIVES = {
    "source": "gardens",
    "page_path": "docs/other.md",
    "title": "Another title",
    "url": "https://lamps.example/moved",
    "upstream": UpstreamTime(datetime(2024, 1, 2).astimezone(), TimeSource.FETCH, Precision.DAY),
    "recorded_at": datetime(2030, 1, 1).astimezone(),
    "first_seen": datetime(2020, 1, 1).astimezone(),
    "page_edits": 99,
    "report": diff_texts(KETTLE_V1, KETTLE_V1 + "\nA new closing line.\n", "docs/kettle.md"),
    "previous_id": "c01",
    "next_id": "c01",
    "release": LAMP_RELEASE,
}


@pytest.mark.parametrize("name", [f.name for f in fields(ChangeEntry) if f.name != "change_id"])
def test_changing_any_field_of_a_change_rewrites_its_page(tmp_path: Path, name: str) -> None:
    assert name in ALTERNATIVES, f"give {name!r} an alternative value in ALTERNATIVES"
    data = sample_data()
    build(data, tmp_path)
    altered = change(data, "c04")
    value = ALTERNATIVES[name]
    assert getattr(altered, name) != value
    changes = tuple(
        replace(e, **{name: value}) if e.change_id == "c04" else e for e in data.changes
    )
    result = build(replace(data, changes=changes), tmp_path)
    assert present.change_href("c04") in result.written


UPSTREAM_ALTERNATIVES = {
    "time": datetime(2024, 5, 6).astimezone(),
    "source": TimeSource.COMMIT,
    "precision": Precision.SECOND,
    "raw": "2025-03-02T00:00:00+00:00",
}


@pytest.mark.parametrize("name", [f.name for f in fields(UpstreamTime)])
def test_changing_any_part_of_the_upstream_time_rewrites_the_page(
    tmp_path: Path, name: str
) -> None:
    data = sample_data()
    build(data, tmp_path)
    altered = change(data, "c04")
    value = UPSTREAM_ALTERNATIVES[name]
    assert getattr(altered.upstream, name) != value
    upstream = replace(altered.upstream, **{name: value})
    changes = tuple(
        replace(e, upstream=upstream) if e.change_id == "c04" else e for e in data.changes
    )
    result = build(replace(data, changes=changes), tmp_path)
    assert present.change_href("c04") in result.written


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda e: replace(e, change_id="../escape"), "an id may hold only"),
        (lambda e: replace(e, source="nowhere"), "is not among the sources"),
        (lambda e: replace(e, next_id="missing"), "neighbour 'missing'"),
        (lambda e: replace(e, recorded_at=datetime(2025, 1, 1)), "recorded_at has no timezone"),
    ],
)
def test_bad_data_is_refused_with_the_change_named(tmp_path: Path, mutate, message: str) -> None:
    data = sample_data()
    bad = replace(data, changes=(mutate(data.changes[0]), *data.changes[1:]))
    with pytest.raises(InputError, match=message):
        build(bad, tmp_path)
    assert not list(tmp_path.iterdir())


def test_an_id_of_two_lines_is_refused(tmp_path: Path) -> None:
    data = site_data([replace(SAMPLE_EDITS[0], change_id="c01\nc02")])
    with pytest.raises(InputError, match="an id may hold only"):
        build(data, tmp_path)


@pytest.mark.parametrize("index", [0, -1])
def test_a_bad_change_is_found_wherever_it_is(tmp_path: Path, index: int) -> None:
    data = sample_data()
    changes = list(data.changes)
    changes[index] = replace(changes[index], first_seen=datetime(2025, 1, 1))
    with pytest.raises(InputError, match=f"{changes[index].change_id}.*first_seen has no timezone"):
        build(replace(data, changes=tuple(changes)), tmp_path)


def edited_at(data: SiteData, moments: dict[str, datetime]) -> SiteData:
    """The data with the changes named in ``moments`` edited upstream at those times."""
    changes = tuple(
        replace(e, upstream=replace(e.upstream, time=moments[e.change_id]))
        if e.change_id in moments
        else e
        for e in data.changes
    )
    return replace(data, changes=changes)


def test_archive_pages_hold_the_changes_of_their_utc_month(tmp_path: Path) -> None:
    data = sample_data()
    east, west = timezone(timedelta(hours=3)), timezone(timedelta(hours=-4))
    moments = {
        "c01": datetime(2025, 4, 1, 1, 30, tzinfo=east),  # 31 March in UTC
        "c02": datetime(2025, 3, 31, 21, 0, tzinfo=west),  # 1 April in UTC
        "c03": datetime(2025, 3, 31, 23, 59, tzinfo=UTC),
        "c04": datetime(2025, 2, 28, 23, 0, tzinfo=UTC),
    }
    grown = edited_at(data, moments)
    build(grown, tmp_path)
    listed: dict[str, set[str]] = {}
    for page in sorted((tmp_path / "archive").glob("*.html")):
        links = {tag.attrs.get("href") or "" for tag in scan_file(page).all("a")}
        listed[page.stem] = {
            e.change_id for e in grown.changes if "../" + present.change_href(e.change_id) in links
        }
    expected: dict[str, set[str]] = {}
    for e in grown.changes:
        expected.setdefault(present.month_of(e.upstream.time), set()).add(e.change_id)
    assert listed == expected
    assert {"c01", "c03"} <= expected["2025-03"] and "c02" in expected["2025-04"]
    assert "c04" in expected["2025-02"]


def test_two_changes_with_one_id_are_refused(tmp_path: Path) -> None:
    data = sample_data()
    with pytest.raises(InputError, match="share one id"):
        build(replace(data, changes=(*data.changes, data.changes[0])), tmp_path)


def test_a_base_url_must_be_a_web_url(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="javascript:alert"):
        build(sample_data(), tmp_path, base_url="javascript:alert(1)//")


@pytest.mark.parametrize(
    ("base_url", "problem"),
    [
        ("https://x.example:99999/", "Port out of range"),
        ('https://x.example/"spec"/', "percent-encode it"),
        ("https://x.example/<b>/", "percent-encode it"),
        ("https://reader:secret@x.example/", "user name or password"),
    ],
)
def test_a_base_url_every_feed_could_hold_is_required(
    tmp_path: Path, base_url: str, problem: str
) -> None:
    # Each feed's id and links start with it: such a URL would make every feed invalid (or
    # publish the password), so the build stops before it writes a file.
    with pytest.raises(InputError, match=re.escape(problem)):
        build(sample_data(), tmp_path, base_url=base_url)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("base_url", "character"),
    [("https://x.example/jar lids/", "' '"), ("https://x.example/%zz/", "'%'")],
)
def test_a_base_url_names_the_character_it_may_not_hold(
    tmp_path: Path, base_url: str, character: str
) -> None:
    # The URL is right but for one character: the message says which, not that it is no URL.
    with pytest.raises(InputError, match=f"{character} may not stand in a URL; percent-encode it"):
        build(sample_data(), tmp_path, base_url=base_url)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("base_url", ["https://x.example/#top", "https://x.example/?page=1"])
def test_a_base_url_has_no_query_or_fragment(tmp_path: Path, base_url: str) -> None:
    with pytest.raises(InputError, match="no query"):
        build(sample_data(), tmp_path, base_url=base_url)
    assert not list(tmp_path.iterdir())


def test_the_output_must_be_a_folder(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    with pytest.raises(InputError, match="not a folder"):
        build(sample_data(), target)


def test_an_edit_that_changed_nothing_still_gets_its_page(tmp_path: Path) -> None:
    same = Edit("u01", "lamps", "docs/kettle.md", KETTLE_V1, KETTLE_V1, 3, title="Kettle")
    data = site_data([SAMPLE_EDITS[1], same])
    build(data, tmp_path)
    text = " ".join(scan_file(tmp_path / present.change_href("u01")).text.split())
    assert "Kettle recorded unchanged" in text
    assert "Unchanged" in text and "No line changed: only bytes that do not show" in text
    ids = {
        tag.attrs.get("id") for tag in scan_file(tmp_path / present.change_href("u01")).all("div")
    }
    assert "hunk-filters" not in ids, "no filter over no lines"
    assert [
        tag.attrs.get("data-verdict")
        for tag in scan_file(tmp_path / "index.html").all("li")
        if "data-verdict" in tag.attrs
    ] == ["unchanged", "editorial"]


def test_a_reports_verdict_follows_its_changes_also_when_replaced() -> None:
    reports = [entry.report.full for entry in sample_data().changes]
    reports.append(diff_texts(KETTLE_V1, KETTLE_V1, "same.md"))
    verdicts = {report.verdict for report in reports}
    assert verdicts == {"normative", "editorial", "formatting", "unchanged"}
    normative = next(report for report in reports if report.verdict == "normative")
    kept = tuple(c for c in normative.changes if c.change_class != ChangeClass.NORMATIVE)
    assert replace(normative, changes=kept).verdict == highest_verdict(c.change_class for c in kept)
    assert replace(normative, changes=()).verdict == "unchanged"


class Name(str):
    """A str subclass, as an enum member or a markup-safe string passed for a name would be."""


def test_names_given_as_str_subclasses_build_alike(tmp_path: Path) -> None:
    data = sample_data()
    build(data, tmp_path / "plain")
    renamed = tuple(replace(e, title=Name(e.title or "")) for e in data.changes)
    build(replace(data, changes=renamed), tmp_path / "subclassed")
    plain = tree(tmp_path / "plain")
    subclassed = tree(tmp_path / "subclassed")
    assert {p: b for p, b in plain.items() if p != MANIFEST} == {
        p: b for p, b in subclassed.items() if p != MANIFEST
    }


def test_a_build_leaves_no_cycles_behind(tmp_path: Path) -> None:
    """The build runs with the cycle collector paused: that is sound only while it makes none."""
    data = sample_data()
    gc.collect()
    with collector_paused():
        build(data, tmp_path / "site")
        build(replace(data, title="Renamed"), tmp_path / "site")
        assert gc.collect() == 0


def _rebuilt_equals_fresh(tmp_path: Path, before: SiteData, after: SiteData) -> BuildResult:
    """Build ``before``, then ``after`` over it: the folder must equal a fresh build of ``after``."""
    build(before, tmp_path / "rebuilt")
    result = build(after, tmp_path / "rebuilt")
    build(after, tmp_path / "fresh")
    assert tree(tmp_path / "rebuilt") == tree(tmp_path / "fresh")
    return result


def _many_edits(first_source: str) -> list[Edit]:
    """More edits than the index lists, the oldest in ``first_source``."""
    oldest = replace(SAMPLE_EDITS[0], change_id="e000", source=first_source, path="docs/old.md")
    return [oldest] + [
        replace(
            SAMPLE_EDITS[0],
            change_id=f"e{number:03d}",
            source="lamps" if number % 2 else "kettles",
            path=f"docs/page-{number}.md",
            hours=number,
        )
        for number in range(1, RECENT_LIMIT + 5)
    ]


def test_the_index_counts_change_when_a_change_it_does_not_list_moves(tmp_path: Path) -> None:
    before, after = site_data(_many_edits("lamps")), site_data(_many_edits("kettles"))
    result = _rebuilt_equals_fresh(tmp_path, before, after)
    assert "index.html" in result.written


def test_an_empty_feed_is_dated_by_the_latest_recording(tmp_path: Path) -> None:
    plain = "# Plain\n\nThe lamp glows.\n"
    first = Edit("n01", "lamps", "docs/plain.md", None, plain, 0)
    later = Edit("n02", "lamps", "docs/plain.md", plain, plain.replace("glows", "shines"), 30)
    before, after = site_data([first]), site_data([first, later])
    assert not [e for e in after.changes if e.verdict == ChangeClass.NORMATIVE]
    result = _rebuilt_equals_fresh(tmp_path, before, after)
    assert "feeds/normative.xml" in result.written


def _rebuilt_and_fresh(out: Path, fresh: Path, edits: list[Edit], file: str) -> tuple[str, str]:
    """Build ``edits`` over the site in ``out`` and afresh in ``fresh``: ``file`` of each."""
    build(site_data(edits), out)
    build(site_data(edits), fresh)
    return (out / file).read_text(), (fresh / file).read_text()


def _marked_change_page(out: Path, change_id: str) -> Path:
    """Mark the heading of a written change page, which later edits of its page leave alone."""
    page = out / present.change_href(change_id)
    heading = '<h1 id="change-title">'
    page.write_text(page.read_text().replace(heading, heading + "(as written) ", 1))
    return page


def test_a_rebuild_renders_again_only_the_parts_of_a_change_page_later_edits_change(
    tmp_path: Path,
) -> None:
    out = tmp_path / "site"
    build(sample_data(), out)
    before = (out / present.change_href("c02")).read_text()
    _marked_change_page(out, "c02")
    rebuilt, fresh = _rebuilt_and_fresh(
        out, tmp_path / "fresh", [*SAMPLE_EDITS, NEXT_EDIT], present.change_href("c02")
    )
    assert "All 3 recorded edits" in fresh and "All 3 recorded edits" not in before
    assert "(as written)" in rebuilt
    assert rebuilt.replace("(as written) ", "") == fresh


@pytest.mark.parametrize("case", ["manifest deleted", "parts damaged", "title changed"])
def test_a_change_page_is_rendered_whole_when_its_written_text_may_not_serve(
    tmp_path: Path, case: str
) -> None:
    out = tmp_path / "site"
    build(sample_data(), out)
    page = _marked_change_page(out, "c02")
    edits = [*SAMPLE_EDITS, NEXT_EDIT]
    if case == "manifest deleted":
        (out / MANIFEST).unlink()
    elif case == "parts damaged":
        page.write_text(page.read_text().replace("<!-- /pager -->", "", 1))
    else:
        edits = [replace(edit, title="Pot") if edit.change_id == "c02" else edit for edit in edits]
    rebuilt, fresh = _rebuilt_and_fresh(out, tmp_path / "fresh", edits, present.change_href("c02"))
    assert rebuilt == fresh


def _mark_lines(page: Path) -> None:
    """Mark every written line of a list of changes."""
    page.write_text(page.read_text().replace('<a class="title" ', '<a data-mark class="title" '))


@pytest.mark.parametrize(
    "listing", ["index.html", "pages/lamps-docs-kettle-md-", "archive/", "sources/lamps-"]
)
def test_a_rebuild_copies_unchanged_lines_from_the_list_it_wrote(
    tmp_path: Path, listing: str
) -> None:
    out = tmp_path / "site"
    build(sample_data(), out)
    page = next(path for path in sorted(out.rglob("*.html")) if listing in path.as_posix())
    _mark_lines(page)
    rebuilt, fresh = _rebuilt_and_fresh(
        out, tmp_path / "fresh", [*SAMPLE_EDITS, NEXT_EDIT], page.relative_to(out).as_posix()
    )
    lines = rebuilt.count('class="title"')
    # The line of the new change (or of its page) is rendered; every other line is copied.
    assert lines > 1 and rebuilt.count("data-mark ") == lines - 1
    assert rebuilt.replace("data-mark ", "") == fresh


def test_without_a_manifest_nothing_is_copied_from_the_files_written(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(sample_data(), out)
    feed = out / "feeds" / "all.xml"
    feed.write_text(feed.read_text().replace("</title>", " (as written)</title>"))
    _mark_lines(out / "index.html")
    (out / MANIFEST).unlink()
    build(sample_data(), out)
    build(sample_data(), tmp_path / "fresh")
    assert "(as written)" not in feed.read_text()
    assert "data-mark" not in (out / "index.html").read_text()
    assert tree(out) == tree(tmp_path / "fresh")


@pytest.mark.parametrize("manifest", ["[]", "null", "3", '{"schema": 1, "files": []}'])
def test_a_manifest_of_another_shape_means_check_every_file(tmp_path: Path, manifest: str) -> None:
    build(sample_data(), tmp_path)
    (tmp_path / MANIFEST).write_text(manifest)
    assert build(sample_data(), tmp_path).written == (MANIFEST,)


def test_a_build_stopped_part_way_leaves_no_file_claimed_fresh(tmp_path: Path) -> None:
    out = tmp_path / "site"
    old = sample_data()
    build(old, out)
    with pytest.raises(KeyboardInterrupt):
        build(replace(old, title="Renamed changes"), out, progress=StopAfter(6))
    assert not (out / MANIFEST).exists()
    build(old, out)
    build(old, tmp_path / "fresh")
    assert tree(out) == tree(tmp_path / "fresh")


def test_a_file_left_half_written_by_a_stopped_build_is_cleared(tmp_path: Path) -> None:
    build(sample_data(), tmp_path)
    (tmp_path / MANIFEST).unlink()
    (tmp_path / "index.html.partial").write_text("<html><body><h1>Rec")
    (tmp_path / "notes.partial").write_text("not the site's")
    build(sample_data(), tmp_path)
    assert not (tmp_path / "index.html.partial").exists()
    assert (tmp_path / "notes.partial").read_text() == "not the site's"


def test_manifest_paths_outside_the_folder_or_of_folders_are_left_alone(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(sample_data(), out)
    outside = tmp_path / "keep.txt"
    outside.write_text("not the site's")
    manifest = json.loads((out / MANIFEST).read_text())
    manifest["files"].update({"../keep.txt": "0", str(outside): "0", "feeds": "0", "a/../b": "0"})
    (out / MANIFEST).write_text(json.dumps(manifest))
    result = build(sample_data(), out)
    assert result.removed == ()
    assert outside.read_text() == "not the site's"
    assert (out / "feeds").is_dir()


def test_changes_in_a_repeated_hour_are_filed_under_their_utc_month(tmp_path: Path) -> None:
    baghdad = ZoneInfo("Asia/Baghdad")  # at 00:00 UTC on 1 October 2000, 03:00-04:00 came twice
    first = datetime(2000, 10, 1, 3, 50, fold=0, tzinfo=baghdad)
    second = datetime(2000, 10, 1, 3, 10, fold=1, tzinfo=baghdad)
    assert first.astimezone(UTC).month == 9 and second.astimezone(UTC).month == 10
    data = sample_data()
    moments = {"c01": first, "c02": second}
    build(edited_at(data, moments), tmp_path)
    september = (tmp_path / "archive" / "2000-09.html").read_text()
    october = (tmp_path / "archive" / "2000-10.html").read_text()
    assert present.change_href("c01") in september and present.change_href("c02") not in september
    assert present.change_href("c02") in october


def test_a_rebuild_keeps_carriage_returns_in_what_it_copies(tmp_path: Path) -> None:
    edits = [
        replace(edit, title="Kettle\rpot") if edit.path == "docs/kettle.md" else edit
        for edit in SAMPLE_EDITS
    ]
    result = _rebuilt_equals_fresh(tmp_path, site_data(edits), site_data([*edits, NEXT_EDIT]))
    assert "index.html" in result.written
    assert b"Kettle\rpot" in (tmp_path / "rebuilt" / "index.html").read_bytes()


def test_a_rebuild_tells_apart_far_off_times_a_float_rounds_alike(tmp_path: Path) -> None:
    before = datetime(9000, 6, 1, 12, 0, 58, 999999, tzinfo=UTC)
    after = before + timedelta(microseconds=1)
    assert before.timestamp() == after.timestamp()
    data = sample_data()
    result = _rebuilt_equals_fresh(
        tmp_path, edited_at(data, {"c02": before}), edited_at(data, {"c02": after})
    )
    assert present.change_href("c02") in result.written


def test_an_id_that_is_not_text_is_refused(tmp_path: Path) -> None:
    data = site_data([SAMPLE_EDITS[0]])
    bad = replace(data, changes=(replace(data.changes[0], change_id=7),))
    with pytest.raises(InputError, match="an id may hold only"):
        build(bad, tmp_path)


def test_two_sources_with_one_name_are_refused(tmp_path: Path) -> None:
    data = sample_data()
    with pytest.raises(InputError, match="two sources share one name"):
        build(replace(data, sources=(*data.sources, data.sources[0])), tmp_path)


def test_a_site_title_given_as_a_str_subclass_builds_alike(tmp_path: Path) -> None:
    data = sample_data()
    build(data, tmp_path / "plain")
    # Markup shows its own repr; plain text in it renders alike.
    build(replace(data, title=Markup(data.title)), tmp_path / "subclassed")
    assert tree(tmp_path / "plain") == tree(tmp_path / "subclassed")


def _change_titled(title: str) -> SiteData:
    data = sample_data()
    changes = tuple(replace(e, title=title) if e.change_id == "c02" else e for e in data.changes)
    return replace(data, changes=changes)


def _site_titled(title: str) -> SiteData:
    return replace(sample_data(), title=title)


@pytest.mark.parametrize("titled", [_change_titled, _site_titled])
@pytest.mark.parametrize(
    ("before", "after"),
    [
        (Markup("<b>Kettle</b>"), "<b>Kettle</b>"),
        ("<b>Kettle</b>", Markup("<b>Kettle</b>")),
        (Markup("Kettle&#39;s"), "Kettle's"),
        (Markup("Tea &amp; cake"), "Tea & cake"),
        (Markup("Tea &amp; cake"), "Tea &amp; cake"),
    ],
)
def test_a_title_swapped_between_markup_and_plain_text_that_render_otherwise_is_rendered_again(
    tmp_path: Path, titled: Callable[[str], SiteData], before: str, after: str
) -> None:
    _rebuilt_equals_fresh(tmp_path, titled(before), titled(after))


def test_times_at_the_ends_of_the_calendar_are_shown_with_four_digit_years(tmp_path: Path) -> None:
    data = sample_data()
    moments = {
        "c01": datetime(999, 5, 1, 7, 30, tzinfo=UTC),
        "c04": datetime(9999, 12, 31, 23, 0, tzinfo=UTC),
    }
    build(edited_at(data, moments), tmp_path)
    for change_id, month in (("c01", "0999-05"), ("c04", "9999-12")):
        page = scan_file(tmp_path / present.change_href(change_id)).text
        assert f"{month}-" in page and f" {month[1:]}-" not in page
        assert (tmp_path / present.archive_href(month)).is_file()
    assert "0999-05-01T07:30:00Z" in (tmp_path / "index.html").read_text(encoding="utf-8")


def test_a_folder_where_a_built_file_belongs_is_reported_not_taken_for_the_file(
    tmp_path: Path,
) -> None:
    out = tmp_path / "site"
    build(sample_data(), out)
    (out / "index.html").unlink()
    (out / "index.html").mkdir()
    with pytest.raises(IsADirectoryError):
        build(sample_data(), out)
    assert (out / "index.html").is_dir()
