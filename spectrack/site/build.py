"""Site data → a folder of static HTML pages and Atom feeds, rewriting only the files that change.

Every output file has a key: a digest of everything it is made from (its entries, the templates,
the assets, the base URL). A manifest in the folder keeps each file's key from the last build, so a
rebuild renders only the files whose key moved, and writes only those whose bytes differ. Delete
the manifest (``.spectrack-site.json``) to make the next build render everything again; a build
deletes it itself before replacing its first file and writes it anew at the end, so a build that
stops part-way leaves no key claiming a file it did not finish.

Within a file rendered again, what carries a key of its own is copied from the file as written
last time when that key has not moved: the lines of lists (`_Lines`), feed entries (`_Feeds`) and
all of a change page but its facts and pager (`_ChangePages`). Without a manifest nothing is.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import posixpath
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timezone
from functools import cache, partial
from operator import attrgetter
from pathlib import Path
from typing import Any, NamedTuple

import jinja2
from markupsafe import Markup, escape

from spectrack.codedigest import code_digest
from spectrack.collector import collector_paused
from spectrack.config import http_url_problem
from spectrack.errors import InputError
from spectrack.model import ChangeClass
from spectrack.pages import BIDI_CONTROLS
from spectrack.progress import Progress, SilentProgress
from spectrack.site import present
from spectrack.site.model import ChangeEntry, SiteData

SCHEMA = "spectrack.site/1"
MANIFEST = ".spectrack-site.json"
"""File name of the manifest inside the output folder."""
MARKER = ".spectrack-site"
"""A file every build leaves in its output folder, so that later builds know the folder is a
site's: the manifest cannot say so, as a build deletes it while it works."""
FEED_LIMIT = 50
"""Most entries in one feed: the latest recorded."""
RECENT_LIMIT = 200
"""Most changes on the index; every change is also on its month's archive page."""
ASSETS = ("site.css", "site.js", "favicon.svg")

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "base-uri 'none'; form-action 'none'"
)
"""The Content-Security-Policy of every page: nothing runs or loads but the site's own files."""

_PACKAGE_DIR = Path(__file__).parent
_CHANGE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,127}")
_CHANGE_IDS = re.compile(rf"(?:{_CHANGE_ID.pattern}\n)*")
_NOT_SHOWN = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f{BIDI_CONTROLS}\ud800-\udfff\ufffe\uffff]")
"""The characters XML 1.0 cannot hold (and UTF-8 lone surrogates), and the bidirectional
controls (`BIDI_CONTROLS`), invisible themselves: one that page text left open would turn the
site's own words after it ("… changed") backwards."""
_LINE_CLASSES = {" ": "context", "-": "removed", "+": "added"}
_FEED_ENTRY = (re.compile(r"<!-- entry ([0-9a-f]{32}) -->\n<entry>\n"), "</entry>\n")
_LINE = (re.compile(r"<!-- line ([0-9a-f]{32}) -->\n<li "), "</li>")
"""Where an entry of a written feed, and a line of a written list, starts (with its key) and
ends; escaping keeps both markers out of the texts inside."""


@dataclass(frozen=True, slots=True)
class BuildResult:
    written: tuple[str, ...]
    """Files written by this build, as sorted paths relative to the output folder."""
    removed: tuple[str, ...]
    """Files of an earlier build that the data no longer produces, now deleted."""
    unchanged: int
    """How many files were left as they were."""


class _Output(NamedTuple):
    """One file of the site (a named tuple: a build makes one per change, and quickly)."""

    path: str
    key: str
    """Digest of everything the file is made from."""
    render: Callable[[], bytes]


@dataclass(frozen=True, slots=True)
class _FeedItem:
    atom_id: str
    title: str
    updated: str
    link: str
    verdict: str
    summary: str
    content: str
    """The entry as HTML, escaped once more by the feed template as Atom ``type="html"`` asks."""


def build(
    data: SiteData,
    out: str | os.PathLike[str],
    base_url: str | None = None,
    progress: Progress | None = None,
) -> BuildResult:
    """Write the site for ``data`` into ``out``; ``base_url`` makes feed links absolute."""
    out = Path(out)
    check_folder(out)
    _check(data)
    base = _base(base_url)
    manifest = _read_manifest(out)
    with collector_paused():
        # Without a manifest nothing in the folder is trusted: every file is rendered afresh.
        outputs = _plan(data, base, out if manifest else None)
        return _write(outputs, out, manifest, progress or SilentProgress())


