"""Roll-offs: the SCs for the engagement order (GC-6B.4r) and the tied camps of a ceasefire (GC-9.13r).

Each side rolls (1d6 by default, Q12); the highest wins. Sides tied at the top roll again among
themselves, as a new roll: the outcome of one roll is the tuple of the sides at the top.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import icepool

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs, bounded
from companion.odds import Dist

from .rules import CAMPS, ROLL_OFF_DIE


@dataclass(frozen=True)
class RollOffInput(Inputs):
    RULE = "GC-6B.4r"

    sides: int = bounded(2, len(CAMPS), default=2)   # the SCs of a battle, or the camps tied on stars
    dice_each: int = bounded(1, 2, default=1)        # Q12: 1d6 each, or 2d6 by option
    rule: Literal["GC-6B.4r", "GC-9.13r"] = "GC-6B.4r"


def leaders(totals: tuple[int, ...]) -> tuple[int, ...]:
    top = max(totals)
    return tuple(i for i, t in enumerate(totals) if t == top)


def resolve_roll_off(inputs: RollOffInput, dice: Dice, names: tuple[str, ...] = ()) -> Result:
    names = names or tuple(f"side {i + 1}" for i in range(inputs.sides))
    totals = tuple(sum(dice.roll(inputs.dice_each, ROLL_OFF_DIE, f"Roll-off: {n} ({inputs.rule})")) for n in names)
    top = leaders(totals)
    shown = ", ".join(f"{n} {t}" for n, t in zip(names, totals))
    tail = f"{names[top[0]]} wins" if len(top) == 1 else f"tie between {', '.join(names[i] for i in top)}: roll again"
    return Result("roll_off", {"sides": inputs.sides, "dice_each": inputs.dice_each}, tuple(dice.rolls[-inputs.sides:]),
                  top, (inputs.rule,), f"Roll-off: {shown}: {tail}", {"totals": totals})


def roll_off_odds(inputs: RollOffInput) -> Dist:
    one = inputs.dice_each @ icepool.Die(range(1, ROLL_OFF_DIE + 1))
    return icepool.map(lambda *totals: leaders(totals), *([one] * inputs.sides))


def roll_off_inputs():
    return [RollOffInput(2, 1), RollOffInput(2, 2), RollOffInput(3, 1), RollOffInput(2, 1, "GC-9.13r")]
