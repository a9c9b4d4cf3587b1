"""BCP 14 keywords (`spectrack.normative`): which words count, and how strength compares."""

from __future__ import annotations

import pytest

from spectrack.diff import diff_texts
from spectrack.markdown import parse
from spectrack.markdown.inline import bare_urls
from spectrack.model import ChangeClass, ChangeKind, Keyword, Side
from spectrack.normative import compare_keywords, find_keywords
from spectrack.site.build import _environment


def words(text: str) -> list[str]:
    return [k.word for k in find_keywords(text)]


def page_keywords(markdown: str) -> list[list[str]]:
    """The keywords of each sentence of a parsed page."""
    return [
        [k.word for k in sentence.keywords]
        for block in parse(markdown).blocks
        for sentence in block.sentences
    ]


@pytest.mark.parametrize(
    ("word", "strength", "negative"),
    [
        ("MUST", 3, False),
        ("REQUIRED", 3, False),
        ("SHALL", 3, False),
        ("SHOULD", 2, False),
        ("RECOMMENDED", 2, False),
        ("MAY", 1, False),
        ("OPTIONAL", 1, False),
        ("MUST NOT", 3, True),
        ("SHALL NOT", 3, True),
        ("SHOULD NOT", 2, True),
        ("NOT RECOMMENDED", 2, True),
    ],
)
def test_every_keyword_has_its_strength(word: str, strength: int, negative: bool) -> None:
    assert find_keywords(f"The heater {word} apply.") == (Keyword(word, negative, strength),)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Vents MUST NOT be covered.", ["MUST NOT"]),
        ("Vents SHALL NOT be covered.", ["SHALL NOT"]),
        ("Vents SHOULD NOT be covered.", ["SHOULD NOT"]),
        ("Covering vents is NOT RECOMMENDED.", ["NOT RECOMMENDED"]),
        ("Vents MUST\nNOT be covered.", ["MUST NOT"]),
        ("It is NOT\n  RECOMMENDED.", ["NOT RECOMMENDED"]),
        ("Vents MUST not be covered.", ["MUST NOT"]),
        ("A fan is NOT REQUIRED.", ["REQUIRED"]),
        ("Heaters MUST stop and SHOULD NOT restart, but MAY beep.", ["MUST", "SHOULD NOT", "MAY"]),
    ],
)
def test_two_word_forms_are_matched_first(text: str, expected: list[str]) -> None:
    assert words(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Vents must be clear.",
        "Vents Must be clear.",
        "Vents should not be covered.",
        "It is recommended to wait.",
        "The fan may spin.",
        "Optional parts are sold apart.",
        "Vents mUST be clear.",
        "A MUSTARD yellow casing.",
        "MAYBE later.",
        "The SHOULDER strap.",
        "A MUST-have feature.",
        "Use the NON-REQUIRED slot.",
        "A MUST_FLAG constant.",
        "Heat it MUST2 times.",
    ],
)
def test_only_uppercase_whole_words_count(text: str) -> None:
    assert words(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('The words "MUST" and "MAY NOT" are defined in BCP 14.', []),
        ("The words “SHOULD” and ‘OPTIONAL’ are defined there.", []),
        ('Marked "OPTIONAL", a field is OPTIONAL for both sides.', ["OPTIONAL"]),
        ('Clients MUST send "ping" first.', ["MUST"]),
        ('A "MUST follow" rule: servers MUST comply.', ["MUST", "MUST"]),
        ("The key words MUST, SHOULD and MAY are to be interpreted as in RFC 2119.", []),
        ("The key words „MUST“ and „MAY“ are to be interpreted as BCP 14 says.", []),
        ("Clients MUST follow RFC 2119 as interpreted by the kettle.", ["MUST"]),
        ("Timers MUST be interpreted as seconds, per RFC 2119.", ["MUST"]),
        ("Clients MUST follow RFC 8174 in what they send.", ["MUST"]),
        ("See the glossary for the definition of OPTIONAL.", []),
        ("The term MUST and the meaning of SHOULD NOT are set out below.", []),
        ("The keywords MUST, SHOULD, and MAY are defined; lids MAY seal.", ["MAY"]),
        ("The term MUST be unique in its jar.", ["MUST"]),
        ("See the definitions of\n        OPTIONAL.", []),
        ("The keyword SHOULD NOT appear in lids.", ["SHOULD NOT"]),
        ("The word MAY, here, lets lids MAY seal.", ["MAY"]),
        ("A redefinition of MUST lids MUST seal.", ["MUST", "MUST"]),
    ],
)
def test_a_keyword_in_quotes_or_named_is_mentioned_not_used(text: str, expected: list[str]) -> None:
    assert [keyword.word for keyword in find_keywords(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "IN NO EVENT SHALL THE MAKERS OF THE FAN OR ITS PARTS BE LIABLE FOR ANY LOSS, CLAIM"
            " OR DAMAGE OF ANY KIND ARISING FROM ITS USE.",
            [],
        ),
        (
            "YOU MAY NOT RUN, COPY OR SELL THE FAN OR ANY OF ITS PARTS EXCEPT AS THIS LICENCE"
            " SAYS AND ONLY WHERE THE LAW ALLOWS IT.",
            [],
        ),
        ("THE FAN MUST STOP.", ["MUST"]),
        ("THE FAN MUST STOP WHEN ITS GUARD IS OPEN OR ITS BLADES ARE BENT.", ["MUST"]),
        ("ID | RPM | REQUIRED", ["REQUIRED"]),
        ("In no event SHALL the makers of the fan be liable for any loss.", ["SHALL"]),
    ],
)
def test_a_sentence_written_in_capitals_has_no_keyword_unless_it_is_short(
    text: str, expected: list[str]
) -> None:
    assert [keyword.word for keyword in find_keywords(text)] == expected


