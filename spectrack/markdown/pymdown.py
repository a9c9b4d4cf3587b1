"""PyMdown Extensions' generic blocks (MkDocs Material): ``/// warning | Title`` … ``///``.

A block opens with three slashes or more, a name and an optional title after ``|``; lines indented
below the opening line are its options (YAML: ``type: warning``, ``open: true``); its Markdown
body is not indented, and a line of slashes alone closes it. Blocks nest (a stack of openings,
whatever their slashes), and a closing line inside fenced code closes none, as PyMdown reads fences
first.

Each block reads as its counterpart of the other syntaxes, so switching is formatting: an
admonition (``/// note``, ``/// admonition`` with a ``type``) and ``/// details`` (a collapsible
admonition, as ``???``) become ``container_admonition_open``/``_close`` tokens as ``:::note`` makes
(``meta["syntax"] == "mkdocs"``), a ``/// tab | Title`` a ``Tab`` component as ``=== "Title"``
makes; any other block (``html``, ``define``, ``caption``) shows only its body.
"""

from __future__ import annotations

import re

from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline.state_inline import Delimiter
from markdown_it.token import Token

from spectrack.markdown.admonitions import KIND_BY_NAME
from spectrack.markdown.nesting import indented_as_code

BLOCK_FENCE = re.compile(
    r"[ \t]*/{3,}(?:[ \t]*([A-Za-z][\w-]*)(?:[ \t]*\|[ \t]*(\S(?:.*\S)?)?)?)?[ \t]*"
)
"""A block's opening line (its name, and title after ``|``) or, with no name, its closing one."""
_CODE_FENCE = re.compile(r"[ \t]*(`{3,}|~{3,})(.*)")
_OPTION = re.compile(r"[ \t]*([\w-]+)[ \t]*:[ \t]*(.*?)[ \t]*")
_COLLAPSIBLE = ("admonition", "details")
"""Block names whose kind is their ``type`` option (a note when it has none)."""


def block_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    if indented_as_code(state, start_line):
        return False
    start = state.bMarks[start_line]
    opening = BLOCK_FENCE.fullmatch(state.src, start, state.eMarks[start_line])
    if opening is None or not opening[1]:
        return False
    if silent:
        return True
    closing = closing_line(state.src, state.bMarks, state.eMarks, start_line + 1, end_line)
    last = closing if closing is not None else end_line
    body = start_line + 1
    options: dict[str, str] = {}
    while body < last and _is_option(state, body):
        option = _OPTION.fullmatch(state.src, state.bMarks[body], state.eMarks[body])
        if option is not None:
            options[option[1].lower()] = option[2].strip("\"'")
        body += 1
    name = opening[1].lower()
    title = (opening[2] or "").strip()
    if name in _COLLAPSIBLE or name in KIND_BY_NAME:
        kind = options.get("type", "note") if name in _COLLAPSIBLE else name
        token = state.push("container_admonition_open", "div", 1)
        token.info = f"{kind} {title}".strip()
        token.meta = {"syntax": "mkdocs"}
        close = "container_admonition_close"
    elif name == "tab":
        token = state.push("component_open", "", 1)
        token.meta = {"name": "Tab", "attrs": {"title": title}, "syntax": "mkdocs"}
        close = "component_close"
    else:
        token = None
        close = ""
    if token is not None:
        token.map = [start_line, last + 1 if closing is not None else last]
    old_parent, old_line_max = state.parentType, state.lineMax
    state.parentType = "container"
    # No lazy continuation line may run past the closing line.
    state.lineMax = last
    try:
        state.md.block.tokenize(state, body, last)
    finally:
        state.parentType, state.lineMax = old_parent, old_line_max
    if close:
        state.push(close, "", -1)
    state.line = last + 1 if closing is not None else last
    return True


def _is_option(state: StateBlock, line: int) -> bool:
    """Whether ``line``, below a block's opening line, holds an option: indented, not blank."""
    return (
        indented_as_code(state, line)
        and state.bMarks[line] + state.tShift[line] < state.eMarks[line]
    )


def closing_line(
    src: str, begins: list[int], ends: list[int], first: int, end_line: int
) -> int | None:
    """The line that closes a block whose body starts on line ``first``: the closing line that
    matches its opening, blocks nested in it and fenced code skipped; None when unclosed."""
    depth = 0
    fence = ""
    for line in range(first, end_line):
        text = src[begins[line] : ends[line]]
        code = _CODE_FENCE.fullmatch(text)
        if fence:
            if (
                code
                and code[1][0] == fence[0]
                and len(code[1]) >= len(fence)
                and not code[2].strip()
            ):
                fence = ""
            continue
        if code is not None and not (code[1][0] == "`" and "`" in code[2]):
            fence = code[1]
            continue
        marker = BLOCK_FENCE.fullmatch(text)
        if marker is None:
            continue
        if marker[1]:
            depth += 1
        elif depth:
            depth -= 1
        else:
            return line
    return None


