"""Site benchmark: a full build of 5,000 recorded changes against a rebuild after one more change.

Run with ``python -m bench.site``. The pages are generated here: invented words, a few
requirements per page, and edits that strengthen, reword or re-wrap them, diffed by the real engine.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import shutil
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from spectrack.diff import diff_texts
from spectrack.reportcache import StoredReport
from spectrack.site import (
    ChangeEntry,
    Precision,
    SiteData,
    Source,
    TimeSource,
    UpstreamTime,
    build,
    link_pages,
)

WORDS = [
    "lamp",
    "kettle",
    "gate",
    "widget",
    "signal",
    "relay",
    "beacon",
    "ledger",
    "parcel",
    "token",
    "session",
    "channel",
    "record",
    "client",
    "server",
    "window",
    "button",
    "message",
    "header",
    "payload",
    "cache",
    "route",
]
KEYWORDS = ("MAY", "SHOULD", "MUST", "SHOULD NOT", "MUST NOT")
START = datetime(2023, 1, 1, tzinfo=UTC)
HOURS_APART = 5
"""One recorded change every five hours: 5,000 changes span almost three years."""


def _sentence(rng: random.Random, keyword: str | None) -> str:
    words = rng.sample(WORDS, 6)
    verb = keyword if keyword is not None else rng.choice(("can", "will", "does"))
    return f"The {words[0]} {verb} {words[1]} the {words[2]} before each {words[3]}."


def first_version(rng: random.Random, title: str) -> list[str]:
    lines = [f"# {title}", ""]
    for section in range(4):
        lines += [f"## Part {section + 1}", ""]
        for _ in range(4):
            keyword = rng.choice(KEYWORDS) if rng.random() < 0.4 else None
            lines += [_sentence(rng, keyword), ""]
    return lines


def edit(rng: random.Random, lines: list[str]) -> list[str]:
    """The next version: one requirement re-keyed, one sentence reworded, or one re-wrapped."""
    edited = list(lines)
    sentences = [i for i, line in enumerate(edited) if line.startswith("The ")]
    target = rng.choice(sentences)
    roll = rng.random()
    if roll < 0.3:
        edited[target] = _sentence(rng, rng.choice(KEYWORDS))
    elif roll < 0.7:
        edited[target] = _sentence(rng, None)
    else:
        words = edited[target].split(" ")
        edited[target] = " ".join(words[:3]) + "\n" + " ".join(words[3:])
    return edited


def _entry(
    change_id: str, source: str, page: int, old: str | None, new: str, number: int
) -> ChangeEntry:
    recorded = START + timedelta(hours=HOURS_APART * number)
    path = f"docs/page-{page:04d}.md"
    return ChangeEntry(
        change_id=change_id,
        source=source,
        page_path=path,
        title=f"Page {page}",
        url=f"https://{source}.example/{path}",
        upstream=UpstreamTime(recorded - timedelta(hours=1), TimeSource.SITEMAP, Precision.SECOND),
        recorded_at=recorded,
        first_seen=recorded,
        page_edits=1,
        report=StoredReport.of(diff_texts(old, new, path)),
    )


def generate(
    changes: int, pages: int, seed: int = 7
) -> tuple[list[ChangeEntry], dict[int, list[str]]]:
    """``changes`` recorded edits spread over ``pages`` pages, and each page's latest lines."""
    rng = random.Random(seed)
    latest: dict[int, list[str]] = {}
    entries = []
    for number in range(changes):
        page = number % pages
        source = f"source-{page % 5}"
        old = latest.get(page)
        new = edit(rng, old) if old is not None else first_version(rng, f"Page {page}")
        entries.append(
            _entry(
                f"c{number:06d}",
                source,
                page,
                "\n".join(old) if old is not None else None,
                "\n".join(new),
                number,
            )
        )
        latest[page] = new
    return entries, latest


def site_data(entries: list[ChangeEntry]) -> SiteData:
    linked = link_pages(entries)
    sources = tuple(Source(name) for name in sorted({entry.source for entry in linked}))
    return SiteData(linked, sources, max(entry.recorded_at for entry in linked))


def machine() -> str:
    memory = ""
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        total_kib = int(meminfo.read_text().split()[1])
        memory = f", {total_kib / 1024 / 1024:.0f} GiB"
    return f"{os.cpu_count()} cores{memory}"


def settle() -> None:
    """Let the disk write out what earlier runs left pending, so that no run pays for another."""
    if hasattr(os, "sync"):
        os.sync()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--changes", type=int, default=5000)
    parser.add_argument("--pages", type=int, default=250)
    parser.add_argument(
        "--runs",
        type=lambda text: max(1, int(text)),
        default=5,
        help="best of this many full builds, and of as many rebuilds (each after going back)",
    )
    args = parser.parse_args(argv)

    started = time.perf_counter()
    entries, latest = generate(args.changes, args.pages)
    print(
        f"generated {len(entries)} changes over {args.pages} pages "
        f"in {time.perf_counter() - started:.1f} s ({machine()})"
    )
    page = 0
    newest = latest[page]
    one_more = _entry(
        f"c{len(entries):06d}",
        "source-0",
        page,
        "\n".join(newest),
        "\n".join(edit(random.Random(1), newest)),
        len(entries),
    )
    before = site_data(entries)
    after = site_data([*entries, one_more])

    # The data stays alive through both builds: keep the collector from re-scanning it at
    # random moments, which would blur both timings.
    gc.collect()
    gc.freeze()
    full_seconds = incremental_seconds = float("inf")
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "site"
        for _ in range(args.runs):
            shutil.rmtree(out, ignore_errors=True)
            settle()
            started = time.perf_counter()
            full = build(before, out)
            full_seconds = min(full_seconds, time.perf_counter() - started)
        for _ in range(args.runs):
            settle()
            started = time.perf_counter()
            incremental = build(after, out)
            incremental_seconds = min(incremental_seconds, time.perf_counter() - started)
            build(before, out)
    print(f"best of {args.runs} runs")
    print(f"full build:        {full_seconds:8.3f} s, {len(full.written)} files written")
    print(
        f"incremental build: {incremental_seconds:8.3f} s, {len(incremental.written)} files written"
    )
    print(f"incremental / full: {incremental_seconds / full_seconds:.2%} (target <= 2%)")


if __name__ == "__main__":
    main()
