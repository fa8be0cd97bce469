"""BS-CMB.5 to CMB.8: one side's dice tray in the push-your-luck roll, and the comparison of two trays.

A side throws every die it has left, takes at least one of them (each 6 taken may go to the damage
row instead of being confirmed), and throws the rest again until none are left. Strength S is the
largest count of one face among the confirmed dice, F that face (the highest of tied faces, A2),
D the number of damage dice.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from companion.engine import RuleError

FACES = 6
NO_DICE = (0,) * FACES


def counts(faces) -> tuple[int, ...]:
    """Face values (1..6) as a count per face."""
    out = [0] * FACES
    for f in faces:
        if not 1 <= f <= FACES:
            raise RuleError("BS-MOD", f"{f} is not a face of a die (1-6)")
        out[f - 1] += 1
    return tuple(out)


@dataclass(frozen=True)
class Keep:
    """What a side takes from one throw: confirmed dice (a count per face) and 6s put to damage."""

    confirm: tuple[int, ...] = NO_DICE
    damage: int = 0

    @property
    def size(self) -> int:
        return sum(self.confirm) + self.damage

    def faces(self) -> list[int]:
        """The confirmed dice as faces, as the `keep` action takes them."""
        return [f + 1 for f in range(FACES) for _ in range(self.confirm[f])]

    def text(self) -> str:
        kept = [str(f) for f in self.faces()]
        parts = [("confirm " + ",".join(kept)) if kept else ""]
        if self.damage:
            parts.append(f"{self.damage} six{'es' if self.damage > 1 else ''} to damage")
        return "; ".join(p for p in parts if p)


@dataclass(frozen=True)
class Tray:
    """A side's roll in progress: dice still to throw, confirmed counts per face, damage dice."""

    left: int
    confirmed: tuple[int, ...] = NO_DICE
    damage: int = 0

    def take(self, keep: Keep) -> Tray:
        """BS-CMB ROLL step 3: the dice taken from a throw (a legal take: `legal_keeps`) leave the tray."""
        return Tray(self.left - keep.size, tuple(c + k for c, k in zip(self.confirmed, keep.confirm)),
                    self.damage + keep.damage)

    @property
    def done(self) -> bool:
        return self.left == 0

    def result(self) -> Strength:
        s = max(self.confirmed)
        f = max((i + 1 for i in range(FACES) if self.confirmed[i] == s), default=0) if s else 0
        return Strength(s, f, self.damage)


@dataclass(frozen=True, order=True)
class Strength:
    """BS-CMB.6: strength S, strength face F (0 when nothing is confirmed) and damage dice D."""

    s: int
    f: int
    d: int


def take_table(throw: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Every legal take of a throw (a count per face) as arrays, a row each: confirmed counts per face and 6s
    put to damage. Any sub-multiset, 6s split between confirmed and damage; faces 1 to 5 in counting order (the
    last fastest), then the 6s taken, then the 6s of those put to damage."""
    heads = np.indices([n + 1 for n in throw[:FACES - 1]]).reshape(FACES - 1, -1).T
    sixes = np.array([(taken - damage, damage) for taken in range(throw[FACES - 1] + 1) for damage in range(taken + 1)])
    confirm = np.column_stack([np.repeat(heads, len(sixes), axis=0), np.tile(sixes[:, 0], len(heads))])
    damage = np.tile(sixes[:, 1], len(heads))
    some = confirm.sum(axis=1) + damage > 0
    return confirm[some], damage[some]


def keeps_of(confirm: np.ndarray, damage: np.ndarray) -> list[Keep]:
    """The takes of rows of `take_table`."""
    return [Keep(tuple(c), d) for c, d in zip(confirm.tolist(), damage.tolist())]


def legal_keeps(throw: tuple[int, ...]) -> list[Keep]:
    """Every legal take of a throw, in the order of `take_table`."""
    return keeps_of(*take_table(throw))


class Trays(NamedTuple):
    """Many trays as arrays, a row each: dice left, confirmed counts per face, damage dice."""

    left: np.ndarray
    confirmed: np.ndarray
    damage: np.ndarray

    @classmethod
    def of(cls, trays) -> Trays:
        return cls(np.array([t.left for t in trays], dtype=np.int64),
                   np.array([t.confirmed for t in trays], dtype=np.int64).reshape(-1, FACES),
                   np.array([t.damage for t in trays], dtype=np.int64))


def outcome(attacker: Strength, defender: Strength) -> str:
    """BS-CMB.7: the higher S wins; equal S, the higher F; equal F too, a draw. "attacker"/"defender"/"draw"."""
    a, d = (attacker.s, attacker.f), (defender.s, defender.f)
    return "attacker" if a > d else "defender" if d > a else "draw"


def losses(winner: Strength, loser: Strength, rule: str = "inclusive") -> int:
    """BS-CMB.8: the loser removes 1 unit, or 2 on a win by twice the strength (`doubled`)."""
    return 2 if doubled(winner.s, loser.s, rule) else 1


def doubled(ws, ls, rule: str = "inclusive"):
    """BS-CMB.8 (A1): does the loser remove 2 units? S_w > S_l and S_w >= 2 S_l (inclusive, L = 0 counts); with
    the strict option S_w > 2 S_l and S_l > 0. Strengths are ints, or arrays of them (an array of answers)."""
    if rule == "inclusive":
        return (ws > ls) & (ws >= 2 * ls)
    return (ls > 0) & (ws > 2 * ls)
