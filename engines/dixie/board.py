"""The battlefield (DX-3.0 Fig. 2, DX-8.0 Fig. 3, DX-13.8): two lines facing each other over the Middle
Ground, each with 3 positions (5 with the extended line) named from the line owner's left, plus one
reserve per side. A position is named `SIDE-slot`, e.g. `CSA-L` or `USA-3`.

Across the Middle Ground own L faces enemy R and C faces C (5 positions: i faces 6 - i). Moves go
between the reserve and any own-line position, and between a position and the one across; never
sideways, never diagonally, never into the enemy reserve (DX-8.0).
"""
from __future__ import annotations

from functools import cache

from .rules import CODE_IN_FIVE, CSA, SLOTS, USA

RESERVE, REINFORCEMENTS, DECK, ELIMINATED = "reserve", "reinforcements", "deck", "eliminated"
OFF_FIELD = (RESERVE, REINFORCEMENTS, DECK, ELIMINATED)


def other(side: str) -> str:
    return USA if side == CSA else CSA


@cache
def positions(width: int) -> tuple[str, ...]:
    """Every position: the CSA line, then the USA line."""
    return tuple(f"{side}-{slot}" for side in (CSA, USA) for slot in SLOTS[width])


@cache
def line_positions(side: str, width: int) -> tuple[str, ...]:
    return tuple(f"{side}-{slot}" for slot in SLOTS[width])


def is_position(loc: str) -> bool:
    return loc not in OFF_FIELD


@cache
def line_of(pos: str) -> str:
    """The side whose line the position is in."""
    return pos.split("-", 1)[0]


@cache
def slot_of(pos: str) -> str:
    return pos.split("-", 1)[1]


@cache
def _slots(pos: str) -> tuple[str, ...]:
    return SLOTS[3] if slot_of(pos) in SLOTS[3] else SLOTS[5]


@cache
def across(pos: str) -> str:
    """The enemy-line position straight across the Middle Ground."""
    slots = _slots(pos)
    i = slots.index(slot_of(pos))
    return f"{other(line_of(pos))}-{slots[len(slots) - 1 - i]}"


@cache
def lateral(pos: str) -> tuple[str, ...]:
    """The positions beside it in the same line (DX-13.2)."""
    slots = _slots(pos)
    i = slots.index(slot_of(pos))
    return tuple(f"{line_of(pos)}-{slots[j]}" for j in (i - 1, i + 1) if 0 <= j < len(slots))


@cache
def is_flank(pos: str) -> bool:
    """L or R (the outer positions of a 5-position line), DX-13.3."""
    slots = _slots(pos)
    return slot_of(pos) in (slots[0], slots[-1])


@cache
def moves_from(loc: str, side: str, width: int) -> tuple[str, ...]:
    """DX-8.0: where one move takes a card of `side` from `loc`."""
    if loc == RESERVE:
        return line_positions(side, width)
    if not is_position(loc):
        return ()
    return (RESERVE, across(loc)) if line_of(loc) == side else (across(loc),)


@cache
def terrain_positions(side: str, codes: tuple[str, ...], width: int) -> tuple[str, ...]:
    """DX-3.3 / DX-10.2: the own-line positions a terrain card may go to: those printed on it; with the
    extended line (DX-13.8) L, C and R sit at 1, 3 and 5, and a terrain may also go next to its position."""
    if width == 3:
        return tuple(f"{side}-{c}" for c in codes)
    slots = SLOTS[5]
    allowed = set()
    for code in codes:
        i = slots.index(CODE_IN_FIVE[code])
        allowed.update(slots[j] for j in (i - 1, i, i + 1) if 0 <= j < len(slots))
    return tuple(f"{side}-{s}" for s in slots if s in allowed)
