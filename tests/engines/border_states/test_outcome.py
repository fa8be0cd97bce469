"""How a battle ends before the dice settle it (digest section 8: P(win), P(I lose 2 units), P(the damage marker
moves toward me) for x and y supply dice), against a plain expectimax written here from the rules: every throw,
every legal take, each side's preferences compared as tuples of exact fractions."""
from __future__ import annotations

from fractions import Fraction as F
from functools import lru_cache
from itertools import product
from math import factorial

import pytest

from engines.border_states.optimal import OBJECTIVES, supply_grid
from engines.border_states.outcome import (
    ATTACKER,
    DEFENDER,
    KINDS,
    TOWARD,
    battle_outcome,
    defender_outcome,
    supply_outcomes,
)
from engines.border_states.tray import Strength, Tray

FACES = 6


@lru_cache(maxsize=None)
def throws(n: int) -> tuple:
    """Every throw of n dice as a count per face, with its chance."""
    out = []
    for counts in product(range(n + 1), repeat=FACES):
        if sum(counts) == n:
            ways = factorial(n)
            for c in counts:
                ways //= factorial(c)
            out.append((counts, F(ways, FACES ** n)))
    return tuple(out)


@lru_cache(maxsize=None)
def takes(throw: tuple) -> tuple:
    """CMB ROLL step 3: at least one die; any 6 taken may go to the damage row instead."""
    out = []
    for confirm in product(*(range(c + 1) for c in throw)):
        for damage in range(throw[5] - confirm[5] + 1):
            if sum(confirm) + damage:
                out.append((confirm, damage))
    return tuple(out)


def strength(confirmed: tuple) -> tuple[int, int]:
    """CMB.6: the largest count of one face, and that face (the highest of tied faces, A2); 0, 0 with none."""
    s = max(confirmed)
    return (s, max(f + 1 for f in range(FACES) if confirmed[f] == s)) if s else (0, 0)


def ending(attacker: tuple[int, int], defender: tuple[int, int], rule: str) -> tuple[str, int]:
    """CMB.7 and CMB.8 (A1): the winner and the units its opponent removes."""
    if attacker == defender:
        return "draw", 0
    (ws, _), (ls, _), winner = ((attacker, defender, ATTACKER) if attacker > defender
                                else (defender, attacker, DEFENDER))
    two = ws > ls and ws >= 2 * ls if rule == "inclusive" else ls > 0 and ws > 2 * ls
    return winner, 2 if two else 1


def solve(terminal, dice: int):
    """The expectimax value (a tuple) of a roll of `dice` dice, the best take of every throw compared as tuples."""

    @lru_cache(maxsize=None)
    def value(left: int, confirmed: tuple, damage: int) -> tuple:
        if not left:
            return terminal(confirmed, damage)
        total = None
        for throw, p in throws(left):
            best = max(value(left - sum(c) - d, tuple(a + b for a, b in zip(confirmed, c)), damage + d)
                       for c, d in takes(throw))
            total = [p * b for b in best] if total is None else [t + p * b for t, b in zip(total, best)]
        return tuple(total)

    return value(dice, (0,) * FACES, 0)


@lru_cache(maxsize=None)
def reply(attacker: tuple[int, int], dice: int, objective: str, rule: str) -> tuple:
    """The defender's roll against the attacker's S and F: (objective, P(win), P(draw), P(the attacker removes
    2), -P(it removes 2), damage dice), then P(outcome, its damage dice d), outcomes from the defender's best and d
    from the most."""
    win_weight, draw_weight = OBJECTIVES[objective]

    def terminal(confirmed, damage):
        kind = ending(attacker, strength(confirmed), rule)
        win, draw = int(kind[0] == DEFENDER), int(kind[0] == "draw")
        cells = [int(kind == k and damage == d) for k in reversed(KINDS) for d in range(dice, -1, -1)]
        return (win * win_weight + draw * draw_weight, win, draw, int(kind == (DEFENDER, 2)),
                -int(kind == (ATTACKER, 2)), damage, *cells)

    return solve(terminal, dice)


def toward(attacker_damage: int, defender_damage: int, kind, on_draw: bool) -> str:
    """CMB.9: the marker moves toward the side with fewer damage dice (A3: equal, it stays; A4: after a draw)."""
    if kind[0] == "draw" and not on_draw or attacker_damage == defender_damage:
        return ""
    return ATTACKER if attacker_damage < defender_damage else DEFENDER


