"""Estimates from simulation: a share of trials with its Wilson score interval (95% by default)."""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

Z95 = 1.959963984540054  # the normal quantile for a two-sided 95% interval


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion."""
    if trials <= 0:
        raise ValueError("an interval needs at least one trial")
    p = successes / trials
    centre = p + z * z / (2 * trials)
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    scale = 1 + z * z / trials
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


@dataclass(frozen=True)
class Estimate:
    """A probability estimated from `trials` simulated battles."""

    successes: int
    trials: int

    @property
    def value(self) -> float:
        return self.successes / self.trials

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.successes, self.trials)

    def text(self) -> str:
        low, high = self.interval
        return f"about {self.value:.1%} (95% interval {low:.1%} to {high:.1%}, {self.trials:,} simulated battles)"


def share(p: Fraction | Estimate) -> Fraction:
    """An exact chance as it is; an estimate as the share of its trials (to compare or plot the two alike)."""
    return Fraction(p.successes, p.trials) if isinstance(p, Estimate) else p
