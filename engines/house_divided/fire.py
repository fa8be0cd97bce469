"""HD-4.10 basic fire with HD-4.3 the leader's firing bonus.

Each firing unit rolls one d6 and hits when the die is at most its number: its combat strength (the
players' basic-rules form), plus the leader points put on it (+1 each, HD-4.3), less the entrenchment
penalty when it fires at an entrenched side (the form's entrenchment entry). A leader's rating R is
split before firing into non-negative whole points summing to at most R, on any of the firing units
(A22: any split). The number of units firing is capped by the firing limit (HD-5.6).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Iterator, Mapping, Sequence

from companion.dice import Dice
from companion.engine import Result, RuleError
from companion.odds import Dist, dist


@dataclass(frozen=True)
class Shot:
    """One firing unit: its combat strength, its leader points and the entrenchment penalty."""

    unit: str
    strength: int
    bonus: int = 0     # leader points on it (HD-4.3)
    penalty: int = 0   # 1 when firing at an entrenched side (HD-4.10)
    point: int = 1     # strength per leader point (the source: +1)

    @property
    def hit_on(self) -> int:
        """The highest face that hits."""
        return self.strength + self.bonus * self.point - self.penalty

    @property
    def chance(self) -> Fraction:
        return Fraction(min(max(self.hit_on, 0), 6), 6)


@dataclass(frozen=True)
class FireInput:
    shots: tuple[Shot, ...]


def resolve_fire(inputs: FireInput, dice: Dice, label: str = "Fire") -> Result:
    """One die per firing unit; the outcome is the number of hits."""
    parts, hits = [], 0
    for shot in inputs.shots:
        die = dice.d(6, f"{label}: {shot.unit} (HD-4.10)")
        hit = die <= shot.hit_on
        hits += hit
        parts.append(f"{shot.unit} rolled {die} (hits on {shot.hit_on} or less): {'hit' if hit else 'miss'}")
    rules = ("HD-4.10", "HD-4.3") if any(s.bonus for s in inputs.shots) else ("HD-4.10",)
    text = f"{label}: " + ("; ".join(parts) + f"; {hits} hit{'s' if hits != 1 else ''}" if parts else "no unit fires")
    return Result("fire", {"shots": [(s.unit, s.strength, s.bonus, s.penalty) for s in inputs.shots]},
                  tuple(dice.rolls[len(dice.rolls) - len(inputs.shots):]), hits, rules, text,
                  {"hit_on": {s.unit: s.hit_on for s in inputs.shots}})


def hits_distribution(chances: Sequence[Fraction]) -> dict[int, Fraction]:
    """The number of successes of independent tries (Poisson-binomial), by convolution."""
    counts = {0: Fraction(1)}
    for p in chances:
        following: dict[int, Fraction] = {}
        for k, q in counts.items():
            following[k] = following.get(k, Fraction(0)) + q * (1 - p)
            following[k + 1] = following.get(k + 1, Fraction(0)) + q * p
        counts = following
    return counts


def fire_odds(inputs: FireInput) -> Dist:
    """The exact distribution of hits."""
    return dist(hits_distribution([s.chance for s in inputs.shots]))


def fire_inputs():
    """Small fires: 0-3 units, weak and strong, with leader points and the entrenchment penalty."""
    yield FireInput(())
    for strengths in ((1,), (3,), (6,), (2, 4), (1, 3, 5)):
        for penalty in (0, 1):
            yield FireInput(tuple(Shot(f"u{i}", s, 0, penalty) for i, s in enumerate(strengths)))
    for split in splits(3, 3):
        yield FireInput(tuple(Shot(f"u{i}", 3, b, 1) for i, b in enumerate(split)))
    yield FireInput((Shot("u0", 5, 2, 0),))


def splits(rating: int, units: int, exact: bool = True) -> Iterator[tuple[int, ...]]:
    """HD-4.3 (A22): the ordered ways to put a rating's points on `units` firing units, summing to the
    rating (or, with exact=False, to at most the rating)."""
    for split in product(range(rating + 1), repeat=units):
        if sum(split) == rating or (not exact and sum(split) <= rating):
            yield split


def check_split(rating: int, bonus: Mapping[str, int], firing: Sequence[str]) -> None:
    """HD-4.3: whole points >= 0, on units that fire this round, summing to at most the rating."""
    for unit, points in bonus.items():
        if unit not in firing:
            raise RuleError("HD-4.3", f"Leader points go on firing units: {unit} does not fire this round")
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            raise RuleError("HD-4.3", f"Leader points are whole numbers 0 or more, not {points!r} on {unit}")
    total = sum(bonus.values())
    if total > rating:
        raise RuleError("HD-4.3", f"The leaders' rating is {rating}: {total} points cannot be split")
