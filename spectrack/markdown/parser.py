"""The markdown-it-py parser, configured per dialect from an ordered, named list of block rules."""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Sequence
from enum import StrEnum
from functools import cache, partial
from typing import TypeVar

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock, code
from markdown_it.rules_core import StateCore, normalize
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.admon import admon_plugin
from mdit_py_plugins.container import container_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote.index import footnote_def, footnote_ref
from mdit_py_plugins.front_matter import front_matter_plugin

from spectrack.markdown import abbreviations, deep, hugo, mdx, pymdown, tabs
from spectrack.markdown.admonitions import container_titles, is_container_name, titled_alerts
from spectrack.markdown.nesting import drop_inline_comment, indented_as_code


class Dialect(StrEnum):
    MARKDOWN = "markdown"
    """CommonMark + GFM: indented code blocks exist."""
    MDX = "mdx"
    """MDX: JSX elements, comments and ESM; indentation never makes code."""


BlockRule = Callable[[StateBlock, int, int, bool], bool]

BLOCK_RULES: list[tuple[str, BlockRule, frozenset[Dialect]]] = [
    ("mdx_comment", mdx.comment_rule, frozenset({Dialect.MDX})),
    ("mdx_esm", mdx.esm_rule, frozenset({Dialect.MDX})),
    ("mdx_fragment", mdx.fragment_rule, frozenset({Dialect.MDX})),
    ("component", mdx.component_rule, frozenset(Dialect)),
    ("hugo_comment", hugo.comment_rule, frozenset(Dialect)),
    ("hugo_shortcode", hugo.shortcode_rule, frozenset(Dialect)),
]
"""Rules added before markdown-it's ``html_block``, in order, with the dialects they serve."""

FIRST_CHARACTERS: dict[str, str] = {
    "admonition": "!?",
    "content_tab": "=",
    "tabs_section": "=",
    "container_admonition": ":",
    "pymdown_block": "/",
    "fence": "`~",
    "blockquote": ">",
    "hr": "*-_",
    "list": "*-+0123456789",
    "footnote_def": "[",
    "abbreviation": "*",
    "reference": "[",
    "mdx_comment": "{",
    "mdx_esm": "ie",
    "mdx_fragment": "<",
    "component": "<",
    "hugo_comment": "{",
    "hugo_shortcode": "{",
    "hugo_column_break": "<",
    "html_block": "<",
    "heading": "#",
}
"""Block rules that only match a line whose text (after its indentation) starts with one of
these characters; the other rules are tried on every line."""

FIRST_LINE_ONLY = frozenset({"front_matter", "toml_front_matter"})
"""Block rules that only match the first line of the text parsed."""

INLINE_COMMENTS = (
    ("hugo_comment", hugo.COMMENT_OPENER, hugo.COMMENT_CLOSER),
    ("mdx_comment", mdx.COMMENT_OPENER, mdx.COMMENT_CLOSER),
)
"""Comments dropped inside a sentence, in every dialect, as they are on lines of their own."""

INLINE_FIRST_CHARACTERS: dict[str, str] = {
    "hugo_comment": "{",
    "mdx_comment": "{",
    "newline": "\n",
    "escape": "\\",
    "backticks": "`",
    "strikethrough": "~",
    "pymdown_mark": "".join(pymdown.INLINE_MARKS),
    "pymdown_keys": "+",
    "emphasis": "*_",
    "link": "[",
    "footnote_ref": "[",
    "image": "!",
    "autolink": "<",
    "jsx_inline": "<",
    "html_inline": "<",
    "entity": "&",
}
"""Inline rules that only match at one of these characters (``text``, tried first, takes every
run of characters that can start no other rule)."""

_MDX_SIGNS = re.compile(r"\n(?:[ \t]*(?:<[A-Z][\w.]*[\s/>]|\{/\*)|(?:import|export)\s)")
"""At a line start (after a newline: a leading literal lets the search skip ahead quickly)."""


def detect_dialect(text: str, name: str = "") -> Dialect:
    """MDX for ``.mdx`` files (in any letter case) and for pages that use JSX components,
    comments or ESM."""
    if name.lower().endswith(".mdx") or _MDX_SIGNS.search("\n" + text):
        return Dialect.MDX
    return Dialect.MARKDOWN


