"""DX-13.2 enfilade: cards that have not fired, in a position holding only friendly cards, fire at enemy units
in a laterally adjacent position of the same line: F1 from your own line, F2 from the enemy line, whatever
the arm. Only the target position's terrain applies (e.g. woods: -1 CV to each enfilading card; a hill
the firer stands on gives nothing). Engaged positions cannot enfilade but can be enfiladed."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.dice import Dice
from companion.engine import Result, RuleError
from companion.inputs import Inputs, bounded
from companion.odds import Dist
from companion.terms import Terms

from .fire import FireInput, fire_odds, resolve_fire
from .rules import ENFILADE_F, MOST_DICE


@dataclass(frozen=True)
class EnfiladeInput(Inputs):
    RULE = "DX-13.2"
    dice: tuple[int, ...] = bounded(0, MOST_DICE)   # each firing card's dice (CV with its own modifiers, DX-13.7)
    line: Literal["own", "enemy"]                    # the line the firers stand in (ENFILADE_F)
    target_cv: int = bounded(-MOST_DICE, MOST_DICE, default=0)   # the target position's CV modifier (DX-10.3)

    def __post_init__(self) -> None:
        super().__post_init__()
        if sum(self._dice()) > MOST_DICE:
            raise RuleError(self.RULE, f"EnfiladeInput 'dice' rolls more than {MOST_DICE} dice in one throw")

    def _parts(self) -> tuple[Terms, ...]:
        """Each card's dice and the target position's modifier on them."""
        return tuple(Terms((("firer's dice", n), ("target position", self.target_cv))) for n in self.dice)

    def _dice(self) -> tuple[int, ...]:
        return tuple(max(0, t.total) for t in self._parts())

    def fire(self) -> FireInput:
        return FireInput(tuple((n, ENFILADE_F[self.line]) for n in self._dice()),
                         self._parts() if self.target_cv else ())


def resolve_enfilade(inputs: EnfiladeInput, dice: Dice) -> Result:
    fire = resolve_fire(inputs.fire(), dice, f"Enfilade from the {inputs.line} line", "DX-13.2")
    return Result("enfilade", {"inputs": inputs}, fire.rolls, fire.outcome, ("DX-13.2", *fire.rules), fire.summary)


def enfilade_odds(inputs: EnfiladeInput) -> Dist:
    return fire_odds(inputs.fire())


def enfilade_inputs():
    for line in ENFILADE_F:
        for cards in ((1,), (3,), (2, 2), (4, 1)):
            for modifier in (0, -1):
                yield EnfiladeInput(cards, line, modifier)
