from __future__ import annotations

import tomllib
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spectrack.acks import (
    Acknowledgement,
    gather_acks,
    load_acks,
    open_counts,
    parse_fingerprint,
    record_acks,
    review,
    toml_string,
)
from spectrack.config import parse_config
from spectrack.diff import diff_texts
from spectrack.errors import ConfigError, InputError
from spectrack.exitcodes import exit_code
from spectrack.fingerprints import page_fingerprints
from spectrack.model import ChangeClass, Report
from tests.ci_support import LANTERN_V1, LANTERN_V2

NOW = datetime(2025, 3, 4, 5, 6, 7, tzinfo=UTC)


def lantern_report() -> Report:
    return Report((diff_texts(LANTERN_V1, LANTERN_V2, "spec/lantern.md"),))


def normative_print(report: Report) -> str:
    page = report.pages[0]
    return next(
        p
        for c, p in zip(page.changes, page_fingerprints(page), strict=True)
        if c.change_class is ChangeClass.NORMATIVE
    )


def test_recorded_acks_load_back_and_later_ones_append(tmp_path: Path) -> None:
    path = tmp_path / "spectrack-ack.toml"
    assert record_acks(path, ["0123456789abcdef"], 'Reviewed "twice"\nwith care', NOW) == (
        "0123456789abcdef",
    )
    first = path.read_text()
    path.write_text(first + "# a note written by hand\n")
    assert record_acks(path, ["0123456789abcdef", "fedcba9876543210"], "second", NOW) == (
        "fedcba9876543210",
    )
    text = path.read_text()
    assert text.startswith(first + "# a note written by hand\n"), "earlier content is kept"
    loaded = load_acks(path)
    assert [(a.fingerprint, a.reason) for a in loaded] == [
        ("0123456789abcdef", 'Reviewed "twice"\nwith care'),
        ("fedcba9876543210", "second"),
    ]
    assert tomllib.loads(text)["ack"][0]["recorded"] == NOW


def test_an_ack_file_starting_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "spectrack-ack.toml"
    record_acks(path, ["0123456789abcdef"], "reviewed", NOW)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert [a.fingerprint for a in load_acks(path)] == ["0123456789abcdef"]


def test_a_file_without_final_newline_is_appended_to_safely(tmp_path: Path) -> None:
    path = tmp_path / "acks.toml"
    path.write_text('[[ack]]\nfingerprint = "0123456789abcdef"\nreason = "old"')
    record_acks(path, ["1111111111111111"], "new", NOW)
    assert [a.reason for a in load_acks(path)] == ["old", "new"]


