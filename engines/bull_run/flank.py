"""BR-8.4 the CSA flank: awareness of the flank march (BR-8.4a) and finding Farm Ford (BR-8.4b)."""
from __future__ import annotations

from dataclasses import dataclass

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs
from companion.odds import Dist, certain

from .rules import FARM_FORD, SCOUTS


@dataclass(frozen=True)
class AwarenessInput(Inputs):
    RULE = "BR-8.4a"

    adjacent: bool = False  # a Union unit south of Bull Run is adjacent to a CSA unit (the players' answer)


def resolve_awareness(inputs: AwarenessInput, dice: Dice) -> Result:
    """BR-8.4a: aware at once when a Union unit south of Bull Run is adjacent, else on 5-6 (scouts)."""
    if inputs.adjacent:
        return Result("flank_awareness", {"adjacent": True}, (), True, (SCOUTS.rule,),
                      "Flank awareness: a Union unit south of Bull Run is adjacent to a CSA unit, the CSA is aware")
    return SCOUTS.resolve(
        dice, "flank_awareness",
        lambda face, ok: f"Flank awareness: scouts roll {face}, " + ("the CSA is aware" if ok else "not aware yet"),
        {"adjacent": False}, label=f"Flank awareness, scouts ({SCOUTS.rule})")


def awareness_odds(inputs: AwarenessInput) -> Dist:
    return certain(True) if inputs.adjacent else SCOUTS.odds()


def awareness_inputs():
    return [AwarenessInput(False), AwarenessInput(True)]


def resolve_farm_ford(inputs: None, dice: Dice) -> Result:
    """BR-8.4b: at the start of each Union movement phase until found, 5-6 finds Farm Ford."""
    return FARM_FORD.resolve(
        dice, "farm_ford",
        lambda face, ok: f"Farm Ford: rolled {face}, " + ("found, usable from this turn" if ok else "not found"),
        label=f"Farm Ford ({FARM_FORD.rule})")


def farm_ford_odds(inputs: None) -> Dist:
    return FARM_FORD.odds()
