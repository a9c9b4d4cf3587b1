"""``[[source.releases]]`` tables in ``spectrack.toml``."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from spectrack.config import EXAMPLE, parse_config
from spectrack.errors import ConfigError
from spectrack.releases import FeedSpec

SOURCE = '[[source]]\nname = "mcp"\nsitemap = "https://x.org/s.xml"\n'


def parse(text: str, tmp_path: Path):
    return parse_config(text, tmp_path / "spectrack.toml")


def test_every_kind_gets_its_default_document_and_window(tmp_path: Path) -> None:
    text = (
        SOURCE
        + '[[source.releases]]\nkind = "github"\nrepo = "acme/tool"\n'
        + '[[source.releases]]\nkind = "npm"\npackage = "@acme/sdk"\nwindow = "2d"\n'
        + '[[source.releases]]\nkind = "pypi"\npackage = "acme-sdk"\n'
        + '[[source.releases]]\nkind = "atom"\nurl = "https://acme.test/news.xml"\nwindow = "6h"\n'
        + '[[source.releases]]\nkind = "pypi"\npackage = "mirrored"\n'
        + 'url = "http://127.0.0.1:9/pypi/mirrored/json"\n'
    )
    (source,) = parse(text, tmp_path).sources
    assert source.releases == (
        FeedSpec("github", "acme/tool", "https://github.com/acme/tool/releases.atom"),
        FeedSpec("npm", "@acme/sdk", "https://registry.npmjs.org/@acme%2Fsdk", timedelta(days=2)),
        FeedSpec("pypi", "acme-sdk", "https://pypi.org/pypi/acme-sdk/json"),
        FeedSpec("atom", None, "https://acme.test/news.xml", timedelta(hours=6)),
        FeedSpec("pypi", "mirrored", "http://127.0.0.1:9/pypi/mirrored/json"),
    )
    assert source.releases[0].window == timedelta(hours=24)


def test_sources_without_feeds_have_none(tmp_path: Path) -> None:
    assert parse(SOURCE, tmp_path).sources[0].releases == ()


def test_the_example_configuration_mentions_release_feeds() -> None:
    assert "[[source.releases]]" in EXAMPLE


@pytest.mark.parametrize(
    ("feeds", "line", "fragment"),
    [
        (
            'kind = "gitlab"\n',
            5,
            "key 'kind': unknown kind 'gitlab' (kinds: atom, github, npm, pypi)",
        ),
        ('repo = "a/b"\n', 4, "missing key 'kind'"),
        ('kind = "github"\n', 4, "missing key 'repo' for kind 'github'"),
        (
            'kind = "github"\nrepo = "just-a-name"\n',
            6,
            "key 'repo': 'just-a-name' is not OWNER/REPO",
        ),
        ('kind = "github"\nrepo = "../tool"\n', 6, "key 'repo': '../tool' is not OWNER/REPO"),
        ('kind = "github"\nrepo = "acme/.."\n', 6, "key 'repo': 'acme/..' is not OWNER/REPO"),
        ('kind = "github"\nrepo = "./tool"\n', 6, "key 'repo': './tool' is not OWNER/REPO"),
        (
            'kind = "npm"\nrepo = "a/b"\n',
            6,
            "key 'repo': does not apply to kind 'npm' (it takes 'package')",
        ),
        (
            'kind = "atom"\npackage = "x"\n',
            6,
            "does not apply to kind 'atom' (it takes only 'url')",
        ),
        ('kind = "atom"\n', 4, "missing key 'url' for kind 'atom'"),
        (
            'kind = "atom"\nurl = "file:///etc/passwd"\n',
            6,
            "key 'url': 'file:///etc/passwd' is not an http(s) URL",
        ),
        (
            'kind = "pypi"\npackage = "x"\nwindow = 24\n',
            7,
            "key 'window': expected a duration string",
        ),
        (
            'kind = "pypi"\npackage = "x"\nwindow = "a day"\n',
            7,
            "key 'window': 'a day' is not a duration",
        ),
        ('kind = "pypi"\npackage = "x"\nwindow = "0h"\n', 7, "longer than 0"),
        (
            'kind = "pypi"\npackage = "x"\nwindow = "99999999999999d"\n',
            7,
            "key 'window': '99999999999999d' is too long (at most 999999999 days)",
        ),
        ('kind = "pypi"\npackage = "x"\ncolour = "red"\n', 7, "key 'colour': unknown key"),
    ],
)
def test_errors_name_the_file_line_feed_and_key(
    tmp_path: Path, feeds: str, line: int, fragment: str
) -> None:
    with pytest.raises(ConfigError) as error:
        parse(SOURCE + "[[source.releases]]\n" + feeds, tmp_path)
    message = str(error.value)
    assert message.startswith(
        f"{tmp_path / 'spectrack.toml'}:{line}: [[source.releases]] #1 of source 'mcp'"
    ), message
    assert fragment in message


def test_errors_in_a_later_source_point_at_its_own_feed(tmp_path: Path) -> None:
    text = (
        SOURCE
        + '[[source.releases]]\nkind = "npm"\npackage = "a"\n\n'
        + '[[source]]\nname = "other"\nsitemap = "https://y.org/s.xml"\n'
        + '[[source.releases]]\nkind = "npm"\npackage = "b"\n'
        + '[[source.releases]]\nkind = "npm"\npackage = "c"\nwindow = "soon"\n'
    )
    with pytest.raises(
        ConfigError, match=r":17: \[\[source.releases\]\] #2 of source 'other' key 'window'"
    ):
        parse(text, tmp_path)


def test_a_feed_configured_twice_is_refused(tmp_path: Path) -> None:
    text = (
        SOURCE
        + '[[source.releases]]\nkind = "npm"\npackage = "a"\n'
        + '[[source.releases]]\nkind = "npm"\npackage = "a"\nurl = "https://mirror.test/a"\n'
    )
    with pytest.raises(
        ConfigError, match=r":7: .*#2 of source 'mcp': the feed npm a is configured twice"
    ):
        parse(text, tmp_path)


@pytest.mark.parametrize(
    ("kind", "first", "second", "why"),
    [
        ("github", "Acme/Tool", "acme/tool", "GitHub names ignore letter case"),
        ("pypi", "Acme_SDK", "acme.sdk", "PyPI names ignore letter case and '-', '_', '.'"),
    ],
)
def test_one_feed_written_two_ways_is_configured_twice(
    tmp_path: Path, kind: str, first: str, second: str, why: str
) -> None:
    key = "repo" if kind == "github" else "package"
    text = (
        SOURCE
        + f'[[source.releases]]\nkind = "{kind}"\n{key} = "{first}"\n'
        + f'[[source.releases]]\nkind = "{kind}"\n{key} = "{second}"\n'
    )
    with pytest.raises(ConfigError) as error:
        parse(text, tmp_path)
    assert str(error.value).endswith(
        f":7: [[source.releases]] #2 of source 'mcp': the feed {kind} {second} is configured "
        f"twice (as {first!r}: {why})"
    )


def test_npm_names_differing_in_case_are_two_packages(tmp_path: Path) -> None:
    text = (
        SOURCE
        + '[[source.releases]]\nkind = "npm"\npackage = "JSONStream"\n'
        + '[[source.releases]]\nkind = "npm"\npackage = "jsonstream"\n'
    )
    assert len(parse(text, tmp_path).sources[0].releases) == 2


def test_releases_must_be_tables(tmp_path: Path) -> None:
    with pytest.raises(
        ConfigError, match=r"key 'releases': expected \[\[source.releases\]\] tables"
    ):
        parse(SOURCE + 'releases = "github"\n', tmp_path)
