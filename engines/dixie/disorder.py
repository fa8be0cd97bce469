"""DX-8.3a disorder: when a side's units in a position go over the stacking limit involuntarily (a forced
disengagement, a stack-command leader lost, DX-11.2), every unit of that side there takes one morale check
(DX-6.0); a card that fails does not rout but goes to the reserve. If the position is still over the limit
the cards that remain check again (A13: only the side over the limit). With option A13 the cards check one
at a time until the position is within the limit.

The procedure is one round of checks; `chain` is the exact distribution of the cards sent to the reserve
over all the rounds (a small Markov chain, digest section 8).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import product

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs
from companion.odds import Dist, certain, dist, fractions
from companion.terms import Terms

from .fire_effect import poisson_binomial
from .morale import each_at, pass_chance, passes, told_checks


@dataclass(frozen=True)
class DisorderInput(Inputs):
    RULE = "DX-8.3a"
    morales: tuple[int, ...]                # the units that check this round
    made_of: tuple[Terms | None, ...] = ()  # the parts of each morale; None for a card no page may be told of

    def __post_init__(self) -> None:
        super().__post_init__()
        told_checks(self)


def resolve_disorder(inputs: DisorderInput, dice: Dice, names: tuple[str, ...] = ()) -> Result:
    """One die for all the units, a die each in their order (the label says each unit's number, DX-8.3a)."""
    names = names or tuple(f"unit {i + 1}" for i in range(len(inputs.morales)))
    faces = dice.roll(len(inputs.morales), 6, f"Disorder checks, a die each: {each_at(inputs, names)} (DX-8.3a)") \
        if inputs.morales else ()
    failed = tuple(not passes(f, m) for f, m in zip(faces, inputs.morales))
    parts = [f"{n} ({m}) rolled {f}, {'to the reserve' if bad else 'stays'}" for n, m, f, bad in
             zip(names, inputs.morales, faces, failed)]
    return Result("disorder", {"morales": inputs.morales}, tuple(dice.rolls[-1:]) if faces else (), sum(failed),
                  ("DX-8.3a", "DX-6.0"), "Disorder: " + ("; ".join(parts) or "no units"), {"failed": failed})


def disorder_odds(inputs: DisorderInput) -> Dist:
    return dist(poisson_binomial([1 - pass_chance(m) for m in inputs.morales]))


def disorder_inputs():
    for morales in ((), (3,), (2, 4), (0, 5, 7), (3, 3, 2, 4)):
        yield DisorderInput(morales)


@lru_cache(maxsize=None)
def chain(morales: tuple[int, ...], excess: int, one_at_a_time: bool = False) -> Dist:
    """Cards sent to the reserve until `excess` have gone: rounds of checks by every remaining card, or with
    A13's option one card at a time in the order given, round and round. Rounds (or full turns of the
    order) in which every card passes change nothing, so each step is normalised by the chance that a card
    fails."""
    if excess <= 0 or not morales:
        return certain(0)
    weights: dict[int, Fraction] = {}
    for p, sent, remaining in (_one_by_one if one_at_a_time else _all_at_once)(morales):
        for k, q in fractions(chain(remaining, excess - sent, one_at_a_time)).items():
            weights[sent + k] = weights.get(sent + k, 0) + p * q
    total = sum(weights.values())
    return dist({k: w / total for k, w in weights.items()})


def _all_at_once(morales: tuple[int, ...]):
    """(chance, cards sent, the cards that remain) for each round in which at least one card fails."""
    for outcome in product((True, False), repeat=len(morales)):
        if any(outcome):
            p = Fraction(1)
            for failed, m in zip(outcome, morales):
                p *= (1 - pass_chance(m)) if failed else pass_chance(m)
            yield p, sum(outcome), tuple(m for failed, m in zip(outcome, morales) if not failed)


def _one_by_one(morales: tuple[int, ...]):
    """The first card in the order to fail: the order goes on from the card after it."""
    passed = Fraction(1)
    for i, m in enumerate(morales):
        yield passed * (1 - pass_chance(m)), 1, morales[i + 1:] + morales[:i]
        passed *= pass_chance(m)
