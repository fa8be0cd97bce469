"""BS-RET the retreat roll: 3-6 succeeds; a discarded card makes it succeed without a roll."""
from __future__ import annotations

from fractions import Fraction

from companion.dice import Dice
from companion.engine import Result
from companion.odds import Dist

from .rules import RETREAT


def resolve_retreat(inputs: None, dice: Dice, unit: str = "") -> Result:
    who = f" from {unit}" if unit else ""
    return RETREAT.resolve(dice, "retreat",
                           lambda face, ok: f"Retreat{who}: rolled {face}, " + ("it goes" if ok else "it fails"),
                           label=f"Retreat{who} ({RETREAT.rule})")


def retreat_odds(inputs: None) -> Dist:
    return RETREAT.odds()


def retreat_chance(discard: bool) -> Fraction:
    """BS-RET: P(the retreat goes): certain with a card discarded, else the roll's 3-6."""
    return Fraction(1) if discard else RETREAT.odds().probability(True)
