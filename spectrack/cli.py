"""The command line: parses arguments, calls the library, maps errors to exit codes.

No logic lives here. Exit codes: 0 nothing at or above ``--fail-on``, 1 changes at or above it,
2 usage or input error, 3 finished with fetch failures.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from spectrack import formats
from spectrack.diff import diff_paths
from spectrack.errors import SpectrackError
from spectrack.model import verdict_rank
from spectrack.site.serve import serve as serve_site

EXIT_FINDINGS = 1
EXIT_USAGE = 2

FAIL_ON_CHOICES = ("normative", "editorial", "formatting", "never")


def fails(verdict: str, fail_on: str) -> bool:
    """Whether a verdict reaches the ``--fail-on`` threshold."""
    return fail_on != "never" and verdict_rank(verdict) >= verdict_rank(fail_on)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="spectrack")
def cli() -> None:
    """Track specification sites and report what really changed."""


@cli.command()
@click.argument("old", type=click.Path(path_type=Path))
@click.argument("new", type=click.Path(path_type=Path))
@click.option(
    "--format",
    "output_format",
    type=click.Choice(sorted(formats.FORMATS)),
    default="text",
    show_default=True,
    help="Output format.",
)
@click.option(
    "--fail-on",
    type=click.Choice(FAIL_ON_CHOICES),
    default="never",
    show_default=True,
    help="Exit 1 when the verdict reaches this class.",
)
@click.option("--verbose", "-v", is_flag=True, help="List formatting changes one by one.")
@click.option(
    "--color/--no-color", default=None, help="Colour the text report (default: on a terminal)."
)
def diff(
    old: Path, new: Path, output_format: str, fail_on: str, verbose: bool, color: bool | None
) -> None:
    """Compare two pages, or two directories of pages paired by relative path."""
    report = diff_paths(old, new)
    options = formats.FormatOptions(verbose=verbose, color=color)
    formats.FORMATS[output_format](report, sys.stdout, options)
    if fails(report.verdict, fail_on):
        sys.exit(EXIT_FINDINGS)


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
