from pathlib import PurePosixPath

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spectrack.errors import StoreError
from spectrack.paths import MAX_NAME_BYTES, MAX_PATH_BYTES, ensure_inside, page_file

BASE = "https://docs.example.org"


def inside(path: str, source: str = "src") -> bool:
    parts = PurePosixPath(path).parts
    return (
        parts[0] == source
        and len(parts) >= 2
        and all(p not in ("..", ".", "") and not p.startswith(".") for p in parts)
        and "\\" not in path
        and path.endswith(".md")
    )


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("/specification/draft/server/tools", "src/specification/draft/server/tools.md"),
        ("/", "src/index.md"),
        ("/docs/", "src/docs/index.md"),
        ("/guide/README.md", "src/guide/README.md"),
        ("/a/../../etc/passwd", "src/a/%2E%2E/%2E%2E/etc/passwd.md"),
        ("/a/%2e%2e/%2E%2E/x", "src/a/%2E%2E/%2E%2E/x.md"),
        ("/a/..%2f..%2fx", "src/a/%2E.%2F..%2Fx.md"),
        ("/a\\..\\..\\x", "src/a%5C..%5C..%5Cx.md"),
        ("/.git/config", "src/%2Egit/config.md"),
        ("/notes.md/child", "src/notes%2Emd/child.md"),
        ("/con/aux", "src/%63on/%61ux.md"),
        ("/a%00b/c%0Ad", "src/a%00b/c%0Ad.md"),
        ("/100%25/x", "src/100%25/x.md"),
        ("/caf%C3%A9", "src/café.md"),
        ("/bad%FFbyte", "src/bad%25FFbyte.md"),
        ("/trailing.", "src/trailing%2E.md"),
    ],
)
def test_urls_map_to_files_inside_the_source(url: str, expected: str) -> None:
    path = page_file("src", BASE + url)
    assert path == expected
    assert inside(path)


def test_long_names_are_cut_and_hashed() -> None:
    long_a = page_file("src", BASE + "/" + "a" * 300)
    long_b = page_file("src", BASE + "/" + "a" * 299 + "b")
    assert long_a != long_b
    for path in (long_a, long_b):
        assert all(len(part.encode()) <= MAX_NAME_BYTES + 3 for part in PurePosixPath(path).parts)
        assert inside(path)


def test_very_deep_paths_collapse_under_a_hash() -> None:
    path = page_file("src", BASE + "/segment" * 200)
    assert path.startswith("src/_long/") and len(path.encode()) <= MAX_PATH_BYTES


def test_query_strings_keep_pages_apart() -> None:
    plain = page_file("src", BASE + "/page")
    with_query = page_file("src", BASE + "/page?lang=fr")
    assert plain != with_query and inside(with_query)


def test_case_only_clash_gets_its_own_file() -> None:
    first = page_file("src", BASE + "/Guide/Intro")
    taken = {first.casefold()}
    second = page_file("src", BASE + "/guide/intro", taken.__contains__)
    assert second != first and second.casefold() != first.casefold()
    assert second.startswith("src/guide/intro~") and inside(second)


@pytest.mark.parametrize(
    "path",
    ["src/../x.md", "other/x.md", "src/.git/x.md", "/src/x.md", "src//x.md", "src\\x.md", "src"],
)
def test_ensure_inside_refuses_escapes(path: str) -> None:
    with pytest.raises(StoreError, match="unsafe store path"):
        ensure_inside("src", path)


@given(st.lists(st.text(min_size=0, max_size=40), min_size=0, max_size=8))
def test_any_url_path_stays_inside(segments: list[str]) -> None:
    url = BASE + "/" + "/".join(segments)
    try:
        path = page_file("src", url)
    except StoreError:
        return
    assert inside(path)


@given(
    st.text(alphabet="ab./%\\2Ff", min_size=1, max_size=12),
    st.text(alphabet="ab./%\\2Ff", min_size=1, max_size=12),
)
def test_different_names_never_share_a_file(one: str, two: str) -> None:
    from urllib.parse import unquote

    def canonical(name: str) -> str:
        return "/".join(unquote(s) for s in name.split("/") if s).removesuffix(".md")

    if canonical(one) == canonical(two):
        return
    try:
        first, second = page_file("src", BASE + "/" + one), page_file("src", BASE + "/" + two)
    except StoreError:
        return
    if first == second:
        # Only names equal after decoding and the index/trailing-slash rule may meet.
        assert canonical(one).rstrip("/") in ("", "index") or canonical(two) in ("", "index")
