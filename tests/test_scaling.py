"""Work that must grow with a page's length, not with its square: counted, never timed.

Each case is a page shaped to make a line-by-line walk repeat itself (a long run of lazy lines,
of markup, of one paragraph's lines). The outline's lines are swapped for a list that counts
how often a line is read, so a walk that went quadratic again fails here on any machine.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from difflib import SequenceMatcher
from functools import partial
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spectrack import normative
from spectrack.diff import align, classify, diff_texts, engine
from spectrack.diff import lines as line_module
from spectrack.diff.align import _candidates as align_candidates
from spectrack.diff.align import pair_by_similarity, similarity
from spectrack.diff.engine import _position
from spectrack.diff.lines import line_diff, split_lines, trimmed_opcodes
from spectrack.diff.windows import Window, windows
from spectrack.markdown import closing, hugo, inline, mdx, parse, scan
from spectrack.markdown.outline import _Scan
from spectrack.markdown.parser import Dialect, parser
from spectrack.model import Change, ChangeClass, ChangeKind, PageReport, Side
from spectrack.sentences import Ranges

RUN = 3000


class CountingLines(list[str]):
    """A page's lines that count the reads of single lines."""

    reads = 0

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        if isinstance(index, int):
            self.reads += 1
        return super().__getitem__(index)


def lazy_run(count: int) -> str:
    return (
        "# Kettles\n\nServers MUST pour when:\n\n- the lid is up\n"
        + "".join(f"and the spout {i} is clear\n" for i in range(count))
        + "- the handle is cold\n\nThe end.\n"
    )


def markup_run(count: int) -> str:
    return (
        "# Kettles\n\nServers MUST pour when:\n\n"
        + "".join(f'<div id="spout-{i}" />\n\n' for i in range(count))
        + "- the lid is up\n\nThe end.\n"
    )


def indented_run(count: int) -> str:
    return (
        "# Kettles\n\nServers MUST pour when:\n\n- the lid is up\n"
        + "".join(f"  and the spout {i} is clear\n" for i in range(count))
        + "- the handle is cold\n\nThe end.\n"
    )


def counted_scan(text: str) -> tuple[_Scan, CountingLines]:
    """The outline's scan of ``text`` run over lines that count their reads."""
    lines = CountingLines(text.split("\n"))
    scan_run = _Scan(text, lines, [])
    scan_run.run(0)
    return scan_run, lines


def test_setext_headings_are_found_reading_each_line_a_bounded_number_of_times() -> None:
    scan_run, lines = counted_scan(
        "".join(f"Valve {i}\n=====\nThe valve {i} opens.\n" for i in range(RUN))
    )
    assert len(scan_run.headings) == RUN
    assert lines.reads <= 40 * len(lines)


def test_fences_in_one_list_item_are_found_reading_each_line_a_bounded_number_of_times() -> None:
    scan_run, lines = counted_scan(
        "1. Fill the kettle:\n\n"
        + "".join(f"   Step {i}.\n\n   ```sh\n   pour {i}\n   ```\n\n" for i in range(RUN))
    )
    assert len(scan_run.fenced) == RUN
    assert lines.reads <= 40 * len(lines)


def test_edits_scattered_through_a_long_table_find_their_cuts_in_bounded_reads() -> None:
    rows = [f"| kettle {i} | holds water |" for i in range(RUN)]
    old = "# Kettles\n\n| Name | Use |\n| --- | --- |\n" + "\n".join(rows) + "\n"
    new = old.replace("0 | holds", "0 | boils")
    old_page, new_page = scan(old, "page.md"), scan(new, "page.md")
    for page in (old_page, new_page):
        page.lines = CountingLines(page.lines)
    diff = line_diff(split_lines(old), split_lines(new))
    assert len(diff.changed) == RUN // 10
    assert windows(diff.opcodes, old_page, new_page) == [Window(2, RUN + 4, 2, RUN + 4)]
    assert old_page.lines.reads + new_page.lines.reads <= 40 * 2 * (RUN + 4)


@pytest.mark.parametrize("page", [lazy_run, markup_run, indented_run])
def test_finding_where_to_cut_reads_each_line_a_bounded_number_of_times(
    page: Callable[[int], str],
) -> None:
    outline = scan(page(RUN), "page.md")
    outline.lines = lines = CountingLines(outline.lines)
    last = len(lines) - 1
    for line in range(last, 0, -1):
        outline.is_chunk_start(line)
    assert lines.reads <= 40 * len(lines)


