"""The command line: parses arguments, calls the library, maps errors to exit codes.

No logic lives here. Exit codes: 0 nothing at or above ``--fail-on``, 1 changes at or above it,
2 usage or input error, 3 finished with fetch failures.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

import click

from spectrack import formats
from spectrack.acks import (
    ACK_FILE,
    Acknowledgement,
    gather_acks,
    parse_fingerprint,
    record_acks,
    review,
)
from spectrack.check import mark_checked, run_check
from spectrack.comparison import Comparison
from spectrack.config import (
    CONFIG_FILE,
    load_config,
    optional_config,
    store_location,
    write_example,
)
from spectrack.dates import parse_when
from spectrack.errors import InputError, SpectrackError, StoreError
from spectrack.exitcodes import (
    ABORTED,
    EXIT_FETCH_FAILED,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    FAIL_ON_CHOICES,
    exit_code,
)
from spectrack.formats.text import shown
from spectrack.history import LOG_CLASSES, log_entries, log_line
from spectrack.importgit import check_arguments as check_import_arguments
from spectrack.importgit import import_git, upstream_history
from spectrack.progress import progress_for
from spectrack.releaserun import releases_summary_lines, run_releases
from spectrack.site.publish import publish as publish_site
from spectrack.site.serve import serve as serve_site
from spectrack.store import Store
from spectrack.targets import compare_targets, read_as_note, read_as_notes
from spectrack.track import run_fetch, summary_lines


def _echo(message: str, err: bool = False) -> None:
    """Print a line of the command's output; text from fetched pages and feeds can be in it, so
    no control character reaches the terminal."""
    if not err:
        _require_standard_output("the output")
    try:
        click.echo(shown(message), err=err)
    except BrokenPipeError:
        _reader_gone(sys.stderr if err else sys.stdout)


def _reader_gone(stream: TextIO) -> None:
    """The reader stopped early (`| head`): that is its choice, not an error. The stream goes
    nowhere from here, so that later lines and Python's last flush at exit do not fail."""
    nowhere = os.open(os.devnull, os.O_WRONLY)
    os.dup2(nowhere, stream.fileno())
    os.close(nowhere)


def _require_standard_output(what: str) -> None:
    if sys.stdout is None:
        # What Python makes of a standard output closed before it started (`>&-`); click would
        # print nothing and the command would look successful.
        raise InputError(f"cannot write {what} to standard output (it is closed)")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="spectrack")
def cli() -> None:
    """Track specification sites and report what really changed."""


def _parse_outputs(
    context: click.Context, parameter: click.Parameter, values: tuple[str, ...]
) -> tuple[tuple[str, Path], ...]:
    parsed = []
    claimed: dict[str, str] = {}
    for value in values:
        name, equals, path = value.partition("=")
        if not equals or not path or name not in formats.FORMATS:
            raise click.BadParameter(
                f"{value!r}: expected FORMAT=PATH with FORMAT one of {', '.join(sorted(formats.FORMATS))}"
            )
        folder = Path(path).parent
        if not folder.is_dir():
            # Said now, not once a check has fetched everything.
            missing = "is a file, not a folder" if folder.exists() else "does not exist"
            raise InputError(f"{path}: cannot write the {name} report ({folder} {missing})")
        # Two reports written to one file would leave only the last, and the job that uploads
        # the first would read the other format without a word.
        same = os.path.realpath(path)
        if same in claimed:
            raise InputError(
                f"{path}: named by two --output options ({claimed[same]} and {name}); "
                "give each report a file of its own"
            )
        claimed[same] = name
        parsed.append((name, Path(path)))
    return tuple(parsed)


