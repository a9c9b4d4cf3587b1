"""Sentence splitting (`spectrack.sentences`), alone and as the parser uses it."""

from __future__ import annotations

import pytest

from spectrack.markdown import parse
from spectrack.sentences import split_sentences


def split(text: str) -> list[str]:
    return [text[start:end] for start, end in split_sentences(text)]


def page_sentences(markdown: str) -> list[str]:
    return [s.text for block in parse(markdown).blocks for s in block.sentences]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The pump starts. It hums.", ["The pump starts.", "It hums."]),
        ("Is it on? Check the light! Then wait.", ["Is it on?", "Check the light!", "Then wait."]),
        ('He said "Stop." Then he left.', ['He said "Stop."', "Then he left."]),
        ("The pump starts (slowly.) It hums.", ["The pump starts (slowly.)", "It hums."]),
        ("Pumps, e.g. the small one, hum.", ["Pumps, e.g. the small one, hum."]),
        ("Use a filter, e.g. Model B, first.", ["Use a filter, e.g. Model B, first."]),
        ("Use one filter, i.e. The blue one.", ["Use one filter, i.e. The blue one."]),
        ("Hoses, taps, etc. are sold apart.", ["Hoses, taps, etc. are sold apart."]),
        ("See Fig. 3 for the wiring.", ["See Fig. 3 for the wiring."]),
        ("Compare pumps vs. Filters today.", ["Compare pumps vs. Filters today."]),
        ("Pumps (e.g. The small one) hum.", ["Pumps (e.g. The small one) hum."]),
        ('Say "i.e. The blue one" twice.', ['Say "i.e. The blue one" twice.']),
        ("Version 2.5 is out. Update now.", ["Version 2.5 is out.", "Update now."]),
        ("The pump waits… It hums.", ["The pump waits…", "It hums."]),
        ("The pump waits... It hums.", ["The pump waits...", "It hums."]),
        ("The pump waits… and hums.", ["The pump waits… and hums."]),
        ("The pump starts. it hums.", ["The pump starts. it hums."]),
        ("No full stop at the end", ["No full stop at the end"]),
        ("", []),
    ],
)
def test_split_sentences(text: str, expected: list[str]) -> None:
    assert split(text) == expected


@pytest.mark.parametrize(
    ("text", "parts", "expected"),
    [
        ("Run pump. start now", [10], ["Run pump.", "start now"]),
        ("Run pump. Start now.", [10], ["Run pump.", "Start now."]),
        ("Run pump. start now", [19, 40], ["Run pump. start now"]),
    ],
)
def test_a_sentence_ends_where_another_part_starts(
    text: str, parts: list[int], expected: list[str]
) -> None:
    assert [text[start:end] for start, end in split_sentences(text, (), parts)] == expected


def test_protected_ranges_never_end_a_sentence() -> None:
    text = "Run pump. Start now. Then wait."
    assert split(text) == ["Run pump.", "Start now.", "Then wait."]
    spans = split_sentences(text, [(4, 19)])
    assert [text[a:b] for a, b in spans] == ["Run pump. Start now.", "Then wait."]


