"""The classifier on real revisions of public specifications (../shared/corpus, read at run time).

These tests guard the rules, not single pairs: every labelled normative page must raise an alert,
the verdict accuracy must not fall, and parsing only the windows around changed lines must give
the same verdicts as parsing both pages whole.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.corpus import pairs
from bench.eval import evaluate
from spectrack.diff import diff_texts
from tests.conftest import SHARED, shared_path


@pytest.fixture(scope="module")
def shared() -> Path:
    shared_path("corpus/labels.jsonl")
    return SHARED


def test_every_labelled_normative_page_raises_an_alert(shared: Path) -> None:
    evaluation = evaluate(shared)
    assert evaluation.labelled == 100
    assert evaluation.alert_recall == 1.0, [
        (pair.id, label.label, report.verdict) for pair, label, report in evaluation.mistakes
    ]
    assert evaluation.accuracy >= 0.93
    assert evaluation.confusion[("formatting", "normative")] == 0


def test_windows_give_the_same_verdicts_as_whole_pages(shared: Path) -> None:
    different = []
    for pair in pairs(shared):
        old, new = pair.old, pair.new
        windowed = diff_texts(old, new, pair.path)
        whole = diff_texts(old, new, pair.path, incremental=False)
        if windowed.verdict != whole.verdict:
            different.append((pair.corpus, pair.id, windowed.verdict, whole.verdict))
    assert different == []
