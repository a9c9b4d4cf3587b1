"""Options every output format receives."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from spectrack.comparison import PageFiles
from spectrack.releases import ReleaseMatch


def random_token() -> str:
    """An unguessable token to fence echoed text with ``::stop-commands::``."""
    return secrets.token_hex(16)


@dataclass(frozen=True, slots=True)
class FormatOptions:
    verbose: bool = False
    """List formatting changes one by one instead of summarising them."""
    color: bool | None = None
    """Colour the output; None means: when writing to a terminal."""
    fail_on: str = "never"
    """The ``--fail-on`` level: which pages a JUnit report marks as failed."""
    acknowledged: Mapping[str, str] = field(default_factory=dict)
    """Fingerprint → reason, for the changes acknowledged with ``spectrack ack``."""
    locations: Mapping[str, PageFiles] = field(default_factory=dict)
    """Page path → files relative to the repository root; a missing page is at its own path."""
    environ: Mapping[str, str] = field(default_factory=dict)
    """The process environment (``GITHUB_STEP_SUMMARY``, ``GITHUB_OUTPUT``), injected."""
    releases: Mapping[str, ReleaseMatch | None] | None = None
    """Page path → the release nearest its upstream edit (`Comparison.releases`); None when
    there is no release context."""
    stop_token: Callable[[], str] = random_token
    """Makes the ``::stop-commands::`` token of the github format; injected by tests."""
