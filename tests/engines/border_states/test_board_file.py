"""The board file as the players give it (digest section 10): JSON, or YAML as the digest has it, read within
bounds (companion.loading); a broken or hostile file is refused with the loader's message under BS-SETUP, quickly,
in little memory, and no game is saved."""
from __future__ import annotations

import copy
import json
import resource
import time
import tracemalloc

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import RuleError
from companion.session import GameSession
from companion.store import Store
from engines.border_states.board import Board, board_from_data
from engines.border_states.rules import RULES
from tests.engines.border_states.support import full_board, start
from tests.scale import examples

SECONDS, BYTES = 3.0, 32 * 1024 * 1024   # one board file: at most this much CPU time and this much memory
GROWTH = 256 * 1024 * 1024   # how far one file may raise the process's high-water mark (a blow-up takes far more)

LAUGHS = ("a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
          "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
          "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n")


def example_with(path: tuple, value) -> str:
    """The example board's JSON with one value replaced."""
    data = full_board()
    place = data
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = value
    return json.dumps(data)


def loaded(raw) -> tuple[Board | None, RuleError | None, float]:
    """The board read from `raw`, or the refusal; with the time it took."""
    begun = time.process_time()
    try:
        return board_from_data(raw), None, time.process_time() - begun
    except RuleError as refused:
        return None, refused, time.process_time() - begun