BLOCK_NESTING = 1000
"""How deep markdown-it follows nested blocks (lists, quotes, components). Its CommonMark preset
stops at 20 and drops what lies deeper, so a requirement in a list ten levels deep vanished;
`deep.flat_rule` takes over well before this depth (at `deep.DEEPEST_LEVEL`), so it is never
reached and nothing is dropped."""
INLINE_NESTING = 20
"""How deep markdown-it follows nested inline markup (its preset's depth): brackets that never
close nest no further and stay text."""

_DEFAULTS_READ_BY_RULES = {
    "tasklists": False,
    "inline_definitions": False,
    "store_labels": False,
    "strikethrough_single_tilde": False,
}
"""Options markdown-it's rules look up with a default, given their defaults here: its options
are a mapping whose lookup of a missing key raises and catches KeyError, once per list item or
inline run, which is a noticeable share of parsing."""


@cache
def parser(dialect: Dialect, *, at_page_start: bool = True) -> MarkdownIt:
    """The parser of a dialect; ``at_page_start`` False for text that starts inside a page,
    where a line of dashes opens no front matter."""
    md = _configured(dialect, at_page_start, BLOCK_NESTING)
    inline = _configured(dialect, at_page_start, INLINE_NESTING)
    md.core.ruler.at("inline", partial(_inline_with_cache, inline, _INLINE_SYNTAX[dialect]))
    md.core.ruler.after("text_join", "inline_cache_store", _store_inline)
    return md


def _configured(dialect: Dialect, at_page_start: bool, nesting: int) -> MarkdownIt:
    md = MarkdownIt(
        "commonmark",
        {"html": True, "alerts": True, "maxNesting": nesting, **_DEFAULTS_READ_BY_RULES},
    )
    md.enable(["table", "strikethrough"])
    md.block.ruler.at("code", _unless_tag_below_tag(code))
    md.core.ruler.at("normalize", _normalize_if_needed)
    md.core.ruler.after("block", "titled_alerts", titled_alerts)
    md.core.ruler.after("titled_alerts", "container_titles", container_titles)
    if at_page_start:
        md.use(front_matter_plugin)
        md.block.ruler.before("front_matter", "toml_front_matter", hugo.front_matter_rule)
    md.use(admon_plugin)
    # Where a `!!!` admonition may start, and ending as its body does (the outline reads both so).
    md.block.ruler.before(
        "fence",
        "content_tab",
        tabs.tab_rule,
        {"alt": ["paragraph", "reference", "blockquote", "list"]},
    )
    md.block.ruler.before(
        "fence", "tabs_section", tabs.section_rule, {"alt": ["paragraph", "reference", "list"]}
    )
    md.use(container_plugin, name="admonition", validate=is_container_name)
    # GFM footnotes, left where they are written (not moved to the page's end). A definition
    # cannot interrupt a paragraph, as a link's cannot (the outline reads both so); a reference
    # is one whether or not the text parsed holds its definition, since a window may not.
    md.block.ruler.before("reference", "footnote_def", footnote_def, {"alt": ["reference"]})
    md.inline.ruler.after("image", "footnote_ref", _footnote_mark)
    for name, opener, closer in INLINE_COMMENTS:
        md.inline.ruler.after(
            "text", name, partial(drop_inline_comment, opener=opener, closer=closer)
        )
    if dialect is Dialect.MARKDOWN:
        # Definition lists (`Term` and `: what it means`), which Hugo and MkDocs render.
        md.use(deflist_plugin)
        md.block.ruler.before(
            "reference", "abbreviation", abbreviations.abbreviation_rule, {"alt": ["paragraph"]}
        )
        md.inline.ruler.before("emphasis", "pymdown_mark", pymdown.inline_mark_rule)
        md.inline.ruler.before("emphasis", "pymdown_keys", pymdown.keys_rule)
        md.inline.ruler2.before("emphasis", "pymdown_mark", pymdown.inline_mark_pairs)
        md.block.ruler.before(
            "fence",
            "pymdown_block",
            pymdown.block_rule,
            {"alt": ["paragraph", "reference", "blockquote", "list"]},
        )
    for name, rule, dialects in BLOCK_RULES:
        if dialect in dialects:
            md.block.ruler.before("html_block", name, rule)
    md.block.ruler.before(
        "html_block", "hugo_column_break", hugo.column_break_rule, {"alt": ["paragraph"]}
    )
    if dialect is Dialect.MDX:
        md.disable("code")
        md.inline.ruler.before("html_inline", "jsx_inline", mdx.jsx_inline_rule)
    md.block.ruler.before(md.block.ruler.__rules__[0].name, "deep", deep.flat_rule)
    _dispatch_by_first_character(md)
    # Links are only read, never rendered: keep targets as written and skip URL normalization,
    # which is a noticeable share of parsing time.
    md.normalizeLink = _as_written  # type: ignore[method-assign]
    md.normalizeLinkText = _as_written  # type: ignore[method-assign,assignment]
    md.validateLink = _any_link  # type: ignore[method-assign]
    return md