PUBLISHING_FILES = frozenset({".git", ".nojekyll", "CNAME"})
"""What a folder that a site is published from holds besides the site (a git checkout for
GitHub Pages, with its settings): no build writes or removes them, so they may be there."""


def check_folder(out: Path) -> None:
    """Refuse an output folder that holds files no build wrote there: a build writes its own
    paths (``index.html``, ``feeds/``) whoever wrote the files there before. `PUBLISHING_FILES`
    may be there."""
    if out.exists() and not out.is_dir():
        raise InputError(f"{out}: not a folder, cannot write the site there")
    # A site built before the marker existed holds the manifest (unless a build was stopped).
    if not out.is_dir() or (out / MARKER).is_file() or (out / MANIFEST).is_file():
        return
    if any(entry.name not in PUBLISHING_FILES for entry in out.iterdir()):
        raise InputError(
            f"{out}: holds files that no `spectrack site` wrote (no {MARKER} in it), which the "
            "site's files could replace; write the site to a new or empty folder"
        )


def _check(data: SiteData) -> None:
    """Refuse data that would make unsafe file names, broken links or machine-dependent times."""
    sources = {source.name for source in data.sources}
    if len(sources) != len(data.sources):
        raise InputError("site data: two sources share one name")
    ids = set(map(_change_id, data.changes))
    if len(ids) != len(data.changes):
        raise InputError("site data: two changes share one id")
    if _naive(data.generated_at):
        raise InputError("site data: generated_at has no timezone")
    if _plainly_sound(data.changes, sources, ids):
        return
    for entry in data.changes:
        problem = _problem(entry, sources, ids)
        if problem is not None:
            raise InputError(f"site data: change {entry.change_id!r}: {problem}")


def _plainly_sound(changes: Sequence[ChangeEntry], sources: set[str], ids: set[str]) -> bool:
    """Whether no change has a problem, found for all changes at once (`_problem` names it)."""
    zones = set(map(_upstream_zone, changes))
    zones.update(map(_recorded_zone, changes))
    zones.update(map(_first_seen_zone, changes))
    neighbours = set(map(_previous_id, changes))
    neighbours.update(map(_next_id, changes))
    neighbours.discard(None)
    if not all(issubclass(kind, str) for kind in set(map(type, ids))):
        return False
    lines = "\n".join(ids) + "\n"
    return (
        lines.count("\n") == len(ids)
        and _CHANGE_IDS.fullmatch(lines) is not None
        and set(map(_source, changes)) <= sources
        and neighbours <= ids
        and all(isinstance(zone, timezone) for zone in zones)
    )


_upstream_zone = attrgetter("upstream.time.tzinfo")
_recorded_zone = attrgetter("recorded_at.tzinfo")
_first_seen_zone = attrgetter("first_seen.tzinfo")
_previous_id = attrgetter("previous_id")
_next_id = attrgetter("next_id")
_source = attrgetter("source")
_change_id = attrgetter("change_id")


def _problem(entry: ChangeEntry, sources: set[str], ids: set[str]) -> str | None:
    if not isinstance(entry.change_id, str) or not _CHANGE_ID.fullmatch(entry.change_id):
        return "an id may hold only letters, digits, '.', '_' and '-'"
    if entry.source not in sources:
        return f"source {entry.source!r} is not among the sources"
    for neighbour in (entry.previous_id, entry.next_id):
        if neighbour is not None and neighbour not in ids:
            return f"neighbour {neighbour!r} is not among the changes"
    for name, moment in (
        ("upstream time", entry.upstream.time),
        ("recorded_at", entry.recorded_at),
        ("first_seen", entry.first_seen),
    ):
        if _naive(moment):
            return f"{name} has no timezone"
    return None


def _naive(moment: datetime) -> bool:
    return moment.tzinfo is not UTC and moment.utcoffset() is None