def report_options(command: Callable[..., None]) -> Callable[..., None]:
    """The options of every command that reports changes; `publish` takes them."""
    decorators = [
        click.option(
            "--format",
            "output_format",
            type=click.Choice(sorted(formats.FORMATS)),
            default="text",
            show_default=True,
            help="Output format.",
        ),
        click.option(
            "--fail-on",
            type=click.Choice(FAIL_ON_CHOICES),
            default="never",
            show_default=True,
            help="Exit 1 when the verdict reaches this class.",
        ),
        click.option("--verbose", "-v", is_flag=True, help="List formatting changes one by one."),
        click.option(
            "--color/--no-color",
            default=None,
            help="Colour the text report (default: on a terminal).",
        ),
        click.option(
            "--ack-file",
            type=click.Path(dir_okay=False, path_type=Path),
            default=None,
            help=f"Acknowledged changes to apply (default: {ACK_FILE} beside the "
            "configuration, when it exists).",
        ),
        click.option("--exit-zero", is_flag=True, help="Exit 0 even when changes reach --fail-on."),
        click.option(
            "--output",
            "outputs",
            multiple=True,
            metavar="FORMAT=PATH",
            callback=_parse_outputs,
            help="Also write the report in FORMAT to PATH (repeatable): sarif=results.sarif.",
        ),
    ]
    for decorator in reversed(decorators):
        command = decorator(command)
    return command


def publish(
    comparison: Comparison,
    *,
    acks: Sequence[Acknowledgement],
    output_format: str,
    fail_on: str,
    verbose: bool,
    color: bool | None,
    exit_zero: bool,
    outputs: tuple[tuple[str, Path], ...],
    fetch_failed: bool = False,
    quiet: bool = False,
) -> int:
    """Apply ``acks`` (`gather_acks`, which a command reads first, so that a bad file stops it
    before its work), write the report(s) and return the exit code the findings call for.

    ``fetch_failed`` is for commands that fetch first: the run then exits 3 unless it exits 1.
    ``quiet`` leaves out the warnings about acknowledgements that match no change.
    """
    reviewed = review(comparison.report, acks)
    for unknown in () if quiet else reviewed.unknown:
        _echo(
            f"spectrack: warning: {unknown.origin}: {unknown.fingerprint} matches no change here",
            err=True,
        )
    options = formats.FormatOptions(
        verbose=verbose,
        color=color,
        fail_on=fail_on,
        acknowledged=reviewed.acknowledged,
        locations=comparison.locations,
        releases=comparison.releases,
        environ=os.environ,
    )
    _require_standard_output("the report")
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        # Machine formats are UTF-8 whatever the console's code page; a file name that is not
        # UTF-8, or a character the console lacks, is replaced rather than stopping the report.
        if output_format == "text":
            reconfigure(errors="replace")
        else:
            reconfigure(encoding="utf-8", errors="replace")
    try:
        formats.FORMATS[output_format](comparison.report, sys.stdout, options)
        sys.stdout.flush()
    except BrokenPipeError:
        _reader_gone(sys.stdout)
    except OSError as error:
        raise InputError(f"cannot write the report to standard output ({error})") from None
    for name, path in outputs:
        try:
            with path.open("w", encoding="utf-8", errors="replace") as stream:
                formats.FORMATS[name](comparison.report, stream, options)
        except OSError as error:
            raise InputError(f"{path}: cannot write the {name} report ({error.strerror})") from None
    if "github" in (output_format, *(name for name, _ in outputs)):
        formats.github.write_job_summary(comparison.report, options)
    formats.github.write_step_outputs(comparison.report, options)
    return exit_code(reviewed.verdict, fail_on, exit_zero, fetch_failed)


Decorator = Callable[[Callable[..., None]], Callable[..., None]]


def _named_path(
    context: click.Context, parameter: click.Parameter, value: str | None
) -> Path | None:
    """The path given; an empty one (an unset variable in a CI job) is refused: it would name
    the current folder, which a command writing the store would make a store."""
    if value is None:
        return None
    if not value:
        raise click.BadParameter("an empty value names no file or folder")
    return Path(value)


def config_option(default: str | None, help: str) -> Decorator:
    return click.option(
        "--config",
        "config_file",
        type=click.Path(),
        default=default,
        show_default=default is not None,
        callback=_named_path,
        help=help,
    )


def store_options(command: Callable[..., None]) -> Callable[..., None]:
    """``--store`` and ``--config``, for the commands that read the snapshot store."""
    command = click.option(
        "--store",
        "store_dir",
        type=click.Path(),
        callback=_named_path,
        help="The snapshot store (default: the configuration's, else ./snapshots).",
    )(command)
    return config_option(None, f"Configuration file (default: ./{CONFIG_FILE} when it exists).")(
        command
    )


