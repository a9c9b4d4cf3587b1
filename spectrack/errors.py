"""The one exception tree of spectrack.

Every error the library raises on purpose is a :class:`SpectrackError`; the CLI prints its
message on one line and exits with its ``exit_code``. The shape::

    SpectrackError                 exit 2 unless stated
    ├── InputError                 a file, directory or revision that cannot be read as a page
    ├── ConfigError                a bad ``spectrack.toml`` key, type or value
    ├── StoreError                 the snapshot store is unusable (corrupt, not a repository)
    │   └── StoreBusyError         another run holds the store's lock
    └── FetchError                 a page or sitemap could not be fetched (exit 3 at the end of a run)
        ├── SitemapError           a sitemap that cannot be read (malformed, malicious, too large)
        └── ReleaseFeedError       a release feed that cannot be read (a warning; exit 3 only for
                                   `spectrack releases`)

Messages say what went wrong, where (the file, key or URL) and what to do next.
"""

from __future__ import annotations


class SpectrackError(Exception):
    """Base of every error spectrack raises on purpose."""

    exit_code: int = 2


class InputError(SpectrackError):
    """A file, directory or revision that cannot be read as a Markdown/MDX page."""


class ConfigError(SpectrackError):
    """A bad configuration file: unknown key, wrong type or invalid value."""


class StoreError(SpectrackError):
    """The snapshot store cannot be used."""


class StoreBusyError(StoreError):
    """Another spectrack run holds the store's lock and did not finish within the wait."""


class FetchError(SpectrackError):
    """A sitemap or page could not be fetched."""

    exit_code = 3


class SitemapError(FetchError):
    """A sitemap that cannot be read: malformed, malicious (DTD, entities) or over the limits."""


class ReleaseFeedError(FetchError):
    """A release feed that cannot be read: HTTP error, malformed XML or JSON, no publish times."""
