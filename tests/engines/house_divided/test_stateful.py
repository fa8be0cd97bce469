"""Whole games played at random by legal choices (tests/engines/games.py), from the EXAMPLE setup and from random
small maps, every option at random: after every step the rules' bounds hold (marches, march-moves, the firing limit,
the garrison's 2 hits, MM on its track, one unit lost a box to supply, a retreat clear of the enemy), undo restores
the state, and the saved log replays to the same state.

A game from the EXAMPLE's turn 1 runs all 40 turns (about a thousand actions); the random setups start in the last
turns, so their games are short."""
from __future__ import annotations


import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.store import Store
from engines.house_divided import ENGINE
from engines.house_divided import battle as fight
from engines.house_divided.basic import ENTRENCHMENT, FIRING_ORDERS, STRENGTH_KEYS
from engines.house_divided.options import OPTIONS
from engines.house_divided.rules import (
    ARMS,
    CSA,
    FACES,
    FIRE_CAP,
    GARRISON,
    GARRISON_HITS,
    GRADES,
    LEADER_MARCH_MOVES,
    LEADERS,
    LINE_TYPES,
    MAX_MARCHES,
    MAX_STRENGTH,
    NEUTRAL,
    SIDES,
    SPLIT_UNITS,
    SPLIT_UNITS_OF,
    TURNS,
    UNIT_MARCHES,
    USA,
    YEARS,
)
from engines.house_divided.state import ELIMINATED, ON_MAP, other
from tests.engines.games import play_whole_game
from tests.engines.house_divided.support import TEST_BASIC, box, line, setup, unit
from tests.scale import examples

OPTION_CHOICES = st.fixed_dictionaries({}, optional={o.key: st.sampled_from([c for c, _ in o.choices])
                                                     for o in OPTIONS if o.choices})
ALIGNMENT = st.sampled_from([USA, CSA, NEUTRAL])
# Designated boxes a small map may hold, so the rules that name them come into play (digest section 8).
ROLES = {"washington": USA, "richmond": CSA, "europe": NEUTRAL, "baltimore": NEUTRAL}


@st.composite
def small_maps(draw) -> dict:
    """A valid players' map (HD-8): 2-5 boxes of any shield, recruitment points, port and fort, some of Washington,
    Richmond, Baltimore (Maryland's one border city) and Europe; rail, river and road lines between them."""
    boxes = [box(f"B{i}", draw(ALIGNMENT), draw(st.integers(0, 3)), draw(st.booleans()), draw(st.booleans()))
             for i in range(1, draw(st.integers(2, 5)) + 1)]
    for role in draw(st.lists(st.sampled_from(sorted(ROLES)), unique=True, max_size=4)):
        boxes.append(box(role, ROLES[role], int(role != "europe"), port=role == "baltimore"))
    ids = [b["id"] for b in boxes if b["id"] != "europe"]
    pairs = st.tuples(st.sampled_from(ids), st.sampled_from(ids), st.sampled_from(LINE_TYPES))
    lines = {(min(a, b), max(a, b), kind) for a, b, kind in draw(st.lists(pairs, max_size=8)) if a != b}
    return {"boxes": boxes, "lines": [line(a, b, kind) for a, b, kind in sorted(lines)]}


def basic_rules():
    """The players' basic-rules form (HD-4.10): every strength 0-6, a firing order and an entrenchment rule; or
    left empty (the players then enter the hits they score)."""
    filled = st.fixed_dictionaries({
        "strength": st.fixed_dictionaries({k: st.integers(0, MAX_STRENGTH) for k in STRENGTH_KEYS}),
        "firing_order": st.sampled_from([c for c, _ in FIRING_ORDERS]),
        "entrenchment": st.sampled_from([c for c, _ in ENTRENCHMENT]),
        "garrison_as": st.sampled_from(GRADES)})
    return st.one_of(filled, st.just({}), st.just(TEST_BASIC))