_NOT_IN_IRI = re.compile(r'[\x00-\x20\x7f"<>\\^`{|}]|%(?![0-9A-Fa-f]{2})')
"""Characters RFC 3987 allows nowhere in an IRI, spaces and controls included, and a ``%`` that
starts no percent-encoding."""


def _base(base_url: str | None) -> str | None:
    if base_url is None:
        return None
    unsafe = _NOT_IN_IRI.search(base_url)
    if unsafe is not None:
        # Said first: the URL is most often right but for this character.
        raise InputError(
            f"base URL {base_url!r}: {unsafe.group()!r} may not stand in a URL; percent-encode it"
        )
    if present.http_url(base_url) is None:
        raise InputError(f"base URL {base_url!r}: expected an http:// or https:// URL")
    # Every feed id and link starts with it, so it must be a URL a reader can follow and an IRI
    # a feed may hold: a port out of range, quotes or angle brackets make every feed invalid,
    # and a user name or password would be published in each of them.
    problem = http_url_problem(base_url)
    if problem is not None:
        raise InputError(f"base URL {base_url!r}: {problem}")
    if "?" in base_url or "#" in base_url:
        raise InputError(
            f"base URL {base_url!r}: the site's files are put after it, so it may have no query "
            "(?) or fragment (#)"
        )
    return base_url if base_url.endswith("/") else base_url + "/"


@cache
def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(_PACKAGE_DIR / "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    environment.globals.update(
        {
            name: getattr(present, name)
            for name in (
                "archive_href",
                "change_href",
                "day_text",
                "facts",
                "feed_facts",
                "formatting_summary",
                "headline",
                "http_url",
                "hunk_title",
                "page_feed_href",
                "page_href",
                "page_name",
                "plural",
                "rfc3339",
                "row",
                "second_text",
                "source_href",
                "strength_change",
                "unified_diff",
                "upstream_text",
                "verdict_label",
            )
        }
    )
    environment.globals.update(csp=CSP, line_classes=_LINE_CLASSES)
    return environment


def _render(template: str, **context: Any) -> str:
    """The template's text without the characters of `_NOT_SHOWN`.

    Cutting them from the whole text at once is many times cheaper than from every value shown,
    and the same: the templates hold none, and escaping makes none.
    """
    return _NOT_SHOWN.sub("", _environment().get_template(template).render(**context))


def _page(template: str, root: str, site_title: str, **context: Any) -> bytes:
    return _render(template, root=root, site_title=site_title, **context).encode("utf-8")


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _serialised(values: tuple[Any, ...]) -> bytes:
    """Plain values as bytes that tell every two different tuples apart.

    marshal's version 2 is fast and writes equal values alike, whoever holds them. It refuses
    subclasses of ``str`` and ``int`` (an enum member passed as a name), which are written as
    what they render as (see `_plain`): keys show in the feeds, so data that renders alike must
    give equal keys, and data that renders otherwise must not.
    """
    try:
        return marshal.dumps(values, 2)
    except ValueError:
        return marshal.dumps(_plain(values), 2)


def _plain(value: Any) -> Any:
    """``value`` with plain ``str`` and ``int`` for their subclasses.

    jinja2 shows a string that has ``__html__`` (markupsafe's `Markup`) as the HTML it holds in
    pages, escaped in feeds: unless escaping leaves it as it is, it renders like no plain text,
    and is written as bytes, which no text equals.
    """
    if isinstance(value, tuple):
        return tuple(map(_plain, value))
    if hasattr(value, "__html__"):
        text = str.__str__(value)
        return text if escape(text) == text else text.encode()
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int.__int__(value)
    return value