_FOOTNOTE_LABEL = re.compile(r"[^\]\[ \n]+\]")
"""A footnote mark's label after ``[^`` and its closing bracket: no space, line break or bracket
in it (a bracket ends a label in GitHub's footnotes, as in a link's)."""


def _footnote_mark(state: StateInline, silent: bool) -> bool:
    """A footnote's mark (``[^1]``), whether or not the text parsed holds its note (a window may
    not). mdit-py-plugins' rule looks for the label's end up to a space or a line break, past
    any bracket, so each ``[^`` of a run (``[^[^[^…``) looked to the line's end: quadratic."""
    if state.src.startswith("[^", state.pos) and _FOOTNOTE_LABEL.match(state.src, state.pos + 2):
        return footnote_ref(state, silent, always_match=True)
    return False


def _dispatch_by_first_character(md: MarkdownIt) -> None:
    """Make each chain of rules try only the rules that can match the line or position at hand.

    markdown-it tries every rule of a chain at every block start, the terminator chains at every
    line of a paragraph or list, and the inline rules at every character that ends a text run;
    most rules give up at the first character. A dispatcher looks at that character once and
    calls, in their order, the rules that can match it, which gives the same tokens with far
    fewer calls.
    """
    block = md.block.ruler
    names = {rule.fn: rule.name for rule in block.__rules__}
    chains = {
        chain: [_block_dispatcher([(names[rule], rule) for rule in block.getRules(chain)])]
        for chain in {""}.union(*(rule.alt for rule in block.__rules__ if rule.enabled))
    }
    block.getRules = lambda chainName="": chains.get(chainName, [])  # type: ignore[method-assign]

    inline = md.inline.ruler
    names_inline = {rule.fn: rule.name for rule in inline.__rules__}
    rules = [(names_inline[rule], rule) for rule in inline.getRules("")]
    lead = 0
    while lead < len(rules) and rules[lead][0] not in INLINE_FIRST_CHARACTERS:
        lead += 1
    by_character, everywhere = _by_character(rules[lead:], INLINE_FIRST_CHARACTERS)

    def dispatch(state: StateInline, silent: bool) -> bool:
        for rule in by_character.get(state.src[state.pos : state.pos + 1], everywhere):
            if rule(state, silent):
                return True
        return False

    inline_chain = [rule for _, rule in rules[:lead]] + [dispatch]
    inline.getRules = lambda chainName="": inline_chain if not chainName else []  # type: ignore[method-assign]


Rule = TypeVar("Rule")


def _by_character(
    rules: Sequence[tuple[str, Rule]], first_characters: dict[str, str]
) -> tuple[dict[str, tuple[Rule, ...]], tuple[Rule, ...]]:
    """The named rules, in order, that can match at each character of ``first_characters``;
    and those that can match at any other one."""
    everywhere = tuple(rule for name, rule in rules if name not in first_characters)
    by_character = {
        character: tuple(
            rule for name, rule in rules if character in first_characters.get(name, character)
        )
        for character in "".join(first_characters.values())
    }
    return by_character, everywhere


