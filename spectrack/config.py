"""``spectrack.toml`` → a frozen `Config`.

Every key, its type and default (the README's ``spectrack.toml`` reference says the same)::

    ignore = []               # fingerprints of reviewed changes (top level: before any [table])

    [store]
    path = "snapshots"        # the snapshot store (a git repository), relative to this file
    lock_wait = 10            # seconds a run waits for another run on the same store

    [fetch]
    user_agent = "spectrack/0.1 (specification change tracker)"
    timeout = 30              # seconds for one request, body included
    max_page_bytes = 10485760 # cap on a decoded page body
    retries = 4               # further attempts after a connection error, 429 or 5xx (0-10)
    backoff = 1.0             # first retry delay in seconds; doubles each attempt, up to max_retry_after
    max_retry_after = 300     # longest Retry-After honoured; a longer one fails the page
    strip_timeout = 5         # seconds a source's `strip` patterns may run on one page

    [[source]]                # one per tracked site; at least one
    name = "mcp"              # folder in the store: letters, digits, '.', '_', '-'
    sitemap = "https://example.org/sitemap.xml"
    include = ["/specification/**"]  # URL path globs; default: everything
    exclude = []
    markdown = "{url}.md"     # where a page's Markdown is served; default "{url}"
    strip = []                # regexes (multiline) cut from each page before storing
    concurrency = 8           # connections per host
    redirect_hosts = []       # hosts (host[:port]) a redirect may lead to besides the sitemap's
    max_removal = 0.2         # a run removing a larger share of the source's pages stops

    [[source.releases]]       # any number per source: release feeds (see `spectrack.releases`)
    kind = "github"           # github (repo), npm (package), pypi (package), atom (url)
    repo = "OWNER/REPO"       # github: the repository; npm and pypi take `package` instead
    url = "https://…"         # the document to fetch; required for atom, else overrides the default
    window = "24h"            # how near an edit a release is shown (s, m, h, d, w; default 24h)

Globs match URL paths: ``*`` and ``?`` stay within one path segment, ``**`` (a whole segment)
matches any number of segments, ``[abc]``/``[!abc]`` a character class; a glob starts with ``/``.
``ignore`` acknowledges changes like ``spectrack-ack.toml`` does (see `spectrack.acks`), for
teams that keep their reviewed changes in the configuration: each entry is a change fingerprint,
and its reason in reports is ``spectrack.toml, ignore[N]``. Errors name the file, the line, and
the key.
"""

from __future__ import annotations

import math
import re
import string
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import regex

from spectrack.errors import ConfigError
from spectrack.fingerprints import FINGERPRINT_LENGTH, FINGERPRINT_PATTERN
from spectrack.pages import is_utf8, not_utf8
from spectrack.paths import reserved_name
from spectrack.releases import DEFAULT_WINDOW, FEED_KINDS, FeedSpec, parse_window

CONFIG_FILE = "spectrack.toml"
DEFAULT_STORE = "snapshots"
DEFAULT_USER_AGENT = "spectrack/0.1 (specification change tracker)"

T = TypeVar("T")


class PathGlob:
    """A URL path glob such as ``/specification/**/tools``."""

    __slots__ = ("pattern", "regex")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.regex = re.compile(_glob_regex(pattern))

    def matches(self, path: str) -> bool:
        return self.regex.fullmatch(path or "/") is not None

    def __repr__(self) -> str:
        return f"PathGlob({self.pattern!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PathGlob) and other.pattern == self.pattern

    def __hash__(self) -> int:
        return hash(self.pattern)


def _segment_regex(segment: str, pattern: str) -> str:
    out: list[str] = []
    index = 0
    while index < len(segment):
        char = segment[index]
        if char == "*":
            if segment.startswith("**", index):
                raise ValueError(f"'**' must be a whole path segment in {pattern!r}")
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            # A ']' right after '[' or '[!' is a character of the class, as in fnmatch.
            first = index + (2 if segment.startswith("[!", index) else 1)
            end = segment.find("]", first + 1)
            if end < 0:
                raise ValueError(f"unclosed '[' in {pattern!r}")
            out.append(_class_regex(segment[index + 1 : end]))
            index = end
        else:
            out.append(re.escape(char))
        index += 1
    return "".join(out)


