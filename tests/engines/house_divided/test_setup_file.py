"""The setup and map files as the players give them (HD-2, digest section 8): JSON or YAML read within bounds
(companion.loading); a broken or hostile file is refused with the loader's message under HD-2 or HD-8, quickly, in
little memory, quoting at most a short prefix of a bad value, and no game is saved."""
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
from engines.house_divided import ENGINE
from engines.house_divided.example import example_setup
from engines.house_divided.gamemap import parse_map_text
from engines.house_divided.rules import RULES
from engines.house_divided.setup_file import read_setup
from tests.scale import examples

SECONDS, BYTES = 3.0, 32 * 1024 * 1024   # one file: at most this much CPU time and this much memory
GROWTH = 256 * 1024 * 1024   # how far one file may raise the process's high-water mark (a blow-up takes far more)
OPTIONS = {}

# The map of issue 14: 424 bytes of YAML aliases that took 10.9 s and 710 MB before they were refused.
BOMB = ("boxes: &a [{id: a}, {id: a}, {id: a}, {id: a}, {id: a}, {id: a}, {id: a}, {id: a}, {id: a}]\n"
        "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
        "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
        "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n"
        "lines: [*g, *g, *g, *g, *g, *g, *g]\n").ljust(424)


def setup_with(path: tuple, value) -> str:
    """The EXAMPLE setup's JSON with one value replaced."""
    data = example_setup()
    place = data
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = value
    return json.dumps(data)


def loaded(raw) -> tuple[object | None, RuleError | None, float]:
    """The game started from the setup file `raw`, or the refusal; with the time it took."""
    begun = time.process_time()
    try:
        return ENGINE.start(OPTIONS, read_setup(raw)), None, time.process_time() - begun
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
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


HOSTILE = [
    (BOMB, "anchors or aliases"),
    ("{not json", "not valid JSON"),
    ("[1, 2", "not valid JSON"),
    ("42", "a table"),
    ("", "a table"),
    (" " * 1_000_001, "at most 1000 kB"),
    ("[" * 5000 + "]" * 5000, "nested too deep"),
    ("- " * 40 + "x", "nested too deep"),
    ('{"mm": {"USA": 1e400}}', "number too large"),
    ('{"turn": ' + "9" * 5000 + "}", "5000 digits"),
    ('{"label": "\\ud800"}', "unpaired surrogate"),
    (b"\xff\xfe{}", "not text in UTF-8"),
    ("map: !!python/object:os.system ls", "not valid YAML"),
    ("year: 2024-01-01", "kind it cannot hold"),
    (setup_with(("map", "boxes", 0, "name"), "<img src=x onerror=alert(1)>" + "x" * 2000), "characters"),
    (setup_with(("map", "lines"), [{"from": "x" * 150, "to": "y" * 150, "type": "rail"}]), "dangling"),
    (setup_with(("units",), [dict(u, name="<script>" + "u" * 150) for u in example_setup()["units"][:2]]), "unique"),
]


@pytest.mark.rule("HD-2", "HD-8")
@pytest.mark.parametrize("raw, phrase", HOSTILE, ids=[f"{i}-{p}" for i, (_, p) in enumerate(HOSTILE)])
def test_a_hostile_setup_file_is_refused_with_a_short_message(raw, phrase, tmp_path):
    """A file that is not a setup is refused by name, its bad value quoted by a short prefix; the refusal takes
    little time and memory, and no game is saved."""
    game, refused, seconds = loaded(raw)
    assert game is None and refused.rule in ("HD-2", "HD-8")
    assert phrase in refused.message and len(refused.message) < 300, refused.message
    assert seconds < SECONDS and peak_memory(raw) < BYTES
    store = Store(tmp_path)
    with pytest.raises(RuleError):
        GameSession.new(store, "house_divided", read_setup(raw))
    assert store.sessions() == []


@pytest.mark.rule("HD-8")
def test_the_alias_map_of_issue_14_is_refused_at_once():
    """Issue 14: a 424-byte map of YAML aliases is refused outright, in well under a second and a few megabytes,
    with a short message, as a map file and as a setup file."""
    assert len(BOMB.encode()) == 424
    for read in (parse_map_text, read_setup):
        tracemalloc.start()
        begun = time.process_time()
        with pytest.raises(RuleError) as caught:
            read(BOMB)
        seconds, peak = time.process_time() - begun, tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert "anchors or aliases" in caught.value.message and len(caught.value.message) < 200
        assert seconds < 0.5 and peak < 4 * 1024 * 1024


