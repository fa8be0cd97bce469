"""DX-13.3 flank attack (in the Movement step): reserve cards declared against a flank position each take a
morale check at CV + code, +1 for cavalry, -1 for artillery, plus the attack rating of a reserve leader who
goes with them (A10; only the cards it commands under DX-13.7). A natural 6 fails, a natural 1 passes
(DX-6.0). Cards that pass are revealed, move in and fire at once; the others stay in the reserve, done for
the turn. The number that pass is Poisson-binomial."""
from __future__ import annotations

from dataclasses import dataclass

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs
from companion.odds import Dist, dist
from companion.terms import Terms

from .fire_effect import poisson_binomial
from .morale import each_at, pass_chance, passes, told_checks


@dataclass(frozen=True)
class FlankInput(Inputs):
    RULE = "DX-13.3"
    morales: tuple[int, ...]                # each card's flank-attack morale (and the leader's with A10's check)
    made_of: tuple[Terms, ...] = ()         # the parts of each, when known (modifiers.flank_terms)

    def __post_init__(self) -> None:
        super().__post_init__()
        told_checks(self)


def resolve_flank(inputs: FlankInput, dice: Dice, names: tuple[str, ...] = ()) -> Result:
    """One die for all the cards, a die each in their order (the label says each card's number, DX-13.3)."""
    names = names or tuple(f"card {i + 1}" for i in range(len(inputs.morales)))
    faces = dice.roll(len(inputs.morales), 6, f"Flank attack checks, a die each: {each_at(inputs, names)} (DX-13.3)") \
        if inputs.morales else ()
    passed = tuple(passes(f, m) for f, m in zip(faces, inputs.morales))
    parts = [f"{n} ({m}) rolled {f}, {'goes in' if ok else 'stays'}" for n, m, f, ok in
             zip(names, inputs.morales, faces, passed)]
    return Result("flank_attack", {"morales": inputs.morales}, tuple(dice.rolls[-1:]) if faces else (), sum(passed),
                  ("DX-13.3", "DX-6.0"), "Flank attack: " + ("; ".join(parts) or "no cards"), {"passed": passed})


def flank_odds(inputs: FlankInput) -> Dist:
    return dist(poisson_binomial([pass_chance(m) for m in inputs.morales]))


def flank_inputs():
    yield FlankInput(())
    for morales in ((4,), (4, 4, 3), (0, 7), (2, 5, 1), (3, 3, 3, 3)):
        yield FlankInput(morales)