def brute(attacker_dice: int, defender_dice: int, objective="win_half_draw", rule="inclusive",
          on_draw=True) -> dict:
    """The attacker's roll: (objective, its damage dice, P(win), P(draw), P(the defender removes 2), -P(it removes
    2), P(marker toward the defender), -P(marker toward it)), then P(outcome, marker); the outcome table."""

    def terminal(confirmed, damage):
        r = reply(strength(confirmed), defender_dice, objective, rule)
        by_kind = dict(zip(reversed(KINDS), [r[6 + i * (defender_dice + 1):6 + (i + 1) * (defender_dice + 1)]
                                             for i in range(len(KINDS))]))
        cells = {(k, t): sum(p for d, p in zip(range(defender_dice, -1, -1), by_kind[k])
                             if toward(damage, d, k, on_draw) == t) for k in KINDS for t in TOWARD}
        head = (1 - r[0], damage, 1 - r[1] - r[2], r[2], sum(cells[(ATTACKER, 2), t] for t in TOWARD),
                -sum(cells[(DEFENDER, 2), t] for t in TOWARD), sum(cells[k, DEFENDER] for k in KINDS),
                -sum(cells[k, ATTACKER] for k in KINDS))
        return head + tuple(cells[k, t] for k in KINDS for t in TOWARD)

    root = solve(terminal, attacker_dice)
    return {(w, r, t): p for ((w, r), t), p in zip([(k, t) for k in KINDS for t in TOWARD], root[8:])}


SIZES = [(1, 1), (2, 1), (1, 2), (2, 2), (3, 2), (2, 3), (3, 3)]


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("attacker, defender", SIZES)
def test_the_outcome_of_a_battle_against_a_plain_expectimax(attacker, defender):
    """Section 8: the joint chances of (winner, units removed, marker) with both sides playing well are exactly
    those of the expectimax over every legal take; they add up to 1."""
    found = battle_outcome(attacker, defender, exact=True)
    assert found.chances == brute(attacker, defender) and found.total() == 1


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("objective, rule, on_draw", [("win", "inclusive", True), ("win_or_draw", "strict", True),
                                                      ("win_half_draw", "strict", False)])
def test_the_outcome_follows_the_objective_and_the_options(objective, rule, on_draw):
    """A1 strict, A4 off and the other objectives change the answer as the expectimax says."""
    found = battle_outcome(3, 2, objective, rule, on_draw, exact=True)
    assert found.chances == brute(3, 2, objective, rule, on_draw)


@pytest.mark.rule("BS-CMB")
@pytest.mark.parametrize("attacker, defender", [(2, 2), (3, 2), (2, 3), (3, 3)])
def test_win_and_draw_are_those_of_the_supply_heatmap(attacker, defender):
    """CMB.4: P(win) and P(draw) here are the supply heatmap's (the same play, the tables' objective first)."""
    found = battle_outcome(attacker, defender, exact=True)
    grid = supply_grid(attacker, defender, 0, 0, exact=True)
    assert (found.win(ATTACKER), found.draw) == (grid.win[0][0], grid.draw[0][0])


@pytest.mark.rule("BS-CMB")
def test_the_chances_a_player_asks_for():
    """Section 8: P(I lose 2 units) is the opponent winning by twice the strength, 0 with one unit in the state;
    P(the marker moves toward me) is CMB.9 toward my side; win, draw and loss add up to 1."""
    found = battle_outcome(3, 3, exact=True)
    cells = brute(3, 3)
    assert found.loses_two(ATTACKER) == sum(p for (w, r, _), p in cells.items() if (w, r) == (DEFENDER, 2))
    assert found.loses_two(DEFENDER) == sum(p for (w, r, _), p in cells.items() if (w, r) == (ATTACKER, 2))
    assert found.loses_two(ATTACKER, units=1) == 0
    assert found.marker_toward(ATTACKER) == sum(p for (_, _, t), p in cells.items() if t == ATTACKER)
    assert found.marker_toward(DEFENDER) == sum(p for (_, _, t), p in cells.items() if t == DEFENDER)
    assert found.win(ATTACKER) + found.win(DEFENDER) + found.draw == 1
    assert 0 < found.loses_two(ATTACKER) < 1 and 0 < found.marker_toward(DEFENDER) < 1


@pytest.mark.rule("BS-CMB")
def test_the_supply_outcomes_cover_every_commitment():
    """CMB.4: one outcome per (x, y), each that of the dice it makes."""
    grid = supply_outcomes(1, 1, 1, 2, exact=True)
    assert sorted(grid) == [(x, y) for x in range(2) for y in range(3)]
    assert grid[1, 2].chances == brute(2, 3)


@pytest.mark.rule("BS-CMB")
def test_the_defender_after_the_attackers_roll():
    """CMB.6: from the defender's fresh tray against the attacker's known result (S 2 in 4s, 1 damage die), the
    chances are the defender's expectimax against that result, the marker read against its damage dice."""
    found = defender_outcome(Tray(3), Strength(2, 4, 1), exact=True)
    r = reply((2, 4), 3, "win_half_draw", "inclusive")
    expected: dict = {}
    for i, kind in enumerate(reversed(KINDS)):
        for j, d in enumerate(range(3, -1, -1)):
            key = (*kind, toward(1, d, kind, True))
            expected[key] = expected.get(key, 0) + r[6 + i * 4 + j]
    assert {k: v for k, v in found.chances.items() if v} == {k: v for k, v in expected.items() if v}
