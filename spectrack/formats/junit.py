"""``--format junit``: JUnit XML, for CI systems that show test reports (GitLab, Jenkins, …).

One test case per page. A page fails when its verdict — counting only changes that were not
acknowledged — reaches ``--fail-on``; its changes are the failure's text. A page with changes
that do not reach it passes, and lists them in ``system-out``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict
from dataclasses import replace
from typing import TextIO

from spectrack.acks import page_verdict
from spectrack.exitcodes import fails
from spectrack.formats.findings import Finding, detail_lines, findings, headline, importance
from spectrack.formats.options import FormatOptions
from spectrack.model import ChangeClass, PageReport, Report

SUITE_NAME = "spectrack"

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """Text with the characters XML 1.0 cannot carry replaced by U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def _account(found: list[Finding]) -> str:
    blocks = []
    for finding in sorted(found, key=importance):
        where = f"{finding.file}:{finding.side.line}"
        lines = [
            f"{where}: {headline(finding.change)}",
            *("  " + line for line in detail_lines(finding)),
        ]
        blocks.append("\n".join(lines))
    return xml_text("\n\n".join(blocks) + "\n")


def _testcase(page: PageReport, found: list[Finding], options: FormatOptions) -> ET.Element:
    case = ET.Element("testcase", name=xml_text(page.path), classname=SUITE_NAME, time="0")
    verdict = page_verdict(page, options.acknowledged)
    if fails(verdict, options.fail_on):
        open_classes = Counter(f.change.change_class.value for f in found if f.acknowledged is None)
        counts = ", ".join(
            f"{open_classes[c.value]} {c.value}"
            for c in reversed(ChangeClass)
            if open_classes[c.value]
        )
        message = f"{verdict} reaches --fail-on {options.fail_on} ({counts})"
        failure = ET.SubElement(case, "failure", message=message, type=verdict)
        failure.text = _account(found)
    elif found:
        ET.SubElement(case, "system-out").text = _account(found)
    return case


def junit_tree(report: Report, options: FormatOptions) -> ET.Element:
    by_page: defaultdict[str, list[Finding]] = defaultdict(list)
    # A page failed by its formatting changes lists them, --verbose or not.
    listed = replace(options, verbose=options.verbose or options.fail_on == "formatting")
    for finding in findings(report, listed):
        by_page[finding.page.path].append(finding)
    cases = [_testcase(page, by_page[page.path], options) for page in report.pages]
    failures = sum(1 for case in cases if case.find("failure") is not None)
    counts = {
        "tests": str(len(cases)),
        "failures": str(failures),
        "errors": "0",
        "skipped": "0",
        "time": "0",
    }
    root = ET.Element("testsuites", {"name": SUITE_NAME, **counts})
    suite = ET.SubElement(root, "testsuite", {"name": SUITE_NAME, **counts})
    suite.extend(cases)
    return root


def write(report: Report, stream: TextIO, options: FormatOptions) -> None:
    tree = ET.ElementTree(junit_tree(report, options))
    ET.indent(tree)
    tree.write(stream, encoding="unicode", xml_declaration=True)
    stream.write("\n")
