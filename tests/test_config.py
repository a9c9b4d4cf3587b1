from pathlib import Path

import pytest

from spectrack.config import (
    EXAMPLE,
    PathGlob,
    SourceConfig,
    load_config,
    parse_config,
    store_location,
    write_example,
)
from spectrack.errors import ConfigError
from tests.ci_support import run_cli

FULL = """\
[store]
path = "store"
lock_wait = 2

[fetch]
user_agent = "tester/1"
timeout = 5
max_page_bytes = 1000
retries = 2
backoff = 0.5
max_retry_after = 60
strip_timeout = 2.5

[[source]]
name = "mcp"
sitemap = "https://example.org/sitemap.xml"
include = ["/specification/**"]
exclude = ["/specification/**/legacy"]
markdown = "{url}.md"
strip = ["^<!-- banner -->$"]
concurrency = 3
redirect_hosts = ["Docs.Example.org"]
max_removal = 0.5

[[source]]
name = "other"
sitemap = "http://localhost:8000/sitemap.xml"
"""


def parse(text: str, tmp_path: Path):
    return parse_config(text, tmp_path / "spectrack.toml")


def test_every_key_is_read(tmp_path: Path) -> None:
    config = parse(FULL, tmp_path)
    assert config.store.path == tmp_path / "store"
    assert config.store.lock_wait == 2.0
    assert config.fetch.user_agent == "tester/1"
    assert (config.fetch.timeout, config.fetch.max_page_bytes, config.fetch.retries) == (
        5.0,
        1000,
        2,
    )
    assert (config.fetch.backoff, config.fetch.max_retry_after) == (0.5, 60.0)
    assert config.fetch.strip_timeout == 2.5
    mcp, other = config.sources
    assert mcp.name == "mcp" and mcp.concurrency == 3 and mcp.max_removal == 0.5
    assert mcp.redirect_hosts == ("docs.example.org",)
    assert mcp.markdown_url("https://example.org/a") == "https://example.org/a.md"
    assert mcp.strip[0].sub("", "x\n<!-- banner -->\ny") == "x\n\ny"
    assert mcp.wants("/specification/draft/tools")
    assert not mcp.wants("/specification/draft/legacy")
    assert not mcp.wants("/blog/post")
    assert other.wants("/anything") and other.markdown == "{url}" and other.concurrency == 8
    assert config.source("other") is other


def markdown_url(template: str, url: str) -> str:
    return SourceConfig("mcp", "https://x.org/sitemap.xml", markdown=template).markdown_url(url)