@pytest.mark.parametrize("page", [lazy_run, markup_run, indented_run])
def test_a_change_inside_a_long_run_is_found_in_its_list(page: Callable[[int], str]) -> None:
    old = page(RUN)
    new = old.replace("spout-1500", "spout-1500b").replace("spout 1500 ", "spout 1500 now ")
    assert new != old
    report = diff_texts(old, new, "page.md")
    assert report == diff_texts(old, new, "page.md", incremental=False)


def test_one_word_changed_in_a_very_long_requirement_is_found() -> None:
    words = " ".join(f"kettle {i}" for i in range(RUN))
    old = f"# Kettles\n\nServers MUST pour the {words} before noon.\n"
    changed = diff_texts(old, old.replace("kettle 1500 ", "teapot 1500 "), "page.md")
    assert [(c.change_class, c.kind) for c in changed.changes] == [
        (ChangeClass.NORMATIVE, ChangeKind.MODIFIED)
    ]
    grammar = diff_texts(old, old.replace("pour the ", "pour "), "page.md")
    assert [(c.change_class, c.kind) for c in grammar.changes] == [
        (ChangeClass.EDITORIAL, ChangeKind.MODIFIED)
    ]


def test_keywords_trading_places_all_through_a_long_requirement_are_not_aligned_word_by_word() -> (
    None
):
    """difflib's time to align a long run of repeated words grows with the cube of its length:
    past `MOST_WORDS_ALIGNED` pairs of changed words the requirement is taken as changed."""
    repeats = 120
    assert (5 * repeats) ** 2 > classify.MOST_WORDS_ALIGNED
    old = "Servers " + "MUST pour and MAY sip " * repeats + "at noon.\n"
    new = "Servers " + "MAY pour and MUST sip " * repeats + "at noon.\n"
    report, aligned = diff_counting_alignment(old, new)
    assert [(c.change_class, c.kind) for c in report.changes] == [
        (ChangeClass.NORMATIVE, ChangeKind.MODIFIED)
    ]
    assert aligned <= 64


def test_a_sentence_losing_thousands_of_one_keyword_looks_for_each_word_as_strong_once() -> None:
    old = "Servers " + "MUST pour and " * RUN + "sip.\n"
    looked_for = []
    lowercased = normative._lowercased

    def counted(word, text):  # type: ignore[no-untyped-def]
        looked_for.append(word)
        return lowercased(word, text)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(normative, "_lowercased", counted)
        removed = diff_texts(old, old.replace("MUST ", ""), "page.md")
        weakened = diff_texts(old, old.replace("MUST ", "must "), "page.md")
    assert [c.kind for c in removed.changes] == [ChangeKind.REMOVED]
    assert [c.kind for c in weakened.changes] == [ChangeKind.WEAKENED]
    # Each word as strong as MUST is looked for once at most, however many copies were lost.
    must = normative.STRENGTH["MUST"]
    as_strong = [w for w, kind in normative.STRENGTH.items() if kind == must]
    as_strong += normative.PLAIN_FORMS[must]
    assert len(looked_for) <= 2 * len(as_strong)


def apply(
    opcodes: list[tuple[str, int, int, int, int]], old: list[int], new: list[int]
) -> list[int]:
    result: list[int] = []
    for tag, i1, i2, j1, j2 in opcodes:
        result.extend(old[i1:i2] if tag == "equal" else new[j1:j2])
    return result