def _class_regex(body: str) -> str:
    """A glob's ``[abc]``, ``[a-z]`` or ``[!abc]`` as a regex class of the same characters.

    Each character is escaped, so a glob's ``^``, ``&&`` or ``[`` is a character, as in
    fnmatch, not a regex negation, set operation or nested set; no class ever matches ``/``,
    so that a class, like ``?``, stays within one segment.
    """
    negated = body.startswith("!")
    if negated:
        body = body[1:]
    items = []
    index = 0
    while index < len(body):
        if index + 2 < len(body) and body[index + 1] == "-":
            items.append(f"{re.escape(body[index])}-{re.escape(body[index + 2])}")
            index += 3
        else:
            items.append(re.escape(body[index]))
            index += 1
    # A range may span '/' ([+-0]): the look-ahead keeps any class off it.
    return ("[^/" if negated else "(?!/)[") + "".join(items) + "]"


def _glob_regex(pattern: str) -> str:
    if not pattern.startswith("/"):
        raise ValueError(f"{pattern!r} must start with '/' (globs match URL paths)")
    regex = ""
    for segment in pattern[1:].split("/"):
        if segment == "**":
            regex += "(?:/[^/]*)*"
        else:
            regex += "/" + _segment_regex(segment, pattern)
    return regex + "/?"


@dataclass(frozen=True, slots=True)
class StoreConfig:
    path: Path
    """The snapshot store; relative paths in the file are relative to the file's folder."""
    lock_wait: float = 10.0
    """Seconds a run waits for another run to release the store."""


@dataclass(frozen=True, slots=True)
class FetchConfig:
    user_agent: str = DEFAULT_USER_AGENT
    timeout: float = 30.0
    """Seconds for one request, connection and whole body included."""
    max_page_bytes: int = 10 * 1024 * 1024
    """Cap on a decoded (decompressed) page body."""
    retries: int = 4
    """Further attempts after a connection error, a 429 or a 5xx answer."""
    backoff: float = 1.0
    """Delay before the first retry, doubled for each further one (unless Retry-After says)."""
    max_retry_after: float = 300.0
    """The longest ``Retry-After`` honoured; a longer one fails the request at once."""
    strip_timeout: float = 5.0
    """Seconds a source's ``strip`` patterns may run on one page; a page taking longer fails."""


def _after_path(url: str, after: str) -> str:
    """``url`` followed by a template's text after ``{url}``: that text goes on the URL's path,
    so a URL with a query keeps it after the text (and joins the text's own query with ``&``)."""
    parts = urlsplit(url)
    if not after or not parts.query:
        return url + after
    suffix, _, query = after.partition("?")
    queries = (parts.query, query) if query else (parts.query,)
    return urlunsplit(parts._replace(path=parts.path + suffix, query="&".join(queries)))


@dataclass(frozen=True, slots=True)
class SourceConfig:
    name: str
    """Folder of the source in the store."""
    sitemap: str
    include: tuple[PathGlob, ...] = ()
    """URL path globs to track; empty means every page."""
    exclude: tuple[PathGlob, ...] = ()
    markdown: str = "{url}"
    """Template of the URL serving a page's Markdown; ``{url}`` is the sitemap URL."""
    strip: tuple[regex.Pattern[str], ...] = ()
    """Injected boilerplate to cut from each page before storing (multiline regexes of the
    ``regex`` module, which can stop a pattern that backtracks without end)."""
    concurrency: int = 8
    """Connections at once to one host."""
    redirect_hosts: tuple[str, ...] = ()
    """Hosts a redirect may lead to besides the sitemap's own."""
    max_removal: float = 0.2
    """Largest share of the source's pages one run may remove."""
    releases: tuple[FeedSpec, ...] = ()
    """Release feeds whose releases are shown beside the source's changes."""

    def wants(self, url_path: str) -> bool:
        """Whether a page at this URL path is tracked (include and exclude globs)."""
        included = not self.include or any(g.matches(url_path) for g in self.include)
        return included and not any(g.matches(url_path) for g in self.exclude)

    def markdown_url(self, url: str) -> str:
        """The URL serving the Markdown of the page at ``url``.

        A suffix such as ``.md`` cannot follow a folder's URL (``https://x/docs/.md`` names a
        hidden file): the page ``https://x/docs/`` is at ``https://x/docs.md``, as sites that
        append ``.md`` serve it, and the site's root at ``https://x/index.md``. Nor can it follow
        a query, whose value it would change: ``https://x/a?v=2`` is at ``https://x/a.md?v=2``.
        """
        before, _, after = self.markdown.partition("{url}")
        if after.startswith("."):
            parts = urlsplit(url)
            if parts.path.strip("/") == "":
                url = urlunsplit(parts._replace(path="/index"))
            elif parts.path.endswith("/"):
                url = urlunsplit(parts._replace(path=parts.path.rstrip("/")))
        return before + _after_path(url, after)

    @property
    def host(self) -> str:
        return urlsplit(self.sitemap).netloc.lower()