@cli.command()
@click.argument("old", required=False)
@click.argument("new", required=False)
@click.argument("paths", nargs=-1)
@click.option(
    "--repo",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Git repository of BASE and HEAD (default: the current one).",
)
@click.option("--since", help="Compare every store page with revisions recorded since DATE.")
@click.option(
    "--source", "sources", multiple=True, help="With --since: only this source (repeatable)."
)
@store_options
@report_options
def diff(
    old: str | None,
    new: str | None,
    paths: tuple[str, ...],
    repo: Path | None,
    since: str | None,
    sources: tuple[str, ...],
    store_dir: Path | None,
    config_file: Path | None,
    ack_file: Path | None,
    **report: Any,
) -> None:
    """Compare two pages, two directories of pages, two git revisions, or store pages.

    OLD NEW are two files or two directories (pages paired by relative path), or two git
    revisions: BASE HEAD -- PATH…, BASE..HEAD, BASE...HEAD (since HEAD left BASE). Pages of the
    snapshot store: PAGE (its latest change), PAGE@REV or PAGE@DATE (the change in force then),
    or two of those; PAGE is a store path without .md, or a URL. --since DATE: every store page
    recorded since DATE.
    """
    if sources and since is None:
        raise click.UsageError("--source applies only with --since")
    if repo is not None and since is not None:
        raise click.UsageError("--repo names git revisions to compare; --since reads the store")
    acks = gather_acks(ack_file, optional_config(config_file))
    store_path = store_location(config_file, store_dir)
    if not paths and repo is None and since is None:
        for note in read_as_notes(store_path, [a for a in (old, new) if a is not None]):
            _echo(f"spectrack: note: {note}", err=True)
    comparison = compare_targets(
        old,
        new,
        paths,
        repo,
        store_path=store_path,
        since=parse_when(since) if since is not None else None,
        sources=sources,
    )
    sys.exit(publish(comparison, acks=acks, **report))


@cli.command()
@click.argument("fingerprints", nargs=-1, required=True)
@click.option("--reason", required=True, help="Why the changes are acknowledged (recorded).")
@click.option(
    "--ack-file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help=f"The acknowledgement file to append to [default: {ACK_FILE} beside the configuration].",
)
@config_option(
    None,
    f"Configuration file whose {ACK_FILE} to append to, the one check and diff --config read "
    "[default: the current folder's].",
)
def ack(
    fingerprints: tuple[str, ...], reason: str, ack_file: Path | None, config_file: Path | None
) -> None:
    """Acknowledge reviewed changes: still reported, they no longer fail --fail-on."""
    if ack_file is None:
        if config_file is not None and not config_file.is_file():
            raise InputError(f"{config_file}: no such configuration file")
        ack_file = config_file.parent / ACK_FILE if config_file is not None else Path(ACK_FILE)
    wanted = list(dict.fromkeys(parse_fingerprint(text) for text in fingerprints))
    recorded = record_acks(ack_file, wanted, reason, datetime.now(UTC))
    already = len(wanted) - len(recorded)
    _echo(
        f"spectrack: acknowledged {len(recorded)} change(s) in {ack_file}"
        + (f"; {already} already acknowledged" if already else "")
    )


@cli.command()
@config_option(CONFIG_FILE, "Configuration file to write (kept when it exists).")
def init(config_file: Path) -> None:
    """Write a commented example configuration and create its snapshot store."""
    written = write_example(config_file)
    config = load_config(config_file)
    Store.create(config.store.path).close()
    _echo(f"{'wrote' if written else 'kept existing'} {config_file}")
    _echo(f"snapshot store: {config.store.path}")


@cli.command()
@click.option("--source", "names", multiple=True, help="Fetch only this source (repeatable).")
@click.option(
    "--all", "everything", is_flag=True, help="Fetch every page, even when lastmod did not move."
)
@config_option(CONFIG_FILE, "Configuration file.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar, warnings or summary.")
def fetch(names: tuple[str, ...], everything: bool, config_file: Path, quiet: bool) -> None:
    """Fetch the configured sites into the snapshot store, one commit per changed page.

    Exit 0 when every page was fetched, 3 when some failed (they are listed), 2 on a usage or
    configuration error.
    """
    config = load_config(config_file)
    with progress_for(quiet) as progress:
        summary = run_fetch(config, names=names, everything=everything, progress=progress)
    if not quiet:
        for line in summary_lines(summary):
            _echo(line)
    for failure in summary.failures:
        _echo(f"spectrack: failed: {failure.message}", err=True)
    if not summary.ok:
        sys.exit(EXIT_FETCH_FAILED)


