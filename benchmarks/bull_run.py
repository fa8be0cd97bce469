"""Battle at Bull Run: each odds twin at its worst-case input, and the by-turn curves, against plain
Monte Carlo of the same procedures (100,000 trials)."""
from __future__ import annotations

import pkgutil
from importlib import import_module

import engines.bull_run as game
from companion.odds import fractions, happened_by, monte_carlo
from engines.bull_run.combat import CombatInput, SequenceInput, StackInput
from engines.bull_run.fire import FireInput
from engines.bull_run.flank import AwarenessInput
from engines.bull_run.hesitation import HesitationInput
from engines.bull_run.rules import TURNS
from engines.bull_run.solitaire import ActionInput

from .harness import Benchmark

SLUG = "bull_run"
TRIALS = 100_000

# The largest input of each procedure: the most dice and the most branches.
WORST = {
    "initiative": None,
    "beauregard_crossing": None,
    "flank_awareness": AwarenessInput(adjacent=False),
    "farm_ford": None,
    "csa_action": ActionInput(union_south=4, aware=True),
    "hesitation": HesitationInput(rolls=2),
    "fire": FireInput(sp=12, modifier=0),
    "retreat_check": None,
    "combat": CombatInput(StackInput(12, (6, 6)), StackInput(12, (6, 6)), defender_fires=True),
    "attack_sequence": SequenceInput(StackInput(5, (3, 2)),
                                     (StackInput(12, (6, 6)), StackInput(2, (2,)), StackInput(9, (5, 4))),
                                     modifiers=(-2, 0, -1), defender_fires=True),
}

# Three chances of 1/3 a turn that players follow over the game (BR-8.4b, BR-8.4a, BR-8.3).
CURVES = ("farm_ford", "flank_awareness", "beauregard_crossing")


def clear_caches() -> None:
    """Forget every cached odds of the engine, so a twin is timed cold."""
    for info in pkgutil.iter_modules(game.__path__, game.__name__ + "."):
        for value in vars(import_module(info.name)).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def twin(proc, trials: int, runs: int) -> Benchmark:
    inputs = WORST[proc.name]
    return Benchmark(SLUG, proc.name, ours=lambda: proc.odds(inputs),
                     baseline=lambda: monte_carlo(lambda dice: proc.resolve(inputs, dice).outcome, trials),
                     prepare=clear_caches, runs=runs)


def first_success(proc, dice) -> int:
    """The turn of the first success of a once-a-turn roll (TURNS + 1 for never)."""
    for turn in range(1, TURNS + 1):
        if proc.resolve(WORST[proc.name], dice).outcome:
            return turn
    return TURNS + 1


def by_turn_curves(trials: int, runs: int) -> Benchmark:
    """P(it has happened by turn n), n = 1..15, for each curve: exact from the twins, or simulated."""
    procs = [next(p for p in game.PROCEDURES if p.name == name) for name in CURVES]

    def ours():
        return [[happened_by(fractions(p.odds(WORST[p.name]))[True], n) for n in range(1, TURNS + 1)] for p in procs]

    def baseline():
        return [monte_carlo(lambda dice: first_success(p, dice), trials) for p in procs]

    return Benchmark(SLUG, "happened_by", ours, baseline, prepare=clear_caches, runs=runs)


def benchmarks(trials: int = TRIALS, runs: int = 7) -> list[Benchmark]:
    return [*(twin(proc, trials, runs) for proc in game.PROCEDURES), by_turn_curves(trials, runs)]
