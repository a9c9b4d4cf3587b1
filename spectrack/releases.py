"""Release feeds → `Release`\\ s, and the release nearest to an upstream edit.

A source may name any number of release feeds (``[[source.releases]]`` in ``spectrack.toml``).
`FEED_KINDS` is the registry of feed kinds, keyed by the ``kind`` value:

==========  ==========  ==========================================================================
kind        names       document read (``url`` overrides it)
==========  ==========  ==========================================================================
``github``  ``repo``    the repository's releases Atom feed, ``github.com/OWNER/REPO/releases.atom``
``npm``     ``package`` the npm registry's package document; its ``time`` map dates each version
``pypi``    ``package`` the PyPI JSON API; a version is dated by the first upload of its files
``atom``    ``url``     any Atom or RSS feed of releases (an entry's title is its version)
==========  ==========  ==========================================================================

Feeds are fetched and recorded by `spectrack.releaserun`; the recorded releases of a source live in
the store at ``.spectrack/releases/<source>.json`` (see `feeds_to_json`), so that reading them needs
no network. `ReleaseBook` loads them and answers `ReleaseBook.nearest`:

- a release counts for an edit when the absolute time between the two is at most its feed's
  ``window`` (the edges included: with the default 24 h, exactly 24 h counts, a second more not);
- among those, a final release always wins over a pre-release; then the smallest absolute time
  difference; then (a tie) the release published earlier, then the feed configured first, then
  the version that sorts first — so the choice never depends on reading order.

The wording (`distance_words`, `ReleaseMatch.line`) says how far apart the two are and that the
release is shown only because it falls within the window — never that one caused the other.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urljoin, urlsplit
from xml.etree.ElementTree import Element

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError, fromstring

from spectrack.dates import iso
from spectrack.errors import ReleaseFeedError, StoreError
from spectrack.store import Store

RELEASES_ROOT = ".spectrack/releases"
RECORD_FORMAT = 1
DEFAULT_WINDOW = timedelta(hours=24)
ACCEPT_FEED = "application/atom+xml, application/rss+xml;q=0.9, application/xml;q=0.8, */*;q=0.1"
ACCEPT_JSON = "application/json, */*;q=0.1"


@dataclass(frozen=True, slots=True)
class Release:
    """One published version of a product."""

    version: str
    published: datetime
    """When it was published (timezone-aware)."""
    url: str | None
    """Its page for people (release notes, registry page); only http(s) links are kept."""
    prerelease: bool
    """An alpha, beta, release candidate, preview or development version (see `is_prerelease`)."""


@dataclass(frozen=True, slots=True)
class ParsedFeed:
    releases: tuple[Release, ...]
    skipped: int = 0
    """Entries left out for want of a version or a readable publish time."""


Parser = Callable[[bytes, "FeedSpec"], ParsedFeed]


@dataclass(frozen=True, slots=True)
class FeedKind:
    """How to read one kind of release feed."""

    target: str | None
    """The key naming the feed's subject (``repo``, ``package``); None when only ``url`` does."""
    target_pattern: re.Pattern[str] | None
    target_form: str
    """How a valid target looks, for error messages."""
    default_url: Callable[[str], str] | None
    """The document to fetch for a target when the feed gives no ``url``."""
    accept: str
    parse: Parser
    same_target: Callable[[str], str] = str
    """A target as the registry tells targets apart (by default as written): two targets it maps
    to one string are one feed."""
    same_target_rule: str = ""
    """Why two targets that differ as written are one, for error messages."""


def _pypi_name(name: str) -> str:
    """A PyPI project name normalized as PyPI compares names (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True, slots=True)
class FeedSpec:
    """One configured release feed (a ``[[source.releases]]`` table)."""

    kind: str
    """A key of `FEED_KINDS`."""
    target: str | None
    """The ``repo`` or ``package``; None for ``atom``."""
    url: str
    """The document fetched: ``url`` from the configuration, else the kind's default."""
    window: timedelta = DEFAULT_WINDOW
    """How far from an edit a release may be to be shown beside it."""

    @property
    def key(self) -> str:
        """What identifies the feed in the store: kind and target (or URL); a mirror keeps it."""
        return f"{self.kind}:{self.target if self.target is not None else self.url}"

    @property
    def identity(self) -> str:
        """`feed_identity` of the key: the same for targets the registry takes for one."""
        return feed_identity(self.key)

    @property
    def label(self) -> str:
        """The feed in messages: ``github OWNER/REPO``, ``atom https://…``."""
        return f"{self.kind} {self.target if self.target is not None else self.url}"

    def error(self, message: str) -> ReleaseFeedError:
        return ReleaseFeedError(f"release feed {self.label} ({self.url}): {message}")


