"""灰に硝煙と青き天: the optimal-play tables of the combat roll (BS-CMB, digest section 8) against a plain
expectimax that tries every legal keep of every throw (`tray.legal_keeps`) with no table.

- keep advice for one decision with 16 dice, tables warm (target under 50 ms), for each side;
- the full policy for 16 dice a side, cold (target under 10 s): the defender's replies and the attacker's table;
- the same at 6 dice, the most the plain expectimax finishes in reasonable time.

The baseline of each line is the plain expectimax doing the job at 6 dice, so a 16-dice line shows what a
16-dice answer costs next to a 6-dice brute-force one. `expectimax` is also the tests' independent reference.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import factorial

from engines.border_states import optimal
from engines.border_states.advice import attacker_advice, defender_advice
from engines.border_states.tray import FACES, Strength, Tray, legal_keeps, outcome

from .harness import Benchmark

SLUG = "border_states"
LARGE, SMALL = 16, 6
ATTACKER = Strength(5, 3, 2)  # an attacker result the defender replies to


@lru_cache(maxsize=None)
def throws(n: int, exact: bool) -> tuple:
    """Every throw of n dice (a count per face) with its chance."""
    out = []

    def fill(prefix, left):
        if len(prefix) == FACES - 1:
            counts = prefix + (left,)
            ways = factorial(n)
            for c in counts:
                ways //= factorial(c)
            out.append((counts, Fraction(ways, 6 ** n) if exact else ways / 6 ** n))
            return
        for c in range(left + 1):
            fill(prefix + (c,), left - c)

    fill((), n)
    return tuple(out)


@lru_cache(maxsize=None)
def keeps(throw: tuple) -> tuple:
    return tuple(legal_keeps(throw))


def expectimax(terminal, damage_at: int | None = None, exact: bool = True):
    """value(left, confirmed, damage): the best expected value vector (compared lexicographically) over every
    legal keep of every throw; `terminal(tray)` when no die is left; a keep's damage dice are added to
    component `damage_at` (the damage dice to come)."""

    @lru_cache(maxsize=None)
    def value(left: int, confirmed: tuple, damage: int) -> tuple:
        if left == 0:
            return terminal(Tray(0, confirmed, damage))
        total = None
        for throw, p in throws(left, exact):
            best = max(keep_value(value, Tray(left, confirmed, damage), keep, damage_at) for keep in keeps(throw))
            total = tuple(p * b for b in best) if total is None else tuple(t + p * b for t, b in zip(total, best))
        return total

    return value


def keep_value(value, tray: Tray, keep, damage_at) -> tuple:
    """The value after a keep (already checked legal: it comes from `legal_keeps`)."""
    v = value(tray.left - keep.size, tuple(c + k for c, k in zip(tray.confirmed, keep.confirm)),
              tray.damage + keep.damage)
    if damage_at is None or not keep.damage:
        return v
    return v[:damage_at] + (v[damage_at] + keep.damage,) + v[damage_at + 1:]


def _result(tray: Tray, attacker: Strength, weights) -> tuple:
    won = outcome(attacker, tray.result())
    win, draw = int(won == "defender"), int(won == "draw")
    return weights[0] * win + weights[1] * draw, win, draw


@lru_cache(maxsize=None)
def defender(attacker: Strength, objective: str = optimal.DEFAULT, exact: bool = True):
    """The defender against a known result: (primary, damage comparison, P(win), P(draw), damage to come)."""
    weights = optimal.OBJECTIVES[objective]

    def terminal(tray):
        p, win, draw = _result(tray, attacker, weights)
        return p, (tray.damage > attacker.d) - (tray.damage < attacker.d), win, draw, 0

    return expectimax(terminal, 4, exact)


@lru_cache(maxsize=None)
def reply(attacker: Strength, objective: str = optimal.DEFAULT, exact: bool = True):
    """The defender's reply as the attacker models it: (primary, P(win), P(draw))."""
    weights = optimal.OBJECTIVES[objective]
    return expectimax(lambda tray: _result(tray, attacker, weights), None, exact)


@lru_cache(maxsize=None)
def attacker(defender_dice: int, objective: str = optimal.DEFAULT, exact: bool = True):
    """The attacker against the defender's reply: (primary, damage to come, P(win), P(draw))."""

    def terminal(tray):
        s = tray.result()
        p, win, draw = reply(Strength(s.s, s.f, 0), objective, exact)(defender_dice, (0,) * FACES, 0)
        return 1 - p, 0, 1 - win - draw, draw

    return expectimax(terminal, 1, exact)


def strength(value_of_s, exact: bool = True):
    """Opponent-blind: the best expected value_of_s(S)."""
    return expectimax(lambda tray: (value_of_s(tray.result().s),), None, exact)


def throw_of(n: int) -> tuple[int, ...]:
    """A throw of n dice spread over the faces (the most keeps to rank)."""
    return tuple(n // FACES + (f < n % FACES) for f in range(FACES))


def clear_caches() -> None:
    """Forget every table, in memory and in the data folder, so ours is timed cold."""
    for value in vars(optimal).values():
        if callable(getattr(value, "cache_clear", None)):
            value.cache_clear()
    for path in optimal.cache_folder().glob("*.npz"):
        path.unlink()


def brute_advice(side: str, n: int):
    tray, throw = Tray(n), throw_of(n)
    if side == "defender":
        value = defender(ATTACKER, exact=False)
        return [keep_value(value, tray, k, 4) for k in legal_keeps(throw)]
    value = attacker(n, exact=False)
    return [keep_value(value, tray, k, 1) for k in legal_keeps(throw)]


def advice(side: str, n: int):
    if side == "defender":
        return defender_advice(Tray(n), throw_of(n), ATTACKER)
    return attacker_advice(Tray(n), throw_of(n), n)


def brute_policy(n: int):
    return attacker(n, exact=False)(n, (0,) * FACES, 0)


def advice_warm(side: str, n: int, runs: int) -> Benchmark:
    """One decision of `side` with n dice each, its tables built beforehand."""

    def brute():
        clear_brute()
        return brute_advice(side, SMALL)

    return Benchmark(SLUG, f"{side}_advice_{'sixteen' if n == LARGE else 'six'}_warm", lambda: advice(side, n),
                     brute, prepare=lambda: advice(side, n), runs=runs)


def policy_cold(n: int, runs: int) -> Benchmark:
    """Every table a battle of n dice a side needs before the defender rolls, built from nothing."""

    def brute():
        clear_brute()
        return brute_policy(SMALL)

    return Benchmark(SLUG, f"policy_{'sixteen' if n == LARGE else 'six'}_cold", lambda: optimal.full_policy(n), brute,
                     prepare=clear_caches, runs=runs)


def clear_brute() -> None:
    for fn in (defender, reply, attacker, throws, keeps):
        fn.cache_clear()


def benchmarks(large: int = LARGE, runs: int = 5) -> list[Benchmark]:
    return [advice_warm("defender", large, runs), advice_warm("attacker", large, runs),
            policy_cold(large, 1), advice_warm("attacker", SMALL, runs), policy_cold(SMALL, runs)]
