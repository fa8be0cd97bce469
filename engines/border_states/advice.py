"""Keep advice (issue 6, digest section 8): after a throw, every legal take (BS-CMB ROLL step 3) with the side's
exact chances when both sides play optimally afterwards, best first; the supply heatmap and the strength
curves the dashboard shows.

The defender is advised against the attacker's known result (CMB.6), the attacker against the defender's
optimal reply with the defender's dice (public after CMB.4). Takes are ranked as the dynamic programme in
`optimal` ranks them: the objective first, then (defender) the damage comparison or (attacker) its expected
damage dice, then P(win), P(draw) and the damage dice.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from companion.engine import RuleError

from . import optimal
from .battle import supply_limit
from .optimal import DEFAULT, OBJECTIVES
from .tray import FACES, Keep, Strength, Tray, Trays, keeps_of, take_table
from .values import TOLERANCE

RANKED_BY = "P(win) + ½ P(draw)"   # the default objective: a draw counts half a win


class KeepOdds(NamedTuple):
    """One legal take of a throw and the side's chances after it (see `optimal.Chances`); `best` marks the
    first of the list."""

    keep: Keep
    win: object
    draw: object
    loss: object
    damage: object
    marker: object
    best: bool

    @property
    def score(self):
        """What the takes are ranked by first (`RANKED_BY`, the default objective): P(win) + 1/2 P(draw)."""
        on_win, on_draw = OBJECTIVES[DEFAULT]
        return on_win * self.win + on_draw * self.draw


def _takes(tray: Tray, throw: tuple[int, ...]) -> tuple[list[Keep], Trays]:
    """BS-CMB ROLL: every die left is thrown; every legal take and the tray it leaves."""
    if len(throw) != FACES or any(n < 0 for n in throw) or sum(throw) != tray.left or tray.done:
        raise RuleError("BS-CMB", f"A throw is every die left: {tray.left} dice, a count per face")
    confirm, damage = take_table(tuple(throw))
    left = tray.left - confirm.sum(axis=1) - damage
    return keeps_of(confirm, damage), Trays(left, confirm + np.array(tray.confirmed), damage + tray.damage)


def _total(tray: Tray) -> int:
    return tray.left + sum(tray.confirmed) + tray.damage


def _order(values: np.ndarray, eps) -> np.ndarray:
    """Indices best first: lexicographic on the components (rows). With floats each component is compared on a
    grid of eps, so rounding noise never decides; ties keep the order of the takes."""
    if eps:
        values = np.rint(values.astype(float) / eps)
    return np.lexsort(tuple(-row for row in values[::-1]))


def _advice(keeps, trays, values, damage_row: int, columns, exact: bool) -> list[KeepOdds]:
    """Rank by the values with the damage dice already taken added to the damage dice to come."""
    ranked = values.copy()
    ranked[damage_row] = ranked[damage_row] + trays.damage.astype(values.dtype)
    order = _order(ranked, 0 if exact else TOLERANCE)
    listed = [column.take(order).tolist() for column in columns(values, trays)]
    best = [True] + [False] * (len(order) - 1)
    return list(map(KeepOdds._make, zip([keeps[i] for i in order.tolist()], *listed, best)))


def defender_advice(tray: Tray, throw: tuple[int, ...], attacker: Strength, objective: str = DEFAULT,
                    exact: bool = False) -> list[KeepOdds]:
    """BS-CMB.6: every legal take of the defender's throw against the attacker's result, best first."""
    keeps, trays = _takes(tray, throw)
    values = optimal._defender_values(trays, attacker, objective, exact, tray)
    return _advice(keeps, trays, values, 4, optimal._defender_columns, exact)


def attacker_advice(tray: Tray, throw: tuple[int, ...], defender_dice: int, objective: str = DEFAULT,
                    exact: bool = False) -> list[KeepOdds]:
    """BS-CMB.5: every legal take of the attacker's throw, both sides playing optimally afterwards, best first."""
    keeps, trays = _takes(tray, throw)
    values = optimal._attacker_values(trays, defender_dice, objective, exact, tray)
    return _advice(keeps, trays, values, 1, optimal._attacker_columns, exact)


def keep_advice(state) -> list[KeepOdds]:
    """The advice for the throw waiting for a keep in the battle of a game state (`state.battle`): the
    attacker against the defender's tray, the defender against the attacker's result."""
    battle = state.battle
    side = battle.turn
    tray = battle.trays[side]
    if side == battle.attacker:
        return attacker_advice(tray, battle.throw, _total(battle.trays[battle.defender]))
    return defender_advice(tray, battle.throw, battle.results[battle.attacker])


class SupplyQuestion(NamedTuple):
    """BS-CMB.4 as the side committing now sees it: `grid`, the arguments of `supply_grid` (each side's dice
    before supply and the most supply dice each may add); `committed`, the supply dice of each side (attacker,
    defender) with this commitment; `dice`, each side's dice then."""

    grid: tuple[int, int, int, int]
    committed: tuple[int, int]
    dice: tuple[int, int]


def supply_question(state, count: int, reply: int = 0) -> SupplyQuestion:
    """The supply step of the battle of a game state: the attacker adds `count` (and the defender may then add
    `reply`), or the defender adds `count` to what the attacker committed."""
    battle = state.battle
    a, d = battle.attacker, battle.defender
    attacking = battle.turn == a
    most = supply_limit(state, a) if attacking else battle.supply[a]
    committed = (count, reply) if attacking else (battle.supply[a], count)
    return SupplyQuestion((battle.dice[a], battle.dice[d], most, supply_limit(state, d)), committed,
                          (battle.dice[a] + committed[0], battle.dice[d] + committed[1]))


def supply_grid(attacker_dice: int, defender_dice: int, attacker_supply: int, defender_supply: int,
                objective: str = DEFAULT) -> dict[tuple[int, int], float]:
    """(attacker's supply dice, defender's supply dice) -> P(the attacker wins), both playing optimally."""
    grid = optimal.supply_grid(attacker_dice, defender_dice, attacker_supply, defender_supply, objective)
    return {(x, y): grid.win[x][y] for x in range(attacker_supply + 1) for y in range(defender_supply + 1)}


def strength_curves(dice: int) -> dict[str, list[tuple[int, float]]]:
    """Policy -> [(s, P(S >= s))] for s = 0..dice, under each of `optimal.POLICIES`."""
    out = {}
    for policy in optimal.POLICIES:
        distribution = optimal.strength_distribution(dice, policy)
        out[policy.replace("_", " ")] = [(s, sum(p for k, p in distribution.items() if k >= s))
                                         for s in range(dice + 1)]
    return out