INLINE_MARKS = {"=": "mark", "^": "ins"}
"""PyMdown's inline marks that MkDocs Material reads (``==highlighted==``, ``^^inserted^^``), by
the character doubled, and the HTML element each renders: a way to set words off, as emphasis
is, so readers see the words alone (``**MUST**`` → ``==MUST==`` is formatting)."""


def inline_mark_rule(state: StateInline, silent: bool) -> bool:
    """``==words==`` and ``^^words^^`` (Markdown pages): each run of the doubled character is a
    delimiter that markdown-it's ``balance_pairs`` pairs, as it pairs ``~~`` (so in linear time,
    and never across code spans or a link's words); `inline_mark_pairs` makes the pairs tags.

    As PyMdown's "smart" marks read them, a delimiter after a letter or digit opens none, nor
    one before a space; one after a space closes none, nor one before a letter or digit. In a
    longer run (``===``) the last two characters are the delimiter, the others text."""
    src, start = state.src, state.pos
    character = src[start]
    if silent or character not in INLINE_MARKS:
        return False
    end = start
    while end < state.posMax and src[end] == character:
        end += 1
    if end - start < 2:
        return False
    before = src[start - 1] if start else " "
    after = src[end] if end < state.posMax else " "
    if end - start > 2:
        state.push("text", "", 0).content = character * (end - start - 2)
    state.push("text", "", 0).content = character * 2
    state.delimiters.append(
        Delimiter(
            marker=ord(character),
            length=0,  # no "rule of 3", as for ``~~``
            token=len(state.tokens) - 1,
            end=-1,
            open=not after.isspace() and (end - start > 2 or not before.isalnum()),
            close=not before.isspace() and (end - start > 2 or not after.isalnum()),
        )
    )
    state.pos = end
    return True


def inline_mark_pairs(state: StateInline) -> None:
    """Make each pair of delimiters `inline_mark_rule` found the tags of its element, at the
    top level and in each link's words (which markdown-it pairs apart)."""
    _mark_pairs(state, state.delimiters)
    for meta in state.tokens_meta:
        if meta and "delimiters" in meta:
            _mark_pairs(state, meta["delimiters"])


def _mark_pairs(state: StateInline, delimiters: list[Delimiter]) -> None:
    for delimiter in delimiters:
        tag = INLINE_MARKS.get(chr(delimiter.marker))
        if tag is None or delimiter.end == -1:
            continue
        state.tokens[delimiter.token] = Token("html_inline", "", 0, content=f"<{tag}>")
        state.tokens[delimiters[delimiter.end].token] = Token(
            "html_inline", "", 0, content=f"</{tag}>"
        )


KEYS_MARK = "++"
_KEY = r'(?:[\w-]+|"[^"\n]*")'
_KEYS = re.compile(rf"\+\+({_KEY}(?:\+{_KEY})*)\+\+")
"""PyMdown's keys (``++ctrl+alt+del++``): key names, or quoted text, joined by ``+``."""
_KEY_NAMES = {"ctrl": "Ctrl", "alt": "Alt", "shift": "Shift", "cmd": "Cmd", "esc": "Esc"}


def keys_rule(state: StateInline, silent: bool) -> bool:
    """``++ctrl+s++`` (Markdown pages) shows its keys as ``<kbd>Ctrl</kbd>+<kbd>S</kbd>``
    does: each key's name, as code, joined by ``+``."""
    keys = _KEYS.match(state.src, state.pos, state.posMax)
    if keys is None:
        return False
    if not silent:
        for index, key in enumerate(re.findall(_KEY, keys[1])):
            if index:
                state.push("text", "", 0).content = "+"
            state.push("html_inline", "", 0).content = "<kbd>"
            state.push("text", "", 0).content = _key_name(key)
            state.push("html_inline", "", 0).content = "</kbd>"
    state.pos = keys.end()
    return True


def _key_name(key: str) -> str:
    """How PyMdown shows a key: quoted text as written, a letter in capitals, a name with each
    word capitalized (``page-up`` → ``Page Up``)."""
    if key.startswith('"'):
        return key.strip('"')
    if key.lower() in _KEY_NAMES:
        return _KEY_NAMES[key.lower()]
    return " ".join(word.capitalize() for word in key.split("-") if word)
