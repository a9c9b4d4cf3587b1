"""Block rules for MDX: components with Markdown inside, self-closing elements, comments, ESM.

markdown-it-py treats ``<Note>`` as raw HTML, so its Markdown body would stay unparsed text. The
:func:`component_rule` finds an element's extent (nested same-name elements and fenced code are
respected, attributes may span lines and hold ``{expressions}``) and tokenizes its body as Markdown.
It emits ``component_open``/``component_close`` around the body, or one ``component`` token for a
self-closing element; ``meta`` holds ``name``, ``attrs`` and ``syntax``. Malformed input never
raises: an unclosed element is read as a lone opening tag, a stray closing tag is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from html import unescape

from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from spectrack.markdown import closing
from spectrack.markdown.closing import TagKind
from spectrack.markdown.nesting import (
    child_elements,
    drop_comment,
    finish_as,
    finish_as_code,
    finish_element,
    line_of,
    line_rest_is_blank,
    title_tabs,
)

_NAME = re.compile(r"[A-Za-z][\w.:-]*")
_ATTRIBUTE_NAME = re.compile(r"[A-Za-z_:][\w.:-]*")
_UNQUOTED = re.compile(r"[^\s\"'=<>`/]+")
COMMENT_OPENER, COMMENT_CLOSER = "{/*", "*/}"
"""How an MDX comment (``{/* … */}``) starts and ends: readers never see it."""
CLOSING_TAG = re.compile(r"</([A-Za-z][\w.:-]*)\s*>")
ESM = re.compile(r"(?:import|export)\b")
"""How an MDX ``import``/``export`` statement starts its line."""
INLINE_ELEMENTS = frozenset(
    [
        "a",
        "abbr",
        "b",
        "bdi",
        "bdo",
        "cite",
        "code",
        "data",
        "del",
        "dfn",
        "em",
        "i",
        "kbd",
        "mark",
        "q",
        "s",
        "samp",
        "small",
        "span",
        "strike",
        "strong",
        "sub",
        "sup",
        "time",
        "u",
        "var",
        "wbr",
    ]
)
"""HTML elements that mark words inside a sentence (``<del>``, ``<code>``, ``<b>``): a line
that starts with one and goes on with words is a paragraph's, not a block element's."""
VOID_ELEMENTS = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "source",
        "track",
        "wbr",
    ]
)


@dataclass(frozen=True, slots=True)
class Tag:
    name: str
    attrs: dict[str, str]
    end: int
    """Offset just past the tag's ``>``."""
    self_closing: bool


def scan_tag(src: str, pos: int, limit: int) -> Tag | None:
    """Read the JSX/HTML opening tag at ``src[pos] == "<"``, or None if it is not one."""
    name_match = _NAME.match(src, pos + 1)
    if name_match is None or name_match.end() >= limit:
        return None
    name = name_match.group()
    if name.endswith(":"):
        return None
    attrs: dict[str, str] = {}
    i = name_match.end()
    if src[i] not in " \t\n/>{":
        return None
    while i < limit:
        char = src[i]
        if char in " \t\n":
            i += 1
        elif char == ">":
            return Tag(name, attrs, i + 1, False)
        elif src.startswith("/>", i):
            return Tag(name, attrs, i + 2, True)
        elif char == "{":
            close = skip_braces(src, i, limit)
            if close < 0:
                return None
            i = close
        else:
            attribute = _ATTRIBUTE_NAME.match(src, i)
            if attribute is None:
                return None
            i = attribute.end()
            while i < limit and src[i] in " \t\n":
                i += 1
            value = ""
            if i < limit and src[i] == "=":
                i += 1
                while i < limit and src[i] in " \t\n":
                    i += 1
                scanned = _scan_value(src, i, limit)
                if scanned is None:
                    return None
                value, i = scanned
            attrs[attribute.group()] = value
    return None


