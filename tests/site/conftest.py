"""Built sites, a local server and a real Chromium for the site tests."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from spectrack.site import SiteData, build
from spectrack.site.serve import make_server, site_url
from tests.site.fixtures import HOSTILE_EDITS, sample_data, site_data

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@dataclass(frozen=True)
class BuiltSite:
    data: SiteData
    folder: Path
    url: str
    """Where the local server serves it, ending in a slash."""


def _serve(folder: Path) -> Iterator[str]:
    server = make_server(folder, port=0, quiet=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield site_url(server)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture(scope="session")
def sample_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BuiltSite]:
    data = sample_data()
    folder = tmp_path_factory.mktemp("sample-site")
    build(data, folder)
    for url in _serve(folder):
        yield BuiltSite(data, folder, url)


@pytest.fixture(scope="session")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BuiltSite]:
    data = site_data(HOSTILE_EDITS, title='Traps <b onmouseover="window.__pwned=7">')
    folder = tmp_path_factory.mktemp("hostile-site")
    build(data, folder)
    for url in _serve(folder):
        yield BuiltSite(data, folder, url)


def find_chromium(
    which: Callable[[str], str | None] = shutil.which, environ: Mapping[str, str] = os.environ
) -> str:
    """Debian's chromium; its absence skips the browser tests, but fails them in CI."""
    path = which("chromium")
    if path is None:
        message = "browser tests need Debian's chromium (apt-get install chromium): not found"
        if environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def chromium() -> str:
    return find_chromium()


@pytest.fixture(scope="package")
def browser(chromium: str) -> Iterator[Browser]:
    """One Chromium for the site tests, closed after them: Playwright's synchronous API keeps an
    event loop running, which would stop later tests from calling ``asyncio.run``."""
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Screenshots go here (gitignored) for people to look at."""
    folder = Path(__file__).resolve().parents[2] / "test-artifacts"
    folder.mkdir(exist_ok=True)
    return folder
