"""``--format github``: workflow commands for GitHub Actions.

- An ``::error`` annotation per normative change, ``::warning`` per editorial one, ``::notice`` per
  acknowledged one and (with ``--verbose``) per formatting one, on the file and lines it concerns.
  GitHub shows at most 10 annotations per level in a step, so the most important come first
  (strength changes and removals of the strongest keywords) and the rest are counted in the
  summary.
- The readable report follows, fenced by ``::stop-commands::<token>`` … ``::<token>::``: spec text
  is fetched from elsewhere, and a line of it that reads ``::add-mask::…`` must never run as a
  workflow command. The token is random, and never one that occurs in the fenced text.
- With ``GITHUB_STEP_SUMMARY`` set, the Markdown summary is appended to it (within GitHub's 1 MiB).
- `write_step_outputs` (run once per command, whatever the format): with ``GITHUB_OUTPUT`` set,
  the step outputs ``verdict``, ``normative_count``, ``editorial_count``, ``formatting_count``
  and ``acknowledged_count`` — all counting only changes that were not acknowledged, as
  ``--fail-on`` does.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from spectrack.acks import open_counts, report_verdict
from spectrack.errors import InputError
from spectrack.formats import markdown
from spectrack.formats import text as text_format
from spectrack.formats.findings import Finding, detail_lines, findings, headline, importance
from spectrack.formats.options import FormatOptions
from spectrack.model import ChangeClass, Report

ANNOTATION_LIMIT = 10
"""Annotations of one level that GitHub shows per step."""

SUMMARY_LIMIT = 1024 * 1024
"""Bytes a step may write to ``GITHUB_STEP_SUMMARY``."""

_SMALLEST_SUMMARY = 4096
"""Below this much room left in the step summary, writing one would only show the cut note."""

_LEVEL = {
    ChangeClass.NORMATIVE: "error",
    ChangeClass.EDITORIAL: "warning",
    ChangeClass.FORMATTING: "notice",
}


def escape_data(text: str) -> str:
    """A command's message as the runner reads it back (``%``, CR and LF percent-encoded); other
    control characters become U+FFFD, as in the text report, so the log shows no escapes."""
    newlines = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text_format.shown(newlines)


def escape_property(text: str) -> str:
    """A command's property value: as a message, and ``:`` and ``,`` encoded too."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def level(finding: Finding) -> str:
    if finding.acknowledged is not None:
        return "notice"
    return _LEVEL[finding.change.change_class]


def annotation(finding: Finding) -> str:
    """One ``::error``/``::warning``/``::notice`` workflow command line."""
    state = "acknowledged " if finding.acknowledged is not None else ""
    properties = {
        "file": finding.file,
        "line": str(finding.side.line),
        "endLine": str(max(finding.side.end_line, finding.side.line)),
        "title": f"spectrack: {state}{headline(finding.change)}",
    }
    message = [
        *detail_lines(finding),
        f'acknowledge with: spectrack ack {finding.fingerprint} --reason "…"',
    ]
    joined = ",".join(f"{name}={escape_property(value)}" for name, value in properties.items())
    return f"::{level(finding)} {joined}::{escape_data(chr(10).join(message))}\n"


def select(found: Sequence[Finding]) -> tuple[list[Finding], Counter[str]]:
    """The findings to annotate, most important first, and how many of each class were not."""
    shown: Counter[str] = Counter()
    chosen = []
    left_out: Counter[str] = Counter()
    for finding in sorted(found, key=importance):
        if shown[level(finding)] < ANNOTATION_LIMIT:
            shown[level(finding)] += 1
            chosen.append(finding)
        else:
            left_out[finding.change.change_class.value] += 1
    return chosen, left_out


def fence(body: str, new_token: Callable[[], str]) -> str:
    """``body`` between ``::stop-commands::TOKEN`` and ``::TOKEN::``, with a token not in it."""
    token = new_token()
    while token in body:
        token = new_token()
    if body and not body.endswith("\n"):
        body += "\n"
    return f"::stop-commands::{token}\n{body}::{token}::\n"


def left_out_note(left_out: Counter[str]) -> str | None:
    if not left_out:
        return None
    numbers = ", ".join(
        f"{left_out[change_class.value]} {change_class.value}"
        for change_class in reversed(ChangeClass)
        if left_out[change_class.value]
    )
    return (
        f"GitHub shows at most {ANNOTATION_LIMIT} annotations of each level per step: "
        f"{numbers} changes are not annotated. The report lists them all."
    )


def outputs(report: Report, options: FormatOptions) -> dict[str, str]:
    """The step outputs, counting only changes that were not acknowledged."""
    counts = open_counts(report, options.acknowledged)
    total = sum(len(page.changes) for page in report.pages)
    values = {"verdict": report_verdict(report, options.acknowledged)}
    values.update({f"{name}_count": str(count) for name, count in counts.items()})
    values["acknowledged_count"] = str(total - sum(counts.values()))
    return values


def _append(variable: str, path: str, text: str) -> None:
    try:
        with Path(path).open("a", encoding="utf-8") as file:
            file.write(text)
    except OSError as error:
        raise InputError(f"{variable}={path}: cannot write ({error.strerror})") from None


def _room_left(path: str) -> int:
    try:
        return SUMMARY_LIMIT - Path(path).stat().st_size
    except FileNotFoundError:
        return SUMMARY_LIMIT
    except OSError as error:
        raise InputError(f"GITHUB_STEP_SUMMARY={path}: cannot read ({error.strerror})") from None


def write(report: Report, stream: TextIO, options: FormatOptions) -> None:
    chosen, left_out = select(findings(report, options))
    for finding in chosen:
        stream.write(annotation(finding))
    note = left_out_note(left_out)
    readable = io.StringIO()
    text_format.write(report, readable, replace(options, color=False))
    if note:
        readable.write(f"\n{note}\n")
    stream.write(fence(readable.getvalue(), options.stop_token))


def write_job_summary(report: Report, options: FormatOptions) -> None:
    """With ``GITHUB_STEP_SUMMARY`` set, append the report to the job summary (once per command,
    however many github reports it writes)."""
    summary_path = options.environ.get("GITHUB_STEP_SUMMARY")
    if summary_path:
        room = _room_left(summary_path)
        if room >= _SMALLEST_SUMMARY:
            note = left_out_note(select(findings(report, options))[1])
            summary = markdown.render(report, options, room, [note] if note else [])
            _append("GITHUB_STEP_SUMMARY", summary_path, summary)


def write_step_outputs(report: Report, options: FormatOptions) -> None:
    """With ``GITHUB_OUTPUT`` set, append the step outputs to it, whatever the report's format:
    a job that posts SARIF or JUnit still reads the verdict and counts from its step."""
    output_path = options.environ.get("GITHUB_OUTPUT")
    if output_path:
        lines = "".join(f"{name}={value}\n" for name, value in outputs(report, options).items())
        _append("GITHUB_OUTPUT", output_path, lines)
