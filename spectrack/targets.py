"""Pages of the snapshot store as ``spectrack diff`` inputs, beside files and git revisions.

A PAGE is a page id (its store path without ``.md``, e.g. ``mcp/specification/draft/server/tools``),
its store file path, or its URL; ``PAGE@REV`` names it at a store commit (hex id, ``HEAD~2``…) and
``PAGE@DATE`` as it was at an upstream date (``2025-06-18``, an ISO datetime, ``3d``)::

    diff PAGE                  the page's latest change
    diff PAGE@REV|PAGE@DATE    the change in force at that commit or date
    diff A B                   A's text against B's; A and B are PAGE, PAGE@REV or PAGE@DATE,
                               a bare PAGE meaning its latest text
    diff --since DATE          every page with a revision *recorded* since DATE: its text before
                               the first of them against its text now (``sources`` narrows)

`compare_targets` decides: an existing file or folder is a file; PATHs after ``--``, ``--repo``
or ``A..B`` mean git revisions (`spectrack.gitrev`); otherwise arguments that name pages of the
store are store pages, and anything else goes on to `spectrack.gitrev.compare_inputs`.

A comparison of store pages carries, for each page, the release nearest the upstream time of the
revision that gave its new side (the change's own revision; the page's latest one with
``--since``), or None; comparisons of files and git revisions carry no release context.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from spectrack.comparison import Comparison, PageFiles, located, work_tree_root
from spectrack.dates import looks_like_date, parse_when
from spectrack.diff import diff_texts
from spectrack.errors import InputError
from spectrack.gitrev import compare_inputs, is_range
from spectrack.history import net_report, revision_report
from spectrack.model import PageReport, PageStatus, Report
from spectrack.paths import PAGE_SUFFIX
from spectrack.releases import ReleaseBook
from spectrack.store import BRANCH, Revision, Store

_REV = re.compile(r"[0-9a-fA-F]{4,40}|(?:HEAD|main)(?:[~^]\d*)*")


@dataclass(frozen=True, slots=True)
class PageRef:
    name: str
    """The page as written: id, store path or URL."""
    at: str | None = None
    """The text after ``@`` (a revision or a date); None for the latest."""


def parse_page_ref(argument: str, store: Store | None = None) -> PageRef:
    """``argument`` as a page and what follows its last ``@``; a page of ``store`` whose own name
    holds ``@`` and a revision or date (``schema@2025-06-18``) is that page, at its latest.

    A URL's fragment names no page (``…/tools#calling@2025-06-18`` finds the page ``…/tools``
    whole), so an ``@`` in it still says when, as it does after the URL without it."""
    name, sep, at = argument.rpartition("@")
    revision = sep and name and (looks_like_date(at) or _REV.fullmatch(at))
    if revision and (store is None or store.find(argument) in (None, store.find(name))):
        return PageRef(name, at)
    return PageRef(argument)


def read_as_note(store: Store, name: str) -> str | None:
    """What a page URL was read as, when the store has no page of it as written but one of it
    with its trailing slash dropped or added (see `Store.url_read_as`)."""
    url = store.url_read_as(name)
    if url is None:
        return None
    return f"{name} is no page URL of the store; read as {url} ({store.find(name)})"


def read_as_notes(store_path: Path, arguments: Sequence[str]) -> list[str]:
    """`read_as_note` for each page URL among the arguments of ``spectrack diff``."""
    urls = [argument for argument in arguments if "://" in argument]
    if not urls or not (store_path / ".git").exists():
        return []
    with Store.open(store_path) as store:
        notes = (read_as_note(store, parse_page_ref(url, store).name) for url in urls)
        return [note for note in notes if note is not None]


def _revision(store: Store, page: str, at: str | None) -> Revision | None:
    """The revision of ``page`` in force at ``at`` (latest when None)."""
    if at is None:
        history = store.history(page)
        return history[-1] if history else None
    if looks_like_date(at):
        return store.at(page, parse_when(at))
    return store.revision_at(page, at)


def _text_at(store: Store, page: str, at: str | None) -> str | None:
    if at is None:
        return store.read(page, BRANCH)
    if looks_like_date(at):
        revision = store.at(page, parse_when(at))
        return store.read(page, revision.commit) if revision else None
    return store.read(page, store.rev_parse(at))


def _page(store: Store, ref: PageRef) -> str:
    """The store page ``ref`` names; when only the text after its ``@`` is wrong, say so."""
    page = store.find(ref.name)
    if page is not None:
        return page
    if ref.at is None and _page_before_at(store, ref.name) is not None:
        at = ref.name.rpartition("@")[2]
        raise InputError(
            f"{ref.name}: {at!r} is neither a revision of the store (a commit id, HEAD, HEAD~N) "
            "nor a date (YYYY-MM-DD, or an ISO time)"
        )
    return store.resolve(ref.name)


def _page_before_at(store: Store, name: str) -> str | None:
    """The page that ``name`` up to its last ``@`` names, if any (the rest then is a mistyped
    revision or date)."""
    before, sep, _ = name.rpartition("@")
    return store.find(before) if sep and before else None


def _ref_revision(store: Store, ref: PageRef) -> Revision | None:
    return _revision(store, _page(store, ref), ref.at)


def change_report(store: Store, ref: PageRef) -> tuple[PageReport, Revision]:
    """The change a page's revision made (its latest, or the one in force at ``ref.at``), and
    that revision."""
    page = _page(store, ref)
    revision = _revision(store, page, ref.at)
    if revision is None:
        raise InputError(f"{ref.name}: no revision of {page} at {ref.at or 'any time'}")
    return revision_report(store, revision), revision


def compare_report(store: Store, old: PageRef, new: PageRef) -> PageReport:
    """``old``'s text against ``new``'s."""
    old_page, new_page = _page(store, old), _page(store, new)
    old_text = _text_at(store, old_page, old.at)
    new_text = _text_at(store, new_page, new.at)
    if old_text is None and new_text is None:
        raise InputError(f"{old.name} and {new.name}: neither page exists at those points")
    return diff_texts(old_text, new_text, new_page + PAGE_SUFFIX)


def since_report(store: Store, since: datetime, sources: Collection[str] = ()) -> Report:
    """Every page with revisions recorded since ``since``: before them against now."""
    store.require_sources(sources)
    revisions = store.revisions(since=since)
    return net_report(store, [r for r in revisions if not sources or r.source in sources])


def _open_store(path: Path, missing: str) -> Store:
    """The store at ``path``; `InputError` with the message ``missing`` when there is none."""
    if not (path / ".git").exists():
        raise InputError(f"{missing} (give --store or --config)")
    return Store.open(path)


def latest_revisions(store: Store, report: Report) -> dict[str, Revision | None]:
    revisions: dict[str, Revision | None] = {}
    for page in report.pages:
        history = store.history(page.path.removesuffix(PAGE_SUFFIX))
        revisions[page.path] = history[-1] if history else None
    return revisions


def store_comparison(
    store: Store,
    report: Report,
    revisions: Mapping[str, Revision | None] | None = None,
    old_files: Mapping[str, str] | None = None,
) -> Comparison:
    """Locate each page of a report at its file in the store, and give each the release nearest
    the upstream time of its revision in ``revisions`` (by default, its latest revision).

    ``old_files`` names, by page path, the store file of a page's old side when it is another
    page's (two pages compared): what was removed is located in the page it was removed from.
    """
    if revisions is None:
        revisions = latest_revisions(store, report)
    book = ReleaseBook.load(store)
    releases = {
        path: book.nearest(revision.source, revision.upstream_time) if revision else None
        for path, revision in revisions.items()
    }
    locations = {}
    root = work_tree_root()
    for page in report.pages:
        where = located(store.path / page.path, root)
        old_file = (old_files or {}).get(page.path)
        old_where = where if old_file is None else located(store.path / old_file, root)
        locations[page.path] = PageFiles(
            None if page.status is PageStatus.ADDED else old_where,
            None if page.status is PageStatus.REMOVED else where,
        )
    return Comparison(report, locations, releases)


def _names_pages(store_path: Path, arguments: Sequence[str]) -> bool:
    if not (store_path / ".git").exists():
        return False
    with Store.open(store_path) as store:
        return all(_names_a_page(store, argument) for argument in arguments)


def _names_a_page(store: Store, argument: str) -> bool:
    """Whether ``argument`` names a store page, also with a mistyped ``@REV`` (`_page` says so)."""
    name = parse_page_ref(argument, store).name
    return store.find(name) is not None or _page_before_at(store, name) is not None


def compare_targets(
    old: str | None,
    new: str | None,
    paths: Sequence[str],
    repo: Path | None,
    *,
    store_path: Path,
    since: datetime | None = None,
    sources: Collection[str] = (),
) -> Comparison:
    """What ``spectrack diff`` compares for its arguments (see the module docstring)."""
    if since is not None:
        if old is not None or paths:
            raise InputError("--since compares the whole store; give no PAGE with it")
        missing = f"--since reads the snapshot store at {store_path}, and there is none"
        with _open_store(store_path, missing) as store:
            return store_comparison(store, since_report(store, since, sources))
    if old is None:
        raise InputError(
            "give two files or folders, one or two store pages (PAGE, PAGE@REV, PAGE@DATE), "
            "two git revisions, or --since DATE"
        )
    arguments = [old] if new is None else [old, new]
    if "" in arguments:
        # An unset variable in a CI job: an empty path would name the current folder.
        raise InputError("an empty argument names no file, folder, page or revision")
    plain = not paths and repo is None and not is_range(old)
    if plain and not any(Path(a).exists() for a in arguments):
        if new is None:
            missing = (
                f"{old}: no such file or directory, and no snapshot store at {store_path} "
                "to find pages in"
            )
            with _open_store(store_path, missing) as store:
                ref = parse_page_ref(old, store)
                page, revision = change_report(store, ref)
                return store_comparison(store, Report((page,)), {page.path: revision})
        if _names_pages(store_path, arguments):
            with Store.open(store_path) as store:
                old_ref, new_ref = parse_page_ref(old, store), parse_page_ref(new, store)
                page = compare_report(store, old_ref, new_ref)
                revisions = {page.path: _ref_revision(store, new_ref)}
                old_files = {page.path: _page(store, old_ref) + PAGE_SUFFIX}
                return store_comparison(store, Report((page,)), revisions, old_files)
    return compare_inputs(old, new, paths, repo)
