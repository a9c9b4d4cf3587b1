"""Git revisions as inputs: compare the Markdown/MDX pages of two commits of a repository.

``spectrack diff BASE HEAD -- PATH…`` (or ``BASE..HEAD``, or ``BASE...HEAD`` for "since HEAD
left BASE", as in ``git diff``) reads pages straight from git objects with plumbing commands, so
the working tree is never touched. Pages are named by their path from the repository root, which
is what GitHub annotations and SARIF expect; renames are followed, so a renamed page is compared
with its old self, and its removed lines point at the old path.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from spectrack.comparison import Comparison, PageFiles, compare_paths
from spectrack.diff import diff_texts
from spectrack.errors import InputError
from spectrack.git import REGULAR_FILES, run_git
from spectrack.model import PageReport, PageStatus, Report
from spectrack.pages import PAGE_SUFFIXES, decode_page


@dataclass(frozen=True, slots=True)
class RevisionRange:
    """Two revisions of a repository and the paths to compare under them."""

    repo: Path
    """Where git runs: PATHs are relative to it, as on git's command line."""
    base: str
    head: str
    paths: tuple[str, ...] = ()
    """Git pathspecs; empty means the whole repository."""
    since_merge_base: bool = False
    """``BASE...HEAD``: compare HEAD with the commit where it left BASE."""


@dataclass(frozen=True, slots=True)
class _Entry:
    """A page that differs between the two commits: its path and blob on either side."""

    old_path: str | None
    old_blob: str | None
    new_path: str | None
    new_blob: str | None


def is_range(text: str) -> bool:
    """Whether ``text`` is written ``A..B`` or ``A...B``: a ``..`` that is a path segment
    (``../docs/page.md``) names a parent folder instead."""
    return ".." in text and ".." not in text.split("/")


def revision_range(
    old: str, new: str | None, paths: Sequence[str], repo: Path | None
) -> RevisionRange | None:
    """The git revisions `spectrack diff` names, or None when OLD and NEW name files.

    Revisions are meant when ``--repo`` or PATHs are given, when OLD is ``A..B`` (and no such
    file exists), or when neither OLD nor NEW exists as a file or directory.
    """
    ranged = is_range(old) and not Path(old).exists()
    neither_exists = new is not None and not Path(old).exists() and not Path(new).exists()
    if not (repo is not None or paths or ranged or neither_exists):
        return None
    for path in paths:
        if path.startswith("--"):
            raise InputError(f"{path}: options go before -- (every argument after it is a path)")
    pathspecs = list(paths)
    since_merge_base = False
    if ranged:
        since_merge_base = "..." in old
        base, _, head = old.partition("..." if since_merge_base else "..")
        if not base and not head:
            # Two unset variables in a CI job: HEAD against itself would pass any gate.
            raise InputError(f"{old}: a range that names neither revision")
        if not base:
            # An unset BASE variable: HEAD against itself, in a job that checked out HEAD.
            raise InputError(
                f"{old}: a range with no BASE revision (an unset variable?); "
                f"write HEAD{old} to compare from HEAD"
            )
        if new is not None:
            pathspecs.insert(0, new)
    else:
        base, head = old, new or "HEAD"
    return RevisionRange(
        repo or Path("."), base or "HEAD", head or "HEAD", tuple(pathspecs), since_merge_base
    )


def _commit(repo: Path, revision: str) -> str:
    try:
        found = run_git(repo, "rev-parse", "--verify", "--end-of-options", f"{revision}^{{commit}}")
    except InputError:
        raise InputError(f"{revision}: not a commit in the git repository {repo}") from None
    return found.decode().strip()


def _toplevel(repo: Path) -> Path:
    """Where git sees the whole repository: its top folder, or a bare repository itself."""
    if not repo.is_dir():
        raise InputError(f"{repo}: no such directory (--repo)")
    try:
        return Path(os.fsdecode(run_git(repo, "rev-parse", "--show-toplevel").rstrip(b"\n")))
    except InputError as error:
        if "safe.directory" in str(error):
            # A CI container's user is not the checkout's owner; git's last line says what to run.
            allow = str(error).removeprefix(f"{repo}: git rev-parse failed:").strip()
            raise InputError(
                f"{repo}: git refuses a repository owned by another user; allow it with: {allow}"
            ) from None
    # A bare repository has no working tree, but its objects are all a comparison reads.
    if run_git(repo, "rev-parse", "--is-bare-repository", check=False).strip() == b"true":
        return repo
    raise InputError(f"{repo}: not inside a git repository (see --repo)")


def _is_page(path: str | None) -> bool:
    return path is not None and PurePosixPath(path).suffix.lower() in PAGE_SUFFIXES


