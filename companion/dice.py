"""Dice sources: every random procedure takes its dice from one of these.

Three sources share one interface:

- `RandomDice`: the companion rolls (seeded, so a session can be replayed in tests);
- `EnteredDice`: the player rolled real dice and typed or tapped the faces in;
- `ScriptedDice`: a test (or a replay of the event log) supplies the faces.

Every roll is recorded as a `Roll` with its source, so the event log knows which dice came
from the table and which from the companion.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from .quoting import quote

RANDOM, ENTERED, SCRIPTED = "random", "entered", "scripted"
SOURCES = (RANDOM, ENTERED, SCRIPTED)


class DiceError(ValueError):
    """Dice that cannot be used: a face outside 1..sides, text, too many or too few dice."""


class DiceExhausted(DiceError):
    """A procedure asked for more dice than were supplied."""

    def __init__(self, message: str, sides: int = 6):
        super().__init__(message)
        self.sides = sides


@dataclass(frozen=True)
class Roll:
    """One throw of `len(faces)` dice with `sides` sides, and where the faces came from."""

    label: str
    sides: int
    faces: tuple[int, ...]
    source: str

    def to_dict(self) -> dict:
        return {"label": self.label, "sides": self.sides, "faces": list(self.faces), "source": self.source}

    @classmethod
    def from_dict(cls, data: dict) -> Roll:
        """A recorded roll, every field of its exact type (no "3" for 3, no 2.0, no true); DiceError if not."""
        if not isinstance(data, dict) or set(data) != {"label", "sides", "faces", "source"}:
            raise DiceError(f"not a recorded roll: {quote(data)}")
        label, sides, faces, source = data["label"], data["sides"], data["faces"], data["source"]
        if type(label) is not str or type(sides) is not int or not 2 <= sides <= 100 or source not in SOURCES \
                or type(faces) is not list or not 1 <= len(faces) <= 1000 \
                or not all(type(f) is int and 1 <= f <= sides for f in faces):
            raise DiceError(f"not a valid recorded roll: {quote(data, 80)}")
        return cls(label, sides, tuple(faces), source)

    def text(self) -> str:
        return ", ".join(str(f) for f in self.faces)


@dataclass
class Dice:
    """Base of the sources: `roll()` returns faces and records the roll."""

    rolls: list[Roll] = field(default_factory=list, init=False)

    def roll(self, n: int = 1, sides: int = 6, label: str = "") -> tuple[int, ...]:
        faces = self._faces(n, sides, label)
        self.rolls.append(Roll(label, sides, faces, self.source_of(len(self.rolls))))
        return faces

    def d(self, sides: int = 6, label: str = "") -> int:
        """One die."""
        return self.roll(1, sides, label)[0]

    def _faces(self, n: int, sides: int, label: str) -> tuple[int, ...]:  # pragma: no cover - abstract
        raise NotImplementedError

    def source_of(self, index: int) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def unused(self) -> int:
        """Faces supplied but not consumed (0 for random dice)."""
        return 0


@dataclass
class RandomDice(Dice):
    """The companion rolls for the player."""

    seed: int | None = None
    rng: random.Random | None = None

    def __post_init__(self) -> None:
        self._rng = self.rng or random.Random(self.seed)

    def _faces(self, n: int, sides: int, label: str) -> tuple[int, ...]:
        return tuple(self._rng.randint(1, sides) for _ in range(n))

    def source_of(self, index: int) -> str:
        return RANDOM


@dataclass
class _QueuedDice(Dice):
    """Faces supplied up front, consumed in order."""

    faces: tuple[int, ...] = ()
    source = SCRIPTED

    def __post_init__(self) -> None:
        self.faces = tuple(self.faces)
        self._next = 0

    def _faces(self, n: int, sides: int, label: str) -> tuple[int, ...]:
        left = len(self.faces) - self._next
        if left < n:
            what = f" for {label}" if label else ""
            raise DiceExhausted(f"This roll needs {n} d{sides}{what}, but only {left} of the dice you gave are left.", sides)
        faces = self.faces[self._next:self._next + n]
        bad = [f for f in faces if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= sides]
        if bad:
            what = f"{label}: " if label else ""
            raise DiceError(f"{what}{quote(bad[0])} is not a face of a d{sides}: each die shows 1 to {sides}.")
        self._next += n
        return faces

    def source_of(self, index: int) -> str:
        return self.source

    def unused(self) -> int:
        return len(self.faces) - self._next


@dataclass
class EnteredDice(_QueuedDice):
    """Physical dice: the faces the player rolled at the table."""

    source = ENTERED



@dataclass
class ScriptedDice(_QueuedDice):
    """Faces fixed by a test or a replay."""

    source = SCRIPTED


@dataclass
class ReplayDice(Dice):
    """The recorded rolls of an event, replayed face for face with their original sources."""

    recorded: tuple[Roll, ...] = ()

    def __post_init__(self) -> None:
        self._queue = ScriptedDice(tuple(f for r in self.recorded for f in r.faces))

    def _faces(self, n: int, sides: int, label: str) -> tuple[int, ...]:
        return self._queue._faces(n, sides, label)

    def source_of(self, index: int) -> str:
        return self.recorded[index].source if index < len(self.recorded) else SCRIPTED

    def unused(self) -> int:
        return self._queue.unused()


@dataclass
class ProbeDice(Dice):
    """Shows every die as its highest face: used to learn how many dice an action will roll."""

    def _faces(self, n: int, sides: int, label: str) -> tuple[int, ...]:
        return (sides,) * n

    def source_of(self, index: int) -> str:
        return SCRIPTED


MAX_TYPED = 1000  # characters of typed dice


def parse_faces(text: str, sides: int = 6, count: int | None = None) -> tuple[int, ...]:
    """Faces from typed text, with a message a player understands for anything else."""
    if len(text or "") > MAX_TYPED:
        raise DiceError(f"That is too long for dice: enter whole numbers from 1 to {sides}.")
    tokens = [t for t in re.split(r"[\s,;]+", (text or "").strip()) if t]
    if not tokens:
        wanted = f"{count} dice" if count and count > 1 else "the die"
        raise DiceError(f"Enter {wanted} you rolled: whole numbers from 1 to {sides}.")
    faces = []
    for token in tokens:
        if not re.fullmatch(r"[+-]?\d{1,6}", token):
            raise DiceError(f"{quote(token)} is not a die face: enter whole numbers from 1 to {sides}.")
        value = int(token)
        if not 1 <= value <= sides:
            raise DiceError(f"{value} is not a face of a d{sides}: each die shows 1 to {sides}.")
        faces.append(value)
    if count is not None and len(faces) != count:
        raise DiceError(f"This roll takes {count} {'die' if count == 1 else 'dice'}; you entered {len(faces)}.")
    return tuple(faces)
