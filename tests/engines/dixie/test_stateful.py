"""Whole games played at random by legal choices (tests/engines/games.py): from the fictional example decks and
from random small decks of the players' own cards (custom decks, DX-13.9), every option at random. After every
step: every card in exactly one place, hits within bounds, no leader alone with enemy units, at most one leader a
side, two terrain and two specials a phase in a position, the steps in the order of DX-5.0, a card that fired
moved only as horse artillery or by a flank attack; stacking within the limits whenever the rules require it.
Every game reaches its end (a side occupies enough enemy positions, day 3 ends, or no side can win any more):
no movement or deployment is ever left without a legal way on. Undo restores the state; the saved log replays."""
from __future__ import annotations

import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.store import Store
from engines.dixie import ENGINE
from engines.dixie.board import OFF_FIELD
from engines.dixie.flow import duty
from engines.dixie.options import OPTIONS
from engines.dixie.rules import MAX_SPECIALS, MAX_TERRAIN, RANKS, SIDES, TER
from engines.dixie.stacking import over_limit
from engines.dixie.state import COMBAT, DEPLOY, DUSK, MORALE, MOVEMENT, NIGHT, OVER, REINFORCEMENT
from tests.engines.dixie.support import historical_decks, leader, special, terrain, unit
from tests.engines.games import play_whole_game
from tests.scale import examples

FIXED = ("custom_decks", "historical", "extended_line", "day1_cards_only")
OPTION_CHOICES = st.fixed_dictionaries({}, optional={o.key: st.sampled_from([c for c, _ in o.choices])
                                                     for o in OPTIONS if o.choices and o.key not in FIXED})
MODIFIERS = {"TER": ["", "holder morale +1", "holder fire_in_cv -1", "attacker morale -1", "both enfilade_in_cv -1",
                     "holder fire_cv +1"],
             "SPC": ["", "own morale +1", "enemy morale -1", "own fire_cv +1"]}


@st.composite
def side_cards(draw, side: str, units: tuple[int, int]):
    """One side's own cards (DX-1.0, digest section 10), all in the muster: `units` units of any arm, CV 1-4,
    morale A-C, of corps I or II, artillery F1-F3 and sometimes horse; up to two leaders (any rank, a USA wing
    commander with its 3 corps, a stack bonus), perhaps a terrain card and a special (either timing, perhaps a
    stack bonus)."""
    rows, corps = [], st.sampled_from(["I", "II"])
    for number in range(1, draw(st.integers(*units)) + 1):
        kind = draw(st.sampled_from(["INF", "INF", "CAV", "ART"]))
        art = dict(fp_long=draw(st.integers(1, 2)), fp_short=draw(st.integers(2, 3)),
                   horse=draw(st.booleans())) if kind == "ART" else {}
        rows.append(unit(number, side, kind, cv=draw(st.integers(1, 4)), morale=draw(st.sampled_from("ABC")),
                         corps=draw(corps), **art))
    for number in range(10, 10 + draw(st.integers(0, 2))):
        rank = draw(st.sampled_from([r for r in RANKS if r != "wing" or side == "USA"]))
        rows.append(leader(number, side, draw(st.integers(0, 2)), draw(st.integers(0, 2)),
                           stack_bonus=draw(st.integers(0, 2)), rank=rank, corps=draw(corps),
                           **({"wing_corps": "I,II,III"} if rank == "wing" else {})))
    if draw(st.booleans()):
        rows.append(terrain(20, side, draw(st.sampled_from(["L", "C", "R", "LC", "CR", "LCR"])),
                            draw(st.sampled_from(MODIFIERS["TER"]))))
    if draw(st.booleans()):
        rows.append(special(21, side, timing=draw(st.sampled_from(["own", "enemy"])),
                            stack_bonus=draw(st.integers(0, 1)), modifiers=draw(st.sampled_from(MODIFIERS["SPC"]))))
    return rows


def decks(extended: bool):
    """Both sides' cards, with units enough to occupy the positions victory needs (DX-4.0, 3 with DX-13.8)."""
    units = (3, 5) if extended else (2, 4)
    return st.tuples(side_cards("CSA", units), side_cards("USA", units)).map(
        lambda sides: (extended, {"cards": sides[0] + sides[1]}))


DECKS = st.sampled_from([False] * 9 + [True]).flatmap(decks)   # the extended line (games 4 times as long) in 1 of 10
NEXT_STEP = {DEPLOY: {MORALE}, MORALE: {COMBAT, DUSK}, COMBAT: {MOVEMENT}, MOVEMENT: {REINFORCEMENT},
             REINFORCEMENT: {MORALE}, DUSK: {NIGHT}, NIGHT: {MORALE}}


