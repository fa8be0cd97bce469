"""Battle policies: how the advice and the whole-battle odds play the choices the rules leave to the
players (digest section 8, item 6).

- `greedy_kill` (the digest's V12 policy): always engage; the target is the enemy unit most likely to be
  destroyed in that duel (ties: the earlier-listed unit).
- `greedy_safety`: of engaging each target, retreating and (when allowed) passing, the choice least
  likely to lose the actor; ties go to the higher kill chance, then to the earlier-listed target.

Both: the side that decides a tie across sides orders its own unit first, a side orders its tied units
by listing, SC ties go to the earlier-listed admiral, the free attack is made by the enemy unit most
likely to hit (ties: earlier listed), and a unit facing only the fortress it may not target passes.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from .battle import (
    NONE,
    BattleRules,
    Field,
    Opportunity,
    duel_input,
    free_attack,
    may_pass,
    retreat_input,
    settle_sc,
    shooters,
    targets,
    with_sc,
)
from .duel import DuelInput, duel_table, hit_chance
from .retreat import DESTROYED, retreat_table

GREEDY_KILL, GREEDY_SAFETY = "greedy_kill", "greedy_safety"
Policy = Literal["greedy_kill", "greedy_safety"]
POLICIES = {
    GREEDY_KILL: "always engage the enemy unit most likely to be destroyed in that duel",
    GREEDY_SAFETY: "engage, retreat or pass, whichever is least likely to lose the unit",
}
ENGAGE, RETREAT, PASS = "engage", "retreat", "pass"


@dataclass(frozen=True, order=True)
class Move:
    kind: str
    target: int = NONE


@lru_cache(maxsize=None)
def duel_chances(inputs: DuelInput) -> tuple[Fraction, Fraction]:
    """(P(target destroyed), P(actor destroyed)) in one duel."""
    odds = duel_table(inputs)
    return (sum((p for o, p in odds.items() if o.target_destroyed), Fraction(0)),
            sum((p for o, p in odds.items() if o.actor_destroyed), Fraction(0)))


def pick_actor(units, opp: Opportunity) -> int:
    if opp.decider is not None:
        return next(i for i in opp.actors if units[i].side == opp.decider)
    return opp.actors[0]


def settle(units, field: Field, rules: BattleRules) -> Field:
    """Every SC change, ties going to the earlier-listed admiral."""
    field, ties = settle_sc(units, field, rules)
    for side, choices in ties.items():
        field = with_sc(field, side, choices[0])
    return field


def pick_shooter(units, field: Field, retreater: int, rules: BattleRules) -> int | None:
    able = shooters(units, field.status, retreater, rules)
    if not able:
        return None
    return max(able, key=lambda i: (hit_chance(free_attack(units, i, retreater)), -i))


def pick_move(units, field: Field, actor: int, rules: BattleRules, policy: str) -> Move:
    options = targets(units, field.status, actor)
    if policy == GREEDY_KILL:
        if not options:
            return Move(PASS)
        return Move(ENGAGE, max(options, key=lambda t: (duel_chances(duel_input(units, actor, t))[0], -t)))
    scored = [((duel_chances(duel_input(units, actor, t))[1], -duel_chances(duel_input(units, actor, t))[0], t),
               Move(ENGAGE, t)) for t in options]
    shooter = pick_shooter(units, field, actor, rules)
    lost = retreat_table(retreat_input(units, field, actor, shooter)).get(DESTROYED, Fraction(0))
    scored.append(((lost, Fraction(0), len(units)), Move(RETREAT)))
    if may_pass(units, field.status, actor):
        scored.append(((Fraction(0), Fraction(0), len(units) + 1), Move(PASS)))
    return min(scored)[1]
