"""The House Divided benchmarks, run small: they compute the same answers as their baselines, and print the
harness's line (never a timing)."""
from __future__ import annotations

import re

import pytest

from benchmarks import house_divided as bench
from benchmarks.harness import run
from companion.odds import fractions
from engines.house_divided.battle_command import fire_limit_by_day
from engines.house_divided.supply import supply_check

LINE = re.compile(r"house_divided\.(supply_check|fire_limit_days): ours \d+(\.\d+)? ms, baseline \d+(\.\d+)? ms, "
                  r"ratio \d+(\.\d+)?")


@pytest.mark.rule("HD-5.1")
def test_the_random_map_supply_agrees_with_the_plain_baseline():
    game_map, control, stacks = bench.random_map(120, seed=3)
    assert len(game_map.boxes) == 120 and any(n >= 2 for n in stacks.values())
    ours = {s.box: s.status for s in supply_check(game_map, control, stacks, "CSA").stacks}
    assert ours == bench.plain_supply(game_map, control, stacks, "CSA")


@pytest.mark.rule("HD-4.2")
def test_the_fire_limit_days_agree_with_enumeration():
    ours = [fractions(d) for d in fire_limit_by_day(*bench.BATTLE, bench.DAYS)]
    assert ours == bench.plain_fire_limits(*bench.BATTLE, bench.DAYS)


def test_one_line_per_benchmark():
    benches = bench.benchmarks(boxes=60, runs=1)
    assert [b.what for b in benches] == ["supply_check", "fire_limit_days"]
    assert all(LINE.fullmatch(run(b)) for b in benches)
