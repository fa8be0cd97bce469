"""Exact distributions for the engines' odds twins.

A distribution is an `icepool.Die`: outcomes with integer weights, so every probability is an
exact `Fraction`. Outcomes may be numbers (hits), names ("routed", "held") or tuples. Floats are
made only for display.

Besides the helpers, `exhaustive` runs a procedure through every possible sequence of scripted dice:
the independent check every odds twin is tested against. `monte_carlo` is the plain simulation that
benchmarks compare against and that estimates what is too large to enumerate.
"""
from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from typing import Any, Callable, Hashable, Iterable, Mapping

import icepool

from .dice import Dice, DiceExhausted, RandomDice, ScriptedDice

Dist = icepool.Die


def dist(weights: Mapping[Hashable, int | Fraction]) -> Dist:
    """A distribution from outcome -> weight (ints or Fractions; zero weights dropped)."""
    weights = {k: Fraction(v) for k, v in weights.items() if v}
    if not weights:
        raise ValueError("a distribution needs at least one outcome with positive weight")
    scale = math.lcm(*(w.denominator for w in weights.values()))
    return icepool.Die({k: int(w * scale) for k, w in weights.items()}).simplify()


def certain(outcome: Hashable) -> Dist:
    """The distribution of an outcome that happens for sure."""
    return icepool.Die({outcome: 1})




def fractions(d: Dist) -> dict[Any, Fraction]:
    """outcome -> exact probability."""
    total = d.denominator()
    return {k: Fraction(q, total) for k, q in d.items() if q}




def p_exactly(d: Dist, k: Hashable) -> Fraction:
    return fractions(d).get(k, Fraction(0))


def p_at_least(d: Dist, k: int) -> Fraction:
    return sum((p for x, p in fractions(d).items() if x >= k), Fraction(0))


def p_where(d: Dist, test: Callable[[Any], bool]) -> Fraction:
    """P(outcome satisfies test)."""
    return sum((p for x, p in fractions(d).items() if test(x)), Fraction(0))


def mean(d: Dist, value: Callable[[Any], int | Fraction] | None = None) -> Fraction:
    """Expected value of the outcome (or of value(outcome))."""
    value = value or (lambda x: x)
    return sum((p * value(x) for x, p in fractions(d).items()), Fraction(0))


def at_least_table(d: Dist) -> list[tuple[int, Fraction, Fraction]]:
    """(k, P(exactly k), P(at least k)) for k from the lowest to the highest outcome."""
    probs = fractions(d)
    ks = range(min(probs), max(probs) + 1)
    return [(k, probs.get(k, Fraction(0)), p_at_least(d, k)) for k in ks]


def named(d: Dist, order: Iterable[Hashable]) -> list[tuple[Hashable, Fraction]]:
    """Named outcomes in a fixed order, zero where an outcome cannot happen."""
    order = list(order)
    probs = fractions(d)
    missing = set(probs) - set(order)
    if missing:
        raise ValueError(f"outcomes not in the order given: {sorted(map(str, missing))}")
    return [(name, probs.get(name, Fraction(0))) for name in order]


def group(d: Dist, key: Callable[[Any], Hashable]) -> Dist:
    """The distribution of key(outcome): e.g. named outcomes from detailed ones."""
    weights: Counter = Counter()
    for outcome, q in d.items():
        weights[key(outcome)] += q
    return icepool.Die(dict(weights)).simplify()


def happened_by(p: Fraction, n: int) -> Fraction:
    """P(an event with chance p per try has happened within n independent tries) = 1 - (1-p)^n."""
    return 1 - (1 - Fraction(p)) ** n




def exhaustive(procedure: Callable[[Dice], Hashable], limit: int = 20) -> Dist:
    """Run `procedure(dice)` on every sequence of scripted dice it can consume; weigh each by its chance.

    The procedure may stop early or ask for more dice depending on what it rolled; each sequence
    of length L of d-sided dice weighs prod(1/d). `limit` bounds the sequence length.
    """
    weights: dict[Hashable, Fraction] = {}
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        faces, weight = stack.pop()
        try:
            outcome = procedure(ScriptedDice(faces))
        except DiceExhausted as need:
            if len(faces) >= limit:
                raise ValueError(f"procedure needs more than {limit} dice") from None
            stack.extend((faces + (f,), weight / need.sides) for f in range(1, need.sides + 1))
            continue
        weights[outcome] = weights.get(outcome, Fraction(0)) + weight
    return dist(weights)


def monte_carlo(procedure: Callable[[Dice], Hashable], trials: int, seed: int = 0) -> Counter:
    """Outcome counts of `trials` runs of the procedure with random dice."""
    rng = random.Random(seed)
    return Counter(procedure(RandomDice(rng=rng)) for _ in range(trials))
