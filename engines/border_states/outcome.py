"""BS-CMB.7 to CMB.9 before the dice settle it: the joint chances of how a battle ends - who wins, whether the
loser removes 1 or 2 units (A1), which way the damage marker moves (A3, A4) - with both sides playing well
(digest section 8: "my P(win), P(I lose 2), P(the marker moves toward me)" for x and y supply dice).

Both sides play as the companion's tables do: the attacker for the objective, then its expected damage dice, then
P(win) and P(draw), against the defender's reply as its table models it (objective, P(win), P(draw)); so P(win)
and P(draw) here are those of the supply heatmap. Among plays those tables value the same, a double loss or the
marker can still go either way, so each side then prefers, in this order: the opponent removing 2 units, not
removing 2 itself, (attacker) the marker moving toward the defender and not toward itself, (defender) more
damage dice; and last a fixed order of the outcomes, which settles every chance below. Like the attacker's
table, the defender's reply does not look at the attacker's damage dice, so one defender table serves every
attacker result with the same S and F.

Solved on the labelled grid (`grid`), one table per roll: a roll that starts with N dice and ends with L
confirmed has put N - L dice to damage.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Mapping

import numpy as np

from .grid import Grid, GridTable, results
from .optimal import DEFAULT, OBJECTIVES
from .tray import FACES, Strength, Tray, Trays, doubled
from .values import LIMIT

ATTACKER, DEFENDER, DRAW = "attacker", "defender", "draw"
# (winner, units the loser removes), in the attacker's order of preference; the defender's is the reverse.
KINDS = ((ATTACKER, 2), (ATTACKER, 1), (DRAW, 0), (DEFENDER, 1), (DEFENDER, 2))
TOWARD = (DEFENDER, "", ATTACKER)    # CMB.9: the marker moves toward the side with fewer damage dice, or stays
HEAD = 6                             # the defender's components before its outcomes (kind, damage dice)
ATTACKER_HEAD = 8                    # the attacker's components before its outcomes (kind, marker)


@dataclass(frozen=True)
class BattleOutcome:
    """(winner, units the loser removes, where the marker moves) -> chance, for one battle (CMB.7-9); the
    winner "attacker", "defender" or "draw" (0 removed), the marker toward "attacker", "defender" or "" (stays).
    Units removed are as CMB.8 orders them; `loses_two` caps them by the units in the state."""

    chances: Mapping[tuple[str, int, str], object]

    def chance(self, winner: str | None = None, removes: int | None = None, toward: str | None = None):
        return sum((p for (w, r, t), p in self.chances.items()
                    if winner in (None, w) and removes in (None, r) and toward in (None, t)), 0 * self.total())

    def total(self):
        return sum(self.chances.values())

    def win(self, role: str):
        return self.chance(winner=role)

    @property
    def draw(self):
        return self.chance(winner=DRAW)

    def loses_two(self, role: str, units: int = 2):
        """P(`role` removes 2 units): the opponent wins by twice the strength, and `role` has 2 units there."""
        foe = DEFENDER if role == ATTACKER else ATTACKER
        return self.chance(winner=foe, removes=2) if units >= 2 else 0 * self.total()

    def marker_toward(self, role: str):
        """P(the damage marker moves 1 square toward `role`'s side)."""
        return self.chance(toward=role)


def _kinds(attacker_s, attacker_f, s, f, rule: str) -> np.ndarray:
    """Index in KINDS of each result (s, f arrays) of the defender against the attacker's (CMB.7, CMB.8)."""
    mine, theirs = s * (FACES + 1) + f, attacker_s * (FACES + 1) + attacker_f
    return np.where(theirs > mine, np.where(doubled(attacker_s, s, rule), 0, 1),
                    np.where(mine > theirs, np.where(doubled(s, attacker_s, rule), 4, 3), 2))


def _number(exact: bool):
    return Fraction if exact else float


@lru_cache(maxsize=512)
def _defender_table(attacker_s: int, attacker_f: int, dice: int, objective: str, rule: str,
                    exact: bool) -> GridTable:
    """The defender's roll of `dice` dice against an attacker result (its damage dice aside): components
    (primary, P(win), P(draw), P(the attacker removes 2), -P(it removes 2), damage dice), then P(kind, damage
    dice d) for the kinds from the defender's best and d from `dice` down to 0."""
    number = _number(exact)
    win_weight, draw_weight = (number(w) for w in OBJECTIVES[objective])

    def terminal(counts):
        result = results(counts)
        kind = _kinds(attacker_s, attacker_f, result[:, 0], result[:, 1], rule)
        damage = dice - counts.sum(axis=1)
        win, draw = kind >= 3, kind == 2
        rows = [win * win_weight + draw * draw_weight, win, draw, kind == 4, -(kind == 0).astype(int), damage]
        rows += [(kind == k) & (damage == d) for k in reversed(range(len(KINDS))) for d in range(dice, -1, -1)]
        return np.array([np.asarray(r, dtype=object) * number(1) for r in rows], dtype=object if exact else float)

    return GridTable(Grid(dice, terminal, exact, damage_at=None).values)


def _defender_rows(tray: Tray, attacker: Strength, objective: str, rule: str, exact: bool) -> np.ndarray:
    """The defender's components for a tray (of a roll with `_total(tray)` dice) against the attacker's S and F."""
    dice = _total(tray)
    s, f = attacker.s, (attacker.f if attacker.s <= dice else 1)   # out of reach, F no longer matters
    return _defender_table(s, f, dice, objective, rule, exact).value(Trays.of([tray]))[:, 0]


def _kind_damage(rows: np.ndarray, dice: int) -> np.ndarray:
    """P(kind, damage dice d) as a (kind in KINDS order, d = 0..dice) array from the defender's components."""
    cells = rows[HEAD:].reshape(len(KINDS), dice + 1)
    return cells[::-1, ::-1]


def _toward(attacker_damage: int, dice: int, on_draw: bool) -> np.ndarray:
    """(kind, defender's damage dice d) -> index in TOWARD (CMB.9; A3 equal: stays; A4: after a draw too)."""
    d = np.arange(dice + 1)
    move = np.where(d < attacker_damage, 0, np.where(d > attacker_damage, 2, 1))
    out = np.repeat(move[None, :], len(KINDS), axis=0)
    if not on_draw:
        out[KINDS.index((DRAW, 0))] = 1
    return out


def _cells(kind_damage: np.ndarray, attacker_damage: int, on_draw: bool) -> np.ndarray:
    """P(kind, marker) in (KINDS, TOWARD) order from P(kind, defender's damage dice)."""
    toward = _toward(attacker_damage, kind_damage.shape[1] - 1, on_draw)
    return np.stack([(kind_damage * (toward == t)).sum(axis=1) for t in range(len(TOWARD))], axis=1)


@lru_cache(maxsize=128)
def _attacker_table(dice: int, defender_dice: int, objective: str, rule: str, on_draw: bool,
                    exact: bool) -> GridTable:
    """The attacker's roll of `dice` dice: components (primary, expected damage dice to come, P(win), P(draw),
    P(the defender removes 2), -P(it removes 2), P(marker toward the defender), -P(marker toward it)), then
    P(kind, marker) in (KINDS, TOWARD) order."""

    def terminal(counts):
        result = results(counts)
        damage = dice - int(counts.sum(axis=1)[0])     # one level per call: every tray has the same damage dice
        out = np.empty((ATTACKER_HEAD + len(KINDS) * len(TOWARD), len(counts)), dtype=object if exact else float)
        for s, f in {tuple(r) for r in result.tolist()}:
            at = np.flatnonzero((result[:, 0] == s) & (result[:, 1] == f))
            reply = _defender_rows(Tray(defender_dice), Strength(s, f, 0), objective, rule, exact)
            cells = _cells(_kind_damage(reply, defender_dice), damage, on_draw)
            head = [1 - reply[0], 0 * reply[0], 1 - reply[1] - reply[2], reply[2], cells[0].sum(),
                    -cells[4].sum(), cells[:, 0].sum(), -cells[:, 2].sum()]
            out[:, at] = np.array(head + cells.ravel().tolist(), dtype=out.dtype)[:, None]
        return out

    return GridTable(Grid(dice, terminal, exact).values)


def _total(tray: Tray) -> int:
    return tray.left + sum(tray.confirmed) + tray.damage


def _check(*dice: int) -> None:
    if any(not 1 <= n <= LIMIT for n in dice):
        raise ValueError(f"battle outcomes are worked out for 1 to {LIMIT} dice a side, not {dice}")


def _outcome(cells) -> BattleOutcome:
    flat = list(np.asarray(cells).ravel())
    keys = [(w, r, t) for w, r in KINDS for t in TOWARD]
    return BattleOutcome(dict(zip(keys, flat)))


def attacker_outcome(tray: Tray, defender_dice: int, objective: str = DEFAULT, double_loss: str = "inclusive",
                     damage_on_draw: bool = True, exact: bool = False) -> BattleOutcome:
    """How the battle ends from the attacker's tray before its next throw (a fresh tray: before CMB.5), the
    defender having `defender_dice` dice to throw (public after CMB.4)."""
    _check(_total(tray), defender_dice)
    table = _attacker_table(_total(tray), defender_dice, objective, double_loss, damage_on_draw, exact)
    return _outcome(table.value(Trays.of([tray]))[ATTACKER_HEAD:, 0])


def defender_outcome(tray: Tray, attacker: Strength, objective: str = DEFAULT, double_loss: str = "inclusive",
                     damage_on_draw: bool = True, exact: bool = False) -> BattleOutcome:
    """How the battle ends from the defender's tray before its next throw, the attacker's result known (CMB.6)."""
    _check(_total(tray))
    rows = _defender_rows(tray, attacker, objective, double_loss, exact)
    return _outcome(_cells(_kind_damage(rows, _total(tray)), attacker.d, damage_on_draw))


def battle_outcome(attacker_dice: int, defender_dice: int, objective: str = DEFAULT, double_loss: str = "inclusive",
                   damage_on_draw: bool = True, exact: bool = False) -> BattleOutcome:
    """How a battle ends when the attacker rolls `attacker_dice` and the defender `defender_dice` (after CMB.4)."""
    return attacker_outcome(Tray(attacker_dice), defender_dice, objective, double_loss, damage_on_draw, exact)


def supply_outcomes(attacker_dice: int, defender_dice: int, attacker_supply: int, defender_supply: int,
                    objective: str = DEFAULT, double_loss: str = "inclusive", damage_on_draw: bool = True,
                    exact: bool = False) -> dict[tuple[int, int], BattleOutcome]:
    """CMB.4: (attacker's supply dice x, defender's y) -> how the battle ends, from the dice each side has after the
    start of combat and the most supply dice each may add."""
    return {(x, y): battle_outcome(attacker_dice + x, defender_dice + y, objective, double_loss, damage_on_draw, exact)
            for x in range(attacker_supply + 1) for y in range(defender_supply + 1)}
