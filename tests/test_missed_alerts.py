"""Requirements whose meaning changed though a rule of `spectrack.diff.classify` might excuse
the change: each must be reported as normative, and the harmless edits beside them as editorial.

The pages describe made-up jars, lids, relays and kettles, written for these tests.
"""

from __future__ import annotations

import pytest

from spectrack.diff import diff_texts


def verdict(old: str, new: str) -> str:
    return diff_texts(f"# Jars\n\n{old}\n", f"# Jars\n\n{new}\n", "page.md").verdict


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # A keyword and the same word in lowercase (or plain words for it) traded places: the
        # requirement moved to another subject.
        ("Relays MUST retry and jars must cool.", "Relays must retry and jars MUST cool."),
        ("Relays MUST retry and jars need to cool.", "Relays need to retry and jars MUST cool."),
        ("Relays SHOULD retry; lids should close.", "Relays should retry; lids SHOULD close."),
        ("Relays MAY retry if jars may cool.", "Relays may retry if jars MAY cool."),
        (
            "Relays are REQUIRED to retry when jars are required to cool.",
            "Relays are required to retry when jars are REQUIRED to cool.",
        ),
    ],
)
def test_a_keyword_traded_with_its_plain_word_is_normative(old: str, new: str) -> None:
    assert verdict(old, new) == "normative"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Relays MUST retry if jars need to cool.",
            "Relays MUST retry if jars are required to cool.",
        ),
        ("Relays are REQUIRED to retry.", "Relays MUST retry."),
        ("It is REQUIRED that relays retry.", "Relays MUST retry."),
        ("It is OPTIONAL for lids to be tinted.", "Lids MAY be tinted."),
        ("Relays are NOT RECOMMENDED to retry.", "Relays SHOULD NOT retry."),
        ("Relays MUST not retry.", "Relays MUST NOT retry."),
    ],
)
def test_keywords_said_otherwise_stay_editorial(old: str, new: str) -> None:
    assert verdict(old, new) == "editorial"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # A pronoun replaced by a noun that the sentence before names, but not as a subject.
        (
            "The kettle heats the jar. It MUST stop at 90 degrees.",
            "The kettle heats the jar. The jar MUST stop at 90 degrees.",
        ),
        (
            "Jars hold lids. They MUST be washed daily.",
            "Jars hold lids. Lids MUST be washed daily.",
        ),
        (
            "A relay forwards frames to a kettle. It MUST sign them.",
            "A relay forwards frames to a kettle. The kettle MUST sign them.",
        ),
        (
            "When a jar is full, the kettle stops. It MUST beep.",
            "When a jar is full, the kettle stops. The jar MUST beep.",
        ),
        ("Lids seal jars. This MUST be checked.", "Lids seal jars. Jars MUST be checked."),
    ],
)
def test_a_pronoun_replaced_by_a_noun_it_does_not_stand_for_is_normative(
    old: str, new: str
) -> None:
    assert verdict(old, new) == "normative"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "The kettle heats the jar. It MUST stop at 90 degrees.",
            "The kettle heats the jar. The kettle MUST stop at 90 degrees.",
        ),
        (
            "When a jar is full, the kettle stops. It MUST beep.",
            "When a jar is full, the kettle stops. The kettle MUST beep.",
        ),
        (
            "The lid may be loose and the relay cannot tell. It MUST NOT seal such lids.",
            "The lid may be loose and the relay cannot tell. The relay MUST NOT seal such lids.",
        ),
        (
            "Each relay wakes hourly. They MUST retry twice.",
            "Each relay wakes hourly. Relays MUST retry twice.",
        ),
    ],
)
def test_a_pronoun_replaced_by_a_subject_before_stays_editorial(old: str, new: str) -> None:
    assert verdict(old, new) == "editorial"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # A series reordered where the sentence says its order matters.
        (
            "Jars MUST be sorted by size: small, medium, large.",
            "Jars MUST be sorted by size: large, medium, small.",
        ),
        ("Fuels MUST be ranked gas, coal, wood.", "Fuels MUST be ranked wood, coal, gas."),
        (
            "Lids MUST be stacked largest to smallest: 9, 5, 2.",
            "Lids MUST be stacked largest to smallest: 2, 5, 9.",
        ),
    ],
)
def test_a_series_whose_order_matters_reordered_is_normative(old: str, new: str) -> None:
    assert verdict(old, new) == "normative"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Relays MUST accept gas, coal or wood.", "Relays MUST accept wood, gas or coal."),
        ("Lids, jars and kettles MUST be washed.", "Jars, kettles and lids MUST be washed."),
        (
            "Relays MUST accept the latest lid from gas, coal or wood jars.",
            "Relays MUST accept the latest lid from wood, gas or coal jars.",
        ),
    ],
)
def test_a_series_whose_order_does_not_matter_reordered_stays_editorial(old: str, new: str) -> None:
    assert verdict(old, new) == "editorial"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # A word the dictionary lacks, a prefix and a word, "corrected" into another word.
        ("Jars MUST be restacked after use.", "Jars MUST be restocked after use."),
        ("Kettles MUST be prefilled.", "Kettles MUST be prefiled."),
        ("Jars MUST be precooled.", "Jars MUST be precoiled."),
        ("Lids MUST be autolocking.", "Lids MUST be autoblocking."),
    ],
)
def test_a_prefixed_word_changed_into_another_is_normative(old: str, new: str) -> None:
    assert verdict(old, new) == "normative"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Relays MUST recieve frames.", "Relays MUST receive frames."),
        ("Relays MUST retreive the lid.", "Relays MUST retrieve the lid."),
        ("Relays MUST keep the lid untill noon.", "Relays MUST keep the lid until noon."),
        ("Kettles MUST be seperated from jars.", "Kettles MUST be separated from jars."),
        ("Relays MUST send the occurence count.", "Relays MUST send the occurrence count."),
    ],
)
def test_a_misspelling_corrected_stays_editorial(old: str, new: str) -> None:
    assert verdict(old, new) == "editorial"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # A capital "A" that names a thing, taken for the article.
        ("Relays MUST use channel A.", "Relays MUST use the channel."),
        ("Kettles MUST draw from tank A.", "Kettles MUST draw from a tank."),
        ("Lids of size A MUST be tinted.", "Lids of size MUST be tinted."),
    ],
)
def test_a_name_a_taken_out_is_normative(old: str, new: str) -> None:
    assert verdict(old, new) == "normative"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("A relay MUST forward each frame.", "The relay MUST forward each frame."),
        ("Relays MUST use a channel.", "Relays MUST use the channel."),
        ("Relays MUST fill tanks A and B.", "Relays MUST fill the tanks A and B."),
    ],
)
def test_articles_exchanged_stay_editorial(old: str, new: str) -> None:
    assert verdict(old, new) == "editorial"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # A header's value, or a key, in another case: only a header's name is read in any case.
        (
            "Relays MUST set the `Jar-Mode` header to `Fast-Lane`.",
            "Relays MUST set the `Jar-Mode` header to `FAST-LANE`.",
        ),
        (
            "Relays MUST put the `Lid-Size` key in the header object.",
            "Relays MUST put the `LID-SIZE` key in the header object.",
        ),
    ],
)
def test_a_code_span_beside_a_header_in_another_case_is_normative(old: str, new: str) -> None:
    assert verdict(old, new) == "normative"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Relays MUST send the `X-Jar-Id` header.", "Relays MUST send the `X-JAR-ID` header."),
        (
            "Relays MUST copy the header `Jar-Mode` into the reply.",
            "Relays MUST copy the header `JAR-MODE` into the reply.",
        ),
        (
            "If a `Jar-Id` is sent, relays MUST echo it in the `Jar-Id` header.",
            "If a `JAR-ID` is sent, relays MUST echo it in the `JAR-ID` header.",
        ),
    ],
)
def test_a_header_name_in_another_case_stays_editorial(old: str, new: str) -> None:
    assert verdict(old, new) == "editorial"


