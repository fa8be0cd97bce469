"""Random legal play: an action picked among those open now, its parameters among their legal choices.

Used by the tests to play whole games (and usable as the simplest opponent). It knows nothing of any
game: everything comes from the engine's action specs (`companion.spec`).
"""
from __future__ import annotations

import random
from itertools import islice
from typing import Any

from .spec import (
    COUNTS,
    NUMBER,
    ONE_OF,
    RECORD,
    SOME_OF,
    TEXT,
    YES_NO,
    Actions,
    ActionSpec,
    Legal,
    Param,
    selections,
)

CORRECTION_CHANCE = 0.02  # how often a correction is tried when one is open
DEFAULT_CHANCE = 0.8      # how often a yes/no takes its default answer
CHOOSING_WEIGHT = 4       # how much likelier an action with parameters is than one without
WORDS = ("Ann", "Ben", "scouts", "ford", "east", "1", "hill")


def random_value(param: Param, legal: Legal, rng: random.Random) -> Any:
    """A legal value of one parameter, at random."""
    kind = param.kind
    if kind == YES_NO and legal.offers(param.default) and rng.random() < DEFAULT_CHANCE:
        return param.default  # a fact is mostly as usual: games then run their whole length
    if kind in (ONE_OF, YES_NO):
        return rng.choice(legal.values)
    if kind == NUMBER:
        low, high = legal.low, legal.high
        return rng.choice((low, high, rng.randint(low, min(high, low + 6)), rng.randint(low, high)))
    if kind == SOME_OF:
        values = legal.values
        high = legal.high if legal.high is not None else legal.low + 3
        if not param.repeat:
            high = min(high, len(values))
        for _ in range(20):
            count = rng.randint(legal.low, max(legal.low, min(high, legal.low + 4)))
            picked = [rng.choice(values) for _ in range(count)] if param.repeat else rng.sample(values, count)
            if legal.fits is None or legal.fits(tuple(picked)):
                return picked
        return list(rng.choice(list(islice(selections(param, legal), 200))))
    if kind == COUNTS:
        total = rng.randint(legal.low, max(legal.low, min(legal.high, sum(legal.caps))))
        spread = dict.fromkeys(legal.values, 0)
        room = [v for v, cap in zip(legal.values, legal.caps) for _ in range(cap)]
        for v in rng.sample(room, total):
            spread[v] += 1
        return spread
    if kind == TEXT:
        return " ".join(rng.sample(WORDS, rng.randint(1, 3)))[:legal.high]
    raise ValueError(f"no random value for a {kind} parameter")


def random_params(spec: ActionSpec, state: Any, rng: random.Random) -> dict[str, Any]:
    """Legal parameters of an open action, chosen in order (each given the ones before it)."""
    chosen: dict[str, Any] = {}
    given: dict[str, Any] = {}
    for p in spec.params:
        legal = p.legal(state, chosen)
        if legal is None or p.kind == RECORD:  # not asked, or entered data random play leaves out
            chosen[p.name] = None if p.required else p.default  # as `apply` sees a parameter not given
            continue
        chosen[p.name] = given[p.name] = random_value(p, legal, rng)
    return given


def playable(spec: ActionSpec) -> bool:
    """Random play leaves out actions that take entered data (a roster, a table of settings)."""
    return not any(p.kind == RECORD and p.required for p in spec.params)


def random_action(actions: Actions, state: Any, rng: random.Random) -> dict[str, Any] | None:
    """A legal action now, at random (corrections only now and then); None when the game is over."""
    open_now = [actions.specs[name] for name in actions.open(state)]
    steps = [s for s in open_now if not s.correction and playable(s)]
    corrections = [s for s in open_now if s.correction and playable(s)]
    if not steps:
        return None  # the game is over: only corrections are left
    if corrections and rng.random() < CORRECTION_CHANCE:
        steps = corrections
    # An action with something to choose (a move, an attack) is tried more often than one that ends a step,
    # so a game at random moves and fights as a game does, and ends.
    spec = rng.choices(steps, weights=[CHOOSING_WEIGHT if s.params else 1 for s in steps])[0]
    return {"type": spec.name, **random_params(spec, state, rng)}