@cli.command()
@click.argument("page", required=False)
@click.option("--source", "sources", multiple=True, help="Only this source (repeatable).")
@click.option("--since", help="Only revisions recorded since DATE (YYYY-MM-DD, ISO time, 3d).")
@click.option(
    "--class",
    "classes",
    multiple=True,
    type=click.Choice(LOG_CLASSES),
    help="Only revisions of this verdict (repeatable).",
)
@store_options
def log(
    page: str | None,
    sources: tuple[str, ...],
    since: str | None,
    classes: tuple[str, ...],
    store_dir: Path | None,
    config_file: Path | None,
) -> None:
    """The recorded history, newest first: upstream time, its origin, recorded time, verdict.

    PAGE is a store path without .md, or a page URL; without it, every page.
    """
    with Store.open(store_location(config_file, store_dir)) as store:
        note = read_as_note(store, page) if page else None
        if note is not None:
            _echo(f"spectrack: note: {note}", err=True)
        entries = log_entries(
            store,
            page=store.resolve(page) if page else None,
            sources=sources,
            since=parse_when(since) if since is not None else None,
            classes=classes,
        )
    for entry in reversed(entries):
        _echo(log_line(entry))


@cli.command("import-git")
@click.argument("repo", type=click.Path(path_type=Path))
@click.option("--path", "folder", required=True, help="Folder of the pages in the repository.")
@click.option("--source", required=True, help="Source name (the folder in the store).")
@click.option("--url-base", required=True, help="URL of the folder on the live site.")
@store_options
@click.option("--quiet", "-q", is_flag=True, help="No progress bar or summary.")
def import_git_command(
    repo: Path,
    folder: str,
    source: str,
    url_base: str,
    store_dir: Path | None,
    config_file: Path | None,
    quiet: bool,
) -> None:
    """Backfill a source from a specification's git history, one revision per page per commit."""
    check_import_arguments(repo, folder, source, url_base)
    commits = upstream_history(repo, folder)
    with (
        Store.create(store_location(config_file, store_dir)) as store,
        progress_for(quiet) as progress,
    ):
        summary = import_git(
            store,
            repo,
            folder=folder,
            source=source,
            url_base=url_base,
            progress=progress,
            commits=commits,
        )
    for skipped in summary.skipped:
        _echo(f"spectrack: warning: left out {skipped}", err=True)
    if not quiet:
        _echo(
            f"{source}: {summary.commits} commits, {summary.revisions} revisions, "
            f"{summary.pages} pages"
        )


@cli.command()
@click.option("--source", "names", multiple=True, help="Check only this source (repeatable).")
@config_option(CONFIG_FILE, "Configuration file.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar, warnings or fetch summary.")
@report_options
def check(
    names: tuple[str, ...], config_file: Path, quiet: bool, ack_file: Path | None, **report: Any
) -> None:
    """Fetch, then report every change recorded since the previous successful check.

    The first check of a source reports every page recorded so far. The marker moves (in the
    store) only once the report is written, so a second run with nothing new reports nothing.
    Exit codes as for diff; 3 when pages failed to fetch and no change reached --fail-on. A
    marker that cannot move once the report is out (the store busy) is a warning, not an exit
    code: the next check reports the same changes again.
    """
    config = load_config(config_file)
    acks = gather_acks(ack_file, config)
    with progress_for(quiet) as progress:
        pending = run_check(config, names=names, progress=progress)
    with pending:
        if not quiet:
            for line in summary_lines(pending.fetch):
                _echo(line, err=True)
        for failure in pending.fetch.failures:
            _echo(f"spectrack: failed: {failure.message}", err=True)
        code = publish(
            pending.comparison,
            acks=acks,
            fetch_failed=not pending.fetch.ok,
            quiet=quiet,
            **report,
        )
        try:
            mark_checked(config, pending)
        except StoreError as error:
            # The report is out and is the job's result; markers left where they were only
            # mean the next check reports these changes again, so this is no failure of its own.
            _echo(
                "spectrack: warning: the check markers did not move, so the next check reports "
                f"these changes again: {error}",
                err=True,
            )
    sys.exit(code)


