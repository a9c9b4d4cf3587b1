"""Abbreviation definitions of Python-Markdown and MkDocs (``*[HTML]: Hyper Text Markup Language``).

Readers never see such a line: MkDocs shows its text on hovering over each use of the
abbreviation. It is read as a block of its own, ``abbreviation: text``, whose keywords make no
requirement (a tip's do not either), so adding or changing one is editorial. It may stand
between the lines of a paragraph, as Python-Markdown finds it there too.
"""

from __future__ import annotations

import re

from markdown_it.rules_block import StateBlock

from spectrack.markdown.nesting import indented_as_code

_DEFINITION = re.compile(r"\*\[([^\]\n]+)\]:[ \t]*(.*)")


def abbreviation_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    if indented_as_code(state, start_line):
        return False
    start = state.bMarks[start_line] + state.tShift[start_line]
    definition = _DEFINITION.fullmatch(state.src, start, state.eMarks[start_line])
    if definition is None:
        return False
    if not silent:
        token = state.push("abbreviation", "", 0)
        token.content = f"{definition[1].strip()}: {definition[2].strip()}"
        token.map = [start_line, start_line + 1]
        state.line = start_line + 1
    return True
