"""Inline tokens → plain text, with the link targets and code spans it holds.

The plain text is what a reader sees: emphasis, link syntax and inline HTML are gone, entities are
decoded (markdown-it-py does that), zero-width characters are removed and every whitespace run is
one space. Link targets are kept apart with their offsets so that a comparison key can include
them: a changed link target is a visible change, the syntax that wrote the link is not.
"""

from __future__ import annotations

import re
from bisect import bisect_left, insort
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from html import unescape
from posixpath import splitext
from typing import Any, TypeVar
from unicodedata import is_normalized, normalize

from markdown_it.common.normalize_url import normalizeLink
from markdown_it.token import Token

from spectrack.markdown import hugo
from spectrack.markdown.mdx import INLINE_ELEMENTS, scan_tag
from spectrack.sentences import Ranges

_SYMBOL_SHORTCODES = {
    "white_check_mark": "✅",
    "heavy_check_mark": "✔",
    "ballot_box_with_check": "☑",
    "x": "❌",
    "negative_squared_cross_mark": "❎",
    "heavy_multiplication_x": "✖",
    "warning": "⚠",
    "no_entry": "⛔",
    "question": "❓",
    "grey_question": "❔",
    "exclamation": "❗",
    "heavy_exclamation_mark": "❗",
    "grey_exclamation": "❕",
    "heavy_plus_sign": "➕",
    "heavy_minus_sign": "➖",
    "heavy_division_sign": "➗",
    "white_circle": "⚪",
    "black_circle": "⚫",
    "red_circle": "🔴",
    "large_blue_circle": "🔵",
    "blue_circle": "🔵",
    "large_orange_diamond": "🔶",
    "large_blue_diamond": "🔷",
    "small_orange_diamond": "🔸",
    "small_blue_diamond": "🔹",
    "small_red_triangle": "🔺",
    "small_red_triangle_down": "🔻",
    "arrow_up_small": "🔼",
    "arrow_down_small": "🔽",
    "orange_circle": "🟠",
    "yellow_circle": "🟡",
    "green_circle": "🟢",
    "purple_circle": "🟣",
    "brown_circle": "🟤",
    "red_square": "🟥",
    "blue_square": "🟦",
    "orange_square": "🟧",
    "yellow_square": "🟨",
    "green_square": "🟩",
    "purple_square": "🟪",
    "brown_square": "🟫",
    "black_small_square": "▪",
    "white_small_square": "▫",
    "white_medium_square": "◻",
    "black_medium_square": "◼",
    "white_medium_small_square": "◽",
    "black_medium_small_square": "◾",
    "arrow_forward": "▶",
    "arrow_backward": "◀",
    "arrow_right": "➡",
}
"""The emoji names (GitHub's) of the shapes, ticks, crosses and signs that mark something (a
feature table's ✅ and ❌, a ⚠ before a warning): shown as the character they name, which is
compared as a word is, so ``:white_check_mark:`` → ``:x:`` says something else, and ``:x:`` is
``❌``."""
_ATTRIBUTE = r"""(?:[#.][\w-]+|[\w-]+=(?:"[^"]*"|'[^']*'|[^\s"'{}]+))"""
ATTRIBUTE_LIST = re.compile(rf"\{{:?[ \t]*{_ATTRIBUTE}(?:[ \t]+{_ATTRIBUTE})*[ \t]*\}}")
"""An attribute list of MkDocs (Python-Markdown's ``attr_list``) or Pandoc on a paragraph's last
line (``{: #id .class }``, ``{ .class key=value }``), or right after a link, an image, a code
span or emphasis (``[Start](start.md){ .md-button }``): it sets the element's id and classes,
and readers never see it."""
EMOJI_SHORTCODE = re.compile(rf"(?<![\w:/]):([a-z0-9_+-]+):(?:{ATTRIBUTE_LIST.pattern})?(?![\w:/])")
"""An emoji written by name (``:rocket:``), as GitHub and MkDocs show it: a picture, no word,
as the emoji character itself is, unless it is one of `_SYMBOL_SHORTCODES`; with the attribute
list MkDocs Material lets follow an emoji or icon (``:material-fire:{ .hot }``, a colour or a
class), which readers never see."""
_ATTRIBUTED = frozenset({"link_close", "image", "code_inline", "em_close", "strong_close"})
"""Inline elements that an attribute list right after them (no space between) belongs to."""
HEADING_ID = re.compile(r"[ \t]*\{:?[ \t]*[#.][\w:.-]+(?:[ \t]+[^{}\n]*)?\}[ \t]*$")
"""A heading's own id and attributes at its end (``## Setup {#setup}``, ``{ #setup .wide }``,
MkDocs' ``{: #setup }``, Pandoc's ``{.unnumbered}``): Docusaurus, MkDocs and Pandoc make them
the anchor and the heading's classes, and readers never see them."""

