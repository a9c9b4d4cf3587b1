"""Backfill a source from a specification's own git history (``spectrack import-git``).

Every commit on the repository's first-parent history that touched a Markdown/MDX page under
``path`` becomes one revision per touched page, dated by the commit (upstream time = committer
date, precision second, trailer ``Spectrack-Upstream-Commit``). A merge counts as one change
against its first parent. A file's URL is ``url_base`` + its path below ``path`` without the
suffix; ``index`` (in any letter case, as the suffix) names its folder (``draft/index.mdx`` →
``<url_base>/draft``), so later fetches of the live site continue the same pages. A deleted file
becomes a removal only when no other file of the same URL remains upstream (a rename such as
``tools.mdx`` → ``tools.md``, or ``tools.md`` beside ``tools/index.md``); otherwise the page
shows the remaining file, the one written last. Files that are not UTF-8 text, or whose names
are not UTF-8, are left out and listed. The whole import is one
``git fast-import`` stream, published whole or, when the import fails, not at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path, PurePosixPath
from urllib.parse import quote

from spectrack.config import http_url_problem, valid_source_name
from spectrack.dates import Clock, Precision, TimeSource, UpstreamTime, utc_now
from spectrack.errors import InputError
from spectrack.git import REGULAR_FILES, run_git
from spectrack.pages import PAGE_SUFFIXES, decode_page, is_utf8, url_path
from spectrack.progress import Progress, SilentProgress
from spectrack.store import BlobReader, Store


@dataclass(frozen=True, slots=True)
class FileChange:
    relative: str
    """Path below the imported folder."""
    blob: str | None
    """The new blob; None for a deletion."""


@dataclass(frozen=True, slots=True)
class UpstreamCommit:
    sha: str
    time: datetime | None
    """The committer date; None when git cannot show it (before 1970, or malformed)."""
    changes: tuple[FileChange, ...]


@dataclass(frozen=True, slots=True)
class ImportSummary:
    commits: int
    """Upstream commits that touched a page."""
    revisions: int
    """Revisions stored (additions, changes and removals)."""
    pages: int
    """Distinct pages seen."""
    skipped: tuple[str, ...] = ()
    """Files left out, with the reason."""


_PATH_SAFE = "/!$&'()*+,;=:@~"
"""What a URL path holds as it is (RFC 3986 ``pchar``): sites and their sitemaps write
``pkg@2`` or ``c(1)`` so, and a page must get the URL a fetch of the live site finds."""


def page_url(url_base: str, relative: str) -> str:
    """The URL of a page file below the imported folder."""
    stem = url_path(relative)
    return url_base.rstrip("/") + ("/" + quote(stem, safe=_PATH_SAFE) if stem else "")


def _folder_prefix(folder: str) -> str:
    """``folder`` as git names paths below it: '' for the root, else ``a/b/``.

    git prints names without ``./`` and relative to the top, so ``.``, ``./docs`` and
    ``/docs`` must become '' and ``docs/`` to match them.
    """
    parts = [part for part in PurePosixPath(folder).parts if part.strip("/")]
    if ".." in parts:
        raise InputError(f"--path {folder!r}: must stay inside the repository (no '..')")
    return "".join(part + "/" for part in parts if part != ".")


def upstream_commits(repo: Path, folder: str) -> list[UpstreamCommit]:
    """Commits touching pages under ``folder``, oldest first, with their page changes."""
    prefix = _folder_prefix(folder)
    if not run_git(repo, "rev-parse", "--verify", "--quiet", "HEAD", check=False):
        raise InputError(f"{repo}: the repository has no commit yet; nothing to import")
    output = run_git(
        repo,
        "log",
        "--reverse",
        "--first-parent",
        "--diff-merges=first-parent",
        "--format=%x01%H %cI",
        "--raw",
        "--no-abbrev",
        "--no-renames",
        "-z",
        "HEAD",
        "--",
        prefix or ".",
    )
    commits = []
    for chunk in output.split(b"\x01")[1:]:
        header, _, rest = chunk.partition(b"\x00")
        sha, when = header.decode().split(" ", 1)
        fields = rest.lstrip(b"\n").split(b"\x00")
        changes = []
        for meta, raw_path in zip(fields[0::2], fields[1::2], strict=False):
            if not meta.startswith(b":"):
                continue
            parts = meta.decode().split()
            name = raw_path.decode("utf-8", "surrogateescape")
            if (
                not name.startswith(prefix)
                or PurePosixPath(name).suffix.lower() not in PAGE_SUFFIXES
            ):
                continue
            # A symbolic link's blob is the path it points to; a submodule has no blob. A file
            # that becomes one (a change of type) leaves as if deleted.
            was_page, is_page = parts[0].lstrip(":") in REGULAR_FILES, parts[1] in REGULAR_FILES
            if not is_page and not was_page:
                continue
            blob = parts[3] if is_page else None
            changes.append(FileChange(name[len(prefix) :], blob))
        if changes:
            commits.append(UpstreamCommit(sha, _commit_time(when), tuple(changes)))
    return commits


def _commit_time(text: str) -> datetime | None:
    """A committer date as ``git log`` printed it; None where git printed its placeholder (a
    date before 1970, or one it cannot read)."""
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def upstream_history(repo: Path, folder: str) -> list[UpstreamCommit]:
    """`upstream_commits`, refusing a history with none: read before a store is made for it."""
    commits = upstream_commits(repo, folder)
    if not commits:
        raise InputError(f"{repo}: no commit touches a Markdown page under {folder!r}")
    return commits


def check_arguments(repo: Path, folder: str, source: str, url_base: str) -> None:
    """Refuse a folder, source name, URL or repository that `import_git` cannot use (before a
    store is made for it)."""
    _folder_prefix(folder)
    if not valid_source_name(source):
        raise InputError(f"{source!r}: not a source name (letters, digits, '.', '_', '-')")
    problem = http_url_problem(url_base)
    if problem is not None:
        raise InputError(f"--url-base {url_base!r}: {problem}")
    if "?" in url_base or "#" in url_base:
        # Each page's path is put after it: https://x.org/docs?v=2 would give .../docs?v=2/tools,
        # a URL no sitemap lists, so later fetches would not continue the imported pages.
        raise InputError(
            f"--url-base {url_base!r}: the pages' paths are put after it, so it may have no "
            "query (?) or fragment (#)"
        )
    if not (repo / ".git").exists() and not (repo / "HEAD").exists():
        raise InputError(f"{repo}: not a git repository")


def import_git(
    store: Store,
    repo: Path,
    *,
    folder: str,
    source: str,
    url_base: str,
    clock: Clock = utc_now,
    progress: Progress | None = None,
    lock_wait: float = 10.0,
    commits: Sequence[UpstreamCommit] | None = None,
) -> ImportSummary:
    """Record the history of ``folder`` in ``repo`` as source ``source`` of ``store``;
    ``commits`` is that history when already read (see `upstream_history`)."""
    check_arguments(repo, folder, source, url_base)
    if commits is None:
        commits = upstream_history(repo, folder)
    report = progress or SilentProgress()
    skipped: list[str] = []
    revisions = 0
    urls: set[str] = set()
    # By URL, the files upstream that hold it now, with their blobs, the last written last:
    # a page leaves only with the last of them.
    live: dict[str, dict[str, str]] = {}
    reader = BlobReader(repo)
    try:
        # All or nothing: a partial import would make the retry refuse a source with pages.
        with store.writer(clock, lock_wait, whole=True) as writer:
            present = writer.states(source)
            if present:
                raise InputError(
                    f"source {source!r} already has {len(present)} pages in the store; "
                    "import-git backfills an empty source"
                )
            report.start(f"import {source}", len(commits))
            for commit in commits:
                upstream = (
                    UpstreamTime(commit.time, TimeSource.COMMIT, Precision.SECOND)
                    if commit.time is not None
                    # As for a lastmod git cannot keep: the time it was recorded is the best known.
                    else UpstreamTime(clock(), TimeSource.FETCH, Precision.SECOND)
                )
                changes = []
                for change in commit.changes:
                    if is_utf8(change.relative):
                        changes.append(change)
                    elif change.blob is not None:
                        shown = change.relative.encode("utf-8", "surrogateescape")
                        name = shown.decode("utf-8", "backslashreplace")
                        skipped.append(f"{commit.sha[:12]} {name}: file name not UTF-8")
                for change in changes:
                    files = live.setdefault(page_url(url_base, change.relative), {})
                    files.pop(change.relative, None)
                    if change.blob is not None:
                        files[change.relative] = change.blob
                # A rename to a file of the same URL (tools.mdx -> tools.md) comes as a deletion
                # and an addition, in either order: the addition records the page.
                kept = {page_url(url_base, c.relative) for c in changes if c.blob}
                last_of_url = {page_url(url_base, c.relative): c for c in changes if c.blob}
                # Removals first: a name they free is then the new page's own (b.md renamed B.md
                # is page B, not B~hash beside a page b that is gone).
                for change in sorted(changes, key=lambda c: c.blob is not None):
                    url = page_url(url_base, change.relative)
                    relative, blob = change.relative, change.blob
                    if blob is not None and last_of_url[url] is not change:
                        skipped.append(
                            f"{commit.sha[:12]} {relative}: {last_of_url[url].relative} of the "
                            f"same commit is page {url} too, and is the one recorded"
                        )
                        continue
                    if blob is None:
                        if url in kept:
                            continue
                        if not live[url]:
                            if url in writer.states(source):
                                writer.remove(source, url, "deleted upstream", upstream, commit.sha)
                                revisions += 1
                            continue
                        relative, blob = list(live[url].items())[-1]
                    body = reader.read(blob) or b""
                    try:
                        decode_page(body, relative)
                    except InputError as error:
                        skipped.append(f"{commit.sha[:12]} {error}")
                        continue
                    urls.add(url)
                    recorded = writer.record(
                        source, url, body, upstream, upstream_commit=commit.sha
                    )
                    revisions += recorded.event is not None
                report.advance()
    finally:
        reader.close()
    return ImportSummary(len(commits), revisions, len(urls), tuple(skipped))