def test_a_suffix_follows_a_folder_url_without_its_slash() -> None:
    assert markdown_url("{url}.md", "https://x.org/a/") == "https://x.org/a.md"
    assert markdown_url("{url}.md", "https://x.org/") == "https://x.org/index.md"
    assert markdown_url("{url}.md", "https://x.org") == "https://x.org/index.md"
    # Templates that name a folder's file themselves are left as written.
    assert markdown_url("{url}index.html.md", "https://x.org/a/") == "https://x.org/a/index.html.md"
    assert markdown_url("{url}", "https://x.org/a/") == "https://x.org/a/"


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ('[store]\npath = "s"\ncolour = 1\n', 3, "key 'colour': unknown key"),
        ('[store]\npath = "s"\n\n[colour]\nhue = 1\n', 4, "top level key 'colour': unknown key"),
        ('[store]\npath = "s"\n[[hooks.after]]\nrun = "x"\n', 3, "top level key 'hooks'"),
        (
            '[[source]]\nname = "a"\nsitemap = "https://x.org/s.xml"\ninclude = "/a/**"\n',
            4,
            "key 'include': expected a list of strings, got a string",
        ),
        (
            '[[source]]\nname = "a"\nsitemap = "https://x.org/s.xml"\ninclude = ["a/**"]\n',
            4,
            "must start with '/'",
        ),
        (
            '[[source]]\nname = "a"\nsitemap = "https://x.org/s.xml"\nexclude = ["/a**"]\n',
            4,
            "'**' must be a whole path segment",
        ),
        (
            '[[source]]\nname = "a"\nsitemap = "https://x.org/s.xml"\ninclude = ["/[ab"]\n',
            4,
            "unclosed '['",
        ),
        (
            '[[source]]\nname = "a"\nsitemap = "https://x.org/s.xml"\n\nstrip = ["(unclosed"]\n',
            5,
            "key 'strip': invalid pattern '(unclosed'",
        ),
        (
            '[fetch]\ntimeout = "30"\n',
            2,
            "key 'timeout': expected a number of seconds, got a string",
        ),
        ("[fetch]\nretries = true\n", 2, "key 'retries': expected an integer, got a boolean"),
        ("[fetch]\nretries = 3000\n", 2, "key 'retries': must be 0 to 10, got 3000"),
        (
            '[[source]]\nname = "a"\nsitemap = "http://127.0.0.1:99999/s.xml"\n',
            3,
            "key 'sitemap': 'http://127.0.0.1:99999/s.xml' is not a URL (Port out of range",
        ),
        (
            '[[source]]\nname = "a"\nsitemap = "http://127.0.0.1:0/s.xml"\n',
            3,
            "key 'sitemap': 'http://127.0.0.1:0/s.xml' is not a URL (port 0)",
        ),
        ("[fetch]\ntimeout = 0\n", 2, "must be greater than 0"),
        ("[fetch]\nbackoff = inf\n", 2, "key 'backoff': must be a finite number, got inf"),
        ("[fetch]\nstrip_timeout = -1\n", 2, "key 'strip_timeout': must be greater than 0"),
        ("[store]\nlock_wait = nan\n", 2, "key 'lock_wait': must be greater than 0"),
        (
            "[fetch]\nstrip_timeout = 1e300\n",
            2,
            "key 'strip_timeout': must be at most 86400 seconds (a day), got 1e+300",
        ),
        ("[fetch]\ntimeout = 86401\n", 2, "key 'timeout': must be at most 86400 seconds"),
        ('[[source]]\nname = "a"\nsitemap = "ftp://x.org/s.xml"\n', 3, "not an http(s) URL"),
        ('[[source]]\nname = "a"\nsitemap = "http://:80/s.xml"\n', 3, "(no host name)"),
        ('[[source]]\nname = "a"\nsitemap = "http://user@/s.xml"\n', 3, "(no host name)"),
        (
            '[[source]]\nname = "a"\nsitemap = "https://reader:secret@x.org/s.xml"\n',
            3,
            "not a public URL (a user name or password in it, which spectrack would publish)",
        ),
        ('[[source]]\nname = "a"\nsitemap = "http://x y.org/s"\n', 3, "a space or control"),
        (
            '[fetch]\nuser_agent = "sp\u00e9ctrack"\n',
            2,
            "key 'user_agent': 'sp\u00e9ctrack': an HTTP",
        ),
        ('[fetch]\nuser_agent = "bot\\nX-Evil: 1"\n', 2, "printable ASCII characters only"),
        ('[fetch]\nuser_agent = ""\n', 2, "key 'user_agent': is empty"),
        ('[fetch]\nuser_agent = "spectrack "\n', 2, "with no space at either end"),
        (
            '[[source]]\nname = "a"\nsitemap = "http://[::1/s.xml"\n',
            3,
            "key 'sitemap': 'http://[::1/s.xml' is not a URL",
        ),
        ('[[source]]\nname = "../up"\nsitemap = "https://x.org/s.xml"\n', 2, "key 'name'"),
        (
            '[[source]]\nname = "con"\nsitemap = "https://x.org/s.xml"\n',
            2,
            "key 'name': 'con': use letters",
        ),
        ('[[source]]\nname = "LPT1.docs"\nsitemap = "https://x.org/s.xml"\n', 2, "Windows keeps"),
        (
            '[[source]]\nname = "a"\nsitemap = "https://x.org/s"\nmarkdown = "{path}.md"\n',
            4,
            "must contain '{url}'",
        ),
        (
            '[[source]]\nname = "a"\nsitemap = "https://x.org/s"\nmarkdown = "{url!s}.md"\n',
            4,
            "key 'markdown': '{url!s}.md': write '{url}' plain",
        ),
        (
            '[[source]]\nname = "a"\nsitemap = "https://x.org/s"\nmarkdown = "{url:>9}"\n',
            4,
            "without a conversion or format",
        ),
        ('[store]\npath = "a\\u0000b"\n', 2, "key 'path': 'a\\x00b' holds a NUL character"),
        ('[store]\npath = ""\n', 2, "[store] key 'path': is empty; name the store's folder"),
        (
            '[[source]]\nname = "a"\nsitemap = "https://x.org/s"\nmax_removal = 2\n',
            4,
            "between 0 and 1",
        ),
        ('[[source]]\nname = "a"\n', 1, "missing key 'sitemap'"),
        ('ignore = "3f2a9c0b1d4e5f6a"\n', 1, "top level key 'ignore': expected a list of strings"),
        (
            '# reviewed\nignore = [\n  "3f2a9c0b1d4e5f6a",\n  "3f2a9c0b",\n]\n',
            2,
            "key 'ignore': ignore[1] '3f2a9c0b' is not a change fingerprint (16 hex digits",
        ),
        (
            '[store]\npath = "s"\nignore = ["3f2a9c0b1d4e5f6a"]\n',
            3,
            "[store] key 'ignore': a top-level key, in no table: write it as `ignore = …` above",
        ),
        ('store.ignore = ["3f2a9c0b1d4e5f6a"]\n', 1, "[store] key 'ignore': a top-level key"),
        ("# the store\nstore = { ignore = [] }\n", 2, "[store] key 'ignore': a top-level key"),
        ('store = { path = "s", lock_wait = "x" }\n', 1, "[store] key 'lock_wait': expected"),
        ("[fetch]\nretries = 2\n\n[store]\nsub.key = 1\n", 5, "[store] key 'sub': unknown key"),
        ('fetch.retries = 2\nfetch.timeout = "3"\n', 2, "[fetch] key 'timeout': expected"),
        (
            '[[source]]\nname = "a"\nsitemap = "https://x.org/s"\nignore = []\n',
            4,
            "('a') key 'ignore': a top-level key",
        ),
        (
            'source = [\n  { name = "a", sitemap = "https://x.org/s" },  # {[\n'
            '  { name = "b", sitemap = "https://x.org/s", concurrency = "}" },\n]\n',
            3,
            "[[source]] #2 ('b') key 'concurrency': expected an integer",
        ),
        (
            '[[source]]\nname = "a"\nsitemap = "https://x.org/s"\nreleases = [\n'
            '  { kind = "npm", package = "p" },\n  # the beta channel\n'
            '  { kind = "npm", package = "q", window = "soon" },\n]\n',
            7,
            "[[source.releases]] #2 of source 'a' key 'window'",
        ),
        (
            '[[source]]\nname = "a"\nsitemap = "https://x.org/s"\n'
            'releases = [{ kind = "npm", package = "p", window = "soon" }]\n',
            4,
            "[[source.releases]] #1 of source 'a' key 'window'",
        ),
        (
            '[[source]]\nname = "a"\nsitemap = "https://x.org/s"\n'
            'releases = [{ kind = "npm", package = "p", window = "soon" }]\n\n'
            '[[source]]\nname = "b"\nsitemap = "https://x.org/s"\n\n'
            '[[source.releases]]\nkind = "npm"\npackage = "q"\n',
            4,
            "[[source.releases]] #1 of source 'a' key 'window'",
        ),
    ],
)
def test_errors_name_the_file_line_and_key(
    tmp_path: Path, text: str, line: int, fragment: str
) -> None:
    with pytest.raises(ConfigError) as error:
        parse(text, tmp_path)
    message = str(error.value)
    assert message.startswith(f"{tmp_path / 'spectrack.toml'}:{line}: ")
    assert fragment in message


