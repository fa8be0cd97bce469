"""HD-4.10 basic fire with HD-4.3 the leader's firing bonus.

Each firing unit rolls one d6 and hits when the die is at most its number: its combat strength (the
players' basic-rules form), plus the leader points put on it (+1 each, HD-4.3), less the entrenchment
penalty when it fires at an entrenched side (the form's entrenchment entry). A leader's rating R is
split before firing into non-negative whole points summing to at most R, on any of the firing units
(A22 (a): any split; (b): on at most 2 units, Lee 3). The number of units firing is capped by the firing limit (HD-5.6).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import ClassVar, Iterator, Mapping, Sequence

from companion.dice import Dice
from companion.engine import Result, RuleError
from companion.inputs import Inputs, bounded
from companion.quoting import quote
from companion.odds import Dist, dist
from companion.terms import Terms

from .rules import MAX_STRENGTH


@dataclass(frozen=True)
class Shot(Inputs):
    """One firing unit: its combat strength, its leader points and the entrenchment penalty."""

    RULE: ClassVar[str] = "HD-4.10"
    unit: str
    strength: int = bounded(0, MAX_STRENGTH)
    bonus: int = bounded(0, rule="HD-4.3", default=0)  # leader points on it (HD-4.3)
    penalty: int = bounded(0, 1, default=0)         # 1 when firing at entrenched units (HD-4.10)
    point: int = bounded(0, MAX_STRENGTH, default=1)  # strength per leader point (the source: +1)

    @property
    def reach(self) -> int:
        """The highest face that hits an unentrenched unit."""
        return self.strength + self.bonus * self.point

    def terms(self) -> Terms:
        """The parts of `hit_on`: strength, + the leader points (HD-4.3), − entrenched (HD-4.10)."""
        terms = Terms((("strength", self.strength),))
        if self.bonus:
            terms = terms.plus("leader points", self.bonus * self.point)
        return terms.plus("entrenched", -self.penalty) if self.penalty else terms

    @property
    def hit_on(self) -> int:
        """The highest face that hits (an entrenched unit, when the penalty applies): the sum of `terms`."""
        return self.terms().total

    @property
    def chance(self) -> Fraction:
        """P(a hit)."""
        return Fraction(min(max(self.hit_on, 0), 6), 6)

    @property
    def open_chance(self) -> Fraction:
        """P(a hit on an unentrenched unit at least), when such units stand beside entrenched ones."""
        return Fraction(min(max(self.reach, 0), 6), 6)


@dataclass(frozen=True)
class FireInput(Inputs):
    """The firing units; `open_targets` when the side fired at has unentrenched units beside entrenched ones
    (the coastal garrison, or units that dug in): a die over an entrenched number but within the plain one
    hits only an unentrenched unit (HD-4.11, HD-4.10)."""

    RULE: ClassVar[str] = "HD-4.10"
    shots: tuple[Shot, ...]
    open_targets: bool = False


def shot_label(label: str, shot: Shot, open_targets: bool) -> str:
    """"Fire: 5th Mass, hits on 3 or less = strength 3 + leader points +1 − entrenched 1 (HD-4.10)"."""
    loose = f"; an unentrenched unit on {shot.reach} or less" if open_targets and shot.penalty else ""
    terms = shot.terms()
    return f"{label}: {shot.unit}, hits on {terms.total} or less = {terms.text()}{loose} (HD-4.10)"


def resolve_fire(inputs: FireInput, dice: Dice, label: str = "Fire") -> Result:
    """One die per firing unit; the outcome is the number of hits, and `open_only` in the details how many
    of them can fall only on unentrenched units."""
    parts, hits, open_only = [], 0, 0
    for shot in inputs.shots:
        die = dice.d(6, shot_label(label, shot, inputs.open_targets))
        hit = die <= shot.hit_on
        loose = not hit and inputs.open_targets and die <= shot.reach
        hits += hit or loose
        open_only += loose
        number = f"hits on {shot.hit_on} or less" + (f", an unentrenched unit on {shot.reach}"
                                                      if inputs.open_targets and shot.penalty else "")
        parts.append(f"{shot.unit} rolled {die} ({number}): "
                     + ("hit" if hit else "hit, on an unentrenched unit only" if loose else "miss"))
    rules = ("HD-4.10", "HD-4.3") if any(s.bonus for s in inputs.shots) else ("HD-4.10",)
    text = f"{label}: " + ("; ".join(parts) + f"; {hits} hit{'s' if hits != 1 else ''}" if parts else "no unit fires")
    return Result("fire", {"shots": [(s.unit, s.strength, s.bonus, s.penalty) for s in inputs.shots],
                           "open_targets": inputs.open_targets},
                  tuple(dice.rolls[len(dice.rolls) - len(inputs.shots):]), hits, rules, text,
                  {"hit_on": {s.unit: s.hit_on for s in inputs.shots}, "open_only": open_only})


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
    return dist(hits_distribution([s.open_chance if inputs.open_targets else s.chance for s in inputs.shots]))


def fire_inputs():
    """Small fires: 0-3 units, weak and strong, with leader points and the entrenchment penalty."""
    yield FireInput(())
    for strengths in ((1,), (3,), (6,), (2, 4), (1, 3, 5)):
        for penalty in (0, 1):
            yield FireInput(tuple(Shot(f"u{i}", s, 0, penalty) for i, s in enumerate(strengths)))
    for split in splits(3, 3):
        yield FireInput(tuple(Shot(f"u{i}", 3, b, 1) for i, b in enumerate(split)))
    yield FireInput((Shot("u0", 5, 2, 0),))
    yield FireInput((Shot("u0", 3, 0, 1), Shot("u1", 6, 0, 1), Shot("u2", 1, 0, 1)), open_targets=True)


def splits(rating: int, units: int, exact: bool = True) -> Iterator[tuple[int, ...]]:
    """HD-4.3 (A22): the ordered ways to put a rating's points on `units` firing units, summing to the
    rating (or, with exact=False, to at most the rating)."""
    for split in product(range(rating + 1), repeat=units):
        if sum(split) == rating or (not exact and sum(split) <= rating):
            yield split


def check_split(rating: int, bonus: Mapping[str, int], firing: Sequence[str], cap: int | None = None) -> None:
    """HD-4.3: whole points >= 0, on units that fire this round, summing to at most the rating; under A22 (b)
    on at most `cap` units."""
    for unit, points in bonus.items():
        if unit not in firing:
            raise RuleError("HD-4.3", f"Leader points go on firing units: {quote(unit)} does not fire this round")
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            raise RuleError("HD-4.3", f"Leader points are whole numbers 0 or more, not {quote(points)} on {unit}")
    total = sum(bonus.values())
    if total > rating:
        raise RuleError("HD-4.3", f"The leaders' rating is {rating}: {total} points cannot be split")
    used = sum(1 for points in bonus.values() if points)
    if cap is not None and used > cap:
        raise RuleError("HD-A22", f"The leaders' points go on at most {cap} units (this game's option), not {used}")
