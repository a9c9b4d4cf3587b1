"""`spectrack serve`: the built site over HTTP on 127.0.0.1, and clear errors."""

from __future__ import annotations

import http.client
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import click
import pytest

from spectrack.cli import cli, main
from spectrack.errors import InputError
from spectrack.site.serve import make_server
from tests.site.conftest import BuiltSite


def fetch(url: str) -> tuple[str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.headers["Content-Type"], response.read()


def test_the_server_hands_out_the_built_files(sample_site: BuiltSite) -> None:
    assert sample_site.url.startswith("http://127.0.0.1:")
    kind, body = fetch(sample_site.url)
    assert kind == "text/html"
    assert body == (sample_site.folder / "index.html").read_bytes()
    kind, body = fetch(sample_site.url + "feeds/all.xml")
    assert kind == "application/atom+xml"
    assert body == (sample_site.folder / "feeds/all.xml").read_bytes()


def test_a_folder_without_a_site_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no built site here"):
        make_server(tmp_path, port=0)


def test_the_cli_names_the_missing_site_in_one_line(tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["serve", str(tmp_path / "nowhere"), "--port", "0"])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert error.startswith("spectrack: error: ") and "nowhere" in error


def test_a_busy_port_is_a_clear_error(sample_site: BuiltSite) -> None:
    port = int(sample_site.url.rsplit(":", 1)[1].strip("/"))
    with pytest.raises(InputError, match=f"cannot serve on 127.0.0.1:{port}"):
        make_server(sample_site.folder, port=port)


def test_every_option_of_the_site_commands_is_documented() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## The change site") :]
    for name in ("site", "serve"):
        for parameter in cli.commands[name].params:
            if isinstance(parameter, click.Option):
                assert [f for f in parameter.opts if f"`{name} {f}" in section], parameter.opts
            else:
                assert f"`{name} {(parameter.name or '').upper()}`" in section, parameter.name


@pytest.mark.parametrize(
    "path", ["/%00", "/index.html%00.txt", "/%ed%a0%80", "/feeds/%ed%b0%81.xml"]
)
def test_a_path_no_file_can_have_is_a_bad_request_without_a_traceback(
    sample_site: BuiltSite, path: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for method in ("GET", "HEAD"):
        connection = http.client.HTTPConnection(urlsplit(sample_site.url).netloc, timeout=10)
        connection.request(method, path)
        response = connection.getresponse()
        response.read()
        connection.close()
        assert response.status == 400, (method, path)
    assert fetch(sample_site.url)[1] == (sample_site.folder / "index.html").read_bytes()
    assert "Traceback" not in capsys.readouterr().err
