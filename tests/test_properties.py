"""Property tests: pages generated from a small grammar, written out in many equivalent styles.

A `Page` is the content (title, headings, paragraphs, lists, callouts, tables, code); a `Style`
is every formatting choice a writer or a documentation platform makes. Rendering one page in two
styles must only ever be a formatting change; inserting a sentence must be normative exactly when
the sentence holds an uppercase BCP 14 keyword. The vocabulary is made up for these tests, and
avoids words that could end a sentence early (abbreviations) or start MDX syntax.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, replace

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from spectrack.diff import diff_texts
from spectrack.markdown.admonitions import KINDS
from spectrack.model import Change, ChangeClass, ChangeKind, PageReport

NOUNS = ["kettle", "lid", "spout", "handle", "filter", "base", "element", "switch", "lamp", "cable"]
VERBS = ["heats", "holds", "drains", "warms", "covers", "guards", "lifts", "cools", "tilts"]
BASE_VERBS = ["heat", "hold", "drain", "warm", "cover", "guard", "lift", "cool", "tilt"]
ADJECTIVES = ["small", "steel", "round", "quiet", "narrow", "spare", "cold", "clean", "blue"]
SOFT_MODALS = ["must", "should", "may", "might", "will", "can"]
KEYWORDS = ["MUST", "MUST NOT", "SHALL", "SHALL NOT", "SHOULD", "SHOULD NOT", "MAY"]
KEYWORDS += ["REQUIRED", "RECOMMENDED", "NOT RECOMMENDED", "OPTIONAL"]


# --- Content ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Word:
    text: str
    look: str = "plain"
    """``plain``, ``em``, ``strong``, ``code`` or ``paren`` (in parentheses)."""


@dataclass(frozen=True)
class Link:
    text: str
    target: str


@dataclass(frozen=True)
class Joined:
    """Two words a writer keeps together with a no-break space."""

    first: str
    second: str


@dataclass(frozen=True)
class Symbol:
    """A dash or an ampersand, which pages write as characters or as entities."""

    name: str


Token = Word | Link | Joined | Symbol
Sentence = tuple[Token, ...]


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    emphasis: bool = False
    """Whether the first word of the heading is emphasised."""


@dataclass(frozen=True)
class Paragraph:
    sentences: tuple[Sentence, ...]


@dataclass(frozen=True)
class Items:
    items: tuple[Paragraph, ...]
    ordered: bool


@dataclass(frozen=True)
class Callout:
    kind: str
    body: Paragraph


@dataclass(frozen=True)
class Table:
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Code:
    language: str
    lines: tuple[str, ...]


Block = Heading | Paragraph | Items | Callout | Table | Code


@dataclass(frozen=True)
class Page:
    title: str | None
    blocks: tuple[Block, ...]


EXTRAS: st.SearchStrategy[Token] = st.one_of(
    st.builds(Word, st.sampled_from(ADJECTIVES)),
    st.builds(Word, st.sampled_from(NOUNS), st.sampled_from(["em", "strong", "code", "paren"])),
    st.builds(
        Link,
        st.tuples(st.sampled_from(ADJECTIVES), st.sampled_from(NOUNS)).map(" ".join),
        st.sampled_from(["https://kettle.example/care", "./spout.md", "/lid#cap"]),
    ),
    st.builds(Joined, st.sampled_from(ADJECTIVES), st.sampled_from(NOUNS)),
    st.sampled_from([Symbol("dash"), Symbol("amp")]),
)
"""Tokens that may stand in the middle of a sentence."""


@st.composite
def plain_sentence(draw: st.DrawFn, modal: str | None = None) -> Sentence:
    """``The <adjective> <noun> <verb> … the <noun>.``: no keyword in it."""
    opening = [
        Word("The"),
        Word(draw(st.sampled_from(ADJECTIVES))),
        Word(draw(st.sampled_from(NOUNS))),
    ]
    if modal:
        opening += [Word(modal), Word(draw(st.sampled_from(BASE_VERBS)))]
    else:
        opening.append(Word(draw(st.sampled_from(VERBS))))
    middle = draw(st.lists(EXTRAS, max_size=4))
    return (*opening, *middle, Word("the"), Word(draw(st.sampled_from(NOUNS)) + "."))


@st.composite
def keyword_sentence(draw: st.DrawFn) -> tuple[Sentence, str]:
    """A sentence holding one uppercase keyword, sometimes emphasised; and that keyword."""
    keyword = draw(st.sampled_from(KEYWORDS))
    look = draw(st.sampled_from(["plain", "strong", "em", "split"]))
    middle = [Word(keyword, look)] if look != "split" else [Word(w) for w in keyword.split()]
    noun = Word(draw(st.sampled_from(NOUNS)))
    if keyword in ("REQUIRED", "RECOMMENDED", "NOT RECOMMENDED", "OPTIONAL"):
        return (Word("A"), noun, Word("is"), *middle, Word("here.")), keyword
    verb = Word(draw(st.sampled_from(BASE_VERBS)))
    end = Word(draw(st.sampled_from(NOUNS)) + ".")
    return (Word("The"), noun, *middle, verb, Word("the"), end), keyword


def prose_sentence() -> st.SearchStrategy[Sentence]:
    """A keyword-free sentence, sometimes with a lowercase modal (which is not a keyword)."""
    return st.sampled_from([None, *SOFT_MODALS]).flatmap(plain_sentence)


def paragraph(max_sentences: int = 3) -> st.SearchStrategy[Paragraph]:
    sentence = st.one_of(prose_sentence(), keyword_sentence().map(lambda pair: pair[0]))
    return st.lists(sentence, min_size=1, max_size=max_sentences).map(lambda s: Paragraph(tuple(s)))


def heading_text() -> st.SearchStrategy[str]:
    return st.builds(
        lambda adjective, noun: f"{adjective.capitalize()} {noun}s",
        st.sampled_from(ADJECTIVES),
        st.sampled_from(NOUNS),
    )


def cells() -> st.SearchStrategy[str]:
    return st.builds("{}={}".format, st.sampled_from(NOUNS), st.sampled_from(ADJECTIVES))


BLOCKS: st.SearchStrategy[Block] = st.one_of(
    st.builds(Heading, st.sampled_from([2, 3]), heading_text(), st.booleans()),
    paragraph(),
    st.builds(Items, st.lists(paragraph(2), min_size=1, max_size=3).map(tuple), st.booleans()),
    st.builds(Callout, st.sampled_from(KINDS), paragraph(2)),
    st.lists(st.tuples(cells(), cells()), min_size=2, max_size=4).map(lambda r: Table(tuple(r))),
    st.builds(
        Code,
        st.sampled_from(["ini", "json", "sh"]),
        st.lists(cells(), min_size=1, max_size=3).map(tuple),
    ),
)
PAGES = st.builds(
    Page,
    st.one_of(st.none(), heading_text()),
    st.lists(BLOCKS, min_size=1, max_size=7).map(tuple),
)


# --- Style -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Style:
    width: int
    """Wrap paragraphs at this many columns; 0 keeps each paragraph on one line."""
    indent: int
    """Extra spaces before continuation lines."""
    bullet: str
    delimiter: str
    emphasis: str
    strong: str
    headings: str
    """``atx``, ``closed`` (``## Title ##``) or ``setext`` (levels 1 and 2)."""
    links: str
    """``inline`` or ``reference``."""
    dash: str
    amp: str
    nbsp: str
    escape: bool
    pad_tables: bool
    trailing: str
    """Appended to every line; two spaces make hard line breaks."""
    lazy: bool
    """Continuation lines of list items and alerts without their indentation or ``>``."""
    comments: bool
    """An HTML or MDX comment between blocks."""
    zero_width: bool
    fence: str
    callouts: str
    div: bool
    front_matter: bool
    blank_lines: int


CALLOUT_SYNTAXES = ["mdx", "mdx-indented", "github", "github-bare", "github-lower"]
CALLOUT_SYNTAXES += ["docusaurus", "mkdocs", "hugo"]

STYLES = st.builds(
    Style,
    width=st.sampled_from([0, 24, 40, 72, 100]),
    indent=st.integers(0, 3),
    bullet=st.sampled_from(["-", "*", "+"]),
    delimiter=st.sampled_from([".", ")"]),
    emphasis=st.sampled_from(["*", "_"]),
    strong=st.sampled_from(["**", "__"]),
    headings=st.sampled_from(["atx", "closed", "setext"]),
    links=st.sampled_from(["inline", "reference"]),
    dash=st.sampled_from(["—", "&mdash;", "&#8212;"]),
    amp=st.sampled_from(["&", "&amp;", "&#38;"]),
    nbsp=st.sampled_from([" ", "&nbsp;", "\u00a0"]),
    escape=st.booleans(),
    pad_tables=st.booleans(),
    trailing=st.sampled_from(["", " ", "\t", "  "]),
    lazy=st.booleans(),
    comments=st.booleans(),
    zero_width=st.booleans(),
    fence=st.sampled_from(["```{lang}", "~~~{lang}", "```{lang} theme={{null}}", "````{lang}"]),
    callouts=st.sampled_from(CALLOUT_SYNTAXES),
    div=st.booleans(),
    front_matter=st.booleans(),
    blank_lines=st.integers(1, 3),
)

MDX_NAMES = {"note": "Note", "tip": "Tip", "important": "Important", "warning": "Warning"}
MDX_NAMES["caution"] = "Danger"


class Writer:
    """Writes one `Page` in one `Style`."""

    def __init__(self, style: Style) -> None:
        self.style = style
        self.references: list[str] = []

    def token(self, token: Token) -> str:
        style = self.style
        if isinstance(token, Link):
            if style.links == "inline":
                return f"[{token.text}]({token.target})"
            self.references.append(token.target)
            return f"[{token.text}][ref{len(self.references)}]"
        if isinstance(token, Joined):
            return f"{token.first}{style.nbsp}{token.second}"
        if isinstance(token, Symbol):
            return style.dash if token.name == "dash" else style.amp
        text = token.text
        if style.escape and text.endswith("."):
            text = text[:-1] + "\\."
        if token.look == "em":
            return f"{style.emphasis}{text}{style.emphasis}"
        if token.look == "strong":
            return f"{style.strong}{text}{style.strong}"
        if token.look == "code":
            return f"`{text}`"
        if token.look == "paren":
            return f"\\({text}\\)" if style.escape else f"({text})"
        return text + ("\u200b" if style.zero_width and text[:1].isupper() else "")

    def lines(self, paragraph: Paragraph, first: str, rest: str) -> list[str]:
        """A paragraph as lines: ``first`` prefixes the first line, ``rest`` the others."""
        units = [self.token(t) for sentence in paragraph.sentences for t in sentence]
        text = " ".join(units)
        if not self.style.width:
            return [first + text]
        rest = rest + " " * self.style.indent
        wrapped = textwrap.wrap(
            text, self.style.width, break_long_words=False, break_on_hyphens=False
        )
        return [(first if n == 0 else rest) + line for n, line in enumerate(wrapped)]

    def heading(self, level: int, text: str, emphasis: bool = False) -> list[str]:
        if emphasis:
            first, rest = text.split(" ", 1)
            text = f"{self.style.emphasis}{first}{self.style.emphasis} {rest}"
        if self.style.headings == "setext" and level <= 2:
            return [text, ("=" if level == 1 else "-") * len(text)]
        closing = " " + "#" * level if self.style.headings == "closed" else ""
        return [f"{'#' * level} {text}{closing}"]

    def callout(self, callout: Callout) -> list[str]:
        syntax, kind = self.style.callouts, callout.kind
        if syntax.startswith("mdx"):
            name = MDX_NAMES[kind]
            pad = "  " if syntax == "mdx-indented" else ""
            return [f"<{name}>", *self.lines(callout.body, pad, pad), f"</{name}>"]
        if syntax.startswith("github"):
            marker = kind if syntax == "github-lower" else kind.upper()
            bare = [">"] if syntax == "github-bare" else []
            rest = "" if self.style.lazy else "> "
            return [f"> [!{marker}]", *bare, *self.lines(callout.body, "> ", rest)]
        if syntax == "docusaurus":
            return [f":::{kind}", "", *self.lines(callout.body, "", ""), "", ":::"]
        if syntax == "mkdocs":
            return [f"!!! {kind}", "", *self.lines(callout.body, "    ", "    ")]
        hugo = kind if kind != "note" else "info"
        opening = f'{{{{< callout type="{hugo}" >}}}}'
        return [opening, *self.lines(callout.body, "", ""), "{{< /callout >}}"]

    def table(self, table: Table) -> list[str]:
        columns = len(table.rows[0])
        rows = [list(table.rows[0]), ["---"] * columns, *(list(r) for r in table.rows[1:])]
        if self.style.pad_tables:
            widths = [max(len(r[c]) for r in rows) for c in range(columns)]
            rows = [
                [
                    ("-" * widths[c] if cell == "---" else cell.ljust(widths[c]))
                    for c, cell in enumerate(r)
                ]
                for r in rows
            ]
        return ["| " + " | ".join(r) + " |" for r in rows]

    def block(self, block: Block) -> list[str]:
        if isinstance(block, Heading):
            return self.heading(block.level, block.text, block.emphasis)
        if isinstance(block, Paragraph):
            return self.lines(block, "", "")
        if isinstance(block, Items):
            out = []
            for number, item in enumerate(block.items, 1):
                marker = f"{number}{self.style.delimiter} " if block.ordered else "- "
                if not block.ordered:
                    marker = self.style.bullet + " "
                out += self.lines(item, marker, "" if self.style.lazy else " " * len(marker))
            return out
        if isinstance(block, Callout):
            return self.callout(block)
        if isinstance(block, Table):
            return self.table(block)
        fence = self.style.fence.format(lang=block.language)
        marker = fence[:4] if fence.startswith("````") else fence[:3]
        return [fence, *block.lines, marker]

    def page(self, page: Page) -> str:
        chunks: list[list[str]] = []
        if page.title and self.style.front_matter:
            chunks.append(["---", f"title: {page.title}", "---"])
        elif page.title:
            chunks.append(self.heading(1, page.title))
        if self.style.div:
            chunks.append(['<div id="enable-section-numbers" />'])
        for block in page.blocks:
            chunks.append(self.block(block))
            if self.style.comments:
                chunks.append(["<!-- checked by the kettle group -->"])
        if self.references:
            chunks.append([f"[ref{n}]: {t}" for n, t in enumerate(self.references, 1)])
        gap = [""] * self.style.blank_lines
        lines = [line for chunk in chunks for line in (*chunk, *gap)]
        # Front matter delimiters stay bare: see test_front_matter_delimiter_with_trailing_space.
        return "\n".join(
            line + self.style.trailing if line and line != "---" else line for line in lines
        )


def write(page: Page, style: Style) -> str:
    return Writer(style).page(page)


# --- Edits -----------------------------------------------------------------------------------


def insert_sentence(page: Page, place: int, sentence: Sentence) -> Page:
    """``page`` with ``sentence`` inserted into its ``place``-th paragraph (by every sentence
    slot of every paragraph, list item and callout), or as a new last paragraph."""
    slots = 0
    blocks = list(page.blocks)

    def into(paragraph: Paragraph) -> Paragraph | None:
        nonlocal slots
        count = len(paragraph.sentences) + 1
        if slots <= place < slots + count:
            at = place - slots
            slots += count
            return Paragraph((*paragraph.sentences[:at], sentence, *paragraph.sentences[at:]))
        slots += count
        return None

    for index, block in enumerate(blocks):
        if isinstance(block, Paragraph) and (changed := into(block)):
            blocks[index] = changed
            return replace(page, blocks=tuple(blocks))
        if isinstance(block, Callout) and (changed := into(block.body)):
            blocks[index] = replace(block, body=changed)
            return replace(page, blocks=tuple(blocks))
        if isinstance(block, Items):
            for number, item in enumerate(block.items):
                if changed := into(item):
                    items = (*block.items[:number], changed, *block.items[number + 1 :])
                    blocks[index] = replace(block, items=items)
                    return replace(page, blocks=tuple(blocks))
    return replace(page, blocks=(*blocks, Paragraph((sentence,))))


def explain(page: PageReport) -> list[tuple[str, str, str | None, str | None]]:
    return [
        (c.change_class.value, c.kind.value, c.old and c.old.text, c.new and c.new.text)
        for c in page.changes
    ]


# --- Properties ------------------------------------------------------------------------------

SETTINGS = settings(max_examples=150, deadline=None)


@SETTINGS
@given(PAGES, STYLES)
def test_a_page_diffed_with_itself_is_unchanged(page: Page, style: Style) -> None:
    text = write(page, style)
    report = diff_texts(text, text, "page.md")
    assert report.verdict == "unchanged"
    assert not report.hunks


@SETTINGS
@given(PAGES, STYLES, STYLES)
def test_restyling_a_page_is_only_formatting(page: Page, old: Style, new: Style) -> None:
    old_text, new_text = write(page, old), write(page, new)
    report = diff_texts(old_text, new_text, "page.md")
    expected = "unchanged" if old_text == new_text else "formatting"
    assert report.verdict == expected, (old_text, new_text, explain(report))


@SETTINGS
@given(PAGES, STYLES, STYLES, st.integers(0, 30), keyword_sentence())
def test_inserting_a_keyword_sentence_is_normative(
    page: Page, old: Style, new: Style, place: int, inserted: tuple[Sentence, str]
) -> None:
    sentence, keyword = inserted
    old_text = write(page, old)
    new_text = write(insert_sentence(page, place, sentence), new)
    report = diff_texts(old_text, new_text, "page.md")
    assert report.verdict == "normative", (old_text, new_text, explain(report))
    normative = [c for c in report.changes if c.change_class is ChangeClass.NORMATIVE]
    assert len(normative) == 1, explain(report)
    assert normative[0].kind is ChangeKind.ADDED
    assert normative[0].new is not None
    assert normative[0].new.keywords == (keyword,)


@SETTINGS
@given(PAGES, STYLES, STYLES, st.integers(0, 30), prose_sentence())
def test_inserting_a_keyword_free_sentence_is_editorial(
    page: Page, old: Style, new: Style, place: int, sentence: Sentence
) -> None:
    old_text = write(page, old)
    new_text = write(insert_sentence(page, place, sentence), new)
    report = diff_texts(old_text, new_text, "page.md")
    assert report.verdict == "editorial", (old_text, new_text, explain(report))


@SETTINGS
@given(PAGES, STYLES, STYLES, st.integers(0, 30), st.data())
def test_exchanging_the_subject_and_object_of_a_sentence_is_editorial(
    page: Page, old: Style, new: Style, place: int, data: st.DataObject
) -> None:
    sentence = data.draw(prose_sentence())
    subject, *middle, last = sentence[2:]
    assume(subject.text != last.text.rstrip("."))
    exchanged = (*sentence[:2], Word(last.text.rstrip(".")), *middle, Word(subject.text + "."))
    assume(not {sentence, exchanged} & sentences_of(page))
    old_text = write(insert_sentence(page, place, sentence), old)
    new_text = write(insert_sentence(page, place, exchanged), new)
    report = diff_texts(old_text, new_text, "page.md")
    assert report.verdict == "editorial", (old_text, new_text, explain(report))


def sentences_of(page: Page) -> set[Sentence]:
    """Every sentence of the page's paragraphs, list items and callouts."""
    paragraphs: list[Paragraph] = []
    for block in page.blocks:
        if isinstance(block, Paragraph):
            paragraphs.append(block)
        elif isinstance(block, Callout):
            paragraphs.append(block.body)
        elif isinstance(block, Items):
            paragraphs.extend(block.items)
    return {sentence for paragraph in paragraphs for sentence in paragraph.sentences}


@SETTINGS
@given(PAGES, STYLES, STYLES, st.integers(0, 30), keyword_sentence())
def test_incremental_diff_equals_whole_page_diff(
    page: Page, old: Style, new: Style, place: int, inserted: tuple[Sentence, str]
) -> None:
    # A copy of a sentence already on the page is the known case below.
    assume(inserted[0] not in sentences_of(page))
    old_text = write(page, old)
    new_text = write(insert_sentence(page, place, inserted[0]), new)
    whole = diff_texts(old_text, new_text, "page.md", incremental=False)
    windowed = diff_texts(old_text, new_text, "page.md")
    # A window sees fewer blocks, so formatting changes may be grouped otherwise; everything a
    # reader acts on must be identical.
    assert windowed.verdict == whole.verdict
    assert [h.change_class for h in windowed.hunks] == [h.change_class for h in whole.hunks]
    assert meaningful(windowed) == meaningful(whole)


def test_a_copy_added_to_a_run_of_equal_sentences_is_placed_alike() -> None:
    """Of equal copies, the one on the changed line is the one added, whatever stretch of the
    run a window sees (the whole page once placed it at the run's last copy)."""
    old_text = "- The kettle MUST heat the kettle.\n- The kettle MUST heat the kettle.\n"
    new_text = old_text.replace(".\n", ". The kettle MUST heat the kettle.\n", 1)
    whole = diff_texts(old_text, new_text, "page.md", incremental=False)
    windowed = diff_texts(old_text, new_text, "page.md")
    assert [h.change_class for h in windowed.hunks] == [h.change_class for h in whole.hunks]
    assert meaningful(windowed) == meaningful(whole)


def meaningful(report: PageReport) -> list[Change]:
    return [c for c in report.changes if c.change_class is not ChangeClass.FORMATTING]


@st.composite
def introduced_list(draw: st.DrawFn) -> tuple[Page, Sentence]:
    """A page whose list a requirement ending in a colon introduces, and one more item for it."""
    sentence, _ = draw(keyword_sentence())
    *words, last = sentence
    lead_in = (*words, Word(last.text.rstrip(".") + ":", last.look))
    items = draw(st.lists(prose_sentence(), min_size=1, max_size=6))
    blocks: list[Block] = [Heading(2, "Small kettles"), Paragraph((lead_in,))]
    blocks.append(Items(tuple(Paragraph((item,)) for item in items), draw(st.booleans())))
    return Page(None, tuple(blocks)), draw(prose_sentence())


@SETTINGS
@given(introduced_list(), STYLES, STYLES, st.integers(0, 6))
def test_an_item_added_to_a_list_a_requirement_introduces_is_normative(
    introduced: tuple[Page, Sentence], old: Style, new: Style, place: int
) -> None:
    page, item = introduced
    listed = page.blocks[-1]
    assert isinstance(listed, Items)
    assume(item not in sentences_of(page))
    place = min(place, len(listed.items))
    items = (*listed.items[:place], Paragraph((item,)), *listed.items[place:])
    longer = replace(page, blocks=(*page.blocks[:-1], replace(listed, items=items)))
    old_text, new_text = write(page, old), write(longer, new)
    whole = diff_texts(old_text, new_text, "page.md", incremental=False)
    normative = [c for c in whole.changes if c.change_class is ChangeClass.NORMATIVE]
    assert [c.kind for c in normative] == [ChangeKind.ADDED], explain(whole)
    assert meaningful(diff_texts(old_text, new_text, "page.md")) == meaningful(whole)
