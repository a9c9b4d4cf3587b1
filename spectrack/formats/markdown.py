"""``--format markdown``: a summary for a pull-request comment or a GitHub job summary.

A table of the pages that changed and their verdicts, then every normative change old → new
(editorial ones folded away). Spec text is untrusted: it is escaped so that it renders as text —
no markup, no HTML, no mentions — and the summary is cut to a size limit with a note saying so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TextIO

from spectrack.acks import page_verdict, report_verdict
from spectrack.formats.findings import Finding, findings, headline
from spectrack.formats.options import FormatOptions
from spectrack.formats.text import MAX_TEXT, section_path, shown
from spectrack.model import ChangeClass, Report, Side

COMMENT_LIMIT = 65_536
"""GitHub's limit on a comment body (characters; counted here in UTF-8 bytes, which is stricter)."""

MARKER = "<!-- spectrack-report -->"
"""First line of every summary, so that a workflow can find and update its earlier comment."""

_NOTE_RESERVE = 600
"""Bytes kept free for the note that says the summary was cut."""

_WHITE_SPACE = re.compile(r"\s+")
_PUNCTUATION = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~&@:$])")


def escape(text: str) -> str:
    """Untrusted text as Markdown that renders as the same text, on one line.

    Every ASCII punctuation character that Markdown, HTML, math or GitHub's autolinking could act
    on is backslash-escaped, and a word joiner after ``@`` keeps a handle from becoming a mention.
    """
    return _escaped_run(text).strip()


def _escaped_run(text: str) -> str:
    """`escape` of a piece of a line: its white space is one space, at its ends too, and each
    other control character U+FFFD, as in the text report."""
    one_line = shown(_WHITE_SPACE.sub(" ", text))
    return _PUNCTUATION.sub(r"\\\1", one_line).replace("\\@", "\\@\u2060")


def _emphasized(side: Side) -> str:
    """The side's text escaped, with its BCP 14 keywords in bold."""
    return "".join(
        f"**{_escaped_run(run)}**" if keyword else _escaped_run(run)
        for run, keyword in side.runs(MAX_TEXT)
    ).strip()


def _change_item(finding: Finding) -> str:
    change = finding.change
    where = f"{escape(finding.file)}:{finding.side.line}"
    parts = [f"**{where}**", escape(headline(change))]
    if change.section:
        parts.append("_" + escape(section_path(change)) + "_")
    parts.append(f"`{finding.fingerprint}`")
    lines = ["- " + " · ".join(parts)]
    if change.old is not None:
        lines.append(f"  - old: {_emphasized(change.old)}")
    if change.new is not None:
        lines.append(f"  - new: {_emphasized(change.new)}")
    if finding.acknowledged is not None:
        lines.append(f"  - ✓ acknowledged: {escape(finding.acknowledged)}")
    return "\n".join(lines) + "\n"


def _page_rows(report: Report, options: FormatOptions) -> list[str]:
    rows = []
    for page in report.pages:
        if not page.changes:
            continue
        verdict = page_verdict(page, options.acknowledged)
        counts = {change_class: 0 for change_class in ChangeClass}
        for change in page.changes:
            counts[change.change_class] += 1
        cells = [
            escape(page.path),
            page.status.value,
            f"**{verdict}**" if verdict == ChangeClass.NORMATIVE.value else verdict,
            *(str(counts[change_class]) for change_class in reversed(ChangeClass)),
        ]
        rows.append("| " + " | ".join(cells) + " |\n")
    return rows


def _headline(report: Report, options: FormatOptions, found: Sequence[Finding]) -> str:
    verdict = report_verdict(report, options.acknowledged)
    counts = report.counts
    changed = sum(1 for page in report.pages if page.changes)
    numbers = ", ".join(f"{counts[name]} {name}" for name in counts)
    acknowledged = sum(1 for finding in found if finding.acknowledged is not None)
    tail = f", {acknowledged} acknowledged" if acknowledged else ""
    return (
        f"{MARKER}\n### spectrack: {verdict}\n\n"
        f"{changed} of {len(report.pages)} pages changed · {numbers}{tail}\n\n"
    )


def summary_chunks(report: Report, options: FormatOptions, notes: Sequence[str] = ()) -> list[str]:
    """The summary in pieces that can each be left out whole when space runs short."""
    found = findings(report, options)
    chunks = [_headline(report, options, found)]
    chunks.extend(f"> {note}\n\n" for note in notes)
    rows = _page_rows(report, options)
    if rows:
        chunks.append(
            "| Page | Status | Verdict | Normative | Editorial | Formatting |\n"
            "| --- | --- | --- | ---: | ---: | ---: |\n"
        )
        chunks.extend(rows)
    for change_class, title, folded in (
        (ChangeClass.NORMATIVE, "Normative changes", False),
        (ChangeClass.EDITORIAL, "Editorial changes", True),
        (ChangeClass.FORMATTING, "Formatting changes", True),
    ):
        items = [f for f in found if f.change.change_class is change_class]
        if not items:
            continue
        if folded:
            chunks.append(f"\n<details><summary>{title} ({len(items)})</summary>\n\n")
        else:
            chunks.append(f"\n#### {title} ({len(items)})\n\n")
        chunks.extend(_change_item(item) for item in items)
        if folded:
            chunks.append("\n</details>\n")
    return chunks


def fit(chunks: Sequence[str], limit: int) -> str:
    """Join the chunks, leaving out the last ones (with a note) when they exceed ``limit`` bytes."""
    sizes = [len(chunk.encode("utf-8", "replace")) for chunk in chunks]
    if sum(sizes) <= limit:
        return "".join(chunks)
    kept, used = [], 0
    for chunk, size in zip(chunks, sizes, strict=True):
        if used + size > limit - _NOTE_RESERVE:
            break
        kept.append(chunk)
        used += size
    left_out = len(chunks) - len(kept)
    if sum(chunk.count("<details>") - chunk.count("</details>") for chunk in kept):
        kept.append("\n</details>\n")
    kept.append(
        f"\n\n> **Summary cut short** to stay within {limit:,} bytes: {left_out} more entries "
        "are left out. The job log and `--format json` have every change.\n"
    )
    return "".join(kept)


def render(report: Report, options: FormatOptions, limit: int, notes: Sequence[str] = ()) -> str:
    """The summary, at most ``limit`` bytes of UTF-8."""
    return fit(summary_chunks(report, options, notes), limit)


def write(report: Report, stream: TextIO, options: FormatOptions) -> None:
    stream.write(render(report, options, COMMENT_LIMIT))
