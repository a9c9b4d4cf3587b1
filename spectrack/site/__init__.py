"""The change site: recorded changes → static HTML pages and Atom feeds, and a server to look at them."""

from __future__ import annotations

from spectrack.dates import Precision, TimeSource, UpstreamTime
from spectrack.site.build import BuildResult, build
from spectrack.site.model import ChangeEntry, SiteData, Source, link_pages

__all__ = [
    "BuildResult",
    "ChangeEntry",
    "Precision",
    "SiteData",
    "Source",
    "TimeSource",
    "UpstreamTime",
    "build",
    "link_pages",
]
