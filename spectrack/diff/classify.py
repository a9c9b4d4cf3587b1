"""Give each aligned difference its class and kind (DESIGN.md, "Classes of change").

Code and diagrams are examples: a change there is editorial, never normative. A sentence pair
whose keywords differ is normative (added, removed, strengthened, weakened or modified). A pair
with the same keywords is normative ``modified`` unless it still states the same requirement
(see `same_requirement`); without keywords it is editorial.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from functools import cache, partial
from http import HTTPStatus
from itertools import pairwise

from spellchecker import SpellChecker

from spectrack.diff.align import (
    ARTICLES,
    WORD_OR_SIGN,
    Unit,
    piece_runs,
    signs_of,
    singular,
    words_of,
)
from spectrack.diff.lines import bounded_opcodes, shared_ends
from spectrack.markdown.inline import LINK_TARGETS
from spectrack.model import BlockKind, ChangeClass, ChangeKind, Sentence
from spectrack.normative import CONDITIONS, STRENGTH, compare_keywords, locate_keywords

_SYNONYMS = {"shall": "must", "required": "must", "recommended": "should", "optional": "may"}
SYNONYMS = _SYNONYMS | {word.upper(): same.upper() for word, same in _SYNONYMS.items()}
"""Keywords of equal strength: swapping one for another keeps the requirement. Keywords stay in
capitals in `requirement_words`, their lowercase words (plain English) in small letters."""

PRONOUNS = frozenset({"it", "they", "this", "these", "that", "those", "he", "she"})
"""Subjects that an edit may replace by the noun they stand for without changing a requirement."""
_NOUN_PRONOUNS = PRONOUNS - {"this", "that"}
"""The `PRONOUNS` that a noun may replace: "this" and "that" alone point at what the sentence
before says rather than at a noun it names ("Relays wake hourly. This MUST be logged": the
waking, not the relays)."""

_BELOW_TWENTY = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"
    " sixteen seventeen eighteen nineteen"
)
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety"
NUMBERS = {word: value for value, word in enumerate(_BELOW_TWENTY.split())} | {
    word: value for value, word in zip(range(20, 100, 10), _TENS.split(), strict=True)
}
"""Numbers written as words, read as their digits: "three times" is "3 times"."""

_ORDINALS = "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth"
_ORDINAL_ENDINGS = ("st", "nd", "rd", *["th"] * 9)
SPELLED_OUT: dict[str, tuple[str, ...]] = {
    f"{place}{ending}": (word,)
    for place, (word, ending) in enumerate(zip(_ORDINALS.split(), _ORDINAL_ENDINGS, strict=True), 1)
} | {"twice": ("two", "times"), "thrice": ("three", "times")}
"""Ordinals in digits read as their words ("1st" as "first"), and repetitions as a count of
times ("twice" as "two times")."""

_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}

_COPULAS = ("is", "are")
_ADJECTIVE_KEYWORDS = {
    (copula, *cased(adjective), "to"): cased(verb)
    for copula in _COPULAS
    for adjective, verb in (
        (("required",), ("must",)),
        (("recommended",), ("should",)),
        (("not", "recommended"), ("should", "not")),
    )
    for cased in (tuple, lambda words: tuple(word.upper() for word in words))
}
"""RFC 2119's keywords as adjectives with a verb ("are RECOMMENDED to send"), and the verb
keywords they equal ("SHOULD send"); in lowercase, the plain words they equal ("are required
to send", "must send"). "is NOT REQUIRED to" is no MUST NOT but a choice."""
_PLAIN_OBLIGATIONS = {(verb, "to"): ("must",) for verb in ("need", "needs")} | {
    (copula, "able", "to"): ("can",) for copula in _COPULAS
}
"""Plain words that say what "must" (or "can") says, in lowercase: "header names need to match"
is "header names are required to match" (both read as "must"). Not "have to", which as often
says what one has ("the tools they have to offer")."""
_REFERENCE_VERBS = (
    ("described",),
    ("defined",),
    ("specified",),
    ("outlined",),
    ("detailed",),
    ("explained",),
    ("documented",),
    ("given",),
    ("shown",),
    ("stated",),
    ("laid", "out"),
    ("set", "out"),
)
_REFERENCE_PHRASES = {
    ("as", *verb, "in"): ("as", "described", "in") for verb in _REFERENCE_VERBS
} | {("according", "to"): ("as", "described", "in")}
"""How a requirement points at the text that says more ("as defined in", "as laid out in",
"according to"): pointing otherwise at the same place says the same."""
_PHRASES = _ADJECTIVE_KEYWORDS | _PLAIN_OBLIGATIONS | _REFERENCE_PHRASES
"""Phrases that `requirement_words` reads as the words each equals."""
_PHRASE_STARTS = frozenset(_PHRASES)
_IMPERSONAL_KEYWORDS = {
    ("it", "is", *adjective, joint): verb
    for joint in ("that", "for")
    for adjective, verb in (
        (("MUST",), ("MUST",)),
        (("SHOULD",), ("SHOULD",)),
        (("NOT", "SHOULD"), ("SHOULD", "NOT")),
        (("MAY",), ("MAY",)),
    )
}
"""RFC 2119's impersonal phrases ("It is RECOMMENDED that servers retry", "It is OPTIONAL for
lids to be tinted"), read as `requirement_words` writes them, and the verb keyword each equals
there ("Servers SHOULD retry", "Lids MAY be tinted")."""
_IMPERSONAL_PHRASES = frozenset(_IMPERSONAL_KEYWORDS)

ORDER_WORDS = frozenset(
    {
        "order",
        "ordered",
        "preference",
        "priority",
        "first",
        "then",
        "before",
        "after",
        "sequence",
        "respectively",
        "sorted",
        "sort",
        "ranked",
        "rank",
        "finally",
        "ascending",
        "descending",
        "precede",
        "precedes",
        "preceding",
        "followed",
    }
)
"""Words that make a series' order part of a requirement: its items in another order say
something else there ("sorted by size: small, medium, large"; "gas, coal, and finally wood")."""
_SUPERLATIVES = (
    "(?:larg|small|old|new|high|low|earli|lat|fast|slow|long|short|bigg|great|strong|weak)est"
)
"""Superlatives that rank what they speak of by size, age, place or speed ("largest")."""
_LIST_ORDER = re.compile(
    r"\bin (?:this |the following |the listed |the given |the same |that |the |their |its "
    r"|strict |exact )?order\b(?!-| to\b)"
    r"|\b(?:following|listed|given|same|strict|exact|preferred|this) order\b"
    r"|\bordering\b(?!-)|\bordered\b|\border of\b"
    r"|\b(?:this|that|the following) (?:sequence|priority)\b"
    r"|\bin (?:this |that |the )?sequence\b|\bsequentially\b|\bone after (?:the )?another\b"
    r"|\b(?:in|by) (?:these |those |their |its |the |decreasing |descending |increasing "
    r"|ascending )?(?:order of )?(?:priority|priorities|preference|preferences)\b"
    r"|\b(?:priority|preference) order\b|\border of (?:priority|preference)\b"
    r"|\bprioriti[sz]ed\b"
    rf"|\b(?:most \w+|{_SUPERLATIVES}) first\b"
    rf"|\b(?:most|least|{_SUPERLATIVES}) (?:\w+ )?to (?:the )?(?:most|least|{_SUPERLATIVES})\b"
)
"""How a requirement that introduces a list says its items' order matters ("in this order:",
"by priority", "sequentially", "most preferred first", "largest to smallest"). Not "in any
order", nor an order, a priority or a sequence number it speaks of, nor words of time ("After
connecting, …"), nor a word that only ends as a superlative does ("request", "nearest of")."""

CONNECTIVES = frozenset(
    {"also", "additionally", "furthermore", "moreover", "however", "likewise", "similarly"}
)
"""Words that tie a requirement to the text around it and ask nothing where they start it
("Additionally, servers MAY retry"; "also" anywhere: "Servers MAY also retry"): said or left
out, the requirement is the same. Elsewhere most of them say how ("label jars however they
choose", "treated similarly")."""
MOST_WORDS_ALIGNED = 500 * 500
"""Most pairs of words (old × new) that difflib is given to align, between the words two
sentences share at their start and end, or between two words that each holds once, in the same
order (its time grows with the cube of a long run of repeated words). A requirement whose
changed words cannot be aligned so is taken as changed."""

_UNRESOLVED_REFERENCE = re.compile(r"\[([^\[\]]*)\]\[[^\[\]]*\]")
"""A reference link whose label no definition names, left as written (``[text][label]``). No
bracket inside either part: each of a run of unclosed ``[`` stops at the next one, rather than
each looking to the sentence's end."""
_PLAIN_WORD = re.compile(r"[a-z]{5,}")
_SHORT_WORD = re.compile(r"[a-z]{3,}")
_WORD_CHARACTER = re.compile(r"\w")
_ITEM_SEPARATORS = frozenset({",", ";", "or", "and"})
_ITEM_TOKEN = re.compile(rf"[,;]|{WORD_OR_SIGN.pattern}")
_CODE_PIECE = re.compile(r"(?:\([^()]*\)|\[[^\[\]]*\]|[^,;{}])+|[,;{}]")
"""A field of code or a mark that parts fields (``,``, ``;``, braces): a call's arguments and a
list's items, which are read by their place, stay in their field whole (``f(a, b)``)."""
_SPACED_MARK = re.compile(r"\s*([,;(){}\[\]])\s*")
"""A mark that parts or encloses fields, with the spaces around it, which code reads alike."""


class Vocabulary:
    """The lowercase words of a page, and the names it or its ``old_text`` gives headers,
    collected on first use (most diffs never ask)."""

    def __init__(self, text: str, old_text: str = "") -> None:
        self._text = text
        self._old_text = old_text
        self._words: frozenset[str] | None = None
        self._headers: frozenset[str] | None = None

    def __contains__(self, word: object) -> bool:
        if self._words is None:
            self._words = frozenset(words_of(self._text))
        return word in self._words

    @property
    def header_names(self) -> frozenset[str]:
        """The names either version of the page gives headers, in lowercase (see
        `_named_headers`): a sentence that called `Jar-Id` a header, removed or added, still
        says what the name means beside it, whichever way the change runs."""
        if self._headers is None:
            self._headers = _named_headers(self._text) | _named_headers(self._old_text)
        return self._headers


def requirement_words(key: str) -> list[str]:
    """The words of a sentence's key without link targets, case, punctuation or keyword
    synonyms; signs and symbols count as words (see `WORD_OR_SIGN`).

    An unresolved reference link (``[text][label]`` whose label is not defined) counts as its
    text: turning it into a working link adds a link, not words.
    """
    words = [
        spelled
        for word in _as_plain_phrases(signs_of(_requirement_text(key)))
        for spelled in SPELLED_OUT.get(word, (SYNONYMS.get(word, word),))
    ]
    return _units_spelled(_as_digits(words))


_UNITS = {
    symbol: name
    for name, symbols in (
        ("milliseconds", "ms msec msecs millisecond"),
        ("seconds", "s sec secs second"),
        ("minutes", "min mins minute"),
        ("hours", "h hr hrs hour"),
        ("days", "day"),
        ("percent", "% pct"),
    )
    for symbol in symbols.split()
}
"""Units of time and shares as symbols, short forms or singular, and the name each stands for
after a number: "30 s", "30 secs" and "30 seconds" say the same."""


def _units_spelled(words: list[str]) -> list[str]:
    """``words`` with each unit right after a number (see `_UNITS`) written by its name."""
    if _UNITS.keys().isdisjoint(words):
        return words
    return [
        _UNITS.get(word, word) if index and words[index - 1][-1:].isdigit() else word
        for index, word in enumerate(words)
    ]


def _as_plain_phrases(words: list[str]) -> list[str]:
    """``words`` with each of `_PHRASES` read as the words it equals."""
    result: list[str] = []
    start = 0
    while (found := _find_phrase(words, _PHRASE_STARTS, start)) is not None:
        index, phrase = found
        result += words[start:index] + list(_PHRASES[phrase])
        start = index + len(phrase)
    return result + words[start:]


def _find_phrase(
    words: Sequence[str], phrases: frozenset[tuple[str, ...]], start: int = 0
) -> tuple[int, tuple[str, ...]] | None:
    """Where the first of ``phrases`` stands in ``words`` from ``start`` on, and which (the
    longest, of two that start there)."""
    firsts, lengths = _shape(phrases)
    for index in range(start, len(words)):
        if words[index] not in firsts:
            continue
        for length in lengths:
            phrase = tuple(words[index : index + length])
            if phrase in phrases:
                return index, phrase
    return None


@cache
def _shape(phrases: frozenset[tuple[str, ...]]) -> tuple[frozenset[str], list[int]]:
    """The words that ``phrases`` start with, and their lengths, longest first."""
    return frozenset(phrase[0] for phrase in phrases), sorted(
        {len(phrase) for phrase in phrases}, reverse=True
    )


_THOUSANDS = re.compile(r"[1-9]\d{0,2}(?:,\d{3})+")
"""A number with commas between its thousands ("1,000"), which it says without them ("1000");
a point there ("1.000") may be a decimal one, and stays."""


def _as_digits(words: list[str]) -> list[str]:
    """``words`` with each number written in words as its digits ("one hundred twenty five" →
    "125"; "one two" stays two numbers) and without commas between thousands."""
    result: list[str] = []
    number: int | None = None
    room = 0  # the most that the number's next word may add ("twenty" leaves room for 9)
    for word in [*words, ""]:
        value = NUMBERS.get(word)
        if number is not None and value is not None and value <= room:
            number += value
            room = 9 if value >= 20 and room >= 99 else 0
            continue
        if number is not None and word in _SCALES:
            scale = _SCALES[word]
            low = number % 1000 if scale >= 1000 else number % 100
            number += low * (scale - 1)
            room = scale - 1
            continue
        if number is not None:
            result.append(str(number))
            number = None
        if value is not None:
            number = value
            room = 9 if number >= 20 else 0
        elif _THOUSANDS.fullmatch(word):
            result.append(word.replace(",", ""))
        elif word:
            result.append(word)
    return result


_LATIN_ABBREVIATIONS = re.compile(r"\b(e\.\s?g|i\.\s?e)\b\.?")
_SPELLED_ABBREVIATIONS = {"e.g": "for example", "i.e": "that is"}
"""Latin abbreviations and the English words they stand for, which say the same."""
_LATIN_STARTS = (
    *_SPELLED_ABBREVIATIONS,
    *(latin.replace(".", ". ") for latin in _SPELLED_ABBREVIATIONS),
)
"""The abbreviations as written, with or without a space after the point: where the pattern
may match."""


def _requirement_text(key: str) -> str:
    """A sentence's key without link targets, a reference link as its text, lowercase but for
    its keywords (see `folded`), and with "e.g." and "i.e." spelled out."""
    text = folded(_UNRESOLVED_REFERENCE.sub(r"\1", LINK_TARGETS.sub("", key)))
    if not any(abbreviation in text for abbreviation in _LATIN_STARTS):
        return text
    return _LATIN_ABBREVIATIONS.sub(
        lambda match: _SPELLED_ABBREVIATIONS[match[1].replace(" ", "")], text
    )


def folded(text: str) -> str:
    """``text`` in lowercase but for its keywords, in capitals (``MUST not`` as ``MUST NOT``),
    and an "A" that names something (see `_LABEL_A`): a requirement's keyword is no plain
    "must", and words that moved from one to the other ("Relays MUST retry and jars must cool"
    → "Relays must retry and jars MUST cool") move a requirement."""
    spans = locate_keywords(text)[1]
    pieces = []
    start = 0
    for first, last in spans:
        pieces += [_lowercase(text[start:first]), text[first:last].upper()]
        start = last
    return "".join([*pieces, _lowercase(text[start:])])


_LABEL_A = re.compile(r"(?<=[a-z0-9] )A(?![\w-])")
"""A capital "A" after a word in small letters: a name ("tank A", "if tank A drains"), not the
article, which starts a sentence, a line or what follows a colon; a page cannot exchange it with
"the" or leave it out without naming another."""


def _lowercase(text: str) -> str:
    """``text`` in lowercase, but for an "A" that names something (see `_LABEL_A`)."""
    pieces = []
    start = 0
    for match in _LABEL_A.finditer(text):
        pieces += [text[start : match.start()].lower(), "A"]
        start = match.end()
    return "".join([*pieces, text[start:].lower()])


def _item_tokens(key: str) -> list[str]:
    """The words, signs and list separators of a requirement's key, lowercase."""
    return _ITEM_TOKEN.findall(_requirement_text(key))


def _items_reordered(before: Sequence[str], after: Sequence[str]) -> bool:
    """Whether two requirements differ only by the items of a series listed in another order
    ("fast, safe or eco" → "safe, fast or eco"): between what both start and end with, the
    same items parted by commas, "or" or "and". Not by both: "gas and coal, or wood" groups its
    items, and "wood and coal, or gas" groups others. Nor, for a series of items that are all
    meant ("80 and 90", not "gas or coal"), where the words both share hold another series as
    long, whose items its own pair with in order, one of the two a series of numbers ("ports
    80 and 90 for gas and coal"; two series of words, "relays and kettles MUST accept gas and
    coal", more often each hold for all the other's items)."""
    start, end = shared_ends(before, after)
    middle = before[start : len(before) - end]
    if _SERIES_JOINTS.issubset(middle):
        return False
    old_items = _items(middle)
    new_items = _items(after[start : len(after) - end])
    if (
        len(old_items) < 2
        or sorted(old_items) != sorted(new_items)
        or any(map(_clause, old_items))
        or _between_clauses(before[:start], middle, before[len(before) - end :])
    ):
        return False
    # A series of words pairs item by item only with one of numbers.
    between_numbers = not any(_is_number(word) for item in old_items for word in item)
    return (
        "or" in middle
        or _joints_within(before[:start], between_numbers=between_numbers)
        + _joints_within(before[len(before) - end :], between_numbers=between_numbers)
        < len(old_items) - 1
    )


def _is_number(word: str) -> bool:
    return any(character.isdigit() for character in word)


def _is_keyword(word: str) -> bool:
    """Whether a word of `requirement_words` is a keyword's, which stay in capitals there."""
    return word.isupper() and len(word) > 1


def _clause(item: Sequence[str]) -> bool:
    """Whether an item parted off by commas, "and" or "or" is a clause rather than one of a
    series: it holds a keyword ("the kettle SHOULD stop") or opens with a condition ("if
    known"), which binds the item beside it ("lids, if known, or jars" → "jars, if known, or
    lids" asks the condition of jars)."""
    return item[0] in CONDITIONS or any(map(_is_keyword, item))


def _between_clauses(head: Sequence[str], middle: Sequence[str], tail: Sequence[str]) -> bool:
    """Whether the items ``middle`` holds between ``head`` and ``tail`` end one clause with a
    keyword and start another, the last item its keyword's subject: ``tail`` opens with a
    keyword, and one stands in ``head`` after its last list separator ("Relays MUST send jars;
    lids MAY follow" → "… lids; jars MAY follow" gives each clause the other's noun, where
    "Jars or lids MUST be sealed" lists its subjects, and "MUST be red or blue if jars MAY …"
    its values), or after its last semicolon where ``middle`` holds one, which parts the
    clauses after a series of the first ("MUST send jars, cups; lids MAY follow")."""
    if not tail or not _is_keyword(tail[0]):
        return False
    last = max((index for index, token in enumerate(head) if token in _ITEM_SEPARATORS), default=-1)
    if ";" in middle:
        last = max((index for index, token in enumerate(head) if token == ";"), default=-1)
    return any(map(_is_keyword, head[last + 1 :]))


def _joints_within(tokens: Sequence[str], *, between_numbers: bool) -> int:
    """How many list separators of ``tokens`` stand between two items of a series there: with
    a word on each side, and no keyword after, which starts a clause ("and MUST log them");
    with ``between_numbers``, only between two numbers."""
    return sum(
        1
        for previous, token, following in zip(tokens, tokens[1:], tokens[2:], strict=False)
        if token in _ITEM_SEPARATORS
        and previous not in _ITEM_SEPARATORS
        and following not in _ITEM_SEPARATORS
        and not _is_keyword(following)
        and (not between_numbers or (_is_number(previous) and _is_number(following)))
    )


def _items(tokens: Sequence[str]) -> list[tuple[str, ...]]:
    """The runs of ``tokens`` between list separators."""
    items: list[tuple[str, ...]] = []
    run: list[str] = []
    for token in [*tokens, ","]:
        if token in _ITEM_SEPARATORS:
            if run:
                items.append(tuple(run))
            run = []
        else:
            run.append(token)
    return items


def edit_distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance with adjacent transpositions, or ``limit + 1`` once it exceeds it."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, char_b in enumerate(b, 1):
            cost = char_a != char_b
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and char_a == b[j - 2] and a[i - 2] == char_b:
                current[j] = min(current[j], previous2[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]


def is_typo_fix(old_word: str, new_word: str, new_vocabulary: Container[str]) -> bool:
    """A misspelt ordinary word corrected: close in spelling, the page no longer uses it, and
    it is no English word (reuse, refuse; content, context; sender, senders are all words),
    while the new one is.
    Words of five letters or more that start alike may differ by one or two letters: a changed
    beginning is more often a prefix that turns a word into its opposite (synchronously,
    asynchronously; include, exclude; trusted, untrusted). Shorter words, or other beginnings,
    only by two neighbouring letters swapped into an English word."""
    if (
        _transposed(old_word, new_word)
        and _SHORT_WORD.fullmatch(old_word)
        and old_word not in new_vocabulary
        and old_word not in english_words()
        and new_word in english_words()
    ):
        # Two letters swapped in a short word too ("teh" → "the"), where the dictionary holds
        # the new word only: "form" → "from" is a word changed.
        return True
    if not (_PLAIN_WORD.fullmatch(old_word) and _PLAIN_WORD.fullmatch(new_word)):
        return False
    if old_word[:2] != new_word[:2]:
        return False
    if old_word in new_vocabulary or _inflected(old_word, new_word):
        return False
    distance = edit_distance(old_word, new_word, 2)
    if distance > (1 if len(new_word) < 8 else 2):
        return False
    # Two letters changed are a slip when they are the word's own letters ("recieve",
    # "ocurence"), and another word where they are new ones ("mebibytes" → "megabytes").
    if distance == 2 and set(old_word) != set(new_word):
        return False
    # Two words unknown to the dictionary that end otherwise are more often two names ("jsonl"
    # → "jsonb", "webauthn" → "webauth") than a name mended ("timestmap" → "timestamp").
    return (
        old_word not in english_words()
        and (new_word in english_words() or old_word[-1] == new_word[-1])
        and not _prefixed_words(old_word, new_word)
    )


_PREFIXES = (
    "re",
    "un",
    "pre",
    "de",
    "dis",
    "non",
    "over",
    "under",
    "auto",
    "sub",
    "co",
    "multi",
    "inter",
    "anti",
    "mis",
    "out",
    "up",
    "self",
    "post",
    "semi",
    "super",
    "hyper",
    "micro",
)
_SHORTEST_STEM = 5
"""How long the word after a prefix must be for the whole to be a word the dictionary lacks
rather than a slip that happens to start with one ("untill" is no "un" + "till")."""


def _prefixed_words(old_word: str, new_word: str) -> bool:
    """Whether both words are one prefix and an English word ("restacked" → "restocked",
    "prefilled" → "prefiled"): a word the dictionary lacks made into another, not a misspelling
    mended ("superceded" → "superseded", where only the first stem is a word)."""
    return any(
        old_word.startswith(prefix)
        and new_word.startswith(prefix)
        and min(len(old_word), len(new_word)) - len(prefix) >= _SHORTEST_STEM
        and old_word[len(prefix) :] in english_words()
        and new_word[len(prefix) :] in english_words()
        for prefix in _PREFIXES
    )


def _inflected(old_word: str, new_word: str) -> bool:
    """Whether one word is the other with a plural's ending: "hostname" → "hostnames" counts
    other things, whichever the dictionary knows. After an "s" an added one is a slip mended
    ("proces" → "process")."""
    shorter, longer = sorted((old_word, new_word), key=len)
    return longer == shorter + "es" or (longer == shorter + "s" and not shorter.endswith("s"))


def _transposed(old_word: str, new_word: str) -> bool:
    """Whether the words differ only by two neighbouring letters swapped."""
    if len(old_word) != len(new_word):
        return False
    differ = [index for index, (a, b) in enumerate(zip(old_word, new_word, strict=True)) if a != b]
    return (
        len(differ) == 2
        and differ[1] == differ[0] + 1
        and old_word[differ[0]] == new_word[differ[1]]
        and old_word[differ[1]] == new_word[differ[0]]
    )


@cache
def english_words() -> SpellChecker:
    """The words of an English dictionary (pyspellchecker's, American spelling), loaded once:
    in a fifth of a second, and only for a pair of words that may be a misspelling corrected."""
    return SpellChecker(language="en", distance=1)


def _impersonal_set_aside(before: list[str], after: list[str]) -> tuple[list[str], list[str]]:
    """Two requirements' words, where one states its keyword in an impersonal phrase and the
    other as a verb ("It is RECOMMENDED that servers retry", "Servers SHOULD retry"), without
    the phrase and the verb: what is left is what both require."""
    for phrased, plain in ((before, after), (after, before)):
        found = _find_phrase(phrased, _IMPERSONAL_PHRASES)
        if found is None or _find_phrase(plain, _IMPERSONAL_PHRASES) is not None:
            continue
        start, phrase = found
        verb = _IMPERSONAL_KEYWORDS[phrase]
        verb_found = _find_phrase(plain, frozenset({verb}))
        if verb_found is None:
            return before, after
        at = verb_found[0]
        rest = phrased[:start] + phrased[start + len(phrase) :]
        kept = plain[:at] + plain[at + len(verb) :]
        if phrase[-1] == "for" and rest[at : at + 1] == ["to"]:
            # "for servers to retry": the subject's verb follows "to".
            del rest[at]
        elif at < min(len(kept), len(rest)) and rest[at] in (kept[at] + "s", kept[at] + "es"):
            # "that a server sends": the verb after the subject as the phrase's clause writes it.
            kept[at] = rest[at]
        return (rest, kept) if phrased is before else (kept, rest)
    return before, after


def _joined_or_split(removed: Sequence[str], added: Sequence[str]) -> bool:
    """Whether the same letters were written as one word or several ("pre-registration"): not
    digits ("2.5" and "25" are other numbers), nor an article ("a part", "apart")."""
    return "".join(removed) == "".join(added) and all(
        word.isalpha() and word not in ARTICLES for word in (*removed, *added)
    )


def speaks_of_order(key: str) -> bool:
    """Whether a requirement (its key) says that the order of its list matters."""
    return _LIST_ORDER.search(_requirement_text(key)) is not None


def same_requirement(
    old: str,
    new: str,
    new_vocabulary: Container[str],
    antecedent: Callable[[], str] | None = None,
    names: Container[str] = frozenset(),
) -> bool:
    """Whether two sentences (their keys) with the same keywords state the same requirement.

    True when every difference is harmless: link targets, punctuation, letter case, keyword
    synonyms and RFC 2119's phrasings of one keyword ("SHOULD", "is RECOMMENDED to", "It is
    RECOMMENDED that"), plain words for "must" and pointers to other text said otherwise (see
    `_PHRASES`), a reason that asks nothing given or not (see `_REASONS`), numbers in words or
    digits, articles (a, an, the), connectives or an opening purpose that points back said or
    not (see `_connective`), an HTTP status code's reason phrase, a qualifier said again for a
    series' next item, words joined or split ("e-mail", "email"), a misspelling corrected or a word's British spelling made American, a
    leading pronoun replaced by the noun it stands for (one that ``antecedent``, asked only
    then, names: see `antecedent_of`), the kind of a code span said after it or left out (one
    of ``names``: see `_kind_of_name`), or the pieces between punctuation marks listed in another
    order (the items of a series). Never when the changed words are too many to align (see
    `MOST_WORDS_ALIGNED`).
    """
    if _recased(old, new):
        return False
    before, after = _impersonal_set_aside(requirement_words(old), requirement_words(new))
    if before == after:
        return True
    if (
        not ORDER_WORDS.intersection(before)
        and not speaks_of_order(old)
        and _cells_kept(old, new)
        and (
            _pieces_reordered(folded(old), folded(new))
            or _items_reordered(_item_tokens(old), _item_tokens(new))
        )
    ):
        return True
    opcodes = bounded_opcodes(before, after, MOST_WORDS_ALIGNED)
    if opcodes is None:
        return False
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            continue
        removed, added = before[i1:i2], after[j1:j2]
        if (
            i1 == j1 == 0
            and removed
            and removed[0] in _NOUN_PRONOUNS
            and len(removed) == 1
            and 0 < len(added) <= 5
            and antecedent is not None
            and _named_in(added, antecedent(), plural=removed[0] in _PLURAL_PRONOUNS)
        ):
            continue
        if all(word in ARTICLES for word in (*removed, *added)):
            continue
        if _connective(before, i1, i2, added) or _connective(after, j1, j2, removed):
            continue
        if _qualifier_repeated(before, i1, i2, added) or _qualifier_repeated(
            after, j1, j2, removed
        ):
            continue
        if _status_phrase(before, i1, i2, added) or _status_phrase(after, j1, j2, removed):
            continue
        if _reason_given(before, i1, i2, added, old) or _reason_given(after, j1, j2, removed, new):
            continue
        if _joined_or_split(removed, added):
            continue
        if _kind_of_name(before, i1, i2, added, names) or _kind_of_name(
            after, j1, j2, removed, names
        ):
            continue
        if len(removed) == len(added) and all(
            is_typo_fix(a, b, new_vocabulary) or american(a) == american(b)
            for a, b in zip(removed, added, strict=True)
        ):
            continue
        return False
    return True


_CASED = re.compile(
    r"\"([^\"]{1,100})\"|“([^”]{1,100})”|‘([^’]{1,100})’|(?<!\w)'([^']{1,100})'(?!\w)"
    r"|(?<![\w.])\d+(?:\.\d+)? ?([A-Za-z]{1,4})\b"
)
"""Words whose letter case names what they are: a value in quotes ("Fast", 'FAST', “fast”),
as a code span's does, and a unit's symbol after a number ("5 MB", megabytes; "5 Mb",
megabits). A quote's length is bounded, which keeps unclosed quotes from being searched to the
end of a long sentence each."""


_UNIT = _CASED.groups
"""The group of `_CASED` that holds a unit's symbol."""


def _cased(key: str) -> tuple[Counter[str], set[str]]:
    """The words of ``key`` whose case counts (see `_CASED`), and those of them that stand
    after a number, as a unit's symbol does."""
    found = [(match.lastindex, match[match.lastindex or 0]) for match in _CASED.finditer(key)]
    return (
        Counter(value for _, value in found),
        {value for group, value in found if group == _UNIT},
    )


def _recased(old: str, new: str) -> bool:
    """Whether a word whose case counts became the same letters in another case ("Fast" →
    "fast", "MB" → "Mb"): another value or unit, though the words are the same. An English
    word after a number that only gained or lost its capital is no unit ("In 2024 The relays
    …" → "… the relays …")."""
    (before, _), (after, units) = _cased(old), _cased(new)
    removed = {value.lower(): value for value in before - after}
    return any(
        value.lower() in removed
        and not (value in units and _capitalized(value, removed[value.lower()]))
        for value in after - before
    )


def _capitalized(word: str, other: str) -> bool:
    """Whether two spellings of an English word differ only by a capital first letter."""
    lower = word.lower()
    return {word, other} == {lower, lower.capitalize()} and lower in english_words()


_STATUS_PHRASES = {
    str(status.value): words_of(status.phrase) for status in HTTPStatus if status.value >= 200
}
"""HTTP status codes and the words of their reason phrases ("415": "unsupported media type")."""


def _status_phrase(words: Sequence[str], start: int, end: int, other: Sequence[str]) -> bool:
    """Whether ``words[start:end]``, which the other version lacks (``other`` empty), are the
    reason phrase of the HTTP status code before them ("415" → "415 Unsupported Media Type")."""
    return (
        not other and start > 0 and _STATUS_PHRASES.get(words[start - 1]) == list(words[start:end])
    )


_SERIES_JOINTS = frozenset({"and", "or"})
_NEGATIONS = frozenset({"not", "no", "never", "without", "neither", "nor", "non"})
"""Words that turn a requirement around: said again for one more item, or not, they change it."""
_LONGEST_QUALIFIER = 4
"""Most words a qualifier said again for a series' next item has ("JSON-RPC", "signed")."""
_LONGEST_ITEMS = 4
"""Most words that may stand between a qualifier and the "and" or "or" after which it is said
again: the items it qualified ("signed lids, jars or signed kettles"), with no keyword among
them. Words said further before are no qualifier of the series ("Relays MUST accept gzip or
Relays zstd")."""


def _qualifier_repeated(words: Sequence[str], start: int, end: int, other: Sequence[str]) -> bool:
    """Whether ``words[start:end]``, which the other version lacks (``other`` empty), repeat
    after "and" or "or" words said before in the sentence: a qualifier said again for the next
    item, or not ("JSON-RPC requests and JSON-RPC notifications", "… and notifications"), where
    it stood before the items before the joint (see `_LONGEST_ITEMS`)."""
    run = list(words[start:end])
    if (
        other
        or not start
        or len(run) > _LONGEST_QUALIFIER
        or words[start - 1] not in _SERIES_JOINTS
        or not _NEGATIONS.isdisjoint(word.lower() for word in run)
    ):
        return False
    first = max(0, start - 1 - len(run) - _LONGEST_ITEMS)
    return any(
        list(words[index : index + len(run)]) == run
        and not any(_is_keyword(word) for word in words[index + len(run) : start])
        for index in range(first, start - len(run) - 1)
    )


_REASONS = re.compile(
    r"for (?:the sake of \w+|(?:backwards?|forwards?) compatibility|clarity|simplicity"
    r"|readability|brevity)"
)
"""A reason a requirement gives for itself that asks nothing of anyone ("for clarity", "for
backwards compatibility", "for the sake of brevity"): said or left out, the requirement is the
same, unless it forbids ("MUST NOT be used for backwards compatibility" forbids only that use)."""
_SET_OFF_REASONS = re.compile(
    r"for (?:\w+ ){0,2}(?:clarity|consistency|simplicity|convenience|readability|brevity"
    r"|completeness|compatibility|security|safety|performance|efficiency|privacy)"
    r"(?: reasons| purposes)?"
)
"""Reasons set off by a comma (", for security reasons."), which only then are no object of
the sentence's verb ("check each jar for consistency") nor what something is used for."""


_EXAMINING = re.compile(
    r"(?:check|test|inspect|verif|scan|screen|review|audit|examin|evaluat|assess|validat"
    r"|monitor|search)\w*"
)
"""Verbs of examining, after which "for …" names what is looked for ("inspected for clarity",
"check the jars for clarity", "tested for backwards compatibility"), not a reason."""


def _reason_given(
    words: Sequence[str], start: int, end: int, other: Sequence[str], key: str
) -> bool:
    """Whether ``words[start:end]``, words of a requirement (``words``, its key ``key``) that
    the other version lacks (``other`` empty), are a reason that asks nothing (see `_REASONS`
    and `_SET_OFF_REASONS`)."""
    if other:
        return False
    run = words[start:end]
    phrase = " ".join(run)
    if (
        _REASONS.fullmatch(phrase) is not None
        and not _forbids(words)
        and not any(_EXAMINING.fullmatch(word) for word in words[max(0, start - 4) : start])
    ):
        return True
    if _SET_OFF_REASONS.fullmatch(phrase) is None:
        return False
    set_off = r",\s*" + r"\W+".join(map(re.escape, run)) + r"\s*(?:[,.;:!?)]|\Z)"
    return re.search(set_off, key.lower()) is not None


_NEGATIVE_KEYWORDS = frozenset(
    tuple(SYNONYMS.get(word, word) for word in keyword.split())
    for keyword, (_, negative) in STRENGTH.items()
    if negative
)


def _forbids(words: Sequence[str]) -> bool:
    """Whether a requirement's words (see `requirement_words`) hold a negative keyword."""
    return any(pair in _NEGATIVE_KEYWORDS for pair in pairwise(words))


_WHAT_CAME_BEFORE = frozenset({"this", "these", "that", "those", "it", "them"})
"""Pronouns by which an opening purpose points at the text before ("To prevent this, …")."""


_KINDS = frozenset(
    kind + ending
    for kind in (
        "attribute",
        "field",
        "parameter",
        "argument",
        "member",
        "key",
        "header",
        "element",
        "object",
        "method",
        "capability",
        "flag",
        "option",
    )
    for ending in ("", "s")
) | {"property", "properties"}
"""Words that say what kind of thing a code span names ("the `lid` field", "the `a` and `b`
properties"). Not "value", which may be the named thing's value rather than the thing."""


def code_names(sentences: Iterable[Sentence]) -> frozenset[str]:
    """The last word of each code span of ``sentences``, as `requirement_words` reads it: the
    word a kind said after the span stands next to (see `_kind_of_name`)."""
    return frozenset(
        words[-1]
        for sentence in sentences
        for term in sentence.code
        if (words := requirement_words(term))
    )


def _kind_of_name(
    words: Sequence[str], start: int, end: int, other: Sequence[str], names: Container[str]
) -> bool:
    """Whether ``words[start:end]``, with nothing in its place (``other``), is one kind (see
    `_KINDS`) said right after a code span, whose last word is one of ``names``: "drop the
    `lid` field" and "drop `lid`" name one identifier. After plain words ("the lid field") a
    kind is part of what they name, and another kind in its place names another thing."""
    return (
        not other
        and end - start == 1
        and start > 0
        and words[start] in _KINDS
        and words[start - 1] in names
    )


def _connective(words: Sequence[str], start: int, end: int, other: Sequence[str]) -> bool:
    """Whether ``words[start:end]``, words of a requirement that the other version lacks
    (``other`` empty), are `CONNECTIVES` that ask nothing there, or a purpose that opens the
    sentence and points at the text before it ("To prevent this, relays MUST wait"). Not an
    "also" that adds a condition or a scope to what the requirement asks without it ("accept
    lids, also if cracked": always, and if cracked too; "accept lids if cracked": only then;
    see `_SCOPES`), nor one that
    a negative keyword or a negation before it forbids ("MUST NOT also forward frames" forbids
    forwarding them besides, "MUST NOT forward frames" forwarding them at all)."""
    run = words[start:end]
    if not run or other:
        return False
    if start == 0 and len(run) == 3 and run[0] == "to" and run[2] in _WHAT_CAME_BEFORE:
        return True
    if not CONNECTIVES.issuperset(run):
        return False
    if start == 0:
        return True
    adds_a_condition = (
        not _SCOPES.isdisjoint(words[end : end + 1]) and words[start - 1] not in _SERIES_JOINTS
    )
    return (
        set(run) == {"also"}
        and not adds_a_condition
        and not _forbids(words[max(0, start - _NEAR_ALSO) : start])
        and _NEGATIONS.isdisjoint(words[max(0, start - _NEAR_ALSO) : start])
    )


_PREPOSITIONS = frozenset(
    {"in", "on", "at", "for", "by", "with", "after", "before", "during", "over", "under", "from"}
)
"""Prepositions that open a phrase of place, time or means (see `_SCOPES`, `_CLAUSE_OPENERS`)."""
_SCOPES = CONDITIONS | _PREPOSITIONS | {"through", "to", "via", "within", "without"}
"""Words that open a case or a scope: an "also" before one adds it to what the requirement asks
without it ("accept lids also during repair")."""
_NEAR_ALSO = 4
"""How many words before an "also" a negation that forbids it is looked for ("MUST NOT also",
"MUST never also"): a bound, which keeps a sentence of many "also"s linear."""


_PLURAL_PRONOUNS = frozenset({"they", "these", "those"})


def _named_in(noun: Sequence[str], antecedent: str, *, plural: bool) -> bool:
    """Whether ``antecedent`` names the noun (its words but articles, in the singular or the
    plural) that replaced a pronoun: "They MUST retry" → "Relays MUST retry" after "Relays wake
    hourly.". A ``plural`` pronoun stands for all its antecedent names: a noun in the singular
    ("They MUST retry" → "The kettle MUST retry" after "The relay and the kettle wake.") or one
    of subjects joined ("Relays and kettles wake.") names fewer."""
    words = words_of(antecedent)
    if plural and (singular(noun[-1]) == noun[-1] or not _SERIES_JOINTS.isdisjoint(words)):
        return False
    named = {singular(word) for word in words}
    return all(singular(word) in named for word in noun if word not in ARTICLES)


_DETERMINERS = ARTICLES | {"each", "every", "all", "any", "some", "both", "such", "this", "these"}
_CLAUSE_JOINT = re.compile(
    r"[,;:]|\b(?:but|so|while|whereas|yet)\b"
    r"|\b(?:and|or)\b(?=\s+(?:the|a|an|each|every|this|these|its|their)\s+\w+\s+\w)",
    re.IGNORECASE,
)
"""Where a sentence's next clause, which may have a subject of its own, starts: "and" or "or"
only before a determiner, a noun and a verb ("… and the relay cannot tell"), since they as
often join objects ("heats the jar and the lid.")."""
_CLAUSE_OPENERS = _DETERMINERS | CONNECTIVES | _SERIES_JOINTS | _PREPOSITIONS
"""Words that may open a clause before its subject (", and the relay waits"), a preposition
also where no comma sets off its phrase ("In practice clients connect": "practice clients")."""
_SUBJECT_WORDS = 2
"""How many words a clause's subject is looked for in, after the words that open the clause and
up to the next determiner, where an object starts ("The session store keeps jars": "session
store"; "The kettle heats the jar": "kettle heats"; "Jars hold lids": "jars hold"). A longer
subject's noun is missed ("Each cold glass jar …"), which errs towards an alert."""


def _subjects(text: str) -> str:
    """The words that the clauses of ``text`` start with, where their subjects stand (see
    `_SUBJECT_WORDS`), each clause's parted from the next by a comma."""
    subjects = []
    for clause in _CLAUSE_JOINT.split(text):
        words = words_of(clause)
        start = _subject_start(words)
        subject = []
        for word in words[start : start + _SUBJECT_WORDS]:
            if word in _DETERMINERS:
                break
            subject.append(word)
        if subject:
            subjects.append(" ".join(subject))
    return ", ".join(subjects)


def _clauses(subjects: str) -> list[list[str]]:
    """The words of each clause's subject of ``subjects``, as `_subjects` parts them."""
    return [clause.split() for clause in subjects.split(",") if clause.strip()]


def _subject_start(words: Sequence[str]) -> int:
    """Where the subject of a clause of ``words`` starts, after the words that open it (see
    `_CLAUSE_OPENERS`)."""
    return next(
        (index for index, word in enumerate(words) if word not in _CLAUSE_OPENERS), len(words)
    )


_SINGULAR_DETERMINERS = frozenset({"a", "an", "this"})
"""Determiners of one thing only: "each" and "every" are not, since a plural pronoun may stand
for what they name ("Each relay wakes hourly. They MUST log.")."""


def _plainly_singular(text: str) -> bool:
    """Whether the subject of each clause of ``text`` is plainly one thing, which a plural
    pronoun cannot stand for: after a `_SINGULAR_DETERMINERS` ("A relay accepts …"), or after
    "the" with no word of its subject in the plural ("The relay is …", "The session store
    keeps …"); not "The kettle owners wait", nor "The relay accepts", which reads alike."""
    clauses = [words_of(clause) for clause in _CLAUSE_JOINT.split(text)]
    for words in clauses:
        start = _subject_start(words)
        subject = words[start : start + _SUBJECT_WORDS]
        opener = words[start - 1] if 0 < start < len(words) else ""
        if opener not in _SINGULAR_DETERMINERS and (
            opener != "the" or any(singular(word) != word for word in subject)
        ):
            return False
    return bool(clauses)


def antecedent_of(unit: Unit, place: int | None = None) -> str:
    """What a pronoun that starts ``unit``'s sentence may stand for: a subject of the sentence
    before it in its paragraph (see `_subjects`: "The kettle heats the jar. It MUST stop" speaks
    of the kettle, not the jar), or else the heading the paragraph is under (not what sentences
    further up name: "Servers listen. Clients call. They MUST …" speaks of clients), followed
    back through sentences that pronouns open (see `_PRONOUN_CHAIN`), and only those subjects
    the pronoun agrees with (see `_agreeing`), from before sentences it cannot stand for (see
    `_past_singular`). ``place`` is where the sentence stands in its block, if known (see
    `place_in_block`)."""
    if place is None:
        place = place_in_block(unit)
    sentences = unit.block.sentences
    pronoun = next(iter(words_of(unit.sentence.text)), "")
    for index in range(_past_singular(sentences, place, pronoun) - 1, -1, -1):
        subjects = _subjects(sentences[index].text)
        if not _pronouns_only(subjects) or place - index == _PRONOUN_CHAIN:
            return _agreeing(subjects, pronoun)
    return unit.block.section[-1] if unit.block.section else ""


def _past_singular(sentences: Sequence[Sentence], place: int, pronoun: str) -> int:
    """Where to look back for what ``pronoun``, opening the sentence at ``place``, stands for:
    a plural pronoun, before the sentences right before it whose subjects are plainly singular
    (see `_plainly_singular`: "Clients connect. A relay listens. They MUST retry." speaks of
    clients), where a sentence of its paragraph before those has another subject; else right
    before it ("A user signs in. They MUST …" may be a singular "they")."""
    if pronoun not in _PLURAL_PRONOUNS:
        return place
    for index in range(place - 1, max(-1, place - _PRONOUN_CHAIN), -1):
        if not _plainly_singular(sentences[index].text):
            return index + 1
    return place


_PRONOUN_CHAIN = 4
"""How many sentences back a pronoun is followed through sentences that a pronoun opens too
("Clients connect. They MUST retry. They SHOULD log.": the second "They" stands for clients,
so "They MUST retry" → "Clients MUST retry" leaves it so)."""


def _pronouns_only(subjects: str) -> bool:
    """Whether each clause's subject of ``subjects`` (see `_subjects`) opens with a pronoun that
    stands for a noun named before, and there is one."""
    clauses = _clauses(subjects)
    return bool(clauses) and all(clause[0] in _NOUN_PRONOUNS for clause in clauses)


def _agreeing(subjects: str, pronoun: str) -> str:
    """The clauses' ``subjects`` (see `_subjects`) that ``pronoun`` may stand for: not, for
    "it", one whose noun is in the plural ("Servers keep a queue. It MUST NOT overflow." speaks
    of the queue, an object, which no subject names: none)."""
    if pronoun != "it":
        return subjects
    return ", ".join(
        " ".join(clause) for clause in _clauses(subjects) if singular(clause[0]) == clause[0]
    )


def place_in_block(unit: Unit) -> int:
    """Where ``unit``'s sentence stands among its block's (0 for a block read whole), found by
    a look through them: a caller that asks of many sentences of one block keeps a map."""
    return next((index for index, s in enumerate(unit.block.sentences) if s is unit.sentence), 0)


def _borrowed_subject(unit: Unit, place: Callable[[Unit], int]) -> tuple[bool, str] | None:
    """Where a requirement that names no subject of its own takes it from, if it names none:
    (True, "") from the heading above it, for one that opens with its keyword ("## Clients" /
    "MUST retry.") or with a pronoun that opens its paragraph (the headings are compared by
    `_other_heading`), else (False, what the pronoun stands for: see `antecedent_of`). Not for
    an item of a list, whose lead-in is compared on its own."""
    sentence = unit.sentence
    if unit.lead_in is not None or not sentence.marks:
        return None
    before = words_of(sentence.text[: sentence.marks[0][0]])
    if not before:
        return True, ""
    if len(before) == 1 and before[0] in _NOUN_PRONOUNS:
        at = place(unit)
        return (False, antecedent_of(unit, at)) if at else (True, "")
    return None


def subject_moved(
    old: Unit,
    new: Unit,
    place: Callable[[Unit], int] = place_in_block,
    *,
    in_place: bool = False,
) -> bool:
    """Whether a requirement that borrows its subject (see `_borrowed_subject`) borrows another
    on the new side: "MUST retry." moved from under "## Clients" to under "## Servers" asks it
    of servers now, as "They MUST retry." does after "Clients connect." became "Servers
    connect.". Only where both sides borrow it alike (a paragraph parted before the pronoun
    leaves it what it stood for), and ``in_place`` (the requirement itself did not move) only
    from a sentence before it: a heading renamed over a requirement stays editorial, as a
    window of the page that holds the heading and not the requirement reads it. Numbers (a
    section renumbered), articles and plurals name no other subject. ``place`` tells where a
    sentence stands in its block."""
    before, after = _borrowed_subject(old, place), _borrowed_subject(new, place)
    if before is None or after is None or before[0] != after[0] or (in_place and before[0]):
        return False
    if before[0]:
        return _other_heading(old.block.section, new.block.section)
    return _other_noun(before[1], after[1])


def _other_heading(old: Sequence[str], new: Sequence[str]) -> bool:
    """Whether the heading a requirement borrows its subject from, the last of its section's
    (``old`` and ``new``), names another subject on the new side: neither heading's words (see
    `_named`) hold the other's, and neither heading stands above the requirement on the other
    side, so not for one moved into a subsection of its heading or out of one ("## Servers" /
    "MUST answer." → "## Servers" / "### Timing" / "MUST answer.") nor under a heading that
    says more ("## Server requirements")."""
    if not old or not new:
        return bool(old) != bool(new)
    before, after = _named(old[-1]), _named(new[-1])
    if (
        before
        and after
        and (before <= after or after <= before)
        and _joined_alike(old[-1], new[-1])
    ):
        return False
    return not (
        any(_names_same(heading, old[-1]) for heading in new)
        or any(_names_same(heading, new[-1]) for heading in old)
    )


_JOINTS = frozenset({"for", "of", "to", "in", "on", "by", "with", "and", "or"})
"""Words that join the nouns a heading names ("Rules for clients"): they name nothing, but say
how those nouns stand to each other (see `_joined_alike`)."""
_JOINING_WORDS = ARTICLES | _JOINTS


def _names_same(one: str, other: str) -> bool:
    """Whether two headings or lead-ins name the same (see `_named`), their nouns joined alike
    (see `_joined_alike`)."""
    return _named(one) == _named(other) and _joined_alike(one, other)


def _joined_alike(one: str, other: str) -> bool:
    """Whether the `_JOINTS` of ``one`` are among those of ``other`` or the other way round:
    "Client rules" → "Rules for clients" joins the same nouns as they were, where "Messages to
    relays" → "Messages by relays" and "Kettles with lids" → "Kettles and lids" name others
    with the same words."""
    first, second = (frozenset(words_of(text)) & _JOINTS for text in (one, other))
    return first <= second or second <= first


def _named(text: str) -> frozenset[str]:
    """What a heading names: its words in the singular, without numbers or `_JOINING_WORDS`
    ("## 2. Client rules" and "## Rules for clients" name the same)."""
    return frozenset(
        singular(word)
        for word in words_of(text)
        if not _is_number(word) and word not in _JOINING_WORDS
    )


def _other_noun(old: str, new: str) -> bool:
    """Whether two sentences' subjects (see `_subjects`) name other nouns: on each side, the
    first word of a clause's subject stands nowhere among the other side's, put in the plural
    or mended by a letter ("Cleints" → "Clients"), so not where a verb changed ("Clients
    connect" → "Clients call") or a phrase came before ("Once ready, the client connects"), but
    also where the subject after such a phrase changed ("When idle, clients connect" → "When
    idle, servers connect")."""
    return _first_word_not_among(old, new) and _first_word_not_among(new, old)


def _first_word_not_among(subjects: str, other: str) -> bool:
    """Whether the first word of one of the clauses' ``subjects`` (see `_subjects`) is none of
    the words of ``other``'s, in the singular and up to a letter."""
    words = [singular(word) for word in words_of(other)]
    return any(
        all(edit_distance(singular(clause[0]), word, 1) > 1 for word in words)
        for clause in _clauses(subjects)
    )


def _cells_kept(old: str, new: str) -> bool:
    """Whether two table rows (keys whose cells "|" parts) hold the same words in each cell: a
    value moved to another cell stands under another header ("lid | 1 | 9" → "lid | 9 | 1", a
    least and a most exchanged). A sentence is a row of one cell."""
    old_cells, new_cells = old.split("|"), new.split("|")
    return len(old_cells) == len(new_cells) and all(
        sorted(signs_of(folded(before))) == sorted(signs_of(folded(after)))
        for before, after in zip(old_cells, new_cells, strict=True)
    )


def _pieces_reordered(old: str, new: str) -> bool:
    """Whether two sentences list the same pieces between punctuation marks in another order,
    every piece between the first and the last that moved having moved too: a series or a
    signature's fields reordered. A piece that kept its place between two exchanged ones
    ("a read timeout (30 s) and a write timeout (60 s)", values exchanged between the names
    that stayed) makes other text."""
    before, after = piece_runs(old), piece_runs(new)
    if sorted(before) != sorted(after):
        return False
    start, end = shared_ends(before, after)
    return all(before[index] != after[index] for index in range(start, len(before) - end))


_SPELLING_RULES = (
    (
        "colour behaviour favour honour labour neighbour flavour humour rumour harbour endeavour"
        " vapour armour",
        "our",
        "or",
        " s ed ing able ite ites ful less",
    ),
    (
        "labell cancell travell modell signall fuell levell channell tunnell marshall",
        "ll",
        "l",
        "ed ing er ers",
    ),
    ("centre metre litre fibre theatre calibre", "re", "er", " s"),
    ("catalogue dialogue analogue", "gue", "g", " s"),
    ("licence defence offence pretence", "ce", "se", " s"),
    (
        "organis recognis authoris normalis serialis initialis customis optimis prioritis"
        " minimis maximis standardis synchronis utilis finalis categoris summaris",
        "s",
        "z",
        "e es ed ing ation ations er ers",
    ),
    ("analys paralys", "s", "z", "e ed ing"),
)
"""British spellings as (stems, their ending, the American ending, the endings both take):
each stem with each of those endings is a British word. Only the words listed: a rule of letters
would turn real words into others ("refilled", "refiled"; "scoured", "scored")."""
_AMERICAN_WORDS = {
    "judgement": "judgment",
    "acknowledgement": "acknowledgment",
    "grey": "gray",
    "tyre": "tire",
    "aluminium": "aluminum",
    "programme": "program",
    "artefact": "artifact",
}
"""British words spelled otherwise in American, and so are their plurals."""


def _american_spellings() -> dict[str, str]:
    spellings = {}
    for stems, ending, american_ending, endings in _SPELLING_RULES:
        for stem in stems.split():
            american = stem.removesuffix(ending) + american_ending
            for suffix in endings.split(" "):
                spellings[stem + suffix] = american + suffix
    for british, american in _AMERICAN_WORDS.items():
        spellings[british], spellings[british + "s"] = american, american + "s"
    return spellings


_AMERICAN = _american_spellings()
"""British word → its American spelling ("colours" → "colors", "labelled" → "labeled")."""


def american(word: str) -> str:
    """``word`` spelled as American English spells it, where it is a British spelling."""
    return _AMERICAN.get(word, word)


def classify_pair(
    old: Unit, new: Unit, new_vocabulary: Vocabulary, *, own_keywords: bool = False
) -> tuple[ChangeClass, ChangeKind]:
    """The class and kind of a change from ``old`` to ``new``; with ``own_keywords``, a list
    item's keywords are compared without those of the requirement whose list it stands in
    (whose own change is reported apart)."""
    if BlockKind.CODE in (old.block.kind, new.block.kind):
        return ChangeClass.EDITORIAL, ChangeKind.MODIFIED
    before, after = (
        (old.own_keywords, new.own_keywords)
        if own_keywords
        else (old.sentence.keywords, new.sentence.keywords)
    )
    keyword_change = compare_keywords(before, after, new.sentence.text)
    if keyword_change is not None:
        return ChangeClass.NORMATIVE, keyword_change
    if not old.sentence.keywords or (
        same_requirement(
            old.sentence.key,
            _key_by_old_subject(old, new),
            new_vocabulary,
            partial(antecedent_of, old),
            code_names((old.sentence, new.sentence)),
        )
        and same_code([old.sentence], [new.sentence], new_vocabulary.header_names)
    ):
        return ChangeClass.EDITORIAL, ChangeKind.MODIFIED
    return ChangeClass.NORMATIVE, ChangeKind.MODIFIED


def _key_by_old_subject(old: Unit, new: Unit) -> str:
    """``new``'s key, read with ``old``'s plain lead-in where both items stand below one (their
    subject: see `spectrack.diff.align.units_of`) and the two name the same (see
    `_names_same`, `_lead_in_subject`):
    "Kettle owners:" → "Owners of kettles:" over "- If hot, MUST descale." asks it of the same
    people, where "Kettle sellers:" asks it of others."""
    before, after, key = old.lead_in, new.lead_in, new.sentence.key
    if (
        before is None
        or after is None
        or before.keywords
        or after.keywords
        or not key.startswith(after.key)
        or not _names_same(_lead_in_subject(before.text), _lead_in_subject(after.text))
    ):
        return key
    return before.key + key[len(after.key) :]


_NOTING = tuple(
    tuple(phrase.split())
    for phrase in (
        "take note of the following",
        "should note the following",
        "please note the following",
        "must note the following",
        "note the following",
        "should note that",
        "must note that",
        "please note that",
        "should take note",
        "should note",
        "must note",
        "please note",
        "note that",
        "take note",
    )
)
"""Words that close a plain lead-in bidding its readers note what follows ("Kettle owners
should note:"), longest first, which say nothing of whom its items speak of. Not a bare
"note", which may be a noun ("Kettle note:")."""


def _lead_in_subject(text: str) -> str:
    """The words of a plain lead-in that say whom its items speak of: without those at its end
    that bid its readers note what follows (see `_NOTING`)."""
    words = words_of(text)
    for phrase in _NOTING:
        if len(words) > len(phrase) and tuple(words[-len(phrase) :]) == phrase:
            return " ".join(words[: -len(phrase)])
    return text


def same_code(
    old: Sequence[Sentence], new: Sequence[Sentence], page_headers: frozenset[str] = frozenset()
) -> bool:
    """Whether the code spans of two runs of sentences say the same: none became another one.

    A code span that became another, in case, spelling or punctuation (`clientId` →
    `clientID`, `tools:list` → `tools.list`, `result` → `result?`), names another identifier.
    Code spans the same in another order, or whose fields are (`{ a: 1; b: 2 }`, not a call's
    arguments, `f(a, b)`), say the same; so do spans put into a code span or taken out of one
    (a span standing as words of the other side's prose), or taken out with no new span in
    their place (`{id}` → "ID"), which leaves the words to `same_requirement`. A header's name
    (one that stands beside the word "header": see `_header_names`), which HTTP reads in any
    case, is the same in another (see `_HEADER_NAME`); so is one of ``page_headers``, the names
    the page gives headers elsewhere, where a sentence names the header alone ("a request
    without a `Jar-Id`"), not where it names something else so (see `_named_otherwise`).
    """
    old_terms = [term for sentence in old for term in sentence.code]
    new_terms = [term for sentence in new for term in sentence.code]
    if old_terms == new_terms:
        return True
    headers = _header_names((*old, *new))
    if page_headers:
        headers |= page_headers - _named_otherwise((*old, *new))
    if headers and [_as_http_reads(term, headers) for term in old_terms] == [
        _as_http_reads(term, headers) for term in new_terms
    ]:
        return True
    old_code, new_code = Counter(old_terms), Counter(new_terms)
    removed = old_code - new_code
    added = new_code - old_code
    if _pieces(removed) == _pieces(added):
        # The same fields in another order (`{ a: 1; b: 2 }`), as the items of a series in prose.
        return True
    return not (
        _rewritten(removed, _prose(new, new_code)) and _rewritten(added, _prose(old, old_code))
    )


_HEADER_WORD = re.compile(r"\bheaders?\b", re.IGNORECASE)
_HEADER_NAME = re.compile(r"[A-Z][A-Za-z0-9]*(?:-[A-Z][A-Za-z0-9]*)+")
"""A name written as HTTP headers are, in capitalised parts joined by hyphens
(`Mcp-Session-Id`, `MCP-Session-Id`, `Content-Type`), which HTTP compares in any case. Names
in other styles keep their case (`x-lid-size` → `X-Lid-Size` is another JSON key), as do names
in sentences that speak of no header (`RSA-OAEP` is an algorithm's)."""


_HYPHENATED = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+(?![\w-])")
_AS_A_VALUE = re.compile(r"(?:\bto|\bvalues?|\bequals?|=)\W{0,2}\s*\W?\Z", re.IGNORECASE)
"""What stands before a header's value rather than its name ("set … to `Fast-Lane`")."""
_OTHER_NAME = re.compile(
    r"\W{0,2}\s+(?:keys?|fields?|propert(?:y|ies)|parameters?|attributes?|members?|values?"
    r"|objects?|elements?|types?)\b",
    re.IGNORECASE,
)
"""What follows the name of something else than a header ("the `Lid-Size` key")."""


_HEADER_WORD_AFTER = re.compile(
    r"[^\w\s,]{0,2}(?:\s+(?:and|or)\s+[\w-]+[^\w\s,]{0,2}|,\s*[\w-]+[^\w\s,]{0,2})*"
    r"\s+(?:(?:HTTP|request|response)\s+)?headers?\b",
    re.IGNORECASE,
)
"""The word "header" after a name, or after a series of names it ends ("the `Jar-Id` HTTP
header", "`Jar-Id` and `Lid-Id` headers")."""
_HEADER_WORD_BEFORE = re.compile(r"\bheaders?(?:\s+(?:named|called))?\W{0,2}\s*\Z", re.IGNORECASE)
"""The word "header" right before a name ("the header `Jar-Mode`", "this header: `Jar-Id`",
"the header named `Jar-Id`")."""
_NAME_AT_END = re.compile(r"[A-Za-z0-9]-[A-Za-z0-9]+\W{0,2}\s*\Z")
_BESIDE = 40
"""How far from a name the word "header" and the names listed with it are looked for: a
window, which keeps the search linear in a long sentence."""


def _beside_header_word(text: str, start: int, end: int) -> bool:
    """Whether the name at ``text[start:end]`` stands beside the word "header": right after
    it, unless that header was named before it ("the `Jar-Mode` header: `Fast-Lane`" gives
    a value), or right before it, alone or in a series."""
    if _HEADER_WORD_AFTER.match(text, end, end + _BESIDE):
        return True
    before = text[max(0, start - _BESIDE) : start]
    found = _HEADER_WORD_BEFORE.search(before)
    return found is not None and _NAME_AT_END.search(before, 0, found.start()) is None


def _header_names(sentences: Iterable[Sentence]) -> frozenset[str]:
    """The code spans of ``sentences`` written as header names (see `_HEADER_NAME`) that stand
    beside the word "header" (see `_beside_header_word`), in lowercase: not where one stands as
    a value ("set the `Jar-Mode` header to `Fast-Lane`", "if the `Jar-Mode` header is
    `Fast-Lane`") or names something else ("the `Lid-Size` key")."""
    return frozenset(
        name for sentence in sentences for name in _header_names_in(sentence.text, sentence.code)
    )


def _header_names_in(text: str, written: Container[str] | None = None) -> Iterator[str]:
    """The names of ``text`` written as header names (see `_HEADER_NAME`; only those among
    ``written`` where given) that stand there as a header's name (see `_names_a_header`), in
    lowercase."""
    if _HEADER_WORD.search(text):
        for found in _HYPHENATED.finditer(text):
            name = found[0]
            if (
                (written is None or name in written)
                and _HEADER_NAME.fullmatch(name)
                and _names_a_header(text, found)
            ):
                yield name.lower()


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n[ \t]*\n")
"""Where a page's text is cut so that the word "header" of one sentence is not looked for
beside a name in the next ("… send `Jar-Id`. Headers are …"): a stop before spaces, or a
blank line."""


def _named_headers(text: str) -> frozenset[str]:
    """The names a page's ``text`` (its source or its sentences' keys) gives headers, in
    lowercase: those written as header names (see `_HEADER_NAME`) where they stand as a
    header's name (see `_names_a_header`) within a sentence (see `_SENTENCE_END`), in code or
    not, since a key has lost its backticks.
    """
    return frozenset(
        name for piece in _SENTENCE_END.split(text) for name in _header_names_in(piece)
    )


def _names_a_header(text: str, found: re.Match[str]) -> bool:
    """Whether the name ``found`` in ``text`` stands beside the word "header" (see
    `_beside_header_word`) as a header's name: not as its value ("set the `Jar-Mode` header to
    `Fast-Lane`") nor as the name of something else ("the `Lid-Size` key")."""
    return _beside_header_word(text, found.start(), found.end()) and not _value_or_other_name(
        text, found
    )


def _value_or_other_name(text: str, found: re.Match[str]) -> bool:
    """Whether the name ``found`` in ``text`` stands as a value (see `_AS_A_VALUE`, looked for
    in the few characters before it) or as the name of something else (see `_OTHER_NAME`)."""
    return (
        _AS_A_VALUE.search(text, max(0, found.start() - 12), found.start()) is not None
        or _OTHER_NAME.match(text, found.end()) is not None
    )


def _named_otherwise(sentences: Iterable[Sentence]) -> frozenset[str]:
    """The names, in lowercase, that ``sentences`` give as a value or as the name of something
    else than a header (see `_names_a_header`): "the body's `Jar-Id` key" names a key, which
    keeps its case, though the page calls a header so elsewhere."""
    return frozenset(
        found[0].lower()
        for sentence in sentences
        for found in _HYPHENATED.finditer(sentence.text)
        if _value_or_other_name(sentence.text, found)
    )


def _as_http_reads(term: str, headers: Container[str]) -> str:
    """A code span as HTTP would compare it: a header's name (see `_HEADER_NAME`; one of
    ``headers``, in lowercase) with each part capitalised, still a header's name, unlike a name
    in another style made so."""
    if term.lower() not in headers or _HEADER_NAME.fullmatch(term) is None:
        return term
    return "-".join(part.capitalize() for part in term.split("-"))


def _pieces(code: Iterable[str]) -> Counter[str]:
    """The fields of code spans and the marks that part them (see `_CODE_PIECE`)."""
    pieces: Counter[str] = Counter()
    for term in code:
        pieces.update(_CODE_PIECE.findall(_SPACED_MARK.sub(r"\1", term.strip())))
    return pieces


def _prose(sentences: Sequence[Sentence], code: Iterable[str]) -> str:
    """The text of ``sentences`` without the code spans ``code`` holds (once each)."""
    text = " ".join(sentence.text for sentence in sentences)
    for term in code:
        text = text.replace(term, "\0", 1)
    return text


def _rewritten(code: Iterable[str], prose: str) -> bool:
    """Whether some code span does not stand, as a whole, in ``prose`` (both have their
    whitespace collapsed). One of signs alone (`;`, `|`) never does: signs in prose are
    punctuation, and a table's cells are parted by `|`."""
    return any(
        _WORD_CHARACTER.search(term) is None
        or re.search(rf"(?<!\w){re.escape(term)}(?!\w)", prose) is None
        for term in code
    )


def classify_single(unit: Unit) -> ChangeClass:
    """The class of a unit that was only removed or only added."""
    return ChangeClass.NORMATIVE if unit.sentence.keywords else ChangeClass.EDITORIAL
