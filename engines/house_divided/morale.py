"""HD-4.4 battlefield morale: a unit flipped to reduced in a round the enemy fired checks at the end
of the round (A5); it routs when the d6, less 1 in a fort or entrenched, is greater than its morale.

Morale values (the source's morale table): crack 5, veteran 4, militia 3 from 1862 and 2 in 1861.
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

from .rules import CRACK, GRADES, MILITIA, MILITIA_MORALE, MILITIA_MORALE_LATER, MORALE, SHELTER_MODIFIER, YEARS


def morale_value(grade: str, year: int) -> int:
    """The morale table (HD-4.4): crack 5, veteran 4, militia 3 (2 in 1861)."""
    if grade == MILITIA:
        return MILITIA_MORALE.get(year, MILITIA_MORALE_LATER)
    return MORALE[grade]


@dataclass(frozen=True)
class MoraleCheck(Inputs):
    RULE: ClassVar[str] = "HD-4.4"
    unit: str
    grade: Literal[GRADES]
    year: int = bounded(YEARS[0], YEARS[-1])
    sheltered: bool = False   # in a fort or entrenched: -1 to the die

    def terms(self) -> Terms:
        """The highest die that holds: the morale, + 1 in a fort or entrenched (the die's −1 moved across)."""
        terms = Terms(((self.grade, morale_value(self.grade, self.year)),))
        return terms.plus("in a fort or entrenched", -SHELTER_MODIFIER) if self.sheltered else terms

    @property
    def chance(self) -> Fraction:
        """P(the unit routs): the faces above the highest that holds."""
        holds = self.terms().total
        return Fraction(sum(1 for face in range(1, 7) if face > holds), 6)


@dataclass(frozen=True)
class MoraleInput(Inputs):
    RULE: ClassVar[str] = "HD-4.4"
    checks: tuple[MoraleCheck, ...]


def resolve_morale(inputs: MoraleInput, dice: Dice) -> Result:
    """One die per checking unit; the outcome says, unit by unit in order, whether it routs."""
    outcome, parts = [], []
    for check in inputs.checks:
        holds = check.terms()
        die = dice.d(6, f"Morale: {check.unit}, holds on {holds.total} or less = {holds.text()} (HD-4.4)")
        routs = die > holds.total
        outcome.append(routs)
        morale = morale_value(check.grade, check.year)
        shown = f"{die}{SHELTER_MODIFIER:+d} = {die + SHELTER_MODIFIER}" if check.sheltered else str(die)
        parts.append(f"{check.unit} ({check.grade}, morale {morale}) rolled {shown}: {'routs' if routs else 'holds'}")
    return Result("morale", {"checks": [(c.unit, c.grade, c.year, c.sheltered) for c in inputs.checks]},
                  tuple(dice.rolls[len(dice.rolls) - len(inputs.checks):]), tuple(outcome), ("HD-4.4",),
                  "Morale: " + ("; ".join(parts) or "no unit checks"))


def independent(chances: Sequence[Fraction]) -> Dist:
    """The joint outcome (a tuple of bools) of independent yes/no checks."""
    joint = {(): Fraction(1)}
    for p in chances:
        joint = {k + (yes,): q * (p if yes else 1 - p) for k, q in joint.items() for yes in (False, True)}
    return dist(joint)


def morale_odds(inputs: MoraleInput) -> Dist:
    return independent([c.chance for c in inputs.checks])


def morale_inputs():
    for grade in GRADES:
        for year in (1861, 1862):
            for sheltered in (False, True):
                yield MoraleInput((MoraleCheck("u", grade, year, sheltered),))
    yield MoraleInput(())
    yield MoraleInput((MoraleCheck("a", MILITIA, 1861), MoraleCheck("b", CRACK, 1864, True),
                       MoraleCheck("c", "veteran", 1863)))


def rout_table() -> list[tuple[str, int, bool, Fraction]]:
    """(grade, year, sheltered, P(rout)) for every grade, year and shelter: the notebook's and dashboard's table."""
    return [(g, y, s, MoraleCheck("", g, y, s).chance) for g in GRADES for y in YEARS for s in (False, True)]


def any_routs(checks: Sequence[MoraleCheck]) -> Fraction:
    """P(at least one of the checking units routs) = 1 - prod(1 - p)."""
    held = Fraction(1)
    for check in checks:
        held *= 1 - check.chance
    return 1 - held
