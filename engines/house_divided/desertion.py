"""HD-4.6 desertion and stragglers: after a battle every reduced unit of both sides that took part,
routed units included, rolls a d6; it is eliminated when the modified die is greater than its morale.

Modifiers: +1 if its side lost the battle; -1 if it is not routed (A6: for every unit, or dropped,
when the morale rules are off); -X for the rating of the friendly leaders present (A8: their sum, or
the best one).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, Literal, Sequence

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs, bounded
from companion.odds import Dist, dist
from companion.terms import Terms

from .fire import hits_distribution
from .morale import independent, morale_value
from .rules import CRACK, GRADES, LOST_MODIFIER, MILITIA, STEADY_MODIFIER, VETERAN, YEARS


@dataclass(frozen=True)
class DesertionCheck(Inputs):
    RULE: ClassVar[str] = "HD-4.6"
    unit: str
    grade: Literal[GRADES]
    year: int = bounded(YEARS[0], YEARS[-1])
    lost: bool                               # its side lost the battle
    routed: bool
    leaders: int = bounded(0, default=0)     # X: the friendly leaders' rating counted (A8)
    steady: bool = True                      # A6: whether the -1 for a unit not routed applies

    def terms(self) -> Terms:
        """The highest die that stays: the morale less the die's modifiers (+1 side lost, −1 not routed, −X
        leaders), each moved across."""
        terms = Terms(((self.grade, morale_value(self.grade, self.year)),))
        if self.lost:
            terms = terms.plus("side lost", -LOST_MODIFIER)
        if self.steady and not self.routed:
            terms = terms.plus("not routed", -STEADY_MODIFIER)
        return terms.plus("leaders", self.leaders) if self.leaders else terms

    @property
    def modifier(self) -> int:
        """The modifier on the die: the morale less the highest die that stays."""
        return morale_value(self.grade, self.year) - self.terms().total

    @property
    def chance(self) -> Fraction:
        stays = self.terms().total
        return Fraction(sum(1 for face in range(1, 7) if face > stays), 6)


@dataclass(frozen=True)
class DesertionInput(Inputs):
    RULE: ClassVar[str] = "HD-4.6"
    checks: tuple[DesertionCheck, ...]


def resolve_desertion(inputs: DesertionInput, dice: Dice) -> Result:
    """One die per reduced unit; the outcome says, unit by unit in order, whether it is eliminated."""
    outcome, parts = [], []
    for check in inputs.checks:
        stays = check.terms()
        die = dice.d(6, f"Desertion: {check.unit}, stays on {stays.total} or less = {stays.text()} (HD-4.6)")
        value = die + check.modifier
        gone = die > stays.total
        outcome.append(gone)
        shown = f"{die}{check.modifier:+d} = {value}" if check.modifier else str(die)
        parts.append(f"{check.unit} rolled {shown}: {'deserts' if gone else 'stays'}")
    return Result("desertion", {"checks": [(c.unit, c.grade, c.year, c.lost, c.routed, c.leaders, c.steady)
                                           for c in inputs.checks]},
                  tuple(dice.rolls[len(dice.rolls) - len(inputs.checks):]), tuple(outcome), ("HD-4.6",),
                  "Desertion: " + ("; ".join(parts) or "no reduced unit"))


def desertion_odds(inputs: DesertionInput) -> Dist:
    return independent([c.chance for c in inputs.checks])


def desertion_inputs():
    for grade in GRADES:
        for lost in (False, True):
            for routed in (False, True):
                yield DesertionInput((DesertionCheck("u", grade, 1862, lost, routed),))
    yield DesertionInput((DesertionCheck("u", VETERAN, 1862, True, False, 2),))
    yield DesertionInput((DesertionCheck("a", MILITIA, 1861, True, True),
                          DesertionCheck("b", CRACK, 1863, False, False),
                          DesertionCheck("c", MILITIA, 1864, True, False, 1, False)))


def losses_odds(checks: Sequence[DesertionCheck]) -> Dist:
    """The number of units lost to desertion after a battle (Poisson-binomial, by convolution)."""
    return dist(hits_distribution([c.chance for c in checks]))