@dataclass(frozen=True, slots=True)
class Config:
    store: StoreConfig
    sources: tuple[SourceConfig, ...] = ()
    fetch: FetchConfig = field(default_factory=FetchConfig)
    path: Path | None = None
    """The file the configuration was read from, if any."""
    ignore: tuple[str, ...] = ()
    """Fingerprints of changes acknowledged in the configuration (lowercase hex)."""

    def selected(self, names: Sequence[str]) -> list[SourceConfig]:
        """The named sources (`ConfigError` for an unknown one); every source when none is named."""
        return [self.source(name) for name in dict.fromkeys(names)] if names else list(self.sources)

    def source(self, name: str) -> SourceConfig:
        for source in self.sources:
            if source.name == name:
                return source
        known = ", ".join(s.name for s in self.sources) or "none"
        where = f"{self.path}: " if self.path else ""
        raise ConfigError(f"{where}no source named {name!r} (sources: {known})")


class _Locator:
    """Finds the line of a table or key in TOML text (tomllib reports none for valid files)."""

    _HEADER = re.compile(r"\s*(\[\[?)\s*([^\]]+?)\s*\]\]?")
    _PART = r"(?:[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*')"
    _KEY = re.compile(rf"\s*({_PART}(?:\s*\.\s*{_PART})*)\s*=")
    _ARRAY_START = re.compile(rf"{_KEY.pattern}\s*\[")

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()

    def line(self, table: str | None, index: int, key: str | None) -> int | None:
        current: str | None = None
        counts: dict[str, int] = {}
        wanted = [*(table.split(".") if table else []), *([key] if key else [])]
        for number, line in enumerate(self.lines, 1):
            header = self._HEADER.match(line)
            if header:
                current = header[2]
                counts[current] = counts.get(current, -1) + 1
                if key is None and current == table and counts[current] == index:
                    return number
                if table is None and current.split(".")[0].strip("\"' ") == key:
                    return number  # a top-level key written as a table: [key] or [[key]]
                continue
            name = self._KEY.match(line)
            if name is None or key is None:
                continue
            parts = [part.strip("\"'") for part in re.findall(self._PART, name[1])]
            if current == table and counts.get(current or "", 0) == index and parts[0] == key:
                return number
            # A dotted key reaches into a table from outside it (`store.ignore = …` above any
            # header); a table is never an array there, so only its first one is meant.
            path = [*(current.split(".") if current else []), *parts]
            if index == 0 and path[: len(wanted)] == wanted:
                return number
        return None

    def element_line(self, key_line: int, index: int) -> int | None:
        """The line where table ``index`` of an inline array of tables (``key = [{…}, {…}]``,
        whose key is on line ``key_line``) opens; None when no such array starts there."""
        if self._ARRAY_START.match(self.lines[key_line - 1]) is None:
            return None
        text = "\n".join(self.lines[key_line - 1 :])
        position = text.find("=") + 1
        depth = elements = 0
        quote = ""
        while 0 < position < len(text):
            character = text[position]
            if quote:
                if character == "\\" and quote == '"':
                    position += 1
                elif character == quote:
                    quote = ""
            elif character in "\"'":
                quote = character
            elif character == "#":
                position = text.find("\n", position) - 1
                if position < 0:
                    return None
            elif character in "[{":
                if character == "{" and depth == 1:
                    if elements == index:
                        return key_line + text.count("\n", 0, position)
                    elements += 1
                depth += 1
            elif character in "]}":
                depth -= 1
                if depth <= 0:
                    return None
            position += 1
        return None


