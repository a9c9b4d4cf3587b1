from __future__ import annotations

import io
import json
from typing import Any

from jsonschema import FormatChecker
from jsonschema.validators import validator_for

from spectrack.comparison import PageFiles
from spectrack.diff import diff_texts
from spectrack.fingerprints import page_fingerprints
from spectrack.formats import FORMATS, FormatOptions
from spectrack.formats.sarif import FINGERPRINT_KEY
from spectrack.model import ChangeKind, Report
from tests.ci_support import LANTERN_V1, LANTERN_V2
from tests.conftest import shared_path

REMOVAL_OLD = "# Lamps\n\nIntro.\n\nLamps MUST glow.\n"
REMOVAL_NEW = "# Lamps\n\nIntro.\n"


def sarif_schema() -> dict[str, Any]:
    schema = shared_path("schemas/sarif-schema-2.1.0.json")
    loaded: dict[str, Any] = json.loads(schema.read_text(encoding="utf-8"))
    return loaded


def sarif(report: Report, **option_values: Any) -> dict[str, Any]:
    stream = io.StringIO()
    FORMATS["sarif"](report, stream, FormatOptions(**option_values))
    loaded: dict[str, Any] = json.loads(stream.getvalue())
    return loaded


def lantern_report(prefix: str = "") -> Report:
    return Report(
        (
            diff_texts(prefix + LANTERN_V1, prefix + LANTERN_V2, "spec/lantern page.md"),
            diff_texts(REMOVAL_OLD, REMOVAL_NEW, "spec/lamps.md"),
        )
    )


def test_sarif_output_is_valid_sarif_2_1_0() -> None:
    schema = sarif_schema()
    report = lantern_report()
    page = report.pages[0]
    acknowledged = {page_fingerprints(page)[1]: "Reviewed"}
    for document in (sarif(report), sarif(report, verbose=True, acknowledged=acknowledged)):
        validator = validator_for(schema)(schema, format_checker=FormatChecker())
        errors = sorted(validator.iter_errors(document), key=str)
        assert not errors, errors[0].message
        assert document["runs"][0]["results"], "the report has findings"
    document["runs"][0]["results"][0]["level"] = "severe"
    assert list(validator.iter_errors(document)), "the schema does catch a bad level"


def test_rules_results_and_locations() -> None:
    locations = {"spec/lamps.md": PageFiles("before/lamps.md", "after/lamps.md")}
    run = sarif(lantern_report(), locations=locations)["runs"][0]
    rules = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    assert rules == ["normative/removed", "normative/strengthened", "editorial/modified"]
    results = run["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [
        ("normative/strengthened", "error"),
        ("editorial/modified", "warning"),
        ("normative/removed", "error"),
    ]
    for result in results:
        assert rules[result["ruleIndex"]] == result["ruleId"]
    strengthened, _, removed = (r["locations"][0]["physicalLocation"] for r in results)
    assert strengthened["artifactLocation"]["uri"] == "spec/lantern%20page.md"
    assert strengthened["region"] == {"startLine": 7, "endLine": 7}
    assert removed["artifactLocation"]["uri"] == "before/lamps.md"
    assert removed["region"]["startLine"] == 5


def test_partial_fingerprints_survive_moved_lines() -> None:
    preamble = "# Preface\n\nAdded above it all.\n\n"
    plain = sarif(lantern_report())["runs"][0]["results"]
    shifted = sarif(lantern_report(preamble))["runs"][0]["results"]
    assert [r["locations"] for r in plain] != [r["locations"] for r in shifted]
    assert [r["partialFingerprints"][FINGERPRINT_KEY] for r in plain] == [
        r["partialFingerprints"][FINGERPRINT_KEY] for r in shifted
    ]


def test_acknowledged_results_carry_an_accepted_suppression() -> None:
    report = lantern_report()
    page = report.pages[0]
    target = next(
        p
        for c, p in zip(page.changes, page_fingerprints(page), strict=True)
        if c.kind is ChangeKind.STRENGTHENED
    )
    results = sarif(report, acknowledged={target: "Reviewed with the lamp team"})["runs"][0][
        "results"
    ]
    suppressed = [r for r in results if "suppressions" in r]
    assert [r["partialFingerprints"][FINGERPRINT_KEY] for r in suppressed] == [target]
    assert suppressed[0]["suppressions"] == [
        {"kind": "external", "status": "accepted", "justification": "Reviewed with the lamp team"}
    ]
