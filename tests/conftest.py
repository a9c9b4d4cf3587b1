from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from spectrack.serve import LocalSite, Reply, Route


@pytest.fixture
def site() -> Iterator[LocalSite]:
    with LocalSite() as local:
        yield local


@pytest.fixture
def release() -> Iterator[threading.Event]:
    """Set at the end of a test: hung routes wait on it so the server can stop."""
    event = threading.Event()
    yield event
    event.set()


class RecordingSleep:
    """An injected sleep that returns at once and remembers each delay."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)


class StepClock:
    """An injected clock: starts at a fixed time, one second later at every call."""

    def __init__(self, start: datetime = datetime(2030, 1, 1, tzinfo=UTC)) -> None:
        self.now = start

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def in_turn(replies: list[Reply]) -> Route:
    """A route answering with each reply in turn, then the last one forever."""
    calls = iter(replies)
    last = replies[-1]
    return lambda handler: next(calls, last)


def truncated(handler: BaseHTTPRequestHandler) -> None:
    """Promise 1000 bytes, send a few, close the connection."""
    handler.send_response(200)
    handler.send_header("Content-Length", "1000")
    handler.end_headers()
    handler.wfile.write(b"# Cut short")
    handler.close_connection = True


def _shared() -> Path:
    if "SPECTRACK_SHARED" in os.environ:
        return Path(os.environ["SPECTRACK_SHARED"])
    beside = Path(__file__).resolve().parents[1].parent / "shared"
    workspace = Path("/work/shared")
    return beside if beside.exists() or not workspace.exists() else workspace


SHARED = _shared()
"""The shared material (corpus, schemas): ``$SPECTRACK_SHARED``, else ``../shared`` beside the
repository, else the workspace's copy for clones made elsewhere; never copied into the repo."""


def shared_path(relative: str) -> Path:
    """A file or folder of ../shared; skips the test when it is absent, fails in CI."""
    path = SHARED / relative
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is missing; CI must run beside ../shared")
        pytest.skip(f"{path} is absent (../shared is not beside this clone)")
    return path