VISIBLE_ATTRIBUTES = (
    "header",
    "title",
    "subtitle",
    "headline",
    "label",
    "text",
    "description",
    "caption",
    "tip",
    "alt",
    "summary",
    "name",
    "cta",
    "footer",
)
"""Component attributes whose values readers see as text (a card's header, title, subtitle and
footer, as Docsy's ``{{< card header="…" >}}`` has them, a badge's or a button's text, the words
of a Mintlify card's or tooltip's call to action, ``cta``); of a component inside a sentence
(``<Tooltip headline="…" tip="…">``), on hovering over its words."""
HTML_VISIBLE_ATTRIBUTES = ("alt",)
"""The attributes of an HTML element (a lowercase name) that readers see as text: an image's
description, as a Markdown image's is; the others (``name``, ``label``) are none, and
``title`` shows on hovering (see `hover_title`)."""
LINK_ATTRIBUTES = ("href", "src", "link", "url", "file")
"""Component attributes that are link targets, or name the file whose text shows in their place
(Mintlify's ``<Snippet file="…" />``, Docsy's ``{{< readfile file="…" >}}``)."""

_ZERO_WIDTH_CHARACTERS = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
_ZERO_WIDTH = dict.fromkeys(map(ord, _ZERO_WIDTH_CHARACTERS), None)
_NEEDS_CLEANING = re.compile(rf"[^\S ]|  |[{_ZERO_WIDTH_CHARACTERS}]")
_MDX_STRING = re.compile(r"""\{[ \t]*(?:"([^"\n]*)"|'([^'\n]*)')[ \t]*\}""")
"""An MDX expression that is only a string literal: readers see the string. Prettier writes
``{" "}`` where a line ends after a word that a tag or emphasis follows, and ``{'{'}`` shows a
brace that MDX would otherwise read as an expression's start."""
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
"""How an address with a scheme (``https:``, ``mailto:``) starts."""
LINK_TARGETS = re.compile(r" ⟨([^⟩]*)⟩$")
"""The link targets that end a key (see `InlineText.key`), spaces between them."""


def key_of(words: str, targets: Sequence[str]) -> str:
    """A comparison key: ``words``, then the link ``targets`` in them (see `LINK_TARGETS`)."""
    return words + " ⟨" + " ".join(targets) + "⟩" if targets else words


def split_key(key: str) -> tuple[str, list[str]]:
    """A key's words and the link targets that end it (see `key_of`)."""
    found = LINK_TARGETS.search(key)
    return (key, []) if found is None else (key[: found.start()], found[1].split(" "))


_HTML_TAG = re.compile(r"<(/?)([A-Za-z][\w-]*)")


def _html_attribute(name: str) -> re.Pattern[str]:
    """An HTML tag's attribute ``name`` and its value, double-, single- or unquoted, or as
    MDX writes a string in an expression (``href={"jar.md"}``, ``{`jar.md`}``)."""
    return re.compile(
        rf"""\s{name}\s*=\s*(?:"([^"]*)"|'([^']*)'"""
        r"""|\{\s*(?:"([^"]*)"|'([^']*)'|`([^`$]*)`)\s*\}|([^\s"'=<>`]+))""",
        re.IGNORECASE,
    )


