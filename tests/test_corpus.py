"""The classifier on real revisions of public specifications (../shared/corpus, read at run time).

These tests guard the rules, not single pairs: every labelled normative page must raise an alert,
the verdict accuracy must not fall, and parsing only the windows around changed lines must give
the same verdicts as parsing both pages whole, from an outline that agrees with the parser.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.corpus import pairs
from bench.eval import evaluate
from spectrack.diff import diff_texts
from spectrack.markdown import scan
from spectrack.markdown.hugo import resolve_links
from spectrack.markdown.parser import parser
from spectrack.model import PageReport
from tests.conftest import SHARED, shared_path
from tests.test_properties import meaningful


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


@pytest.fixture(scope="module")
def windowed_and_whole(shared: Path) -> list[tuple[str, PageReport, PageReport]]:
    """Each pair's name, its windowed diff and its whole-page diff."""
    return [
        (
            f"{pair.corpus} {pair.id}",
            diff_texts(pair.old, pair.new, pair.path),
            diff_texts(pair.old, pair.new, pair.path, incremental=False),
        )
        for pair in pairs(shared)
    ]


def test_windows_give_the_same_verdicts_as_whole_pages(
    windowed_and_whole: list[tuple[str, PageReport, PageReport]],
) -> None:
    different = [
        (name, windowed.verdict, whole.verdict)
        for name, windowed, whole in windowed_and_whole
        if windowed.verdict != whole.verdict
    ]
    assert different == []


@pytest.mark.xfail(
    strict=True,
    reason="known: on 5 of the 750 pairs a window pairs some sentences otherwise than the whole "
    "page does (a twin placed at another copy; a reworded requirement paired with a neighbour "
    "the whole page pairs across the page); the verdicts agree",
)
def test_windows_give_the_same_changes_as_whole_pages(
    windowed_and_whole: list[tuple[str, PageReport, PageReport]],
) -> None:
    different = [
        name
        for name, windowed, whole in windowed_and_whole
        if meaningful(windowed) != meaningful(whole)
    ]
    assert different == []


def test_the_outline_finds_the_fences_and_headings_the_parser_finds(shared: Path) -> None:
    """The windows are cut where the outline allows and inherit its headings: on every page of
    the corpus, it must agree with a full parse."""
    disagreements = []
    pages = {(pair.path, text) for pair in pairs(shared) for text in (pair.old, pair.new) if text}
    for path, text in sorted(pages):
        page = scan(text, path)
        tokens = parser(page.dialect).parse(resolve_links(text), {})
        fences = {t.map[0] for t in tokens if t.type == "fence" and t.map}
        headings = {t.map[0] for t in tokens if t.type == "heading_open" and t.map}
        found = (set(page.fenced.firsts), {heading.line for heading in page.headings})
        if found != (fences, headings):
            disagreements.append(path)
    assert disagreements == []
