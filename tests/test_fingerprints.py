from __future__ import annotations

from spectrack.diff import diff_texts
from spectrack.fingerprints import FINGERPRINT_PATTERN, normalize, page_fingerprints
from spectrack.model import ChangeClass, ChangeKind
from tests.ci_support import LANTERN_V1, LANTERN_V2

PREAMBLE = """\
# Preface

This preface was added above everything else.

It pushes every later line down.

"""


def test_fingerprints_survive_moved_line_numbers() -> None:
    plain = diff_texts(LANTERN_V1, LANTERN_V2, "spec/lantern.md")
    shifted = diff_texts(PREAMBLE + LANTERN_V1, PREAMBLE + LANTERN_V2, "spec/lantern.md")
    plain_prints = page_fingerprints(plain)
    shifted_prints = page_fingerprints(shifted)
    assert [(c.kind, c.new.line if c.new else None) for c in plain.changes] != [
        (c.kind, c.new.line if c.new else None) for c in shifted.changes
    ], "the preamble must move the changes down"
    assert plain_prints == shifted_prints
    assert all(FINGERPRINT_PATTERN.fullmatch(print_) for print_ in plain_prints)


def test_fingerprints_tell_changes_and_pages_apart() -> None:
    page = diff_texts(LANTERN_V1, LANTERN_V2, "spec/lantern.md")
    other_page = diff_texts(LANTERN_V1, LANTERN_V2, "spec/other.md")
    reworded = diff_texts(
        LANTERN_V1, LANTERN_V2.replace("lantern's colour", "lantern's hue"), "spec/lantern.md"
    )
    prints = page_fingerprints(page)
    assert len(set(prints)) == len(prints)
    assert set(prints).isdisjoint(page_fingerprints(other_page))
    strengthened = [
        p
        for c, p in zip(reworded.changes, page_fingerprints(reworded), strict=True)
        if c.kind is ChangeKind.STRENGTHENED
    ]
    assert strengthened and strengthened[0] not in prints


def test_twin_changes_get_distinct_fingerprints() -> None:
    old = "# Rules\n\nIntro.\n\n## A\n\nText.\n\n## B\n\nText.\n"
    new = (
        "# Rules\n\nIntro.\n\n## A\n\nText.\n\nLamps MUST glow.\n\n"
        "## B\n\nText.\n\nLamps MUST glow.\n"
    )
    page = diff_texts(old, new, "rules.md")
    added = [
        p
        for c, p in zip(page.changes, page_fingerprints(page), strict=True)
        if c.change_class is ChangeClass.NORMATIVE
    ]
    assert len(added) == 2
    assert added[0] != added[1]


def test_rewrapping_whitespace_does_not_change_the_normalized_text() -> None:
    assert normalize("Lamps  MUST\n glow. ") == normalize("Lamps MUST glow.")
    assert normalize("Lamps MUST glow.") != normalize("Lamps must glow.")