@dataclass(frozen=True, slots=True)
class _Fingerprints:
    """What each change contributes to the keys of the files showing it.

    A report enters only by its summary: a change's id names one recorded edit, whose report the
    engine (part of the code digest) always computes alike, and hashing every hunk line of
    thousands of reports would cost more than rendering the few files that change.
    """

    rows: dict[str, bytes]
    """Change id → what a line in a list of changes shows."""
    full: dict[str, bytes]
    """Change id → everything its own page shows."""
    lasting: dict[str, tuple[Any, ...]]
    """Change id → what its page shows beyond its row that no later edit of its page changes."""

    @classmethod
    def of(cls, changes: Sequence[ChangeEntry]) -> _Fingerprints:
        try:
            return cls._made(changes, plain=False)
        except ValueError:
            # An enum member passed as a name (see `_serialised`).
            return cls._made(changes, plain=True)

    @classmethod
    def _made(cls, changes: Sequence[ChangeEntry], plain: bool) -> _Fingerprints:
        """`_serialised` inlined, for thousands of changes: marshal refuses what is not plain."""
        dumps = marshal.dumps
        rows = {}
        full = {}
        lasting = {}
        for entry in changes:
            report = entry.report
            upstream = entry.upstream
            change_id = entry.change_id
            # A float holds a time centuries away to tens of microseconds only: the
            # microsecond tells apart the times it rounds alike, which the pages show apart.
            row_values = (
                change_id,
                entry.source,
                entry.page_path,
                entry.title,
                upstream.time.timestamp(),
                upstream.time.microsecond,
                upstream.precision._value_,
                report.status._value_,
                report.verdict,
                report.lines_added,
                report.lines_removed,
            )
            facts = lasting[change_id] = (
                entry.url,
                upstream.source._value_,
                upstream.raw,
                entry.recorded_at.timestamp(),
                entry.recorded_at.microsecond,
                entry.first_seen.timestamp(),
                entry.first_seen.microsecond,
                report.path,
                None if entry.release is None else entry.release.line,
            )
            page_values = (facts, entry.page_edits, entry.previous_id, entry.next_id)
            if plain:
                row_values, page_values = _plain(row_values), _plain(page_values)
            row = rows[change_id] = dumps(row_values, 2)
            full[change_id] = row + dumps(page_values, 2)
        return cls(rows, full, lasting)

    def feed_entry(self, entry: ChangeEntry) -> bytes:
        """What a feed entry shows of a change: its row and the facts later edits leave alone."""
        return self.rows[entry.change_id] + _serialised(self.lasting[entry.change_id])


_by_upstream = attrgetter("upstream.time", "recorded_at")
_by_recording = attrgetter("recorded_at")


def _feed_id_root(data: SiteData, base: str | None) -> str:
    """What a feed's path follows in its Atom id, which no two sites may share (RFC 4287): a
    published site's address, else a tag URI of its oldest change, a store commit that no other
    store holds and no later fetch changes."""
    if base is not None:
        return base
    oldest = [data.changes[0].change_id] if data.changes else []
    return present.tag_uri("site", *oldest, "")


