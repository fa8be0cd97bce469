"""Timing, medians and the one line each benchmark prints."""
from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass
from typing import Callable, Iterable


def nothing() -> None:
    """The default preparation: none."""


@dataclass(frozen=True)
class Benchmark:
    """Our code against a baseline doing the same job. `prepare` runs, untimed, before each run of
    ours (e.g. to clear caches so ours is measured cold)."""

    slug: str
    what: str
    ours: Callable[[], object]
    baseline: Callable[[], object]
    prepare: Callable[[], None] = nothing
    runs: int = 7
    baseline_runs: int = 1


def median_ms(fn: Callable[[], object], runs: int, prepare: Callable[[], None] = nothing) -> float:
    """The median wall time of `runs` calls of fn, in milliseconds."""
    times = []
    for _ in range(runs):
        prepare()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def number(x: float) -> str:
    """Three significant figures (all the digits of the whole part), never in exponent form."""
    if x == 0:
        return "0"
    decimals = max(0, 2 - math.floor(math.log10(abs(x))))
    return f"{x:.{decimals}f}"


def line(slug: str, what: str, ours_ms: float, baseline_ms: float) -> str:
    ratio = number(ours_ms / baseline_ms) if baseline_ms else "n/a (the baseline took no measurable time)"
    return f"{slug}.{what}: ours {number(ours_ms)} ms, baseline {number(baseline_ms)} ms, ratio {ratio}"


def run(bench: Benchmark) -> str:
    ours = median_ms(bench.ours, bench.runs, bench.prepare)
    baseline = median_ms(bench.baseline, bench.baseline_runs)
    return line(bench.slug, bench.what, ours, baseline)


def report(benches: Iterable[Benchmark]) -> None:
    """Run each benchmark and print its line as soon as it is measured."""
    for bench in benches:
        print(run(bench), flush=True)
