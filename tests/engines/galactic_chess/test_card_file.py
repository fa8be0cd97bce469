"""The card file as the players give it (digest section 10: a JSON or YAML file with the section 2 fields), and the
setup that carries the cards: read within bounds (companion.loading); a broken or hostile file is refused with the
reader's message under GC-3 (or the rule of the card's field), quickly, in little memory, and no game is saved."""
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
from engines.galactic_chess.cards import read_card_file, read_setup_file
from engines.galactic_chess.example import EXAMPLE_EVENTS, EXAMPLE_FORTRESS, EXAMPLE_PERSONS, example_setup
from engines.galactic_chess.rules import RULES
from tests.scale import examples

SECONDS, BYTES = 3.0, 32 * 1024 * 1024   # one card file: at most this much CPU time and this much memory
GROWTH = 256 * 1024 * 1024   # how far one file may raise the process's high-water mark (a blow-up takes far more)
FIELDS = {"persons", "events", "fortress"}
LAUGHS = ("a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
          "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n")


def cards() -> dict:
    return json.loads(json.dumps({"persons": EXAMPLE_PERSONS, "events": EXAMPLE_EVENTS, "fortress": EXAMPLE_FORTRESS}))


def with_value(path: tuple, value) -> str:
    """The example card file's JSON with one value replaced."""
    data = cards()
    place = data
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = value
    return json.dumps(data)


def loaded(raw) -> tuple[dict | None, RuleError | None, float]:
    """The cards read from `raw`, or the refusal; with the time it took."""
    begun = time.process_time()
    try:
        return read_card_file(raw), None, time.process_time() - begun
    except RuleError as refused:
        return None, refused, time.process_time() - begun


def peak_memory(raw) -> int:
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
    ("42", "holds persons, events, fortress"),
    ("", "holds persons, events, fortress"),
    ('{"persns": []}', "holds persons, events, fortress"),
    (" " * 600_001, "at most 500 kB is read"),
    (LAUGHS, "anchors or aliases"),
    ("[" * 5000 + "]" * 5000, "nested too deep"),
    ('{"persons": 1e400}', "number too large"),
    ('{"persons": [{"period": ' + "9" * 5000 + "}]}", "5000 digits"),
    ('{"persons": [{"name": "\\ud800"}]}', "unpaired surrogate"),
    (b"\xff\xfe{}", "not text in UTF-8"),
    ("persons: !!python/object:os.system ls", "not valid YAML"),
    ("persons: 2024-01-01", "kind it cannot hold"),
    (with_value(("persons", 0, "special"), "x" * 3000), "characters"),
    (with_value(("events",), [{"name": "x", "text": "y"}] * 7000), "more than 20000 values"),
    (with_value(("persons", 0, "stars"), "3"), "must be a whole number, not '3'"),
    (with_value(("persons", 0, "camp"), "<img src=x onerror=alert(1)>" * 10), "the printed camp is EMP"),
    (with_value(("persons", 1, "name"), "Demo Marshal Aurum"), "its own name"),
    (with_value(("fortress",), None), "Iserlohn"),
]


@pytest.mark.rule("GC-3")
@pytest.mark.parametrize("raw, phrase", HOSTILE, ids=[f"{i}-{p}" for i, (_, p) in enumerate(HOSTILE)])
def test_a_hostile_card_file_is_refused_with_a_short_message(raw, phrase, tmp_path):
    """Digest sections 10 and 11: a file that is not a card file is refused by name, a bad value quoted by a short
    prefix, in little time and memory; the same data given as a game's setup saves no game."""
    read, refused, seconds = loaded(raw)
    assert read is None and refused.rule in RULES
    assert phrase in refused.message and len(refused.message) < 300, refused.message
    assert seconds < SECONDS and peak_memory(raw) < BYTES
    store = Store(tmp_path)
    try:
        data = json.loads(raw)
    except (ValueError, TypeError, RecursionError):
        return
    if isinstance(data, dict) and set(data) <= FIELDS:
        with pytest.raises(RuleError):
            GameSession.new(store, "galactic_chess", {"players": ["Ann", "Ben", "Cat"], **data})
        assert store.sessions() == []


@pytest.mark.rule("GC-3")
def test_the_card_file_in_json_or_yaml_or_as_typed_is_the_same():
    """Digest section 10: the same cards as JSON text, YAML text, bytes or the tables' data."""
    data = cards()
    assert read_card_file(json.dumps(data)) == data == read_card_file(yaml.safe_dump(data))
    assert read_card_file(json.dumps(data).encode()) == data == read_card_file(data)


@pytest.mark.rule("GC-3")
def test_a_setup_holding_junk_is_refused_before_anything_is_saved(tmp_path):
    store = Store(tmp_path)
    deep: list = []
    for _ in range(40):
        deep = [deep]
    for junk in ({"players": ["Ann", "Ben", "Cat"], "persons": deep}, {**example_setup(), "example": "x" * 5000},
                 {**example_setup(), "fortress": {"strategy": float("inf"), "attack": 1, "defence": 1}}):
        with pytest.raises(RuleError) as refused:
            GameSession.new(store, "galactic_chess", junk)
        assert refused.value.rule == "GC-3" and len(str(refused.value)) < 300
    assert store.sessions() == []


