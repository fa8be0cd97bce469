"""DX-13.5 artillery support: long-range fire into an engaged enemy-line position. With long F2 a die of
1-2 is a hit on the enemy, 5 a hit on your own units there (placed by you, levelled, and checked at once,
A12), 6 a hit on the enemy leader only; with long F1 only a 1 hits the enemy. The counts are multinomial."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs
from companion.odds import Dist, dist
from companion.terms import Terms

from .fire import canonical, check_groups, roll_groups
from .rules import F_RANGE, SUPPORT_OUTCOMES, support_table


@dataclass(frozen=True)
class SupportInput(Inputs):
    RULE = "DX-13.5"
    groups: tuple[tuple[int, int], ...]   # (dice, long F) per firing card
    made_of: tuple[Terms | None, ...] = ()   # the parts of each card's dice, when known (modifiers.fire_terms)

    def __post_init__(self) -> None:
        super().__post_init__()
        check_groups(self, self.groups, self.made_of)


@dataclass(frozen=True, order=True)
class SupportOutcome:
    enemy: int       # hits on the enemy units
    friendly: int    # hits on your own units in the position
    leader: int      # hits on the enemy leader


def tally(faces, f: int) -> SupportOutcome:
    read = [support_table(f).results[x] for x in faces]
    return SupportOutcome(read.count("enemy"), read.count("friendly"), read.count("leader"))


def resolve_support(inputs: SupportInput, dice: Dice, label: str = "Artillery support") -> Result:
    start = len(dice.rolls)
    thrown = roll_groups(inputs, dice, label, "DX-13.5")
    parts = [tally(faces, f) for faces, (_, f) in zip(thrown, inputs.groups)]
    outcome = SupportOutcome(*(sum(getattr(p, k) for p in parts) for k in ("enemy", "friendly", "leader")))
    shown = "; ".join(f"F{f} rolled {' '.join(map(str, faces))}"
                      for faces, (_, f) in zip(thrown, inputs.groups) if faces)
    return Result("artillery_support", {"groups": inputs.groups}, tuple(dice.rolls[start:]), outcome, ("DX-13.5",),
                  f"{label}: {shown or 'no dice'}: {outcome.enemy} enemy hit(s), {outcome.friendly} friendly, "
                  f"{outcome.leader} on the enemy leader", {"faces": thrown})


def support_odds(inputs: SupportInput) -> Dist:
    counts = {SupportOutcome(0, 0, 0): Fraction(1)}
    for n, f in canonical(inputs.groups):
        per_die = {k: Fraction(len(support_table(f).faces_for(k)), 6) for k in SUPPORT_OUTCOMES}
        for _ in range(n):
            following: dict[SupportOutcome, Fraction] = {}
            for o, p in counts.items():
                for k, q in per_die.items():
                    if q:
                        key = SupportOutcome(o.enemy + (k == "enemy"), o.friendly + (k == "friendly"),
                                             o.leader + (k == "leader"))
                        following[key] = following.get(key, 0) + p * q
            counts = following
    return dist(counts)


def support_inputs():
    for f in (1, 2):
        for n in range(0, 5):
            yield SupportInput(((n, f),))
    yield SupportInput(((2, 1), (2, 2)))
    yield SupportInput(((3, F_RANGE[1]),))
