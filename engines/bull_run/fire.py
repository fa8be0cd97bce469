"""BR-10.4 fire on the combat results table, with the BR-10.5 modifiers."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

import icepool

from companion.dice import Dice
from companion.engine import Result, RuleError
from companion.inputs import Inputs, bounded
from companion.odds import Dist, mean
from companion.terms import Terms, check_sum, signed

from .rules import (
    CRT_COLUMNS,
    CRT_HITS,
    CRT_RULE,
    DEFENSIVE_TERRAIN,
    FORD_MODIFIER,
    MAX_SP_ON_TABLE,
    MODIFIER_RULE,
    TERRAIN_MODIFIER,
)
from .state import Conditions

MODIFIERS = (0, TERRAIN_MODIFIER, FORD_MODIFIER, TERRAIN_MODIFIER + FORD_MODIFIER)


@dataclass(frozen=True)
class FireInput(Inputs):
    RULE = CRT_RULE

    sp: int = bounded(1)     # the firing stack's SP total (BR-10.4)
    modifier: int = bounded(min(MODIFIERS), 0, MODIFIER_RULE, default=0)  # the sum of the BR-10.5 modifiers
    over_12: Literal["error", "use_11_12"] = "error"  # A16
    sp_of: Terms | None = None         # each unit's SP in the total, when known (attacks.fire_sp_terms)
    modifier_of: Terms | None = None   # each modifier, when known (`modifier_terms`)

    def __post_init__(self) -> None:
        super().__post_init__()
        check_sum(self, "sp_of", self.sp, self.sp_of, CRT_RULE)
        check_sum(self, "modifier_of", self.modifier, self.modifier_of, MODIFIER_RULE)


def column(sp: int, over_12: str = "error") -> int:
    """The CRT column index for a firing SP total."""
    if sp > MAX_SP_ON_TABLE and over_12 == "use_11_12":
        sp = MAX_SP_ON_TABLE
    for i, (low, high) in enumerate(CRT_COLUMNS):
        if low <= sp <= high:
            return i
    if sp < 1:
        raise RuleError(CRT_RULE, f"A stack with {sp} SP cannot fire")
    raise RuleError(CRT_RULE, f"{sp} SP is off the combat table (1-{MAX_SP_ON_TABLE}); "
                              "the option 'A stack above 12 SP' can read it on the 11-12 column")


def column_label(sp: int, over_12: str = "error") -> str:
    low, high = CRT_COLUMNS[column(sp, over_12)]
    return f"{low}-{high}"


def hits(sp: int, modified_roll: int, over_12: str = "error") -> int:
    """BR-10.4: the hits a stack of `sp` SP scores with a modified roll."""
    row = "<1" if modified_roll < 1 else modified_roll
    return CRT_HITS[row][column(sp, over_12)]


def modifier_terms(conditions: Conditions, firer: str, options) -> Terms:
    """BR-10.5: the modifiers on the roll of the attacker's or the defender's fire, each with its reason.

    By default (A9) only the attacker's roll is modified; with symmetric modifiers the defender's
    fire back is modified for the attacker's hex and the same ford. A18 lets Stone Bridge count as a ford.
    """
    terms = Terms()
    if firer == "defenders" and not options["symmetric_modifiers"]:
        return terms
    terrain = conditions.target_terrain if firer == "attackers" else conditions.attacker_terrain
    if terrain in DEFENSIVE_TERRAIN:
        terms = terms.plus(f"target {'on a' if terrain == 'hill' else 'in'} {terrain}", TERRAIN_MODIFIER)
    if conditions.across_ford or (conditions.across_bridge and options["bridge_counts"]):
        terms = terms.plus(f"across a Bull Run {'ford' if conditions.across_ford else 'bridge'}", FORD_MODIFIER)
    return terms


def fire_label(inputs: FireInput, label: str) -> str:
    """"Attacker fire: column 7-8, 8 SP = Burnside 4 + Porter 4; roll −1 = target in woods −1 (BR-10.4,
    BR-10.5)": the column and the modifier on the die, with what each is made of."""
    sp = f" = {inputs.sp_of.summed()}" if inputs.sp_of else ""
    text = f"{label}: column {column_label(inputs.sp, inputs.over_12)}, {inputs.sp} SP{sp}"
    if not inputs.modifier:
        return f"{text} ({CRT_RULE})"
    made = f" = {inputs.modifier_of.listed()}" if inputs.modifier_of else ""
    return f"{text}; roll {signed(inputs.modifier)}{made} ({CRT_RULE}, {MODIFIER_RULE})"


def resolve_fire(inputs: FireInput, dice: Dice, label: str = "Fire") -> Result:
    col = column_label(inputs.sp, inputs.over_12)
    face = dice.d(6, fire_label(inputs, label))
    modified = face + inputs.modifier
    scored = hits(inputs.sp, modified, inputs.over_12)
    row = "<1" if modified < 1 else str(modified)
    mod_text = f" {inputs.modifier:+d} = {row}" if inputs.modifier else ""
    return Result(
        procedure="fire", inputs={"sp": inputs.sp, "modifier": inputs.modifier},
        rolls=tuple(dice.rolls[-1:]), outcome=scored,
        rules=(CRT_RULE, MODIFIER_RULE) if inputs.modifier else (CRT_RULE,),
        summary=f"{label}: {inputs.sp} SP (column {col}) rolled {face}{mod_text}: {scored} "
                f"hit{'s' if scored != 1 else ''}",
        details={"face": face, "modified": modified, "row": row, "column": col})


@lru_cache(maxsize=None)
def fire_odds(inputs: FireInput) -> Dist:
    """The exact distribution of hits of one fire."""
    return icepool.d6.map(lambda face: hits(inputs.sp, face + inputs.modifier, inputs.over_12))


def fire_inputs():
    """Every legal fire: SP 1-12 (and 13-24 on the 11-12 column by A16), every sum of modifiers."""
    for sp in range(1, 2 * MAX_SP_ON_TABLE + 1):
        for mod in MODIFIERS:
            yield FireInput(sp, mod, "error" if sp <= MAX_SP_ON_TABLE else "use_11_12")


def expected_hits_grid(over_12: str = "error") -> list[tuple[str, int, Fraction]]:
    """(column, modifier, expected hits) for every CRT column and every sum of BR-10.5 modifiers."""
    return [(f"{low}-{high}", mod, mean(fire_odds(FireInput(high, mod, over_12))))
            for low, high in CRT_COLUMNS for mod in MODIFIERS]
