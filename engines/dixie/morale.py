"""DX-6.0 morale checks: one d6 per hit; a roll <= modified morale removes the hit, a higher roll routs the
card (it is eliminated and later checks are moot). A natural 1 always passes and a natural 6 always fails,
so p(pass) = clamp(M, 1, 5)/6 and p(a card survives h hits) = p^h.

Modified morale = CV + code (A +1, B 0, C -1) + the commanding leader's attack or defense rating for the
card's stance (DX-11.1b, DX-13.7) + terrain (DX-10.3; not in melee, DX-13.1) + specials (DX-12.0).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs, bounded
from companion.odds import Dist, dist

from .rules import CV_RANGE, NATURAL_FAIL, NATURAL_PASS

HOLDS, ROUTS = "holds", "routs"


@dataclass(frozen=True)
class MoraleInput(Inputs):
    RULE = "DX-6.0"
    morale: int                                # modified morale
    hits: int = bounded(0, CV_RANGE[1])        # one check per hit; a unit holds at most its CV (DX-7.3)


def passes(face: int, morale: int) -> bool:
    """DX-6.0: natural 1 passes, natural 6 fails, otherwise roll <= morale."""
    return face == NATURAL_PASS or (face != NATURAL_FAIL and face <= morale)


@lru_cache(maxsize=None)
def pass_chance(morale: int) -> Fraction:
    return Fraction(sum(passes(f, morale) for f in range(1, 7)), 6)


def resolve_morale(inputs: MoraleInput, dice: Dice, who: str = "The card") -> Result:
    faces = dice.roll(inputs.hits, 6, f"Morale: {who}, {inputs.hits} check(s) at {inputs.morale} (DX-6.0)") \
        if inputs.hits else ()
    failed = [f for f in faces if not passes(f, inputs.morale)]
    outcome = ROUTS if failed else HOLDS
    text = (f"{who} checks morale {inputs.morale} against {inputs.hits} hit{'s' if inputs.hits != 1 else ''}: "
            f"rolled {' '.join(map(str, faces)) or 'nothing'}, " + ("routs" if failed else "holds"))
    return Result("morale", {"morale": inputs.morale, "hits": inputs.hits}, tuple(dice.rolls[-1:]) if faces else (),
                  outcome, ("DX-6.0",), text, {"faces": faces})


def morale_odds(inputs: MoraleInput) -> Dist:
    hold = pass_chance(inputs.morale) ** inputs.hits
    return dist({HOLDS: hold, ROUTS: 1 - hold})


def morale_inputs():
    """Morale -1 to 8 (past both clamps) against 0 to 4 hits."""
    for m in range(-1, 9):
        for h in range(0, 5):
            yield MoraleInput(m, h)