def _block_dispatcher(rules: Sequence[tuple[str, BlockRule]]) -> BlockRule:
    guarded = [(name, GUARDS[name](rule) if name in GUARDS else rule) for name, rule in rules]
    first_line = tuple(rule for _, rule in guarded)
    by_character, everywhere = _by_character(
        [(name, rule) for name, rule in guarded if name not in FIRST_LINE_ONLY], FIRST_CHARACTERS
    )

    def dispatch(state: StateBlock, line: int, end: int, silent: bool) -> bool:
        start = state.bMarks[line] + state.tShift[line]
        for rule in (
            by_character.get(state.src[start : start + 1], everywhere) if line else first_line
        ):
            if rule(state, line, end, silent):
                return True
        return False

    return dispatch


def _if_next_line_starts(characters: str) -> Callable[[BlockRule], BlockRule]:
    def guard(rule: BlockRule) -> BlockRule:
        def guarded(state: StateBlock, line: int, end: int, silent: bool) -> bool:
            # The text's last line is followed by markdown-it's sentinel line, which starts with "".
            start = state.bMarks[line + 1] + state.tShift[line + 1]
            return state.src[start : start + 1] in characters and rule(state, line, end, silent)

        return guarded

    return guard


def _if_defined(rule: BlockRule) -> BlockRule:
    def guarded(state: StateBlock, line: int, end: int, silent: bool) -> bool:
        # Asked whether a line ends a paragraph, the rule looks for a definition on that line;
        # asked to start a list, on the term's next line that is not blank.
        marked = line if silent else state.skipEmptyLines(line + 1)
        if marked >= end:
            return False
        start = state.bMarks[marked] + state.tShift[marked]
        return state.src[start : start + 1] in (":", "~") and rule(state, line, end, silent)

    return guarded


_MAY_END_SETEXT_TEXT = "=-#>:~"


_SETEXT_SEARCH = "spectrack_setext_search"
"""``env`` key of the last search for an underline: (a weak reference to the block state
searched, which the state's own ``env`` must not keep alive; its end line; the line it started
below; the line it stopped at)."""


def _if_underlined(rule: BlockRule) -> BlockRule:
    def guarded(state: StateBlock, line: int, end: int, silent: bool) -> bool:
        src, begins, shifts, ends = state.src, state.bMarks, state.tShift, state.eMarks
        # Lines between a search's start and where it stopped hold no underline and no blank:
        # a search from one of them stops at the same line, found without looking again (many
        # short paragraphs parted by markup other than blank lines would make it quadratic).
        searched, searched_end, searched_from, stopped = state.env.get(
            _SETEXT_SEARCH, (None, -1, -1, -1)
        )
        if (
            searched is not None
            and searched() is state
            and searched_end == end
            and searched_from <= line < stopped
        ):
            following = stopped
        else:
            following = line + 1
            while following < end:
                start = begins[following] + shifts[following]
                # An underline, or a line that may end the paragraph first (a heading, a quote,
                # a definition): the rule itself settles it, rather than a search past it.
                if start >= ends[following] or src[start] in _MAY_END_SETEXT_TEXT:
                    break
                following += 1
            state.env[_SETEXT_SEARCH] = (weakref.ref(state), end, line, following)
        if following >= end or begins[following] + shifts[following] >= ends[following]:
            return False
        return rule(state, line, end, silent)

    return guarded


def _if_indented_as_code(rule: BlockRule) -> BlockRule:
    def guarded(state: StateBlock, line: int, end: int, silent: bool) -> bool:
        # The code rule's own first test (`StateBlock.is_code_block`), without the call and the
        # debug log the rule does before it.
        return indented_as_code(state, line) and rule(state, line, end, silent)

    return guarded


def _unless_tag_below_tag(rule: BlockRule) -> BlockRule:
    """The code rule, taking no tag below a tag (see `_tag_below_tag`): in markdown-it's own
    chain too, so that the parser reads alike with rules tried by first character or not."""

    def code_unless_tag_below_tag(state: StateBlock, line: int, end: int, silent: bool) -> bool:
        return not _tag_below_tag(state, line) and rule(state, line, end, silent)

    return code_unless_tag_below_tag


_TAG_START = re.compile(r"</?[A-Za-z]")
_BLOCK_TAG_START = re.compile(r"</?(?!(?:pre|script|style|textarea)\b)[A-Za-z]", re.I)
"""A tag that opens an HTML block running to the next blank line: not ``<pre>``, ``<script>``,
``<style>`` or ``<textarea>``, whose blocks end on the line that closes them."""


