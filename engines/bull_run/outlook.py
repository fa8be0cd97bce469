"""The chance that a once-a-turn 5-6 roll has succeeded by turn n (digest section 8: 1 - (2/3)^k).

Farm Ford (BR-8.4b), flank awareness by the scouts (BR-8.4a) and a grey unit's crossing (BR-8.3)
are each one roll a turn; from the state, each curve counts the rolls still to come.
"""
from __future__ import annotations

from fractions import Fraction

from companion.odds import happened_by

from .rules import BEAUREGARD_CROSSING, CSA, FARM_FORD, SCOUTS, TURNS, UNION
from .state import INITIATIVE, MOVEMENT, REINFORCEMENTS, GameState


def next_roll_turn(state: GameState, side: str, check: str) -> int:
    """The first turn whose start-of-movement roll of `side` is still to be made."""
    if state.phase in (INITIATIVE, REINFORCEMENTS):
        return state.turn
    if state.phase == MOVEMENT:
        if state.active == side and check not in state.checks_done:
            return state.turn
        if state.active != side and state.half == 0:
            return state.turn
    return state.turn + 1


def curve(p: Fraction, first_roll: int, happened: int = 0) -> list[tuple[int, Fraction]]:
    """P(by turn n) for n = 1..15: certain from the turn it happened, else 1 - (1-p)^(rolls made by n)."""
    if happened:
        return [(n, Fraction(int(n >= happened))) for n in range(1, TURNS + 1)]
    return [(n, happened_by(p, max(0, n - first_roll + 1))) for n in range(1, TURNS + 1)]


def by_turn(state: GameState) -> dict[str, list[tuple[int, Fraction]]]:
    """name -> [(turn n, P(it has happened by turn n))], from the state of the game now."""
    farm_first = max(state.options["farm_ford_first_turn"], next_roll_turn(state, UNION, "farm_ford"))
    aware_first = max(state.union_crossed_west, next_roll_turn(state, CSA, "awareness"))
    aware = curve(SCOUTS.odds().probability(True), aware_first, state.csa_aware) if state.union_crossed_west or \
        state.csa_aware else [(n, Fraction(0)) for n in range(1, TURNS + 1)]
    return {
        "Farm Ford found (BR-8.4b)": curve(FARM_FORD.odds().probability(True), farm_first, state.farm_ford_found),
        "CSA aware by scouts, from the first Union crossing at Sudley or Farm Ford (BR-8.4a)": aware,
        "A grey unit across, trying each turn (BR-8.3)": curve(BEAUREGARD_CROSSING.odds().probability(True),
                                                              next_roll_turn(state, CSA, "crossing")),
    }