def _scan_value(src: str, pos: int, limit: int) -> tuple[str, int] | None:
    if pos >= limit:
        return None
    char = src[pos]
    if char in "\"'":
        close = src.find(char, pos + 1, limit)
        return None if close < 0 else (src[pos + 1 : close], close + 1)
    if char == "{":
        close = skip_braces(src, pos, limit)
        return None if close < 0 else (_expression_value(src[pos + 1 : close - 1]), close)
    unquoted = _UNQUOTED.match(src, pos)
    return None if unquoted is None else (unquoted.group(), unquoted.end())


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _expression_value(expression: str) -> str:
    """The text of a JSX expression attribute that is only a string or number literal
    (``{"x"}``, ``{10}``); another expression as written, in braces."""
    stripped = expression.strip()
    if len(stripped) >= 2 and stripped[0] == stripped[-1] and stripped[0] in "\"'`":
        return stripped[1:-1]
    if _NUMBER.fullmatch(stripped):
        return stripped
    return "{" + stripped + "}"


def skip_braces(src: str, pos: int, limit: int) -> int:
    """Offset past the ``}`` matching ``src[pos] == "{"``, skipping strings; -1 if unbalanced."""
    depth = 0
    i = pos
    while i < limit:
        char = src[i]
        if char in "\"'`":
            close = src.find(char, i + 1, limit)
            if close < 0:
                return -1
            i = close
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


@lru_cache(maxsize=256)
def _tag_pattern(name: str) -> re.Pattern[str]:
    # A fragment's tags (``<>``, ``</>``) have no name, and their ``>`` follows at once.
    tail = re.escape(name) + r"(?=[\s/>])" if name else "(?=>)"
    return re.compile(r"^[ \t]*(`{3,}|~{3,})|<(/?)" + tail, re.M)


def find_closing(src: str, name: str, start: int, limit: int) -> tuple[int, int] | None:
    """Offsets of the ``</name>`` that closes an element whose opening tag ends at ``start``.

    Nested elements of the same name are counted and fenced code is skipped. None when the
    element is never closed.
    """
    return PAIRINGS.find_closing(src, name, start, limit)


def _tags(src: str, name: str, position: int, limit: int) -> Iterator[closing.Tag]:
    """The tags named ``name`` from ``position`` on, outside fenced code."""
    pattern = _tag_pattern(name)
    fence = ""
    for match in pattern.finditer(src, position, limit):
        marker = match.group(1)
        if marker:
            if not fence:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence):
                fence = ""
            continue
        if fence:
            continue
        if match.group(2):
            end = src.find(">", match.end(), limit)
            if end < 0:
                yield TagKind.BROKEN, match.start(), match.end(), False
            else:
                yield TagKind.CLOSE, match.start(), end + 1, False
        elif not name:
            yield TagKind.OPEN, match.start(), match.end() + 1, True
        else:
            tag = scan_tag(src, match.start(), limit)
            if tag is not None and not tag.self_closing:
                clean = pattern.search(src, match.end(), tag.end) is None
                yield TagKind.OPEN, match.start(), tag.end, clean


PAIRINGS = closing.Pairings(_tags)
"""How the closing tags of this syntax are found (and the last pages' pairings)."""


def component_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """MDX/HTML block elements whose body is Markdown (see the module docstring)."""
    src = state.src
    pos = state.bMarks[start_line] + state.tShift[start_line]
    line_end = state.eMarks[start_line]
    if pos + 2 > line_end or src[pos] != "<":
        return False
    limit = state.eMarks[end_line - 1]

    if src[pos + 1] == "/":
        stray = CLOSING_TAG.match(src, pos)
        if stray is None or not line_rest_is_blank(state, stray.end(), start_line):
            return False
        if not silent:
            state.line = start_line + 1
        return True

    tag = scan_tag(src, pos, limit)
    if tag is None:
        return False
    return _element(state, tag, start_line, end_line, silent)


