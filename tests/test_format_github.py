from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

from spectrack.comparison import PageFiles
from spectrack.diff import diff_texts
from spectrack.fingerprints import page_fingerprints
from spectrack.formats import FORMATS, FormatOptions
from spectrack.formats.findings import Finding, detail_lines, findings, headline
from spectrack.formats.github import (
    ANNOTATION_LIMIT,
    SUMMARY_LIMIT,
    select,
    write_job_summary,
    write_step_outputs,
)
from spectrack.model import ChangeClass, ChangeKind, Report
from tests.ci_support import LANTERN_V1, LANTERN_V2
from tests.github_runner import Command, read

FORGED = [
    "::add-mask::The lantern secret MUST stay hidden.",
    "::error::Receivers MUST treat this line as a forged error.",
    "##[add-mask]Older masks MAY appear in the middle of text.",
    "::warning file=x.md::A forged warning SHOULD never show.",
]

HOSTILE_V2 = (
    LANTERN_V2
    + "\n## ::notice::Forged, section\n\n"
    + "".join(f"{line}\n\n" for line in FORGED)
    + "A 100% sure, final: note MAY follow.\n"
)

MANY_OLD = "# Lamps\n\n" + "".join(f"Lamp {n} MAY be lit at dusk.\n\n" for n in range(1, 8))
MANY_NEW = (
    "# Lamps\n\n"
    + "".join(
        f"Lamp {n} MUST be lit at dusk.\n\n" if n <= 3 else f"Lamp {n} MAY be lit at dusk.\n\n"
        for n in range(1, 6)
    )
    + "".join(
        f"Signal number {n} MAY blink in {colour} colours.\n\n"
        for n, colour in enumerate(
            ["red", "green", "blue", "amber", "white", "violet", "orange", "teal"], start=1
        )
    )
)


def tokens(*values: str) -> Iterator[str]:
    yield from values
    raise AssertionError("the writer asked for more tokens than expected")


def render(report: Report, **option_values: object) -> tuple[str, FormatOptions]:
    stream = io.StringIO()
    options = FormatOptions(**option_values)  # type: ignore[arg-type]
    FORMATS["github"](report, stream, options)
    return stream.getvalue(), options


def expected_command(finding: Finding) -> Command:
    """What the runner must read back for a finding: the writer's escaping must be lossless."""
    state = "acknowledged " if finding.acknowledged is not None else ""
    if finding.acknowledged is not None:
        name = "notice"
    else:
        name = {"normative": "error", "editorial": "warning", "formatting": "notice"}[
            finding.change.change_class.value
        ]
    return Command(
        name,
        {
            "file": finding.file,
            "line": str(finding.side.line),
            "endLine": str(max(finding.side.line, finding.side.end_line)),
            "title": f"spectrack: {state}{headline(finding.change)}",
        },
        "\n".join(
            [
                *detail_lines(finding),
                f'acknowledge with: spectrack ack {finding.fingerprint} --reason "…"',
            ]
        ),
    )


def hostile_report() -> Report:
    return Report((diff_texts(LANTERN_V1, HOSTILE_V2, "spec/lantern, 100%: v2.md"),))


def test_every_annotation_round_trips_through_the_runner_rules() -> None:
    report = hostile_report()
    next_token = tokens("feedc0de" * 4).__next__
    output, options = render(report, stop_token=next_token, verbose=True)
    log = read(output)
    annotations = [c for c in log.commands if c.name in ("error", "warning", "notice")]
    chosen, _ = select(findings(report, options))
    assert annotations == [expected_command(finding) for finding in chosen]
    assert {c.name for c in annotations} == {"error", "warning", "notice"}
    assert any("," in c.properties["file"] and "%" in c.properties["file"] for c in annotations)


def test_forged_commands_in_spec_text_never_run() -> None:
    report = hostile_report()
    output, _ = render(report, stop_token=tokens("0123abcd" * 4).__next__)
    log = read(output)
    names = [command.name for command in log.commands]
    assert names.count("stop-commands") == 1
    assert names[-1] == "0123abcd" * 4, "the fence is closed again"
    assert "add-mask" not in names
    for command in log.commands:
        if command.name in ("error", "warning", "notice"):
            assert command.properties["file"] == "spec/lantern, 100%: v2.md"
            assert command.properties["title"].startswith("spectrack: ")
    assert not any(c.name == "warning" and c.properties.get("file") == "x.md" for c in log.commands)
    assert log.plain == [""], "every line is a command or fenced"
    for forged in FORGED:
        assert any(line.lstrip(" +-").startswith(forged) for line in log.fenced), forged
        # Outside the fence a forged sentence only ever sits inside our own annotations' data.
        outside = [line for line in log.command_lines if forged in line]
        assert outside, "the forged sentences are annotated"
        assert all(line.startswith(("::error file=", "::warning file=")) for line in outside)


def test_the_fence_token_never_occurs_in_the_fenced_text() -> None:
    taken = "lantern"
    report = Report((diff_texts(LANTERN_V1, LANTERN_V2, "spec/lantern.md"),))
    output, _ = render(report, stop_token=tokens(taken, "c0ffee" * 5).__next__)
    assert taken in output.lower()
    log = read(output)
    assert log.commands[-1].name == "c0ffee" * 5
    assert not any(c.data == taken for c in log.commands)


