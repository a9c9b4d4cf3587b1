"""How the site words and places things: file paths, labels, times, safe links, highlighted keywords.

Pure functions of the site data; the templates call them and escape whatever they return.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import NamedTuple
from urllib.parse import quote, urlsplit

from spectrack.dates import Precision, TimeSource, UpstreamTime, iso, period_text
from spectrack.formats.text import keyword_summary
from spectrack.model import Change, ChangeClass, Hunk, PageStatus
from spectrack.pages import is_utf8
from spectrack.site.model import ChangeEntry

VERDICT_LABELS = {
    "normative": "Normative",
    "editorial": "Editorial",
    "formatting": "Formatting only",
    "unchanged": "Unchanged",
}
"""Verdict → the words on its badge."""

_STATUS_WORDS = {
    PageStatus.MODIFIED: "changed",
    PageStatus.ADDED: "added",
    PageStatus.REMOVED: "removed",
    PageStatus.UNCHANGED: "recorded unchanged",
}

_PRECISION_WORDS = {
    Precision.YEAR: "to the year",
    Precision.MONTH: "to the month",
    Precision.DAY: "to the day",
    Precision.SECOND: "to the second",
}

_SOURCE_WORDS = {
    TimeSource.SITEMAP: "from the site's sitemap",
    TimeSource.COMMIT: "from a commit",
    TimeSource.FETCH: "only the fetch time is known",
}


def change_href(change_id: str) -> str:
    return f"changes/{change_id}.html"


@lru_cache(maxsize=1 << 16)
def _slug(text: str) -> str:
    """A file name safe anywhere, readable, and unique per text (a hash of it ends the name)."""
    readable = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60].strip("-")
    digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{readable}-{digest}" if readable else digest


def page_slug(page_key: tuple[str, str]) -> str:
    source, path = page_key
    return _slug(f"{source}/{path}")


def page_href(page_key: tuple[str, str]) -> str:
    return f"pages/{page_slug(page_key)}.html"


def page_feed_href(page_key: tuple[str, str]) -> str:
    return f"feeds/pages/{page_slug(page_key)}.xml"


def archive_href(month: str) -> str:
    return f"archive/{month}.html"


def month_of(moment: datetime) -> str:
    """The ``YYYY-MM`` month of a time, in UTC."""
    moment = utc(moment)
    return f"{moment.year:04d}-{moment.month:02d}"


def month_bounds(moment: datetime) -> tuple[datetime, datetime]:
    """The first instant of the UTC month of a time, and of the month after."""
    moment = utc(moment)
    start = datetime(moment.year, moment.month, 1, tzinfo=UTC)
    if (moment.year, moment.month) == (9999, 12):
        # The month after the last one has no first instant; none of its times can be later.
        return start, datetime.max.replace(tzinfo=UTC)
    following = datetime(moment.year + moment.month // 12, moment.month % 12 + 1, 1, tzinfo=UTC)
    return start, following


def source_href(source: str) -> str:
    return f"sources/{_slug(source)}.html"


def http_url(url: str | None) -> str | None:
    """The URL when it is a plain http(s) link, else None: nothing else ever becomes a live link."""
    if not url or any(ord(char) <= 0x20 or ord(char) == 0x7F for char in url):
        return None
    # Bytes that were not UTF-8 (from the command line or a record) can be written to no page.
    if not is_utf8(url):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return url


def tag_uri(*parts: str) -> str:
    """A stable Atom id (RFC 4151 tag URI) that no base URL or build date changes."""
    return "tag:spectrack,2025:" + "/".join(quote(part, safe="") for part in parts)


def utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is UTC else moment.astimezone(UTC)


rfc3339 = iso
"""A time as RFC 3339 wants it in feeds and ``<time datetime>``: UTC, to the second, with ``Z``."""


# Not strftime: its %Y leaves years before 1000 unpadded (glibc).


def day_text(moment: datetime) -> str:
    return utc(moment).date().isoformat()


def second_text(moment: datetime) -> str:
    return utc(moment).replace(microsecond=0, tzinfo=None).isoformat(" ") + " UTC"


def upstream_text(upstream: UpstreamTime) -> str:
    return period_text(upstream.time, upstream.precision) or second_text(upstream.time)


def upstream_note(upstream: UpstreamTime) -> str:
    """How precise the upstream time is and where it comes from, in words."""
    note = f"{_PRECISION_WORDS[upstream.precision]}, {_SOURCE_WORDS[upstream.source]}"
    return note if upstream.raw is None else f"{note}: {upstream.raw}"


def page_name(entry: ChangeEntry) -> str:
    return entry.title or entry.page_path


def headline(entry: ChangeEntry) -> str:
    """The change page's title, e.g. "Tools changed"."""
    return f"{page_name(entry)} {_STATUS_WORDS[entry.report.status]}"


