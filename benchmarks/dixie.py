"""Dixie: Gettysburg: the exact advice a player waits for, against plain Monte Carlo of the same procedures
(100,000 trials): a full position's fire followed by the owner's morale step (4 cards a side, CV 4, a
leader), and the melee DP for 4 units against 4."""
from __future__ import annotations

import pkgutil
from fractions import Fraction
from importlib import import_module

import engines.dixie as game
from companion.odds import monte_carlo
from engines.dixie.fire import FireInput
from engines.dixie.fire_effect import FireEffectInput, TargetCard, fire_effect_odds, resolve_fire_effect
from engines.dixie.melee import Fighter, MeleeInput, MeleeRoundInput, MeleeSide, plan, resolve_melee

from .harness import Benchmark

SLUG = "dixie"
TRIALS = 100_000

# Four 4CV infantry fire (16 dice at F2) into four 4CV B units (morale 4, 5 with their 1/1 leader) and the leader.
FULL_POSITION = FireEffectInput(FireInput(((16, 2),)), (TargetCard(4, 5, 4),) * 4, leader=True)
# Four 4CV infantry a side in melee (F3), each side with a 1/1 leader; a position worth 2 cards.
FOUR = MeleeSide((Fighter(4, 3, 4, 5, 4),) * 4, leader=True)
MELEE = MeleeInput(MeleeRoundInput(FOUR, FOUR), Fraction(2))


def clear_caches() -> None:
    """Forget every cached odds of the engine, so the exact computation is timed cold."""
    for info in pkgutil.iter_modules(game.__path__, game.__name__ + "."):
        for value in vars(import_module(info.name)).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def benchmarks(trials: int = TRIALS, runs: int = 7) -> list[Benchmark]:
    return [
        Benchmark(SLUG, "fire_then_morale", ours=lambda: fire_effect_odds(FULL_POSITION),
                  baseline=lambda: monte_carlo(lambda dice: resolve_fire_effect(FULL_POSITION, dice).outcome, trials),
                  prepare=clear_caches, runs=runs),
        Benchmark(SLUG, "melee_advice", ours=lambda: plan(MELEE.round, MELEE.position_value),
                  baseline=lambda: monte_carlo(lambda dice: resolve_melee(MELEE, dice).outcome, trials),
                  prepare=clear_caches, runs=runs),
    ]