def peak_memory(raw) -> int:
    """The most memory reading `raw` took (traced allocations: slow, so for the hostile files only)."""
    tracemalloc.start()
    try:
        loaded(raw)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def resident() -> int:
    """The process's resident high-water mark, in bytes (Linux counts it in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


HOSTILE = [
    ("{not json", "not valid JSON"),
    ("[1, 2", "not valid JSON"),
    ("42", "does not fit"),
    ("", "does not fit"),
    (" " * 200_001, "at most 200 kB"),
    (LAUGHS, "anchors or aliases"),
    ("[" * 5000 + "]" * 5000, "nested too deep"),
    ("- " * 40 + "x", "nested too deep"),
    (example_with(("distrust_length",), 1e400), "not a number JSON allows"),
    ('{"distrust_length": 1e400}', "number too large"),
    ('{"distrust_length": ' + "9" * 5000 + "}", "5000 digits"),
    ('{"example": "\\ud800"}', "unpaired surrogate"),
    (b"\xff\xfe{}", "not text in UTF-8"),
    ("areas: !!python/object:os.system ls", "not valid YAML"),
    ("areas: 2024-01-01", "kind it cannot hold"),
    (example_with(("areas", 9, "name"), "Union home " + "x" * 2000), "characters"),
    (example_with(("adjacency",), [["Maryland", "Virginia"]] * 2000), "more than 5000 values"),
    (example_with(("areas", 9, "name"), ["Union home"] * 300), "State 10: the name must be text, not"),
    (example_with(("areas", 10, "name"), "Union home 2"), "Union home 2 is entered twice"),
    (example_with(("adjacency", 0), ["Maryland", "x" * 900]), "x… is not on the board"),
]


@pytest.mark.rule("BS-SETUP")
@pytest.mark.parametrize("raw, phrase", HOSTILE, ids=[f"{i}-{p}" for i, (_, p) in enumerate(HOSTILE)])
def test_a_hostile_board_file_is_refused_with_a_short_message(raw, phrase, tmp_path):
    """Digest section 10: a file that is not a board is refused by name, its bad value quoted by a short prefix;
    the refusal takes little time and memory, and no game is saved."""
    board, refused, seconds = loaded(raw)
    assert board is None and refused.rule in RULES
    assert phrase in refused.message and len(refused.message) < 300, refused.message
    assert seconds < SECONDS and peak_memory(raw) < BYTES
    store = Store(tmp_path)
    with pytest.raises(RuleError):
        GameSession.new(store, "border_states", {"board": raw})
    assert store.sessions() == []


@pytest.mark.rule("BS-SETUP")
def test_the_board_file_in_json_or_yaml_is_the_same_board():
    """The board file may be its data, its JSON text or the same in YAML (digest section 10's scenario file); the
    board is the same, and its example label is kept."""
    data = full_board()
    board = board_from_data(data)
    assert board_from_data(json.dumps(data)) == board == board_from_data(yaml.safe_dump(data))
    assert board_from_data(json.dumps(data).encode()) == board
    assert "invented" in board.example


@pytest.mark.rule("BS-SETUP")
def test_a_setup_given_the_text_of_a_board_starts_the_same_game():
    data = full_board()
    assert start({"board": json.dumps(data)}) == start({"board": data})


# --- any text at all: a board or the loader's refusal -----------------------------------------------------------

JUNK = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
                    max_leaves=25)
PATHS = [("areas",), ("areas", 0), ("areas", 0, "name"), ("areas", 3, "side"), ("areas", 12, "success"),
         ("areas", 2, "border"), ("adjacency",), ("adjacency", 1), ("adjacency", 1, 0), ("damage_u",),
         ("damage_c", 0, "star"), ("distrust_length",), ("commanders",), ("commanders", "U"),
         ("commanders", "C", 0, "actions"), ("units",), ("units", "C"), ("cards",), ("cards", "C"),
         ("cards", "U", 0, "effect"), ("cards", "C", 0, "value"), ("example",)]


@st.composite
def board_texts(draw) -> str | bytes:
    """The example board with one value replaced by junk, in JSON or YAML; or any text, bytes or data at all; or
    one of the hostile files."""
    kind = draw(st.sampled_from(["edited", "edited", "text", "bytes", "data", "hostile"]))  # YAML is slow to read
    if kind == "edited":
        data = copy.deepcopy(full_board())
        path = draw(st.sampled_from(PATHS))
        place = data
        for key in path[:-1]:
            place = place[key]
        place[path[-1]] = draw(JUNK)
        try:
            return yaml.safe_dump(data) if draw(st.integers(0, 9)) == 7 else json.dumps(data)
        except ValueError:
            return json.dumps(data, allow_nan=True)
    if kind == "text":
        return draw(st.text(max_size=400))
    if kind == "bytes":
        return draw(st.binary(max_size=400))
    if kind == "data":
        return json.dumps(draw(JUNK), allow_nan=True)
    return draw(st.sampled_from([raw for raw, _ in HOSTILE]))


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Store:
    return Store(tmp_path_factory.mktemp("boards"))


@pytest.mark.rule("BS-SETUP")
@settings(max_examples=examples(5000))
@given(raw=board_texts())
def test_any_board_file_is_a_board_or_the_loaders_refusal(raw, store):
    """Digest section 10 and the input contract (section 11): whatever the file holds, the loader gives a checked
    board or a RuleError with a short message, never another exception, within the time bound and without the
    process growing past the memory bound; a refused file saves no game."""
    before = resident()
    board, refused, seconds = loaded(raw)
    assert seconds < SECONDS and resident() - before < GROWTH
    if board is None:
        assert refused.rule in RULES and len(refused.message) < 400, refused.message
        with pytest.raises(RuleError):
            GameSession.new(store, "border_states", {"board": raw})
        assert store.sessions() == []


@pytest.mark.rule("BS-SETUP", "BS-D.10")
def test_the_outline_to_fill_in_holds_what_the_rules_fix_and_nothing_printed():
    """Digest section 10: the board to fill in names the eight border states of the rules, has 6 Union and 5 CSA home
    states and 2 CSA and 4 Union commander faces, and no printed value; it is refused until filled, by the first
    field missing, in a player's words."""
    from engines.border_states.board import board_outline
    outline = board_outline()
    borders = [a["name"] for a in outline["areas"] if a["border"]]
    assert sorted(borders) == sorted(["West Virginia", "Maryland", "Virginia", "North Carolina", "Kentucky",
                                      "Tennessee", "Missouri", "Arkansas"])
    assert [a.get("side") for a in outline["areas"] if not a["border"]] == ["U"] * 6 + ["C"] * 5
    assert {s: len(f) for s, f in outline["commanders"].items()} == {"C": 2, "U": 4}
    assert all(set(a) <= {"name", "side", "border"} for a in outline["areas"])
    with pytest.raises(RuleError, match=r"^State 1 \(West Virginia\): the side is missing"):
        board_from_data(outline)
