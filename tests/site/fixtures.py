"""Small invented pages and their recorded changes, diffed by the real engine, for the site tests."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from spectrack.diff import diff_texts
from spectrack.releases import Release, ReleaseMatch
from spectrack.reportcache import StoredReport
from spectrack.site import (
    ChangeEntry,
    Precision,
    SiteData,
    Source,
    TimeSource,
    UpstreamTime,
    link_pages,
)

START = datetime(2025, 3, 1, 9, 30, tzinfo=UTC)

GREETING_V1 = """# Greeting

A lamp greets every visitor at the door.

## Colours

The lamp SHOULD glow amber while it waits.
"""

GREETING_V2 = """# Greeting

A lamp greets every visitor at the door.

## Colours

The lamp MUST glow amber while it waits.

The lamp MAY blink twice when a visitor leaves.
"""

GREETING_V3 = """# Greeting

A  lamp greets every visitor
at the door.

## Colours

The lamp MUST glow amber while it waits.

The lamp MAY blink twice when a visitor leaves.
"""

KETTLE_V1 = """# Kettle

The kettle sings when the water boils.
"""

KETTLE_V2 = """# Kettle

The kettle hums softly when the water boils.
"""

GARDEN_V1 = """# Garden gate

* The gate opens inwards.
* Visitors close it behind them.
"""

_FILLER = "\n\n".join(
    f"Paragraph {n} describes shelf number {n} in plain words." for n in range(1, 9)
)
HANDBOOK_V1 = f"""# Handbook

The lamp SHOULD be dusted every week.

{_FILLER}

## Kettles

* Fill the kettle with fresh water.
* Empty the kettle after use.
"""
HANDBOOK_V2 = (
    HANDBOOK_V1.replace("SHOULD be dusted", "MUST be dusted")
    .replace("* Fill", "- Fill")
    .replace("* Empty", "- Empty")
)
"""A strengthened requirement at the top and a list re-marked at the bottom: two hunks."""

HOSTILE_TITLE = '<script>window.__pwned = 1</script>"><img src=x onerror="window.__pwned=2">'
HOSTILE_URL = "javascript:window.__pwned=3"
HOSTILE_LASTMOD = "2025-03-01<script>window.__pwned=9</script>"
HOSTILE_SOURCE = '<svg onload="window.__pwned=8">'
"""A source name, as a store path or a commit trailer might carry it."""
HOSTILE_TEXT = """# Trap

A visitor MUST NOT type <script>window.__pwned = 4</script> into the door.

Try "><img src=x onerror="window.__pwned=5"> and {{ 7 * 7 }} and {% if true %}yes{% endif %}.

