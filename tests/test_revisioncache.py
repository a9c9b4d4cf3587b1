"""The store's revision list kept between runs: only commits after the last listing are read."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from spectrack.chunkfile import frame
from spectrack.codedigest import code_digest
from spectrack.dates import Precision, TimeSource, UpstreamTime
from spectrack.revisioncache import CACHE_FILE, SCHEMA, RevisionCache
from spectrack.store import Revision, Store
from tests.conftest import StepClock
from tests.storecheck import pickles

BASE = "https://lamps.example/docs/"


def record(store: Store, clock: StepClock, page: str, body: str) -> None:
    when = UpstreamTime(clock(), TimeSource.FETCH, Precision.SECOND)
    with store.writer(clock) as writer:
        writer.record("lamps", BASE + page, body.encode(), when)


@pytest.fixture
def clock() -> StepClock:
    return StepClock(datetime(2030, 1, 1, tzinfo=UTC))


@pytest.fixture
def store(tmp_path: Path, clock: StepClock) -> Iterator[Store]:
    opened = Store.create(tmp_path / "store", clock)
    for number in range(3):
        record(opened, clock, f"page-{number}", f"# Page {number}\n\nFirst text.\n")
    yield opened
    opened.close()


def cache_file(store: Store) -> Path:
    return store.path / ".git" / CACHE_FILE


def listed_afresh(store: Store) -> list[Revision]:
    """The revisions as a run without any cache lists them."""
    saved = cache_file(store).read_bytes() if cache_file(store).exists() else None
    cache_file(store).unlink(missing_ok=True)
    try:
        with Store.open(store.path) as fresh:
            return fresh.revisions()
    finally:
        if saved is not None:
            cache_file(store).write_bytes(saved)


def chunks(store: Store) -> list[object]:
    return pickles(cache_file(store))


def revisions(store: Store) -> list[Revision]:
    """What a new run over the store lists."""
    with Store.open(store.path) as reopened:
        return reopened.revisions()


def test_a_listing_is_kept_and_later_runs_add_only_new_commits(
    store: Store, clock: StepClock
) -> None:
    first = revisions(store)
    assert [r.page for r in first] == [
        "lamps/docs/page-0",
        "lamps/docs/page-1",
        "lamps/docs/page-2",
    ]
    header, _whole = chunks(store)
    assert header == {"schema": SCHEMA, "code": code_digest()}
    record(store, clock, "page-1", "# Page 1\n\nSecond text.\n")
    record(store, clock, "page-3", "# Page 3\n\nNew page.\n")
    later = revisions(store)
    assert later == listed_afresh(store)
    assert later[:3] == first and [r.page for r in later[3:]] == [
        "lamps/docs/page-1",
        "lamps/docs/page-3",
    ]
    assert len(chunks(store)) == 3, "one chunk appended, not the whole list written again"
    assert RevisionCache.load(store.path).revisions == later


def test_a_listing_whose_last_commit_left_the_history_is_made_afresh(
    store: Store, clock: StepClock
) -> None:
    before = revisions(store)
    record(store, clock, "page-1", "# Page 1\n\nSecond text.\n")
    assert len(revisions(store)) == 4
    # The branch put back by hand, as a user repairing a store might.
    subprocess.run(
        ["git", "-C", str(store.path), "update-ref", "refs/heads/main", before[-1].commit],
        check=True,
    )
    assert revisions(store) == before == listed_afresh(store)


def test_chunks_saved_twice_by_two_runs_count_once(store: Store, clock: StepClock) -> None:
    revisions(store)
    record(store, clock, "page-1", "# Page 1\n\nSecond text.\n")
    with_one = cache_file(store).read_bytes()
    revisions(store)
    appended = cache_file(store).read_bytes()[len(with_one) :]
    assert appended, "the new commit was appended"
    with cache_file(store).open("ab") as file:
        file.write(appended)
    assert revisions(store) == listed_afresh(store)
    record(store, clock, "page-2", "# Page 2\n\nSecond text.\n")
    assert revisions(store) == listed_afresh(store)
    assert len(chunks(store)) == 2, "the broken file was written afresh"


def test_a_listing_by_another_version_or_unreadable_is_set_aside(store: Store) -> None:
    expected = listed_afresh(store)
    header, whole = chunks(store)
    with cache_file(store).open("wb") as file:
        file.write(frame({"schema": SCHEMA, "code": "another version"}))
        file.write(frame(whole))
    assert revisions(store) == expected
    assert chunks(store)[0] == header
    for garbage in (b"", b"not a pickle", cache_file(store).read_bytes()[:-9]):
        cache_file(store).write_bytes(garbage)
        assert revisions(store) == expected


def test_a_listing_with_a_flipped_byte_is_set_aside_not_believed(store: Store) -> None:
    expected = listed_afresh(store)
    data = cache_file(store).read_bytes()
    commit = expected[0].commit.encode()
    assert commit in data
    # Another hex digit still unpickles, into a commit id that is not in the store.
    wrong = commit[:-1] + (b"0" if commit[-1:] != b"0" else b"1")
    cache_file(store).write_bytes(data.replace(commit, wrong, 1))
    assert revisions(store) == expected
    assert len(chunks(store)) == 2, "written afresh"


def test_a_listing_that_cannot_be_saved_is_no_error(store: Store) -> None:
    expected = listed_afresh(store)
    cache_file(store).unlink(missing_ok=True)
    cache_file(store).mkdir()
    assert revisions(store) == expected
    assert cache_file(store).is_dir()


def test_a_shallow_clone_lists_what_it_has_and_keeps_no_list(
    store: Store, clock: StepClock, tmp_path: Path
) -> None:
    record(store, clock, "page-1", "# Page 1\n\nSecond text.\n")
    clone = tmp_path / "clone"
    url = store.path.resolve().as_uri()
    subprocess.run(["git", "clone", "-q", "--depth", "2", url, str(clone)], check=True)
    with Store.open(clone) as shallow:
        assert [r.commit for r in shallow.revisions()] == [r.commit for r in revisions(store)][-2:]
    assert not (clone / ".git" / CACHE_FILE).exists()
    subprocess.run(["git", "-C", str(clone), "fetch", "-q", "--unshallow"], check=True)
    with Store.open(clone) as whole:
        assert whole.revisions() == revisions(store)