@pytest.mark.parametrize(
    ("hosts", "fragment"),
    [
        ('[""]', "redirect_hosts[0] '' is empty"),
        ('["docs.example.org", " "]', "redirect_hosts[1] ' ' is empty"),
        ('["https://docs.example.org/"]', "is a URL; write its host only: 'docs.example.org'"),
        ('["docs.example.org/spec"]', "'docs.example.org/spec' is not a host name"),
        ('["user@docs.example.org"]', "is not a host name"),
        ('["docs example.org"]', "is not a host name"),
        ('["*.example.org"]', "is not a host name"),
        ('["docs.example.org:99999"]', "is not a host name"),
        ('["docs.example.org:"]', "is not a host name"),
        ('"docs.example.org"', "expected a list of strings, got a string ('docs.example.org')"),
        ("[8080]", "redirect_hosts[0] is an integer (8080), expected a string"),
    ],
)
def test_a_bad_redirect_host_is_a_one_line_error_naming_the_file_and_key(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    hosts: str,
    fragment: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    # Nothing listens on the discard port: a fetch that the error should have stopped fails fast.
    Path("spectrack.toml").write_text(
        '[fetch]\nretries = 0\n\n[[source]]\nname = "a"\nsitemap = "http://127.0.0.1:9/s.xml"\n'
        f"redirect_hosts = {hosts}\n"
    )
    run = run_cli(capsys, "fetch", "--quiet")
    assert run.code == 2 and run.out == ""
    (line,) = run.err.splitlines()
    assert line.startswith(
        "spectrack: error: spectrack.toml:7: [[source]] #1 ('a') key 'redirect_hosts': "
    )
    assert fragment in line
    assert not Path("snapshots").exists()


def test_redirect_hosts_take_names_addresses_and_ports(tmp_path: Path) -> None:
    hosts = (
        '["Docs.Example.org", "localhost:8080", "127.0.0.1", "[::1]:8000", "xn--bcher-kva.example"]'
    )
    config = parse(
        f'[[source]]\nname = "a"\nsitemap = "https://x.org/s"\nredirect_hosts = {hosts}\n', tmp_path
    )
    assert config.sources[0].redirect_hosts == (
        "docs.example.org",
        "localhost:8080",
        "127.0.0.1",
        "[::1]:8000",
        "xn--bcher-kva.example",
    )


def test_the_ignore_list_holds_lowercase_fingerprints(tmp_path: Path) -> None:
    config = parse('ignore = ["3F2A9C0B1D4E5F6A", " 0123456789abcdef "]\n' + FULL, tmp_path)
    assert config.ignore == ("3f2a9c0b1d4e5f6a", "0123456789abcdef")
    assert parse(FULL, tmp_path).ignore == ()


def test_errors_in_a_later_source_point_at_that_source(tmp_path: Path) -> None:
    text = (
        '[[source]]\nname = "a"\nsitemap = "https://x.org/s.xml"\nconcurrency = 2\n\n'
        '[[source]]\nname = "b"\nsitemap = "https://x.org/s.xml"\nconcurrency = "many"\n'
    )
    with pytest.raises(ConfigError, match=r":9: \[\[source\]\] #2 \('b'\) key 'concurrency'"):
        parse(text, tmp_path)


def test_duplicate_source_names_are_refused(tmp_path: Path) -> None:
    text = '[[source]]\nname = "a"\nsitemap = "https://x.org/1"\n[[source]]\nname = "a"\nsitemap = "https://x.org/2"\n'
    with pytest.raises(ConfigError, match=r":5: .*duplicate source name 'a'"):
        parse(text, tmp_path)


def test_a_source_named_twice_is_selected_once(tmp_path: Path) -> None:
    config = parse(FULL, tmp_path)
    assert [s.name for s in config.selected(["other", "mcp", "other"])] == ["other", "mcp"]
    assert [s.name for s in config.selected([])] == ["mcp", "other"]


def test_toml_syntax_errors_are_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"not valid TOML.*line 2"):
        parse('[store]\npath = "unclosed\n', tmp_path)