def _plan(data: SiteData, base: str | None, written: Path | None) -> list[_Output]:
    """Every file of the site with its key and how to make it; ``written`` is the folder of
    the last build, whose files may lend the parts they share with new ones."""
    feed_ids = _feed_id_root(data, base)
    site = _serialised((code_digest(), base, data.title, feed_ids))
    fingerprints = _Fingerprints.of(data.changes)

    def key_of(
        path: str,
        *parts: object,
        rows: Iterable[ChangeEntry] = (),
        full: Iterable[ChangeEntry] = (),
    ) -> str:
        """The key of a file showing ``parts``, ``rows`` as list lines and ``full`` in full."""
        listed = b"".join([fingerprints.rows[entry.change_id] for entry in rows])
        shown = b"".join([fingerprints.full[entry.change_id] for entry in full])
        return _digest(_serialised((site, path, repr(parts), listed, shown)))

    def page(path: str, key: str, template: str, **context: Any) -> _Output:
        return _Output(path, key, partial(_page, template, _root(path), data.title, **context))

    # Sorting is stable: changes recorded at the same time stay newest in the store first.
    newest_in_store = data.changes[::-1]
    newest_edits = sorted(newest_in_store, key=_by_upstream, reverse=True)
    newest_records = sorted(newest_in_store, key=_by_recording, reverse=True)
    sources = sorted(data.sources, key=lambda source: source.name)
    source_counts = dict.fromkeys((source.name for source in sources), 0)
    pages: defaultdict[tuple[str, str], list[ChangeEntry]] = defaultdict(list)
    normative = []
    for entry in newest_records:
        pages[entry.source, entry.page_path].append(entry)
        source_counts[entry.source] += 1
        if entry.report.verdict == ChangeClass.NORMATIVE:
            normative.append(entry)
    months: dict[str, list[ChangeEntry]] = {}
    bounds: tuple[datetime, datetime] | None = None
    for entry in newest_edits:
        # Newest first, so a month's changes mostly come together: the month is worked out
        # again only where a change falls outside the last one found.
        moment = entry.upstream.time
        if bounds is None or not bounds[0] <= moment < bounds[1]:
            bounds = present.month_bounds(moment)
            in_month = months.setdefault(present.month_of(moment), [])
        in_month.append(entry)
    # Times in a repeated hour of one time zone sort by their wall clock: order the months.
    months = dict(sorted(months.items(), reverse=True))
    month_counts = [(month, len(entries)) for month, entries in months.items()]
    recent = newest_edits[:RECENT_LIMIT]
    feeds = _Feeds(data, base, feed_ids, key_of, fingerprints, written, site)
    lines = _Lines(fingerprints, site, written)

    outputs = [_Output(f"assets/{name}", key_of(name), partial(_asset, name)) for name in ASSETS]
    outputs.append(
        page(
            "index.html",
            key_of(
                "index.html", sources, month_counts, source_counts, data.generated_at, rows=recent
            ),
            "index.html",
            heading="Recent changes",
            lede=(
                f"{present.plural(len(data.changes), 'recorded change')} across "
                f"{present.plural(len(sources), 'source')}; "
                f"last recorded {present.second_text(data.generated_at)}."
            ),
            list_heading=(
                f"The latest {present.plural(len(recent), 'change')}, newest upstream edit first"
            ),
            entries=recent,
            change_rows=lines.of_changes("index.html", with_page=True),
            sources=sources,
            source_counts=source_counts,
            months=month_counts,
        )
    )
    for month, entries in months.items():
        path = present.archive_href(month)
        outputs.append(
            page(
                path,
                key_of(path, rows=entries),
                "changes.html",
                heading=f"Changes edited upstream in {month}",
                lede=f"{present.plural(len(entries), 'recorded change')}, all sources.",
                list_heading="Newest upstream edit first",
                entries=entries,
                change_rows=lines.of_changes(path, with_page=True),
            )
        )
    for source in sources:
        path = present.source_href(source.name)
        latest = sorted(
            (history[0] for key, history in pages.items() if key[0] == source.name),
            key=lambda entry: entry.page_path,
        )
        outputs.append(
            page(
                path,
                key_of(path, source, full=latest),
                "source.html",
                source=source,
                latest_changes=latest,
                page_lines=lines.of_pages(path),
            )
        )
    # A page's history page, feed and change pages show nothing of its changes that their full
    # fingerprints leave out, and a new edit of the page changes all three: one digest of those
    # fingerprints stands for the page's changes in the keys of all three.
    shown = {
        page_key: _digest(b"".join([fingerprints.full[entry.change_id] for entry in history]))
        for page_key, history in pages.items()
    }
    for page_key, history in pages.items():
        path = present.page_href(page_key)
        outputs.append(
            page(
                path,
                key_of(path, shown[page_key]),
                "page.html",
                latest=history[0],
                history=history,
                change_rows=lines.of_changes(path, with_page=False),
            )
        )
        outputs.append(
            feeds.output(
                present.page_feed_href(page_key),
                f"{data.title}: {present.page_name(history[0])}",
                path,
                history,
                shown[page_key],
            )
        )
    outputs.append(
        feeds.output("feeds/all.xml", f"{data.title}: all changes", "index.html", newest_records)
    )
    outputs.append(
        feeds.output(
            "feeds/normative.xml", f"{data.title}: normative changes", "index.html", normative
        )
    )
    # Thousands of these, so one key stands for all change pages of a page: each shows the
    # page's edit count, so a new edit rewrites them all anyway. Full fingerprints stand for the
    # paths, which only the ids decide.
    render = _ChangePages(data.title, fingerprints, site, written).render
    href = present.change_href
    for page_key, history in pages.items():
        key = key_of("change pages", shown[page_key])
        # _make skips the keyword handling of the named tuple's constructor, half the cost here.
        outputs.extend(
            _Output._make((href(entry.change_id), key, partial(render, entry))) for entry in history
        )
    return outputs


def _asset(name: str) -> bytes:
    return (_PACKAGE_DIR / "static" / name).read_bytes()


