from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from junitparser import Failure, JUnitXml, SystemOut

from spectrack.diff import diff_texts
from spectrack.fingerprints import page_fingerprints
from spectrack.formats import FORMATS, FormatOptions
from spectrack.model import ChangeKind, Report
from tests.ci_support import GLOSSARY, LANTERN_V1, LANTERN_V2

EDITED_GLOSSARY = GLOSSARY.replace("any device", "any small device")


def report() -> Report:
    return Report(
        (
            diff_texts(GLOSSARY, EDITED_GLOSSARY, "spec/glossary.md"),
            diff_texts(LANTERN_V1, LANTERN_V2, "spec/lantern.md"),
            diff_texts(GLOSSARY, GLOSSARY, "spec/unchanged.md"),
        )
    )


def junit(tmp_path: Path, subject: Report, **option_values: object) -> JUnitXml:
    stream = io.StringIO()
    FORMATS["junit"](subject, stream, FormatOptions(**option_values))  # type: ignore[arg-type]
    path = tmp_path / "report.xml"
    path.write_text(stream.getvalue(), encoding="utf-8")
    return JUnitXml.fromfile(str(path))


def outcome(xml: JUnitXml) -> dict[str, str]:
    states = {}
    for suite in xml:
        for case in suite:
            if any(isinstance(result, Failure) for result in case.result):
                states[case.name] = "failed"
            else:
                states[case.name] = "passed"
    return states


@pytest.mark.parametrize(
    ("fail_on", "expected"),
    [
        ("normative", {"spec/glossary.md": "passed", "spec/lantern.md": "failed"}),
        ("editorial", {"spec/glossary.md": "failed", "spec/lantern.md": "failed"}),
        ("never", {"spec/glossary.md": "passed", "spec/lantern.md": "passed"}),
    ],
)
def test_one_case_per_page_failing_at_the_threshold(
    tmp_path: Path, fail_on: str, expected: dict[str, str]
) -> None:
    xml = junit(tmp_path, report(), fail_on=fail_on)
    assert outcome(xml) == {**expected, "spec/unchanged.md": "passed"}
    failures = sum(1 for state in expected.values() if state == "failed")
    suite = next(iter(xml))
    assert (suite.tests, suite.failures, suite.errors) == (3, failures, 0)


def test_failure_text_names_changes_and_passing_pages_list_theirs(tmp_path: Path) -> None:
    subject = report()
    xml = junit(tmp_path, subject, fail_on="normative")
    cases = {case.name: case for suite in xml for case in suite}
    failure = next(r for r in cases["spec/lantern.md"].result if isinstance(r, Failure))
    assert failure.type == "normative"
    assert failure.message == "normative reaches --fail-on normative (1 normative, 1 editorial)"
    assert failure.text.index("normative strengthened") < failure.text.index("editorial modified")
    assert "spec/lantern.md:7: normative strengthened (SHOULD → MUST)" in failure.text
    for fingerprint in page_fingerprints(subject.pages[1])[1:]:
        assert fingerprint in failure.text
    assert "editorial modified" in (cases["spec/glossary.md"].system_out or "")
    assert not any(isinstance(r, SystemOut) for r in cases["spec/unchanged.md"].result)


def test_a_page_failed_by_formatting_changes_names_them(tmp_path: Path) -> None:
    rewrapped = GLOSSARY.replace("device that", "device\nthat")
    assert rewrapped != GLOSSARY
    subject = Report((diff_texts(GLOSSARY, rewrapped, "spec/glossary.md"),))
    xml = junit(tmp_path, subject, fail_on="formatting")
    case = next(case for suite in xml for case in suite)
    failure = next(r for r in case.result if isinstance(r, Failure))
    assert failure.message == "formatting reaches --fail-on formatting (1 formatting)"
    assert "spec/glossary.md:" in failure.text and "formatting reformatted" in failure.text


def test_acknowledged_changes_let_the_page_pass(tmp_path: Path) -> None:
    subject = report()
    page = subject.pages[1]
    target = next(
        p
        for c, p in zip(page.changes, page_fingerprints(page), strict=True)
        if c.kind is ChangeKind.STRENGTHENED
    )
    xml = junit(tmp_path, subject, fail_on="normative", acknowledged={target: "Reviewed"})
    assert outcome(xml)["spec/lantern.md"] == "passed"
    lantern = next(case for suite in xml for case in suite if case.name == "spec/lantern.md")
    assert "acknowledged: Reviewed" in (lantern.system_out or "")


def test_characters_xml_cannot_carry_are_replaced(tmp_path: Path) -> None:
    old = "# Lamps\n\nLamps glow.\n"
    new = "# Lamps\n\nLamps glow \x0b brightly \x01.\n"
    stream = io.StringIO()
    FORMATS["junit"](Report((diff_texts(old, new, "lamps.md"),)), stream, FormatOptions())
    root = ET.fromstring(stream.getvalue())
    assert root.tag == "testsuites"
    assert "\ufffd" in "".join(root.itertext())