def _tag_below_tag(state: StateBlock, line: int) -> bool:
    """Whether ``line`` starts with a tag right below a line that starts with one: the HTML
    block that line opens holds the lines below it up to a blank one, so an indented
    ``<summary>`` below ``<details>`` is an element, no code (see `_BLOCK_TAG_START`)."""
    if line == 0:
        return False
    src = state.src
    return (
        _TAG_START.match(src, state.bMarks[line] + state.tShift[line]) is not None
        and _BLOCK_TAG_START.match(src, state.bMarks[line - 1] + state.tShift[line - 1]) is not None
    )


GUARDS: dict[str, Callable[[BlockRule], BlockRule]] = {
    "code": _if_indented_as_code,
    "table": _if_next_line_starts("|-:"),
    "lheading": _if_underlined,
    "deflist": _if_defined,
}
"""Cheap tests that block rules pass through first: indented code is indented four columns past
the block's indentation; a table's next line is its delimiter row; a setext heading's text is
underlined with ``=`` or ``-`` before a blank line; a definition list's term is followed by a
line that starts with ``:`` or ``~``, blank lines between."""


_INLINE_SYNTAX_CHARACTERS = r"[\\`*_\[\]<>&!~{]"
_INLINE_SYNTAX = {
    Dialect.MARKDOWN: re.compile(
        "|".join(
            [
                _INLINE_SYNTAX_CHARACTERS,
                *(re.escape(c * 2) for c in pymdown.INLINE_MARKS),
                re.escape(pymdown.KEYS_MARK),
            ]
        )
    ),
    Dialect.MDX: re.compile(_INLINE_SYNTAX_CHARACTERS),
}
"""Characters that can start inline syntax other than a line break (links, code, emphasis…,
and in Markdown pages PyMdown's marks and keys, which MDX pages do not read)."""

INLINE_CACHE = "spectrack_inline_cache"
"""``env`` key of a dict from inline source to its parsed children, shared between parses."""


def _inline_with_cache(inline: MarkdownIt, syntax: re.Pattern[str], state: StateCore) -> None:
    """markdown-it's ``inline`` core rule, reusing the children of identical inline source.

    The two versions of a page share one cache, so the unchanged paragraphs and table rows
    inside a changed window are parsed once. ``inline`` parses the rest: the same parser but
    for how deep it nests (`INLINE_NESTING`), where ``syntax`` finds any inline syntax.
    """
    cache: dict[str, list[Token]] = state.env.get(INLINE_CACHE) or {}
    for token in state.tokens:
        if token.type != "inline":
            continue
        if token.content in cache:
            token.children = cache[token.content]
            continue
        if syntax.search(token.content) is None:
            token.children = _plain_children(token.content)
            continue
        children: list[Token] = []
        inline.inline.parse(token.content, inline, state.env, children)
        token.children = children


def _plain_children(content: str) -> list[Token]:
    """The inline tokens of text without inline syntax: its lines, joined by soft breaks.

    No inline rule but ``newline`` can match such text, so this is what markdown-it would build,
    without running every rule at every position.
    """
    children: list[Token] = []
    for index, line in enumerate(content.split("\n")):
        if index:
            children.append(Token("softbreak", "br", 0))
        children.append(Token("text", "", 0, content=line.strip(" ")))
    return children


def _store_inline(state: StateCore) -> None:
    """Remember inline children once ``text_join`` has finished with them."""
    cache: dict[str, list[Token]] | None = state.env.get(INLINE_CACHE)
    if cache is not None:
        for token in state.tokens:
            if token.type == "inline" and token.children is not None:
                cache.setdefault(token.content, token.children)


def _normalize_if_needed(state: StateCore) -> None:
    """markdown-it's ``normalize`` core rule, run only on text it would change.

    Its pattern matches every line break (to turn ``\r\n`` and ``\r`` into ``\n``), so on
    text with neither a carriage return nor a NUL it rebuilds the same string at a cost that
    grows with the number of lines.
    """
    if "\r" in state.src or "\0" in state.src:
        normalize(state)


def _as_written(url: str) -> str:
    return url


def _any_link(url: str) -> bool:
    return True