def test_code_in_a_sentence_written_in_capitals_does_not_count() -> None:
    text = (
        "THE FAN `speed` MUST STAY UNDER TEN THOUSAND TURNS, OR THE MAKERS OF THE FAN ARE NOT"
        " LIABLE FOR ANY LOSS OR DAMAGE OF ANY KIND."
    )
    assert words(text) == ["MUST"]
    assert [k.word for k in find_keywords(text, [(8, 15)])] == []
    assert [k.word for k in find_keywords("THE FAN `x` MUST RUN.", [(8, 11)])] == ["MUST"]


def test_code_ranges_are_skipped() -> None:
    text = "Set MUST to true; the heater MAY ignore it."
    assert words(text) == ["MUST", "MAY"]
    assert [k.word for k in find_keywords(text, [(4, 8)])] == ["MAY"]


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        ("The fan **MUST** stop.\n", [["MUST"]]),
        ("The fan __MUST__ stop.\n", [["MUST"]]),
        ("The fan *MUST NOT* stop.\n", [["MUST NOT"]]),
        ("The fan **MUST** NOT stop.\n", [["MUST NOT"]]),
        ("The fan _SHOULD_\nNOT stop.\n", [["SHOULD NOT"]]),
        ("The fan [MAY](./fan.md) stop.\n", [["MAY"]]),
        ("The fan MUST\\\nNOT stop.\n", [["MUST NOT"]]),
        ("The fan MUST  \nNOT stop.\n", [["MUST NOT"]]),
        ("The fan MUST&nbsp;NOT stop.\n", [["MUST NOT"]]),
        ("Set `MUST` in the file. Then it MAY stop.\n", [[], ["MAY"]]),
        ("Write `SHOULD NOT` here.\n", [[]]),
        ("```\nThe fan MUST stop.\n```\n", [[]]),
        ("## Fans MUST stop\n", [[]]),
    ],
)
def test_keywords_in_markdown(markdown: str, expected: list[list[str]]) -> None:
    """Emphasis, links and line breaks around a keyword do not matter; code does."""
    assert page_keywords(markdown) == expected


def kw(word: str) -> Keyword:
    (keyword,) = find_keywords(word)
    return keyword


