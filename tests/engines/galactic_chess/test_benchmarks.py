"""The benchmark module of the game, run on tiny inputs: one line per benchmark in the harness's format, never a
timing (the targets are read from `make bench`)."""
from __future__ import annotations

import re

import pytest

from benchmarks import galactic_chess
from benchmarks.harness import run
from engines.galactic_chess.outlook import BattleInput, Model, simulate

LINE = re.compile(r"galactic_chess\.(?P<what>[a-z_]+): ours \d+(\.\d+)? ms, baseline \d+(\.\d+)? ms, ratio \d+(\.\d+)?")


@pytest.mark.rule("GC-6B.5", "GC-6B.7")
def test_the_benchmarks_give_one_line_each():
    """The duel matrix (GC-6B.5), the exact 3 v 3 battle and the 6 v 6 Monte Carlo (GC-6B.7)."""
    benches = galactic_chess.benchmarks(trials=20, runs=1)
    assert [b.what for b in benches] == ["duel_matrix", "battle_exact", "battle_monte_carlo"]
    assert all(LINE.fullmatch(run(b)) for b in benches)
    assert len(galactic_chess.fleets(10, 0, 1)) == 10


@pytest.mark.rule("GC-6B.7")
def test_the_plain_loop_and_the_vectorised_simulation_draw_the_same_battles():
    """Both simulations walk the same transitions: on a small battle their outcome shares agree closely."""
    inputs = BattleInput(galactic_chess.fleets(2, 0, 1) + galactic_chess.fleets(2, 1, 2))
    model = Model(inputs)
    fast = simulate(model, {(model.first(), model.zero()): 1}, 20_000, seed=1)
    plain = galactic_chess.plain_loop(inputs, 20_000, seed=1)
    assert set(plain) <= set(fast) | {o for o in plain if plain[o] < 30}
    for outcome, count in fast.items():
        assert abs(count - plain.get(outcome, 0)) <= 5 * (count ** 0.5) + 10