@pytest.mark.rule("HD-2", "HD-8")
def test_a_setup_or_a_map_file_in_json_or_yaml_reads_the_same():
    """The setup file in JSON or YAML is the same setup; a map file alone becomes the map of a setup."""
    setup = example_setup()
    assert read_setup(json.dumps(setup)) == setup == read_setup(yaml.safe_dump(setup).encode())
    assert read_setup(yaml.safe_dump(setup["map"])) == {"map": setup["map"]}
    assert parse_map_text(json.dumps(setup["map"])) == parse_map_text(yaml.safe_dump(setup["map"]), "yaml")


# --- any text at all: a game or the loader's refusal ------------------------------------------------------------

JUNK = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
                    max_leaves=25)
PATHS = [("map",), ("map", "boxes"), ("map", "boxes", 0), ("map", "boxes", 0, "id"), ("map", "boxes", 1, "rp"),
         ("map", "boxes", 2, "x"), ("map", "lines"), ("map", "lines", 0), ("map", "lines", 0, "to"),
         ("map", "designated"), ("map", "label"), ("units",), ("units", 0), ("units", 0, "box"), ("units", 1, "grade"),
         ("leaders",), ("mm",), ("year",), ("turn",), ("calendar",), ("control",), ("landed_ports",), ("label",)]


@st.composite
def setup_texts(draw) -> str | bytes:
    """The EXAMPLE setup with one value replaced by junk, in JSON or YAML; or any text, bytes or data at all; or
    one of the hostile files."""
    kind = draw(st.sampled_from(["edited", "edited", "text", "bytes", "data", "hostile"]))
    if kind == "edited":
        data = copy.deepcopy(example_setup())
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
    return Store(tmp_path_factory.mktemp("setups"))


@pytest.mark.rule("HD-2", "HD-8")
@settings(max_examples=examples(5000), deadline=None)
@given(raw=setup_texts())
def test_any_setup_file_is_a_game_or_the_loaders_refusal(raw, store):
    """Whatever the file holds, as a setup or as a map, the loaders give a checked game or map, or a RuleError with
    a short message, never another exception, within the time bound and without the process growing past the
    memory bound; a refused setup saves no game."""
    before = resident()
    game, refused, seconds = loaded(raw)
    assert seconds < SECONDS and resident() - before < GROWTH
    if game is None:
        assert refused.rule in RULES and len(refused.message) < 400, refused.message
        try:
            setup = read_setup(raw)
        except RuleError:
            setup = None
        if setup is not None:
            with pytest.raises(RuleError):
                GameSession.new(store, "house_divided", setup)
        assert store.sessions() == []
    try:
        parse_map_text(raw)
    except RuleError as refused_map:
        assert len(refused_map.message) < 400, refused_map.message


@pytest.mark.rule("HD-2")
def test_the_setup_tables_have_the_fields_the_setup_reads():
    """The form's tables give exactly the fields the map and the setup read, so a saved setup opens again."""
    from engines.house_divided.gamemap import BOX_FIELDS, LINE_FIELDS
    from engines.house_divided.setup_file import TABLES
    from engines.house_divided.state import LEADER_FIELDS, UNIT_FIELDS
    known = {"boxes": BOX_FIELDS, "lines": LINE_FIELDS, "units": UNIT_FIELDS, "leaders": LEADER_FIELDS}
    assert {k: {f.key for f in fields} for k, (_, fields) in TABLES.items()} == {k: set(v) for k, v in known.items()}


@pytest.mark.rule("HD-2")
def test_the_single_entries_of_a_setup_are_checked_for_their_kind():
    from engines.house_divided.setup_file import single_entries
    found = single_entries(example_setup())
    assert (found["mm"], found["year"], found["turn"], found["mm_track"]) == ({"USA": 34, "CSA": 29}, 1861, 1, None)
    assert found["landed_ports"] == ["P"] and found["calendar"] == [] and not found["basic_rules"].filled
    for change, message in (({"mm": {"USA": "many"}}, "Union MM must be a whole number"),
                            ({"turn": 41}, "The turn"), ({"calendar": "Jul 1861"}, None)):
        if message is None:
            assert single_entries(change)["calendar"] == ["Jul 1861"]
            continue
        with pytest.raises(RuleError, match=message):
            single_entries(change)


@pytest.mark.rule("HD-8")
def test_the_map_summary():
    from engines.house_divided.setup_file import map_summary
    summary = map_summary(example_setup()["map"])
    assert summary[1] == "11 boxes, 10 lines: the map is valid" and summary[0].startswith("EXAMPLE")
    with pytest.raises(RuleError, match="listed twice"):
        map_summary({"boxes": [{"id": "A"}, {"id": "A"}], "lines": []})