def check(before, action, step) -> None:
    """The invariants of one step."""
    state = step.state
    assert [c.id for c in state.cards] == [c.id for c in before.cards]
    for c in state.cards:
        assert c.loc in OFF_FIELD or c.loc in state.holder                            # one place each
        assert c.hits >= 0 and 0 <= c.melee_hits <= c.hits                            # DX-7.3, DX-11.3, A21
        assert not c.spec.is_unit or c.hits <= c.spec.cv                              # DX-7.3: past its CV, gone
        assert c.loc not in ("eliminated", "reinforcements", "deck") or c.hits == 0
        if c.fired and c.moves and c.loc in state.holder:
            assert c.spec.horse or c.flank == "in", c                                 # DX-7.0, DX-7.2, DX-13.3
    for pos in state.positions:
        cards = state.at(pos)
        assert sum(1 for c in cards if c.spec.type == TER) <= MAX_TERRAIN              # DX-11.0a
        assert sum(1 for p in state.specials_played if p.split(" ")[0] == pos) <= MAX_SPECIALS   # DX-12.0
        for side in SIDES:
            assert sum(1 for c in cards if c.side == side and c.spec.type == "LDR" and not c.decoy) <= 1  # DX-11.0b
            if state.leader(pos, side) and not state.units(pos, side):                # DX-11.3: killed at once
                assert not state.units(pos, "USA" if side == "CSA" else "CSA")
    if state.step not in (DEPLOY, MOVEMENT, NIGHT, OVER) and over_limit(state):        # DX-3.1 / DX-8.3a
        assert duty(state) is not None or state.step == MORALE
    if before.step == MOVEMENT and state.step == REINFORCEMENT:
        assert not over_limit(state, before.active)                                    # DX-3.1 after all moves
    if before.step in (DEPLOY, NIGHT) and state.step == MORALE:
        assert not over_limit(state)                                                   # DX-3.1 as the day starts
    if state.step != before.step:
        assert state.step in NEXT_STEP.get(before.step, set()) or state.step == OVER, (before.step, state.step)
    if state.step == OVER:
        assert_ended(state)


def assert_ended(state) -> None:
    """DX-4.0 / DX-14.0: the winner occupies enough enemy positions (or day 3 has ended); no winner only when
    neither side has units left enough to occupy the positions it needs (A9: or to empty them by enfilade)."""
    victory = state.victory
    if victory.rule == "DX-14.0":
        assert victory.side == "USA" and state.options["historical"]
    elif victory.side:
        enemy = "USA" if victory.side == "CSA" else "CSA"
        held = [p for p in state.positions if p.startswith(enemy) and not state.units(p, enemy)
                and (state.units(p, victory.side) or state.options["enfilade_clear_captures"]
                     and state.captured.get(p) == victory.side)]
        assert len(held) >= (3 if state.options["extended_line"] else 2)
    else:
        left = {s: sum(1 for c in state.cards if c.side == s and c.spec.is_unit and c.loc != "eliminated")
                for s in SIDES}
        by_enfilade = state.options["enfilade"] and state.options["enfilade_clear_captures"]
        assert all(n < (3 if state.options["extended_line"] else 2) for n in left.values())
        assert not by_enfilade or min(left.values()) == 0


FOLDER = tempfile.TemporaryDirectory()   # one session store for every game of the run, removed when it ends
STORE = Store(FOLDER.name)


def play(options, setup, seed):
    replay = play_whole_game(ENGINE, options, setup, seed, check, STORE)
    assert replay.state.step == OVER, f"no step open in the {replay.state.step} step: the game is stuck"
    return replay


@pytest.mark.rule("DX-3.1", "DX-4.0", "DX-5.0", "DX-7.3", "DX-8.0", "DX-11.3")
@settings(max_examples=examples(8), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTION_CHOICES, seed=st.integers(0, 2 ** 32))
def test_whole_games_from_the_example_decks(options, seed):
    play(options, ENGINE.example_setup(), seed)


@pytest.mark.rule("DX-14.0", "DX-4.0", "DX-8.2")
@settings(max_examples=examples(4), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTION_CHOICES, marked=st.booleans(), seed=st.integers(0, 2 ** 32))
def test_whole_historical_battles(options, marked, seed):
    """DX-14.0: three days of made-up historical decks, the nights' draws and deployments, to a win or the end
    of day 3."""
    play({**options, "historical": True, "day1_cards_only": marked}, {"cards": historical_decks()}, seed)


@pytest.mark.rule("DX-3.1", "DX-4.0", "DX-5.0", "DX-8.2", "DX-13.8", "DX-13.9")
@settings(max_examples=examples(988), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTION_CHOICES, decks=DECKS, seed=st.integers(0, 2 ** 32))
def test_whole_games_from_random_small_decks(options, decks, seed):
    extended, setup = decks
    play({**options, "custom_decks": True, "extended_line": extended}, setup, seed)
