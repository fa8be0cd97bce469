"""GC-6B.5 the engagement: one duel between the acting unit and its target.

Each side attacks once: 2d6 + its attack >= the other's defence destroys it. The higher strategy
strikes first and its result applies at once; the lower strikes back only if it survived, whoever
the actor is. With equal strategy both strike and both results apply together. A battle-support
card adds its signed modifier to the roll it names.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs
from companion.odds import Dist, dist
from companion.terms import Terms

from .two_dice import WAYS, at_least, needs, signed, support_term, throw

ACTOR, TARGET = "actor", "target"


@dataclass(frozen=True, order=True)
class Fighter(Inputs):
    RULE = "GC-6B.5"

    strategy: int
    attack: int
    defence: int


@dataclass(frozen=True)
class StrikeInput(Inputs):
    RULE = "GC-6B.5"

    attack: int
    defence: int
    modifier: int = 0   # a battle-support card on this roll


def need_terms(inputs: StrikeInput) -> Terms:
    """The parts of the 2d6 total that hits: defence - attack - modifier."""
    return support_term(Terms((("defence", inputs.defence), ("attack", -inputs.attack))), inputs.modifier)


def need(inputs: StrikeInput) -> int:
    """The 2d6 total that hits: the sum of `need_terms`."""
    return need_terms(inputs).total


def hit_chance(inputs: StrikeInput) -> Fraction:
    """q(D - A): the chance one strike destroys its target."""
    return Fraction(at_least(need(inputs)), WAYS)


def resolve_strike(inputs: StrikeInput, dice: Dice, label: str = "Strike") -> Result:
    total = throw(dice, f"{label}: {needs(need_terms(inputs), 'more')} (GC-6B.5)")
    hit = total >= need(inputs)
    text = (f"{label}: {total} + attack {inputs.attack}{signed(inputs.modifier)} = "
            f"{total + inputs.attack + inputs.modifier} vs defence {inputs.defence}: {'hit' if hit else 'miss'}")
    return Result("strike", {"attack": inputs.attack, "defence": inputs.defence, "modifier": inputs.modifier},
                  tuple(dice.rolls[-1:]), hit, ("GC-6B.5",), text, {"total": total})


def strike_odds(inputs: StrikeInput) -> Dist:
    p = hit_chance(inputs)
    return dist({True: p, False: 1 - p})


def strike_inputs():
    """Every distance between attack and defence that matters (always, sometimes and never a hit)."""
    return [StrikeInput(attack, defence, modifier) for attack in (0, 3) for defence in range(0, 16)
            for modifier in (0, -2, 1)]


@dataclass(frozen=True)
class DuelInput(Inputs):
    RULE = "GC-6B.5"

    actor: Fighter
    target: Fighter
    actor_modifier: int = 0
    target_modifier: int = 0


@dataclass(frozen=True, order=True)
class DuelOutcome:
    actor_destroyed: bool
    target_destroyed: bool


def first_striker(inputs: DuelInput) -> str | None:
    """Who rolls first: the higher strategy; None when equal (both roll, results together)."""
    if inputs.actor.strategy == inputs.target.strategy:
        return None
    return ACTOR if inputs.actor.strategy > inputs.target.strategy else TARGET


def other(who: str) -> str:
    return TARGET if who == ACTOR else ACTOR


def strike_of(inputs: DuelInput, who: str) -> StrikeInput:
    """The strike `who` makes on the other."""
    if who == ACTOR:
        return StrikeInput(inputs.actor.attack, inputs.target.defence, inputs.actor_modifier)
    return StrikeInput(inputs.target.attack, inputs.actor.defence, inputs.target_modifier)


def opening(inputs: DuelInput) -> tuple[str, ...]:
    """The strikes rolled at once when the duel starts: the first striker's, or both when equal."""
    first = first_striker(inputs)
    return (ACTOR, TARGET) if first is None else (first,)


def outcome_of(hits: dict[str, bool]) -> DuelOutcome:
    """Who is destroyed, from the strikes made ({striker: hit})."""
    return DuelOutcome(hits.get(TARGET, False), hits.get(ACTOR, False))


def strikes_back(inputs: DuelInput, hits: dict[str, bool]) -> str | None:
    """After the opening: the second striker, if it survived and has not struck yet."""
    first = first_striker(inputs)
    if first is None or hits[first]:
        return None
    return other(first)


def strike_label(who: str, hits: dict[str, bool]) -> str:
    return f"{'Actor' if who == ACTOR else 'Target'}{' strikes back' if hits else ''}"


def resolve_duel(inputs: DuelInput, dice: Dice) -> Result:
    hits: dict[str, bool] = {}
    results = []
    for who in opening(inputs):
        results.append(resolve_strike(strike_of(inputs, who), dice, strike_label(who, {})))
        hits[who] = results[-1].outcome
    back = strikes_back(inputs, hits)
    if back:
        results.append(resolve_strike(strike_of(inputs, back), dice, strike_label(back, hits)))
        hits[back] = results[-1].outcome
    outcome = outcome_of(hits)
    return Result("duel", {"inputs": inputs}, tuple(r for res in results for r in res.rolls), outcome,
                  ("GC-6B.5",), "; ".join(r.summary for r in results))


@lru_cache(maxsize=None)
def duel_table(inputs: DuelInput) -> dict[DuelOutcome, Fraction]:
    """Unequal strategy: the second striker dies with p_f, the first with (1-p_f)p_s, nobody otherwise.
    Equal strategy: the two strikes are independent and apply together."""
    p = {who: hit_chance(strike_of(inputs, who)) for who in (ACTOR, TARGET)}
    first = first_striker(inputs)
    if first is None:
        chance = lambda who, hit: p[who] if hit else 1 - p[who]
        weights = {outcome_of({ACTOR: a, TARGET: t}): chance(ACTOR, a) * chance(TARGET, t)
                   for a in (True, False) for t in (True, False)}
    else:
        second = other(first)
        weights = {outcome_of({first: True}): p[first],
                   outcome_of({first: False, second: True}): (1 - p[first]) * p[second],
                   outcome_of({first: False, second: False}): (1 - p[first]) * (1 - p[second])}
    return {o: w for o, w in weights.items() if w}


def duel_odds(inputs: DuelInput) -> Dist:
    return dist(duel_table(inputs))


def duel_inputs():
    """Higher, lower and equal strategy, with sure, likely, unlikely and impossible hits, and support."""
    fighters = [Fighter(6, 2, 10), Fighter(4, 1, 9), Fighter(5, 2, 9), Fighter(5, 3, 10), Fighter(3, 10, 2),
                Fighter(5, 0, 15)]
    for actor in fighters:
        for target in fighters:
            yield DuelInput(actor, target)
    yield DuelInput(fighters[0], fighters[1], actor_modifier=2, target_modifier=-1)
    yield DuelInput(fighters[2], fighters[3], target_modifier=3)
