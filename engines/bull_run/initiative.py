"""BR-6.0 initiative: 1-3 Union, 4-6 CSA; the side with it moves and attacks first."""
from __future__ import annotations

from companion.dice import Dice
from companion.engine import Result
from companion.odds import Dist

from .rules import INITIATIVE, UNION

SIDE_NAME = {"UNION": "Union", "CSA": "CSA"}


def resolve_initiative(inputs: None, dice: Dice, turn: int = 0) -> Result:
    label = f"Initiative, turn {turn}" if turn else "Initiative"
    return INITIATIVE.resolve(dice, "initiative",
                              lambda face, side: f"{label}: rolled {face}, {SIDE_NAME[side]} has the initiative",
                              {"turn": turn} if turn else None, label=f"{label} ({INITIATIVE.rule})")


def initiative_odds(inputs: None) -> Dist:
    return INITIATIVE.odds()


def union_initiative_count_odds(turns: int) -> Dist:
    """How many of `turns` initiative rolls the Union wins (binomial, p = 1/2)."""
    return turns @ INITIATIVE.odds().map(lambda side: int(side == UNION))
