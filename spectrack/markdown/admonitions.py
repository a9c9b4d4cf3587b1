"""Every admonition syntax folds into one `Admonition` of GitHub's five kinds.

``KIND_BY_NAME`` maps the names that platforms use (component names, container and shortcode types)
to GitHub's kinds; ``ADMONITION_TOKENS`` says, per opening token type, how to read the name from a
token. Both are plain dicts: a new syntax is one entry in each.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it.rules_core import StateCore
from markdown_it.token import Token

_CONTAINER_PARAMS = re.compile(
    r"\s*([A-Za-z][\w-]*)(?:\[(.*)\](?:\{[^{}]*\})?\s*$|\s+(.*)|(\{[^{}]*\})\s*$)?"
)
"""A container's name, then its title: Docusaurus 3's label in brackets, which directive
attributes in braces may follow (``tip[Title]{#id}``, unseen), or words after a space, or
directive attributes alone, whose ``title`` is one (``tip{title="Title"}``, as remark-directive
callout plugins read it)."""
_ATTRIBUTE = r"""[#.]?[\w-]+(?:=(?:"[^"]*"|'[^']*'|[^\s"'{}]+))?"""
_TRAILING_ATTRIBUTES = re.compile(
    rf"[ \t]*\{{[ \t]*{_ATTRIBUTE}(?:[ \t]+{_ATTRIBUTE})*[ \t]*\}}[ \t]*$"
)
"""Attributes after a container's title in words (VitePress' ``::: details Why? {open}``, which
opens it, or ``{#id}``): set on the element, never shown."""
_TITLE_ATTRIBUTE = re.compile(r"""(?<![\w-])title=(?:"([^"]*)"|'([^']*)'|([^\s"'{}]+))""")

KINDS = ("note", "tip", "important", "warning", "caution")

KIND_BY_NAME: dict[str, str] = {
    # GitHub alerts and their lowercase spellings in Docusaurus, MkDocs and Hugo.
    **{kind: kind for kind in KINDS},
    # Mintlify and other MDX platforms.
    "info": "note",
    "callout": "note",
    "check": "tip",
    "danger": "caution",
    # MkDocs Material and Docusaurus extras.
    "abstract": "note",
    "summary": "note",
    "tldr": "note",
    "todo": "note",
    "seealso": "note",
    "example": "note",
    "quote": "note",
    "question": "note",
    "hint": "tip",
    "success": "tip",
    "done": "tip",
    "attention": "warning",
    "error": "caution",
    "failure": "caution",
    "bug": "caution",
    # Hugo callout types.
    "default": "note",
    # VitePress' collapsible `::: details`, as MkDocs' `??? note` is.
    "details": "note",
}
"""Lowercase platform name → GitHub kind."""

TYPE_ATTRIBUTES = ("type", "kind", "variant", "color", "style", "0")
"""Attributes that choose the kind of a generic callout (``<Callout type="warning">``, Docsy's
``{{% alert color="warning" %}}``, Relearn's ``{{% notice style="warning" %}}``); ``0`` is a
shortcode's first positional argument (``{{< hint warning >}}``)."""

CALLOUT_COMPONENTS: dict[str, frozenset[str]] = {
    # Docusaurus' `<Admonition type="tip">` and Starlight's `<Aside type="caution">` are callouts
    # of their `type`, as the `:::` syntax they stand for is.
    "mdx": frozenset(
        {
            "note",
            "warning",
            "info",
            "tip",
            "check",
            "danger",
            "callout",
            "caution",
            "important",
            "admonition",
            "aside",
        }
    ),
    "hugo": frozenset({"callout", "hint", "alert", "admonition", "notice"}),
}
"""Per syntax, the (lowercase) element names that are callouts rather than layout components."""


def kind_of(name: str, attrs: dict[str, str] | None = None) -> str:
    """The GitHub kind for a callout name, refined by a ``type``-like attribute when given."""
    for attribute in TYPE_ATTRIBUTES:
        value = (attrs or {}).get(attribute, "").lower()
        if value in KIND_BY_NAME:
            return KIND_BY_NAME[value]
    return KIND_BY_NAME.get(name.lower(), "note")


def _component(token: Token) -> tuple[str, str] | None:
    meta = token.meta
    name = str(meta["name"])
    syntax = str(meta["syntax"])
    attrs: dict[str, str] = meta["attrs"]
    rendered = _rendered_kind(name.lower(), attrs.get("class", ""))
    if rendered is not None:
        return rendered, "mkdocs"
    if name.lower() not in CALLOUT_COMPONENTS.get(syntax, frozenset()):
        return None
    return kind_of(name, attrs), syntax


def _rendered_kind(name: str, classes: str) -> str | None:
    """The kind of an admonition as MkDocs renders it, so that pasted or generated HTML folds
    as the ``!!!`` it came from: ``<div class="admonition note">`` (another name after
    ``admonition`` is a note, as ``!!!`` of it is) or ``<details class="warning">`` (``???``,
    whose class is the kind alone); None for other elements."""
    words = classes.lower().split()
    if name == "div" and "admonition" in words:
        return kind_of(next((word for word in words if word != "admonition"), "note"))
    if name == "details" and words and words[0] in KIND_BY_NAME:
        return KIND_BY_NAME[words[0]]
    return None


def is_rendered_title(parent: Token, child: Token) -> bool:
    """Whether ``child``, the element right inside ``parent``, is the title of an admonition as
    MkDocs renders it: ``<p class="admonition-title">`` first in the ``<div>``, ``<summary>``
    first in the ``<details>``."""
    if parent.type != "component_open" or not parent.meta or not child.meta:
        return False
    name = str(child.meta.get("name", "")).lower()
    classes = str(child.meta["attrs"].get("class", "")).split()
    parent_name = str(parent.meta["name"]).lower()
    return _rendered_kind(parent_name, str(parent.meta["attrs"].get("class", ""))) is not None and (
        (parent_name == "div" and name == "p" and "admonition-title" in classes)
        or (parent_name == "details" and name == "summary")
    )


def container_name_and_title(params: str) -> tuple[str, str]:
    """``tip Title`` or Docusaurus 3's ``tip[Title]`` (``tip[Title]{#id}``) → (``tip``,
    ``Title``)."""
    match = _CONTAINER_PARAMS.match(params)
    if match is None:
        return "", ""
    title = match.group(2) or _TRAILING_ATTRIBUTES.sub("", match.group(3) or "")
    if match.group(4):
        attribute = _TITLE_ATTRIBUTE.search(match.group(4))
        title = next((value for value in attribute.groups() if value), "") if attribute else ""
    return match.group(1).lower(), (title or "").strip()


TABS_CONTAINER = "tabs"
LAYOUT_CONTAINERS = frozenset({"code-group", "raw", "v-pre", TABS_CONTAINER})
"""VitePress' containers that only lay out what they hold (``::: code-group`` shows its code
blocks as tabs, as Mintlify's ``<CodeGroup>`` does, and vitepress-plugin-tabs' ``:::tabs`` its
``== Title`` sections) or pass it through as written: no callout and no title, their words those
of what they hold."""


def _container(token: Token) -> tuple[str, str] | None:
    name = container_name_and_title(token.info)[0]
    if name in LAYOUT_CONTAINERS:
        return None
    # PyMdown's blocks (`/// note`) make these tokens too, and say so.
    syntax = str((token.meta or {}).get("syntax", "docusaurus"))
    return kind_of(name), syntax


ADMONITION_TOKENS: dict[str, Callable[[Token], tuple[str, str] | None]] = {
    "component_open": _component,
    "alert_open": lambda token: (kind_of(token.info), "github"),
    "admonition_open": lambda token: (kind_of(str(token.meta.get("tag", "note"))), "mkdocs"),
    "container_admonition_open": _container,
}
"""Opening token type → (kind, syntax), or None when that token is not a callout."""


def is_container_name(params: str, *_: object) -> bool:
    """Validate a ``:::name`` container: only admonition names and VitePress' layout containers
    open one."""
    name = container_name_and_title(params)[0]
    return name in KIND_BY_NAME or name in LAYOUT_CONTAINERS


_TITLED_ALERT = re.compile(r"\[!([A-Za-z]+)\]([+-]?)(?:[ \t]+([^\n]*?))?[ \t]*(?:\n|$)")
"""An alert's marker on the first line of a quote, as Obsidian, Hugo's render hooks and MkDocs
plugins read it besides GitHub: any callout name, a fold sign (``+``, ``-``) and a title."""


def titled_alerts(state: StateCore) -> None:
    """Make alerts of the quotes that start with a marker markdown-it reads none in: one
    followed by a title (``> [!WARNING] Mains power``) or a fold sign, or of a name other than
    GitHub's five (``> [!danger]``). The title is the alert's own; without one the kind's name
    is shown, as for GitHub's alerts. (Run after the block rules, before inline parsing.)"""
    tokens = state.tokens
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token.type != "blockquote_open" or index + 1 >= len(tokens):
            continue
        paragraph, inline = tokens[index], tokens[index + 1]
        if paragraph.type != "paragraph_open" or inline.type != "inline":
            continue
        marker = _TITLED_ALERT.match(inline.content)
        if marker is None or marker[1].lower() not in KIND_BY_NAME:
            continue
        closing = next(
            later
            for later in tokens[index:]
            if later.type == "blockquote_close" and later.level == token.level
        )
        token.type, token.tag, token.info = "alert_open", "div", marker[1].upper()
        closing.type, closing.tag = "alert_close", "div"
        heading = _title_tokens("alert", marker[3] or marker[1].capitalize(), token.level)
        rest = inline.content[marker.end() :]
        if rest.strip():
            inline.content = rest
            if paragraph.map is not None:
                paragraph.map = [paragraph.map[0] + 1, paragraph.map[1]]
                inline.map = paragraph.map
            tokens[index:index] = heading
        else:
            # The marker was the paragraph's only line: its paragraph goes.
            tokens[index : index + 3] = heading
        index += 3


def container_titles(state: StateCore) -> None:
    """Give each container (``:::tip[Title]``, ``/// tip | Title``) with a title a
    ``container_title_open``, ``inline``, ``container_title_close`` after its opening token, as
    mdit-py-plugins gives a ``!!!`` admonition its title: the title is Markdown, which Docusaurus
    renders (``:::tip[Use `--force` with **care**]``). (Run after the block rules, before inline
    parsing.)"""
    tokens = state.tokens
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if token.type != "container_admonition_open":
            continue
        name, title = container_name_and_title(token.info)
        if not title or name in LAYOUT_CONTAINERS:
            continue
        tokens[index:index] = _title_tokens("container", title, token.level)
        index += 3


def _title_tokens(kind: str, title: str, level: int) -> list[Token]:
    """A callout's title as the tokens ``<kind>_title_open``, ``inline``, ``<kind>_title_close``
    right inside the callout opened at ``level``; its Markdown is parsed with the page's."""
    return [
        Token(f"{kind}_title_open", "p", 1, level=level + 1),
        Token("inline", "", 0, content=title, children=[], level=level + 2),
        Token(f"{kind}_title_close", "p", -1, level=level + 1),
    ]
