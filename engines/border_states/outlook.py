"""The round outlook (digest section 8): the victory check after this round's combats - P(the CSA reaches 10 VP)
and P(the CSA wins there) (BS-VIC.1, BS-VIC.2, A8) - from the border states still to fight, in the order of
their numbers (BS-CMB). Each battle ends as `outcome` says for its dice (by default one a unit, the
entrenchment die, and the supply dice committed so far: no card or commander dice unless entered); control of
the state follows from the units left (BS-D.2), the damage marker moves one square at most a battle and stops at
the ends of its track (A16), and the stars are read where it ends (BS-VIC.3).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping

from companion.engine import RuleError
from companion.quoting import quote

from .board import star
from .optimal import DEFAULT
from .outcome import (ATTACKER, DEFENDER, DRAW, TOWARD, BattleOutcome, attacker_outcome, battle_outcome,
                      defender_outcome)
from .rules import C, ENTRENCH_BONUS, ROUNDS, SIDES, SUDDEN_VP, U
from .state import GameState
from .tray import Tray
from .values import LIMIT


@dataclass(frozen=True)
class Outlook:
    """(CSA VP, Union VP) at this round's victory check -> chance; P(the CSA has 10 VP or more); P(the CSA wins
    at that check); the border states whose combats are counted, in order."""

    vp: Mapping[tuple[int, int], object]
    ten: object
    csa_wins: object
    battles: tuple[str, ...]


def _total(tray: Tray) -> int:
    return tray.left + sum(tray.confirmed) + tray.damage


def base_dice(state: GameState, area: str) -> tuple[int, int]:
    """(attacker's, defender's) dice of the combat in `area` before start effects and supply (CMB.2), plus the
    supply dice already committed when it is the combat under way."""
    battle = state.battle
    if battle is not None and battle.area == area:
        return tuple(battle.dice[s] + battle.supply[s] for s in (battle.attacker, battle.defender))
    defender = state.board.area(area).side
    attacker = U if defender == C else C
    return state.count(area, attacker), state.count(area, defender) + (ENTRENCH_BONUS if area in state.entrenched
                                                                          else 0)


def _sure(winner: str, removes: int, toward: str) -> BattleOutcome:
    return BattleOutcome({(winner, removes, toward): Fraction(1)})


def _battle(state: GameState, area: str, dice: tuple[int, int], objective: str, exact: bool) -> BattleOutcome:
    """How the combat in `area` ends, from where it stands: not yet rolled, mid-roll (before any throw waiting
    for its take), or decided."""
    options = dict(double_loss=state.options["double_loss"], damage_on_draw=state.options["damage_on_draw"],
                   objective=objective, exact=exact)
    battle = state.battle
    if battle is None or battle.area != area or battle.stage in ("start", "supply"):
        return battle_outcome(*dice, **options)
    a, d = battle.attacker, battle.defender
    if battle.stage == "roll" and a not in battle.results:
        return attacker_outcome(battle.trays[a], _total(battle.trays[d]), **options)
    if battle.stage == "roll":
        return defender_outcome(battle.trays[d], battle.results[a], **options)
    da, dd = battle.results[a].d, battle.results[d].d
    toward = TOWARD[0] if dd < da else TOWARD[2] if dd > da else ""
    return _sure(ATTACKER if battle.winner == a else DEFENDER, battle.removals, toward)


def _checked(state: GameState, pending: list[str], dice) -> dict[str, tuple[int, int]]:
    given = dict(dice or {})
    for area, pair in given.items():
        if area not in pending:
            raise RuleError("BS-CMB", f"{quote(area)} has no combat still to fight this round")
        if (not isinstance(pair, (tuple, list)) or len(pair) != 2
                or any(type(n) is not int or not 1 <= n <= LIMIT for n in pair)):
            raise RuleError("BS-CMB", f"{quote(area)}: the attacker's and the defender's dice, each 1 to {LIMIT}")
    return {area: tuple(given.get(area, base_dice(state, area))) for area in pending}


def round_outlook(state: GameState, dice: Mapping[str, tuple[int, int]] | None = None, objective: str = DEFAULT,
                  exact: bool = False) -> Outlook:
    """The outlook of this round's victory check from `state`, with `dice` = {border state: (attacker's dice,
    defender's dice)} for the combats to come where they differ from `base_dice`."""
    battle = state.battle
    pending = [a for a in state.battles_due() if not (battle and battle.area == a and battle.stage == "end")]
    sizes = _checked(state, pending, dice)
    board = state.board
    one = Fraction(1) if exact else 1.0
    fixed = {s: sum(a.vp for a in board.borders if a.name not in pending and state.controller(a.name) == s)
             for s in SIDES}
    chances: dict[tuple[int, int, int], object] = {(state.damage, fixed[C], fixed[U]): one}
    low, high = -len(board.damage_c), len(board.damage_u)
    for area in pending:
        defender = board.area(area).side
        role_side = {ATTACKER: U if defender == C else C, DEFENDER: defender}
        ending = _battle(state, area, sizes[area], objective, exact)
        units = {s: state.count(area, s) for s in SIDES}
        vp = board.area(area).vp
        after: dict[tuple[int, int, int], object] = {}
        for (winner, removes, toward), p in ending.chances.items():
            if not p:
                continue
            left = dict(units)
            if winner != DRAW:
                loser = role_side[DEFENDER if winner == ATTACKER else ATTACKER]
                left[loser] -= min(removes, left[loser])
            holder = C if left[C] > left[U] else U if left[U] > left[C] else ""
            step = 0 if not toward else (1 if role_side[toward] == U else -1)
            for (damage, c, u), q in chances.items():
                key = (max(low, min(high, damage + step)), c + (vp if holder == C else 0),
                       u + (vp if holder == U else 0))
                after[key] = after.get(key, 0 * one) + p * q
        chances = after
    vp: dict[tuple[int, int], object] = {}
    for (damage, c, u), p in chances.items():
        key = (c + star(board, damage, C), u + star(board, damage, U))
        vp[key] = vp.get(key, 0 * one) + p
    ten = sum((p for (c, _), p in vp.items() if c >= SUDDEN_VP), 0 * one)
    last = state.round >= ROUNDS
    wins = sum((p for (c, u), p in vp.items()
                if (c >= SUDDEN_VP and (not last or state.options["sudden_round_4"])) or (last and c > u)), 0 * one)
    return Outlook(vp, ten, wins, tuple(pending))