@pytest.mark.parametrize(
    "opcodes_of",
    [
        trimmed_opcodes,
        partial(trimmed_opcodes, anchored_above=0),
        partial(trimmed_opcodes, anchored_above=6),
        partial(line_module.bounded_opcodes, most_pairs=6),
    ],
    ids=["difflib", "always-anchored", "anchored-past-6", "bounded-at-6"],
)
@given(st.lists(st.integers(0, 12)), st.lists(st.integers(0, 12)))
def test_trimmed_opcodes_cover_both_sequences_and_turn_one_into_the_other(
    opcodes_of: Callable[[list[int], list[int]], list[tuple[str, int, int, int, int]] | None],
    old: list[int],
    new: list[int],
) -> None:
    opcodes = opcodes_of(old, new)
    if opcodes is None:
        return
    assert apply(opcodes, old, new) == new
    starts = [(i1, j1) for _, i1, _, j1, _ in opcodes]
    ends = [(i2, j2) for _, _, i2, _, j2 in opcodes]
    assert [(0, 0), *ends] == [*starts, (len(old), len(new))] or (old == new == [] == opcodes)
    assert all(old[i1:i2] == new[j1:j2] for tag, i1, i2, j1, j2 in opcodes if tag == "equal")
    assert all(a[0] != b[0] for a, b in pairwise(opcodes) if a[0] == "equal")