@pytest.mark.parametrize(
    ("old", "new", "kind"),
    [
        ("MAY", "SHOULD", ChangeKind.STRENGTHENED),
        ("SHOULD", "MUST", ChangeKind.STRENGTHENED),
        ("MAY", "MUST", ChangeKind.STRENGTHENED),
        ("OPTIONAL", "RECOMMENDED", ChangeKind.STRENGTHENED),
        ("RECOMMENDED", "REQUIRED", ChangeKind.STRENGTHENED),
        ("SHOULD NOT", "MUST NOT", ChangeKind.STRENGTHENED),
        ("NOT RECOMMENDED", "SHALL NOT", ChangeKind.STRENGTHENED),
        ("SHOULD", "MAY", ChangeKind.WEAKENED),
        ("MUST", "SHOULD", ChangeKind.WEAKENED),
        ("SHALL", "OPTIONAL", ChangeKind.WEAKENED),
        ("MUST NOT", "SHOULD NOT", ChangeKind.WEAKENED),
        ("MUST", "MUST NOT", ChangeKind.MODIFIED),
        ("SHOULD NOT", "SHOULD", ChangeKind.MODIFIED),
    ],
)
def test_strength_comparison(old: str, new: str, kind: ChangeKind) -> None:
    assert compare_keywords([kw(old)], [kw(new)], f"It {new} apply.") is kind


@pytest.mark.parametrize(("old", "new"), [("MUST", "SHALL"), ("SHOULD", "RECOMMENDED")])
def test_equal_strength_is_no_keyword_change(old: str, new: str) -> None:
    assert compare_keywords([kw(old)], [kw(new)], f"It {new} apply.") is None


def test_added_and_removed_keywords() -> None:
    assert compare_keywords([], [kw("MAY")], "It MAY apply.") is ChangeKind.ADDED
    assert compare_keywords([kw("MAY")], [], "It applies.") is ChangeKind.REMOVED


@pytest.mark.parametrize(
    ("old", "new_text"),
    [
        ("MUST", "The fan must stop."),
        ("SHOULD NOT", "The fan should not stop."),
        ("NOT RECOMMENDED", "Stopping is not recommended."),
        ("MAY", "The fan may stop."),
        ("MUST", "The fan is required to stop."),
        ("SHOULD NOT", "Stopping the fan is not recommended."),
        ("MAY", "Stopping the fan is optional."),
        ("MUST", "The fan has to stop."),
        ("MUST", "Fans need to stop."),
        ("SHOULD", "The fan ought to stop."),
    ],
)
def test_a_keyword_turned_lowercase_is_weakened(old: str, new_text: str) -> None:
    assert compare_keywords([kw(old)], [], new_text) is ChangeKind.WEAKENED


def test_a_keyword_turned_title_case_is_weakened() -> None:
    assert compare_keywords([kw("MUST")], [], "The fan Must stop.") is ChangeKind.WEAKENED


def test_a_lowercase_word_of_other_strength_is_no_weakening() -> None:
    assert compare_keywords([kw("MUST")], [], "Stopping is optional.") is ChangeKind.REMOVED
    assert compare_keywords([kw("MUST NOT")], [], "The fan is required.") is ChangeKind.REMOVED
    assert compare_keywords([kw("MAY")], [], "The fan has to stop.") is ChangeKind.REMOVED


def test_keywords_kept_on_both_sides_cancel_out() -> None:
    old = [kw("MUST"), kw("MAY")]
    assert compare_keywords(old, [kw("MUST"), kw("MUST")], "") is ChangeKind.STRENGTHENED
    assert compare_keywords(old, [kw("MAY"), kw("MUST")], "") is None
    assert compare_keywords(old, [kw("MUST")], "The fan stops.") is ChangeKind.REMOVED


@pytest.mark.parametrize(
    ("old", "new", "kind"),
    [
        (["MUST", "SHOULD"], ["MUST NOT", "MUST"], ChangeKind.MODIFIED),
        (["MUST", "SHOULD"], ["MUST", "MUST NOT"], ChangeKind.STRENGTHENED),
        (["MAY", "SHOULD NOT"], ["SHOULD", "MAY"], ChangeKind.MODIFIED),
        (["SHOULD", "MUST NOT"], ["MUST", "MUST NOT"], ChangeKind.STRENGTHENED),
        (["MUST", "SHOULD"], ["MUST NOT"], ChangeKind.MODIFIED),
        (["MUST NOT"], ["SHOULD"], ChangeKind.WEAKENED),
        (["MAY"], ["MUST NOT"], ChangeKind.STRENGTHENED),
    ],
)
def test_keywords_are_compared_with_the_one_in_their_place(
    old: list[str], new: list[str], kind: ChangeKind
) -> None:
    """MUST and SHOULD becoming MUST NOT and MUST reads as the MUST negated (and the SHOULD
    raised), not as the SHOULD turned into a MUST NOT. A keyword whose negation moved into the
    predicate alone ("MUST NOT define them inside" → "SHOULD define them outside") still
    compares by strength."""
    assert compare_keywords([kw(w) for w in old], [kw(w) for w in new], "") is kind