@st.composite
def small_setups(draw, options: dict) -> dict:
    """A valid setup on a small map in the last turns of the game: 1-4 units a side anywhere but Europe, the
    leaders on the map or waiting with ratings (their split cap at most under A22 (b), so every split the
    choices offer is legal), MM and the track, landed and contained ports, the Southern cities."""
    game_map = draw(small_maps())
    ids = [b["id"] for b in game_map["boxes"] if b["id"] != "europe"]
    ports = [b["id"] for b in game_map["boxes"] if b["port"] and b["id"] != "europe"]
    control = {b: draw(st.sampled_from([USA, CSA, ""])) for b in ids}
    units = [unit(f"{side} {i}", side, draw(st.sampled_from(ids)), draw(st.sampled_from(GRADES)),
                  arm=draw(st.sampled_from(ARMS)), face=draw(st.sampled_from(FACES)), entrenched=draw(st.booleans()))
             for side in SIDES for i in range(1, draw(st.integers(1, 4)) + 1)]
    sides_at = {b: {u["side"] for u in units if u["box"] == b} for b in ids}
    capped = options.get("leader_split") == "capped"
    leaders = []
    for name in draw(st.lists(st.sampled_from(sorted(LEADERS)), unique=True)):
        top = SPLIT_UNITS_OF.get(name, SPLIT_UNITS) if capped else 9
        free = [b for b in ids if LEADERS[name] in sides_at[b] or not sides_at[b]]  # not alone with the enemy
        leaders.append({"name": name, "front": draw(st.integers(0, top)),
                        "back": draw(st.one_of(st.none(), st.integers(0, top))),
                        "box": draw(st.sampled_from(["", *free]))})
    mm = {side: draw(st.integers(0, 40)) for side in SIDES}
    landed = draw(st.lists(st.sampled_from(ports), unique=True)) if ports else []
    contained = [b for b in landed if sides_at[b] == set(SIDES) and draw(st.booleans())]
    return {"map": game_map, "control": control, "units": units, "leaders": leaders, "mm": mm,
            "mm_track": draw(st.one_of(st.none(), st.integers(max(1, *mm.values()), 60))),
            "turn": draw(st.integers(TURNS - 1, TURNS)), "year": draw(st.sampled_from(YEARS)),
            "landed_ports": landed, "contained": contained,
            "southern_cities": draw(st.lists(st.sampled_from(ids), unique=True, max_size=7)),
            "basic_rules": draw(basic_rules())}


def check(before, action, step) -> None:
    """The rules' bounds after every step."""
    state = step.state
    assert state.mm_usa >= 0 and state.mm_csa >= 0                                          # HD-6.3
    assert state.mm_track is None or max(state.mm_usa, state.mm_csa) <= state.mm_track, action
    assert state.marches_left is None or 0 <= state.marches_left <= MAX_MARCHES             # HD-5.2
    assert all(0 <= l.moves <= LEADER_MARCH_MOVES for l in state.leaders)                   # HD-5.7
    assert state.battle or all(l.status != ON_MAP or state.units_in(l.box, l.side) or
                               not state.units_in(l.box, other(l.side)) for l in state.leaders), \
        "a leader alone with the enemy is captured (HD-5.7)"
    names = [u.name for u in state.units]
    assert len(names) == len(set(names)), "every unit has a name of its own (HD-2)"
    for u in state.on_map():
        assert 0 <= u.marches <= UNIT_MARCHES                                               # HD-5.2
        assert u.box != state.europe or u.foreign, "only FI units are in Europe (HD-5.9)"
        assert state.game_map.has(u.box) or u.box == state.europe    # Europe: off the map if it has no box
    assert state.europe not in state.control, "Europe is no one's (HD-8)"
    assert state.battle or all(state.units_in(b, USA) and state.units_in(b, CSA) for b in state.contained)  # HD-5.4
    kind = action["type"]
    if kind in ("march", "entrench", "breakout"):
        assert state.marches_left == before.marches_left - 1, "a march is spent (HD-5.2)"
    if kind == "supply_loss":
        lost = [u for u in before.on_map(before.side) if state.unit(u.name).status == ELIMINATED]
        assert len(lost) == 1, "exactly one unit a box (HD-5.1)"
    if kind == "retreat":
        enemy = other(action["side"])
        assert state.controller(action["to"]) != enemy and not state.units_in(action["to"], enemy), \
            "a retreat goes where the enemy neither holds nor stands (HD-3)"
    battle = state.battle
    if battle:
        for bside in battle.sides:
            assert fight.limit(state, battle, bside.side) <= FIRE_CAP                       # HD-5.6
            assert set(bside.routed) <= set(bside.units) | {GARRISON} and bside.hits_due >= 0
            assert bside.garrison is None or 0 <= bside.garrison <= GARRISON_HITS           # HD-4.11
    if kind in ("fire", "record_fire"):
        fired = action.get("units")
        cap = fight.limit(before, before.battle, action.get("side") or fight.due(before).side)
        assert fired is None or len(fired) <= cap, "the firing limit (HD-5.6)"


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Store:
    """One store for every game of the module (a store opened per game cost a quarter of the game's time)."""
    return Store(tmp_path_factory.mktemp("games"))


def play(options, data, seed, store: Store):
    replay = play_whole_game(ENGINE, options, data, seed, check, store)
    assert replay.state.victory is not None, "the game ends: turn 40 over, or a basic-game victory (HD-6.2)"
    return replay


@pytest.mark.rule("HD-3", "HD-5.1", "HD-5.2", "HD-5.6", "HD-5.7", "HD-4.11", "HD-6.2")
@settings(max_examples=examples(3), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTION_CHOICES, seed=st.integers(0, 2 ** 32))
def test_whole_games_from_the_example_setup(options, seed, store):
    play(options, setup(basic_rules=TEST_BASIC), seed, store)


@pytest.mark.rule("HD-2", "HD-3", "HD-8", "HD-5.1", "HD-5.2", "HD-5.4", "HD-5.7", "HD-5.9", "HD-4.11", "HD-6.2")
@settings(max_examples=examples(1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2 ** 32))
def test_whole_games_from_a_random_small_setup(data, seed, store):
    options = data.draw(OPTION_CHOICES, label="options")
    play(options, data.draw(small_setups(options), label="setup"), seed, store)