@cli.command()
@click.option(
    "--source", "names", multiple=True, help="Only this source's release feeds (repeatable)."
)
@config_option(CONFIG_FILE, "Configuration file.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar or summary.")
def releases(names: tuple[str, ...], config_file: Path, quiet: bool) -> None:
    """Fetch the configured release feeds and record their releases in the snapshot store.

    Exit 0 when every feed was read, 3 when some could not be (each is named in a warning; what
    was recorded before is kept), 2 on a usage or configuration error.
    """
    config = load_config(config_file)
    with progress_for(quiet) as progress:
        summary = run_releases(config, names=names, progress=progress)
    if not quiet:
        for line in releases_summary_lines(summary):
            _echo(line)
    for message in summary.messages:
        _echo(f"spectrack: warning: {message}", err=True)
    if not summary.ok:
        sys.exit(EXIT_FETCH_FAILED)


@cli.command()
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=Path("site"),
    show_default=True,
    help="Folder to write the site into (only changed files are rewritten).",
)
@click.option("--base-url", help="Public address of the site: makes the feeds' links absolute.")
@store_options
@click.option("--quiet", "-q", is_flag=True, help="No progress bar or summary.")
def site(
    out: Path, base_url: str | None, store_dir: Path | None, config_file: Path | None, quiet: bool
) -> None:
    """Publish every recorded change as a static website with Atom feeds."""
    with (
        Store.open(store_location(config_file, store_dir)) as store,
        progress_for(quiet) as progress,
    ):
        result = publish_site(store, out, base_url, progress=progress)
    if not quiet:
        _echo(
            f"{out}: {len(result.written)} files written, {len(result.removed)} removed, "
            f"{result.unchanged} unchanged; open {out / 'index.html'} "
            f"or run `spectrack serve {out}`"
        )


@cli.command()
@click.argument("directory", type=click.Path(path_type=Path), default=Path("site"), required=False)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port on 127.0.0.1 (0 picks a free one).",
)
def serve(directory: Path, port: int) -> None:
    """Serve a built change site (default: site/) on 127.0.0.1 until Ctrl-C."""

    def ready(url: str) -> None:
        _echo(f"Serving {directory} at {url} (Ctrl-C stops)", err=True)

    serve_site(directory, port, on_ready=ready)


_HELP_ASKED_FOR: tuple[type[click.ClickException], ...] = tuple(
    getattr(click.exceptions, name)
    for name in ("NoArgsIsHelpError",)
    if hasattr(click.exceptions, name)
)
"""What Click raises for a group run without a command (Click 8.2 on; before, it printed the
help and exited itself)."""


def _one_line(usage: click.ClickException, argv: list[str]) -> str:
    """Click's message on one line, with where to read more: its usage text runs over four.

    An error in reading an option (one missing its value) comes without the command: the first
    word of the command line that names one is it."""
    message = " ".join(usage.format_message().split())
    context = getattr(usage, "ctx", None)
    if context is not None:
        command = context.command_path
    else:
        named = next((word for word in argv if word in cli.commands), None)
        command = "spectrack" if named is None else f"spectrack {named}"
    return f"{message} (see {command} --help)"


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; a `SpectrackError` becomes a one-line message and its exit code."""
    try:
        cli.main(args=argv, prog_name="spectrack", standalone_mode=False)
    except click.exceptions.Exit as stop:
        sys.exit(stop.exit_code)
    except _HELP_ASKED_FOR as asked:
        # `spectrack` alone: the help, as Click prints it, is the answer.
        asked.show()
        sys.exit(EXIT_USAGE)
    except click.ClickException as usage:
        _echo(
            f"spectrack: error: {_one_line(usage, sys.argv[1:] if argv is None else argv)}",
            err=True,
        )
        sys.exit(EXIT_USAGE)
    except click.exceptions.Abort:
        _echo(ABORTED, err=True)
        sys.exit(EXIT_INTERRUPTED)
    except SpectrackError as error:
        _echo(f"spectrack: error: {error}", err=True)
        sys.exit(error.exit_code)
    except OSError as error:
        # A path given on the command line or in the configuration that the system refuses (a
        # folder where a file is, no permission): name it, as for any other bad input.
        where = error.filename if error.filename is not None else "file system"
        _echo(f"spectrack: error: {where}: {error.strerror or error}", err=True)
        sys.exit(EXIT_USAGE)
