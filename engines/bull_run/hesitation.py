"""BR-10.2 McDowell's hesitation: a Union stack south of Bull Run may attack only on 5-6.

By default (A12) the stack rolls once when it is declared as an attacker; with the per-unit option
each of its units rolls and only the units that pass attack. A failure means no attack this turn;
the stack still defends and fires back.
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs, bounded
from companion.odds import Dist

from .rules import HESITATION, STACK_LIMIT


@dataclass(frozen=True)
class HesitationInput(Inputs):
    RULE = HESITATION.rule

    rolls: int = bounded(1, STACK_LIMIT, default=1)  # 1 for the stack, or one per unit (A12)


def resolve_hesitation(inputs: HesitationInput, dice: Dice, names: tuple[str, ...] = ()) -> Result:
    """Outcome: how many of the rolls pass. `details['passed']` says which (by position)."""
    names = names or tuple(f"roll {i + 1}" for i in range(inputs.rolls))
    faces = [HESITATION.roll(dice, f"McDowell's hesitation: {n} ({HESITATION.rule})")[0] for n in names]
    passed = tuple(bool(HESITATION.results[f]) for f in faces)
    parts = [f"{n} rolled {f}, {'attacks' if ok else 'hesitates'}" for n, f, ok in zip(names, faces, passed)]
    return Result("hesitation", {"rolls": inputs.rolls}, tuple(dice.rolls[-len(faces):]), sum(passed),
                  (HESITATION.rule,), "McDowell's hesitation: " + "; ".join(parts), {"passed": passed})


def hesitation_odds(inputs: HesitationInput) -> Dist:
    """The number of passing rolls: binomial with p = 1/3."""
    return inputs.rolls @ HESITATION.odds().map({True: 1, False: 0})


def hesitation_inputs():
    return [HesitationInput(1), HesitationInput(2)]