def _changed_pages(repo: Path, base: str, head: str, paths: Sequence[str]) -> list[_Entry]:
    """Pages that differ between two commits, from ``git diff-tree --raw -z`` with renames."""
    raw = run_git(repo, "diff-tree", "-r", "-z", "--raw", "-M", base, head, "--", *paths)
    fields = raw.decode("utf-8", "surrogateescape").split("\0")
    entries = []
    index = 0
    while index < len(fields) and fields[index].startswith(":"):
        old_mode, new_mode, old_blob, new_blob, status = fields[index][1:].split(" ")
        renamed = status[0] in "RC"
        old_path = fields[index + 1]
        new_path = fields[index + 2] if renamed else old_path
        index += 3 if renamed else 2
        old_side = old_mode in REGULAR_FILES and _is_page(old_path)
        new_side = new_mode in REGULAR_FILES and _is_page(new_path)
        if old_side or new_side:
            entries.append(
                _Entry(
                    old_path if old_side else None,
                    old_blob if old_side else None,
                    new_path if new_side else None,
                    new_blob if new_side else None,
                )
            )
    return entries


def _pages_at(repo: Path, commit: str, paths: Sequence[str]) -> list[str]:
    """Every page in a commit under the paths, from the repository root: the commit's difference
    from the empty tree, so that the paths match as in `_changed_pages` (``git ls-tree`` takes
    neither globs nor ``:(exclude)``)."""
    empty_tree = run_git(repo, "hash-object", "-t", "tree", "--stdin", stdin=b"").decode().strip()
    return [e.new_path for e in _changed_pages(repo, empty_tree, commit, paths) if e.new_path]


def _blobs(repo: Path, blobs: Sequence[str]) -> dict[str, bytes]:
    """The contents of blobs, read in one ``git cat-file --batch``."""
    if not blobs:
        return {}
    output = run_git(repo, "cat-file", "--batch", stdin="".join(f"{b}\n" for b in blobs).encode())
    contents = {}
    position = 0
    for blob in blobs:
        header_end = output.index(b"\n", position)
        header = output[position:header_end].decode().split(" ")
        if len(header) != 3 or header[1] != "blob":
            raise InputError(f"{repo}: git object {blob} is not a readable blob")
        size = int(header[2])
        contents[blob] = output[header_end + 1 : header_end + 1 + size]
        position = header_end + 1 + size + 1
    return contents


def _page_text(blobs: dict[str, bytes], blob: str | None, name: str) -> str | None:
    return decode_page(blobs[blob], name) if blob else None


def _resolved(revisions: RevisionRange) -> tuple[Path, str, str]:
    """Where git runs, and the two commits the revisions name."""
    toplevel = _toplevel(revisions.repo)
    # Without PATHs, compare the whole repository whichever folder --repo names.
    where = revisions.repo if revisions.paths else toplevel
    return where, _commit(where, revisions.base), _commit(where, revisions.head)


def compare_revisions(revisions: RevisionRange) -> Comparison:
    """Compare the pages under the paths between two commits."""
    where, base, head = _resolved(revisions)
    if revisions.since_merge_base:
        base = run_git(where, "merge-base", base, head, check=False).decode().strip()
        if not base:
            raise InputError(
                f"{revisions.base}...{revisions.head}: no common ancestor in the git repository "
                f"{where} (a shallow clone? fetch the history of both, e.g. fetch-depth: 0)"
            )
    entries = _changed_pages(where, base, head, revisions.paths)
    changed = {entry.new_path for entry in entries if entry.new_path}
    blobs = _blobs(where, [b for e in entries for b in (e.old_blob, e.new_blob) if b])
    pages: list[PageReport] = []
    locations: dict[str, PageFiles] = {}
    for entry in entries:
        path = entry.new_path or entry.old_path
        assert path is not None, "a changed page exists on one side at least"
        old_text = _page_text(blobs, entry.old_blob, f"{revisions.base}:{entry.old_path}")
        new_text = _page_text(blobs, entry.new_blob, f"{revisions.head}:{entry.new_path}")
        pages.append(diff_texts(old_text, new_text, path, old_name=entry.old_path))
        locations[path] = PageFiles(entry.old_path, entry.new_path)
    for path in _pages_at(where, head, revisions.paths):
        if path not in changed:
            pages.append(PageReport(path, PageStatus.UNCHANGED, (), (), 0, 0))
            locations[path] = PageFiles(path, path)
    if not pages:
        # A mistyped path or --repo would otherwise pass a CI gate with nothing compared.
        where_named = (
            " ".join(revisions.paths) if revisions.paths else f"the git repository {where}"
        )
        raise InputError(
            f"{where_named}: no Markdown or MDX page there in {revisions.base} or {revisions.head}"
        )
    pages.sort(key=lambda page: page.path)
    return Comparison(Report(tuple(pages)), locations)


def compare_inputs(
    old: str, new: str | None, paths: Sequence[str], repo: Path | None
) -> Comparison:
    """What `spectrack diff` compares: two git revisions, or two files or directories."""
    revisions = revision_range(old, new, paths, repo)
    if revisions is not None:
        if not (paths or repo is not None or is_range(old)):
            try:
                _resolved(revisions)
            except InputError as error:
                # Two names that are neither files nor revisions: most likely mistyped names.
                raise InputError(
                    f"{old}, {new}: no such files or directories, nor git revisions ({error})"
                ) from None
        return compare_revisions(revisions)
    if new is None:
        raise InputError(
            f"{old}: give two files or directories to compare, or git revisions: "
            "BASE HEAD -- PATH… or BASE..HEAD"
        )
    return compare_paths(Path(old), Path(new))
