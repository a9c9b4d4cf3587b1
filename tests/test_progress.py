import io
from pathlib import Path

import pytest
from rich.console import Console
from rich.progress import Progress as RichBar
from rich.text import Text

from spectrack.config import single_source_config
from spectrack.progress import BarProgress, SilentProgress, WarningProgress, progress_for
from spectrack.serve import LocalSite
from spectrack.track import run_fetch


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


def test_a_warning_on_the_bar_shows_sitemap_text_as_written(
    site: LocalSite, tmp_path: Path
) -> None:
    # A lastmod the sitemap spells with brackets and colons is quoted in the warning: rich must
    # neither read it as markup (an unmatched closing tag raised MarkupError) nor as an emoji.
    odd = "[/x] [red]:smile:"
    site.publish({"/p": b"# P\n\nText.\n"}, lastmod=odd)
    output = io.StringIO()
    bar = RichBar(console=Console(file=output, force_terminal=True, width=400))
    config = single_source_config(
        tmp_path / "store", "s", site.url("/sitemap.xml"), markdown="{url}.md"
    )
    with bar:
        summary = run_fetch(config, progress=BarProgress(bar))
    assert summary.ok
    shown = Text.from_ansi(output.getvalue()).plain
    assert (
        f"warning: sitemap {site.url('/sitemap.xml')}: {site.url('/p')}: lastmod {odd!r}" in shown
    )
