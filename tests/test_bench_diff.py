"""The diff benchmark's stage timing, on pages of its own (the corpus run is `make bench`)."""

from bench.diff import REST, STAGES, stage_seconds

OLD = "# Kettles\n\nA kettle SHOULD whistle.\n\n## Lids\n\nLids MAY click.\n"
NEW = "# Kettles\n\nA kettle MUST whistle.\n\n## Lids\n\nLids MAY click.\n"


def test_every_stage_of_a_changed_page_is_timed() -> None:
    seconds = stage_seconds([(OLD, NEW, "kettles.md")])
    assert list(seconds) == [*STAGES, REST]
    assert all(seconds[stage] > 0 for stage in STAGES)


def test_an_unchanged_page_is_neither_outlined_nor_parsed() -> None:
    seconds = stage_seconds([(OLD, OLD, "kettles.md")])
    assert seconds["line diff"] > 0
    assert seconds["outline"] == seconds["windows"] == seconds["parsing the windows"] == 0