[click me](javascript:window.__pwned=6)
"""


@dataclass(frozen=True, slots=True)
class Edit:
    """One invented recorded edit: a page going from ``old`` to ``new`` text."""

    change_id: str
    source: str
    path: str
    old: str | None
    new: str | None
    hours: int
    """Hours after START when spectrack recorded it."""
    title: str | None = None
    url: str | None = None
    precision: Precision = Precision.SECOND
    time_source: TimeSource = TimeSource.SITEMAP
    lastmod: str | None = None
    """The raw sitemap ``lastmod`` (a commit trailer in the store); made from the time if None."""
    release: ReleaseMatch | None = None


def entry(edit: Edit) -> ChangeEntry:
    recorded = START + timedelta(hours=edit.hours)
    upstream = recorded - timedelta(hours=2)
    if edit.precision is Precision.DAY:
        upstream = upstream.replace(hour=0, minute=0, second=0)
    raw = edit.lastmod
    if raw is None and edit.time_source is TimeSource.SITEMAP:
        shape = "%Y-%m-%d" if edit.precision is Precision.DAY else "%Y-%m-%dT%H:%M:%SZ"
        raw = upstream.strftime(shape)
    return ChangeEntry(
        change_id=edit.change_id,
        source=edit.source,
        page_path=edit.path,
        title=edit.title,
        url=edit.url or f"https://{edit.source}.example/{edit.path.removesuffix('.md')}",
        upstream=UpstreamTime(upstream, edit.time_source, edit.precision, raw),
        recorded_at=recorded,
        first_seen=recorded,
        page_edits=1,
        report=StoredReport.of(diff_texts(edit.old, edit.new, edit.path)),
        release=edit.release,
    )


def site_data(edits: list[Edit], title: str = "Invented changes") -> SiteData:
    changes = link_pages(entry(edit) for edit in edits)
    sources = tuple(Source(name) for name in sorted({edit.source for edit in edits}))
    latest = max(change.recorded_at for change in changes)
    return SiteData(changes=changes, sources=sources, generated_at=latest, title=title)


LAMP_RELEASE = ReleaseMatch(
    Release("2.0.0", START + timedelta(hours=27), "https://lamps.example/releases/2.0.0", False),
    "github lamps/lamp",
    window=timedelta(hours=24),
    delta=timedelta(hours=5),
)
"""Published five hours after the upstream edit of c03 (recorded at hour 24, edited at 22)."""

SAMPLE_EDITS = [
    Edit("c01", "lamps", "docs/greeting.md", None, GREETING_V1, 0, title="Greeting"),
    Edit("c02", "lamps", "docs/kettle.md", None, KETTLE_V1, 1, title="Kettle"),
    Edit(
        "c03",
        "lamps",
        "docs/greeting.md",
        GREETING_V1,
        GREETING_V2,
        24,
        title="Greeting",
        release=LAMP_RELEASE,
    ),
    Edit(
        "c04",
        "lamps",
        "docs/kettle.md",
        KETTLE_V1,
        KETTLE_V2,
        30,
        title="Kettle",
        precision=Precision.DAY,
    ),
    Edit(
        "c05",
        "gardens",
        "gate.md",
        None,
        GARDEN_V1,
        40,
        title="Garden gate",
        time_source=TimeSource.COMMIT,
    ),
    Edit(
        "c10",
        "gardens",
        "gate.md",
        GARDEN_V1,
        GARDEN_V1.replace("\n", "\r\n"),
        45,
        title="Garden gate",
        time_source=TimeSource.COMMIT,
    ),
    Edit("c06", "lamps", "docs/greeting.md", GREETING_V2, GREETING_V3, 50, title="Greeting"),
    Edit("c07", "lamps", "handbook.md", None, HANDBOOK_V1, 52, title="Handbook"),
    Edit("c08", "lamps", "handbook.md", HANDBOOK_V1, HANDBOOK_V2, 54, title="Handbook"),
]
"""Greeting: added, strengthened + added requirement, re-wrapped; Kettle: added, reworded;
Garden gate: added, then saved with CRLF line ends (bytes changed, words not: "unchanged");
Handbook: added, then a normative hunk and a formatting-only hunk."""

NEXT_EDIT = Edit(
    "c09",
    "lamps",
    "docs/kettle.md",
    KETTLE_V2,
    KETTLE_V2.replace("hums softly", "SHOULD hum softly"),
    60,
    title="Kettle",
)
"""A normative edit of the Kettle page, recorded after every sample edit."""

HOSTILE_EDITS = [
    Edit(
        "x01",
        HOSTILE_SOURCE,
        "trap.md",
        None,
        HOSTILE_TEXT,
        0,
        title=HOSTILE_TITLE,
        url=HOSTILE_URL,
    ),
    Edit(
        "x02",
        HOSTILE_SOURCE,
        "trap.md",
        HOSTILE_TEXT,
        HOSTILE_TEXT.replace("MUST NOT", "SHOULD NOT") + "\n{{ config }}\n",
        5,
        title=HOSTILE_TITLE,
        url=HOSTILE_URL,
        lastmod=HOSTILE_LASTMOD,
    ),
]
"""A page whose title, URL and text try to run script or template code."""


def sample_data() -> SiteData:
    return site_data(SAMPLE_EDITS)