def test_changes_pointing_both_ways_are_a_modification() -> None:
    old = [kw("MUST"), kw("MAY")]
    new = [kw("SHOULD"), kw("SHOULD")]
    assert compare_keywords(old, new, "") is ChangeKind.MODIFIED


@pytest.mark.parametrize(
    ("markdown", "expected"),
    [
        pytest.param("See http://x.example/MUST.\n", [[]], id="http-path"),
        pytest.param("See HTTPS://x.example/a?mode=SHOULD&b=MAY.\n", [[]], id="https-query"),
        pytest.param("See www.x.example/MUST.\n", [[]], id="www"),
        pytest.param("See (www.x.example/MUST) first.\n", [[]], id="www-in-parentheses"),
        pytest.param("See **http://x.example/MUST**.\n", [[]], id="emphasized-url"),
        pytest.param("See <http://x.example/MUST>.\n", [[]], id="autolink"),
        pytest.param("See <urn:x:MUST>.\n", [[]], id="autolink-any-scheme"),
        pytest.param("See [http://x.example/MUST](/y).\n", [[]], id="url-as-link-text"),
        pytest.param("<p>See http://x.example/MUST.</p>\n", [[]], id="html-block"),
        pytest.param("http://x.example MUST be used.\n", [["MUST"]], id="keyword-after-url"),
        pytest.param(
            "See http://x.example/MAY. It MUST be used.\n", [[], ["MUST"]], id="next-sentence"
        ),
        pytest.param("See (http://x.example/a) MUST.\n", [["MUST"]], id="after-closing-paren"),
        pytest.param("<http://x.example/>MUST be used.\n", [["MUST"]], id="after-autolink"),
        pytest.param("Use `www.`MUST here.\n", [["MUST"]], id="url-in-code-span"),
        pytest.param("Use awww.x.example/MUST here.\n", [["MUST"]], id="www-inside-a-word"),
        pytest.param("Use xhttp://x.example/MUST here.\n", [["MUST"]], id="unknown-scheme"),
        pytest.param("Use http://x.y_z.example/MUST.\n", [["MUST"]], id="underscore-domain"),
        pytest.param("The http://x.example/ page MAY move.\n", [["MAY"]], id="keyword-in-prose"),
    ],
)
def test_keywords_inside_urls_do_not_count(markdown: str, expected: list[list[str]]) -> None:
    """The text of a bare URL or an autolink is an address, not a requirement (GFM linkify)."""
    assert page_keywords(markdown) == expected


@pytest.mark.parametrize(
    ("text", "urls"),
    [
        ("See http://x.example/a.", ["http://x.example/a"]),
        (
            "(see https://x.example/a_(b)) and www.y.example.",
            ["https://x.example/a_(b)", "www.y.example"],
        ),
        ("Go to http://x.example/?q=1&amp;", ["http://x.example/?q=1"]),
        ("A http://x.example/a\"b', then", ['http://x.example/a"b']),
        ("http://x.example<b>", ["http://x.example"]),
        ("No http:// and no www. here, nor http://_/", []),
        ("email: someone@x.example", []),
    ],
)
def test_bare_urls_end_where_gfm_ends_them(text: str, urls: list[str]) -> None:
    assert [text[a:b] for a, b in bare_urls(text)] == urls