# -- versions, times, durations -----------------------------------------------------------------

_SEMVER_PRE = re.compile(r"\d+\.\d+\.\d+-")
_MARKER_PRE = re.compile(
    r"\d[-_.]?(?:alpha|beta|preview|pre|rc|dev|a|b|c)[-_.]?\d*(?:$|\.)", re.IGNORECASE
)


def is_prerelease(version: str) -> bool:
    """Whether a version names a pre-release, by its spelling.

    Semantic versions with a hyphen after ``X.Y.Z`` (``1.4.0-rc.1``), and versions with a PEP 440
    style marker after a digit (``1.4.0rc1``, ``2.0b3``, ``1.0.dev2``, ``3.1-alpha``). Anything
    else, post releases and build metadata (``1.0.post1``, ``1.0.0+build.7``) included, is final.
    """
    # Build metadata names a build, not a stage: a hash in it (``+sha.5114f8c``) is no marker.
    release = version.split("+", 1)[0]
    return bool(_SEMVER_PRE.search(release) or _MARKER_PRE.search(release))


_DURATION_PART = re.compile(r"(\d+)\s*([smhdw])")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def parse_window(text: str) -> timedelta:
    """``24h``, ``90m``, ``2d``, ``1w``, ``1d12h`` (s, m, h, d, w); ValueError otherwise, for 0, or
    for more than `timedelta` holds."""
    compact = text.strip().lower()
    parts = _DURATION_PART.findall(compact)
    if not parts or "".join(f"{n}{u}" for n, u in parts) != compact.replace(" ", ""):
        raise ValueError(f"{text!r} is not a duration such as '24h', '90m', '2d' or '1d12h'")
    try:
        window = timedelta(seconds=sum(int(n) * _UNIT_SECONDS[u] for n, u in parts))
    except OverflowError:
        raise ValueError(f"{text!r} is too long (at most {timedelta.max.days} days)") from None
    if window <= timedelta(0):
        raise ValueError(f"{text!r}: the window must be longer than 0")
    return window


def _plural(count: int, unit: str) -> str:
    return f"{count} {unit}{'' if count == 1 else 's'}"


