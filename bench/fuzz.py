"""``make fuzz``: windowed diffs against whole-page diffs on random pages and random edits.

A windowed diff parses only the lines around what changed; it must report what a diff of both
whole pages reports. This fuzzer builds pages from blocks of many syntaxes (headings, lists,
fences, callouts of every platform, Markdown and HTML tables, Hugo shortcodes, content tabs,
inline JSX, lead-ins ending in a colon), edits them at random (blocks added, removed, swapped,
lines edited, indented or dropped, keywords exchanged, blank lines added) and diffs each pair
both ways. It prints how many pairs it tried, how many disagree on the changes a reader acts on
(those that are not formatting), how many of those on the page's verdict, and how many raised;
``--out`` keeps every disagreeing pair as a line of JSON, to minimize and read.

The words are made up: sentences of invented words, so that no two of them look alike by chance.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from spectrack.diff import diff_texts
from spectrack.model import ChangeClass, PageReport

KEYWORDS = ("MUST", "SHOULD", "MAY", "MUST NOT", "REQUIRED", "OPTIONAL", "SHOULD NOT")
_KITCHEN = ("kettle", "lid", "spout", "handle", "steam", "water", "cup", "jar", "seal", "valve")
WORDS = _KITCHEN + tuple(start + end for start in "bcdfgklmnprstvz" for end in ("ap", "ox", "ek"))
"""A few kitchen words and many invented ones, so that two random sentences share few words."""


def sentence(rng: random.Random) -> str:
    words = rng.sample(WORDS, rng.randint(3, 7))
    if rng.random() < 0.5:
        words.insert(rng.randint(1, len(words) - 1), rng.choice(KEYWORDS))
    text = " ".join(words)
    return text[0].upper() + text[1:] + rng.choice(".:.!")


def _blocks(rng: random.Random, mdx: bool) -> list[Callable[[], str]]:
    """Makers of one block each, for a page of the dialect."""

    def said() -> str:
        return sentence(rng)

    def word() -> str:
        return rng.choice(WORDS)

    return [
        lambda: f"{'#' * rng.randint(1, 4)} {word().title()} {word()}",
        lambda: f"{said()} {said()}",
        lambda: f"{said()}\n{said()}",
        lambda: "\n".join(f"- {said()}" for _ in range(rng.randint(1, 4))),
        lambda: "\n".join(f"{n}. {said()}" for n in range(1, rng.randint(2, 5))),
        lambda: f"- {said()}\n  - {said()}\n- {said()}",
        lambda: f'```json\n{{"{word()}": {rng.randint(0, 9)}}}\n```',
        lambda: f"> [!NOTE]\n> {said()}",
        lambda: f"<Note>\n{said()}\n</Note>" if mdx else f"!!! note\n    {said()}",
        lambda: f":::warning\n{said()}\n:::",
        lambda: (
            "| a | b |\n|---|---|\n"
            + "\n".join(f"| {word()} | {rng.choice(KEYWORDS)} |" for _ in range(rng.randint(1, 3)))
        ),
        lambda: (
            "<table>\n"
            + "\n".join(
                f"<tr>\n<td>{word()}</td>\n<td>{rng.choice(KEYWORDS)}</td>\n</tr>"
                for _ in range(rng.randint(1, 3))
            )
            + "\n</table>"
        ),
        lambda: (
            f'{said()} {{{{< glossary_tooltip text="{word()}" term_id="{word()}" >}}}} {said()}'
        ),
        lambda: (
            f"{{{{< highlight go >}}}}\nx := {rng.randint(0, 9)} // MUST\n{{{{< /highlight >}}}}"
        ),
        lambda: f'=== "{word().title()}"\n\n    {said()}',
        lambda: f"<span style={{{{color: 'red'}}}}>{said()}</span> {said()}" if mdx else said(),
        lambda: (
            f'<Tabs>\n<TabItem value="{word()}">\n\n{said()}\n\n</TabItem>\n</Tabs>'
            if mdx
            else f'{{{{< tabs items="a,b" >}}}}\n{{{{< tab >}}}}\n{said()}\n{{{{< /tab >}}}}\n{{{{< /tabs >}}}}'
        ),
        lambda: f"<details>\n<summary>{word()}</summary>\n\n{said()}\n\n</details>",
        lambda: f"{said()}\n\n    indented {word()}",
        lambda: "---",
        lambda: f"<!-- {word()} -->",
        lambda: f"Term\n: {said()}",
    ]


def page(rng: random.Random, mdx: bool) -> list[str]:
    makers = _blocks(rng, mdx)
    blocks = [rng.choice(makers)() for _ in range(rng.randint(2, 12))]
    if rng.random() < 0.3:
        blocks.insert(0, f"---\ntitle: {rng.choice(WORDS)}\n---")
    return blocks


def edited(rng: random.Random, blocks: list[str], mdx: bool) -> list[str]:
    result = list(blocks)
    makers = _blocks(rng, mdx)
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(result)) if result else 0
        edit = rng.randrange(7)
        if edit == 1 or not result:
            result.insert(at, rng.choice(makers)())
            continue
        lines = result[at].split("\n")
        line = rng.randrange(len(lines))
        if edit == 0:
            del result[at]
        elif edit == 2:
            found = [keyword for keyword in KEYWORDS if keyword in lines[line]]
            if found:
                lines[line] = lines[line].replace(found[0], rng.choice(KEYWORDS), 1)
            else:
                lines[line] += " " + rng.choice(WORDS)
        elif edit == 3:
            other = rng.randrange(len(result))
            result[at], result[other] = result[other], result[at]
        elif edit == 4:
            lines[line] = rng.choice(["", " ", "  ", "\t"]) + lines[line]
        elif edit == 5:
            del lines[line]
        else:
            lines[0] += "\n"
        if edit in (2, 4, 5, 6):
            result[at] = "\n".join(lines)
    return result


def joined(rng: random.Random, blocks: list[str]) -> str:
    return "".join(block + rng.choice(("\n\n", "\n\n", "\n")) for block in blocks)


def meaningful(report: PageReport) -> list[tuple[str, str, str | None, str | None]]:
    return [
        (
            change.change_class.value,
            change.kind.value,
            change.old and change.old.text,
            change.new and change.new.text,
        )
        for change in report.changes
        if change.change_class is not ChangeClass.FORMATTING
    ]


def run(seconds: float, most: int | None, seed: int, out: Path | None) -> str:
    rng = random.Random(seed)
    end = time.monotonic() + seconds
    tried = disagree = verdicts = raised = 0
    kept = out.open("w", encoding="utf-8") if out is not None else None
    try:
        while time.monotonic() < end and (most is None or tried < most):
            mdx = rng.random() < 0.5
            name = "page.mdx" if mdx else "page.md"
            blocks = page(rng, mdx)
            old, new = joined(rng, blocks), joined(rng, edited(rng, blocks, mdx))
            tried += 1
            try:
                windowed = diff_texts(old, new, name)
                whole = diff_texts(old, new, name, incremental=False)
            except Exception as error:  # the fuzzer's finding: a diff must never raise
                raised += 1
                found = {"raised": repr(error)}
            else:
                if meaningful(windowed) == meaningful(whole):
                    continue
                disagree += 1
                verdicts += windowed.verdict != whole.verdict
                found = {"verdict": windowed.verdict != whole.verdict}
            if kept is not None:
                kept.write(json.dumps({**found, "name": name, "old": old, "new": new}) + "\n")
    finally:
        if kept is not None:
            kept.close()
    return f"pairs {tried}, disagree {disagree}, in the verdict {verdicts}, raised {raised}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to run")
    parser.add_argument("--pairs", type=int, default=None, help="stop after this many pairs")
    parser.add_argument("--seed", type=int, default=1, help="random seed (the same pairs again)")
    parser.add_argument("--out", type=Path, default=None, help="JSON lines of disagreeing pairs")
    args = parser.parse_args(argv)
    print(run(args.seconds, args.pairs, args.seed, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