def test_a_mark_that_ends_a_protected_range_ends_its_sentence() -> None:
    text = "Run pump. Start now. Then wait."
    spans = split_sentences(text, [(0, 9)])
    assert [text[a:b] for a, b in spans] == ["Run pump.", "Start now.", "Then wait."]


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        pytest.param(
            "Call `pump.Start()` first. Then `wait. Now` runs. Done.\n",
            ["Call pump.Start() first.", "Then wait. Now runs.", "Done."],
            id="code-spans",
        ),
        pytest.param(
            "Read https://pump.example/v1.2/Spec. Then start.\n",
            ["Read https://pump.example/v1.2/Spec.", "Then start."],
            id="bare-url",
        ),
        pytest.param(
            "Read <https://pump.example/v1.2/Spec>. Then start.\n",
            ["Read https://pump.example/v1.2/Spec.", "Then start."],
            id="autolink",
        ),
        pytest.param(
            "Read [the guide. Part](https://pump.example/x). Then start.\n",
            ["Read the guide.", "Part.", "Then start."],
            id="link-text-is-prose",
        ),
        pytest.param(
            "- Prime the pump. It MUST be full\n- Start it\n\n1. Wait. Then check.\n",
            ["Prime the pump.", "It MUST be full", "Start it", "Wait.", "Then check."],
            id="list-items",
        ),
        pytest.param(
            "<section><p>The pump MUST start.</p><h4>valve</h4><p>opens the line</p></section>\n",
            ["The pump MUST start.", "valve", "opens the line"],
            id="html-elements",
        ),
        pytest.param(
            "<div><p>Set <code>pump.B</code> first.</p><p><code>x</code> then waits</p></div>\n",
            ["Set pump.B first.", "x then waits"],
            id="html-elements-with-code",
        ),
        pytest.param(
            "<p>The <b>pump</b> MUST <em>start</em> now. it hums</p>\n",
            ["The pump MUST start now. it hums"],
            id="html-inline-elements",
        ),
        pytest.param(
            '<p>See <img src="pump.png"> the pump.</p><p>press <button>go</button> and '
            "<x-gauge></x-gauge> wait</p>\n",
            ["See the pump.", "press go and wait"],
            id="html-elements-inside-a-sentence",
        ),
        pytest.param(
            "<div><p>Clients MUST send <p-chip>a</p-chip> <s-x>signed</s-x> token.</p>"
            "<p>end</p></div>\n",
            ["Clients MUST send a signed token.", "end"],
            id="html-custom-elements-named-like-others",
        ),
        pytest.param(
            "<div><p>Clients MUST a\x06b tokens.</p><p>end</p></div>\n",
            ["Clients MUST ab tokens.", "end"],
            id="html-control-character",
        ),
        pytest.param(
            "<table><tr><td>limit</td><td>MUST be set</td></tr>"
            "<tr><td>mode</td><td>MAY<br>be set</td></tr></table>\n",
            ["limit MUST be set", "mode MAY be set"],
            id="html-table-rows",
        ),
        pytest.param(
            "The pump MUST start. `pump.stop()` MUST follow. It `may` wait. `go`!\n",
            ["The pump MUST start.", "pump.stop() MUST follow.", "It may wait.", "go!"],
            id="code-span-starts-a-sentence",
        ),
        pytest.param(
            "Call it (e.g. `pump.go`) now. Set it, e.g. `x`, first. `go` returns.\n",
            ["Call it (e.g. pump.go) now.", "Set it, e.g. x, first.", "go returns."],
            id="code-span-after-an-abbreviation",
        ),
        pytest.param(
            "The pump starts, e.g.\nwhen the float rises. It stops.\n",
            ["The pump starts, e.g. when the float rises.", "It stops."],
            id="abbreviation-at-a-line-break",
        ),
        pytest.param(
            "~~Lids MUST dry.~~ Jars MUST be warm. <del>Cups MAY chip.</del> Pots MUST NOT.\n",
            ["Lids MUST dry.", "Jars MUST be warm.", "Cups MAY chip.", "Pots MUST NOT."],
            id="struck-sentence-before-another",
        ),
    ],
)
def test_sentences_of_a_page(markdown: str, expected: list[str]) -> None:
    assert page_sentences(markdown) == expected


def test_sentences_know_their_lines() -> None:
    markdown = "# Pump\n\nThe pump starts. It\nhums for a while.\nThen it stops.\n\n- Done. Next.\n"
    sentences = [
        (s.text, s.line, s.end_line) for block in parse(markdown).blocks for s in block.sentences
    ]
    assert sentences == [
        ("Pump", 1, 1),
        ("The pump starts.", 3, 3),
        ("It hums for a while.", 3, 4),
        ("Then it stops.", 5, 5),
        ("Done.", 7, 7),
        ("Next.", 7, 7),
    ]


def test_etc_can_end_a_sentence() -> None:
    assert split("Hoses, taps, etc. The pump MUST be primed.") == [
        "Hoses, taps, etc.",
        "The pump MUST be primed.",
    ]