class _Reader:
    """Typed access to a parsed table with errors naming file, line and key."""

    def __init__(
        self,
        data: Mapping[str, Any],
        where: str,
        locator: _Locator,
        table: str | None,
        index: int,
        title: str | None = None,
        inline: tuple[_Reader, str, int] | None = None,
    ) -> None:
        self.data = dict(data)
        self.where = where
        self.locator = locator
        self.table = table
        self.index = index
        self.title = title
        """How messages name the table, when the table's own name is not enough."""
        self.inline = inline
        """(The enclosing table's reader, the key and the position) of this table in an array
        of tables, which may be written inline (``releases = [{…}]``)."""

    def label(self, key: str | None) -> str:
        line = None
        if self.inline is not None:
            # Written inline, the table has no header: counting headers would find another's.
            parent, array, position = self.inline
            key_line = parent.locator.line(parent.table, parent.index, array)
            if key_line is not None:
                line = self.locator.element_line(key_line, position)
        if line is None:
            line = self.locator.line(self.table, self.index, key)
        if line is None and key is not None:
            line = self.locator.line(self.table, self.index, None)
        if line is None and self.table is not None and "." not in self.table:
            # An inline table (`store = { … }`) is on the line of its own key.
            line = self.locator.line(None, 0, self.table)
        prefix = f"{self.where}:{line}" if line else self.where
        if self.title:
            table = self.title
        elif self.table == "source":
            name = self.data.get("name")
            table = f"[[source]] #{self.index + 1}" + (
                f" ({name!r})" if isinstance(name, str) else ""
            )
        else:
            table = f"[{self.table}]" if self.table else "top level"
        return f"{prefix}: {table}" + (f" key {key!r}" if key else "")

    def error(self, key: str | None, message: str) -> ConfigError:
        return ConfigError(f"{self.label(key)}: {message}")

    def check_keys(self, known: set[str]) -> None:
        for key in self.data:
            if self.table is not None and key in _TOP_LEVEL_KEYS:
                raise self.error(
                    key,
                    f"a top-level key, in no table: write it as `{key} = …` above the first "
                    "[table] header of the file",
                )
            if key not in known:
                raise self.error(key, f"unknown key (known: {', '.join(sorted(known))})")

    def get(self, key: str, kind: type[T], default: T, describe: str) -> T:
        if key not in self.data:
            return default
        value = self.data[key]
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise self.error(key, f"expected {describe}, got {_toml_type(value)}")
        return value

    def strings(self, key: str) -> tuple[str, ...]:
        value = self.data.get(key, [])
        if not isinstance(value, list):
            raise self.error(key, f"expected a list of strings, got {_toml_type(value)}")
        for index, item in enumerate(value):
            if not isinstance(item, str):
                raise self.error(key, f"{key}[{index}] is {_toml_type(item)}, expected a string")
        return tuple(value)

    def compiled(self, key: str, build: Callable[[str], T]) -> tuple[T, ...]:
        out = []
        for item in self.strings(key):
            try:
                out.append(build(item))
            except (ValueError, re.error, regex.error) as error:
                raise self.error(key, f"invalid pattern {item!r}: {error}") from None
        return tuple(out)

    def positive(self, key: str, kind: type[T], default: T, describe: str) -> T:
        value = self.get(key, kind, default, describe)
        if not value > 0:  # type: ignore[operator]
            raise self.error(key, f"must be greater than 0, got {value}")
        if isinstance(value, float) and not math.isfinite(value):
            raise self.error(key, f"must be a finite number, got {value}")
        return value

    def seconds(self, key: str, default: float) -> float:
        """A positive number of seconds, a day at most: past that the clocks and timers that
        use it overflow (1e300 s failed every page at once), and no wait is meant so long."""
        value = self.positive(key, float, default, "a number of seconds")
        if value > MOST_SECONDS:
            raise self.error(key, f"must be at most {MOST_SECONDS} seconds (a day), got {value:g}")
        return value


def _toml_type(value: object) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string"}
    for kind, name in names.items():
        if isinstance(value, kind):
            return f"{name} ({value!r})"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
