"""The `spectrack` command's entry point, also run by `python -m spectrack`.

It loads none of the command's modules before it runs, so that Ctrl-C while they load (about a
third of a second) ends the run as Ctrl-C later does: `spectrack: aborted`, exit 130.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Load the command line and run it."""
    try:
        from spectrack.cli import main as run
    except KeyboardInterrupt:
        # Not imported at the top: an installed `spectrack` script imports this module
        # before main() guards anything.
        from spectrack.exitcodes import ABORTED, EXIT_INTERRUPTED

        # Past the ^C a terminal echoes, as Click does for a run it stops.
        sys.stderr.write(f"\n{ABORTED}\n")
        sys.exit(EXIT_INTERRUPTED)
    run()


if __name__ == "__main__":
    main()
