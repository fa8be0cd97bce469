"""Whole games played at random by legal choices (tests/engines/games.py), from the example setup and from random
boards of the players' own components, with every option at random: after every step the placement limits,
supply, pieces, cards, the tracks and the combat dice stay in range, a recruit never passes the maximum force, and
the board never changes; undo restores the state; the saved log replays to the same state; every game ends."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.store import Store
from engines.border_states import ENGINE
from engines.border_states.options import OPTIONS
from engines.border_states.rules import (BORDER_LIMIT, BORDER_STATES, CARD_LIMIT, COMMANDER_FACES, DEPLOY, EFFECTS,
                                         HOME_LIMIT, HOME_STATES, ROUNDS, SUDDEN_VP, SUPPLY_PER_UNIT, C, U)
from engines.border_states.state import COMBAT, OVER
from tests.engines.games import play_whole_game
from tests.scale import examples

SIDES = (C, U)
OPTION_CHOICES = st.fixed_dictionaries({}, optional={o.key: st.sampled_from([c for c, _ in o.choices])
                                                     for o in OPTIONS})
CARD_VALUES = {"ADD_STOCK_DICE": st.integers(0, 2), "ADD_FACE": st.integers(1, 6),
               "MODIFY": st.sampled_from([-2, -1, 1, 2]), "MODIFY_EITHER": st.integers(1, 2),
               "COSTS_ACTION": st.just(0), "FREE_TEXT": st.just(0)}


@st.composite
def cards(draw, side: str) -> list[dict]:
    """A small deck: 0-4 kinds of card, 1-3 copies each, of any phase and effect (digest section 10)."""
    deck = []
    for i in range(draw(st.integers(0, 4))):
        effect = draw(st.sampled_from(EFFECTS))
        deck.append({"name": f"{side} card {i + 1}", "copies": draw(st.integers(1, 3)),
                     "phase": draw(st.sampled_from(["combat", "action"])), "effect": effect,
                     "value": draw(CARD_VALUES[effect])})
    return deck


@st.composite
def boards(draw, four_a_side: bool) -> dict:
    """A valid board file (digest section 10): the eight border states, each with a side (at least 3 a side, A20;
    4 with the option), a combat number and VP; 6 Union and 5 CSA home states with success values 2-6; a random
    connected adjacency; short damage tracks; a distrust loop; commander faces of 1-3 actions; pieces; decks."""
    borders = draw(st.permutations(BORDER_STATES))
    csa_side = 4 if four_a_side else draw(st.integers(3, 5))
    numbers = draw(st.permutations(range(1, 9)))
    areas = [{"name": n, "side": C if i < csa_side else U, "border": True, "number": numbers[i],
              "vp": draw(st.integers(0, 4))} for i, n in enumerate(borders)]
    for side, name in ((U, "Union home"), (C, "CSA home")):
        areas += [{"name": f"{name} {i + 1}", "side": side, "border": False, "success": draw(st.integers(2, 6))}
                  for i in range(HOME_STATES[side])]
    names = draw(st.permutations([a["name"] for a in areas]))
    adjacency = {tuple(sorted((n, names[draw(st.integers(0, i - 1))]))) for i, n in enumerate(names) if i}
    extra = draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names)), max_size=10))
    adjacency |= {tuple(sorted(p)) for p in extra if p[0] != p[1]}
    track = st.lists(st.fixed_dictionaries({"force_cut": st.integers(0, 3), "star": st.integers(0, 4)}), max_size=4)
    faces = {side: [{"name": f"{side} commander {i + 1}", "actions": draw(st.integers(1, 3))}
                    for i in range(COMMANDER_FACES[side])] for side in SIDES}
    return {"areas": areas, "adjacency": [list(p) for p in sorted(adjacency)], "damage_u": draw(track),
            "damage_c": draw(track), "distrust_length": draw(st.integers(1, 6)), "commanders": faces,
            "units": {C: draw(st.integers(8, 12)), U: draw(st.integers(7, 12))},
            "cards": {side: draw(cards(side)) for side in SIDES}}


@st.composite
def deployments(draw, board: dict) -> tuple[dict, dict]:
    """BS-SETUP all at once: 8 CSA and 7 Union units in own-side border states, 3 at most in each, and where each
    commander unit stands (in the pool only while another piece is left there)."""
    deployment, commanders = {}, {}
    for side in SIDES:
        own = [a["name"] for a in board["areas"] if a["border"] and a["side"] == side]
        counts = dict.fromkeys(own, 0)
        for _ in range(DEPLOY[side]):
            room = [a for a in own if counts[a] < BORDER_LIMIT]
            counts[draw(st.sampled_from(room))] += 1
        deployment[side] = {a: n for a, n in counts.items() if n}
        in_pool = board["units"][side] > DEPLOY[side] and draw(st.booleans())
        commanders[side] = "" if in_pool else draw(st.sampled_from(sorted(deployment[side])))
    return deployment, commanders


@st.composite
def random_setups(draw) -> tuple[dict, dict]:
    """Options at random and a setup fitting them: a random board, deployed at once or unit by unit."""
    options = draw(OPTION_CHOICES)
    board = draw(boards(options.get("four_a_side", False)))
    if draw(st.booleans()):
        return options, {"board": board}
    deployment, commanders = draw(deployments(board))
    return options, {"board": board, "deployment": deployment, "commanders": commanders}


def checker():
    """The invariants of a step, with the faces each side's cards added to the combat under way."""
    added = {}

    def check(state, action, step) -> None:
        after = step.state
        assert after.board is state.board, "no action changes the board"
        if action["type"] == "recruit" and after.on_board(state.turn) > state.on_board(state.turn):
            assert after.on_board(state.turn) == state.on_board(state.turn) + 1 <= state.max_force(state.turn), \
                "BS-REC / BS-D.3: no recruit above the maximum force"
        if action["type"] == "commit_supply":
            side = state.battle.turn
            assert action.get("count", 0) <= min(SUPPLY_PER_UNIT * state.count(state.battle.area, side),
                                                 state.supply[side]), "CMB.4: 2 supply dice a unit"
        battle = state.battle
        if action["type"] == "roll_card" and state.board.card(battle.turn, action["card"]).effect == "ADD_FACE":
            key = (state.round, battle.area, battle.turn)
            added[key] = added.get(key, 0) + 1
        placement(after)
        pieces_cards_and_tracks(after)
        combat_dice(after, added)
    return check