class Row(NamedTuple):
    """What a line in a list of changes shows of one change, worked out in one call (a list
    shows hundreds, and every call a template makes has a cost of its own)."""

    change_href: str
    headline: str
    page_name: str
    page_href: str
    source_href: str
    upstream_moment: str
    upstream_text: str


def row(entry: ChangeEntry) -> Row:
    upstream = entry.upstream
    return Row(
        change_href(entry.change_id),
        headline(entry),
        page_name(entry),
        page_href(entry.page_key),
        source_href(entry.source),
        rfc3339(upstream.time),
        upstream_text(upstream),
    )


def verdict_label(verdict: str) -> str:
    return VERDICT_LABELS[verdict]


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def strength_change(change: Change) -> str:
    """The keyword change named, e.g. ``SHOULD → MUST: strengthened``."""
    return f"{keyword_summary(change)}: {change.kind.value}"


def changes_of(entry: ChangeEntry, change_class: ChangeClass) -> tuple[Change, ...]:
    return tuple(c for c in entry.report.changes if c.change_class is change_class)


def formatting_summary(changes: tuple[Change, ...]) -> str:
    """One line for all formatting changes, e.g. "3 formatting changes (moved 1, reformatted 2)"."""
    kinds = Counter(change.kind.value for change in changes)
    detail = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
    return f"{plural(len(changes), 'formatting change')} ({detail})"


def hunk_range(start: int, count: int) -> str:
    if count == 0:
        return "none"
    if count == 1:
        return f"line {start}"
    return f"lines {start}–{start + count - 1}"


def hunk_title(hunk: Hunk) -> str:
    old = hunk_range(hunk.old_start, hunk.old_count)
    new = hunk_range(hunk.new_start, hunk.new_count)
    return f"old {old}, new {new}"


def unified_diff(hunks: tuple[Hunk, ...]) -> str:
    """The hunks as one plain unified diff, each hunk header naming its class.

    One string for a whole diff: a feed entry escapes it once instead of line by line.
    """
    parts = []
    for hunk in hunks:
        parts.append(
            f"@@ -{hunk.old_start},{hunk.old_count} +{hunk.new_start},{hunk.new_count} @@ "
            f"{verdict_label(hunk.change_class.value)}\n"
        )
        parts.extend(f"{line.op}{line.text}\n" for line in hunk.lines)
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class Fact:
    """One row of a change's key facts: a label and a value, optionally a time and a note."""

    label: str
    text: str
    moment: str | None = None
    """RFC 3339 form of the value when it is a time."""
    note: str | None = None


def _upstream_fact(entry: ChangeEntry) -> Fact:
    return Fact(
        "Edited upstream",
        upstream_text(entry.upstream),
        rfc3339(entry.upstream.time),
        upstream_note(entry.upstream),
    )


def _recorded_fact(entry: ChangeEntry) -> Fact:
    return Fact("Recorded by spectrack", second_text(entry.recorded_at), rfc3339(entry.recorded_at))


def _first_seen_fact(entry: ChangeEntry) -> Fact:
    return Fact("Page first seen", second_text(entry.first_seen), rfc3339(entry.first_seen))


def _edits_fact(entry: ChangeEntry) -> Fact:
    return Fact("Recorded edits of this page", str(entry.page_edits), note="all time")


def _lines_fact(entry: ChangeEntry) -> Fact:
    report = entry.report
    return Fact("Lines", f"+{report.lines_added} −{report.lines_removed}", note="added, removed")


def _release_fact(entry: ChangeEntry) -> Fact | None:
    if entry.release is None:
        return None
    return Fact("Nearest release", entry.release.line)


CHANGE_FACTS: list[Callable[[ChangeEntry], Fact | None]] = [
    _upstream_fact,
    _recorded_fact,
    _first_seen_fact,
    _edits_fact,
    _lines_fact,
    _release_fact,
]
"""The key facts of a change page, in order; a row returning None is left out."""

FEED_FACTS = [row for row in CHANGE_FACTS if row is not _edits_fact]
"""The key facts of a feed entry: those that later edits of the page leave as they are, so that
a rebuild reuses the entry as written (see `spectrack.site.build`)."""


def facts(
    entry: ChangeEntry, rows: Sequence[Callable[[ChangeEntry], Fact | None]] = CHANGE_FACTS
) -> tuple[Fact, ...]:
    return tuple(fact for row in rows if (fact := row(entry)) is not None)


def feed_facts(entry: ChangeEntry) -> tuple[Fact, ...]:
    return facts(entry, FEED_FACTS)
