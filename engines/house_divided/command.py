"""HD-4.1 the Command Table (A1): the marches of a player turn, by die and year, for each side (HD-5.2).

The raw die is kept beside the result (A16): basic-game triggers such as the Union's naval invasion
on a 6 read it (or, by option, the table's march count).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, Literal

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs, bounded
from companion.odds import Dist, mean

from .rules import COMMAND_TABLE, SIDE_NAME, SIDES, USA, YEARS

NAVAL_INVASION_FACE = 6  # basic game (public source): the Union may invade by sea on a 6


@dataclass(frozen=True)
class MarchInput(Inputs):
    RULE: ClassVar[str] = "HD-4.1"
    year: int = bounded(YEARS[0], YEARS[-1])
    side: Literal[SIDES]


def marches(year: int, side: str, die: int) -> int:
    """HD-4.1: the table cell for this year, side and die."""
    return COMMAND_TABLE[(year, side)].results[die]


def naval_trigger(side: str, die: int, result: int, trigger: str) -> bool:
    """A16: does this march roll give the Union the basic game's naval invasion?"""
    return side == USA and (die if trigger == "raw" else result) == NAVAL_INVASION_FACE


def resolve_marches(inputs: MarchInput, dice: Dice) -> Result:
    table = COMMAND_TABLE[(inputs.year, inputs.side)]
    return table.resolve(
        dice, "marches",
        lambda die, count: f"{SIDE_NAME[inputs.side]} march roll {die} in {inputs.year}: {count} marches",
        {"year": inputs.year, "side": inputs.side},
        label=f"Marches, {SIDE_NAME[inputs.side]} {inputs.year} (HD-4.1)")


def marches_odds(inputs: MarchInput) -> Dist:
    return COMMAND_TABLE[(inputs.year, inputs.side)].odds()


def marches_inputs():
    return [MarchInput(year, side) for year in YEARS for side in SIDES]


def expected_marches() -> dict[tuple[int, str], Fraction]:
    """(year, side) -> the exact expected marches: the notebook's heatmap and the dashboard's table."""
    return {(i.year, i.side): mean(marches_odds(i)) for i in marches_inputs()}
