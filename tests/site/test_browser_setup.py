"""The browser tests' own rule: no chromium skips them on a workstation but fails them in CI."""

from __future__ import annotations

import pytest

from tests.site.conftest import find_chromium


def test_a_missing_chromium_skips_here_but_fails_in_ci() -> None:
    with pytest.raises(pytest.skip.Exception, match="chromium"):
        find_chromium(which=lambda name: None, environ={})
    with pytest.raises(pytest.fail.Exception, match="chromium"):
        find_chromium(which=lambda name: None, environ={"CI": "true"})
    assert find_chromium(which=lambda name: f"/usr/bin/{name}", environ={}) == "/usr/bin/chromium"
