"""BR-11.1 the retreat check and BR-11.2 the advance after a retreat."""
from __future__ import annotations

from companion.dice import Dice
from companion.engine import Result
from companion.odds import Dist

from .rules import RETREAT_CHECK


def who_checks(hits_on_attackers: int, hits_on_defenders: int, attackers_gone: bool, defenders_gone: bool) -> str:
    """BR-11.1: the stack that received strictly more hits checks, unless it was eliminated.

    Returns "attackers", "defenders" or "" (equal hits, or the loser is gone)."""
    if hits_on_defenders > hits_on_attackers and not defenders_gone:
        return "defenders"
    if hits_on_attackers > hits_on_defenders and not attackers_gone:
        return "attackers"
    return ""


def resolve_retreat_check(inputs: None, dice: Dice, who: str = "") -> Result:
    stack = who or "The stack"
    many = " + " in stack
    return RETREAT_CHECK.resolve(
        dice, "retreat_check",
        lambda face, go: f"Retreat check: {stack} rolled {face}, " + (
            ("retreat" if many else "retreats") + " 1 hex" if go else ("stay" if many else "stays")),
        {"who": who} if who else None, label=f"Retreat check: {stack} ({RETREAT_CHECK.rule})")


def retreat_check_odds(inputs: None) -> Dist:
    return RETREAT_CHECK.odds()