_TOP_LEVEL_KEYS = {"ignore"}
"""Plain top-level keys: TOML files them under the table above them when written too late."""
_STORE_KEYS = {"path", "lock_wait"}
MOST_RETRIES = 10
"""Most further attempts at one URL: with the delay doubling each time, ten already wait
about 17 minutes at the default backoff."""
MOST_SECONDS = 86_400
"""The longest wait, timeout or delay a configuration may set."""
_FETCH_KEYS = {
    "user_agent",
    "timeout",
    "max_page_bytes",
    "retries",
    "backoff",
    "max_retry_after",
    "strip_timeout",
}
_SOURCE_KEYS = {
    "name",
    "sitemap",
    "include",
    "exclude",
    "markdown",
    "strip",
    "concurrency",
    "redirect_hosts",
    "max_removal",
    "releases",
}
_FEED_KEYS = {"kind", "repo", "package", "url", "window"}


def valid_source_name(name: str) -> bool:
    """Whether ``name`` can name a source (it is a folder of the store, also on Windows)."""
    return _NAME.fullmatch(name) is not None and not reserved_name(name)


def http_url_problem(value: str) -> str | None:
    """Why ``value`` is no http(s) URL to fetch from (``"not a URL (…)"``), or None."""
    if not is_utf8(value):
        return "not a URL (bytes that are not UTF-8 in it)"
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError as error:
        return f"not a URL ({error})"
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return "not an http(s) URL"
    if port == 0:
        return "not a URL (port 0)"
    if not parts.hostname:
        return "not a URL (no host name)"
    if "@" in parts.netloc:
        # Pages are listed without it, so they would all be on "another host", and the
        # password would be printed in every message and kept in every commit of the store.
        return "not a public URL (a user name or password in it, which spectrack would publish)"
    if _SPACE_OR_CONTROL.search(value):
        return "not a URL (a space or control character in it)"
    return None


_SPACE_OR_CONTROL = re.compile(r"[\s\x00-\x1f\x7f]")
_HEADER_VALUE = re.compile(r"[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?")
"""What an HTTP header value may be as written: printable ASCII, no space at either end."""


_HOST_NAME = re.compile(
    r"(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]*[a-z0-9])?|\[[0-9a-f:.]+\]",
    re.IGNORECASE,
)
"""A DNS name or an IPv4 address, or an IPv6 address in brackets, as a URL writes its host."""


def _redirect_host_problem(value: str) -> str | None:
    """Why ``value`` is no entry of ``redirect_hosts`` (``"is empty"``), or None.

    An entry is compared with the ``host[:port]`` of a redirect's target, so it is written so:
    a host name or address, with a port when it is not the scheme's default.
    """
    if not value.strip():
        return "is empty"
    if "://" in value:
        host = urlsplit(value).netloc
        return "is a URL; write its host only" + (f": {host!r}" if host else "")
    host, port = value, None
    # An IPv6 address without a port ends in its bracket; any other colon starts the port.
    if ":" in value and not value.endswith("]"):
        host, _, port = value.rpartition(":")
    port_ok = port is None or (port.isascii() and port.isdigit() and 0 < int(port) <= 65535)
    if not (port_ok and _HOST_NAME.fullmatch(host)):
        return "is not a host name (such as 'docs.example.org', or 'localhost:8080' with a port)"
    return None


def _redirect_hosts(reader: _Reader) -> tuple[str, ...]:
    hosts = []
    for index, host in enumerate(reader.strings("redirect_hosts")):
        problem = _redirect_host_problem(host)
        if problem is not None:
            raise reader.error("redirect_hosts", f"redirect_hosts[{index}] {host!r} {problem}")
        hosts.append(host.lower())
    return tuple(hosts)


def _user_agent(reader: _Reader) -> str:
    value = reader.get("user_agent", str, DEFAULT_USER_AGENT, "a string")
    if not value.strip():
        raise reader.error("user_agent", "is empty; name the tool and how to reach you")
    if not _HEADER_VALUE.fullmatch(value):
        raise reader.error(
            "user_agent",
            f"{value!r}: an HTTP header holds printable ASCII characters only, with no space at "
            "either end",
        )
    return value


def _http_url(reader: _Reader, key: str, value: str) -> str:
    problem = http_url_problem(value)
    if problem is not None:
        raise reader.error(key, f"{value!r} is {problem}")
    return value


