"""`collector_paused`: the cycle collector is off inside the block and as it was afterwards."""

from __future__ import annotations

import gc

import pytest

from spectrack.collector import collector_paused


@pytest.mark.parametrize("running", [True, False])
def test_the_collector_is_paused_then_left_as_it_was(running: bool) -> None:
    was = gc.isenabled()
    (gc.enable if running else gc.disable)()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert gc.isenabled() is running
        with pytest.raises(RuntimeError), collector_paused():
            raise RuntimeError("a stage failed")
        assert gc.isenabled() is running
    finally:
        (gc.enable if was else gc.disable)()
