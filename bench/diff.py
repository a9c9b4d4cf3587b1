"""Diff benchmark: spectrack against ``difflib.unified_diff`` on every corpus pair, same process.

Prints both totals, their ratio, the median and p95 time per pair of each, and peak memory
(tracemalloc, measured in a separate pass so that tracing does not slow the timed runs). The two
diffs (and the floor below) run one after another on each pair, so that the machine's speed,
which drifts during a run, weighs on all of them alike.
Targets (issue 2): ratio <= 5, p95 <= 50 ms per pair.

It also times a floor: markdown-it-py (as spectrack configures it) parsing only the changed lines
of every pair, both versions, with no context and nothing made of the tokens. A differ that
reads the changed text with that parser cannot take less.

Last, a separate pass times spectrack's stages on their own (`stage_seconds`) and prints each one's
share of spectrack's time.
"""

from __future__ import annotations

import argparse
import difflib
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.corpus import pairs
from spectrack.diff import diff_texts
from spectrack.diff.classify import english_words
from spectrack.diff.lines import line_diff, split_lines
from spectrack.diff.windows import windows
from spectrack.markdown import parse_window, scan
from spectrack.markdown.parser import detect_dialect, parser


@dataclass(frozen=True, slots=True)
class Timings:
    name: str
    seconds: list[float]

    @property
    def total(self) -> float:
        return sum(self.seconds)

    def quantile(self, share: float) -> float:
        ordered = sorted(self.seconds)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]

    def line(self) -> str:
        return (
            f"{self.name:>10}: total {self.total:7.2f} s   median {statistics.median(self.seconds) * 1000:6.2f} ms"
            f"   p95 {self.quantile(0.95) * 1000:7.2f} ms   max {max(self.seconds) * 1000:7.1f} ms"
        )


def unified(old: str, new: str, path: str) -> object:
    return list(difflib.unified_diff(old.splitlines(True), new.splitlines(True), path, path))


def spectrack_diff(old: str, new: str, path: str) -> object:
    return diff_texts(old, new, path)


def changed_lines(old: str, new: str) -> list[str]:
    """The changed lines of a pair, one text per changed stretch and version."""
    old_lines, new_lines = split_lines(old), split_lines(new)
    texts = []
    for tag, i1, i2, j1, j2 in line_diff(old_lines, new_lines).opcodes:
        if tag != "equal":
            texts += ["\n".join(old_lines[i1:i2]), "\n".join(new_lines[j1:j2])]
    return texts


def parse_floor(inputs: list[tuple[str, str, str]]) -> Callable[[str, str, str], object]:
    """A function that parses only the changed lines of a pair with markdown-it-py, the texts
    and parsers found beforehand (by the pair's old text) so that only the parsing is timed."""
    work = {
        id(old): [
            (parser(detect_dialect(new, path), at_page_start=False), text)
            for text in changed_lines(old, new)
        ]
        for old, new, path in inputs
    }

    def parse_changed_lines(old: str, new: str, path: str) -> None:
        for markdown, text in work[id(old)]:
            markdown.parse(text, {})

    return parse_changed_lines


STAGES = ("line diff", "outline", "windows", "parsing the windows")
REST = "aligning, classifying, hunks"


def stage_seconds(inputs: list[tuple[str, str, str]]) -> dict[str, float]:
    """Seconds spent in each of spectrack's `STAGES` over every pair, each run on its own as
    `diff_texts` runs it, and in the rest (`REST`: the whole diff's time less theirs)."""
    seconds = dict.fromkeys((*STAGES, REST), 0.0)

    def lap(stage: str, since: float) -> float:
        now = time.perf_counter()
        seconds[stage] += now - since
        return now

    for old, new, path in inputs:
        start = time.perf_counter()
        diff_texts(old, new, path)
        clock = stages_start = time.perf_counter()
        diff = line_diff(split_lines(old), split_lines(new))
        clock = lap("line diff", clock)
        if diff.changed:
            old_page, new_page = scan(old, path), scan(new, path)
            clock = lap("outline", clock)
            spans = windows(diff.opcodes, old_page, new_page)
            clock = lap("windows", clock)
            for span in spans:
                parse_window(old_page, span.old_start, span.old_end)
                parse_window(new_page, span.new_start, span.new_end)
            clock = lap("parsing the windows", clock)
        seconds[REST] += (stages_start - start) - (clock - stages_start)
    return seconds


def timed_together(
    functions: dict[str, Callable[[str, str, str], object]], inputs: list[tuple[str, str, str]]
) -> list[Timings]:
    """Each function's time on every pair, the functions run one right after another on each
    pair (in turn first), so that a machine whose speed drifts over a run slows all alike."""
    seconds: dict[str, list[float]] = {name: [] for name in functions}
    order = list(functions.items())
    for index, (old, new, path) in enumerate(inputs):
        for name, function in order[index % len(order) :] + order[: index % len(order)]:
            start = time.perf_counter()
            function(old, new, path)
            seconds[name].append(time.perf_counter() - start)
    return [Timings(name, times) for name, times in seconds.items()]


def peak_memory(
    function: Callable[[str, str, str], object], inputs: list[tuple[str, str, str]]
) -> int:
    tracemalloc.start()
    for old, new, path in inputs:
        function(old, new, path)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def run(shared: Path) -> None:
    inputs = [(pair.old, pair.new, pair.path) for pair in pairs(shared)]
    size = sum(len(old) + len(new) for old, new, _ in inputs)
    print(f"diff benchmark: {len(inputs)} corpus pairs, {size / 1e6:.1f} MB")
    timed_together({"warm-up": spectrack_diff}, inputs[:20])
    # Loaded once per process, as modules are imported once: a steady run pays neither.
    english_words()
    baseline, ours, floor = timed_together(
        {"difflib": unified, "spectrack": spectrack_diff, "floor": parse_floor(inputs)}, inputs
    )
    print(baseline.line())
    print(ours.line())
    print(f"     ratio: {ours.total / baseline.total:.2f}x difflib (target <= 5)")
    print(f"       p95: {ours.quantile(0.95) * 1000:.1f} ms per pair (target <= 50)")
    print(
        f"     floor: {floor.total:.2f} s, {floor.total / baseline.total:.2f}x difflib "
        "(markdown-it-py parsing only the changed lines)"
    )
    stages = stage_seconds(inputs)
    shares = ", ".join(
        f"{stage} {spent / sum(stages.values()):.0%}" for stage, spent in stages.items()
    )
    print(f"    stages: {shares} (of spectrack's time, in a pass of their own)")
    print(
        f"peak memory: difflib {peak_memory(unified, inputs) / 1e6:.1f} MB, "
        f"spectrack {peak_memory(spectrack_diff, inputs) / 1e6:.1f} MB (tracemalloc)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shared", type=Path, default=Path("../shared"))
    args = parser.parse_args(argv)
    if not (args.shared / "corpus").is_dir():
        print(f"bench: no corpus at {args.shared / 'corpus'}; pass --shared DIR", file=sys.stderr)
        return 2
    run(args.shared)
    return 0


if __name__ == "__main__":
    sys.exit(main())