def fragment_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """A JSX fragment (``<>`` … ``</>``) read as an element with no name, whose body alone shows,
    so wrapping blocks in one, or taking them out of it, changes nothing readers see."""
    src = state.src
    pos = state.bMarks[start_line] + state.tShift[start_line]
    if src.startswith("</>", pos):
        # A stray closing tag, dropped as a component's is.
        if not line_rest_is_blank(state, pos + 3, start_line):
            return False
        if not silent:
            state.line = start_line + 1
        return True
    if not src.startswith("<>", pos):
        return False
    return _element(state, fragment(pos), start_line, end_line, silent)


def fragment(position: int) -> Tag:
    """The opening tag of a JSX fragment, ``<>`` at ``position``: an element with no name."""
    return Tag("", {}, position + 2, False)


def _element(state: StateBlock, tag: Tag, start_line: int, end_line: int, silent: bool) -> bool:
    """Read the element whose opening tag, starting ``start_line``, is ``tag``."""
    src = state.src
    limit = state.eMarks[end_line - 1]
    tag_line = line_of(state, tag.end - 1, start_line, end_line)
    if tag.self_closing:
        return finish_element(state, _meta(tag), start_line, tag_line, tag.end, None, silent)
    if tag.name.lower() in INLINE_ELEMENTS and not line_rest_is_blank(state, tag.end, tag_line):
        # `<del>Lids MUST dry.</del>` alone on its line: struck words of a paragraph.
        return False

    closing = None
    if tag.name.lower() not in VOID_ELEMENTS:
        closing = find_closing(src, tag.name, tag.end, limit)
    if closing is None:
        # An unclosed element: read the opening tag alone and carry on after it.
        if not line_rest_is_blank(state, tag.end, tag_line):
            return False
        return finish_element(state, _meta(tag), start_line, tag_line, tag.end, None, silent)
    close_line = line_of(state, closing[1] - 1, tag_line, end_line)
    body = (tag.end, closing[0])
    if tag.name.lower() == "tr" and "<table" not in src[body[0] : body[1]].lower():
        return _table_row(state, start_line, close_line, closing[1], body, silent)
    if tag.name.lower() == "pre":
        # Text shown as it stands, not Markdown: a code sample, as a fence is.
        source = src[body[0] : body[1]]
        code_tag = _CODE_TAG.search(source)
        language = _LANGUAGE_CLASS.search(code_tag[0]) if code_tag else None
        code = unescape(_TAG.sub("", source))
        return finish_as_code(
            state, start_line, close_line, closing[1], silent, language[1] if language else "", code
        )
    first_token = len(state.tokens)
    if not finish_element(state, _meta(tag), start_line, close_line, closing[1], body, silent):
        return False
    if not silent and tag.name == "Tabs" and "values" in tag.attrs:
        _label_tab_items(state.tokens[first_token:], tag.attrs["values"])
    if not silent and tag.name == "Tabs" and "items" in tag.attrs:
        _title_nextra_tabs(state.tokens[first_token:], tag.attrs["items"])
    return True


_TAB_OBJECT = re.compile(r"\{([^{}]*)\}")
"""One ``{label: 'HTTP', value: 'http'}`` of Docusaurus' ``values`` list."""
_TAB_FIELD = re.compile(r"""\b(label|value)\s*:\s*(?:"([^"]*)"|'([^']*)'|`([^`]*)`)""")
"""A tab's label or value in its object, in any of JavaScript's quotes."""


def _label_tab_items(tokens: list[Token], values: str) -> None:
    """Give each ``TabItem`` of a ``<Tabs values={[…]}>`` (the first token) without a label the
    label its value has in the list, as Docusaurus' older tabs show it."""
    labels = {}
    for tab in _TAB_OBJECT.finditer(values):
        fields: dict[str, str] = {}
        for field in _TAB_FIELD.finditer(tab[1]):
            fields.setdefault(
                field[1], next(text for text in field.groups()[1:] if text is not None)
            )
        if "label" in fields and "value" in fields:
            labels[fields["value"]] = fields["label"]
    for token in child_elements(tokens, "TabItem"):
        attrs = token.meta["attrs"]
        label = labels.get(attrs.get("value", ""))
        if label is not None and "label" not in attrs:
            token.meta = {**token.meta, "attrs": {**attrs, "label": label}}


