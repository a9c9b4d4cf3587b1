"""The command line: parses arguments, calls the library, maps errors to exit codes.

No logic lives here. Exit codes: 0 nothing at or above ``--fail-on``, 1 changes at or above it,
2 usage or input error, 3 finished with fetch failures.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

from spectrack import formats
from spectrack.acks import ACK_FILE, load_acks, parse_fingerprint, record_acks, review
from spectrack.comparison import Comparison
from spectrack.errors import InputError, SpectrackError
from spectrack.exitcodes import EXIT_USAGE, FAIL_ON_CHOICES, exit_code
from spectrack.gitrev import compare_inputs
from spectrack.site.serve import serve as serve_site


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="spectrack")
def cli() -> None:
    """Track specification sites and report what really changed."""


def _parse_outputs(
    context: click.Context, parameter: click.Parameter, values: tuple[str, ...]
) -> tuple[tuple[str, Path], ...]:
    parsed = []
    for value in values:
        name, equals, path = value.partition("=")
        if not equals or not path or name not in formats.FORMATS:
            raise click.BadParameter(
                f"{value!r}: expected FORMAT=PATH with FORMAT one of {', '.join(sorted(formats.FORMATS))}"
            )
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
            help=f"Acknowledged changes to apply (default: {ACK_FILE} when it exists).",
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
    output_format: str,
    fail_on: str,
    verbose: bool,
    color: bool | None,
    ack_file: Path | None,
    exit_zero: bool,
    outputs: tuple[tuple[str, Path], ...],
    fetch_failed: bool = False,
) -> None:
    """Apply acknowledgements, write the report(s), exit with the code the findings call for.

    ``fetch_failed`` is for commands that fetch first: the run then exits 3 unless it exits 1.
    """
    acks = load_acks(ack_file or Path(ACK_FILE), required=ack_file is not None)
    reviewed = review(comparison.report, acks)
    for unknown in reviewed.unknown:
        click.echo(
            f"spectrack: warning: {unknown.origin}: {unknown.fingerprint} matches no change here",
            err=True,
        )
    options = formats.FormatOptions(
        verbose=verbose,
        color=color,
        fail_on=fail_on,
        acknowledged=reviewed.acknowledged,
        locations=comparison.locations,
        environ=os.environ,
    )
    formats.FORMATS[output_format](comparison.report, sys.stdout, options)
    for name, path in outputs:
        try:
            with path.open("w", encoding="utf-8") as stream:
                formats.FORMATS[name](comparison.report, stream, options)
        except OSError as error:
            raise InputError(f"{path}: cannot write the {name} report ({error.strerror})") from None
    code = exit_code(reviewed.verdict, fail_on, exit_zero, fetch_failed)
    if code:
        sys.exit(code)


@cli.command()
@click.argument("old")
@click.argument("new", required=False)
@click.argument("paths", nargs=-1)
@click.option(
    "--repo",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Git repository of BASE and HEAD (default: the current one).",
)
@report_options
def diff(
    old: str, new: str | None, paths: tuple[str, ...], repo: Path | None, **report: Any
) -> None:
    """Compare two pages, two directories of pages, or two git revisions.

    OLD NEW are two files or two directories (pages paired by relative path), or two git
    revisions: BASE HEAD -- PATH…, BASE..HEAD, BASE...HEAD (since HEAD left BASE).
    """
    publish(compare_inputs(old, new, paths, repo), **report)


@cli.command()
@click.argument("fingerprints", nargs=-1, required=True)
@click.option("--reason", required=True, help="Why the changes are acknowledged (recorded).")
@click.option(
    "--ack-file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path(ACK_FILE),
    show_default=True,
    help="The acknowledgement file to append to.",
)
def ack(fingerprints: tuple[str, ...], reason: str, ack_file: Path) -> None:
    """Acknowledge reviewed changes: still reported, they no longer fail --fail-on."""
    wanted = list(dict.fromkeys(parse_fingerprint(text) for text in fingerprints))
    recorded = record_acks(ack_file, wanted, reason, datetime.now(UTC))
    already = len(wanted) - len(recorded)
    click.echo(
        f"spectrack: acknowledged {len(recorded)} change(s) in {ack_file}"
        + (f"; {already} already acknowledged" if already else "")
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
        click.echo(f"Serving {directory} at {url} (Ctrl-C stops)", err=True)

    serve_site(directory, port, on_ready=ready)


def main(argv: list[str] | None = None) -> None:
    """Run the CLI; a `SpectrackError` becomes a one-line message and its exit code."""
    try:
        cli.main(args=argv, prog_name="spectrack", standalone_mode=False)
    except click.exceptions.Exit as stop:
        sys.exit(stop.exit_code)
    except click.ClickException as usage:
        usage.show()
        sys.exit(EXIT_USAGE)
    except click.exceptions.Abort:
        click.echo("spectrack: aborted", err=True)
        sys.exit(EXIT_USAGE)
    except SpectrackError as error:
        click.echo(f"spectrack: error: {error}", err=True)
        sys.exit(error.exit_code)
