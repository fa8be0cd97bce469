"""Galactic Chess Game: the duel matrix for 10 fleets a side (target under 20 ms), the exact outcome of a 3 v 3
battle (under 200 ms) and 100,000 simulated 6 v 6 battles (under 2 s), each cold (caches cleared) against a
baseline doing the same job plainly in the same run."""
from __future__ import annotations

import pkgutil
import random
from importlib import import_module

import engines.galactic_chess as game
from companion.odds import monte_carlo
from engines.galactic_chess.advice import duel_matrix
from engines.galactic_chess.battle import ATTACKER, DEFENDER, FLEET, BattleUnit
from engines.galactic_chess.duel import DuelInput, resolve_duel
from engines.galactic_chess.outlook import DEN, BattleInput, Model, battle_odds, resolve_battle, simulate

from .harness import Benchmark

SLUG = "galactic_chess"
TRIALS = 100_000
EXACT_BASELINE_TRIALS = 10_000


def clear_caches() -> None:
    """Forget every cached odds of the engine, so ours is timed cold."""
    for info in pkgutil.iter_modules(game.__path__, game.__name__ + "."):
        for value in vars(import_module(info.name)).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def fleets(n: int, side: int, seed: int) -> tuple[BattleUnit, ...]:
    """n invented fleets of spread values (stars 1-3, strategy 2-7, attack 0-4, defence 6-11)."""
    rng = random.Random(seed)
    owner, camp = ("Red", "EMP") if side == ATTACKER else ("Blue", "FPA")
    return tuple(BattleUnit(f"{owner} {i + 1}", side, owner, camp, FLEET, rng.randint(1, 3), rng.randint(2, 7),
                            rng.randint(0, 4), rng.randint(6, 11), i) for i in range(n))


def matrix(trials: int, runs: int) -> Benchmark:
    """The 10 x 10 duel matrix (exact) against `trials` simulated duels spread over the 100 pairs."""
    mine = [(u.name, u.fighter) for u in fleets(10, ATTACKER, 1)]
    theirs = [(u.name, u.fighter) for u in fleets(10, DEFENDER, 2)]
    pairs = [DuelInput(m, t) for _, m in mine for _, t in theirs]
    each = max(1, trials // len(pairs))

    def baseline():
        return [monte_carlo(lambda dice, pair=pair: resolve_duel(pair, dice).outcome, each) for pair in pairs]

    return Benchmark(SLUG, "duel_matrix", lambda: duel_matrix(mine, theirs), baseline, prepare=clear_caches, runs=runs)


def battle_exact(trials: int, runs: int) -> Benchmark:
    """The exact outcome of a 3 v 3 battle against simulating it die by die."""
    inputs = BattleInput(fleets(3, ATTACKER, 3) + fleets(3, DEFENDER, 4))
    return Benchmark(SLUG, "battle_exact", lambda: battle_odds(inputs),
                     lambda: monte_carlo(lambda dice: resolve_battle(inputs, dice).outcome, trials),
                     prepare=clear_caches, runs=runs)


def plain_loop(inputs: BattleInput, trials: int, seed: int = 0) -> dict:
    """The same Monte Carlo as a plain Python loop: one battle at a time through the same transitions."""
    model = Model(inputs)
    rng = random.Random(seed)
    counts: dict = {}
    for _ in range(trials):
        field, vp = model.first(), model.zero()
        while not model.over(field):
            cumulative, ends = model.branches(field)
            draw = rng.randrange(DEN)
            field, won = ends[next(i for i, c in enumerate(cumulative) if c > draw)]
            vp = tuple(a + b for a, b in zip(vp, won))
        outcome = model.outcome(field, vp)
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def battle_monte_carlo(trials: int, runs: int) -> Benchmark:
    """100,000 battles of 6 v 6 (numpy, all battles a step at a time) against the plain Python loop."""
    inputs = BattleInput(fleets(6, ATTACKER, 5) + fleets(6, DEFENDER, 6))

    def ours():
        model = Model(inputs)
        return simulate(model, {(model.first(), model.zero()): 1}, trials)

    return Benchmark(SLUG, "battle_monte_carlo", ours, lambda: plain_loop(inputs, trials), prepare=clear_caches,
                     runs=runs)


def benchmarks(trials: int = TRIALS, runs: int = 7) -> list[Benchmark]:
    return [matrix(trials, runs), battle_exact(min(trials, EXACT_BASELINE_TRIALS), runs),
            battle_monte_carlo(trials, runs)]