def placement(state) -> None:
    """BS-D.1: 3 a side in a border state; own units only, 1 at most, in a home state; BS-D.5: an entrenched unit
    stands in its own side's border state."""
    for area in state.board.areas:
        for side in SIDES:
            limit = BORDER_LIMIT if area.border else HOME_LIMIT if area.side == side else 0
            assert 0 <= state.count(area.name, side) <= limit, (area.name, side)
    for name in state.entrenched:
        area = state.board.area(name)
        assert area.border and state.count(name, area.side) >= 1, name


def pieces_cards_and_tracks(state) -> None:
    """BS-D.8: supply 0..cap; BS-D.11: units on the board and lost within the pieces; BS-D.9: deck + hand + discard
    is the deck; BS-D.10: the commander cards in range, the commander unit with a unit; the tracks in range."""
    for side in SIDES:
        assert 0 <= state.supply[side] <= state.supply_cap()
        assert state.on_board(side) + state.lost[side] <= state.board.units[side]
        assert min(state.deck[side], state.hand[side], state.discard[side]) >= 0
        assert state.deck[side] + state.hand[side] + state.discard[side] == state.board.deck_size(side)
        assert 1 <= state.commander[side] <= COMMANDER_FACES[side]
        where = state.commander_at[side]
        assert not where or state.count(where, side) >= 1, (side, where)
    assert -len(state.board.damage_c) <= state.damage <= len(state.board.damage_u)
    assert 0 <= state.distrust < state.board.distrust_length


def combat_dice(state, added: dict) -> None:
    """BS-CMB: a combat only in the combat phase; a side uses one card in it (BS-CARD); the dice it has taken and
    those left are its combat dice, its supply dice and the faces its card added; a throw holds the dice left."""
    battle = state.battle
    assert (battle is not None) == (state.phase == COMBAT)
    if battle is None:
        return
    assert all(battle.cards.count(side) <= CARD_LIMIT for side in SIDES)
    for side, tray in battle.trays.items():
        taken = sum(tray.confirmed) + tray.damage
        assert tray.left + taken == battle.dice[side] + battle.supply[side] + added.get(
            (state.round, battle.area, side), 0)
    if battle.throw:
        assert sum(battle.throw) == battle.trays[battle.turn].left


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Store:
    """One session database for every game of the module (each game saved as its own session)."""
    return Store(tmp_path_factory.mktemp("sessions"))


def play(options, setup, seed, store):
    replay = play_whole_game(ENGINE, options, setup, seed, checker(), store)
    state = replay.state
    assert state.phase == OVER and 1 <= state.victory.round <= ROUNDS, "the game ends (BS-VIC)"
    if state.victory.round < ROUNDS:
        assert state.victory.side == C and state.vp(C) >= SUDDEN_VP, "BS-VIC.1: only 10 CSA VP end it early"
    return replay


@pytest.mark.rule("BS-D.1", "BS-D.3", "BS-D.8", "BS-D.9", "BS-D.10", "BS-CMB", "BS-REC", "BS-VIC")
@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTION_CHOICES, seed=st.integers(0, 2 ** 32))
def test_whole_games_from_the_example_setup(store, options, seed):
    play(options, ENGINE.example_setup(), seed, store)


@pytest.mark.rule("BS-SETUP", "BS-D.1", "BS-D.3", "BS-D.8", "BS-D.9", "BS-D.10", "BS-CMB", "BS-CARD", "BS-MOD",
                  "BS-REC", "BS-VIC")
@settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chosen=random_setups(), seed=st.integers(0, 2 ** 32))
def test_whole_games_from_a_random_board(store, chosen, seed):
    options, setup = chosen
    play(options, setup, seed, store)