def test_scattered_edits_in_a_long_page_are_aligned_between_its_unique_lines() -> None:
    """difflib looks at every line of a stretch for each match it finds: thousands of edits
    scattered through a page of thousands of lines cost it the square of the page."""
    paragraphs = [f"Relay {number} MUST forward the parcel." for number in range(RUN)]
    old = "\n\n".join(paragraphs) + "\n"
    for number in range(0, RUN, 3):
        paragraphs[number] = paragraphs[number].replace("MUST", "SHOULD")
    new = "\n\n".join(paragraphs) + "\n"
    report, aligned = diff_counting_alignment(old, new)
    assert [change.kind.value for change in report.changes] == ["weakened"] * (RUN // 3)
    assert (report.lines_added, report.lines_removed) == (RUN // 3, RUN // 3)
    assert aligned <= 64 * RUN


def diff_counting_alignment(old: str, new: str) -> tuple[PageReport, int]:
    """The report, and how many pairs of items (old × new) difflib was given to align."""
    aligned = []

    def counted(junk, old_items, new_items, autojunk):  # type: ignore[no-untyped-def]
        aligned.append(len(old_items) * len(new_items))
        return SequenceMatcher(junk, old_items, new_items, autojunk=autojunk)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(line_module, "SequenceMatcher", counted)
        report = diff_texts(old, new, "page.md")
    return report, sum(aligned)


def test_anchoring_a_page_whose_cuts_free_one_line_at_a_time_stays_linear() -> None:
    """Cut at its one unique line, each piece of this page has one unique line more: anchoring
    piece after piece would take the square of the page."""
    lines = ["Step 1 runs.", "Unique."]
    for step in range(2, RUN):
        lines += [f"Step {step} runs.", f"Step {step - 1} runs."]
    old = ["Old start.", *lines, "Old end."]
    new = ["New start.", *lines, "New end."]
    looked_at = []
    unique_anchors = line_module._unique_anchors

    def counted(old, new, i1, i2, j1, j2):  # type: ignore[no-untyped-def]
        looked_at.append(i2 - i1 + j2 - j1)
        return unique_anchors(old, new, i1, i2, j1, j2)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(line_module, "_unique_anchors", counted)
        opcodes = trimmed_opcodes(old, new, anchored_above=0)
    assert apply(opcodes, old, new) == new
    assert sum(looked_at) <= 4 * (len(old) + len(new))


def test_a_long_requirement_with_unique_words_is_aligned_between_them() -> None:
    """Grammar changed at both ends of a requirement of hundreds of words: the words it holds
    once anchor the alignment, so no bound on aligned words turns it into a changed one."""
    words = " ".join(f"kettle{number}" for number in range(600))
    old = f"# Kettles\n\nThe server MUST fill {words} at the end.\n"
    new = f"# Kettles\n\nA server MUST fill {words} at an end.\n"
    report = diff_texts(old, new, "page.md")
    assert [(c.change_class, c.kind) for c in report.changes] == [
        (ChangeClass.EDITORIAL, ChangeKind.MODIFIED)
    ]


@given(st.lists(st.integers(0, 12)), st.lists(st.integers(0, 12)))
def test_anchors_are_a_longest_run_of_unique_items_in_the_same_order(
    old: list[int], new: list[int]
) -> None:
    anchors = line_module._unique_anchors(old, new, 0, len(old), 0, len(new))
    assert all(old.count(old[i]) == new.count(new[j]) == 1 for i, j in anchors)
    assert all(old[i] == new[j] for i, j in anchors)
    assert all(a < c and b < d for (a, b), (c, d) in pairwise(anchors))
    unique = [item for item in old if old.count(item) == new.count(item) == 1]
    by_old = sorted(unique, key=old.index)
    by_new = sorted(unique, key=new.index)
    assert len(anchors) == longest_common_run(by_old, by_new)


def longest_common_run(first: list[int], second: list[int]) -> int:
    """Length of the longest common subsequence, by the textbook table."""
    table = [[0] * (len(second) + 1) for _ in range(len(first) + 1)]
    for i, a in enumerate(first):
        for j, b in enumerate(second):
            table[i + 1][j + 1] = (
                table[i][j] + 1 if a == b else max(table[i][j + 1], table[i + 1][j])
            )
    return table[-1][-1]


def test_trimmed_opcodes_keep_the_shared_head_and_tail_whole() -> None:
    old = [7] * 50 + [1] + [7] * 50
    new = [7] * 50 + [2] + [7] * 50
    assert trimmed_opcodes(old, new, autojunk=False) == [
        ("equal", 0, 50, 0, 50),
        ("replace", 50, 51, 50, 51),
        ("equal", 51, 101, 51, 101),
    ]


MDX_PIECES = [
    "<Note>",
    "</Note>",
    "<Note />",
    "</Note",
    '<Note title="a">',
    "<Note\n```\n>",
    "```\n",
    "````\n",
    "~~~\n",
    "text\n",
    "\n",
    "<Notes>",
]
HUGO_PIECES = ["{{< note >}}", "{{< /note >}}", "{{% note %}}", "{{< note x=1 >}}", "text\n", "\n"]


TagsFrom = Callable[[int], Iterator[closing.Tag]]
"""A syntax's tags of one name in one page, from an offset on."""


def walked(tags_from: TagsFrom, start: int) -> closing.Closing:
    """The closing tag as a walk to the end finds it: the reference for the pairing."""
    depth = 1
    for kind, begin, end, _ in tags_from(start):
        if kind is closing.TagKind.BROKEN:
            return None
        depth += 1 if kind is closing.TagKind.OPEN else -1
        if depth == 0:
            return begin, end
    return None


def paired_as_walked(tags_from: TagsFrom) -> TagsFrom:
    """``tags_from``, once every element pairing them at once finds is found so by a walk."""
    for start, found in closing.pair(tags_from(0)).items():
        assert found == walked(tags_from, start)
    return tags_from


@given(st.lists(st.sampled_from(MDX_PIECES), max_size=200))
def test_pairing_mdx_elements_at_once_finds_what_walking_finds(pieces: list[str]) -> None:
    src = "".join(pieces)
    tags_from = paired_as_walked(partial(mdx._tags, src, "Note", limit=len(src)))
    for opening in re.finditer("<Note", src):
        tag = mdx.scan_tag(src, opening.start(), len(src))
        if tag is not None and not tag.self_closing:
            expected = walked(tags_from, tag.end)
            assert mdx.find_closing(src, "Note", tag.end, len(src)) == expected


@given(st.lists(st.sampled_from(HUGO_PIECES), max_size=200))
def test_pairing_shortcodes_at_once_finds_what_walking_finds(pieces: list[str]) -> None:
    src = "".join(pieces)
    tags_from = paired_as_walked(partial(hugo._tags, src, "note", limit=len(src)))
    for opening in re.finditer(r"\{\{[<%] note[^}]*[>%]\}\}", src):
        expected = walked(tags_from, opening.end())
        assert hugo.find_closing(src, "note", opening.end(), len(src)) == expected


@pytest.mark.parametrize(
    ("piece", "name"),
    [
        ("<p>Paragraph {i} of the kettle manual.\n\n", "page.md"),
        ("<Note>\n\nNote {i} about the kettle.\n\n", "page.mdx"),
        ('{{{{< figure src="kettle-{i}.png" >}}}}\n\nFigure {i}.\n\n', "page.md"),
    ],
)
def test_unclosed_elements_are_each_looked_at_a_bounded_number_of_times(
    piece: str, name: str
) -> None:
    text = "# Kettles\n\n" + "".join(piece.format(i=i) for i in range(RUN))
    scans = Counter()

    def counted(src: str, name: str, position: int, limit: int) -> Iterator[closing.Tag]:
        for tag in tags(src, name, position, limit):
            scans[position] += 1
            yield tag

    module = hugo if piece.startswith("{{") else mdx
    tags = module._tags
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "PAIRINGS", closing.Pairings(counted))
        parse(text, name=name)
    assert sum(scans.values()) <= 200 * RUN


@pytest.mark.parametrize("indent", ["", "  "])
def test_unfinished_mdx_statements_are_each_read_a_bounded_length(indent: str) -> None:
    text = "".join(f"export const pump{i} = {{\n\n{indent}Pump {i} hums.\n\n" for i in range(RUN))
    tokens = mdx._STATEMENT_TOKEN
    read = Counter()

    class Counted:
        def finditer(self, src: str, start: int, end: int) -> Iterator[re.Match[str]]:
            for token in tokens.finditer(src, start, end):
                read[start] += 1
                yield token

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mdx, "_STATEMENT_TOKEN", Counted())
        document = parse(text, name="page.mdx")
    assert len(document.blocks) == RUN
    assert sum(read.values()) <= 10 * RUN


