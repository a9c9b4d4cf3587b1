"""Acknowledged changes: reviewed once, still reported, no longer failing ``--fail-on``.

`spectrack ack` appends entries to ``spectrack-ack.toml`` (next to ``spectrack.toml``)::

    [[ack]]
    fingerprint = "3f2a9c0b1d4e5f6a"
    reason = "Reviewed in #42: our client already validates."
    recorded = 2025-01-02T03:04:05+00:00

The file is only ever appended to, so hand-written comments and earlier entries stay as they are.
`review` takes acknowledgements from any source and applies them to a `Report` without changing
it; `gather_acks` collects those of a run: the acknowledgement file, then the configuration's
``ignore`` list (reason ``spectrack.toml, ignore[N]``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

from spectrack.config import CONFIG_FILE, Config
from spectrack.errors import ConfigError, InputError
from spectrack.fingerprints import FINGERPRINT_LENGTH, FINGERPRINT_PATTERN, page_fingerprints
from spectrack.model import ChangeClass, PageReport, Report, highest_verdict
from spectrack.pages import is_utf8, not_utf8

ACK_FILE = "spectrack-ack.toml"
"""Default acknowledgement file, in the directory of ``spectrack.toml``."""

_HEADER = """\
# Changes reviewed with `spectrack ack`: they are still reported, marked acknowledged,
# but no longer count toward --fail-on. Entries are appended; remove one to un-acknowledge it.
"""
_KEYS = {"fingerprint", "reason", "recorded"}


@dataclass(frozen=True, slots=True)
class Acknowledgement:
    fingerprint: str
    reason: str
    origin: str
    """Where it was written, for messages: ``spectrack-ack.toml, ack #3``."""


@dataclass(frozen=True, slots=True)
class Review:
    """A report with acknowledgements applied."""

    report: Report
    acknowledged: Mapping[str, str]
    """Fingerprint → reason, for the changes of the report that were acknowledged."""
    unknown: tuple[Acknowledgement, ...]
    """Acknowledgements matching no change of the report: warned about, otherwise ignored."""

    @property
    def verdict(self) -> str:
        """The highest class among the changes that were not acknowledged."""
        return report_verdict(self.report, self.acknowledged)


def parse_fingerprint(text: str) -> str:
    """A fingerprint as typed by a user, checked and lower-cased."""
    candidate = text.strip().lower()
    if not FINGERPRINT_PATTERN.fullmatch(candidate):
        raise InputError(
            f"{text!r}: not a change fingerprint ({FINGERPRINT_LENGTH} hex digits, "
            "as shown by --format github, markdown or sarif)"
        )
    return candidate


def open_classes(page: PageReport, acknowledged: Collection[str]) -> list[ChangeClass]:
    """The class of each change of ``page`` that was not acknowledged."""
    return [
        change.change_class
        for change, fingerprint in zip(page.changes, page_fingerprints(page), strict=True)
        if fingerprint not in acknowledged
    ]


def page_verdict(page: PageReport, acknowledged: Collection[str]) -> str:
    """A page's verdict counting only the changes that were not acknowledged."""
    return highest_verdict(open_classes(page, acknowledged))


def report_verdict(report: Report, acknowledged: Collection[str]) -> str:
    """The report's verdict counting only the changes that were not acknowledged."""
    return highest_verdict(c for page in report.pages for c in open_classes(page, acknowledged))


def open_counts(report: Report, acknowledged: Collection[str]) -> dict[str, int]:
    """Changes per class that were not acknowledged, most important class first."""
    counts = {change_class.value: 0 for change_class in reversed(ChangeClass)}
    for page in report.pages:
        for change_class in open_classes(page, acknowledged):
            counts[change_class.value] += 1
    return counts


def review(report: Report, acknowledgements: Iterable[Acknowledgement]) -> Review:
    """Apply acknowledgements to a report; the first reason given for a fingerprint wins."""
    present = {fingerprint for page in report.pages for fingerprint in page_fingerprints(page)}
    acknowledged: dict[str, str] = {}
    unknown = []
    for ack in acknowledgements:
        if ack.fingerprint not in present:
            unknown.append(ack)
        else:
            acknowledged.setdefault(ack.fingerprint, ack.reason)
    return Review(report, acknowledged, tuple(unknown))


def _entry(path: Path, number: int, entry: Any) -> Acknowledgement:
    where = f"{path}: ack #{number}"
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: expected a table ([[ack]])")
    unknown = sorted(entry.keys() - _KEYS)
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r} (expected {sorted(_KEYS)})")
    fingerprint, reason = entry.get("fingerprint"), entry.get("reason")
    # Upper case as the command line and the `ignore` list take it: a report shows lower case.
    if isinstance(fingerprint, str):
        fingerprint = fingerprint.lower()
    if not isinstance(fingerprint, str) or not FINGERPRINT_PATTERN.fullmatch(fingerprint):
        raise ConfigError(f"{where}: 'fingerprint' must be {FINGERPRINT_LENGTH} hex digits")
    if not isinstance(reason, str) or not reason.strip():
        raise ConfigError(f"{where}: 'reason' must be a non-empty string")
    if "recorded" in entry and not isinstance(entry["recorded"], date):
        raise ConfigError(f"{where}: 'recorded' must be a TOML date-time")
    return Acknowledgement(fingerprint, reason, f"{path}, ack #{number}")


