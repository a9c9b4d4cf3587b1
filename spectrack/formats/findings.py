"""Changes as the CI formats present them: located in a file, fingerprinted, ranked by importance."""

from __future__ import annotations

from dataclasses import dataclass

from spectrack.fingerprints import page_fingerprints
from spectrack.formats.options import FormatOptions
from spectrack.formats.text import keyword_summary, section_path, shorten
from spectrack.model import Change, ChangeClass, ChangeKind, PageReport, Report, Side
from spectrack.normative import STRENGTH

_KIND_PRIORITY = {
    ChangeKind.STRENGTHENED: 0,
    ChangeKind.WEAKENED: 0,
    ChangeKind.REMOVED: 0,
    ChangeKind.MODIFIED: 1,
    ChangeKind.ADDED: 2,
}
"""Among changes of one class: a requirement that changed strength or went away comes first."""


@dataclass(frozen=True, slots=True)
class Finding:
    page: PageReport
    change: Change
    fingerprint: str
    acknowledged: str | None
    """Why the change was acknowledged, or None when it was not."""
    file: str
    """Path (relative to the repository root) of the version `side` is in."""
    side: Side
    """Where the change is: its new text, or its old text for a removal."""


def _strength(change: Change) -> int:
    words = (
        *(change.old.keywords if change.old else ()),
        *(change.new.keywords if change.new else ()),
    )
    return max((STRENGTH[word][0] for word in words if word in STRENGTH), default=0)


def importance(finding: Finding) -> tuple[int, int, int, int]:
    """Sort key, most important first: open before acknowledged, then class, kind, keyword strength."""
    change = finding.change
    return (
        finding.acknowledged is not None,
        -change.change_class.rank,
        _KIND_PRIORITY.get(change.kind, 3),
        -_strength(change),
    )


def findings(report: Report, options: FormatOptions) -> list[Finding]:
    """Every change of the report in report order; formatting only with ``--verbose``."""
    found = []
    for page in report.pages:
        files = options.locations.get(page.path)
        for change, fingerprint in zip(page.changes, page_fingerprints(page), strict=True):
            if change.change_class is ChangeClass.FORMATTING and not options.verbose:
                continue
            side = change.new or change.old
            assert side is not None, "a change has at least one side"
            file = (files.new if change.new else files.old) if files else None
            found.append(
                Finding(
                    page,
                    change,
                    fingerprint,
                    options.acknowledged.get(fingerprint),
                    file or page.path,
                    side,
                )
            )
    return found


def headline(change: Change) -> str:
    """``normative strengthened (SHOULD → MUST)``, ``editorial modified``."""
    text = f"{change.change_class.value} {change.kind.value}"
    if change.change_class is ChangeClass.NORMATIVE:
        text += f" ({keyword_summary(change)})"
    return text


def detail_lines(finding: Finding) -> list[str]:
    """A plain-text account of a finding: section, old and new text, fingerprint, acknowledgement."""
    change = finding.change
    lines = []
    if change.section:
        lines.append("section: " + section_path(change))
    if change.old is not None:
        lines.append(f"old (line {change.old.line}): {shorten(change.old.text)}")
    if change.new is not None:
        lines.append(f"new (line {change.new.line}): {shorten(change.new.text)}")
    if finding.acknowledged is not None:
        lines.append(f"acknowledged: {finding.acknowledged}")
    lines.append(f"fingerprint: {finding.fingerprint}")
    return lines