def test_a_region_whose_words_did_not_change_is_not_paired() -> None:
    """Pairing a long region by similarity costs time quadratic in its length; a punctuation
    sweep through every requirement changes no word, so it must not be paired at all."""
    old = "# Kettles\n\n" + "".join(
        f"The kettle {i} MUST whistle; it SHOULD stop soon after.\n\n" for i in range(RUN)
    )
    paired = []

    def counted(old_units, new_units):  # type: ignore[no-untyped-def]
        paired.append(len(old_units) * len(new_units))
        return pair_by_similarity(old_units, new_units)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(align, "pair_by_similarity", counted)
        report = diff_texts(old, old.replace(";", ","), "page.md")
    assert str(report.verdict) == "formatting"
    assert sum(paired) <= 64


def test_a_link_target_changed_in_alike_sentences_scores_a_bounded_number_of_pairs() -> None:
    count = 300
    old = "".join(f"See [kettle {i}] for the parts of kettle {i}.\n\n" for i in range(count))
    old += "".join(f"[kettle {i}]: http://kettles.example/{i}\n" for i in range(count))
    scored = []

    def counted(old_words: frozenset[str], new_words: frozenset[str]) -> float:
        scored.append(1)
        return similarity(old_words, new_words)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(align, "similarity", counted)
        report = diff_texts(old, old.replace("http:", "https:"), "page.md")
    assert str(report.verdict) == "editorial"
    assert len(scored) <= 64 * count


@pytest.mark.parametrize(
    "sentence",
    [
        "Walk from [room {i}] to room {j} and back.",
        "See [the room] for the walk back.",
    ],
    ids=["each-shares-a-word-with-the-next", "all-alike"],
)
def test_alike_sentences_without_words_of_their_own_are_paired_in_bounded_work(
    sentence: str,
) -> None:
    """With no word only two sentences hold (or only the first and last), the pairing looks
    near each sentence's place rather than at every other sentence."""
    count = 400
    old = "".join(sentence.format(i=i, j=i + 1) + "\n\n" for i in range(count))
    old += "".join(f"[room {i}]: http://rooms.example/{i}\n" for i in range(count))
    old += "[the room]: http://rooms.example/\n"
    looked_at = []
    scored = []

    def counted_candidates(old_words, new_words, budget=None):  # type: ignore[no-untyped-def]
        looked_at.append(len(old_words) + len(new_words))
        return align_candidates(old_words, new_words, budget)

    def counted_similarity(old_words: frozenset[str], new_words: frozenset[str]) -> float:
        scored.append(1)
        return similarity(old_words, new_words)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(align, "_candidates", counted_candidates)
        patch.setattr(align, "similarity", counted_similarity)
        report = diff_texts(old, old.replace("http:", "https:"), "page.md")
    assert [c.kind.value for c in report.changes].count("modified") == count
    assert sum(looked_at) <= 8 * count
    assert len(scored) <= 64 * count