@given(st.text())
def test_toml_strings_round_trip(text: str) -> None:
    assert tomllib.loads(f"value = {toml_string(text)}")["value"] == text


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[[ack]\n", "invalid TOML"),
        ("colour = 1\n", "unknown key 'colour'"),
        ('[[ack]]\nfingerprint = "xyz"\nreason = "r"\n', "ack #1: 'fingerprint'"),
        ('[[ack]]\nfingerprint = "0123456789abcdef"\n', "ack #1: 'reason'"),
        ('[[ack]]\nfingerprint = "0123456789abcdef"\nreason = "r"\nwho = "me"\n', "'who'"),
        ('[[ack]]\nfingerprint = "0123456789abcdef"\nreason = "r"\nrecorded = 3\n', "recorded"),
        ('ack = "all"\n', "array of tables"),
        ("ack = " + "[" * 100_000 + "]" * 100_000 + "\n", "invalid TOML .*nested too deeply"),
        ("x = " + "{a = " * 100_000 + "1" + "}" * 100_000 + "\n", "nested too deeply"),
    ],
)
def test_bad_ack_files_name_the_file_and_entry(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "acks.toml"
    path.write_text(content)
    with pytest.raises(ConfigError, match=message) as error:
        load_acks(path)
    assert str(path) in str(error.value)


def test_an_upper_case_fingerprint_in_the_file_is_read_as_the_command_line_reads_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "acks.toml"
    path.write_text('[[ack]]\nfingerprint = "0123456789ABCDEF"\nreason = "Checked"\n')
    (ack,) = load_acks(path)
    assert ack.fingerprint == parse_fingerprint("0123456789ABCDEF") == "0123456789abcdef"


def test_missing_file_is_empty_unless_required(tmp_path: Path) -> None:
    assert load_acks(tmp_path / "none.toml") == ()
    with pytest.raises(ConfigError, match="no such acknowledgement file"):
        load_acks(tmp_path / "none.toml", required=True)


def test_record_refuses_an_empty_reason_and_a_broken_file(tmp_path: Path) -> None:
    path = tmp_path / "acks.toml"
    with pytest.raises(InputError, match="--reason"):
        record_acks(path, ["0123456789abcdef"], "  ", NOW)
    path.write_text("not toml at all [\n")
    with pytest.raises(ConfigError):
        record_acks(path, ["0123456789abcdef"], "why", NOW)
    assert path.read_text() == "not toml at all [\n"


def test_parse_fingerprint_accepts_upper_case_and_rejects_others() -> None:
    assert parse_fingerprint(" 0123456789ABCDEF ") == "0123456789abcdef"
    for bad in ("0123", "0123456789abcdeg", "0123456789abcdef0"):
        with pytest.raises(InputError, match="not a change fingerprint"):
            parse_fingerprint(bad)


def test_review_stops_acknowledged_changes_from_failing() -> None:
    report = lantern_report()
    target = normative_print(report)
    unknown = Acknowledgement("0000000000000000", "gone", "test, ack #2")
    reviewed = review(report, [Acknowledgement(target, "known", "test, ack #1"), unknown])
    assert report.verdict == "normative"
    assert reviewed.verdict == "editorial"
    assert reviewed.acknowledged == {target: "known"}
    assert reviewed.unknown == (unknown,)
    assert exit_code(report.verdict, "normative") == 1
    assert exit_code(reviewed.verdict, "normative") == 0
    assert open_counts(report, reviewed.acknowledged)["normative"] == 0
    assert open_counts(report, {})["normative"] == 1


def test_a_run_gathers_the_ack_file_beside_the_configuration_then_its_ignore_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    report = lantern_report()
    fingerprint = normative_print(report)
    folder = tmp_path / "tracking"
    folder.mkdir()
    config = parse_config(
        f'ignore = ["{fingerprint}", "0123456789abcdef"]\n', folder / "spectrack.toml"
    )
    ignored = review(report, gather_acks(None, config))
    assert ignored.acknowledged == {fingerprint: f"{folder / 'spectrack.toml'}, ignore[0]"}
    assert [ack.origin for ack in ignored.unknown] == [f"{folder / 'spectrack.toml'}, ignore[1]"]
    assert ignored.verdict == "editorial"

    record_acks(folder / "spectrack-ack.toml", [fingerprint], "Reviewed by the lamp team", NOW)
    both = review(report, gather_acks(None, config))
    assert both.acknowledged == {fingerprint: "Reviewed by the lamp team"}, "the file comes first"
    elsewhere = review(report, gather_acks(None, None))
    assert elsewhere.acknowledged == {}, "without a configuration: the current folder's file"
    with pytest.raises(ConfigError, match="no such acknowledgement file"):
        gather_acks(tmp_path / "none.toml", config)


@pytest.mark.parametrize(
    "content",
    ["ack = []\n", 'ack = [{fingerprint = "0123456789abcdef", reason = "seen"}]\n'],
)
def test_an_inline_ack_array_is_refused_rather_than_appended_to_unreadably(
    tmp_path: Path, content: str
) -> None:
    path = tmp_path / "acks.toml"
    path.write_text(content)
    with pytest.raises(ConfigError, match=r"acks\.toml: .*inline array .*\[\[ack\]\] tables"):
        record_acks(path, ["1111111111111111"], "why", NOW)
    assert path.read_text() == content, "the file is left as it was, still readable"
    assert len(load_acks(path)) == content.count("fingerprint")
