"""Real `spectrack fetch` processes: two at once, and one killed with SIGKILL mid-way."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path

from spectrack.serve import LocalSite, Reply
from spectrack.store import CHECKPOINT_EVERY, RevisionEvent, Store
from tests.storecheck import assert_consistent, git, head


def write_config(tmp_path: Path, site: LocalSite, concurrency: int) -> Path:
    config = tmp_path / "spectrack.toml"
    config.write_text(
        f"""
[store]
path = "snapshots"
lock_wait = 0.3

[fetch]
timeout = 40
retries = 1
backoff = 0.05

[[source]]
name = "spec"
sitemap = "{site.url("/sitemap.xml")}"
markdown = "{{url}}.md"
concurrency = {concurrency}
"""
    )
    return config


def spectrack(config: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "spectrack", "fetch", "--config", str(config), "--quiet", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def pages(count: int) -> dict[str, bytes]:
    return {f"/spec/p{i:03d}": f"# Page {i}\n\nText of page {i}.\n".encode() for i in range(count)}


def wait_for(condition, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.01)


def test_two_runs_at_once_the_second_waits_then_stops(tmp_path: Path) -> None:
    release = threading.Event()
    with LocalSite() as site:
        site.publish(pages(30), lastmod="2025-01-01")
        held = site.routes["/spec/p000.md"]
        assert isinstance(held, Reply)

        def slow(handler: BaseHTTPRequestHandler) -> Reply:
            release.wait(30)
            return held

        site.routes["/spec/p000.md"] = slow
        config = write_config(tmp_path, site, concurrency=2)
        store = tmp_path / "snapshots"
        first = spectrack(config)
        lock = store / ".git" / "spectrack.lock"
        wait_for(lambda: "/spec/p000.md" in site.requests)
        assert lock.read_text().strip() == str(first.pid)
        second = spectrack(config)
        _, errors = second.communicate(timeout=60)
        release.set()
        assert second.returncode == 2
        assert "another spectrack run is using the store" in errors
        assert f"pid {first.pid}" in errors
        first.communicate(timeout=60)
        assert first.returncode == 0
        assert_consistent(store)
        with Store.open(store) as opened:
            assert len(opened.pages()) == 30
        third = spectrack(config)
        third.communicate(timeout=60)
        assert third.returncode == 0


def test_a_run_killed_mid_way_is_completed_by_the_next(tmp_path: Path) -> None:
    total = CHECKPOINT_EVERY * 2 + 50
    with LocalSite(latency=0.004) as site:
        published = pages(total)
        site.publish(published, lastmod="2025-01-01")
        config = write_config(tmp_path, site, concurrency=2)
        store = tmp_path / "snapshots"
        heads: list[str] = []

        # Killed right after the first checkpoint published commits: those are kept.
        run = spectrack(config)
        wait_for(lambda: (store / ".git").exists() and len(git_log(store)) > 1)
        os.kill(run.pid, signal.SIGKILL)
        run.wait()
        kept = len(git_log(store)) - 1
        assert kept >= CHECKPOINT_EVERY
        heads.append(head(store))

        # Killed at other moments: while starting, fetching, or writing.
        for delay in (0.2, 0.9):
            run = spectrack(config)
            time.sleep(delay)
            os.kill(run.pid, signal.SIGKILL)
            run.wait()
            subprocess.run(["git", "-C", str(store), "fsck", "--no-dangling"], check=True)
            for earlier in heads:
                assert (
                    subprocess.run(
                        ["git", "-C", str(store), "merge-base", "--is-ancestor", earlier, "main"]
                    ).returncode
                    == 0
                )
            heads.append(head(store))

        final = spectrack(config)
        final.communicate(timeout=120)
        assert final.returncode == 0
        assert_consistent(store, heads)
        with Store.open(store) as opened:
            assert len(opened.pages()) == total
            for path, body in published.items():
                assert (store / f"spec{path}.md").read_bytes() == body
            added = [r for r in opened.revisions() if r.event is RevisionEvent.ADDED]
            assert len(added) == total, "no page recorded twice"
        completed = head(store)
        again = spectrack(config)
        again.communicate(timeout=60)
        assert again.returncode == 0 and head(store) == completed


def git_log(store: Path) -> list[str]:
    try:
        return git(store, "rev-list", "main").split()
    except subprocess.CalledProcessError:
        return []