@pytest.mark.parametrize(
    "text",
    ["ignore = " + "[" * 100_000 + "]" * 100_000, "x = " + "{a = " * 100_000 + "1" + "}" * 100_000],
)
def test_toml_nested_too_deeply_is_a_config_error(tmp_path: Path, text: str) -> None:
    with pytest.raises(ConfigError, match=r"not valid TOML: arrays or tables nested too deeply"):
        parse(text + "\n", tmp_path)


def test_missing_file_says_how_to_make_one(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="spectrack init"):
        load_config(tmp_path / "none.toml")


def test_a_configuration_or_ack_file_that_cannot_be_read_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("latin1.toml").write_bytes('[store]\npath = "Entwürfe"\n'.encode("latin-1"))
    Path("spectrack.toml").write_text('[store]\npath = "snapshots"\n')
    Path("spectrack-ack.toml").write_bytes(b'[[ack]]\nreason = "\xe9"\n')
    Path("a.md").write_text("# A\n")
    Path("folder.toml").mkdir()
    for args, message in (
        (("fetch", "--config", "folder.toml"), "folder.toml: cannot read (Is a directory)"),
        (
            ("log", "--config", "latin1.toml"),
            "latin1.toml: not UTF-8 (byte 0xfc at offset 20); save the file as UTF-8",
        ),
        (
            ("diff", "a.md", "a.md"),
            "spectrack-ack.toml: the acknowledgement file is not UTF-8 (byte 0xe9 at offset 18); "
            "save it as UTF-8",
        ),
    ):
        run = run_cli(capsys, *args)
        assert (run.code, run.out, run.err) == (2, "", f"spectrack: error: {message}\n")