def test_one_sentence_changed_among_thousands_of_equal_ones_aligns_only_what_changed() -> None:
    """difflib looks at every copy of a key for each unit: given the whole paragraph, a run of
    equal sentences costs the square of its length."""
    sentences = ["The lamp MUST glow."] * RUN
    old = " ".join(sentences) + "\n"
    sentences[RUN // 2] = "The lamp SHOULD glow."
    new = " ".join(sentences) + "\n"
    report, aligned = diff_counting_alignment(old, new)
    assert [change.kind.value for change in report.changes] == ["weakened"]
    assert aligned <= 64


def test_equal_sentences_changed_at_both_ends_are_aligned_by_their_run() -> None:
    """No sentence of the run is unique: as one item, the run anchors the alignment, which
    difflib would otherwise find by looking at every copy for each copy."""

    def pages(count: int) -> tuple[str, str]:
        run = " ".join(["The lamp MUST glow."] * count)
        return run + "\n", "Now " + run[:-1] + " brightly.\n"

    report, aligned = diff_counting_alignment(*pages(RUN))
    assert aligned <= 64
    short = diff_texts(*pages(50), "page.md")
    assert [(c.kind, c.old, c.new) for c in report.changes] == [
        (c.kind, c.old, c.new) for c in short.changes
    ]


@given(st.lists(st.integers(0, 3)), st.lists(st.integers(0, 3)))
def test_run_anchors_pair_equal_items_of_runs_in_order(old: list[int], new: list[int]) -> None:
    anchors = line_module._run_anchors(old, new, 0, len(old), 0, len(new))
    assert all(old[i] == new[j] for i, j in anchors)
    assert all(a < c and b < d for (a, b), (c, d) in pairwise(anchors))
    for items, place in ((old, 0), (new, 1)):
        for anchor in anchors:
            k = anchor[place]
            assert items[k - 1 : k] == [items[k]] or items[k + 1 : k + 2] == [items[k]]


COMMENT_PIECES = ["<!--", "-->", "<!-->", "-", ">", "<b>", "</span>", "<a href='x'>", "text", "\n"]


@given(st.lists(st.sampled_from(COMMENT_PIECES), max_size=40))
def test_comments_left_open_are_dropped_as_one_pass_would_drop_them(pieces: list[str]) -> None:
    """The split at the last closer (so an open comment never searches to the end) drops
    exactly what one pass of the pattern drops."""
    text = "".join(pieces)
    expected = inline._INLINE_TAG_OR_COMMENT.sub("", text)
    assert (
        inline._without_closed(inline._INLINE_TAG_OR_COMMENT, text, "-->", inline._INLINE_TAG)
        == expected
    )


def test_pages_parsed_in_threads_get_their_own_closing_tags() -> None:
    """`spectrack fetch` diffs pages in worker threads: many pages at once, more than the
    pairings kept, each needing its own, must each read their own."""
    pages = [
        "".join(f"<p>Kettle {page} part {i}.\n\n" for i in range(80 + page)) for page in range(40)
    ]
    expected = [parse(text, name="page.md") for text in pages]
    with ThreadPoolExecutor(8) as pool:
        for _ in range(3):
            assert list(pool.map(lambda text: parse(text, name="page.md"), pages)) == expected


@given(
    st.lists(st.tuples(st.integers(0, 30), st.integers(0, 10)).map(lambda r: (r[0], r[0] + r[1]))),
    st.integers(-2, 45),
    st.integers(-2, 45),
)
def test_ranges_answer_as_looking_at_every_range_would(
    ranges: list[tuple[int, int]], offset: int, end: int
) -> None:
    kept = Ranges(ranges)
    assert kept.hold(offset) == any(lo <= offset < hi for lo, hi in ranges)
    assert kept.starting_within(offset, end) == sorted(r for r in ranges if offset <= r[0] < end)


@given(
    st.lists(st.integers(0, 4), max_size=12), st.lists(st.integers(0, 4), max_size=12), st.data()
)
def test_a_removal_is_placed_as_looking_at_every_opcode_would_place_it(
    old: list[int], new: list[int], data: st.DataObject
) -> None:
    opcodes = trimmed_opcodes(old, new)
    index = data.draw(st.integers(-1, len(old) + 1))
    expected: tuple[int, int] = (len(opcodes) and opcodes[-1][4] + 1, 1)
    for tag, i1, i2, j1, _ in opcodes:
        if i1 <= index < i2:
            expected = (j1 + 1 + (index - i1 if tag == "equal" else 0), 1)
            break
    removal = Change(
        ChangeClass.EDITORIAL, ChangeKind.REMOVED, (), Side("x", index + 1, index + 1), None
    )
    assert _position(removal, opcodes, [opcode[1] for opcode in opcodes]) == expected


INLINE_PIECES = ["~~", "<s>", "</s>", "<del>", "</del>", "`", "word", " ", ". ", "[a](b)", "<br>"]


@given(st.lists(st.sampled_from(INLINE_PIECES), max_size=30), st.data())
def test_a_keys_struck_text_and_links_are_those_looking_at_every_range_would_find(
    pieces: list[str], data: st.DataObject
) -> None:
    source = "".join(pieces)
    for built in (
        inline.inline_text(parser(Dialect.MARKDOWN).parseInline(source)[0].children),
        inline.html_inline_text(source),
    ):
        start = data.draw(st.integers(0, built.length))
        stop = data.draw(st.integers(start, built.length))
        text = built.text
        words = text[start:stop].strip()
        words += "".join(f" ~{text[a:b]}~" for a, b in built.struck if start <= a < stop)
        targets = [target for offset, target in built.links if start <= offset < stop]
        expected = words if not targets else words + " ⟨" + " ".join(targets) + "⟩"
        assert built.key(start, stop) == expected


def traced_lines(text: str, name: str) -> int:
    """The lines of Python run to parse ``text``: work counted, whether in a loop of
    spectrack's or of markdown-it's."""
    count = 0

    def trace(frame, event, arg):  # type: ignore[no-untyped-def]
        nonlocal count
        count += event == "line"
        return trace

    sys.settrace(trace)
    try:
        parse(text, name=name)
    finally:
        sys.settrace(None)
    return count


@pytest.mark.parametrize(
    "page",
    [
        lambda count: "==]a " * count + "b==\n",
        lambda count: "^^]a " * count + "b^^\n",
        lambda count: "==[ " * count + "] " * (count + 1) + "b==\n",
    ],
    ids=["unmatched-marks", "unmatched-inserts", "marks-across-brackets"],
)
def test_pymdown_marks_are_paired_in_work_linear_in_the_paragraph(
    page: Callable[[int], str],
) -> None:
    # Each delimiter that closes none, or only past a bracket, must not search the rest.
    short, long = page(200), page(800)
    per_character = [traced_lines(text, "page.md") / len(text) for text in (short, long)]
    assert per_character[1] <= 1.5 * per_character[0], per_character


@pytest.mark.parametrize("name", ["page.md", "page.mdx"])
@pytest.mark.parametrize("piece", ["[^", "[^a", "^["], ids=["marks", "labelled", "inline"])
def test_unclosed_footnote_marks_are_read_in_work_linear_in_the_paragraph(
    piece: str, name: str
) -> None:
    # Each `[^` that no bracket closes looked for its label's end to the end of the line.
    short, long = (f"Kettles MUST pour {piece * count} hot.\n" for count in (200, 800))
    per_character = [traced_lines(text, name) / len(text) for text in (short, long)]
    assert per_character[1] <= 1.5 * per_character[0], per_character


def traced_engine_lines(old: str, new: str) -> int:
    """The lines of `spectrack.diff.engine` run to diff two pages: work counted in its loops."""
    count = 0

    def trace(frame, event, arg):  # type: ignore[no-untyped-def]
        nonlocal count
        if frame.f_code.co_filename != engine.__file__:
            return None
        count += event == "line"
        return trace

    sys.settrace(trace)
    try:
        diff_texts(old, new, "page.md")
    finally:
        sys.settrace(None)
    return count


def test_reworded_items_of_a_list_in_order_are_placed_in_work_linear_in_the_list() -> None:
    # Each item asked where it stands among its list's, which were filtered anew for each one.
    def page(count: int, word: str) -> str:
        steps = "".join(f"{i + 1}. heat {word}jar number {i}\n" for i in range(count))
        return f"# Kettles\n\nThe kettle MUST take these steps in this order:\n\n{steps}"

    per_item = [traced_engine_lines(page(n, ""), page(n, "the ")) / n for n in (200, 800)]
    assert per_item[1] <= 1.5 * per_item[0], per_item