@pytest.mark.parametrize(
    ("old", "new", "change_class", "kind"),
    [
        pytest.param(
            "See http://x.example/MUST.",
            "See http://x.example/MAY.",
            ChangeClass.EDITORIAL,
            ChangeKind.MODIFIED,
            id="keyword-in-url",
        ),
        pytest.param(
            "See <http://x.example/MUST>.",
            "See <http://x.example/MAY>.",
            ChangeClass.EDITORIAL,
            ChangeKind.MODIFIED,
            id="keyword-in-autolink",
        ),
        pytest.param(
            "See http://x.example MUST be used.",
            "See http://x.example MAY be used.",
            ChangeClass.NORMATIVE,
            ChangeKind.WEAKENED,
            id="keyword-after-url",
        ),
    ],
)
def test_a_keyword_changed_inside_a_url_is_editorial(
    old: str, new: str, change_class: ChangeClass, kind: ChangeKind
) -> None:
    for incremental in (True, False):
        page = diff_texts(f"# T\n\n{old}\n", f"# T\n\n{new}\n", "t.md", incremental=incremental)
        assert [(c.change_class, c.kind) for c in page.changes] == [(change_class, kind)]


def highlighted(side: Side | None) -> list[str]:
    assert side is not None
    return [run for run, keyword in side.runs() if keyword]


def test_reports_highlight_no_keyword_inside_a_url() -> None:
    old = "See http://x.example/MUST or www.y.example/SHALL; clients SHOULD follow it."
    (change,) = diff_texts(old, old.replace("SHOULD", "MUST"), "t.md").changes
    assert highlighted(change.new) == ["MUST"]


def test_reports_highlight_no_keyword_quoted_as_code() -> None:
    page = diff_texts(
        "# T\n\nSend `MUST` as the value; clients SHOULD do so.\n",
        "# T\n\nSend `MUST` as the value; clients MUST do so.\n",
        "t.md",
    )
    (change,) = page.changes
    assert change.new is not None and change.new.keywords == ("MUST",)
    assert highlighted(change.new) == ["MUST"]
    shown = _environment().from_string(
        '{% from "_macros.html" import sentence %}{{ sentence(side) }}'
    )
    assert shown.render(side=change.new).count('<mark class="keyword">MUST</mark>') == 1


def test_a_shortened_side_highlights_only_the_keywords_it_keeps_whole() -> None:
    text = "Pumps MUST stop. " + "The tank fills slowly. " * 20 + "Valves MAY open."
    side = Side(text, 1, 1, ("MUST", "MAY"), ((6, 10), (text.rindex("MAY"), len(text) - 6)))
    runs = side.runs(60)
    assert "".join(run for run, _ in runs) == text[:28] + " … " + text[-28:]
    assert [run for run, keyword in runs if keyword] == ["MUST", "MAY"]
    cut = Side(text, 1, 1, ("MUST",), ((6, 10),)).runs(12)
    assert [run for run, keyword in cut if keyword] == []


def test_a_side_marks_only_its_keywords_not_a_keyword_quoted_as_code() -> None:
    page = diff_texts(
        "# T\n\nSend `MUST` as the value; clients SHOULD do so.\n",
        "# T\n\nSend `MUST` as the value; clients MUST do so.\n",
        "t.md",
    )
    (change,) = page.changes
    assert change.new is not None and change.old is not None
    assert [change.new.text[a:b] for a, b in change.new.marks] == ["MUST"]
    assert change.new.marks[0][0] == change.new.text.rindex("MUST")
    assert [change.old.text[a:b] for a, b in change.old.marks] == ["SHOULD"]


def test_an_item_shown_after_its_lead_in_marks_the_lead_in_keyword() -> None:
    old = "# T\n\nA pump MUST stop when:\n\n- the tank is full\n"
    new = old + "- the lid opens, though it MAY restart\n"
    (change,) = diff_texts(old, new, "t.md").changes
    assert change.new is not None
    assert [change.new.text[a:b] for a, b in change.new.marks] == ["MUST", "MAY"]


def test_a_table_row_marks_its_keywords_in_the_row_text() -> None:
    old = "# T\n\n| Part | Rule |\n|---|---|\n| `MAY` flag | Lids SHOULD lock. Fans MAY spin. |\n"
    new = old.replace("SHOULD", "MUST")
    (change,) = diff_texts(old, new, "t.md").changes
    assert change.new is not None
    assert [change.new.text[a:b] for a, b in change.new.marks] == ["MUST", "MAY"]
    assert change.new.marks[1][0] == change.new.text.rindex("MAY")
