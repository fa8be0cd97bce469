"""HD-4.7 the CSA capture of Washington (S5), every capture (HD-5.10): not a win (HD-6.1); the Union's
MM falls at once by a d6, a 1 counting as 2. The rolled loss replaces the normal 1-point loss (A9 (a))
or adds to it (A9 (b)). A Union recapture gives back 1 MM only (Washington's recruitment point).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

import icepool

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs, bounded
from companion.odds import Dist

from .rules import NORMAL_CITY_LOSS, WASHINGTON_MIN_LOSS


@dataclass(frozen=True)
class WashingtonInput(Inputs):
    RULE: ClassVar[str] = "HD-4.7"
    mm_usa: int = bounded(0, default=0)                    # the Union MM before the loss
    loss_rule: Literal["replaces", "adds"] = "replaces"   # A9


def loss_for(die: int, loss_rule: str = "replaces") -> int:
    return max(WASHINGTON_MIN_LOSS, die) + (NORMAL_CITY_LOSS if loss_rule == "adds" else 0)


def resolve_washington(inputs: WashingtonInput, dice: Dice) -> Result:
    """The outcome is the Union MM lost; details give the MM after it (never below 0)."""
    die = dice.d(6, "Washington taken: Union MM loss (HD-4.7)")
    loss = loss_for(die, inputs.loss_rule)
    after = max(0, inputs.mm_usa - loss)
    extra = f" + {NORMAL_CITY_LOSS} normal loss" if inputs.loss_rule == "adds" else ""
    floor = " (a 1 counts as 2)" if die < WASHINGTON_MIN_LOSS else ""
    return Result("washington", {"mm_usa": inputs.mm_usa, "loss_rule": inputs.loss_rule}, tuple(dice.rolls[-1:]),
                  loss, ("HD-4.7", "HD-5.10"),
                  f"Washington taken: rolled {die}{floor}{extra}: Union MM -{loss}, {inputs.mm_usa} -> {after}",
                  {"die": die, "mm_after": after})


def washington_odds(inputs: WashingtonInput) -> Dist:
    return icepool.d6.map(lambda die: loss_for(die, inputs.loss_rule))


def washington_inputs():
    return [WashingtonInput(30, "replaces"), WashingtonInput(3, "adds")]


def mm_after_odds(mm_usa: int, loss_rule: str = "replaces") -> Dist:
    """The Union MM after losing Washington (never below 0)."""
    return washington_odds(WashingtonInput(mm_usa, loss_rule)).map(lambda loss: max(0, mm_usa - loss))
