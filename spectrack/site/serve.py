"""Serve a built site on 127.0.0.1 for a look; any static host serves it as well."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from spectrack.errors import InputError
from spectrack.serve import QuietServer

HOST = "127.0.0.1"


_TYPES = {".xml": "application/atom+xml", ".svg": "image/svg+xml"}
"""Content types beyond the standard ones: the only .xml files of a site are its feeds."""


class _SiteHandler(SimpleHTTPRequestHandler):
    def __init__(self, *args: Any, quiet: bool, **kwargs: Any) -> None:
        self._quiet = quiet
        self.extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **_TYPES}
        super().__init__(*args, **kwargs)

    def send_head(self) -> Any:
        # The base class expects only OSError from opening the file; a NUL or a lone surrogate
        # decoded from the URL makes open() raise ValueError, which would drop the connection
        # and print a traceback. Such a path names no file, so it is the client's mistake.
        try:
            return super().send_head()
        except ValueError:
            self.send_error(HTTPStatus.BAD_REQUEST, "No file can have this path")
            return None

    def log_message(self, format: str, *args: Any) -> None:
        if not self._quiet:
            super().log_message(format, *args)


def make_server(directory: Path, port: int = 8000, quiet: bool = False) -> ThreadingHTTPServer:
    """A server for ``directory`` on 127.0.0.1 (port 0 picks a free one); not started yet."""
    if not (directory / "index.html").is_file():
        raise InputError(f"{directory}: no built site here (no index.html); run `spectrack site`")
    handler = partial(_SiteHandler, directory=str(directory), quiet=quiet)
    try:
        return QuietServer((HOST, port), handler)
    except OSError as error:
        raise InputError(f"cannot serve on {HOST}:{port}: {error.strerror}") from error


def serve(
    directory: Path,
    port: int = 8000,
    on_ready: Callable[[str], None] | None = None,
) -> None:
    """Serve ``directory`` until interrupted; ``on_ready`` gets the site's URL once it listens."""
    with make_server(directory, port) as server:
        if on_ready is not None:
            on_ready(site_url(server))
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            return


def site_url(server: ThreadingHTTPServer) -> str:
    return f"http://{HOST}:{server.server_address[1]}/"