def test_a_requirement_that_speaks_of_rfc_2119_keeps_its_keyword() -> None:
    assert (
        verdict(
            "Relay timers MUST be interpreted as seconds, per RFC 2119.",
            "Relay timers MAY be interpreted as seconds, per RFC 2119.",
        )
        == "normative"
    )


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # A label after a noun, whatever follows it.
        ("If tank A drains, relays MUST stop.", "If a tank drains, relays MUST stop."),
        ("Relays MUST fill tank A first.", "Relays MUST fill a tank first."),
        # An object joined by "and" is no subject a pronoun stands for.
        (
            "The kettle heats the jar and the lid. It MUST stop.",
            "The kettle heats the jar and the lid. The lid MUST stop.",
        ),
        # Two keywords in a sentence that speaks of RFC 2119, not listed one after the other.
        (
            "Timers MUST be interpreted as seconds and MAY be fractional, per RFC 2119.",
            "Timers SHOULD be interpreted as seconds and MAY be fractional, per RFC 2119.",
        ),
    ],
)
def test_review_missed_alerts_are_normative(old: str, new: str) -> None:
    assert verdict(old, new) == "normative"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # A misspelling whose first letters are a prefix, mended.
        ("Old lids MUST be superceded by new ones.", "Old lids MUST be superseded by new ones."),
        # "request" and "nearest" end as superlatives do, and rank nothing.
        (
            "Clients MUST send each request to the nearest relay over HTTP or WebSocket.",
            "Clients MUST send each request to the nearest relay over WebSocket or HTTP.",
        ),
        # Header names in other phrasings, in another case.
        (
            "Relays MUST send the `JAR-Id` HTTP header.",
            "Relays MUST send the `Jar-Id` HTTP header.",
        ),
        (
            "Relays MUST send the `JAR-Id` and `LID-Id` headers.",
            "Relays MUST send the `Jar-Id` and `Lid-Id` headers.",
        ),
        ("Relays MUST send this header: `JAR-Id`.", "Relays MUST send this header: `Jar-Id`."),
        # A clause's subject after "and" and a determiner.
        (
            "The lid may be loose, and the relay cannot tell. It MUST wait.",
            "The lid may be loose, and the relay cannot tell. The relay MUST wait.",
        ),
    ],
)
def test_review_false_alerts_are_editorial(old: str, new: str) -> None:
    assert verdict(old, new) == "editorial"


