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
from companion.engine import Result, RuleError
from companion.inputs import Inputs, bounded
from companion.odds import Dist, dist
from companion.terms import Terms, check_sum

from .rules import CV_RANGE, NATURAL_FAIL, NATURAL_PASS

HOLDS, ROUTS = "holds", "routs"


@dataclass(frozen=True)
class MoraleInput(Inputs):
    RULE = "DX-6.0"
    morale: int                                # modified morale
    hits: int = bounded(0, CV_RANGE[1])        # one check per hit; a unit holds at most its CV (DX-7.3)
    made_of: Terms | None = None               # the parts of the morale, when known (modifiers.morale_terms)

    def __post_init__(self) -> None:
        super().__post_init__()
        check_sum(self, "made_of", self.morale, self.made_of, self.RULE)


def passes(face: int, morale: int) -> bool:
    """DX-6.0: natural 1 passes, natural 6 fails, otherwise roll <= morale."""
    return face == NATURAL_PASS or (face != NATURAL_FAIL and face <= morale)


@lru_cache(maxsize=None)
def pass_chance(morale: int) -> Fraction:
    return Fraction(sum(passes(f, morale) for f in range(1, 7)), 6)


def told_checks(inputs) -> None:
    """`made_of`, when given, holds the parts of each of `morales`: one entry a card, each adding up to it."""
    if inputs.made_of and len(inputs.made_of) != len(inputs.morales):
        raise RuleError(inputs.RULE, f"{type(inputs).__name__} 'made_of' holds {len(inputs.made_of)} entries for "
                                     f"{len(inputs.morales)} cards")
    for m, terms in zip(inputs.morales, inputs.made_of):
        check_sum(inputs, "made_of", m, terms, inputs.RULE)


def each_at(inputs, names: tuple[str, ...]) -> str:
    """Each card's check in the order of the dice: "TC2 at 4 = CV 3 + grade B 0 + leader +1; a face-down CSA
    card" (no number for a card whose parts are withheld)."""
    if not inputs.made_of:
        return "; ".join(f"{n} at {m}" for n, m in zip(names, inputs.morales))
    return "; ".join(f"{n} at {t.said()}" if t else n for n, t in zip(names, inputs.made_of))


def morale_label(inputs: MoraleInput, who: str) -> str:
    """"Morale: Iron Brigade, 2 checks at 6 = CV 3 + grade B 0 + terrain +1 + leader +2 (DX-6.0)"."""
    number = inputs.made_of.said() if inputs.made_of else inputs.morale
    return f"Morale: {who}, {inputs.hits} check{'s' if inputs.hits != 1 else ''} at {number} (DX-6.0)"


def resolve_morale(inputs: MoraleInput, dice: Dice, who: str = "The card") -> Result:
    faces = dice.roll(inputs.hits, 6, morale_label(inputs, who)) if inputs.hits else ()
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