def _markdown_template(reader: _Reader) -> str:
    template = reader.get("markdown", str, "{url}", "a string")
    try:
        parsed = [(n, s, c) for _, n, s, c in string.Formatter().parse(template) if n is not None]
    except ValueError as error:
        raise reader.error("markdown", f"invalid template {template!r}: {error}") from None
    fields = [name for name, _, _ in parsed]
    if any(spec or conversion for _, spec, conversion in parsed):
        # The fetch fills the template by plain replacement, which a "{url!s}" never matches.
        raise reader.error(
            "markdown", f"{template!r}: write '{{url}}' plain, without a conversion or format"
        )
    if fields != ["url"]:
        raise reader.error(
            "markdown", f"{template!r} must contain '{{url}}' once and no other field"
        )
    return template


def _feed(reader: _Reader) -> FeedSpec:
    """One ``[[source.releases]]`` table."""
    reader.check_keys(_FEED_KEYS)
    if "kind" not in reader.data:
        raise reader.error(None, f"missing key 'kind' (one of {', '.join(sorted(FEED_KINDS))})")
    kind_name = reader.get("kind", str, "", "a string")
    if kind_name not in FEED_KINDS:
        raise reader.error(
            "kind", f"unknown kind {kind_name!r} (kinds: {', '.join(sorted(FEED_KINDS))})"
        )
    kind = FEED_KINDS[kind_name]
    for key in ("repo", "package"):
        if key in reader.data and key != kind.target:
            takes = f"it takes {kind.target!r}" if kind.target else "it takes only 'url'"
            raise reader.error(key, f"does not apply to kind {kind_name!r} ({takes})")
    target = None
    if kind.target is not None:
        if kind.target not in reader.data:
            raise reader.error(None, f"missing key {kind.target!r} for kind {kind_name!r}")
        target = reader.get(kind.target, str, "", "a string").strip()
        if kind.target_pattern is not None and not kind.target_pattern.fullmatch(target):
            raise reader.error(kind.target, f"{target!r} is not {kind.target_form}")
    if "url" in reader.data or kind.default_url is None:
        if "url" not in reader.data:
            raise reader.error(None, f"missing key 'url' for kind {kind_name!r}")
        url = _http_url(reader, "url", reader.get("url", str, "", "a string"))
    else:
        url = kind.default_url(target or "")
    window = DEFAULT_WINDOW
    if "window" in reader.data:
        try:
            window = parse_window(reader.get("window", str, "", "a duration string such as '24h'"))
        except ValueError as error:
            raise reader.error("window", str(error)) from None
    return FeedSpec(kind_name, target, url, window)


