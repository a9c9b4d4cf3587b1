"""Times: sitemap ``lastmod`` values, the upstream time of a revision, and dates on the command line.

Every time spectrack keeps is timezone-aware. A ``lastmod`` without an offset is read as UTC.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, timezone
from enum import StrEnum

from spectrack.errors import InputError

Clock = Callable[[], datetime]
"""Returns the current time (timezone-aware); injected wherever "now" is recorded."""


def utc_now() -> datetime:
    return datetime.now(UTC)


class TimeSource(StrEnum):
    """Where a revision's upstream time came from."""

    SITEMAP = "sitemap"
    """The page's ``lastmod`` in the sitemap."""
    COMMIT = "commit"
    """The date of the upstream git commit (``import-git``)."""
    FETCH = "fetch"
    """No usable upstream time: when spectrack fetched the page."""


class Precision(StrEnum):
    """How precise an upstream time is: a ``lastmod`` of ``2025`` or ``2025-03`` gives the
    first instant of that year or month, which is no edit on that day."""

    YEAR = "year"
    MONTH = "month"
    DAY = "day"
    SECOND = "second"


@dataclass(frozen=True, slots=True)
class UpstreamTime:
    """When upstream edited a page, as far as spectrack can tell."""

    time: datetime
    source: TimeSource
    precision: Precision
    raw: str | None = None
    """The ``lastmod`` text exactly as the sitemap gave it, if any."""


_LASTMOD = re.compile(
    r"(?P<year>\d{4})(?:-(?P<month>\d{2})(?:-(?P<day>\d{2})"
    r"(?:[T ](?P<hour>\d{2}):(?P<minute>\d{2})(?::(?P<second>\d{2})(?:[.,](?P<fraction>\d+))?)?"
    r"\s*(?P<zone>Z|z|[+-]\d{2}(?::?\d{2})?)?)?)?)?"
)


def _zone(text: str | None) -> timezone:
    if text is None or text in ("Z", "z"):
        return UTC
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:4] or 0)
    if hours > 23 or minutes > 59:
        raise ValueError(f"offset out of range: {text}")
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


def parse_lastmod(raw: str) -> UpstreamTime | None:
    """A W3C datetime (every form the sitemap protocol allows, and a space for ``T``) or None.

    ``2024``, ``2024-05``, ``2024-05-06`` have year, month and day precision (the first day of
    the period, UTC); forms with a time have second precision. Values that are not a valid date
    are None, and so are times before 1970 (git stores them but cannot read them back as an
    author date) and times that fall after the year 9999 in UTC.
    """
    parsed = _parse_w3c(raw)
    if parsed is None or not in_utc_range(parsed.time) or parsed.time.timestamp() < 0:
        return None
    return parsed


def in_utc_range(moment: datetime) -> bool:
    """Whether a time can be shown in UTC: ``9999-12-31T23:59:59-12:00`` falls in the year
    10000 there, which no `datetime` holds."""
    try:
        moment.astimezone(UTC)
    except OverflowError:
        return False
    return True


def _parse_w3c(raw: str) -> UpstreamTime | None:
    match = _LASTMOD.fullmatch(raw.strip())
    if match is None:
        return None
    parts = match.groupdict()
    try:
        zone = _zone(parts["zone"])
        if parts["hour"] is None:
            day = date(int(parts["year"]), int(parts["month"] or 1), int(parts["day"] or 1))
            moment = datetime(day.year, day.month, day.day, tzinfo=UTC)
            precision = (
                Precision.YEAR
                if parts["month"] is None
                else Precision.MONTH
                if parts["day"] is None
                else Precision.DAY
            )
            return UpstreamTime(moment, TimeSource.SITEMAP, precision, raw)
        fraction = (parts["fraction"] or "0")[:6].ljust(6, "0")
        moment = datetime(
            int(parts["year"]),
            int(parts["month"]),
            int(parts["day"]),
            int(parts["hour"]),
            int(parts["minute"]),
            int(parts["second"] or 0),
            int(fraction),
            tzinfo=zone,
        )
    except ValueError:
        return None
    return UpstreamTime(moment, TimeSource.SITEMAP, Precision.SECOND, raw)


_RELATIVE = re.compile(r"(?P<count>\d+)\s*(?P<unit>[hdw])")
_UNITS = {"h": timedelta(hours=1), "d": timedelta(days=1), "w": timedelta(weeks=1)}


def parse_when(text: str, now: datetime | None = None) -> datetime:
    """A date from the command line: ``2025-06-18``, an ISO datetime, or ``12h``/``3d``/``2w`` ago.

    Dates and datetimes without an offset are UTC; a date alone means its midnight.
    """
    relative = _RELATIVE.fullmatch(text.strip())
    if relative:
        try:
            return (now or utc_now()) - int(relative["count"]) * _UNITS[relative["unit"]]
        except OverflowError:
            raise InputError(f"{text!r}: further back than any date") from None
    parsed = _parse_w3c(text) if re.match(r"\d{4}-\d{2}-\d{2}", text.strip()) else None
    if parsed is None:
        raise InputError(
            f"{text!r}: not a date; use YYYY-MM-DD, an ISO datetime such as "
            "2025-06-18T10:00:00Z, or 12h / 3d / 2w for hours, days, weeks ago"
        )
    return parsed.time


def looks_like_date(text: str) -> bool:
    """Whether ``text`` is meant as a date (what follows ``@`` in ``PAGE@DATE``), not a revision."""
    return bool(re.match(r"\d{4}-\d{2}-\d{2}", text) or _RELATIVE.fullmatch(text))


def git_date(moment: datetime) -> str:
    """``<unix seconds> <+hhmm>``, the raw date format of git objects, in the time's own offset."""
    offset = moment.utcoffset() or timedelta(0)
    minutes = int(offset.total_seconds()) // 60
    sign = "-" if minutes < 0 else "+"
    return f"{int(moment.timestamp())} {sign}{abs(minutes) // 60:02d}{abs(minutes) % 60:02d}"


def period_text(moment: datetime, precision: Precision) -> str | None:
    """A time known to the year, month or day as precise as it is known (``2025``, ``2025-03``,
    ``2025-03-26``, in UTC); None for a time known to the second."""
    day = moment.astimezone(UTC).date()
    # Not strftime: its %Y leaves years before 1000 unpadded (glibc).
    if precision is Precision.YEAR:
        return f"{day.year:04d}"
    if precision is Precision.MONTH:
        return f"{day.year:04d}-{day.month:02d}"
    if precision is Precision.DAY:
        return day.isoformat()
    return None


def iso(moment: datetime) -> str:
    """ISO 8601 in UTC with a ``Z``, to the second; the year always has four digits."""
    # Not strftime: its %Y leaves years before 1000 unpadded (glibc), and fromisoformat cannot
    # read such a year back.
    return moment.astimezone(UTC).replace(microsecond=0, tzinfo=None).isoformat() + "Z"
