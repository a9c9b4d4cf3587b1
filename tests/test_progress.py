import io

import pytest
from rich.console import Console
from rich.progress import Progress as RichBar

from spectrack.progress import BarProgress, SilentProgress, WarningProgress, progress_for


def test_quiet_shows_nothing_and_keeps_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    with progress_for(quiet=True) as progress:
        progress.start("site", 2)
        progress.advance()
        progress.warn("odd lastmod")
    assert isinstance(progress, SilentProgress) and progress.warnings == ["odd lastmod"]
    assert capsys.readouterr() == ("", "")


def test_off_a_terminal_only_warnings_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    with progress_for(quiet=False) as progress:
        progress.start("site", 2)
        progress.advance()
        progress.warn("odd lastmod")
    assert isinstance(progress, WarningProgress)
    assert capsys.readouterr() == ("", "spectrack: warning: odd lastmod\n")


def test_in_ci_there_is_no_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with progress_for(quiet=False) as progress:
        assert isinstance(progress, WarningProgress)


def test_the_bar_counts_each_source() -> None:
    output = io.StringIO()
    bar = RichBar(console=Console(file=output, force_terminal=True, width=80))
    with bar:
        progress = BarProgress(bar)
        progress.start("first", 3)
        progress.advance()
        progress.start("second", 2)
        progress.advance()
        progress.advance()
        progress.warn("odd lastmod")
    tasks = {task.description: task for task in bar.tasks}
    assert tasks["first"].completed == 1 and not tasks["first"].visible
    assert tasks["second"].completed == 2 and tasks["second"].finished
    assert "odd lastmod" in output.getvalue()
