"""Exit codes, shared by every command (see README, "Alerting in CI").

0 nothing at or above ``--fail-on``; 1 changes at or above it; 2 usage or input error;
3 the run finished but some pages could not be fetched; 130 interrupted (Ctrl-C), as shells
report a command SIGINT stopped. ``--exit-zero`` turns 1 into 0 for
report-only jobs; errors keep their codes.
"""

from __future__ import annotations

from spectrack.model import verdict_rank

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_FETCH_FAILED = 3
EXIT_INTERRUPTED = 130
ABORTED = "spectrack: aborted"
"""What a run stopped by Ctrl-C says, on standard error, as it exits with `EXIT_INTERRUPTED`."""

FAIL_ON_CHOICES = ("normative", "editorial", "formatting", "never")
"""Values of ``--fail-on``: a change class, or ``never``."""


def fails(verdict: str, fail_on: str) -> bool:
    """Whether a verdict reaches the ``--fail-on`` threshold."""
    return fail_on != "never" and verdict_rank(verdict) >= verdict_rank(fail_on)


def exit_code(
    verdict: str, fail_on: str, exit_zero: bool = False, fetch_failed: bool = False
) -> int:
    """The exit code of a run whose unacknowledged changes reach ``verdict``.

    Findings win over fetch failures: the alert is what the job exists for, and the failed pages
    are listed anyway. ``exit_zero`` silences findings only, never an incomplete run.
    """
    if fails(verdict, fail_on) and not exit_zero:
        return EXIT_FINDINGS
    if fetch_failed:
        return EXIT_FETCH_FAILED
    return EXIT_CLEAN