def _root(path: str) -> str:
    """The prefix that leads from the file at ``path`` back to the site's folder."""
    return "../" * path.count("/")


def _macros() -> Any:
    """The macros of the templates, to call from here."""
    # Jinja makes a template's macros attributes of its module when it runs it.
    return _environment().get_template("_macros.html").module


class _Lines:
    """Makes the lines of the lists of one build: of changes, and of pages by their latest change.

    Each line follows a comment holding its key: a digest of what it shows of its change and of
    where it stands (the links' prefix, whether it names the page). A list takes the lines whose
    key it would make from its file as written last time, and renders only the others.
    """

    def __init__(self, fingerprints: _Fingerprints, site: bytes, written: Path | None) -> None:
        self._fingerprints = fingerprints
        self._site = site
        self._written = written

    def of_changes(
        self, path: str, with_page: bool
    ) -> Callable[[Sequence[ChangeEntry]], list[Markup]]:
        """The lines for a list of changes in the file at ``path``, made when it is rendered."""
        arguments = (_root(path), with_page)
        return partial(self._lines, path, "change_row", arguments, self._fingerprints.rows)

    def of_pages(self, path: str) -> Callable[[Sequence[ChangeEntry]], list[Markup]]:
        """The lines for a list of pages, given by their latest changes, in the file at ``path``."""
        return partial(self._lines, path, "page_line", (_root(path),), self._fingerprints.full)

    def _lines(
        self,
        path: str,
        macro: str,
        arguments: tuple[Any, ...],
        shown: dict[str, bytes],
        entries: Sequence[ChangeEntry],
    ) -> list[Markup]:
        written = {} if self._written is None else _written_parts(self._written / path, *_LINE)
        place = _serialised((self._site, macro, arguments))
        render = getattr(_macros(), macro)
        lines = []
        for entry in entries:
            key = _digest(place + shown[entry.change_id])
            line = written.get(key)
            if line is None:
                line = Markup(f"<!-- line {key} -->\n") + render(entry, *arguments)
            lines.append(line)
        return lines


class _ChangePages:
    """Makes the change pages of one build.

    A change page shows its page's edit count and its neighbours, which later edits of the page
    change, in its facts and its pager. The rest stays while its lasting key stays: a digest of
    what the change's feed entry shows, which leaves out exactly those. The page is written with
    that key in a comment and its two changing parts between comments; when the page written last
    time holds the key, only those parts are rendered again, into its text.
    """

    _PARTS = re.compile(r"<!-- (facts|pager) -->.*?<!-- /\1 -->", re.DOTALL)

    def __init__(
        self, site_title: str, fingerprints: _Fingerprints, site: bytes, written: Path | None
    ) -> None:
        self._site_title = site_title
        self._fingerprints = fingerprints
        self._site = site
        self._written = written

    def render(self, entry: ChangeEntry) -> bytes:
        lasting = _digest(
            _serialised((self._site, "change page", self._fingerprints.feed_entry(entry)))
        )
        path = present.change_href(entry.change_id)
        if self._written is not None:
            spliced = self._spliced(entry, lasting, self._written / path, _root(path))
            if spliced is not None:
                return spliced
        groups = _change_groups(entry)
        return _page(
            "change.html", _root(path), self._site_title, entry=entry, lasting=lasting, **groups
        )

    def _spliced(self, entry: ChangeEntry, lasting: str, written: Path, root: str) -> bytes | None:
        """The page as written last time with its changing parts rendered again, or None when
        that page does not hold the lasting key or its parts."""
        text = _written_text(written)
        if text is None or f"<!-- change {lasting} -->\n" not in text:
            return None
        macros = _macros()
        parts = {
            "facts": macros.fact_list(present.facts(entry)),
            "pager": macros.pager(entry, root),
        }

        def fresh(part: re.Match[str]) -> str:
            return _NOT_SHOWN.sub("", f"<!-- {part[1]} -->{parts[part[1]]}<!-- /{part[1]} -->")

        spliced, count = self._PARTS.subn(fresh, text)
        return spliced.encode("utf-8") if count == len(parts) else None