_STRING_LITERAL = re.compile(r"""["]([^"]*)["]|'([^']*)'|`([^`]*)`""")
"""A JavaScript string in any of its quotes: its text in the group of that quote."""
_NEXTRA_TABS = ("Tabs.Tab", "Tab")


def _title_nextra_tabs(tokens: list[Token], items: str) -> None:
    """Give each tab of a ``<Tabs items={['Glass', 'Clay']}>`` (the first token) without a title
    the title of its place in the list, as Nextra shows it (its tabs are ``<Tabs.Tab>``, or
    ``<Tab>`` imported alone)."""
    titles = [
        next(text for text in literal.groups() if text is not None)
        for literal in _STRING_LITERAL.finditer(items)
    ]
    title_tabs(tokens, _NEXTRA_TABS, titles, ("title", "label"))


_CELL = re.compile(r"<(t[dh])(?=[\s>])[^>]*>(.*?)(?:</t[dh]\s*>|(?=<t[dh][\s>])|\Z)", re.S | re.I)
"""An HTML table cell: its name (``td``, ``th``) and what it holds. HTML may leave a cell's end
tag out (``<td>MUST<td>Yes``): the next cell or the row's end closes it."""


def _table_row(
    state: StateBlock,
    start_line: int,
    last_line: int,
    end: int,
    body: tuple[int, int],
    silent: bool,
) -> bool:
    """An HTML table row (``<tr>``) as markdown-it's tokens of a Markdown table's row, however
    its cells are laid out on lines: one block whose cells are parted as a Markdown row's are,
    so that a table written in HTML reads as the same table in Markdown, and a row with a cell
    on each line is still one row (a requirement and its keyword's cell stay one sentence)."""

    def push() -> None:
        span = [start_line, last_line + 1]
        state.push("tr_open", "tr", 1).map = span
        for cell in _CELL.finditer(state.src, body[0], body[1]):
            state.push(f"{cell[1].lower()}_open", cell[1].lower(), 1).map = span
            inline = state.push("inline", "", 0)
            inline.content = cell[2].strip()
            inline.map = span
            inline.children = []
            state.push(f"{cell[1].lower()}_close", cell[1].lower(), -1)
        state.push("tr_close", "tr", -1)

    return finish_as(state, last_line, end, silent, push)


_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
"""An HTML tag; a ``<`` that starts none (``a < b``) is text."""
_CODE_TAG = re.compile(r"<code\b[^<>]{0,500}>", re.I)
_LANGUAGE_CLASS = re.compile(r"""\bclass=["'](?:[^"']*\s)?language-([\w+-]+)""", re.I)
"""The language a ``<pre><code class="language-json">`` block names, as highlighters read it."""


LONGEST_INLINE_TAG = 1000
"""The most characters a JSX tag inside a sentence is looked for in: a brace left open would
otherwise send the search from every later ``<`` to the paragraph's end."""


_FRAGMENT_TAG = re.compile(r"</?>")


def jsx_inline_rule(state: StateInline, silent: bool) -> bool:
    """A JSX tag inside a sentence whose attributes hold an expression (``<span
    style={{color: 'red'}}>``): one ``html_inline`` token, as markdown-it makes of an HTML tag,
    which it cannot read in such a tag, so its signs would show as words. A fragment's tag
    (``<>``, ``</>``) is dropped. Other tags are left to markdown-it's rule."""
    src = state.src
    start = state.pos
    if src[start] != "<":
        return False
    fragment_tag = _FRAGMENT_TAG.match(src, start, state.posMax)
    if fragment_tag is not None:
        # A fragment's tag shows nothing, nor parts the words around it.
        state.pos = fragment_tag.end()
        return True
    limit = min(state.posMax, start + LONGEST_INLINE_TAG)
    # No expression before the first ">": markdown-it's own rule reads the tag.
    first_end = src.find(">", start, limit)
    if first_end < 0 or src.find("{", start, first_end) < 0:
        return False
    tag = scan_tag(src, start, limit)
    if tag is None:
        return False
    if not silent:
        token = state.push("html_inline", "", 0)
        token.content = src[start : tag.end]
    state.pos = tag.end
    return True


