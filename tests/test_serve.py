import socket
import struct
import time
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from spectrack.config import single_source_config
from spectrack.serve import LocalSite, pages_in
from spectrack.store import Store
from spectrack.targets import since_report
from spectrack.track import run_fetch
from tests.conftest import StepClock


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def test_pages_in_maps_files_to_url_paths(tmp_path: Path) -> None:
    folder = write(
        tmp_path,
        {
            "index.md": "# Home\n",
            "guide/index.mdx": "# Guide\n",
            "guide/setup.md": "# Setup\n",
            "api/INDEX.MD": "# API\n",
            "logo.svg": "<svg/>",
        },
    )
    assert pages_in(folder) == {
        "/": b"# Home\n",
        "/api": b"# API\n",
        "/guide": b"# Guide\n",
        "/guide/setup": b"# Setup\n",
    }


def test_publish_serves_pages_sitemap_and_404(site: LocalSite) -> None:
    site.publish({"/a": b"# A\n"}, lastmod={"/a": "2025-01-01"})
    with httpx.Client() as client:
        sitemap = client.get(site.url("/sitemap.xml")).text
        page = client.get(site.url("/a.md"))
        again = client.get(site.url("/a.md"), headers={"If-None-Match": page.headers["etag"]})
        missing = client.get(site.url("/b.md"))
    assert f"<loc>{site.url('/a')}</loc><lastmod>2025-01-01</lastmod>" in sitemap
    assert page.text == "# A\n" and again.status_code == 304 and missing.status_code == 404
    assert site.requests == ["/sitemap.xml", "/a.md", "/a.md", "/b.md"]


def test_revision_after_revision_like_the_demo(tmp_path: Path) -> None:
    v1 = write(tmp_path / "v1", {"spec/tools.md": "# Tools\n\nServers SHOULD log.\n"})
    v2 = write(
        tmp_path / "v2",
        {"spec/tools.md": "# Tools\n\nServers MUST log.\n", "spec/new.md": "# New\n"},
    )
    clock = StepClock(datetime(2030, 1, 1, tzinfo=UTC))
    with LocalSite() as site:
        config = single_source_config(
            tmp_path / "store", "example", site.url("/sitemap.xml"), markdown="{url}.md"
        )
        site.publish(pages_in(v1), lastmod="2025-03-26")
        assert run_fetch(config, clock=clock).sources[0].new == 1
        recorded = clock.now
        site.publish(pages_in(v2), lastmod="2025-06-18")
        summary = run_fetch(config, clock=clock).sources[0]
    assert (summary.new, summary.changed["normative"]) == (1, 1)
    with Store.open(tmp_path / "store") as store:
        report = since_report(store, recorded)
    assert report.verdict == "normative"
    assert [p.path for p in report.pages] == ["example/spec/new.md", "example/spec/tools.md"]


def test_a_client_hanging_up_mid_request_leaves_no_traceback(
    site: LocalSite, capsys: pytest.CaptureFixture[str]
) -> None:
    site.publish({"/a": b"# A\n"})
    host, port = urlsplit(site.base_url).netloc.split(":")
    for _ in range(3):
        with socket.create_connection((host, int(port))) as client:
            client.sendall(b"GET /spec/one HTTP/1.1\r\nHost: x\r\n")
            # Close with a reset rather than a polite FIN, as a crashed browser would.
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    assert httpx.get(site.url("/a.md")).status_code == 200
    time.sleep(0.2)
    assert "Traceback" not in capsys.readouterr().err