def _feeds(reader: _Reader, source_name: str, first_index: int) -> tuple[FeedSpec, ...]:
    """The source's ``[[source.releases]]`` tables; ``first_index`` counts those of earlier sources."""
    tables = reader.data.get("releases", [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise reader.error("releases", "expected [[source.releases]] tables")
    feeds: list[FeedSpec] = []
    for number, table in enumerate(tables):
        feed_reader = _Reader(
            table,
            reader.where,
            reader.locator,
            "source.releases",
            first_index + number,
            title=f"[[source.releases]] #{number + 1} of source {source_name!r}",
            inline=(reader, "releases", number),
        )
        feed = _feed(feed_reader)
        other = next((other for other in feeds if other.identity == feed.identity), None)
        if other is not None:
            spelling = (
                f" (as {other.target!r}: {FEED_KINDS[feed.kind].same_target_rule})"
                if other.key != feed.key
                else ""
            )
            raise feed_reader.error(None, f"the feed {feed.label} is configured twice{spelling}")
        feeds.append(feed)
    return tuple(feeds)


def _source(reader: _Reader, feeds_before: int = 0) -> SourceConfig:
    reader.check_keys(_SOURCE_KEYS)
    if "name" not in reader.data or "sitemap" not in reader.data:
        missing = "name" if "name" not in reader.data else "sitemap"
        raise reader.error(None, f"missing key {missing!r}")
    name = reader.get("name", str, "", "a string")
    if not valid_source_name(name):
        raise reader.error(
            "name",
            f"{name!r}: use letters, digits, '.', '_' and '-', starting with a letter or digit "
            "(and not a name Windows keeps, such as CON)",
        )
    max_removal = reader.get("max_removal", float, 0.2, "a number between 0 and 1")
    if not 0 <= max_removal <= 1:
        raise reader.error("max_removal", f"must be between 0 and 1, got {max_removal}")
    return SourceConfig(
        name=name,
        sitemap=_http_url(reader, "sitemap", reader.get("sitemap", str, "", "a string")),
        include=reader.compiled("include", PathGlob),
        exclude=reader.compiled("exclude", PathGlob),
        markdown=_markdown_template(reader),
        strip=reader.compiled("strip", lambda p: regex.compile(p, regex.MULTILINE)),
        concurrency=reader.positive("concurrency", int, 8, "an integer"),
        redirect_hosts=_redirect_hosts(reader),
        max_removal=max_removal,
        releases=_feeds(reader, name, feeds_before),
    )


def _fingerprints(reader: _Reader, key: str) -> tuple[str, ...]:
    fingerprints = []
    for index, item in enumerate(reader.strings(key)):
        fingerprint = item.strip().lower()
        if not FINGERPRINT_PATTERN.fullmatch(fingerprint):
            raise reader.error(
                key,
                f"{key}[{index}] {item!r} is not a change fingerprint ({FINGERPRINT_LENGTH} hex "
                "digits, as shown by --format github, markdown or sarif)",
            )
        fingerprints.append(fingerprint)
    return tuple(fingerprints)


def parse_config(text: str, path: Path) -> Config:
    """A `Config` from the text of ``path`` (used for messages and relative paths)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except RecursionError:
        raise ConfigError(f"{path}: not valid TOML: arrays or tables nested too deeply") from None
    locator = _Locator(text)
    where = str(path)
    top = _Reader(data, where, locator, None, 0)
    top.check_keys({"store", "fetch", "source", *_TOP_LEVEL_KEYS})
    tables: dict[str, _Reader] = {}
    for table in ("store", "fetch"):
        value = data.get(table, {})
        if not isinstance(value, dict):
            raise top.error(table, f"expected a table [{table}], got {_toml_type(value)}")
        tables[table] = _Reader(value, where, locator, table, 0)
    store, fetch = tables["store"], tables["fetch"]
    store.check_keys(_STORE_KEYS)
    fetch.check_keys(_FETCH_KEYS)
    store_text = store.get("path", str, DEFAULT_STORE, "a string")
    if "\0" in store_text:
        raise store.error("path", f"{store_text!r} holds a NUL character, which no path can")
    if not store_text.strip():
        # An unset template value, most likely: as a path it is the configuration's own folder,
        # which would become the store.
        raise store.error("path", 'is empty; name the store\'s folder ("snapshots", or ".")')
    store_path = Path(store_text)
    sources_data = data.get("source", [])
    if not isinstance(sources_data, list) or not all(isinstance(s, dict) for s in sources_data):
        raise top.error("source", "expected [[source]] tables")
    sources_list: list[SourceConfig] = []
    for index, item in enumerate(sources_data):
        feeds_before = sum(len(source.releases) for source in sources_list)
        sources_list.append(
            _source(
                _Reader(item, where, locator, "source", index, inline=(top, "source", index)),
                feeds_before,
            )
        )
    sources = tuple(sources_list)
    seen: dict[str, str] = {}
    for index, source in enumerate(sources):
        # Folded: the store's folders of two names that differ in case only are one folder on
        # a file system that ignores case.
        folded = source.name.casefold()
        if folded in seen:
            raise _Reader(
                sources_data[index], where, locator, "source", index, inline=(top, "source", index)
            ).error(
                "name",
                f"duplicate source name {source.name!r}"
                + (
                    f" (as {seen[folded]!r} in another case)" if seen[folded] != source.name else ""
                ),
            )
        seen[folded] = source.name
    retries = fetch.get("retries", int, 4, "an integer")
    if not 0 <= retries <= MOST_RETRIES:
        raise fetch.error("retries", f"must be 0 to {MOST_RETRIES}, got {retries}")
    return Config(
        store=StoreConfig(
            path=store_path if store_path.is_absolute() else path.parent / store_path,
            lock_wait=store.seconds("lock_wait", 10.0),
        ),
        fetch=FetchConfig(
            user_agent=_user_agent(fetch),
            timeout=fetch.seconds("timeout", 30.0),
            max_page_bytes=fetch.positive("max_page_bytes", int, 10 * 1024 * 1024, "an integer"),
            retries=retries,
            backoff=fetch.seconds("backoff", 1.0),
            max_retry_after=fetch.seconds("max_retry_after", 300.0),
            strip_timeout=fetch.seconds("strip_timeout", 5.0),
        ),
        sources=sources,
        path=path,
        ignore=_fingerprints(top, "ignore"),
    )


def load_config(path: Path) -> Config:
    """Read and check a ``spectrack.toml``; every problem is a `ConfigError` naming the line."""
    try:
        # Editors on Windows may start the file with a byte order mark, which TOML does not allow.
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file; run `spectrack init` to write one") from None
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: {not_utf8(error)}; save the file as UTF-8") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read ({error.strerror or error})") from None
    return parse_config(text, path)


def single_source_config(
    store: Path, name: str, sitemap: str, *, markdown: str = "{url}", concurrency: int = 8
) -> Config:
    """A configuration tracking one site, built in code (the demo and the benchmarks use it)."""
    return Config(
        store=StoreConfig(path=store),
        sources=(
            SourceConfig(name=name, sitemap=sitemap, markdown=markdown, concurrency=concurrency),
        ),
    )


EXAMPLE = """\
# spectrack configuration. Every key is described in the README ("spectrack.toml reference").

# Changes reviewed once, still reported but no longer failing --fail-on: their fingerprints, as
# shown by --format github, markdown or sarif. Top-level keys go above the first [table].
ignore = [
  # "3f2a9c0b1d4e5f6a",  # why it was acknowledged
]

[store]
path = "snapshots"        # the snapshot store: a git repository, created when missing
# lock_wait = 10          # seconds a run waits for another run on the same store

# [fetch]
# user_agent = "spectrack/0.1 (...)"
# timeout = 30            # seconds for one request, body included
# max_page_bytes = 10485760
# retries = 4             # after a connection error, 429 or 5xx, with exponential backoff
# backoff = 1.0           # first retry delay in seconds
# max_retry_after = 300   # longest Retry-After honoured
# strip_timeout = 5       # seconds the `strip` patterns may run on one page

[[source]]
name = "example"                        # folder name in the store
sitemap = "https://example.org/sitemap.xml"
include = ["/**"]                       # URL path globs; default: everything
exclude = []
markdown = "{url}"                      # where a page's Markdown is served, e.g. "{url}.md"
strip = []                              # regexes of injected boilerplate to cut before storing
concurrency = 8                         # connections per host
# redirect_hosts = []                   # hosts redirects may lead to besides the sitemap's
# max_removal = 0.2                     # a run removing a larger share of pages stops

# Release feeds: the nearest release is shown beside each change (any number per source).
# [[source.releases]]
# kind = "github"                       # github (repo), npm (package), pypi (package), atom (url)
# repo = "OWNER/REPO"
# window = "24h"                        # how near an edit a release is shown
"""


def write_example(path: Path) -> bool:
    """Write the commented example configuration unless ``path`` exists; True when written."""
    if path.is_file():
        return False
    if path.is_dir():
        raise ConfigError(
            f"{path}: a folder, not a configuration file; name the file to write, such as "
            f"{path / CONFIG_FILE}"
        )
    if path.exists():
        # Reading it would give nothing (/dev/null), or wait for a writer (a pipe), and the
        # store would be made beside it, in /dev.
        raise ConfigError(
            f"{path}: not a regular file (a device, pipe or socket); name the configuration "
            f"file to write, such as {CONFIG_FILE}"
        )
    try:
        path.write_text(EXAMPLE, encoding="utf-8")
    except FileNotFoundError:
        # Not made here: a mistyped folder would become a configuration nobody reads.
        raise ConfigError(
            f"{path}: cannot write the configuration: there is no folder {path.parent}; "
            "create it first"
        ) from None
    return True


def optional_config(config_file: Path | None) -> Config | None:
    """``--config`` when given (it must exist), else ``./spectrack.toml`` when it exists."""
    path = config_file or Path(CONFIG_FILE)
    if config_file is not None or path.exists():
        return load_config(path)
    return None


def store_location(config_file: Path | None, store: Path | None) -> Path:
    """The store a reading command uses: ``--store``, else the configuration's, else ``snapshots``.

    Without ``--config``, ``spectrack.toml`` in the current folder is read when it exists.
    """
    if store is not None:
        return store
    config = optional_config(config_file)
    return config.store.path if config else Path(DEFAULT_STORE)