def _meta(tag: Tag) -> dict[str, object]:
    return {"name": tag.name, "attrs": tag.attrs, "syntax": "mdx"}


def comment_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """MDX comments ``{/* … */}`` on lines of their own: dropped."""
    return drop_comment(state, start_line, end_line, silent, COMMENT_OPENER, COMMENT_CLOSER)


def esm_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """MDX ``import``/``export`` statements at the start of a line: dropped up to the blank line
    where the statement is finished (see `esm_end`)."""
    if state.sCount[start_line] != 0 or state.blkIndent != 0:
        return False
    start = state.bMarks[start_line]
    if ESM.match(state.src, start) is None:
        return False
    if silent:
        return True
    end = esm_end(state.src, start, state.eMarks[end_line - 1])
    state.line = line_of(state, end, start_line, end_line) + 1
    return True


BLANK_LINE = re.compile(r"\n[ \t]*(?=\n|\Z)")
"""A blank line, after the newline that ends the line before it."""
_BRACKET_PAIRS = (("{", "}"), ("(", ")"), ("[", "]"))
_STATEMENT_TOKEN = re.compile(
    r"""//[^\n]*|/\*.*?(?:\*/|\Z)|"[^"\n]*"?|'[^'\n]*'?|`[^`]*`?|[{}()\[\]]|\n[ \t]*(?=\n|\Z)""",
    re.S,
)
"""What decides where a statement may end: a comment or a string (whose brackets count for
nothing, and which may hold blank lines: a template literal), a bracket, a blank line. Each
alternative matches to the text's end when left open, so no search restarts inside one."""
_GOES_ON = frozenset(" \t\n}])")
"""How a line below a blank one starts that goes on with a statement left unfinished there: it
is indented (as formatters lay out an object's fields), closes a bracket, or is blank too."""
LONGEST_OPEN_STATEMENT = 20_000
"""The most characters a statement whose brackets are still open at a blank line is followed in
for a blank line where they are closed; past it, the statement ends at its first blank line."""


def esm_end(src: str, start: int, limit: int) -> int:
    """Where an ``import``/``export`` statement that starts at ``start`` ends (the newline before
    the blank line after it, or ``limit``).

    MDX reads a statement on past a blank line while it is unfinished (``export const meta =
    {``, a blank line, more fields), so its end is the first blank line where its brackets are
    all closed. One whose brackets never close (a stray brace), or which a line at the margin
    follows after a blank one, ends at its first blank line rather than taking the page's prose
    with it.
    """
    blank = BLANK_LINE.search(src, start, limit)
    first_end = blank.start() if blank is not None else limit
    statement = src[start:first_end]
    # Most statements close all they open on their first lines: counting tells so quickly.
    if blank is None or (
        statement.count("`") % 2 == 0
        and all(statement.count(o) == statement.count(c) for o, c in _BRACKET_PAIRS)
    ):
        return first_end
    depth = 0
    for token in _STATEMENT_TOKEN.finditer(src, start, min(limit, start + LONGEST_OPEN_STATEMENT)):
        character = token[0][:1]
        if character in "{([":
            depth += 1
        elif character in "})]":
            depth -= 1
        elif character == "\n":
            if depth <= 0:
                return token.start()
            if src[token.end() + 1 : token.end() + 2] not in _GOES_ON:
                # Prose at the margin after the blank line: the brackets were never closed.
                return first_end
    return first_end
