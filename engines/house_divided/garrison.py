"""HD-4.11 the coastal garrison (S4): each CSA recruitment port the CSA holds defends against Union amphibious
landings there, and only those; every such landing fights it, even at an empty port. It counts as one unit,
is always entrenched, never moves or retreats, and is removed after 2 hits. Its strength is the players'
entry (A13); by default each landing meets a fresh garrison, and it checks morale as one unit. Beating only
the garrison gives no promotion (HD-5.3).

The procedure here is one round of Union fire at a garrison standing alone (the landing of TV-14).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs, bounded
from companion.odds import Dist, dist

from .fire import FireInput, Shot, hits_distribution, resolve_fire
from .gamemap import Box
from .rules import CSA, GARRISON_HITS


def defends(box: Box, controller: str) -> bool:
    """A CSA recruitment port the CSA holds has a garrison against Union landings (HD-4.11)."""
    return box.port and box.alignment == CSA and box.rp > 0 and controller == CSA


@dataclass(frozen=True)
class GarrisonInput(Inputs):
    RULE: ClassVar[str] = "HD-4.11"
    shots: tuple[Shot, ...]                                   # the Union units firing at it (always entrenched)
    hits: int = bounded(0, GARRISON_HITS - 1, default=0)      # hits it has already taken (0 or 1)


def resolve_garrison(inputs: GarrisonInput, dice: Dice) -> Result:
    """The outcome is the garrison's hits after the round: 2 means it is removed."""
    fire = resolve_fire(FireInput(inputs.shots), dice, "Union fire at the garrison")
    after = min(GARRISON_HITS, inputs.hits + fire.outcome)
    state = "removed" if after >= GARRISON_HITS else f"holds with {after} hit{'s' if after != 1 else ''}"
    return Result("garrison", {"shots": fire.inputs["shots"], "hits": inputs.hits}, fire.rolls, after,
                  ("HD-4.11", *fire.rules), f"{fire.summary}; the garrison {state}")


def garrison_odds(inputs: GarrisonInput) -> Dist:
    capped: dict[int, Fraction] = {}
    for hits, p in hits_distribution([s.chance for s in inputs.shots]).items():
        after = min(GARRISON_HITS, inputs.hits + hits)
        capped[after] = capped.get(after, Fraction(0)) + p
    return dist(capped)


def garrison_inputs():
    for hits in (0, 1):
        for strengths in ((), (3,), (2, 4), (5, 5, 1)):
            yield GarrisonInput(tuple(Shot(f"u{i}", s, 0, 1) for i, s in enumerate(strengths)), hits)
