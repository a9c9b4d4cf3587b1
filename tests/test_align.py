"""Alignment's candidate filter: exact (no pair that reaches the threshold is lost) and cheap on
pages whose sentences share most of their words."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from spectrack.diff import diff_texts
from spectrack.diff.align import SIMILARITY_THRESHOLD, _candidates, similarity

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
    assert reaching <= _candidates(old, new)


def test_sentences_sharing_common_words_do_not_all_become_candidates() -> None:
    old = [frozenset({"lamp", str(n), "must", "glow"}) for n in range(400)]
    new = [frozenset({"lamp", str(n), "should", "glow"}) for n in range(400)]
    assert _candidates(old, new) == {(n, n) for n in range(400)}


def test_a_page_of_near_identical_requirements_pairs_each_with_its_own() -> None:
    old = "".join(f"Lamp {n} MUST glow.\n\n" for n in range(600))
    page = diff_texts(old, old.replace("MUST", "SHOULD"), "lamps.md")
    assert len(page.changes) == 600
    assert all(c.kind.value == "weakened" for c in page.changes)
    assert all(c.old and c.new and c.old.line == c.new.line for c in page.changes)
