"""``make eval``: score the classifier against the hand-labelled corpus pairs.

Prints verdict accuracy with a confusion matrix, alert recall and precision (an alert is a
``normative`` verdict), how many labelled strength changes were found with the right kind, and
writes every normative change found in unlabelled pairs to ``<out>/unlabelled-normative.md`` for
review, plus every wrong labelled verdict to ``<out>/mistakes.md``.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bench.corpus import Label, Pair, labels, pairs
from spectrack.diff import diff_texts
from spectrack.model import ChangeClass, PageReport

VERDICT_OF_LABEL = {
    "formatting-only": "formatting",
    "editorial": "editorial",
    "normative": "normative",
}
_WORD = re.compile(r"\w+")


def words(text: str | None) -> frozenset[str]:
    return frozenset(_WORD.findall((text or "").lower()))


def overlap(a: str | None, b: str | None) -> float:
    left, right = words(a), words(b)
    if not left or not right:
        return 0.0
    return len(left & right) / len(left | right)


@dataclass
class Evaluation:
    confusion: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(labelled verdict, predicted verdict) → pairs."""
    mistakes: list[tuple[Pair, Label, PageReport]] = field(default_factory=list)
    strength_found: int = 0
    strength_total: int = 0
    changes_matched: int = 0
    changes_total: int = 0
    unlabelled: list[tuple[Pair, PageReport]] = field(default_factory=list)

    @property
    def labelled(self) -> int:
        return sum(self.confusion.values())

    @property
    def accuracy(self) -> float:
        right = sum(n for (want, got), n in self.confusion.items() if want == got)
        return right / self.labelled if self.labelled else 0.0

    def _alerts(self) -> tuple[int, int, int]:
        true_positive = self.confusion[("normative", "normative")]
        wanted = sum(n for (want, _), n in self.confusion.items() if want == "normative")
        raised = sum(n for (_, got), n in self.confusion.items() if got == "normative")
        return true_positive, wanted, raised

    @property
    def alert_recall(self) -> float:
        hit, wanted, _ = self._alerts()
        return hit / wanted if wanted else 1.0

    @property
    def alert_precision(self) -> float:
        hit, _, raised = self._alerts()
        return hit / raised if raised else 1.0


def _match_changes(label: Label, report: PageReport, evaluation: Evaluation) -> None:
    found = [c for c in report.changes if c.change_class is ChangeClass.NORMATIVE]
    for wanted in label.normative_changes:
        evaluation.changes_total += 1
        best = max(
            found,
            key=lambda c: max(
                overlap(wanted.get("old"), c.old.text if c.old else None),
                overlap(wanted.get("new"), c.new.text if c.new else None),
            ),
            default=None,
        )
        matched = best is not None and (
            max(
                overlap(wanted.get("old"), best.old.text if best.old else None),
                overlap(wanted.get("new"), best.new.text if best.new else None),
            )
            >= 0.6
        )
        evaluation.changes_matched += matched
        if wanted["kind"] in ("strengthened", "weakened"):
            evaluation.strength_total += 1
            evaluation.strength_found += bool(
                matched and best and best.kind.value == wanted["kind"]
            )


def evaluate(shared: Path) -> Evaluation:
    wanted = labels(shared)
    evaluation = Evaluation()
    for pair in pairs(shared):
        report = diff_texts(pair.old, pair.new, pair.path)
        label = wanted.get((pair.corpus, pair.id))
        if label is None:
            if report.verdict == "normative":
                evaluation.unlabelled.append((pair, report))
            continue
        want = VERDICT_OF_LABEL[label.label]
        evaluation.confusion[(want, report.verdict)] += 1
        if want != report.verdict:
            evaluation.mistakes.append((pair, label, report))
        _match_changes(label, report, evaluation)
    return evaluation


def _describe(report: PageReport, classes: tuple[ChangeClass, ...]) -> list[str]:
    lines = []
    for change in report.changes:
        if change.change_class not in classes:
            continue
        lines.append(
            f"- **{change.change_class.value} {change.kind.value}** {' › '.join(change.section)}"
        )
        if change.old:
            lines.append(
                f"  - old (line {change.old.line}) {list(change.old.keywords)}: {change.old.text[:400]}"
            )
        if change.new:
            lines.append(
                f"  - new (line {change.new.line}) {list(change.new.keywords)}: {change.new.text[:400]}"
            )
    return lines


def write_reports(evaluation: Evaluation, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    lines = ["# Normative changes found in unlabelled pairs", ""]
    for pair, report in evaluation.unlabelled:
        lines += [f"## {pair.corpus} {pair.id} `{pair.path}`", ""]
        lines += [*_describe(report, (ChangeClass.NORMATIVE,)), ""]
    (out / "unlabelled-normative.md").write_text("\n".join(lines), encoding="utf-8")
    lines = ["# Labelled pairs with a wrong verdict", ""]
    for pair, label, report in evaluation.mistakes:
        lines += [
            f"## {pair.corpus} {pair.id}: labelled {label.label}, got {report.verdict}",
            "",
            f"Notes: {label.notes}",
            "",
        ]
        lines += [*_describe(report, (ChangeClass.NORMATIVE, ChangeClass.EDITORIAL)), ""]
    (out / "mistakes.md").write_text("\n".join(lines), encoding="utf-8")


def summary(evaluation: Evaluation) -> str:
    order = ("formatting", "editorial", "normative")
    rows = ["labelled \\ predicted  " + "  ".join(f"{v:>10}" for v in (*order, "unchanged"))]
    for want in order:
        cells = "  ".join(
            f"{evaluation.confusion[(want, got)]:>10}" for got in (*order, "unchanged")
        )
        rows.append(f"{want:>20}  {cells}")
    return "\n".join(
        [
            f"labelled pairs: {evaluation.labelled}",
            f"verdict accuracy: {evaluation.accuracy:.1%}",
            f"alert recall: {evaluation.alert_recall:.1%}   alert precision: {evaluation.alert_precision:.1%}",
            f"labelled normative changes matched: {evaluation.changes_matched}/{evaluation.changes_total}",
            f"strength kinds found: {evaluation.strength_found}/{evaluation.strength_total}",
            f"unlabelled pairs with normative changes: {len(evaluation.unlabelled)}",
            "",
            *rows,
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shared", type=Path, default=Path("../shared"))
    parser.add_argument("--out", type=Path, default=Path("reports/eval"))
    args = parser.parse_args(argv)
    if not (args.shared / "corpus" / "labels.jsonl").exists():
        print(f"eval: no corpus at {args.shared / 'corpus'}; pass --shared DIR", file=sys.stderr)
        return 2
    evaluation = evaluate(args.shared)
    write_reports(evaluation, args.out)
    print(summary(evaluation))
    print(f"\nreports written to {args.out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