def _change_groups(entry: ChangeEntry) -> dict[str, Any]:
    return {
        "normative": present.changes_of(entry, ChangeClass.NORMATIVE),
        "editorial": present.changes_of(entry, ChangeClass.EDITORIAL),
        "formatting": present.changes_of(entry, ChangeClass.FORMATTING),
    }


class _Feeds:
    """Makes the Atom feeds of one build.

    Each entry follows a comment holding its key: a digest of its link and of what it shows of
    the change, which later edits of the page leave alone. A rebuild takes the entries whose key
    it would make from the feed as written last time, and renders only the others; within one
    build an entry shared by several feeds is rendered once.
    """

    def __init__(
        self,
        data: SiteData,
        base: str | None,
        ids: str,
        key_of: Callable[..., str],
        fingerprints: _Fingerprints,
        written: Path | None,
        site: bytes,
    ) -> None:
        self._data = data
        self._base = base
        self._ids = ids
        self._key_of = key_of
        self._fingerprints = fingerprints
        self._written = written
        self._site = site
        self._entries: dict[str, Markup] = {}

    def output(
        self,
        path: str,
        title: str,
        alternate: str,
        newest_first: Sequence[ChangeEntry],
        shown: str | None = None,
    ) -> _Output:
        """The feed at ``path`` of the changes given, newest recorded first, standing for page
        ``alternate``; ``shown``, when given, is a digest of at least what the feed shows of them."""
        entries = tuple(newest_first[:FEED_LIMIT])
        updated = entries[0].recorded_at if entries else self._data.generated_at
        if shown is None:
            key = self._key_of(path, title, alternate, updated, full=entries)
        else:
            key = self._key_of(path, title, alternate, updated, shown)
        return _Output(path, key, partial(self._xml, path, title, alternate, updated, entries))

    def _xml(
        self,
        path: str,
        title: str,
        alternate: str,
        updated: datetime,
        entries: Sequence[ChangeEntry],
    ) -> bytes:
        def link(target: str) -> str:
            if self._base is not None:
                return self._base + target
            return posixpath.relpath(target, posixpath.dirname(path))

        written = (
            {} if self._written is None else _written_parts(self._written / path, *_FEED_ENTRY)
        )
        return _render(
            "feed.xml",
            feed_id=self._ids + path,
            title=title,
            updated=present.rfc3339(updated),
            self_link=link(path),
            alternate_link=link(alternate),
            entries=[
                self._entry(entry, link(present.change_href(entry.change_id)), written)
                for entry in entries
            ],
        ).encode("utf-8")

    def _entry(self, entry: ChangeEntry, change_link: str, written: dict[str, Markup]) -> Markup:
        key = _digest(
            _serialised(
                (self._site, "feed entry", change_link, self._fingerprints.feed_entry(entry))
            )
        )
        fragment = self._entries.get(key) or written.get(key)
        if fragment is None:
            item = _feed_item(entry, change_link)
            fragment = Markup(_render("feed_entry.xml", key=key, item=item))
        self._entries[key] = fragment
        return fragment


def _written_text(file: Path) -> str | None:
    """A file's text as an earlier build wrote it, line ends included (none when unreadable)."""
    try:
        return file.read_bytes().decode("utf-8")
    except (OSError, ValueError):
        return None


def _written_parts(file: Path, start: re.Pattern[str], end: str) -> dict[str, Markup]:
    """The parts of a file written by an earlier build, by key: each runs from a match of
    ``start``, whose group is its key, through the next ``end`` (none when unreadable)."""
    text = _written_text(file)
    if text is None:
        return {}
    parts = {}
    for found in start.finditer(text):
        stop = text.find(end, found.end())
        if stop < 0:
            break
        parts[found[1]] = Markup(text[found.start() : stop + len(end)])
    return parts


def _feed_item(entry: ChangeEntry, change_link: str) -> _FeedItem:
    groups = _change_groups(entry)
    normative = groups["normative"]
    if normative:
        summary = "; ".join(present.strength_change(change) for change in normative)
    else:
        summary = present.verdict_label(entry.verdict)
    report = entry.report
    return _FeedItem(
        atom_id=present.tag_uri("change", entry.change_id),
        title=f"{present.headline(entry)} · {present.verdict_label(entry.verdict)}",
        updated=present.rfc3339(entry.recorded_at),
        link=change_link,
        verdict=entry.verdict,
        summary=f"{summary} · +{report.lines_added} −{report.lines_removed}",
        content=_render("entry.html", entry=entry, change_link=change_link, **groups),
    )