def _attribute_value(attribute: re.Pattern[str], tag: str) -> str | None:
    """The value of an `_html_attribute` in ``tag``, entities decoded, or None without one."""
    found = attribute.search(tag)
    return None if found is None else unescape(next(v for v in found.groups() if v is not None))


_TITLE_ATTRIBUTE = _html_attribute("title")
_HREF = _html_attribute("href")
_SRC = _html_attribute("src")
_ALT = _html_attribute("alt")
_RANGE_TAGS = {
    "code": "code",
    "kbd": "code",
    "samp": "code",
    "s": "struck",
    "del": "struck",
    "strike": "struck",
}
_NAME_END = r"(?![\w-])"
"""Where a tag's name ends: ``<s-chip>`` and ``<p-card>`` are custom elements, not ``<s>``/``<p>``."""
_RANGE_TAG = re.compile(rf"<(?:code|kbd|samp|s|del|strike){_NAME_END}", re.I)
_INLINE_TAGS = INLINE_ELEMENTS - _RANGE_TAGS.keys()
"""Inline elements that mark neither code nor struck text (``<b>``, ``<span>``)."""
_INLINE_TAG = re.compile(rf"</?(?:{'|'.join(sorted(_INLINE_TAGS))}){_NAME_END}[^>]*>", re.I)
_INLINE_TAG_OR_COMMENT = re.compile(r"<!--.*?-->|" + _INLINE_TAG.pattern, re.S | re.I)
_BLOCK_TAG = re.compile(r"</?[A-Za-z][\w-]*[^>]*>")
_ELEMENT = "\x06"
_ELEMENT_TAG = re.compile(
    r"</?(?:address|article|aside|blockquote|caption|dd|details|dialog|div|dl|dt|fieldset"
    r"|figcaption|figure|footer|form|h[1-6]|header|hgroup|hr|legend|li|main|menu|nav|ol|p|pre"
    rf"|section|summary|table|tbody|tfoot|thead|tr|ul){_NAME_END}[^>]*>",
    re.I,
)
"""Tags of the HTML elements that stand as blocks: text after one is another element's. Other
tags (an image, a button, a table cell, an unknown element) part words but no sentences, so a
table row reads as one sentence, as in Markdown."""
_MARK_CHARACTER_SET = "\x02\x03\x04\x05\x06"
_MARK_CHARACTERS = re.compile(f"[{_MARK_CHARACTER_SET}]")
_OTHER_TAG = re.compile(
    rf"</?(?!(?:code|kbd|samp|s|del|strike){_NAME_END})[A-Za-z][\w-]*[^>]*>", re.I
)
_RANGE_MARKS = re.compile(rf"<(/?)(code|kbd|samp|s|del|strike){_NAME_END}[^>]*>", re.I)
_RANGE_MARKERS = {
    ("code", True): "\x02",
    ("code", False): "\x03",
    ("struck", True): "\x04",
    ("struck", False): "\x05",
}
_MARKER_RANGES = {marker: key for key, marker in _RANGE_MARKERS.items()}
_MARKER = re.compile("([\x02-\x05])")
_SUPERSCRIPT_OPEN = re.compile(rf"<sup{_NAME_END}[^>]*>", re.I)
_SUPERSCRIPT_CLOSE = re.compile(rf"</sup{_NAME_END}", re.I)
_MARKED = re.compile(r"(?:[^\W\d_]{2}|[.,;:!?)\]}\"'’”»])\Z")
"""What a ``<sup>`` marks when it follows it (a word's last letters, closing punctuation): a note
to the text before, as footnote marks are written in HTML (``word<sup>1</sup>``); after a digit
or a letter alone (a variable, ``n<sup>2</sup>``) it is a power."""
_POWER_BASE = re.compile(r"(?:\d|(?<!\w)[^\W\d_])\Z")
"""What a ``<sup>`` raises to a power when it follows it: a digit, or a letter alone."""
_PAGE_EXTENSIONS = (".md", ".mdx")
_BARE_URL = re.compile(
    r"(?:(?<![A-Za-z])(?i:https?)://|(?<![^\s*_~(])(?=www\.[\w-]))"
    r"(?P<domain>[\w-]+(?:\.[\w-]+)*)[^\s<]*"
)
"""A GFM extended URL or www autolink candidate: ``http://``/``https://`` (not preceded by a
letter) or ``www.`` (at the start, after whitespace or ``*_~(``), a domain, then anything up to
whitespace or ``<``."""
_URL_TRAILING = "?!.,:*_~'\""
_ENTITY_END = re.compile(r"&[A-Za-z]+$")


