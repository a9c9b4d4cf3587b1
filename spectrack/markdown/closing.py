"""Which tag closes an element: a short walk forward, or every element of a name paired at once.

MDX elements and Hugo shortcodes are closed by the first closing tag that brings the count of
their name's tags back to zero. Walking forward from each opening tag is cheapest when elements
are closed soon after they open, which is nearly always; but a page of unclosed ``<p>`` tags would
make every one of them walk to the page's end. So a walk that meets more than `SHORT_WALK` tags
pairs every element of that name in the page in one pass instead, with a stack, and reads its
answer there.

A syntax describes its tags as `Tag` events from a position on (`Pairings`); the pairing must give
each opening tag the answer a walk from its end would give, which holds when no other match begins inside the
opening tag (its event is ``clean``). An opening tag that is not clean, or that the pass from the
page's start never met as one, is walked to the end.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from enum import Enum

SHORT_WALK = 64
"""Tags a walk meets before the page's tags of that name are paired at once instead."""


class TagKind(Enum):
    OPEN = "open"
    CLOSE = "close"
    BROKEN = "broken"
    """A closing tag without its ``>``: no element open at it is ever closed."""


Tag = tuple[TagKind, int, int, bool]
"""(kind, start, end, clean): where the tag starts and ends; for an opening tag, whether no
other match of the syntax begins inside it."""

Closing = tuple[int, int] | None
"""Offsets (start, end) of the closing tag, or None when the element is never closed."""


class Pairings:
    """Closing tags of one syntax, found by `find_closing`, keeping the last pages' pairings.

    ``tags(src, name, position, limit)`` gives the tags named ``name`` in ``src[:limit]`` from
    ``position`` on.
    """

    KEPT = 16
    """Pairings kept (each holds its page's text alive): a few pages' worth."""

    def __init__(self, tags: Callable[[str, str, int, int], Iterator[Tag]]) -> None:
        self._tags = tags
        self._paired: dict[tuple[str, str, int], dict[int, Closing]] = {}
        self._lock = threading.Lock()

    def find_closing(self, src: str, name: str, start: int, limit: int) -> Closing:
        """The closing tag of the element named ``name`` whose opening tag ends at ``start``."""
        key = (src, name, limit)
        known = self._paired.get(key)
        if known is not None and start in known:
            return known[start]
        depth = 1
        for walked, (kind, begin, end, _) in enumerate(self._tags(src, name, start, limit)):
            if walked == SHORT_WALK and known is None:
                known = self._pair(key)
                if start in known:
                    return known[start]
            if kind is TagKind.BROKEN:
                return None
            depth += 1 if kind is TagKind.OPEN else -1
            if depth == 0:
                return begin, end
        return None

    def _pair(self, key: tuple[str, str, int]) -> dict[int, Closing]:
        src, name, limit = key
        paired = pair(self._tags(src, name, 0, limit))
        # Pages are diffed in worker threads (`spectrack fetch`).
        with self._lock:
            if len(self._paired) >= self.KEPT:
                del self._paired[next(iter(self._paired))]
            self._paired[key] = paired
        return paired


def pair(tags: Iterable[Tag]) -> dict[int, Closing]:
    """The closing tag of every clean opening tag, by the offset where the opening tag ends."""
    found: dict[int, Closing] = {}
    open_ends: list[tuple[int, bool]] = []
    for kind, begin, end, clean in tags:
        if kind is TagKind.OPEN:
            open_ends.append((end, clean))
        elif kind is TagKind.CLOSE:
            if open_ends:
                opened, opened_clean = open_ends.pop()
                if opened_clean:
                    found[opened] = (begin, end)
        else:
            found.update((opened, None) for opened, opened_clean in open_ends if opened_clean)
            open_ends.clear()
    found.update((opened, None) for opened, opened_clean in open_ends if opened_clean)
    return found
