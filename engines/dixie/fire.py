"""DX-7.1 / DX-7.2 fire: each firing card rolls one die per CV; a die <= F hits. Every natural 6 is also
a hit on the target side's leader in the position (DX-11.3), whatever the kind of fire.

A fire is a tuple of groups (dice, F); its outcome is a `Volley`: the hits and the natural 6s.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from companion.dice import Dice
from companion.engine import Result, RuleError
from companion.inputs import Inputs, range_text
from companion.odds import Dist, dist
from companion.quoting import quote

from .rules import F_RANGE, LEADER_HIT_FACE, MOST_DICE

FIRE_RULES = ("DX-7.1", "DX-7.2", "DX-11.3")


def check_groups(inputs: Inputs, groups: tuple[tuple[int, int], ...]) -> None:
    """Each (dice, F) group rolls 0 or more dice at F1, F2 or F3 (DX-7.1, DX-7.2), and one throw has at most
    MOST_DICE dice."""
    name = type(inputs).__name__
    for n, f in groups:
        if n < 0 or not F_RANGE[0] <= f <= F_RANGE[1]:
            raise RuleError(inputs.RULE, f"{name} 'groups' holds {quote((n, f))}: a group is (dice, F) with 0 or more "
                                         f"dice and F {range_text(*F_RANGE)}")
    if sum(n for n, _ in groups) > MOST_DICE:
        raise RuleError(inputs.RULE, f"{name} 'groups' rolls more than {MOST_DICE} dice in one throw")


@dataclass(frozen=True)
class FireInput(Inputs):
    RULE = "DX-7.2"
    groups: tuple[tuple[int, int], ...]   # (dice, F) per firing card or group of cards

    def __post_init__(self) -> None:
        super().__post_init__()
        check_groups(self, self.groups)

    @property
    def dice(self) -> int:
        return sum(n for n, _ in self.groups)


@dataclass(frozen=True, order=True)
class Volley:
    hits: int
    sixes: int   # natural 6s: leader hits (DX-11.3)


def count(faces, f: int) -> Volley:
    return Volley(sum(1 for x in faces if x <= f), sum(1 for x in faces if x == LEADER_HIT_FACE))


def roll_groups(groups, dice: Dice, label: str, rule: str = "DX-7.1") -> list[tuple[int, ...]]:
    """Roll each group's dice; a group of 0 dice rolls nothing (DX-7.2: minimum 0 dice). Each roll's label names
    the rule of the roll, which a refused die then names."""
    return [dice.roll(n, 6, f"{label}: {n} dice at F{f} ({rule})") if n else () for n, f in groups]


def resolve_fire(inputs: FireInput, dice: Dice, label: str = "Fire", rule: str = "DX-7.1") -> Result:
    start = len(dice.rolls)
    thrown = roll_groups(inputs.groups, dice, label, rule)
    volleys = [count(faces, f) for faces, (_, f) in zip(thrown, inputs.groups)]
    outcome = Volley(sum(v.hits for v in volleys), sum(v.sixes for v in volleys))
    parts = [f"{n}d at F{f} rolled {' '.join(map(str, faces))}" for faces, (n, f) in zip(thrown, inputs.groups) if n]
    summary = (f"{label}: {'; '.join(parts) or 'no dice'}: {outcome.hits} hit{'s' if outcome.hits != 1 else ''}"
               + (f", {outcome.sixes} six{'es' if outcome.sixes != 1 else ''}" if outcome.sixes else ""))
    return Result("fire", {"groups": inputs.groups}, tuple(dice.rolls[start:]), outcome, FIRE_RULES, summary,
                  {"faces": thrown})


@lru_cache(maxsize=None)
def die_counts(groups: tuple[tuple[int, int], ...]) -> dict[tuple[int, int], int]:
    """(hits, sixes) -> number of the 6^dice face sequences that give it."""
    counts = {(0, 0): 1}
    for n, f in groups:
        per_die = {(1, 0): f, (0, 1): 1, (0, 0): 5 - f}
        for _ in range(n):
            following: dict[tuple[int, int], int] = {}
            for (h, s), c in counts.items():
                for (dh, ds), w in per_die.items():
                    if w:
                        key = (h + dh, s + ds)
                        following[key] = following.get(key, 0) + c * w
            counts = following
    return counts


def canonical(groups) -> tuple[tuple[int, int], ...]:
    """The same fire with its dice summed by F: the odds depend on nothing else."""
    by_f: dict[int, int] = {}
    for n, f in groups:
        by_f[f] = by_f.get(f, 0) + n
    return tuple(sorted((n, f) for f, n in by_f.items() if n))


def fire_odds(inputs: FireInput) -> Dist:
    """The exact (hits, sixes) distribution: a trinomial per F value (hit <= F, a 6, anything else)."""
    return dist({Volley(h, s): c for (h, s), c in die_counts(canonical(inputs.groups)).items()})


def fire_inputs():
    """Every F with up to 4 dice, 5 and 6 dice, and mixed fires of two and three F values."""
    for f in range(F_RANGE[0], F_RANGE[1] + 1):
        for n in range(0, 5):
            yield FireInput(((n, f),))
    yield FireInput(((5, 3),))
    yield FireInput(((6, 2),))
    yield FireInput(((3, 1), (2, 2)))
    yield FireInput(((2, 1), (2, 2), (2, 3)))
