"""DX-3.1 stacking: `unit_limit(side, p) = 4 - terrain in p + the side's leader stack bonus (DX-11.2) +
its specials' stack bonus (DX-12.0)`. Terrain lowers both sides' limits alike (DX-11.1a); leaders and
specials do not count. Decoys count by their real type, or each as a unit (A14 option)."""
from __future__ import annotations

from typing import Mapping

from .rules import LDR, SIDES, SPC, STACK_LIMIT, TER
from .state import Card, GameState


def _tally(state: GameState, cards: list[Card], side: str) -> tuple[int, int]:
    """(units of the side, its limit) among the cards of one position."""
    as_units = state.options["decoy_stacking"] == "as_unit"
    terrain = sum(1 for c in cards if c.spec.type == TER and not (c.decoy and as_units))
    limit, units = STACK_LIMIT - terrain, 0
    for c in cards:
        if c.side != side:
            continue
        if c.is_unit or (c.decoy and as_units):
            units += 1
        elif not c.decoy and c.spec.type in (LDR, SPC):
            limit += c.spec.stack_bonus
    return units, limit


def tally(state: GameState, side: str, pos: str) -> tuple[int, int]:
    """(the side's units in the position, counted for stacking; its limit there)."""
    return _tally(state, state.at(pos), side)


def unit_limit(state: GameState, side: str, pos: str) -> int:
    return _tally(state, state.at(pos), side)[1]


def unit_count(state: GameState, side: str, pos: str) -> int:
    return _tally(state, state.at(pos), side)[0]


def room(state: GameState, side: str, pos: str) -> int:
    """How many more units the side may have in the position."""
    units, limit = _tally(state, state.at(pos), side)
    return limit - units


def over_limit(state: GameState, side: str | None = None) -> list[tuple[str, str]]:
    """(side, position) pairs over the limit."""
    over = []
    for pos in state.positions:
        cards = state.at(pos)
        for s in (side,) if side else SIDES:
            units, limit = _tally(state, cards, s)
            if units > limit:
                over.append((s, pos))
    return over


def can_place(wants: list[frozenset[str]], room: Mapping[str, int]) -> bool:
    """Can each unit go to one of the places it may end in (`wants`), no place taking more units than its `room`?
    A place without a room (the reserve) takes any number. Augmenting paths (Kuhn's matching)."""
    bound = [sorted(w) for w in wants if all(p in room for p in w)]
    held: dict[str, list[int]] = {p: [] for p in room}

    def seat(i: int, seen: set[str]) -> bool:
        for p in bound[i]:
            if p in seen:
                continue
            seen.add(p)
            if len(held[p]) < room[p]:
                held[p].append(i)
                return True
            for j in held[p]:
                if seat(j, seen):
                    held[p].remove(j)
                    held[p].append(i)
                    return True
        return False
    return all(seat(i, set()) for i in range(len(bound)))
