"""``python -m spectrack.demo`` (``make demo``): the whole loop on the bundled example, offline.

The example (``examples/spec/``, see ``examples/README.md``) is a folder per revision. The demo
serves each revision in turn as a small documentation site on 127.0.0.1 (a sitemap with
``lastmod`` dates, one Markdown file per page), fetches it into a fresh snapshot store, prints
what each revision changed, and ends by building the change site from that store.

Everything it writes lives in its own scratch folder (``build/demo/`` by default): ``snapshots/``,
``site/`` and a ``.spectrack-demo`` note that marks the folder as the demo's. Each run replaces
those two folders and touches nothing else; a folder named on the command line must be missing,
empty or one the demo made.
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TextIO

from spectrack.config import single_source_config
from spectrack.errors import InputError, SpectrackError
from spectrack.formats import FORMATS, FormatOptions
from spectrack.history import net_report
from spectrack.model import Report
from spectrack.serve import LocalSite, pages_in
from spectrack.site.build import build
from spectrack.site.collect import collect
from spectrack.store import Store
from spectrack.track import FetchSummary, run_fetch, summary_lines

EXAMPLE_SPEC = Path(__file__).resolve().parent.parent / "examples" / "spec"
"""The example's revisions, in the source tree next to the package."""

SCRATCH = Path("build") / "demo"
SOURCE = "kettle"
FIRST_EDIT = datetime(2026, 3, 2, 9, 30, tzinfo=UTC)
"""When the example's first revision was "published"; each later one follows a week on."""

_NUMBER = re.compile(r"\d+")

MARKER = ".spectrack-demo"
OWN = ("snapshots", "site")
"""What the demo writes into its folder, and so all that a later run may remove."""


@dataclass(frozen=True, slots=True)
class Step:
    """One revision of the example, fetched into the store."""

    revision: str
    fetch: FetchSummary
    report: Report
    """What the revisions recorded by this fetch changed (empty for the first one)."""


def revision_dirs(spec: Path) -> list[Path]:
    """The revision folders of ``spec`` in order (``rev2`` before ``rev10``)."""
    if not spec.is_dir():
        raise InputError(f"{spec}: no example specification here (expected a folder of revisions)")
    folders = [path for path in spec.iterdir() if path.is_dir()]
    folders.sort(key=lambda path: [int(n) for n in _NUMBER.findall(path.name)] + [path.name])
    if len(folders) < 2:
        raise InputError(f"{spec}: needs at least two revision folders to compare")
    return folders


def prepare_scratch(scratch: Path) -> None:
    """Make ``scratch`` ready for a run, removing only what an earlier run wrote there."""
    if scratch.exists() and not scratch.is_dir():
        raise InputError(f"{scratch}: not a folder; name a new or empty folder for the demo")
    if scratch.is_dir() and any(scratch.iterdir()) and not _made_by_demo(scratch):
        raise InputError(
            f"{scratch}: not empty and not made by the demo, which would replace its snapshots/ "
            "and site/; name a new or empty folder"
        )
    try:
        for name in OWN:
            if (scratch / name).exists():
                shutil.rmtree(scratch / name)
        scratch.mkdir(parents=True, exist_ok=True)
        (scratch / MARKER).write_text(
            "Made by `python -m spectrack.demo`, which replaces snapshots/ and site/ here on "
            "every run.\n",
            encoding="utf-8",
        )
    except OSError as error:
        raise InputError(f"{scratch}: cannot prepare the demo folder: {error.strerror}") from error


def _made_by_demo(folder: Path) -> bool:
    if (folder / MARKER).is_file():
        return True
    # Versions before the marker left just the store of the demo's one source and the site,
    # as in a build/demo/ that `make demo` must keep reusing.
    store = folder / "snapshots"
    return (
        {path.name for path in folder.iterdir()} <= set(OWN)
        and store.is_dir()
        and {path.name for path in store.iterdir() if not path.name.startswith(".")} <= {SOURCE}
    )


def _clock_at(moment: datetime) -> Callable[[], datetime]:
    return lambda: moment


def track_revisions(spec: Path, store_path: Path) -> list[Step]:
    """Serve each revision of ``spec`` on 127.0.0.1 and fetch it into the store at ``store_path``."""
    steps = []
    with LocalSite() as site:
        config = single_source_config(
            store_path, SOURCE, site.url("/sitemap.xml"), markdown="{url}.md"
        )
        for number, folder in enumerate(revision_dirs(spec)):
            edited = FIRST_EDIT + timedelta(weeks=number)
            site.publish(pages_in(folder), lastmod=edited.isoformat().replace("+00:00", "Z"))
            known = _recorded_commits(store_path)
            summary = run_fetch(config, clock=_clock_at(edited + timedelta(hours=2)))
            with Store.open(store_path) as store:
                recorded = [r for r in store.revisions() if r.commit not in known]
                report = net_report(store, recorded) if known else Report()
            steps.append(Step(folder.name, summary, report))
    return steps


def _recorded_commits(store_path: Path) -> set[str]:
    if not store_path.exists():
        return set()
    with Store.open(store_path) as store:
        return {revision.commit for revision in store.revisions()}


def write_step(step: Step, previous: str | None, stream: TextIO, options: FormatOptions) -> None:
    heading = f"{previous} → {step.revision}" if previous else f"{step.revision} (first fetch)"
    stream.write(f"\n── {heading} {'─' * max(3, 72 - len(heading))}\n")
    for line in summary_lines(step.fetch):
        stream.write(line + "\n")
    if previous:
        stream.flush()
        FORMATS["text"](step.report, stream, options)


def main() -> None:
    spec = Path(sys.argv[1]) if len(sys.argv) > 1 else EXAMPLE_SPEC
    scratch = Path(sys.argv[2]) if len(sys.argv) > 2 else SCRATCH
    store_path, site_path = scratch / "snapshots", scratch / "site"
    try:
        revision_dirs(spec)
        prepare_scratch(scratch)
        steps = track_revisions(spec, store_path)
        with Store.open(store_path) as store:
            result = build(collect(store, title="Kettle Control Protocol — changes"), site_path)
    except SpectrackError as error:
        print(f"spectrack demo: error: {error}", file=sys.stderr)
        sys.exit(error.exit_code)
    print(
        f"The example specification in {spec}: {len(steps)} revisions, served one after the "
        f"other on 127.0.0.1 and fetched into the snapshot store {store_path}."
    )
    previous = None
    for step in steps:
        write_step(step, previous, sys.stdout, FormatOptions())
        previous = step.revision
    print(
        f"\nThe change site: {len(result.written)} files in {site_path}. Open "
        f"{(site_path / 'index.html').resolve().as_uri()} in a browser, or run:\n"
        f"  .venv/bin/spectrack serve {site_path}"
    )


if __name__ == "__main__":
    main()
