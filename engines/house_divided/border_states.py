"""HD-4.8 border-state support (S9) and HD-5.8: at the start of a CSA turn, a state not yet used whose
recruitment cities are all CSA-controlled may roll; d6 + modifiers greater than the state's number
adds one militia to the CSA recruitment pool for the rest of the game. One success per state (A14).

Modifiers, all cumulative, with D = |MM_USA - MM_CSA|: D <= 5 +1; D > 10 -1; a roll in 1861 +1; the
CSA controls Washington +1; the USA controls Richmond -1; 1863/1864/1865 -1/-2/-3 (A10).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, Literal, Sequence

import icepool

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs, bounded
from companion.odds import Dist, fractions
from companion.terms import Terms

from .rules import (
    BORDER_REQUIRED,
    BORDER_STATES,
    CLOSE_GAP,
    CLOSE_MODIFIER,
    FIRST_YEAR_MODIFIER,
    LATE_YEAR_MODIFIER,
    MAX_REQUIRED,
    RICHMOND_MODIFIER,
    WASHINGTON_MODIFIER,
    WIDE_GAP,
    WIDE_MODIFIER,
    YEARS,
)


@dataclass(frozen=True)
class BorderInput(Inputs):
    RULE: ClassVar[str] = "HD-4.8"
    state: Literal[tuple(BORDER_STATES)]            # MO, KY or MD
    year: int = bounded(YEARS[0], YEARS[-1])
    gap: int = bounded(0)                           # D = |MM_USA - MM_CSA|
    csa_holds_washington: bool = False
    usa_holds_richmond: bool = False
    required: int | None = bounded(0, MAX_REQUIRED, default=None)   # the number to beat; None: the printed one

    @property
    def needed(self) -> int:
        return BORDER_REQUIRED[self.state] if self.required is None else self.required


def modifiers(inputs: BorderInput) -> list[tuple[str, int]]:
    """Each modifier on the die that applies, with its reason."""
    found = []
    if inputs.gap <= CLOSE_GAP:
        found.append((f"MM gap {CLOSE_GAP} or less", CLOSE_MODIFIER))
    if inputs.gap > WIDE_GAP:
        found.append((f"MM gap more than {WIDE_GAP}", WIDE_MODIFIER))
    if inputs.year == YEARS[0]:
        found.append((f"in {YEARS[0]}", FIRST_YEAR_MODIFIER))
    if inputs.csa_holds_washington:
        found.append(("CSA holds Washington", WASHINGTON_MODIFIER))
    if inputs.usa_holds_richmond:
        found.append(("USA holds Richmond", RICHMOND_MODIFIER))
    if inputs.year in LATE_YEAR_MODIFIER:
        found.append((f"in {inputs.year}", LATE_YEAR_MODIFIER[inputs.year]))
    return found


def total_modifier(inputs: BorderInput) -> int:
    return sum(value for _, value in modifiers(inputs))


def needed_terms(inputs: BorderInput) -> Terms:
    """The die must be more than this: the state's number less each modifier on the die (moved across)."""
    return Terms(((BORDER_STATES[inputs.state][0], inputs.needed), *((why, -v) for why, v in modifiers(inputs))))


def resolve_border_state(inputs: BorderInput, dice: Dice) -> Result:
    name = BORDER_STATES[inputs.state][0]
    beat = needed_terms(inputs)
    die = dice.d(6, f"Border state: {name}, succeeds on more than {beat.said()} (HD-4.8)")
    mods = modifiers(inputs)
    value = die + sum(v for _, v in mods)
    joins = die > beat.total
    shown = ", ".join(f"{reason} {v:+d}" for reason, v in mods)
    text = (f"{name} support: rolled {die}" + (f" ({shown}) = {value}" if mods else "") +
            f" against more than {inputs.needed}: " +
            ("one militia joins the CSA recruitment pool" if joins else "no support"))
    return Result("border_state", {"state": inputs.state, "year": inputs.year, "gap": inputs.gap,
                                   "csa_holds_washington": inputs.csa_holds_washington,
                                   "usa_holds_richmond": inputs.usa_holds_richmond, "required": inputs.needed},
                  tuple(dice.rolls[-1:]), joins, ("HD-4.8",), text, {"die": die, "modified": value})


def border_state_odds(inputs: BorderInput) -> Dist:
    mod = total_modifier(inputs)
    return icepool.d6.map(lambda die: die + mod > inputs.needed)


def border_state_inputs():
    for state in BORDER_STATES:
        for year in YEARS:
            for gap, washington, richmond in ((0, False, False), (8, True, False), (12, False, True), (5, True, True)):
                yield BorderInput(state, year, gap, washington, richmond)


def success_chance(inputs: BorderInput) -> Fraction:
    return fractions(border_state_odds(inputs)).get(True, Fraction(0))


def joined_within(inputs: Sequence[BorderInput]) -> list[Fraction]:
    """P(the state has joined by each of these CSA turns), one roll a turn, each with its own modifiers
    (e.g. a year later): 1 - prod(1 - p_t)."""
    curve, stays = [], Fraction(1)
    for turn in inputs:
        stays *= 1 - success_chance(turn)
        curve.append(1 - stays)
    return curve