def _read(path: Path) -> str | None:
    try:
        # As the configuration: a byte order mark an editor wrote is no TOML.
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as error:
        raise ConfigError(
            f"{path}: the acknowledgement file is {not_utf8(error)}; save it as UTF-8"
        ) from None
    except OSError as error:
        raise ConfigError(
            f"{path}: cannot read the acknowledgement file ({error.strerror or error})"
        ) from None


def load_acks(path: Path, required: bool = False) -> tuple[Acknowledgement, ...]:
    """The acknowledgements in ``path``; a missing file is none unless ``required``."""
    text = _read(path)
    if text is None and required:
        raise ConfigError(f"{path}: no such acknowledgement file")
    return _parse(path, text or "")


def _parse(path: Path, text: str) -> tuple[Acknowledgement, ...]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: invalid TOML ({error})") from None
    except RecursionError:
        raise ConfigError(f"{path}: invalid TOML (arrays or tables nested too deeply)") from None
    unknown = sorted(data.keys() - {"ack"})
    if unknown:
        raise ConfigError(f"{path}: unknown key {unknown[0]!r} (expected [[ack]] tables)")
    entries = data.get("ack", [])
    if not isinstance(entries, list):
        raise ConfigError(f"{path}: 'ack' must be an array of tables ([[ack]])")
    return tuple(_entry(path, number, entry) for number, entry in enumerate(entries, 1))


def config_acks(config: Config) -> tuple[Acknowledgement, ...]:
    """The configuration's ``ignore`` list; each entry's reason says where it is."""
    where = str(config.path or CONFIG_FILE)
    return tuple(
        Acknowledgement(fingerprint, f"{where}, ignore[{index}]", f"{where}, ignore[{index}]")
        for index, fingerprint in enumerate(config.ignore)
    )


def default_ack_file(config: Config | None) -> Path:
    """``spectrack-ack.toml`` beside the configuration file, else in the current folder."""
    if config is not None and config.path is not None:
        return config.path.parent / ACK_FILE
    return Path(ACK_FILE)


def gather_acks(ack_file: Path | None, config: Config | None) -> tuple[Acknowledgement, ...]:
    """A run's acknowledgements: ``ack_file`` (which must exist) or the default file (when it
    exists), then the configuration's ``ignore`` list."""
    from_file = load_acks(ack_file or default_ack_file(config), required=ack_file is not None)
    return from_file + (config_acks(config) if config is not None else ())


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string."""
    escaped = []
    for char in text:
        if char in '"\\':
            escaped.append("\\" + char)
        elif (char < " " and char != "\t") or char == "\x7f":
            escaped.append(f"\\u{ord(char):04X}")
        else:
            escaped.append(char)
    return '"' + "".join(escaped) + '"'


def record_acks(
    path: Path, fingerprints: Sequence[str], reason: str, now: datetime
) -> tuple[str, ...]:
    """Append acknowledgements of ``fingerprints`` to ``path``; returns those newly recorded.

    Fingerprints already acknowledged in the file are skipped; the file is never rewritten.
    """
    if not reason.strip():
        raise InputError("--reason: say why the change is acknowledged")
    if not is_utf8(reason):
        raise InputError("--reason: not valid UTF-8 text")
    text = _read(path)
    existing = {ack.fingerprint for ack in _parse(path, text or "")}
    new = [
        fingerprint for fingerprint in dict.fromkeys(fingerprints) if fingerprint not in existing
    ]
    if not new:
        return ()
    if text is None:
        chunk = _HEADER
    elif text and not text.endswith("\n"):
        chunk = "\n"
    else:
        chunk = ""
    stamp = now.isoformat(timespec="seconds")
    for fingerprint in new:
        chunk += (
            f"\n[[ack]]\nfingerprint = {toml_string(fingerprint)}\n"
            f"reason = {toml_string(reason)}\nrecorded = {stamp}\n"
        )
    try:
        tomllib.loads((text or "") + chunk)
    except tomllib.TOMLDecodeError:
        # `ack = [...]` (an inline array, also an empty one) is valid, but closed to [[ack]] tables.
        raise ConfigError(
            f"{path}: its acknowledgements are written as an inline array (ack = [...]), to which "
            "[[ack]] tables cannot be appended; rewrite them as [[ack]] tables and run again"
        ) from None
    try:
        with path.open("a", encoding="utf-8") as file:
            file.write(chunk)
    except OSError as error:
        raise InputError(
            f"{path}: cannot write the acknowledgement file ({error.strerror})"
        ) from None
    return tuple(new)
