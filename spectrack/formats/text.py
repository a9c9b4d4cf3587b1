"""``--format text``: a report for people, coloured on a terminal.

Pages with changes come in order; inside a page normative changes come first with the old and new
sentence and the keyword change highlighted, then editorial changes, then formatting changes in
one summary line (one by one with ``--verbose``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection
from typing import TextIO

from rich.console import Console
from rich.text import Text

from spectrack.acks import report_verdict
from spectrack.fingerprints import page_fingerprints
from spectrack.formats.options import FormatOptions
from spectrack.model import Change, ChangeClass, ChangeKind, PageReport, Report, Side, elided
from spectrack.pages import BIDI_CONTROLS

MAX_TEXT = 400
"""Longest sentence shown in full; longer ones are cut in the middle."""
_CONTROL = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI_CONTROLS}]")
"""Control characters, escape included, and bidirectional embeddings, overrides and isolates:
fetched text must not steer the reader's terminal, nor turn the report's own words around."""

_STYLE = {
    "normative": "bold red",
    "editorial": "yellow",
    "formatting": "dim",
    "unchanged": "green",
}
_MARK = {ChangeClass.NORMATIVE: "!", ChangeClass.EDITORIAL: "~", ChangeClass.FORMATTING: "·"}


def shown(text: str) -> str:
    """Untrusted text as it may reach a terminal: each control character becomes U+FFFD."""
    return _CONTROL.sub("\ufffd", text)


def shown_line(text: str) -> str:
    """`shown` for what must stay on one line (a file name): a line end becomes U+FFFD too."""
    return shown(text).replace("\n", "\ufffd")


def shorten(text: str, limit: int = MAX_TEXT) -> str:
    return elided(text, limit)[0]


def section_path(change: Change) -> str:
    """The headings a change stands under, e.g. "Tools › Calling tools", cut like a sentence."""
    return shorten(" › ".join(change.section))


def keyword_summary(change: Change) -> str:
    old = " ".join(change.old.keywords) if change.old and change.old.keywords else "—"
    new = " ".join(change.new.keywords) if change.new and change.new.keywords else "—"
    return f"{old} → {new}"


def _highlighted(prefix: str, side: Side, style: str) -> Text:
    line = Text(f"      {prefix} ", style=style)
    for run, keyword in side.runs(MAX_TEXT):
        # Every line of a code block's text under the first: none starts the line as the
        # report's own lines or a CI runner's commands (``::error``) do.
        text = shown(run).replace("\n", "\n        ")
        line.append(text, style="bold reverse" if keyword else None)
    line.append(f"  (line {side.line})", style="dim")
    return line


def _change_lines(change: Change, acknowledged: bool = False) -> list[Text]:
    style = _STYLE[change.change_class.value]
    header = Text(f"  {_MARK[change.change_class]} ", style=style)
    header.append(f"{change.change_class.value} {change.kind.value}", style=style)
    if change.change_class is ChangeClass.NORMATIVE:
        header.append(f"  {keyword_summary(change)}", style="bold")
    if change.section:
        header.append("  " + shown(section_path(change)), style="cyan")
    if acknowledged:
        header.append("  ✓ acknowledged", style="green")
    lines = [header]
    if change.old is not None:
        lines.append(_highlighted("-", change.old, "red"))
    if change.new is not None:
        lines.append(_highlighted("+", change.new, "green"))
    if change.kind is ChangeKind.MOVED:
        lines.append(Text("      (the same words in another place)", style="dim"))
    elif change.old and change.new and change.old.text == change.new.text:
        lines.append(Text("      (same words: a link target or the markup changed)", style="dim"))
    return lines


def _formatting_summary(changes: list[Change]) -> Text:
    kinds = Counter(change.kind.value for change in changes)
    detail = ", ".join(f"{kind} {count}" for kind, count in sorted(kinds.items()))
    noun = "change" if len(changes) == 1 else "changes"
    return Text(
        f"  · {len(changes)} formatting {noun} ({detail}); --verbose lists them", style="dim"
    )


def page_lines(
    page: PageReport, verbose: bool, acknowledged: Collection[str] = frozenset()
) -> list[Text]:
    verdict = page.verdict
    header = Text(shown_line(page.path), style="bold")
    header.append(f"  {page.status.value}  ")
    header.append(verdict.upper(), style=_STYLE[verdict])
    header.append(f"  +{page.lines_added} −{page.lines_removed}", style="dim")
    lines = [header]
    marks = [fingerprint in acknowledged for fingerprint in page_fingerprints(page)]
    for change_class in (ChangeClass.NORMATIVE, ChangeClass.EDITORIAL):
        for change, mark in zip(page.changes, marks, strict=True):
            if change.change_class is change_class:
                lines.extend(_change_lines(change, mark))
    formatting = [
        (change, mark)
        for change, mark in zip(page.changes, marks, strict=True)
        if change.change_class is ChangeClass.FORMATTING
    ]
    if formatting and verbose:
        for change, mark in formatting:
            lines.extend(_change_lines(change, mark))
    elif formatting:
        lines.append(_formatting_summary([change for change, _ in formatting]))
    return lines


class _Console(Console):
    def on_broken_pipe(self) -> None:
        # rich would exit with status 1 here, which reads as "findings": let the caller decide.
        self.quiet = True
        raise BrokenPipeError


def write(report: Report, stream: TextIO, options: FormatOptions) -> None:
    console = _Console(
        file=stream,
        force_terminal=options.color,
        no_color=options.color is False,
        highlight=False,
        soft_wrap=True,
    )
    counts = report.counts
    summary = Text("spectrack: ")
    summary.append(report.verdict.upper(), style=_STYLE[report.verdict])
    changed = sum(1 for page in report.pages if page.changes)
    summary.append(
        f" · {changed} of {len(report.pages)} pages changed · "
        + ", ".join(f"{counts[name]} {name}" for name in counts)
    )
    if options.acknowledged:
        # What --fail-on and the other formats go by: the changes left open.
        still_open = report_verdict(report, options.acknowledged)
        summary.append(f" · {len(options.acknowledged)} acknowledged, open: ")
        summary.append(still_open.upper(), style=_STYLE[still_open])
    console.print(summary)
    for page in report.pages:
        if page.changes:
            console.print()
            for line in page_lines(page, options.verbose, options.acknowledged):
                console.print(line)