@pytest.mark.parametrize(
    ("glob", "matching", "not_matching"),
    [
        (
            "/specification/**",
            ["/specification", "/specification/", "/specification/a/b"],
            ["/specifications", "/spec"],
        ),
        ("/docs/*", ["/docs/a", "/docs/a/"], ["/docs/a/b", "/docs"]),
        ("/**/tools", ["/tools", "/a/b/tools"], ["/a/tools/x"]),
        ("/v?/[!x]*", ["/v1/ab"], ["/v10/ab", "/v1/xa"]),
        # A class is one character of one segment: negated, it still never matches a '/'.
        ("/docs[!x]api", ["/docs-api"], ["/docs/api", "/docsxapi"]),
        # Its characters are the glob's own: '^' is no negation, '&&' and '[' no set syntax.
        ("/v[^2]", ["/v^", "/v2"], ["/v1"]),
        ("/[a&&b]x", ["/ax", "/&x", "/bx"], ["/cx"]),
        ("/[[]x", ["/[x"], ["/x", "/[]x"]),
        ("/v[0-9]", ["/v5"], ["/va", "/v-"]),
        ("/v[!]]", ["/v1"], ["/v]", "/v/"]),
        ("/v[+-0]x", ["/v.x", "/v0x"], ["/v/x"]),
    ],
)
def test_globs_match_url_paths_by_segment(
    glob: str, matching: list[str], not_matching: list[str]
) -> None:
    pattern = PathGlob(glob)
    assert all(pattern.matches(p) for p in matching)
    assert not any(pattern.matches(p) for p in not_matching)


def test_example_is_a_valid_configuration(tmp_path: Path) -> None:
    path = tmp_path / "spectrack.toml"
    assert write_example(path)
    assert not write_example(path), "an existing configuration is never overwritten"
    assert path.read_text() == EXAMPLE
    config = load_config(path)
    assert config.sources[0].name == "example"
    assert config.ignore == ()
    assert config.store.path == tmp_path / "snapshots"


def test_source_names_differing_in_case_only_are_refused(tmp_path: Path) -> None:
    text = '[[source]]\nname = "Spec"\nsitemap = "https://x.org/1"\n[[source]]\nname = "spec"\nsitemap = "https://x.org/2"\n'
    with pytest.raises(ConfigError, match=r":5: .*duplicate source name 'spec' \(as 'Spec'"):
        parse(text, tmp_path)


def test_a_configuration_starting_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "spectrack.toml"
    assert write_example(path)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert load_config(path).sources[0].name == "example"


def test_store_location_prefers_store_then_config_then_default(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert store_location(None, None) == Path("snapshots")
    (tmp_path / "spectrack.toml").write_text('[store]\npath = "elsewhere"\n')
    assert store_location(None, None) == Path("elsewhere")
    assert store_location(None, tmp_path / "given") == tmp_path / "given"


def test_a_markdown_suffix_goes_on_the_path_before_a_query() -> None:
    assert markdown_url("{url}.md", "https://x.org/a?v=2") == "https://x.org/a.md?v=2"
    assert markdown_url("{url}.md", "https://x.org/a/?v=2") == "https://x.org/a.md?v=2"
    assert markdown_url("{url}.md?raw=1", "https://x.org/a?v=2") == "https://x.org/a.md?v=2&raw=1"
    assert markdown_url("{url}?raw=1", "https://x.org/a?v=2") == "https://x.org/a?v=2&raw=1"
    assert markdown_url("{url}.md?raw=1", "https://x.org/a") == "https://x.org/a.md?raw=1"
    assert markdown_url("{url}", "https://x.org/a?v=2") == "https://x.org/a?v=2"