def clean(text: str) -> str:
    """Collapse whitespace and drop zero-width characters (NBSP counts as whitespace)."""
    return " ".join(_without_zero_width(text).split())


def _without_zero_width(text: str) -> str:
    # Text seldom holds any: looking for each (none in ASCII) is far cheaper than translating
    # every character.
    if text.isascii() or not any(character in text for character in _ZERO_WIDTH_CHARACTERS):
        return text
    return text.translate(_ZERO_WIDTH)


def _collapsed(text: str) -> str:
    r"""``text`` without zero-width characters and with every whitespace run one space.

    That is what replacing each ``\s+`` match by a space gives: `str.split` cuts at the very
    characters ``\s`` matches, and splitting and joining costs a fraction of the substitution on
    long text (an HTML block).
    """
    text = _without_zero_width(text)
    words = " ".join(text.split())
    if not words:
        return " " if text else ""
    return (" " if text[0].isspace() else "") + words + (" " if text[-1].isspace() else "")


def bare_urls(text: str, apart: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """(start, end) of the URLs that GFM's linkify would find in plain ``text``.

    These are extended autolinks: ``http://``, ``https://`` or ``www.`` and a valid domain
    (no underscore in its last two segments), up to whitespace or ``<``, without trailing
    punctuation, an unbalanced ``)`` or a trailing entity-like ``&name;``. A URL neither starts
    in nor runs into an ``apart`` range (code spans, autolinks: not text that linkify reads).
    """
    if "://" not in text and "www." not in text:
        return []
    found = []
    kept_apart = Ranges(apart)
    for match in _BARE_URL.finditer(text):
        start, end = match.span()
        if kept_apart.hold(start):
            continue
        end = min([end, *(lo for lo, _ in kept_apart.starting_within(start + 1, end))])
        if match.end("domain") > end or any("_" in s for s in match["domain"].split(".")[-2:]):
            continue
        end = _without_trailing(text, start, end)
        if end > match.start("domain"):
            found.append((start, end))
    return found


def _without_trailing(text: str, start: int, end: int) -> int:
    """Where an autolink ending at ``end`` really ends, as GFM trims it."""
    while end > start:
        last = text[end - 1]
        if last in _URL_TRAILING:
            end -= 1
        elif last == ";":
            entity = _ENTITY_END.search(text, start, end - 1)
            end = entity.start() if entity else end - 1
        elif last == ")" and text.count(")", start, end) > text.count("(", start, end):
            end -= 1
        else:
            break
    return end


def normalize_target(href: str) -> str:
    """A link target as a reader follows it.

    Page extensions and trailing slashes are dropped; a relative link keeps only its last path
    segment, because a page that moves with its neighbours keeps pointing at the same page.
    """
    href = href.strip()
    if not href or href.startswith("#") or SCHEME.match(href):
        return href.rstrip("/") or href
    path, hash_mark, anchor = href.partition("#")
    stem, extension = splitext(path.rstrip("/"))
    if extension.lower() in _PAGE_EXTENSIONS:
        path = stem
    path = path.rstrip("/")
    if not href.startswith("/"):
        path = path.rsplit("/", 1)[-1]
    return path + hash_mark + anchor


@dataclass(slots=True)
class InlineText:
    """Plain text of an inline run, built piece by piece with whitespace collapsed as it goes."""

    parts: list[str] = field(default_factory=list)
    length: int = 0
    links: list[tuple[int, str]] = field(default_factory=list)
    """(offset, normalized target) of every link and image."""
    code: list[tuple[int, int]] = field(default_factory=list)
    """(start, end) of every code span; keywords inside them do not count."""
    struck: list[tuple[int, int]] = field(default_factory=list)
    """(start, end) of struck-through text: shown as deleted, so no requirement either."""
    urls: list[tuple[int, int]] = field(default_factory=list)
    """(start, end) of autolinks (``<https://…>``) and, once `link_bare_urls` found them, of
    bare URLs: an address, not prose."""
    linked: list[tuple[int, int]] = field(default_factory=list)
    """(start, end) of the words of Markdown links (``[…](…)``), which linkify leaves alone."""
    breaks: list[int] = field(default_factory=list)
    """Offsets where a new source line starts."""
    element_starts: list[int] = field(default_factory=list)
    """Offsets where text of another HTML block element (``<p>``, ``<li>``, ``<section>``)
    starts: no sentence runs across one, even into text that starts with a small letter."""
    opened: dict[str, int] = field(default_factory=dict)
    """Where a code or struck range still open began (``code``/``struck`` → offset)."""

    @property
    def protected(self) -> list[tuple[int, int]]:
        """Ranges where keywords do not count and sentences never end: code, struck text, and
        URLs (autolinks, and bare URLs once `link_bare_urls` found them)."""
        return sorted(self.code + self.struck + self.urls)

    def link_bare_urls(self) -> None:
        """Read the bare URLs that GFM's linkify makes links of (`bare_urls`) as the links they
        are, each to itself (``www.`` ones over ``http://``), as an autolink (``<https://…>``)
        or a link written out (``[https://…](https://…)``) is: so writing one so is formatting.
        Outside code spans and autolinks, as linkify reads text; a URL that is the words of
        another link (``[https://…](/elsewhere)``) is an address too, but links where that one
        does."""
        text = self.text
        for start, end in bare_urls(text, self.code + self.urls):
            self.urls.append((start, end))
            if any(first <= start < last for first, last in self.linked):
                continue
            url = text[start:end]
            if url[:4].lower() == "www.":
                url = "http://" + url
            insort(self.links, (start, normalize_target(normalizeLink(url))))

    def append_code(self, piece: str) -> None:
        """Append a code span's text."""
        start = self.length
        self.append(piece)
        self.code.append((start, self.length))

    def open_range(self, kind: str) -> None:
        self.opened.setdefault(kind, self.length)

    def close_range(self, kind: str) -> None:
        start = self.opened.pop(kind, None)
        if start is not None:
            ranges = {"code": self.code, "url": self.urls, "link": self.linked}.get(
                kind, self.struck
            )
            ranges.append((start, self.length))

    @classmethod
    def of(cls, text: str) -> InlineText:
        """Plain text with nothing inline in it."""
        inline = cls()
        inline.append(text)
        return inline

    @classmethod
    def verbatim(cls, text: str) -> InlineText:
        """Text kept exactly as written (code): no whitespace collapsing."""
        return cls(parts=[text], length=len(text))

    def mark(self, target: str) -> None:
        """Add a link target that marks the text before it, as a footnote's mark does: no word
        of the sentence, so adding or changing one is as a link's target changed."""
        # On that text's last character: a link at the very end would be in no sentence's key.
        insort(self.links, (max(len(self.text) - 1, 0), target))

    def annotate(self, target: str, *, wraps_words: bool) -> None:
        """Add what markup shows on hovering or renders from its arguments, no words of the
        sentence: a link's target at the words it wraps, or else a mark on the words before it
        (`mark`), also at the end of a heading or a table cell, where no words follow."""
        if wraps_words:
            self.links.append((self.length, target))
        else:
            self.mark(target)

    @property
    def last_characters(self) -> str:
        """The two characters last appended (fewer when fewer are), which may be two parts."""
        return "".join(self.parts[-2:])[-2:]

    @property
    def text(self) -> str:
        if not self.parts:
            # Asked before any text (a mark at the start): no empty part is made, which would
            # keep the leading space of the text appended next.
            return ""
        if len(self.parts) != 1:
            self.parts[:] = ["".join(self.parts)]
        return self.parts[0].rstrip()

    def append(self, piece: str) -> None:
        # Most pieces are printable ASCII with no double space, which needs no cleaning: telling
        # so takes no search.
        if not (piece.isascii() and piece.isprintable() and "  " not in piece):
            if _NEEDS_CLEANING.search(piece):
                piece = _collapsed(piece)
            if not piece.isascii() and not is_normalized("NFC", piece):
                # "é" as one character or as "e" and a combining accent: readers see one letter.
                piece = normalize("NFC", piece)
        if piece[:1] == " " and (not self.parts or self.parts[-1][-1:] == " "):
            piece = piece[1:]
        if piece:
            self.parts.append(piece)
            self.length += len(piece)

    def space(self) -> None:
        self.append(" ")

    def append_elements(self, html_text: str) -> None:
        """Append the text of HTML in which `_ELEMENT` stands for the tags of block elements."""
        first, *others = html_text.split(_ELEMENT)
        self.append(first)
        for other in others:
            self.space()
            if self.length and (not self.element_starts or self.element_starts[-1] != self.length):
                self.element_starts.append(self.length)
            self.append(other)

    def key(self, start: int = 0, end: int | None = None) -> str:
        """The comparison key of ``text[start:end]``: the words, then the link targets in it."""
        stop = self.length if end is None else end
        text = self.text
        words = text[start:stop].strip()
        if self.struck:
            words += "".join(f" ~{text[a:b]}~" for a, b in _from_to(self.struck, start, stop))
        if not self.links:
            return words
        # Links after the last word (an image with no words, a file included there) are its.
        last = stop if stop < len(text) else self.length + 1
        targets = [target for _, target in _from_to(self.links, start, last)]
        return key_of(words, targets)


Placed = TypeVar("Placed", bound=tuple[int, Any])


def _from_to(placed: list[Placed], start: int, stop: int) -> list[Placed]:
    """The entries of ``placed`` (listed in the order of their offsets, as struck ranges, which
    never overlap, and links are) whose offset is at ``start`` or after it and before ``stop``."""
    return placed[bisect_left(placed, (start,)) : bisect_left(placed, (stop,))]


def _emoji_shown(shortcode: re.Match[str]) -> str:
    return _SYMBOL_SHORTCODES.get(shortcode[1], "")


def _string_shown(literal: re.Match[str]) -> str:
    return literal[1] if literal[1] is not None else literal[2]


def inline_text(tokens: list[Token] | None, into: InlineText | None = None) -> InlineText:
    """Collect the plain text of an inline token's children."""
    result = into if into is not None else InlineText()
    remaining = iter(tokens or ())
    previous = ""
    for token in remaining:
        kind = token.type
        if kind == "text":
            content = token.content
            if previous in _ATTRIBUTED and content[:1] == "{":
                attributes = ATTRIBUTE_LIST.match(content)
                if attributes is not None:
                    content = content[attributes.end() :]
            if "{" in content:
                content = _MDX_STRING.sub(_string_shown, content)
            if ":" in content:
                content = EMOJI_SHORTCODE.sub(_emoji_shown, content)
            if "{{" in content:
                _with_shortcodes(result, content)
            else:
                result.append(content)
        elif kind in ("softbreak", "hardbreak"):
            result.space()
            result.breaks.append(result.length)
        elif kind == "code_inline":
            if result.parts and not result.parts[-1].endswith(" ") and token.content[:1] == " ":
                result.space()
            result.append_code(token.content.strip())
        elif kind == "link_open":
            result.open_range("url" if token.markup == "autolink" else "link")
            result.links.append((result.length, normalize_target(str(token.attrGet("href") or ""))))
            hover_title(result, token.attrGet("title"))
        elif kind == "link_close":
            result.close_range("url" if token.markup == "autolink" else "link")
        elif kind == "image":
            result.links.append((result.length, normalize_target(str(token.attrGet("src") or ""))))
            hover_title(result, token.attrGet("title"))
            inline_text(token.children, result)
        elif kind == "footnote_ref":
            result.mark("^" + token.meta["label"])
        elif kind == "s_open":
            result.open_range("struck")
        elif kind == "s_close":
            result.close_range("struck")
        elif kind == "html_inline":
            if _SUPERSCRIPT_OPEN.match(token.content) and _MARKED.search(result.last_characters):
                _superscript_marker(result, remaining)
            else:
                _html_tag(result, token.content)
        previous = kind
    return result


def _with_shortcodes(result: InlineText, content: str) -> None:
    """Append text holding Hugo shortcodes inside a sentence (``{{< glossary_tooltip
    text="probe" term_id="probe" >}}``, ``{{% added-in v="1.2" %}}``): what one shows is made by
    its template, which is not known, so it shows its ``text`` argument alone, and its name and
    other arguments count as a link's target does (a changed one is editorial, and no word of a
    requirement). A closing tag shows nothing."""
    position = 0
    for shortcode in hugo.SHORTCODE.finditer(content):
        result.append(content[position : shortcode.start()])
        position = shortcode.end()
        if shortcode[2]:
            continue
        arguments = hugo.parse_arguments(shortcode[4])
        shown = arguments.pop("text", "")
        target = " ".join([shortcode[3], *(f"{k}={v}" for k, v in sorted(arguments.items()))])
        result.annotate(target, wraps_words=bool(shown))
        if shown:
            result.append(shown)
    result.append(content[position:])


def hover_title(result: InlineText, title: object) -> None:
    """A title shown on hovering over a link, an image or an element (``[jar](jar.md "The
    jar")``, ``<abbr title="…">``): no words of the sentence, so it counts as a link's target
    does, as a tooltip's tip does, and a keyword in it makes no requirement."""
    shown = clean(str(title or ""))
    if shown:
        result.links.append((result.length, f"title: {shown}"))


def _superscript_marker(result: InlineText, following: Iterator[Token]) -> None:
    """Read a ``<sup>`` that follows a word (its opening tag just read) up to its ``</sup>``."""
    inside: list[Token] = []
    for token in following:
        if token.type == "html_inline" and _SUPERSCRIPT_CLOSE.match(token.content):
            marker = inline_text(inside)
            for target in ("^" + marker.text, *(target for _, target in marker.links)):
                result.mark(target)
            return
        inside.append(token)
    # Never closed: what follows the tag is text, as it is shown.
    inline_text(inside, result)


def _html_tag(result: InlineText, tag: str) -> None:
    """Inline HTML: a line break is a space; ``<code>`` and ``<s>``/``<del>`` open ranges; a
    link's target counts as a Markdown link's does."""
    match = _HTML_TAG.match(tag)
    if match is None:
        return
    name = match.group(2).lower()
    if name == "br":
        result.space()
    elif name == "sup" and not match.group(1) and _POWER_BASE.search(result.last_characters):
        # A power (10<sup>6</sup>): flattened, it would read as another number (106).
        result.append("^")
    elif name == "a" and not match.group(1):
        target = _attribute_value(_HREF, tag)
        if target is not None:
            result.links.append((result.length, normalize_target(target)))
    elif name == "img":
        # An image in a sentence reads as a Markdown image does: its source, then its words.
        source = _attribute_value(_SRC, tag)
        if source is not None:
            result.links.append((result.length, normalize_target(source)))
        result.append(clean(_attribute_value(_ALT, tag) or ""))
    elif name in _RANGE_TAGS:
        if match.group(1):
            result.close_range(_RANGE_TAGS[name])
        else:
            result.open_range(_RANGE_TAGS[name])
    elif name not in _INLINE_TAGS:
        if match.group(1) and match.group(2)[:1].isupper():
            # A component inside a sentence (a tooltip, a highlight) renders inline: its closing
            # tag parts no words, so punctuation right after it stays at the word before.
            return
        result.space()
        if match.group(2)[:1].isupper() and not match.group(1):
            _component_attributes(result, tag)
            return
    if not match.group(1):
        hover_title(result, _attribute_value(_TITLE_ATTRIBUTE, tag))


def attribute_targets(attrs: dict[str, str]) -> list[str]:
    """The link targets a component's attributes name (see `LINK_ATTRIBUTES`), normalized."""
    return [normalize_target(attrs[name]) for name in LINK_ATTRIBUTES if attrs.get(name)]


def _component_attributes(result: InlineText, tag: str) -> None:
    """Add the visible attributes and link targets of a component inside a sentence."""
    # Its visible attributes (``<Tooltip tip="…">``) are read on hovering over its words: no
    # words of the sentence, so they count as a link's target does, at the words' start.
    scanned = scan_tag(tag, 0, len(tag))
    if scanned is None:
        return
    targets = [
        f"{name}: {shown}"
        for name in VISIBLE_ATTRIBUTES
        if (shown := clean(scanned.attrs.get(name, "")))
    ]
    targets.extend(attribute_targets(scanned.attrs))
    for target in targets:
        # A self-closing one (`<Badge text="beta" />`) wraps no words.
        result.annotate(target, wraps_words=not scanned.self_closing)


def html_inline_text(html: str) -> InlineText:
    """The text an HTML fragment shows, with its code and struck ranges; comments dropped.

    Tags are replaced in a few regular-expression passes (code and struck tags by marker
    characters), so long generated HTML costs Python work only per run of block tags, where text
    of another element starts.
    """
    # The characters that stand for tags here mean nothing in a page: one there is dropped.
    # (Looking for each is quicker than a pass of the pattern over text that holds none.)
    if any(character in html for character in _MARK_CHARACTER_SET):
        html = _MARK_CHARACTERS.sub("", html)
    without_inline = _ELEMENT_TAG.sub(
        _ELEMENT, _without_closed(_INLINE_TAG_OR_COMMENT, html, "-->", _INLINE_TAG)
    )
    result = InlineText()
    if _RANGE_TAG.search(html) is None:
        result.append_elements(_elements(_BLOCK_TAG.sub(" ", without_inline)))
        return result
    marked = _RANGE_MARKS.sub(_range_mark, _OTHER_TAG.sub(" ", without_inline))
    for piece in _MARKER.split(_elements(marked)):
        if piece in _MARKER_RANGES:
            kind, opening = _MARKER_RANGES[piece]
            (result.open_range if opening else result.close_range)(kind)
        elif piece:
            result.append_elements(piece)
    return result


def _elements(html_text: str) -> str:
    """Entities decoded, and each run of tags with only whitespace between them one `_ELEMENT`.

    Split at the tags rather than matched by a pattern, which, starting with whitespace, is
    tried at every space of the text.
    """
    first, *others = unescape(html_text).split(_ELEMENT)
    if not others:
        return first
    between = [piece.strip() for piece in others[:-1]]
    return first.rstrip() + _ELEMENT + _ELEMENT.join([*filter(None, between), others[-1].lstrip()])


def _without_closed(
    pattern: re.Pattern[str], text: str, closer: str, after: re.Pattern[str] | None = None
) -> str:
    """``text`` without ``pattern``'s matches, whose comments end with ``closer``; past the
    last ``closer`` only ``after``'s matches are dropped.

    A comment left open finds no end there, so no search for one need start: from every
    opening of a comment never closed, the regular expression would scan to the text's end.
    """
    last = text.rfind(closer)
    end = last + len(closer) if last >= 0 else 0
    tail = text[end:] if after is None else after.sub("", text[end:])
    return pattern.sub("", text[:end]) + tail


def _range_mark(match: re.Match[str]) -> str:
    kind = _RANGE_TAGS[match.group(2).lower()]
    return _RANGE_MARKERS[(kind, not match.group(1))]
