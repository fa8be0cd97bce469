"""HD-4.5 rally: after every 4th round, before the next day, each side may restore one routed unit to
ordinary reduced status. No die is rolled: the outcome is the unit the player chose."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.dice import Dice
from companion.engine import Result, RuleError
from companion.inputs import Inputs
from companion.quoting import quote
from companion.odds import Dist, certain


@dataclass(frozen=True)
class RallyInput(Inputs):
    RULE: ClassVar[str] = "HD-4.5"
    routed: tuple[str, ...]   # the side's routed units
    chosen: str               # the one it restores


def resolve_rally(inputs: RallyInput, dice: Dice) -> Result:
    if inputs.chosen not in inputs.routed:
        raise RuleError("HD-4.5", f"{quote(inputs.chosen)} is not routed: only a routed unit rallies")
    return Result("rally", {"routed": list(inputs.routed), "chosen": inputs.chosen}, (), inputs.chosen,
                  ("HD-4.5",), f"{inputs.chosen} rallies: back to ordinary reduced status")


def rally_odds(inputs: RallyInput) -> Dist:
    return certain(inputs.chosen)


def rally_inputs():
    return [RallyInput(("a",), "a"), RallyInput(("a", "b", "c"), "b")]