def _existing_files(out: Path, paths: Iterable[str]) -> set[str]:
    """Which files the folders holding ``paths`` hold, as paths relative to ``out`` (a folder
    where a file belongs is no file: writing the file reports it)."""
    found: set[str] = set()
    for folder in {path.rpartition("/")[0] for path in paths}:
        try:
            with os.scandir(out / folder) as entries:
                names = [entry.name for entry in entries if not entry.is_dir()]
        except (FileNotFoundError, NotADirectoryError):
            continue
        prefix = f"{folder}/" if folder else ""
        found.update([prefix + name for name in names])
    return found


def _read_manifest(out: Path) -> dict[str, str]:
    """The keys of the last build; an unreadable manifest means: check every file."""
    try:
        manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(manifest, dict) or manifest.get("schema") != SCHEMA:
        return {}
    files = manifest.get("files")
    if not isinstance(files, dict):
        return {}
    return {path: str(key) for path, key in files.items()}


def _inside(path: str) -> bool:
    """Whether a path read from the manifest names a file inside the output folder."""
    return (
        path not in ("", ".", "..")
        and posixpath.normpath(path) == path
        and not path.startswith(("/", "../"))
    )


def _put(out: Path, path: str, content: bytes, existing: set[str]) -> bool:
    """Write ``content`` unless the file holds it already; whether it was written.

    The manifest is deleted before the first file is replaced (see the module docstring).
    """
    if not _differs(out, path, content, existing):
        return False
    if MANIFEST in existing:
        (out / MANIFEST).unlink()
        existing.discard(MANIFEST)
    _replace(out, path, content, existing)
    return True


def _differs(out: Path, path: str, content: bytes, existing: set[str]) -> bool:
    if path not in existing:
        return True
    with open(os.path.join(out, path), "rb") as current:
        return current.read() != content


def _replace(out: Path, path: str, content: bytes, existing: set[str]) -> None:
    target = os.path.join(out, path)
    if path not in existing:
        os.makedirs(os.path.dirname(target), exist_ok=True)
    partial_file = target + ".partial"
    with open(partial_file, "wb") as written:
        written.write(content)
    os.replace(partial_file, target)


def _write(
    outputs: list[_Output], out: Path, manifest: dict[str, str], progress: Progress
) -> BuildResult:
    out.mkdir(parents=True, exist_ok=True)
    produced = {output.path: output.key for output in outputs}
    # A path the build makes is safe by construction; only the others need checking.
    previous = {path: key for path, key in manifest.items() if path in produced or _inside(path)}
    dropped = previous.keys() - produced.keys()
    existing = _existing_files(out, [MANIFEST, *dropped, *produced])
    needs_marker = MARKER not in existing
    if needs_marker:
        # Before any file of the site, so that a build stopped part-way leaves a folder the
        # next build takes up.
        (out / MARKER).write_text(
            "A change site built by `spectrack site`, which writes and removes its files here.\n",
            encoding="utf-8",
        )
    stale = [
        output
        for output in outputs
        if previous.get(output.path) != output.key or output.path not in existing
    ]
    written = []
    progress.start("writing the site", len(stale))
    for output in stale:
        if _put(out, output.path, output.render(), existing):
            written.append(output.path)
        progress.advance()
    unchanged = len(outputs) - len(written)
    removed = sorted(path for path in dropped if path in existing and not (out / path).is_dir())
    for path in removed:
        (out / path).unlink()
    if not previous:
        # No manifest: perhaps a build was stopped while writing a file; its part is left over.
        for path in produced:
            if path + ".partial" in existing:
                (out / (path + ".partial")).unlink()
    keys = json.dumps({"schema": SCHEMA, "files": produced}, sort_keys=True).encode("utf-8")
    if _put(out, MANIFEST, keys + b"\n", existing):
        written.append(MANIFEST)
    if needs_marker:
        written.append(MARKER)
    return BuildResult(tuple(sorted(written)), tuple(removed), unchanged)
