"""Fetch and store benchmark: ``python -m bench.fetch`` (``make bench-fetch``).

1. A local site (its own process, so it does not share the GIL) serves 200 pages, each answer
   20 ms late. The first full fetch into an empty store is timed against the bound
   ``pages × latency / concurrency`` and against a plain httpx fetch of the same URLs with the same
   concurrency (the baseline, run first in this process).
2. A re-run with nothing changed: the requests it makes (target: 1, the sitemap).
3. ``import-git`` of 1,000 upstream revisions: cost per stored revision, against a plain
   ``git fast-import`` of the same commits into an empty repository (the baseline).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import subprocess
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

import httpx

from spectrack.config import single_source_config
from spectrack.importgit import import_git
from spectrack.serve import LocalSite
from spectrack.store import Store
from spectrack.track import run_fetch

PAGES = 200
LATENCY = 0.020
CONCURRENCY = 8
REVISIONS = 1000
UPSTREAM_PAGES = 50


def page_body(index: int, revision: int) -> bytes:
    return (
        f"# Page {index}\n\nRevision {revision} of page {index}.\n\n"
        f"Clients SHOULD read section {index}.{revision}.\n"
    ).encode()


def serve(connection: Connection) -> None:
    with LocalSite(latency=LATENCY) as site:
        site.publish(
            {f"/spec/page-{i:03d}": page_body(i, 0) for i in range(PAGES)}, lastmod="2025-06-18"
        )
        connection.send(site.base_url)
        connection.recv()


async def plain_fetch(urls: list[str]) -> None:
    limit = asyncio.Semaphore(CONCURRENCY)
    async with httpx.AsyncClient() as client:

        async def one(url: str) -> None:
            async with limit:
                (await client.get(url)).raise_for_status()

        await asyncio.gather(*(one(u) for u in urls))


def machine() -> str:
    memory = "?"
    with open("/proc/meminfo") as info:
        for line in info:
            if line.startswith("MemTotal:"):
                memory = f"{int(line.split()[1]) / 1024 / 1024:.0f} GiB"
    return f"{os.cpu_count()} cores, {memory}"


def fetch_benchmark(work: Path) -> None:
    parent, child = multiprocessing.Pipe()
    server = multiprocessing.get_context("fork").Process(target=serve, args=(child,), daemon=True)
    server.start()
    base = parent.recv()
    try:
        urls = [f"{base}/sitemap.xml"] + [f"{base}/spec/page-{i:03d}.md" for i in range(PAGES)]
        started = time.perf_counter()
        asyncio.run(plain_fetch(urls))
        baseline = time.perf_counter() - started

        config = single_source_config(
            work / "store",
            "bench",
            f"{base}/sitemap.xml",
            markdown="{url}.md",
            concurrency=CONCURRENCY,
        )
        started = time.perf_counter()
        first = run_fetch(config)
        wall = time.perf_counter() - started
        assert first.ok and first.sources[0].new == PAGES, first
        again = run_fetch(config)
        bound = PAGES * LATENCY / CONCURRENCY
        print(
            f"first full fetch: {PAGES} pages, {LATENCY * 1000:.0f} ms latency, concurrency "
            f"{CONCURRENCY}: {wall:.2f} s; bound pages x latency / concurrency = {bound:.2f} s; "
            f"ratio {wall / bound:.2f} (target <= 1.5)"
        )
        print(
            f"  plain httpx fetch of the same {len(urls)} URLs: {baseline:.2f} s; "
            f"spectrack / plain = {wall / baseline:.2f}"
        )
        print(f"re-run with nothing changed: {again.requests} request(s) (target 1)")
    finally:
        parent.send("stop")
        server.join(5)


def upstream_stream() -> bytes:
    """A fast-import stream of REVISIONS commits, each editing one page of docs/."""
    parts = []
    for revision in range(REVISIONS):
        page = revision % UPSTREAM_PAGES
        body = page_body(page, revision)
        message = f"Edit page {page}\n".encode()
        when = 1_700_000_000 + revision * 3600
        parts += [
            b"commit refs/heads/main\n",
            f"committer Editor <editor@example.org> {when} +0000\n".encode(),
            f"data {len(message)}\n".encode(),
            message,
            f"M 100644 inline docs/page-{page:03d}.md\ndata {len(body)}\n".encode(),
            body,
            b"\n",
        ]
    return b"".join(parts)


def import_benchmark(work: Path) -> None:
    upstream = work / "upstream"
    subprocess.run(["git", "init", "-q", "-b", "main", str(upstream)], check=True)
    stream = upstream_stream()
    started = time.perf_counter()
    subprocess.run(["git", "-C", str(upstream), "fast-import", "--quiet"], input=stream, check=True)
    baseline = time.perf_counter() - started
    with Store.create(work / "imported") as store:
        started = time.perf_counter()
        summary = import_git(
            store, upstream, folder="docs", source="up", url_base="https://example.org/docs"
        )
        wall = time.perf_counter() - started
    assert summary.revisions == REVISIONS, summary
    print(
        f"import-git: {REVISIONS} revisions in {wall:.2f} s = "
        f"{wall / REVISIONS * 1000:.1f} ms per stored revision (target <= 10 ms); "
        f"plain git fast-import of the same commits {baseline:.2f} s, ratio {wall / baseline:.1f}"
    )


def main() -> None:
    print(f"fetch benchmark ({machine()})")
    with tempfile.TemporaryDirectory(prefix="spectrack-bench-") as folder:
        fetch_benchmark(Path(folder))
        import_benchmark(Path(folder))


if __name__ == "__main__":
    main()
