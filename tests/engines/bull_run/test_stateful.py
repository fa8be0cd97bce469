"""Whole games played at random by legal choices (tests/engines/games.py), from the example setup and from
random rosters, with every option at random: after every step SP stay in range and only fall by the hits
spent, a stack attacks once a step, undo restores the state; the saved log replays to the same state."""
from __future__ import annotations

import tempfile

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from companion.store import Store
from engines.bull_run import ENGINE
from engines.bull_run.options import OPTIONS
from engines.bull_run.rules import CSA, SIDES, TURNS, UNION
from engines.bull_run.state import DECLARED, ELIMINATED, MADE, ON_MAP, OVER, PENDING
from tests.engines.games import play_whole_game
from tests.scale import examples
from tests.engines.bull_run.support import row

OPTION_CHOICES = st.fixed_dictionaries({}, optional={o.key: st.sampled_from([c for c, _ in o.choices])
                                                     for o in OPTIONS if o.choices})


@st.composite
def rosters(draw):
    """A valid play sheet (BR-2.4): 1-5 units a side, 1-6 SP, arriving on turns 1-4, some CSA units grey."""
    rows = []
    for side in SIDES:
        for i in range(draw(st.integers(1, 5))):
            rows.append(row(f"{side} {i + 1}", side, "A" if side == UNION else "1", draw(st.integers(1, 4)),
                            draw(st.integers(1, 6)), grey=side == CSA and draw(st.booleans())))
    return rows


def checker():
    """The invariants of a step, with the SP lost per side counted along the game."""
    lost = {UNION: 0, CSA: 0}

    def check(state, action, step) -> None:
        after = step.state
        drop = {u.name: u.sp - after.unit(u.name).sp for u in state.units}
        assert min(drop.values()) >= 0, "SP only fall (BR-10.4)"
        if action["type"] == "allocate_hits":  # BR-10.3 (R1): every hit is spent inside the target stack
            combat = state.combat
            for stack, hits in ((combat.attackers, combat.hits_on_attackers),
                                (combat.defenders, combat.hits_on_defenders)):
                assert sum(drop[n] for n in stack) == min(hits, sum(state.unit(n).sp for n in stack))
        elif not (action["type"] == "retreat" and not action.get("legal_hex", True)):
            assert not any(drop.values()), f"{action['type']} changed SP"
        for u in state.units:
            lost[u.side] += drop[u.name]
        for u in after.units:  # BR-2.4, BR-10.4
            assert 0 <= u.sp <= u.spec.max_sp
            assert (u.status == ELIMINATED) == (u.sp == 0)
            assert u.status != PENDING or u.sp == u.spec.max_sp
            assert u.status != ON_MAP or u.sp <= u.turn_start_sp
        assert (after.sp_lost(UNION), after.sp_lost(CSA)) == (lost[UNION], lost[CSA]), "BR-12.0: losses add up"
        attacking = [n for a in after.attacks if a.status in (DECLARED, MADE) for n in a.attackers]
        assert len(attacking) == len(set(attacking)), "a stack attacks once a step (BR-10.1)"
    return check


def play(options, setup, seed):
    with tempfile.TemporaryDirectory() as folder:
        replay = play_whole_game(ENGINE, options, setup, seed, checker(), Store(folder))
    state = replay.state
    assert state.phase == OVER and state.victory is not None and 1 <= state.victory.turn <= TURNS
    return replay


@pytest.mark.rule("BR-2.4", "BR-3.0", "BR-10.3", "BR-10.4", "BR-11.1")
@settings(max_examples=examples(500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTION_CHOICES, seed=st.integers(0, 2 ** 32))
def test_whole_games_from_the_example_setup(options, seed):
    play(options, ENGINE.example_setup(), seed)


@pytest.mark.rule("BR-2.4", "BR-3.0", "BR-10.1", "BR-10.3")
@settings(max_examples=examples(500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTION_CHOICES, roster=rosters(), seed=st.integers(0, 2 ** 32))
@example(options={}, roster=[row("U", UNION, "A", 1, 1), row("C", CSA, "1", 1, 1)], seed=0)
def test_whole_games_from_a_random_roster(options, roster, seed):
    play(options, {"roster": roster}, seed)
