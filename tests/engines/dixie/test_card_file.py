"""The card list as the players paste or open it (DX-1.0, digest section 10): JSON or YAML, read within bounds
(companion.loading); a broken or hostile list is refused with a RuleError naming DX-1.0 (or the rule of the field),
quickly, in little memory, quoting at most a short prefix of a bad value; nothing is saved."""
from __future__ import annotations

import json
import time
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import RuleError
from engines.dixie.cards import cards_from_rows, read_card_file
from engines.dixie.example import example_cards
from engines.dixie.rules import RULES
from tests.scale import examples

SECONDS, BYTES = 3.0, 32 * 1024 * 1024   # one card list: at most this much CPU time and this much memory
LAUGHS = ("a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
          "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n")


def with_field(key: str, value) -> str:
    rows = [dict(c) for c in example_cards()]
    rows[0][key] = value
    return json.dumps(rows)


def read(raw) -> tuple[list | None, RuleError | None, float]:
    begun = time.process_time()
    try:
        return read_card_file(raw), None, time.process_time() - begun
    except RuleError as refused:
        return None, refused, time.process_time() - begun


@pytest.mark.rule("DX-1.0")
def test_the_example_deck_reads_as_json_and_as_a_wrapped_list():
    rows = example_cards()
    assert cards_from_rows(read_card_file(json.dumps(rows))) == cards_from_rows(rows)
    assert cards_from_rows(read_card_file(json.dumps({"cards": rows}).encode())) == cards_from_rows(rows)


HOSTILE = [
    ("{not json", "JSON"), ("", "No cards"), ("42", "No cards"), (LAUGHS, "alias"),
    ("[" * 5000 + "]" * 5000, "deep"), (b"\xff\xfe[]", "UTF-8"), ('[{"number": 1e400}]', "large"),
    ('[{"number": ' + "9" * 5000 + "}]", "digits"), ('[{"name": "\\ud800"}]', "surrogate"),
    (" " * (3 * 1024 * 1024), "at most"), (json.dumps([{}] * 501), "at most 500"),
    (with_field("name", "<script>" + "x" * 5000), "longer than 100"), (with_field("side", "x" * 5000), "side is"),
    (with_field("number", "1" * 5000), "whole number"),
]


@pytest.mark.rule("DX-1.0")
@pytest.mark.parametrize("raw, says", HOSTILE, ids=range(len(HOSTILE)))
def test_a_hostile_card_list_is_refused_quickly_in_little_memory(raw, says):
    """Each is a RuleError naming a rule and saying what is wrong in a short message, within the bounds."""
    tracemalloc.start()
    try:
        rows, refused, seconds = read(raw)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert rows is None and refused.rule in RULES and says.lower() in refused.message.lower(), refused
    assert len(refused.message) < 400 and seconds < SECONDS and peak < BYTES


JUNK = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
                    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
                        st.sampled_from(["number", "side", "type", "name", "cv", "morale", "pile", "codes", "modifiers",
                                         "wing_corps", "rank", "attack", "day", "id", "x"]) | st.text(max_size=5),
                        inner, max_size=6), max_leaves=30)
ROW_LISTS = st.lists(st.dictionaries(st.sampled_from(["number", "side", "type", "name", "cv", "morale", "pile",
                                                      "codes", "modifiers", "wing_corps", "rank", "attack", "defense",
                                                      "fp_long", "fp_short", "horse", "timing", "bp", "day", "id"]),
                                     JUNK, max_size=8), max_size=6)


@pytest.mark.rule("DX-1.0")
@settings(max_examples=examples(5000), deadline=None)
@given(raw=st.one_of(JUNK.map(json.dumps), ROW_LISTS.map(json.dumps), st.text(max_size=300), st.binary(max_size=300),
                     st.integers(1, 4000).map(lambda n: "[" * n + "]" * n)))
def test_junk_card_lists_raise_only_the_loaders_refusal(raw):
    """Generated junk and huge lists: read, or refused with a RuleError of the engine's rules; nothing else is
    raised, and none takes long."""
    rows, refused, seconds = read(raw)
    assert (rows is None) != (refused is None) and seconds < SECONDS
    if refused:
        assert refused.rule in RULES and len(refused.message) < 600