# --- any text at all: the cards or the reader's refusal ----------------------------------------------------------

JUNK = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
                    max_leaves=25)
PATHS = [("persons",), ("persons", 0), ("persons", 0, "name"), ("persons", 2, "camp"), ("persons", 3, "plot"),
         ("persons", 4, "counter_only"), ("persons", 5, "role"), ("events",), ("events", 0), ("events", 1, "kind"),
         ("events", 4, "size"), ("events", 5, "effect"), ("fortress",), ("fortress", "defence")]


@st.composite
def card_texts(draw):
    """The example card file with one value replaced by junk, in JSON or YAML; or any text, bytes or data at all;
    or one of the hostile files."""
    kind = draw(st.sampled_from(["edited", "edited", "data", "text", "bytes", "plain", "hostile"]))
    if kind == "edited":
        data = copy.deepcopy(cards())
        path = draw(st.sampled_from(PATHS))
        place = data
        for key in path[:-1]:
            place = place[key]
        place[path[-1]] = draw(JUNK)
        try:
            return yaml.safe_dump(data) if draw(st.integers(0, 9)) == 7 else json.dumps(data)
        except ValueError:
            return json.dumps(data, allow_nan=True)
    if kind == "data":
        return draw(JUNK)
    if kind == "text":
        return draw(st.text(max_size=400))
    if kind == "bytes":
        return draw(st.binary(max_size=400))
    if kind == "plain":
        return json.dumps(draw(JUNK), allow_nan=True)
    return draw(st.sampled_from([raw for raw, _ in HOSTILE]))


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Store:
    return Store(tmp_path_factory.mktemp("cards"))


@pytest.mark.rule("GC-3")
@settings(max_examples=examples(5000), deadline=None)
@given(raw=card_texts())
def test_any_card_file_is_cards_or_the_readers_refusal(raw, store):
    """Digest sections 10 and 11: whatever the file (or the tables' data) holds, the reader gives checked cards or a
    RuleError with a short message, never another exception, within the time bound and without the process growing
    past the memory bound; a game set up with refused cards is not saved."""
    before = resident()
    read, refused, seconds = loaded(raw)
    assert seconds < SECONDS and resident() - before < GROWTH
    if read is None:
        assert refused.rule in RULES and len(refused.message) < 400, refused.message
        if isinstance(raw, dict) and set(raw) <= FIELDS:
            with pytest.raises(RuleError):
                GameSession.new(store, "galactic_chess", {"players": ["Ann", "Ben", "Cat"], **raw})
        assert store.sessions() == []
    else:
        assert set(read) == {"persons", "events", "fortress"}


@pytest.mark.rule("GC-3")
def test_a_saved_setup_opens_as_the_same_players_and_cards():
    """GC-3: a setup file holds the players, clockwise, and the card file; a card file alone opens with no players;
    players that are not a short list of names are refused by name."""
    setup = {"players": ["Dora", "Emil", "Fay"], **cards()}
    assert read_setup_file(json.dumps(setup)) == setup == read_setup_file(yaml.safe_dump(setup))
    assert read_setup_file(json.dumps(cards())) == {"players": [], **cards()}
    for players in ("Dora", ["Dora", ""], ["A", "B", "C", "D", "E", "F"], [1, 2, 3]):
        with pytest.raises(RuleError, match="the players are a list of up to 5 names"):
            read_setup_file(json.dumps({**cards(), "players": players}))


@st.composite
def setup_texts(draw):
    """A card file as `card_texts` makes it, with players (a list of names, or junk) in front of its JSON."""
    raw = draw(card_texts())
    if isinstance(raw, str) and raw.startswith("{") and draw(st.booleans()):
        players = draw(st.one_of(st.lists(st.text(max_size=20), max_size=7), JUNK))
        return '{"players": ' + json.dumps(players, allow_nan=True) + ", " + raw[1:]
    return raw


@pytest.mark.rule("GC-3")
@settings(max_examples=examples(5000), deadline=None)
@given(raw=setup_texts())
def test_any_setup_file_is_a_setup_or_the_readers_refusal(raw):
    """Whatever a setup file holds, the reader gives the players and checked cards or a RuleError with a short
    message, never another exception, within the time and memory bounds."""
    before = resident()
    begun = time.process_time()
    try:
        read = read_setup_file(raw)
    except RuleError as refused:
        assert refused.rule in RULES and len(refused.message) < 400, refused.message
    else:
        assert set(read) == {"players", "persons", "events", "fortress"}
        assert all(isinstance(p, str) and p for p in read["players"])
    assert time.process_time() - begun < SECONDS and resident() - before < GROWTH
