"""Site benchmark from a snapshot store: ``python -m bench.site_store`` (part of ``make bench``).

A generated upstream repository's 5,000 edits of 250 pages are imported into a store
(``import-git``), then ``spectrack site`` is timed the way a user runs it — read the store,
build the site:

1. the first build: every revision diffed, every file written;
2. a full build into an empty folder with the report cache filled by the first;
3. a rebuild after one new revision (best of several, each after one more revision).

The rebuild is compared with both full builds.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import TypeVar

from bench.site import HOURS_APART, START, edit, first_version, machine, settle
from spectrack.dates import Precision, TimeSource, UpstreamTime, utc_now
from spectrack.importgit import import_git, page_url
from spectrack.site.publish import publish
from spectrack.store import Store

SOURCE = "specs"
URL_BASE = "https://specs.example/docs"
Result = TypeVar("Result")


def upstream_stream(changes: int, pages: int) -> tuple[bytes, dict[int, list[str]]]:
    """A fast-import stream of ``changes`` commits, each editing one page, and each page's lines."""
    rng = random.Random(7)
    latest: dict[int, list[str]] = {}
    parts = []
    for number in range(changes):
        page = number % pages
        old = latest.get(page)
        lines = latest[page] = edit(rng, old) if old else first_version(rng, f"Page {page}")
        body = "\n".join(lines).encode()
        when = int((START + timedelta(hours=HOURS_APART * number)).timestamp())
        message = f"Edit page {page}\n".encode()
        parts += [
            b"commit refs/heads/main\n",
            f"committer Editor <editor@example.org> {when} +0000\n".encode(),
            f"data {len(message)}\n".encode(),
            message,
            f"M 100644 inline docs/page-{page:04d}.md\ndata {len(body)}\n".encode(),
            body,
            b"\n",
        ]
    return b"".join(parts), latest


def timed(action: Callable[[], Result]) -> tuple[float, Result]:
    settle()
    started = time.perf_counter()
    result = action()
    return time.perf_counter() - started, result


def site_from_store(store: Store, out: Path) -> int:
    """``spectrack site``'s work: the store's changes into the folder; how many files it wrote."""
    return len(publish(store, out).written)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--changes", type=int, default=5000)
    parser.add_argument("--pages", type=int, default=250)
    parser.add_argument("--runs", type=lambda text: max(1, int(text)), default=3)
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="spectrack-bench-") as folder:
        work = Path(folder)
        upstream = work / "upstream"
        subprocess.run(["git", "init", "-q", "-b", "main", str(upstream)], check=True)
        stream, latest = upstream_stream(args.changes, args.pages)
        subprocess.run(
            ["git", "-C", str(upstream), "fast-import", "--quiet"], input=stream, check=True
        )
        with Store.create(work / "store") as store:
            import_git(store, upstream, folder="docs", source=SOURCE, url_base=URL_BASE)
            print(
                f"site from a store: {len(store.revisions())} revisions of {args.pages} pages "
                f"({machine()})"
            )
            first, written = timed(lambda: site_from_store(store, work / "site"))
            print(f"first build (every revision diffed): {first:8.3f} s, {written} files written")
            warm = float("inf")
            for run in range(args.runs):
                out = work / f"full-{run}"
                seconds, written = timed(lambda: site_from_store(store, out))  # noqa: B023
                warm = min(warm, seconds)
            print(f"full build, reports cached:          {warm:8.3f} s, {written} files written")
            rebuild = float("inf")
            rng = random.Random(1)
            for run in range(args.runs):
                latest[0] = edit(rng, latest[0])
                when = START + timedelta(hours=HOURS_APART * (args.changes + run))
                with store.writer(utc_now) as writer:
                    writer.record(
                        SOURCE,
                        page_url(URL_BASE, "page-0000.md"),
                        "\n".join(latest[0]).encode(),
                        UpstreamTime(when, TimeSource.COMMIT, Precision.SECOND),
                    )
                seconds, written = timed(lambda: site_from_store(store, work / "site"))
                rebuild = min(rebuild, seconds)
            print(f"rebuild after one new revision:      {rebuild:8.3f} s, {written} files written")
            print(f"rebuild / first build:  {rebuild / first:.2%} (target <= 2%)")
            print(f"rebuild / cached full:  {rebuild / warm:.2%}")


if __name__ == "__main__":
    main()
