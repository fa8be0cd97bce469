"""BS-CMB ROLL step 1: a throw of n combat dice, as a count per face."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from math import factorial

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs, bounded
from companion.odds import Dist, dist
from companion.terms import Terms, check_sum

from .rules import DICE_IN_BOX
from .tray import counts


@dataclass(frozen=True)
class ThrowInput(Inputs):
    RULE = "BS-CMB"
    dice: int = bounded(1, DICE_IN_BOX)   # every die left; no throw has more than the 50 dice in the box (A17)
    made_of: Terms | None = None          # a side's first throw: its dice part by part (CMB.2-4)

    def __post_init__(self) -> None:
        super().__post_init__()
        check_sum(self, "made_of", self.dice, self.made_of, self.RULE)


def throw_label(inputs: ThrowInput, who: str) -> str:
    """"Combat throw, CSA: 8 dice = units 3 + Lee's ability +1 + supply +4 (BS-CMB)"; a later throw, the dice
    left."""
    dice = f"{inputs.dice} {'die' if inputs.dice == 1 else 'dice'}"
    count = f"{dice} = {inputs.made_of.text()}" if inputs.made_of else f"the {dice} left" if who else dice
    return f"Combat throw{', ' + who if who else ''}: {count} (BS-CMB)"


def resolve_throw(inputs: ThrowInput, dice: Dice, who: str = "") -> Result:
    faces = dice.roll(inputs.dice, 6, throw_label(inputs, who))
    shown = ", ".join(str(f) for f in sorted(faces, reverse=True))
    return Result("throw", {"dice": inputs.dice}, tuple(dice.rolls[-1:]), counts(faces), ("BS-CMB",),
                  f"{who + ' throws' if who else 'Throw'} {inputs.dice} {'die' if inputs.dice == 1 else 'dice'}: {shown}")


def throw_odds(inputs: ThrowInput) -> Dist:
    """Every multiset of n dice with its multinomial weight."""
    n = inputs.dice
    weights = {}
    for cut in combinations(range(n + 5), 5):
        edges = (-1,) + cut + (n + 5,)
        r = tuple(edges[i + 1] - edges[i] - 1 for i in range(6))
        w = factorial(n)
        for x in r:
            w //= factorial(x)
        weights[r] = w
    return dist(weights)


def throw_inputs():
    return [ThrowInput(n) for n in range(1, 5)]
