"""BS-REC recruitment: a roll for each empty own home state; success places a unit from the pool, until
the side's units on the board reach its maximum force (or the pool is empty)."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs, bounded
from companion.odds import Dist, dist


@dataclass(frozen=True)
class RecruitInput(Inputs):
    RULE = "BS-REC"
    success: int = bounded(2, 6)     # the state's success value k: a roll of k or more


def resolve_recruit(inputs: RecruitInput, dice: Dice, state: str = "") -> Result:
    face = dice.d(6, f"Recruitment{' in ' + state if state else ''} ({inputs.success}+, BS-REC)")
    ok = face >= inputs.success
    where = f" in {state}" if state else ""
    return Result("recruit", {"success": inputs.success}, tuple(dice.rolls[-1:]), ok, ("BS-REC",),
                  f"Recruitment{where}: rolled {face} against {inputs.success}+, "
                  + ("a unit is placed" if ok else "no unit"), {"face": face})


def recruit_odds(inputs: RecruitInput) -> Dist:
    return dist({True: Fraction(7 - inputs.success, 6), False: Fraction(inputs.success - 1, 6)})


def recruit_inputs():
    return [RecruitInput(k) for k in range(2, 7)]


def recruits_odds(success_values: tuple[int, ...], room: int) -> Dist:
    """Units the phase places: min(room, successes) over the eligible states (a Poisson-binomial law;
    the order of the rolls decides only where the units appear)."""
    counts: dict[int, Fraction] = {0: Fraction(1)}
    for k in success_values:
        p = Fraction(7 - k, 6)
        nxt: dict[int, Fraction] = {}
        for n, q in counts.items():
            nxt[n] = nxt.get(n, Fraction(0)) + q * (1 - p)
            nxt[n + 1] = nxt.get(n + 1, Fraction(0)) + q * p
        counts = nxt
    capped: dict[int, Fraction] = {}
    for n, q in counts.items():
        capped[min(n, room)] = capped.get(min(n, room), Fraction(0)) + q
    return dist(capped)
