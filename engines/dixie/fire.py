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
from companion.terms import Terms

from .rules import F_RANGE, LEADER_HIT_FACE, MOST_DICE

FIRE_RULES = ("DX-7.1", "DX-7.2", "DX-11.3")


def dice_from(terms: Terms) -> int:
    """The dice the parts add up to: never below 0 (DX-7.2)."""
    return max(0, terms.total)


def check_groups(inputs: Inputs, groups: tuple[tuple[int, int], ...], made_of: tuple = ()) -> None:
    """Each (dice, F) group rolls 0 or more dice at F1, F2 or F3 (DX-7.1, DX-7.2), and one throw has at most
    MOST_DICE dice; `made_of`, when given, holds the parts of each group's dice (their sum, never below 0)."""
    name = type(inputs).__name__
    if made_of and len(made_of) != len(groups):
        raise RuleError(inputs.RULE, f"{name} 'made_of' holds {len(made_of)} entries for {len(groups)} groups")
    for (n, _), terms in zip(groups, made_of):
        if terms is not None and dice_from(terms) != n:
            raise RuleError(inputs.RULE, f"{name} 'made_of' adds up to {terms.total} dice, not {n}")
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
    made_of: tuple[Terms | None, ...] = ()   # the parts of each group's dice, when known (modifiers.fire_terms)

    def __post_init__(self) -> None:
        super().__post_init__()
        check_groups(self, self.groups, self.made_of)

    @property
    def dice(self) -> int:
        return sum(n for n, _ in self.groups)


@dataclass(frozen=True, order=True)
class Volley:
    hits: int
    sixes: int   # natural 6s: leader hits (DX-11.3)


def count(faces, f: int) -> Volley:
    return Volley(sum(1 for x in faces if x <= f), sum(1 for x in faces if x == LEADER_HIT_FACE))


def group_label(label: str, n: int, f: int, rule: str, terms: Terms | None = None, name: str = "") -> str:
    """"Fire: TU1 (USA-1), 2 dice = CV 3 − woods 1 at F2 (DX-7.1)": whose dice, how many, what they are made of,
    the F they hit at and the rule (which a refused die then names)."""
    whose = f"{name}, " if name else ""
    return f"{label}: {whose}{n} {'die' if n == 1 else 'dice'}{' = ' + terms.text() if terms else ''} at F{f} ({rule})"


def roll_groups(inputs, dice: Dice, label: str, rule: str = "DX-7.1", names: tuple[str, ...] = ()) \
        -> list[tuple[int, ...]]:
    """Roll each group's dice, named and with their parts when known; a group of 0 dice rolls nothing (DX-7.2:
    minimum 0 dice)."""
    made_of = inputs.made_of or (None,) * len(inputs.groups)
    names = names or ("",) * len(inputs.groups)
    return [dice.roll(n, 6, group_label(label, n, f, rule, terms, name)) if n else ()
            for (n, f), terms, name in zip(inputs.groups, made_of, names)]


def resolve_fire(inputs: FireInput, dice: Dice, label: str = "Fire", rule: str = "DX-7.1",
                 names: tuple[str, ...] = ()) -> Result:
    """Each group rolls its dice; `names` names the card of each group on its roll (a melee's, DX-13.1)."""
    start = len(dice.rolls)
    thrown = roll_groups(inputs, dice, label, rule, names)
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
