"""Hugo shortcodes, which older specification pages use: ``{{< callout >}}``, ``{{< ref >}}``, cards.

A paired shortcode on lines of its own (``{{< callout type="info" >}} … {{< /callout >}}``) becomes
``component_open``/``component_close`` around its Markdown body, a single one becomes a
``component`` token, exactly as MDX elements do (``meta["syntax"] == "hugo"``). Link shortcodes are
replaced by the path they name before parsing, since that is the link a reader follows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

from markdown_it.rules_block import StateBlock
from markdown_it.token import Token

from spectrack.markdown import closing
from spectrack.markdown.closing import TagKind
from spectrack.markdown.nesting import (
    drop_comment,
    enclosing_opening,
    finish_as_code,
    finish_element,
    indented_as_code,
    line_of,
    line_rest_is_blank,
    title_tabs,
)

SHORTCODE = re.compile(r"\{\{([<%])\s*(/)?\s*([\w./-]+)(.*?)\s*[>%]\}\}")
"""A shortcode's tag: its delimiter, the slash of a closing tag, its name and its arguments."""
_ARGUMENT = re.compile(r"""(?:([\w-]+)\s*=\s*)?("[^"]*"|'[^']*'|[^\s"']+)""")
_LINK_SHORTCODE = re.compile(r"""\{\{[<%]\s*(?:rel)?ref\s+["']([^"']*)["']\s*[>%]\}\}""")


COMMENT_OPENER, COMMENT_CLOSER = "{{/*", "*/}}"
"""How a Hugo comment (``{{/* … */}}``) starts and ends: readers never see it, as an HTML
comment."""


TOML_FRONT_MATTER = re.compile(r"\+\+\+[ \t]*\n(.*?\n)?\+\+\+[ \t]*(?:\n|$)", re.DOTALL)
"""Hugo's TOML front matter at a page's start: between two lines of ``+++``."""


def front_matter_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """TOML front matter (``+++``), as the YAML kind (``---``): one ``front_matter`` token."""
    if start_line != 0 or state.src[:3] != "+++":
        return False
    match = TOML_FRONT_MATTER.match(state.src)
    if match is None:
        return False
    last = state.src.count("\n", 0, match.end() - 1)
    if last >= end_line:
        return False
    if silent:
        return True
    token = state.push("front_matter", "", 0)
    token.content = match[1] or ""
    token.markup = "+++"
    token.map = [0, last + 1]
    state.line = last + 1
    return True


def resolve_links(text: str) -> str:
    """Replace ``{{< ref "path" >}}`` and ``relref`` by the path they resolve to."""
    if "{{" not in text:
        return text
    return _LINK_SHORTCODE.sub(lambda match: match.group(1), text)


def parse_arguments(text: str) -> dict[str, str]:
    """Shortcode arguments: named ones by name, positional ones by their index."""
    arguments: dict[str, str] = {}
    for index, match in enumerate(_ARGUMENT.finditer(text)):
        value = match.group(2)
        if value[:1] in "\"'":
            value = value[1:-1]
        arguments[match.group(1) or str(index)] = value
    return arguments


@lru_cache(maxsize=64)
def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(r"\{\{[<%]\s*(/)?\s*" + re.escape(name) + r"\b.*?[>%]\}\}")


def find_closing(src: str, name: str, start: int, limit: int) -> tuple[int, int] | None:
    """Offsets of the ``{{< /name >}}`` that closes a shortcode whose opening ends at ``start``."""
    return PAIRINGS.find_closing(src, name, start, limit)


def _tags(src: str, name: str, position: int, limit: int) -> Iterator[closing.Tag]:
    for match in _pattern(name).finditer(src, position, limit):
        kind = TagKind.CLOSE if match.group(1) else TagKind.OPEN
        # A match is a whole shortcode, so none other can begin inside it.
        yield kind, match.start(), match.end(), True


PAIRINGS = closing.Pairings(_tags)
"""How the closing tags of this syntax are found (and the last pages' pairings)."""


def comment_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """Hugo comments ``{{/* … */}}`` on lines of their own: dropped, as HTML comments are."""
    return drop_comment(state, start_line, end_line, silent, COMMENT_OPENER, COMMENT_CLOSER)


def shortcode_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    src = state.src
    pos = state.bMarks[start_line] + state.tShift[start_line]
    if not src.startswith("{{", pos):
        return False
    opening = SHORTCODE.match(src, pos, state.eMarks[start_line])
    if opening is None:
        return False
    if opening.group(2):
        if not line_rest_is_blank(state, opening.end(), start_line):
            return False
        if not silent:
            state.line = start_line + 1
        return True
    name = opening.group(3)
    attrs = parse_arguments(opening.group(4))
    meta: dict[str, object] = {"name": name, "attrs": attrs, "syntax": "hugo"}
    if not silent and name in MARKDOWN_ARGUMENTS:
        meta["markdown"] = {
            argument: _inline_tokens(state, attrs[argument])
            for argument in MARKDOWN_ARGUMENTS[name]
            if attrs.get(argument)
        }
    closing = find_closing(src, name, opening.end(), state.eMarks[end_line - 1])
    if closing is None:
        return finish_element(state, meta, start_line, start_line, opening.end(), None, silent)
    close_line = line_of(state, closing[1] - 1, start_line, end_line)
    body = (opening.end(), closing[0])
    if name in CODE_SHORTCODES:
        # A keyword in it is no requirement, as in a fence.
        language = attrs.get("0", attrs.get("lang", ""))
        code = state.src[body[0] : body[1]]
        return finish_as_code(state, start_line, close_line, closing[1], silent, language, code)
    first_token = len(state.tokens)
    if not finish_element(state, meta, start_line, close_line, closing[1], body, silent):
        return False
    if not silent and name == "tabs":
        _title_tabs(state.tokens[first_token:])
    return True


MARKDOWN_ARGUMENTS = {"figure": ("caption",)}
"""Shortcode arguments that Hugo renders as Markdown: its own figure's caption (``caption="A
**sealed** jar"`` shows "A sealed jar"), kept as ``meta["markdown"]``, their inline tokens."""


def _inline_tokens(state: StateBlock, text: str) -> list[Token]:
    tokens: list[Token] = []
    state.md.inline.parse(text, state.md, state.env, tokens)
    return tokens


CODE_SHORTCODES = frozenset({"highlight"})
"""Shortcodes whose body is code, shown as written, as a fenced block's is: Hugo's own
``{{< highlight go >}}``, whose first argument is the language."""


def _title_tabs(tokens: Sequence[Token]) -> None:
    """Give each ``tab`` of a ``tabs`` shortcode (the first token) its title from ``items``."""
    titles = [title.strip() for title in tokens[0].meta["attrs"].get("items", "").split(",")]
    title_tabs(tokens, ("tab",), titles, ("name", "title"))


COLUMN_BREAK = "<--->"
"""hugo-book's ``{{< columns >}}`` parts its body into columns at lines of this alone."""


def column_break_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """A column break right inside ``{{< columns >}}``: it ends the paragraph above and shows
    nothing, the columns' words being those of the paragraphs it parts."""
    if indented_as_code(state, start_line):
        return False
    begin = state.bMarks[start_line] + state.tShift[start_line]
    if state.src[begin : state.eMarks[start_line]].rstrip() != COLUMN_BREAK:
        return False
    opening = enclosing_opening(state, start_line)
    if (
        opening is None
        or opening.type != "component_open"
        or opening.meta["syntax"] != "hugo"
        or opening.meta["name"] != "columns"
    ):
        return False
    if not silent:
        state.line = start_line + 1
    return True
