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


def modifier(conditions: Conditions, firer: str, options) -> tuple[int, tuple[str, ...]]:
    """BR-10.5: the modifier on the roll of the attacker's or the defender's fire, and its reasons.

    By default (A9) only the attacker's roll is modified; with symmetric modifiers the defender's
    fire back is modified for the attacker's hex and the same ford. A18 lets Stone Bridge count as a ford.
    """
    if firer == "defenders" and not options["symmetric_modifiers"]:
        return 0, ()
    terrain = conditions.target_terrain if firer == "attackers" else conditions.attacker_terrain
    total, reasons = 0, []
    if terrain in DEFENSIVE_TERRAIN:
        total += TERRAIN_MODIFIER
        reasons.append(f"target in {terrain} {TERRAIN_MODIFIER}")
    if conditions.across_ford or (conditions.across_bridge and options["bridge_counts"]):
        total += FORD_MODIFIER
        reasons.append(f"across a Bull Run {'ford' if conditions.across_ford else 'bridge'} {FORD_MODIFIER}")
    return total, tuple(reasons)


def resolve_fire(inputs: FireInput, dice: Dice, label: str = "Fire") -> Result:
    col = column_label(inputs.sp, inputs.over_12)
    face = dice.d(6, f"{label} ({CRT_RULE})")
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