def test_the_most_important_changes_get_the_ten_annotations() -> None:
    report = Report((diff_texts(MANY_OLD, MANY_NEW, "spec/lamps.md"),))
    output, _ = render(report, stop_token=tokens("ab" * 16).__next__)
    errors = [c for c in read(output).commands if c.name == "error"]
    kinds = [c.kind for c in report.pages[0].changes if c.change_class is ChangeClass.NORMATIVE]
    assert (kinds.count(ChangeKind.STRENGTHENED), kinds.count(ChangeKind.REMOVED)) == (3, 2)
    assert len(kinds) > ANNOTATION_LIMIT
    assert "3 normative changes are not annotated" in "\n".join(read(output).fenced)
    titles = [c.properties["title"] for c in errors]
    # Strength changes and removals first, the strongest keyword first, then additions.
    assert titles == (
        ["spectrack: normative strengthened (MAY → MUST)"] * 3
        + ["spectrack: normative removed (MAY → —)"] * 2
        + ["spectrack: normative added (— → MAY)"] * (ANNOTATION_LIMIT - 5)
    )


def test_step_summary_and_outputs_are_appended(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    outputs = tmp_path / "outputs"
    summary.write_text("earlier step content\n")
    outputs.write_text("other=1\n")
    report = Report((diff_texts(MANY_OLD, MANY_NEW, "spec/lamps.md"),))
    environ = {"GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(outputs)}
    _, options = render(report, environ=environ, stop_token=tokens("cd" * 16).__next__)
    assert outputs.read_text() == "other=1\n", "the step outputs are written once per command"
    assert summary.read_text() == "earlier step content\n", "and so is the job summary"
    write_job_summary(report, options)
    write_step_outputs(report, options)
    text = summary.read_text()
    assert text.startswith("earlier step content\n<!-- spectrack-report -->\n")
    left_out = sum(1 for c in report.pages[0].changes if c.change_class is ChangeClass.NORMATIVE)
    left_out -= ANNOTATION_LIMIT
    assert f"{left_out} normative changes are not annotated" in text
    assert "| spec/lamps\\.md | modified | **normative** |" in text
    values = dict(line.split("=", 1) for line in outputs.read_text().splitlines())
    assert values == {
        "other": "1",
        "verdict": "normative",
        "normative_count": str(report.counts["normative"]),
        "editorial_count": str(report.counts["editorial"]),
        "formatting_count": str(report.counts["formatting"]),
        "acknowledged_count": "0",
    }


def test_acknowledged_changes_become_notices_and_leave_the_counts(tmp_path: Path) -> None:
    report = Report((diff_texts(LANTERN_V1, LANTERN_V2, "spec/lantern.md"),))
    page = report.pages[0]
    strengthened = next(
        p
        for c, p in zip(page.changes, page_fingerprints(page), strict=True)
        if c.kind is ChangeKind.STRENGTHENED
    )
    outputs = tmp_path / "outputs"
    output, options = render(
        report,
        acknowledged={strengthened: "Reviewed with the lamp team"},
        environ={"GITHUB_OUTPUT": str(outputs)},
        stop_token=tokens("ef" * 16).__next__,
    )
    write_step_outputs(report, options)
    commands = read(output).commands
    assert not [c for c in commands if c.name == "error"]
    notice = next(c for c in commands if c.name == "notice")
    assert notice.properties["title"].startswith("spectrack: acknowledged normative strengthened")
    assert "acknowledged: Reviewed with the lamp team" in notice.data
    values = dict(line.split("=", 1) for line in outputs.read_text().splitlines())
    assert values["verdict"] == "editorial"
    assert values["normative_count"] == "0"
    assert values["acknowledged_count"] == "1"


def test_formatting_changes_are_annotated_only_when_verbose() -> None:
    old = "# Lamps\n\nLamps   glow\nsoftly.\n"
    new = "# Lamps\n\nLamps glow softly.\n"
    report = Report((diff_texts(old, new, "lamps.md"),))
    assert report.verdict == "formatting"
    quiet, _ = render(report, stop_token=tokens("aa" * 16).__next__)
    loud, _ = render(report, verbose=True, stop_token=tokens("bb" * 16).__next__)
    assert not [c for c in read(quiet).commands if c.name == "notice"]
    assert [c.name for c in read(loud).commands if c.name == "notice"] == ["notice"]


def test_removed_lines_point_at_the_old_file() -> None:
    old = "# Lamps\n\nIntro.\n\nLamps MUST glow.\n"
    new = "# Lamps\n\nIntro.\n"
    report = Report((diff_texts(old, new, "new/lamps.md"),))
    locations = {"new/lamps.md": PageFiles("old/lamps.md", "new/lamps.md")}
    output, _ = render(report, locations=locations, stop_token=tokens("99" * 16).__next__)
    error = next(c for c in read(output).commands if c.name == "error")
    assert (error.properties["file"], error.properties["line"]) == ("old/lamps.md", "5")


def test_a_full_summary_file_is_cut_to_the_limit(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_bytes(b"x" * (SUMMARY_LIMIT - 20_000))
    sentence = "Beacon {n} MUST repeat the colour code " + "and the long call sign " * 20 + "."
    new = "# Beacons\n\n" + "".join(sentence.format(n=n) + "\n\n" for n in range(200))
    report = Report((diff_texts(None, new, "spec/beacons.md"),))
    _, options = render(
        report,
        environ={"GITHUB_STEP_SUMMARY": str(summary)},
        stop_token=tokens("77" * 16).__next__,
    )
    write_job_summary(report, options)
    size = summary.stat().st_size
    assert SUMMARY_LIMIT - 20_000 < size <= SUMMARY_LIMIT
    assert "Summary cut short" in summary.read_text()
