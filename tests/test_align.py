"""Alignment's candidate filter: exact (no pair that reaches the threshold is lost) and cheap on
pages whose sentences share most of their words; and where the filter cannot help, pairing by
the words only two units hold."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from spectrack.diff import diff_texts
from spectrack.diff.align import (
    SIMILARITY_THRESHOLD,
    _candidates,
    _matching_blocks,
    _onto_changed_lines,
    _slid,
    similarity,
)
from spectrack.model import PageReport

WORD_SETS = st.lists(
    st.frozensets(st.sampled_from("abcdefghijklmnop"), min_size=1, max_size=12),
    min_size=0,
    max_size=14,
)


@settings(max_examples=400, deadline=None)
@given(WORD_SETS, WORD_SETS)
def test_every_pair_reaching_the_threshold_is_a_candidate(
    old: list[frozenset[str]], new: list[frozenset[str]]
) -> None:
    reaching = {
        (i, j)
        for i, x in enumerate(old)
        for j, y in enumerate(new)
        if similarity(x, y) >= SIMILARITY_THRESHOLD
    }
    candidates = _candidates(old, new)
    assert candidates is not None
    assert reaching <= candidates


@settings(max_examples=400, deadline=None)
@given(WORD_SETS, WORD_SETS, st.integers(0, 120))
def test_a_budget_refuses_but_never_changes_the_candidates(
    old: list[frozenset[str]], new: list[frozenset[str]], budget: int
) -> None:
    limited = _candidates(old, new, budget)
    assert limited is None or limited == _candidates(old, new)
    assert _candidates(old, new, 10**6) == _candidates(old, new)


def lines_paired(page: PageReport) -> list[tuple[int, int]]:
    """Where the sentences of each change start (the link definitions' block aside: its new
    targets show nowhere, so it is only reformatted)."""
    return [
        (c.old.line, c.new.line)
        for c in page.changes
        if c.old and c.new and c.change_class.value != "formatting"
    ]


def test_sentences_too_alike_to_score_every_pair_are_paired_by_the_words_only_they_hold() -> None:
    """A link target changed in every sentence: all sentences share all words but a number."""
    count = 200
    old = "".join(f"See [kettle {n}] for the parts of kettle {n}.\n\n" for n in range(count))
    old += "".join(f"[kettle {n}]: http://kettles.example/{n}\n" for n in range(count))
    page = diff_texts(old, old.replace("http:", "https:"), "kettles.md")
    assert [c.change_class.value for c in page.changes] == ["editorial"] * count + ["formatting"]
    assert lines_paired(page) == [(line, line) for line in range(1, 2 * count, 2)]


def test_the_sentences_between_two_tied_pairs_are_paired_among_themselves() -> None:
    """Every third sentence holds a number of its own; the two between are alike."""
    sentences = []
    for n in range(90):
        sentences.append(f"See [lamp {n}] for the parts of lamp {n}.")
        sentences += ["See [lamp] for the parts of every lamp."] * 2
    old = "".join(f"{sentence}\n\n" for sentence in sentences)
    old += "".join(f"[lamp {n}]: http://lamps.example/{n}\n" for n in range(90))
    old += "[lamp]: http://lamps.example/\n"
    page = diff_texts(old, old.replace("http:", "https:"), "lamps.md")
    assert lines_paired(page) == [(line, line) for line in range(1, 2 * len(sentences), 2)]


def test_alike_sentences_with_no_word_of_their_own_are_still_all_paired() -> None:
    old = "See [the lamp] for the parts of a lamp.\n\n" * 150
    old += "[the lamp]: http://lamps.example/\n"
    page = diff_texts(old, old.replace("http:", "https:"), "lamps.md")
    assert lines_paired(page) == [(line, line) for line in range(1, 300, 2)]


def test_alike_sentences_pushed_down_by_new_ones_keep_their_partners() -> None:
    """Sentences added at the top move every old one far from its place: the words only two
    sentences hold still pair each old sentence with its own."""
    count = 150
    old_sentences = [f"See [kettle {n}] for the parts of kettle {n}." for n in range(count)]
    added = [f"See [kettle {n}] for the parts of kettle {n}." for n in range(count, count + 60)]
    definitions = "".join(f"[kettle {n}]: http://kettles.example/{n}\n" for n in range(count + 60))
    old = "\n\n".join(old_sentences) + "\n\n" + definitions
    new = "\n\n".join(added + old_sentences) + "\n\n" + definitions.replace("http:", "https:")
    page = diff_texts(old, new, "kettles.md")
    modified = [c for c in page.changes if c.kind.value == "modified"]
    assert len(modified) == count
    assert all(c.old and c.new and c.old.text == c.new.text for c in modified)


def test_alike_sentences_whose_order_changed_keep_their_partners() -> None:
    count = 200
    sentences = [f"See [kettle {n}] for the parts of kettle {n}." for n in range(count)]
    definitions = "".join(f"[kettle {n}]: http://kettles.example/{n}\n" for n in range(count))
    old = "\n\n".join(sentences) + "\n\n" + definitions
    swapped = sentences[count // 2 :] + sentences[: count // 2]
    new = "\n\n".join(s.replace("parts", "pieces") for s in swapped) + "\n\n" + definitions
    modified = [c for c in diff_texts(old, new, "kettles.md").changes if c.kind.value == "modified"]
    assert len(modified) == count
    assert all(c.old and c.new and c.old.text.split()[2] == c.new.text.split()[2] for c in modified)


@given(
    st.lists(st.sampled_from("ab"), max_size=12),
    st.lists(st.sampled_from("ab"), max_size=12),
    st.lists(st.booleans(), min_size=12, max_size=12),
    st.integers(0, 1),
)
def test_moving_unmatched_copies_onto_changed_lines_keeps_a_valid_alignment(
    old: list[str], new: list[str], changed: list[bool], side: int
) -> None:
    pairs = list(_slid(_matching_blocks(old, new), old, new))
    before = list(pairs)
    keys = (old, new)[side]
    _onto_changed_lines(pairs, side, keys, changed.__getitem__)
    assert len(pairs) == len(before)
    assert [pair[1 - side] for pair in pairs] == [pair[1 - side] for pair in before]
    assert all(old[i] == new[j] for i, j in pairs)
    assert all(a < c and b < d for (a, b), (c, d) in pairwise(pairs))
    # A copy left unmatched on an unchanged line has no matched copy on a changed line that
    # a run of its key joins it to.
    matched = {pair[side] for pair in pairs}
    for free in set(range(len(keys))) - matched:
        if changed[free]:
            continue
        for step in (-1, 1):
            other = free + step
            while 0 <= other < len(keys) and keys[other] == keys[free] and other in matched:
                assert not changed[other]
                other += step
