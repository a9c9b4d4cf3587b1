"""``--format sarif``: SARIF 2.1.0 for code scanning.

One rule per class and kind of change (``normative/strengthened``), one result per change with a
repository-relative location and region, and a ``partialFingerprints`` entry that stays the same
while only line numbers move, so code scanning recognises a finding across runs. Acknowledged
changes carry an accepted external suppression with its reason. Formatting changes are included
only with ``--verbose``.
"""

from __future__ import annotations

import json
from importlib.metadata import PackageNotFoundError, version
from typing import Any, TextIO
from urllib.parse import quote

from spectrack.formats.findings import Finding, detail_lines, findings, headline
from spectrack.formats.options import FormatOptions
from spectrack.model import ChangeClass, ChangeKind, Report

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
FINGERPRINT_KEY = "spectrackChange/v1"

_LEVEL = {
    ChangeClass.NORMATIVE: "error",
    ChangeClass.EDITORIAL: "warning",
    ChangeClass.FORMATTING: "note",
}
_CLASS_TEXT = {
    ChangeClass.NORMATIVE: "A requirement changed",
    ChangeClass.EDITORIAL: "The wording changed but no requirement did",
    ChangeClass.FORMATTING: "Only the formatting changed",
}
_KIND_TEXT = {
    ChangeKind.ADDED: "a sentence was added",
    ChangeKind.REMOVED: "a sentence was removed",
    ChangeKind.MODIFIED: "a sentence was reworded",
    ChangeKind.STRENGTHENED: "a BCP 14 keyword became stronger (MAY → SHOULD → MUST)",
    ChangeKind.WEAKENED: "a BCP 14 keyword became weaker, or lowercase",
    ChangeKind.MOVED: "a block moved without change",
    ChangeKind.REFORMATTED: "the markup changed, not the text",
}


def rule_id(change_class: ChangeClass, kind: ChangeKind) -> str:
    return f"{change_class.value}/{kind.value}"


def _tool_version() -> str:
    try:
        return version("spectrack")
    except PackageNotFoundError:
        return "0+unknown"


def _rule(change_class: ChangeClass, kind: ChangeKind) -> dict[str, Any]:
    text = f"{_CLASS_TEXT[change_class]}: {_KIND_TEXT[kind]}."
    return {
        "id": rule_id(change_class, kind),
        "name": change_class.value.title() + kind.value.title(),
        "shortDescription": {"text": text},
        "defaultConfiguration": {"level": _LEVEL[change_class]},
        "properties": {"tags": ["spectrack", change_class.value]},
    }


def _result(finding: Finding, rule_index: int) -> dict[str, Any]:
    change = finding.change
    result: dict[str, Any] = {
        "ruleId": rule_id(change.change_class, change.kind),
        "ruleIndex": rule_index,
        "level": _LEVEL[change.change_class],
        "message": {"text": "\n".join([headline(change), *detail_lines(finding)])},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {
                        "uri": quote(finding.file, errors="surrogateescape"),
                        "uriBaseId": "%SRCROOT%",
                    },
                    "region": {
                        "startLine": finding.side.line,
                        "endLine": max(finding.side.end_line, finding.side.line),
                    },
                }
            }
        ],
        "partialFingerprints": {FINGERPRINT_KEY: finding.fingerprint},
        "properties": {
            "page": finding.page.path,
            "section": list(change.section),
            "oldKeywords": list(change.old.keywords) if change.old else [],
            "newKeywords": list(change.new.keywords) if change.new else [],
        },
    }
    if finding.acknowledged is not None:
        result["suppressions"] = [
            {"kind": "external", "status": "accepted", "justification": finding.acknowledged}
        ]
    return result


def sarif_dict(report: Report, options: FormatOptions) -> dict[str, Any]:
    found = findings(report, options)
    kinds = sorted(
        {(f.change.change_class, f.change.kind) for f in found},
        key=lambda pair: (-pair[0].rank, list(ChangeKind).index(pair[1])),
    )
    index = {pair: number for number, pair in enumerate(kinds)}
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "spectrack",
                        "version": _tool_version(),
                        "rules": [_rule(*pair) for pair in kinds],
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": [
                    _result(f, index[(f.change.change_class, f.change.kind)]) for f in found
                ],
            }
        ],
    }


def write(report: Report, stream: TextIO, options: FormatOptions) -> None:
    json.dump(sarif_dict(report, options), stream, ensure_ascii=False, indent=2)
    stream.write("\n")
