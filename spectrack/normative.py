"""BCP 14 keywords (RFC 2119 as clarified by RFC 8174) and how strong a requirement is.

Only the UPPERCASE forms count. The two-word forms are matched first; a keyword followed by a
lowercase ``not`` ("MUST not") reads as its negative form, since that is the requirement it states.
A keyword in quotes ("MUST") or named ("the definition of OPTIONAL") is mentioned, not used: it
states no requirement; nor does the
sentence that says how the keywords are to be interpreted (RFC 2119, RFC 8174, BCP 14), nor one
written all in capitals (a licence's disclaimer), where no keyword stands out.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import pairwise

from spectrack.model import ChangeKind, Keyword

STRENGTH: dict[str, tuple[int, bool]] = {
    "MUST": (3, False),
    "REQUIRED": (3, False),
    "SHALL": (3, False),
    "SHOULD": (2, False),
    "RECOMMENDED": (2, False),
    "MAY": (1, False),
    "OPTIONAL": (1, False),
    "MUST NOT": (3, True),
    "SHALL NOT": (3, True),
    "SHOULD NOT": (2, True),
    "NOT RECOMMENDED": (2, True),
    "MAY NOT": (1, True),
}
"""Canonical keyword → (strength, negative). MAY NOT is not BCP 14, but pages write it."""

CONDITIONS = frozenset(
    {"if", "unless", "when", "whenever", "while", "until", "once", "where", "provided", "except"}
)
"""Words that open a condition: what follows holds only in the case it names."""

PLAIN_FORMS: dict[tuple[int, bool], tuple[str, ...]] = {
    STRENGTH["MUST"]: ("has to", "have to", "needs to", "need to"),
    STRENGTH["SHOULD"]: ("ought to",),
}
"""Plain English as strong as a keyword of that (strength, negative), besides the keywords'
own words in lowercase: a MUST turned into "has to" is weakened, not removed."""

_PATTERN = re.compile(
    r"(?<![\w-])(?:"
    r"(?P<negated>MUST|SHALL|SHOULD|MAY)(?:\s+(?P<not>NOT|not)(?![\w-]))?"
    r"|(?P<not_recommended>NOT\s+RECOMMENDED)"
    r"|(?P<single>REQUIRED|RECOMMENDED|OPTIONAL)"
    r")(?![\w-])"
)


_ANY_KEYWORD = re.compile("MUST|SHALL|SHOULD|REQUIRED|RECOMMENDED|MAY|OPTIONAL")


def has_keywords(text: str) -> bool:
    """Whether ``text`` may hold a keyword (a cheap test that `find_keywords` then settles)."""
    return _ANY_KEYWORD.search(text) is not None


def find_keywords(text: str, skip: Sequence[tuple[int, int]] = ()) -> tuple[Keyword, ...]:
    """The keywords of a plain-text sentence, in order, ignoring the ``skip`` ranges (code spans)."""
    return locate_keywords(text, skip)[0]


_KEYWORD_STANDARDS = re.compile(r"\b(?:RFC ?2119|RFC ?8174|BCP ?14)\b")


_LIST_JOINT = re.compile(r"""[\s,"'“”‘’„]*(?:\b(?:and|or)\b[\s"'“”‘’„]*)?""")
"""What parts keywords listed one after another: in the sentence that says how to read them
("MUST", "MUST NOT", …, and "OPTIONAL"), or named together ("the terms MUST, SHOULD and MAY"):
commas, quotes, "and", "or"."""


def _conventions(text: str) -> bool:
    """Whether ``text`` is the sentence that says how to read the keywords ("… are to be
    interpreted as described in BCP 14 [RFC2119] [RFC8174] …"): it lists them, quoted or not,
    two at least one after the other (see `_LIST_JOINT`), and requires nothing. One that only
    speaks of RFC 2119 ("Timers MUST be interpreted as seconds, per RFC 2119", "… and MAY be
    fractional") is a requirement."""
    if "interpreted" not in text or _KEYWORD_STANDARDS.search(text) is None:
        return False
    matches = list(_PATTERN.finditer(text))
    return any(
        first.group().split() != second.group().split()
        and _LIST_JOINT.fullmatch(text, first.end(), second.start()) is not None
        for first, second in pairwise(matches)
    )


def locate_keywords(
    text: str, skip: Sequence[tuple[int, int]] = ()
) -> tuple[tuple[Keyword, ...], tuple[tuple[int, int], ...]]:
    """`find_keywords`, and where each keyword stands: (start, end) offsets, in order."""
    if not has_keywords(text) or _conventions(text) or _shouted(text, skip):
        return (), ()
    found = []
    spans = []
    for match in _matches(text, skip):
        spans.append(match.span())
        if match.group("negated"):
            word = match.group("negated") + (" NOT" if match.group("not") else "")
        elif match.group("not_recommended"):
            word = "NOT RECOMMENDED"
        else:
            word = match.group("single")
        strength, negative = STRENGTH[word]
        found.append(Keyword(word, negative, strength))
    return tuple(found), tuple(spans)


_CAPITALIZED_WORD = re.compile(r"\b[A-Z][A-Z'’]+\b")
_SHOUTED_WORDS = 20
"""How many words besides keywords, all in capitals, make a sentence written in capitals (a
licence's disclaimer, long by nature) rather than a requirement shouted ("THE SERVER MUST USE
TLS.") or a row of acronyms (``ID | REQUIRED``), whose keywords count."""


_ANY_KEYWORD_WORDS = frozenset(word for keyword in STRENGTH for word in keyword.split())


def _shouted(text: str, skip: Sequence[tuple[int, int]]) -> bool:
    """Whether ``text`` is written all in capitals ("IN NO EVENT SHALL THE AUTHORS BE LIABLE"):
    its keywords cannot stand out from the other words, as RFC 8174 has them do, so none is
    one. Code spans (``skip``) do not count."""
    prose = text
    for start, end in reversed(skip):
        prose = prose[:start] + " " + prose[end:]
    if any(character.islower() for character in prose):
        return False
    words = [w for w in _CAPITALIZED_WORD.findall(prose) if w not in _ANY_KEYWORD_WORDS]
    return len(words) >= _SHOUTED_WORDS


_OPENING_QUOTES = frozenset("\"“'‘")
_CLOSING_QUOTES = frozenset("\"”'’")


_NAMING = re.compile(
    r"(?:\bdefinitions? of|\bmeaning of|\bthe (?:term|keyword|word)s?)\s+\Z", re.IGNORECASE
)
"""Words that name the keyword after them rather than use it ("the definition of OPTIONAL",
"the term MUST"), where no verb follows it (see `_AFTER_A_NAME`)."""
_AFTER_A_NAME = re.compile(r"\s*(?:[,.;:)\]]|\Z|(?:is|are|was|were|means?|and|or|in|here)\b)")
"""What may follow a keyword named: a mark, the sentence's end, or words that speak of it ("the
term MUST is defined"); a verb makes it used ("The term MUST be unique": a term's rule)."""
_LONGEST_NAMING = 40
"""How far before a keyword `_NAMING`'s words may start ("definitions of", with room for the
spaces and line breaks of a page's text)."""


def _matches(text: str, skip: Sequence[tuple[int, int]]) -> Iterator[re.Match[str]]:
    """The keyword matches of ``text`` that start in none of the ``skip`` ranges (code spans),
    and are no keyword mentioned rather than used: in quotes (the BCP 14 paragraph's "MUST"),
    or named (see `_NAMING`), alone or in a series."""
    named_until = -1
    for match in _PATTERN.finditer(text):
        start, end = match.span()
        if any(first <= start < last for first, last in skip):
            continue
        if text[start - 1 : start] in _OPENING_QUOTES and text[end : end + 1] in _CLOSING_QUOTES:
            continue
        if _AFTER_A_NAME.match(text, end) and (
            _NAMING.search(text, max(0, start - _LONGEST_NAMING), start)
            or (named_until >= 0 and _LIST_JOINT.fullmatch(text, named_until, start))
        ):
            named_until = end
            continue
        yield match


def _lowercased(keyword: str, text: str) -> bool:
    """Whether the keyword's words survive in ``text`` in any but their uppercase form."""
    pattern = r"\b" + r"\s+".join(map(re.escape, keyword.split())) + r"\b"
    return any(not match.group().isupper() for match in re.finditer(pattern, text, re.IGNORECASE))


def compare_keywords(
    old: Sequence[Keyword], new: Sequence[Keyword], new_text: str
) -> ChangeKind | None:
    """How the requirements of an aligned sentence pair changed, or None if the keywords are equal.

    Keywords present on both sides cancel out (a sentence whose clauses changed places keeps its
    requirements); what is left decides: only new ones → ``added``, only lost ones → ``removed``
    (``weakened`` when the word, or one as strong, survives in lowercase or in `PLAIN_FORMS`),
    some lost and some gained → stronger or weaker by strength, ``modified`` when the polarity
    flips at equal strength or the changes point both ways. With as many keywords on both sides, each is
    compared with the one in its place: MUST, SHOULD → MUST NOT, MUST is the MUST negated (and
    the SHOULD raised), not the SHOULD turned into a MUST NOT; otherwise a keyword negated beside
    a lost or gained one is ``modified`` too (MUST, SHOULD → MUST NOT).
    """
    old_words = Counter((k.strength, k.negative) for k in old)
    new_words = Counter((k.strength, k.negative) for k in new)
    lost = sorted((old_words - new_words).elements())
    gained = sorted((new_words - old_words).elements())
    if not lost and not gained:
        return None
    if not lost:
        return ChangeKind.ADDED
    if not gained:
        lost_kinds = set(lost)
        lost_words = {word for word, kind in STRENGTH.items() if kind in lost_kinds}
        lost_words.update(phrase for kind in lost_kinds for phrase in PLAIN_FORMS.get(kind, ()))
        if any(_lowercased(word, new_text) for word in lost_words):
            return ChangeKind.WEAKENED
        return ChangeKind.REMOVED
    if len(old) == len(new):
        pairs = [
            (was, now)
            for was, now in zip(
                ((k.strength, k.negative) for k in old),
                ((k.strength, k.negative) for k in new),
                strict=True,
            )
            if was != now
        ]
    else:
        pairs = list(zip(lost, gained, strict=False))
        if any(
            was[1] != now[1] and ((now[0], was[1]) in old_words or (was[0], now[1]) in new_words)
            for was, now in pairs
        ):
            # A keyword that stays was negated beside one removed or added (MUST, SHOULD →
            # MUST NOT): no SHOULD → MUST NOT.
            return ChangeKind.MODIFIED
    directions = {
        (new_strength > old_strength) - (new_strength < old_strength)
        for (old_strength, _), (new_strength, _) in pairs
    }
    if directions == {1}:
        return ChangeKind.STRENGTHENED
    if directions == {-1}:
        return ChangeKind.WEAKENED
    return ChangeKind.MODIFIED
