"""DX-11.3 leader hits: each natural 6 of enemy fire into a leader's position is a leader hit. In that side's
next morale step, before any other check, the leader rolls one d6 per hit: any 6 kills it, no modifiers.
So P(killed with n hits) = 1 - (5/6)^n, and per die fired into the position 1/36."""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from companion.dice import Dice
from companion.engine import Result
from companion.inputs import Inputs, bounded
from companion.odds import Dist, dist

from .rules import LEADER_DEATH, MOST_DICE

SURVIVES, KILLED = "survives", "killed"
PER_HIT = Fraction(len(LEADER_DEATH.faces_for(True)), LEADER_DEATH.sides)   # a leader check kills
SIX = Fraction(1, 6)                                                          # a die of fire is a natural 6


@dataclass(frozen=True)
class LeaderCheckInput(Inputs):
    RULE = "DX-11.3"
    hits: int = bounded(0, MOST_DICE)


@lru_cache(maxsize=None)
def death_chance(hits: int) -> Fraction:
    return 1 - (1 - PER_HIT) ** hits


def death_by_fire(dice: int) -> Fraction:
    """P(the leader is killed by the hits of `dice` enemy dice fired into its position): 1 - (35/36)^n."""
    return 1 - (1 - PER_HIT * SIX) ** dice


def resolve_leader_check(inputs: LeaderCheckInput, dice: Dice, who: str = "The leader") -> Result:
    faces = dice.roll(inputs.hits, 6, f"Leader check: {who}, {inputs.hits} hit(s) (DX-11.3)") if inputs.hits else ()
    killed = any(LEADER_DEATH.results[f] for f in faces)
    text = f"{who} rolls {inputs.hits} leader check{'s' if inputs.hits != 1 else ''}: " \
           f"{' '.join(map(str, faces)) or 'nothing'}, " + ("killed" if killed else "survives")
    return Result("leader_check", {"hits": inputs.hits}, tuple(dice.rolls[-1:]) if faces else (),
                  KILLED if killed else SURVIVES, ("DX-11.3",), text, {"faces": faces})


def leader_check_odds(inputs: LeaderCheckInput) -> Dist:
    p = death_chance(inputs.hits)
    return dist({KILLED: p, SURVIVES: 1 - p})


def leader_check_inputs():
    return [LeaderCheckInput(h) for h in range(0, 6)]
