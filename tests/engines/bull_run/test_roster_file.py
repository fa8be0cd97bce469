"""The roster as a file the players save and open again (BR-2.4, digest section 10): JSON or YAML, read within bounds
(companion.loading); a broken or hostile file is refused with a RuleError naming a rule of the game, quickly, in little
memory, quoting at most a short prefix of a bad value."""
from __future__ import annotations

import json
import time
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import RuleError
from engines.bull_run.example import EXAMPLE_ROSTER, example_setup
from engines.bull_run.roster import read_roster_file, roster_from_rows
from engines.bull_run.rules import RULES
from tests.scale import examples

from .support import ROSTER

SECONDS, BYTES = 3.0, 32 * 1024 * 1024   # one roster file: at most this much CPU time and this much memory
LAUGHS = ("a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
          "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n")


def with_field(key: str, value) -> str:
    rows = [dict(r) for r in EXAMPLE_ROSTER]
    rows[0][key] = value
    return json.dumps(rows)


def read(raw) -> tuple[list | None, RuleError | None, float]:
    begun = time.process_time()
    try:
        return read_roster_file(raw), None, time.process_time() - begun
    except RuleError as refused:
        return None, refused, time.process_time() - begun


@pytest.mark.rule("BR-2.4")
def test_a_saved_setup_opens_again_as_the_same_roster():
    """What the setup page saves ({"roster": [...]}, with the example's label) and a bare list both read back."""
    setup = example_setup()
    assert read_roster_file(json.dumps(setup, indent=1)) == setup["roster"]
    rows = [dict(r) for r in ROSTER]
    assert read_roster_file(json.dumps(rows).encode()) == rows
    assert roster_from_rows(read_roster_file(json.dumps({"roster": rows}))) == roster_from_rows(rows)


@pytest.mark.rule("BR-2.4", "BR-8.3")
def test_a_roster_reads_as_yaml():
    text = ("roster:\n"
            "- {name: Evans' Brigade, side: CSA, entry_hex: '1', entry_turn: 1, max_sp: 3}\n"
            "- {name: Cocke's Brigade, side: CSA, entry_hex: 2, entry_turn: 1, max_sp: 4, grey: true, bank: north}\n")
    specs = roster_from_rows(read_roster_file(text))
    assert [(s.name, s.entry_hex, s.max_sp, s.grey, s.entry_bank) for s in specs] == [
        ("Evans' Brigade", "1", 3, False, "south"), ("Cocke's Brigade", "2", 4, True, "north")]


HOSTILE = [
    ("{not json", "JSON"), ("", "empty"), ("42", "empty"), ('{"units": []}', "empty"), (LAUGHS, "alias"),
    ("[" * 5000 + "]" * 5000, "deep"), (b"\xff\xfe[]", "UTF-8"), ('[{"max_sp": 1e400}]', "large"),
    ('[{"max_sp": ' + "9" * 5000 + "}]", "digits"), ('[{"name": "\\ud800"}]', "surrogate"),
    (" " * (3 * 1024 * 1024), "at most"), (json.dumps([{"name": "x"}] * 501), "at most 500"),
    (with_field("name", "<script>" + "x" * 5000), "longer than 100"), (with_field("side", "x" * 5000), "side must"),
    (with_field("max_sp", "1" * 5000), "whole number"), (with_field("entry_turn", "9" * 400), "whole number"),
    (with_field("entry_hex", "A" * 5000), "entry hex"), (with_field("bank", "x" * 5000), "north or south"),
    (with_field("colour", "red"), "no field 'colour'"), (with_field("grey", "yes"), "yes or no"),
    (json.dumps([[1, 2, 3]]), "not a unit"),
]


@pytest.mark.rule("BR-2.4")
@pytest.mark.parametrize("raw, says", HOSTILE, ids=range(len(HOSTILE)))
def test_a_hostile_roster_file_is_refused_quickly_in_little_memory(raw, says):
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
                        st.sampled_from(["name", "side", "entry_hex", "entry_turn", "max_sp", "grey", "bank", "roster",
                                         "x"]) | st.text(max_size=5), inner, max_size=6), max_leaves=30)
ROW_LISTS = st.lists(st.dictionaries(st.sampled_from(["name", "side", "entry_hex", "entry_turn", "max_sp", "grey",
                                                      "bank"]), JUNK, max_size=7), max_size=6)


@pytest.mark.rule("BR-2.4")
@settings(max_examples=examples(3000), deadline=None)
@given(raw=st.one_of(JUNK.map(json.dumps), ROW_LISTS.map(json.dumps), ROW_LISTS.map(lambda r: json.dumps({"roster": r})),
                     st.text(max_size=300), st.binary(max_size=300),
                     st.integers(1, 4000).map(lambda n: "[" * n + "]" * n)))
def test_junk_roster_files_raise_only_the_refusal(raw):
    """Generated junk and huge lists: read, or refused with a RuleError of the game's rules; nothing else is raised,
    and none takes long."""
    rows, refused, seconds = read(raw)
    assert (rows is None) != (refused is None) and seconds < SECONDS
    if refused:
        assert refused.rule in RULES and len(refused.message) < 600