def duration_words(span: timedelta) -> str:
    """A window in words: ``24 hours``, ``3 days``, ``90 minutes``, ``45 seconds``."""
    seconds = int(span.total_seconds())
    if seconds % 86400 == 0 and seconds >= 2 * 86400:
        return _plural(seconds // 86400, "day")
    if seconds % 3600 == 0:
        return _plural(seconds // 3600, "hour")
    if seconds % 60 == 0:
        return _plural(seconds // 60, "minute")
    return _plural(seconds, "second")


def distance_words(delta: timedelta) -> str:
    """Where a release lies from an edit (``delta`` = release time − edit time), in words.

    ``under an hour before``, ``5 hours after``, ``1 day before`` (whole units, rounded down:
    23 h 59 min is 23 hours, 47 h is 1 day), ``at the same time as``.
    """
    seconds = abs(delta.total_seconds())
    if seconds < 1:
        return "at the same time as"
    side = "after" if delta > timedelta(0) else "before"
    if seconds < 3600:
        amount = "under an hour"
    elif seconds < 86400:
        amount = _plural(int(seconds // 3600), "hour")
    else:
        amount = _plural(int(seconds // 86400), "day")
    return f"{amount} {side}"


_EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
"""Earlier times are placeholders (0001-01-01 is Go's zero time, for one), not release dates."""


def _time(text: str | None) -> datetime | None:
    """An RFC 3339 / ISO 8601 time (Atom, npm, PyPI) or an RFC 822 date (RSS), in UTC.

    Naive means UTC. None when unreadable, before 1970, or beyond the last date once in UTC.
    """
    if not text or not text.strip():
        return None
    value = text.strip()
    moment: datetime | None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        try:
            moment = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError, OverflowError):
            return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        moment = moment.astimezone(UTC)
    except OverflowError:
        return None
    return moment if moment >= _EARLIEST else None


def _web_link(href: str | None, base: str) -> str | None:
    """``href`` resolved against ``base`` when it is an http(s) link; None otherwise."""
    if not href or not href.strip():
        return None
    try:
        link = urljoin(base, href.strip())
        parts = urlsplit(link)
    except ValueError:
        return None
    return link if parts.scheme in ("http", "https") and parts.netloc else None


# -- parsers ------------------------------------------------------------------------------------


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _children(element: Element, name: str) -> list[Element]:
    return [child for child in element if _local(child.tag) == name]


def _text(element: Element, name: str) -> str | None:
    found = _children(element, name)
    return (found[0].text or "").strip() if found else None


def _xml(data: bytes, spec: FeedSpec) -> Element:
    try:
        return fromstring(data, forbid_dtd=True)
    except DefusedXmlException as error:
        raise spec.error(f"refused: {error} (DTDs and entities are never parsed)") from None
    except ParseError as error:
        raise spec.error(f"not well-formed XML ({error})") from None
    except (LookupError, ValueError) as error:
        # The declared encoding is one Python does not know (LookupError) or expat cannot read.
        raise spec.error(f"not readable XML ({error})") from None


def _atom_link(entry: Element) -> str | None:
    links = _children(entry, "link")
    for link in links:
        if link.get("rel", "alternate") == "alternate" and link.get("href"):
            return link.get("href")
    return links[0].get("href") if links else None


@dataclass(frozen=True, slots=True)
class _Entry:
    title: str | None
    link: str | None
    published: str | None


def _feed_entries(data: bytes, spec: FeedSpec) -> list[_Entry]:
    """The entries of an Atom feed or the items of an RSS (0.9x, 1.0 or 2.0) feed."""
    root = _xml(data, spec)
    kind = _local(root.tag)
    if kind == "feed":
        return [
            _Entry(
                _text(entry, "title"),
                _atom_link(entry),
                _text(entry, "published") or _text(entry, "updated"),
            )
            for entry in _children(root, "entry")
        ]
    if kind in ("rss", "RDF"):
        return [
            _Entry(
                _text(item, "title"),
                _text(item, "link"),
                _text(item, "pubDate") or _text(item, "date"),
            )
            for item in root.iter()
            if _local(item.tag) == "item"
        ]
    raise spec.error(f"root element <{kind}> is neither an Atom <feed> nor an RSS <rss>")


def _releases_of(
    spec: FeedSpec, rows: Iterable[tuple[str | None, str | None, datetime | None]]
) -> ParsedFeed:
    """Releases from (version, link, time) rows; rows without a version or time are counted.

    Runs of white space in a version are one space: a title wrapped over lines is one version, and
    one line of `spectrack log`.
    """
    releases: dict[str, Release] = {}
    skipped = 0
    for raw, link, published in rows:
        version = " ".join(raw.split()) if raw else None
        if not version or published is None:
            skipped += 1
            continue
        releases.setdefault(version, Release(version, published, link, is_prerelease(version)))
    if skipped and not releases:
        raise spec.error(f"none of its {skipped} entries has both a version and a publish time")
    return ParsedFeed(tuple(releases.values()), skipped)


def parse_atom(data: bytes, spec: FeedSpec) -> ParsedFeed:
    """Any Atom or RSS feed: an entry's title is the version, its link the release's page."""
    return _releases_of(
        spec,
        (
            (entry.title, _web_link(entry.link, spec.url), _time(entry.published))
            for entry in _feed_entries(data, spec)
        ),
    )


def _github_tag(link: str | None) -> str | None:
    if link is None or "/releases/tag/" not in link:
        return None
    return unquote(urlsplit(link).path.split("/releases/tag/", 1)[1]) or None


def parse_github(data: bytes, spec: FeedSpec) -> ParsedFeed:
    """A GitHub releases feed: the version is the tag in the entry's link (else its title)."""
    rows = []
    for entry in _feed_entries(data, spec):
        link = _web_link(entry.link, spec.url)
        rows.append((_github_tag(link) or entry.title, link, _time(entry.published)))
    return _releases_of(spec, rows)


def _json_object(data: bytes, spec: FeedSpec) -> dict[str, Any]:
    try:
        document = json.loads(data)
    except (UnicodeDecodeError, ValueError) as error:
        raise spec.error(f"not valid JSON ({error})") from None
    except RecursionError:
        raise spec.error("JSON nested too deeply to be read") from None
    if not isinstance(document, dict):
        raise spec.error("not a JSON object")
    return document


def _version_map(
    data: bytes,
    spec: FeedSpec,
    key: str,
    shape: str,
    time_of: Callable[[object], datetime | None],
    page: str,
    not_versions: frozenset[str] = frozenset(),
) -> ParsedFeed:
    """Releases from a JSON document's map ``key`` of version → value dated by ``time_of``;
    ``page`` is the release's link with ``{version}`` in it."""
    versions = _json_object(data, spec).get(key)
    if not isinstance(versions, dict):
        raise spec.error(f"no {key!r} map; is this {shape}?")
    rows = []
    for name, value in versions.items():
        if name in not_versions:
            continue
        version = _unicode(name)
        link = None if version is None else page.replace("{version}", quote(version, safe=""))
        rows.append((version, link, time_of(value)))
    return _releases_of(spec, rows)


def _unicode(text: str) -> str | None:
    """``text``, or None when it holds a lone surrogate (JSON's ``\\ud800`` escape makes one),
    which no link, record or terminal can carry: such a key names no version."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return text


def _json_time(value: object) -> datetime | None:
    """`_time` of a JSON value; a number or anything else but a string is no time."""
    return _time(value) if isinstance(value, str) else None


def parse_npm(data: bytes, spec: FeedSpec) -> ParsedFeed:
    """An npm registry package document: its ``time`` map, version → publish time."""
    return _version_map(
        data,
        spec,
        "time",
        "an npm registry package document",
        _json_time,
        f"https://www.npmjs.com/package/{spec.target}/v/{{version}}",
        frozenset({"created", "modified", "unpublished"}),
    )


def _first_upload(files: object) -> datetime | None:
    if not isinstance(files, list):
        return None
    times = [
        _json_time(file.get("upload_time_iso_8601") or file.get("upload_time"))
        for file in files
        if isinstance(file, dict)
    ]
    known = [moment for moment in times if moment is not None]
    return min(known) if known else None


def parse_pypi(data: bytes, spec: FeedSpec) -> ParsedFeed:
    """The PyPI JSON API: ``releases``, version → files; a version is dated by its first upload.

    A version without files (all deleted) has no time and is left out.
    """
    return _version_map(
        data,
        spec,
        "releases",
        "a PyPI JSON API project document",
        _first_upload,
        f"https://pypi.org/project/{spec.target}/{{version}}/",
    )


FEED_KINDS: dict[str, FeedKind] = {
    "github": FeedKind(
        target="repo",
        # Neither part a dot segment: "../tool" would fetch another address (github.com/tool).
        target_pattern=re.compile(r"(?!\.\.?/)[A-Za-z0-9_.-]+/(?!\.\.?$)[A-Za-z0-9_.-]+"),
        target_form="OWNER/REPO",
        default_url=lambda repo: f"https://github.com/{repo}/releases.atom",
        accept=ACCEPT_FEED,
        parse=parse_github,
        same_target=str.lower,
        same_target_rule="GitHub names ignore letter case",
    ),
    "npm": FeedKind(
        target="package",
        target_pattern=re.compile(
            r"(?:@[A-Za-z0-9~][A-Za-z0-9._~-]*/)?[A-Za-z0-9~][A-Za-z0-9._~-]*"
        ),
        target_form="an npm package name such as 'name' or '@scope/name'",
        default_url=lambda package: f"https://registry.npmjs.org/{quote(package, safe='@')}",
        accept=ACCEPT_JSON,
        parse=parse_npm,
    ),
    "pypi": FeedKind(
        target="package",
        target_pattern=re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?"),
        target_form="a PyPI project name",
        default_url=lambda package: f"https://pypi.org/pypi/{package}/json",
        accept=ACCEPT_JSON,
        parse=parse_pypi,
        same_target=_pypi_name,
        same_target_rule="PyPI names ignore letter case and '-', '_', '.'",
    ),
    "atom": FeedKind(
        target=None,
        target_pattern=None,
        target_form="",
        default_url=None,
        accept=ACCEPT_FEED,
        parse=parse_atom,
    ),
}
"""Feed kind (the ``kind`` key) → how it is named, fetched and read."""


def feed_identity(key: str) -> str:
    """A feed's key (`FeedSpec.key`) as its registry tells feeds apart: ``github:Acme/Tool`` and
    ``github:acme/tool`` are one repository, PyPI's ``Acme_SDK`` and ``acme-sdk`` one project."""
    kind_name, _, target = key.partition(":")
    kind = FEED_KINDS.get(kind_name)
    if kind is None or kind.target is None:
        return key
    return f"{kind_name}:{kind.same_target(target)}"


def parse_feed(data: bytes, spec: FeedSpec) -> ParsedFeed:
    """The releases in a fetched feed document; `ReleaseFeedError` naming the feed when unreadable."""
    return FEED_KINDS[spec.kind].parse(data, spec)


# -- what the store records -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RecordedFeed:
    """A feed's releases as recorded in the store."""

    key: str
    """`FeedSpec.key`."""
    label: str
    """`FeedSpec.label`."""
    url: str
    window: timedelta
    releases: tuple[Release, ...] = ()
    """Oldest first; a release once recorded stays as it was first recorded."""
    configured: bool = True
    """False once the feed left the configuration: its releases stay recorded but are not shown."""
    etag: str | None = None
    last_modified: str | None = None


def release_path(source: str) -> str:
    """Where a source's recorded releases live in the store."""
    return f"{RELEASES_ROOT}/{source}.json"


def _release_json(release: Release) -> dict[str, Any]:
    return {
        "version": release.version,
        "published": iso(release.published),
        "url": release.url,
        "prerelease": release.prerelease,
    }


def feeds_to_json(feeds: Sequence[RecordedFeed]) -> bytes:
    """The record of a source's feeds: stable bytes (same feeds, same bytes)."""
    data = {
        "format": RECORD_FORMAT,
        "feeds": [
            {
                "key": feed.key,
                "label": feed.label,
                "url": feed.url,
                "window_seconds": int(feed.window.total_seconds()),
                "configured": feed.configured,
                "etag": feed.etag,
                "last_modified": feed.last_modified,
                "releases": [_release_json(release) for release in feed.releases],
            }
            for feed in feeds
        ],
    }
    return (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def _recorded_text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not a string")
    if _unicode(value) is None:
        # A ``\ud800`` escape written by hand: the record could not be written back.
        raise ValueError(f"{value!r} holds a lone surrogate, which is no text")
    return value


def _recorded_optional_text(value: object) -> str | None:
    return None if value is None else _recorded_text(value)


def _recorded_time(value: object) -> datetime:
    moment = datetime.fromisoformat(_recorded_text(value))
    if moment.tzinfo is None:
        # A time without an offset cannot be compared with the edits' times.
        raise ValueError(f"{value!r} has no UTC offset")
    # In UTC here, so that no later use of it can overflow the range of dates.
    return moment.astimezone(UTC)


def feeds_from_json(data: bytes, name: str) -> tuple[RecordedFeed, ...]:
    """Read `feeds_to_json` output; `StoreError` naming ``name`` when it is damaged."""
    try:
        document = json.loads(data)
        return tuple(
            RecordedFeed(
                key=_recorded_text(feed["key"]),
                label=_recorded_text(feed["label"]),
                url=_recorded_text(feed["url"]),
                window=timedelta(seconds=int(feed["window_seconds"])),
                releases=tuple(
                    Release(
                        version=_recorded_text(str(release["version"])),
                        published=_recorded_time(release["published"]),
                        url=_recorded_optional_text(release.get("url")),
                        prerelease=bool(release["prerelease"]),
                    )
                    for release in feed["releases"]
                ),
                configured=bool(feed.get("configured", True)),
                etag=_recorded_optional_text(feed.get("etag")),
                last_modified=_recorded_optional_text(feed.get("last_modified")),
            )
            for feed in document["feeds"]
        )
    except (
        ValueError,
        KeyError,
        TypeError,
        AttributeError,
        OverflowError,
        RecursionError,
    ) as error:
        raise StoreError(f"{name}: unreadable release record ({error!r})") from None


def load_feeds(store: Store, source: str) -> tuple[RecordedFeed, ...]:
    """The feeds recorded for ``source`` in the store (none when nothing was recorded)."""
    path = release_path(source)
    data = store.read_file(path)
    return () if data is None else feeds_from_json(data, path)


def merge_releases(
    recorded: Sequence[Release], fetched: Iterable[Release]
) -> tuple[tuple[Release, ...], int]:
    """Recorded releases with the new versions of ``fetched`` added, oldest first; and how many.

    A version already recorded keeps its recorded publish time and link: a feed that later
    re-dates or drops a version never rewrites what was recorded.
    """
    merged = {release.version: release for release in recorded}
    added = 0
    for release in fetched:
        if release.version not in merged:
            merged[release.version] = Release(
                release.version,
                release.published.astimezone(UTC).replace(microsecond=0),
                release.url,
                release.prerelease,
            )
            added += 1
    ordered = sorted(merged.values(), key=lambda release: (release.published, release.version))
    return tuple(ordered), added


# -- the nearest release ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReleaseMatch:
    """The release shown beside an edit."""

    release: Release
    feed: str
    """The feed's label, e.g. ``github OWNER/REPO``."""
    window: timedelta
    """The feed's window, which the release falls within."""
    delta: timedelta
    """Release time − edit time: positive when the release came after the edit."""

    @property
    def delta_seconds(self) -> int:
        return int(self.delta.total_seconds())

    @property
    def distance(self) -> str:
        """``5 hours after``: where the release lies from the edit (`distance_words`)."""
        return distance_words(self.delta)

    @property
    def kind(self) -> str:
        return "pre-release" if self.release.prerelease else "release"

    @property
    def note(self) -> str:
        """The short form, for one-line listings: ``release 1.4.0 came out 5 hours after the edit``."""
        return f"{self.kind} {self.release.version} came out {self.distance} the edit"

    @property
    def line(self) -> str:
        """Two sentences for people, e.g. on a change page or in a feed entry."""
        return (
            f"Nearest {self.kind}: {self.release.version} ({self.feed}), published "
            f"{self.distance} this edit. It is shown only because the two fall within "
            f"{duration_words(self.window)} of each other; nothing suggests that one caused "
            "the other."
        )

    def to_json(self) -> dict[str, Any]:
        """The ``release`` object of a page in the JSON report."""
        return {
            "version": self.release.version,
            "published": iso(self.release.published),
            "url": self.release.url,
            "delta_seconds": self.delta_seconds,
        }


@dataclass(frozen=True, slots=True)
class _FeedIndex:
    order: int
    feed: RecordedFeed
    releases: tuple[Release, ...]
    """Sorted by publish time."""
    times: tuple[float, ...]
    """Their publish times as POSIX seconds, for bisection."""

    @classmethod
    def of(cls, order: int, feed: RecordedFeed) -> _FeedIndex:
        releases = tuple(sorted(feed.releases, key=lambda release: release.published))
        return cls(order, feed, releases, tuple(r.published.timestamp() for r in releases))

    def within(self, when: datetime) -> Iterable[Release]:
        """The releases at most the window away from ``when``, edges included."""
        moment, window = when.timestamp(), self.feed.window.total_seconds()
        start = bisect.bisect_left(self.times, moment - window)
        end = bisect.bisect_right(self.times, moment + window)
        return self.releases[start:end]


def _nearest(indexes: Sequence[_FeedIndex], when: datetime) -> ReleaseMatch | None:
    best: tuple[tuple[bool, timedelta, datetime, int, str], ReleaseMatch] | None = None
    for index in indexes:
        for release in index.within(when):
            delta = release.published - when
            rank = (release.prerelease, abs(delta), release.published, index.order, release.version)
            if best is None or rank < best[0]:
                match = ReleaseMatch(release, index.feed.label, index.feed.window, delta)
                best = (rank, match)
    return best[1] if best else None


def _indexes(feeds: Sequence[RecordedFeed]) -> tuple[_FeedIndex, ...]:
    return tuple(_FeedIndex.of(order, f) for order, f in enumerate(feeds) if f.configured)


def nearest_release(feeds: Sequence[RecordedFeed], when: datetime) -> ReleaseMatch | None:
    """The release to show beside an edit at ``when`` (see the module docstring), or None."""
    return _nearest(_indexes(feeds), when)


class ReleaseBook:
    """Every source's recorded releases, indexed for `nearest` (load it once per command)."""

    def __init__(self, feeds: Mapping[str, Sequence[RecordedFeed]] | None = None) -> None:
        self.feeds = dict(feeds or {})
        """Source name → its recorded feeds, in configuration order."""
        self._index: dict[str, tuple[_FeedIndex, ...]] = {}

    @classmethod
    def load(cls, store: Store) -> ReleaseBook:
        """Every source's releases recorded in ``store``."""
        sources = [Path(path).stem for path in store.files(RELEASES_ROOT) if path.endswith(".json")]
        return cls({source: load_feeds(store, source) for source in sources})

    def nearest(self, source: str, when: datetime) -> ReleaseMatch | None:
        """The release of ``source``'s feeds to show beside an edit at ``when``, or None."""
        if source not in self._index:
            self._index[source] = _indexes(self.feeds.get(source, ()))
        return _nearest(self._index[source], when)
