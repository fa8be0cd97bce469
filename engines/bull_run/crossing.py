"""BR-8.3 Beauregard's confusion: a grey CSA unit crosses Bull Run northward only on 5-6.

Once across it is `crossed_free` and moves both ways without rolling. By default (A3) a unit rolls
once per movement phase; a failure means no crossing this turn.
"""
from __future__ import annotations

from companion.dice import Dice
from companion.engine import Result
from companion.odds import Dist

from .rules import BEAUREGARD_CROSSING


def resolve_crossing(inputs: None, dice: Dice, unit: str = "") -> Result:
    who = unit or "The grey unit"
    return BEAUREGARD_CROSSING.resolve(
        dice, "beauregard_crossing",
        lambda face, ok: f"{who}: Beauregard roll {face}, " + ("crosses Bull Run" if ok else "may not cross this turn"),
        {"unit": unit} if unit else None, label=f"Beauregard's confusion: {who} ({BEAUREGARD_CROSSING.rule})")


def crossing_odds(inputs: None) -> Dist:
    return BEAUREGARD_CROSSING.odds()
