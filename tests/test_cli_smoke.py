from pathlib import Path

from spectrack.cli import main


def test_diff_exits_one_on_a_strengthened_requirement(tmp_path: Path, capsys) -> None:
    old = tmp_path / "old.md"
    new = tmp_path / "new.md"
    old.write_text("# Tools\n\nClients SHOULD validate input.\n")
    new.write_text("# Tools\n\nClients MUST validate input.\n")
    try:
        main(["diff", str(old), str(new), "--fail-on", "normative"])
    except SystemExit as stop:
        assert stop.code == 1
    else:
        raise AssertionError("expected exit 1")
    assert "strengthened" in capsys.readouterr().out
