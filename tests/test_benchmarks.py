"""The benchmark harness and each slug's benchmarks, run on tiny inputs: the line format only, never
a timing."""
from __future__ import annotations

import re

import pytest

import engines.bull_run as game
from benchmarks import bull_run, companion
from benchmarks.harness import Benchmark, line, median_ms, number, report, run

LINE = re.compile(r"(?P<slug>[a-z_]+)\.(?P<what>[a-z_]+): ours \d+(\.\d+)? ms, baseline \d+(\.\d+)? ms, "
                  r"ratio \d+(\.\d+)?")


@pytest.mark.parametrize("x, text", [(0, "0"), (1.5, "1.50"), (0.25, "0.250"), (12.34, "12.3"), (1234.4, "1234"),
                                     (0.000123, "0.000123"), (5e-7, "0.000000500")])
def test_numbers_have_three_significant_figures_and_no_exponent(x, text):
    assert number(x) == text


def test_the_line_format():
    assert line("bull_run", "combat", 1.5, 0.25) == "bull_run.combat: ours 1.50 ms, baseline 0.250 ms, ratio 6.00"


def test_median_prepares_before_every_run():
    calls = []
    assert median_ms(lambda: calls.append("run"), 3, lambda: calls.append("prepare")) >= 0
    assert calls == ["prepare", "run"] * 3


def test_run_gives_one_line():
    bench = Benchmark("demo", "sum", lambda: sum(range(100)), lambda: sum(list(range(100))), runs=3)
    match = LINE.fullmatch(run(bench))
    assert match and (match["slug"], match["what"]) == ("demo", "sum")


def test_report_prints_exactly_one_line_per_benchmark(capsys):
    report([Benchmark("demo", what, lambda: None, lambda: None, runs=1) for what in ("a", "b")])
    lines = capsys.readouterr().out.splitlines()
    assert [LINE.fullmatch(text)["what"] for text in lines] == ["a", "b"]


def test_bull_run_has_a_line_per_odds_twin_and_the_curves():
    benches = bull_run.benchmarks(trials=20, runs=1)
    assert [(b.slug, b.what) for b in benches] == [("bull_run", p.name) for p in game.PROCEDURES] + [
        ("bull_run", "happened_by")]
    assert all(LINE.fullmatch(run(b)) for b in benches)


def test_the_companion_lines(tmp_path):
    benches = companion.benchmarks(tmp_path, events=12, appends=3, runs=1)
    assert [b.what for b in benches] == ["store_append", "replay"]
    assert all(LINE.fullmatch(run(b)) for b in benches)


def test_the_replay_log_is_a_legal_game_of_the_length_asked():
    options, setup, events = companion.bull_run_log(40)
    assert [e.seq for e in events] == list(range(1, 41))
    assert {e.action["type"] for e in events} >= {"roll_initiative", "move", "end_movement", "end_turn"}