def test_requirements_that_share_only_a_keyword_and_an_article_are_not_paired() -> None:
    page = diff_texts(
        "# Jars\n\nThe jar MUST close.\n", "# Jars\n\nThe valve MUST NOT open.\n", "p.md"
    )
    assert sorted(change.kind.value for change in page.changes) == ["added", "removed"]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # Items grouped by "and" and "or" together: the groups changed, not the order alone.
        ("Relays MUST accept gas and coal, or wood.", "Relays MUST accept wood and coal, or gas."),
        ("Relays MUST accept gas or coal, and wood.", "Relays MUST accept wood or coal, and gas."),
        # Two words the dictionary lacks, one letter apart: two names, no misspelling mended.
        ("Relays MUST emit jsonl.", "Relays MUST emit jsonb."),
        ("Relays MUST send lids as protobuf.", "Relays MUST send lids as protobug."),
        ("Relays MUST support webauthn.", "Relays MUST support webauth."),
        # "This" and "that" alone speak of what the sentence before says, not of its subject.
        ("Relays wake hourly. This MUST be logged.", "Relays wake hourly. Relays MUST be logged."),
        (
            "The kettle heats the jar. That MUST take 5 s.",
            "The kettle heats the jar. The kettle MUST take 5 s.",
        ),
        # A value in quotes in another case is another value, as a code span's is.
        ('Relays MUST set mode to "Fast".', 'Relays MUST set mode to "fast".'),
        ("Relays MUST set mode to 'Fast'.", "Relays MUST set mode to 'FAST'."),
        ("Relays MUST send the “Lid-Id” field.", "Relays MUST send the “lid-id” field."),
        # A series reordered beside another as long, whose items its own pair with in order.
        (
            "Relays MUST use ports 80 and 90 for gas and coal.",
            "Relays MUST use ports 90 and 80 for gas and coal.",
        ),
        (
            "Gas and coal relays MUST use ports 80 and 90.",
            "Gas and coal relays MUST use ports 90 and 80.",
        ),
        (
            "Relays MUST map red, blue, green to 1, 2, 3.",
            "Relays MUST map blue, red, green to 1, 2, 3.",
        ),
        # A clause between two items exchanged binds another one.
        ("Relays MUST send lids, if known, or jars.", "Relays MUST send jars, if known, or lids."),
        (
            "Kettles MUST heat lids, unless cracked, and jars.",
            "Kettles MUST heat jars, unless cracked, and lids.",
        ),
        # Words of the subject said after "and" qualify no item of the series: they name others.
        ("Relay lids MUST fit kettles and jars.", "Relay lids MUST fit kettles and relay jars."),
        ("Glass lids MUST fit kettles or jars.", "Glass lids MUST fit kettles or glass jars."),
        # "They" stands for all its antecedent names: one of them names fewer.
        (
            "The relay and the kettle wake. They MUST retry.",
            "The relay and the kettle wake. The kettle MUST retry.",
        ),
        (
            "Relays and kettles wake. They MUST retry.",
            "Relays and kettles wake. Relays MUST retry.",
        ),
        # "Also" before a condition asks the requirement in that case too, not only then.
        ("Relays MUST accept lids, also if cracked.", "Relays MUST accept lids if cracked."),
        ("Relays MUST accept lids, also when cracked.", "Relays MUST accept lids, when cracked."),
        # A header's value, written as a header's name is, in another case: only a name that
        # stands beside the word "header" is read in any case.
        (
            "If the `Jar-Mode` header is `Fast-Lane`, relays MUST wait.",
            "If the `Jar-Mode` header is `FAST-LANE`, relays MUST wait.",
        ),
        (
            "Relays MUST set the `Jar-Mode` header: `Fast-Lane`.",
            "Relays MUST set the `Jar-Mode` header: `FAST-LANE`.",
        ),
        (
            "Relays MUST send the `Jar-Mode` header with `Fast-Lane` as its value.",
            "Relays MUST send the `Jar-Mode` header with `FAST-LANE` as its value.",
        ),
        # "Also" after a negative keyword forbids only doing it besides.
        (
            "Relays that cache a frame MUST NOT also forward it.",
            "Relays that cache a frame MUST NOT forward it.",
        ),
        # A table row's values moved to other cells, under other headers.
        (
            "| Field | Rule | Min | Max |\n|---|---|---|---|\n| lid | REQUIRED | 1 | 9 |",
            "| Field | Rule | Min | Max |\n|---|---|---|---|\n| lid | REQUIRED | 9 | 1 |",
        ),
        (
            "| Relay | Kettle |\n|---|---|\n| MUST retry | MAY wait |",
            "| Relay | Kettle |\n|---|---|\n| MAY wait | MUST retry |",
        ),
        # A unit's symbol in another case is another unit: megabytes, megabits.
        ("Relays MUST use 5 MB.", "Relays MUST use 5 Mb."),
        ("Relays MUST buffer 64 kB.", "Relays MUST buffer 64 KB."),
        # After a verb of examining, "for …" is what is looked for, not a reason.
        ("Jars MUST be inspected for clarity.", "Jars MUST be inspected."),
        ("Relays MUST be tested for backwards compatibility.", "Relays MUST be tested."),
        # "Also" before a scope adds it; after a negation it is forbidden besides.
        ("Relays MUST accept lids also during repair.", "Relays MUST accept lids during repair."),
        (
            "Relays MUST accept lids also for cracked jars.",
            "Relays MUST accept lids for cracked jars.",
        ),
        ("Relays MUST never also forward frames.", "Relays MUST never forward frames."),
        # "For clarity" after what a verb of examining looks at is what it looks for.
        ("Relays MUST check the jars for clarity.", "Relays MUST check the jars."),
        # Units written against their number, or of four letters.
        ("Relays MUST use 5MBps.", "Relays MUST use 5Mbps."),
        ("Relays MUST use 5 MBit.", "Relays MUST use 5 Mbit."),
        # An interval's brackets say which of its ends it holds.
        ("Timeouts MUST lie in (0, 10].", "Timeouts MUST lie in [0, 10)."),
        # Split at "and", the part that names the subject by a pronoun lost the condition.
        (
            "If lids are hot, relays MUST retry and MUST log.",
            "If lids are hot, relays MUST retry. They MUST log.",
        ),
        (
            "For hot lids, relays MUST retry and MUST log.",
            "For hot lids, relays MUST retry. They MUST log.",
        ),
    ],
)
def test_round_two_missed_alerts_are_normative(old: str, new: str) -> None:
    assert verdict(old, new) == "normative"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # A series under one joint reordered, and a misspelling mended into a word.
        ("Relays MUST accept gas, coal, or wood.", "Relays MUST accept wood, gas, or coal."),
        ("Relays MUST accept gas and coal and wood.", "Relays MUST accept coal and wood and gas."),
        ("Relays MUST wait for the kettel.", "Relays MUST wait for the kettle."),
        ('Relays MUST set mode to "Fast".', "Relays MUST set the mode to 'Fast'."),
        ("Relays MUST keep lids for backwards compatibility.", "Relays MUST keep lids."),
        ("Lids MUST be checked, for security.", "Lids MUST be checked."),
        ("Relays MUST wait 5 s.", "Relays MUST wait 5 seconds."),
        (
            "Relays and kettles MUST accept gas or coal.",
            "Relays and kettles MUST accept coal or gas.",
        ),
        (
            "Relays and kettles MUST accept gas and coal.",
            "Relays and kettles MUST accept coal and gas.",
        ),
        (
            "Relays MUST accept gas, coal or wood and MUST log them.",
            "Relays MUST accept coal, gas or wood and MUST log them.",
        ),
        ("Relays MUST accept gas and coal, if dry.", "Relays MUST accept coal and gas, if dry."),
        ("Relays MUST send lids, jars, or kettles.", "Relays MUST send kettles, jars, or lids."),
        ("Relays MUST accept lids also.", "Relays MUST accept lids."),
        ("Relays also MUST NOT forward frames.", "Relays MUST NOT forward frames."),
        (
            "Relays MUST accept lids when sealed and also when cracked.",
            "Relays MUST accept lids when sealed and when cracked.",
        ),
        (
            "Relays MUST forward signed lids, kettles or jars.",
            "Relays MUST forward signed lids, kettles or signed jars.",
        ),
        (
            "| Field | Rule |\n|---|---|\n| lid | MUST be hot, or cold |",
            "| Field | Rule |\n|---|---|\n| lid | MUST be cold, or hot |",
        ),
        ("Relays MUST send 5 Lids.", "Relays MUST send 5 lids."),
        # A word after a number that only lost its capital is no unit; a hex digit is none.
        ("In 2024 The relays MUST wait.", "In 2024 the relays MUST wait."),
        ("Clients MUST use HTTP/2 Or later.", "Clients MUST use HTTP/2 or later."),
        ("Relays MUST send 0x1F.", "Relays MUST send 0x1f."),
        # A name mended that ends as before, though the dictionary lacks it.
        ("Relays MUST send the timestmap.", "Relays MUST send the timestamp."),
        # A header's name beside "response header" or after "header named".
        (
            "Relays MUST send the `Jar-Id` response header.",
            "Relays MUST send the `JAR-ID` response header.",
        ),
        (
            "Relays MUST send the header named `Jar-Id`.",
            "Relays MUST send the header named `JAR-ID`.",
        ),
        (
            "If lids are hot, relays MUST retry and MUST log.",
            "If lids are hot, relays MUST retry. If lids are hot, relays MUST log.",
        ),
        ("Relays MUST send a jar's lid and 'Fast'.", 'Relays MUST send the jar\'s lid and "Fast".'),
    ],
)
def test_round_two_harmless_edits_stay_editorial(old: str, new: str) -> None:
    assert verdict(old, new) == "editorial"


def test_an_interval_spaced_otherwise_is_the_same_interval() -> None:
    assert verdict("Timeouts MUST lie in (0, 10].", "Timeouts MUST lie in ( 0,10 ].") == (
        "formatting"
    )


def test_quotes_dropped_around_a_word_after_a_number_keep_its_case() -> None:
    """ "Gone" in quotes and Gone after 410 are the same letters: no value or unit recased."""
    old, new = (
        'Relays SHOULD return a 410 "Gone" status.',
        "Relays SHOULD return a 410 Gone status.",
    )
    assert verdict(old, new) == "formatting"
