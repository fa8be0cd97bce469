"""DX-4.0 victory: a side wins the instant it occupies 2 of the 3 enemy-line positions (3 of 5 with the
extended line, DX-13.8): at least one of its units there and no enemy unit. Wiping out the defenders is not
enough (A9: unless option 'enfilade clear captures' counts a position emptied by enfilade). Checked after
every event, in either player's turn. DX-14.0: if the CSA has not won by the end of day 3, the USA wins.

The basic game has no turn limit: it ends by DX-4.0 alone. A side with fewer units left in all (on the field,
in its reserve and decks) than the positions it must occupy can never win; when neither side can, no event can
end the battle any more, and the companion closes it undecided.
"""
from __future__ import annotations

from .board import ELIMINATED, line_positions, other
from .rules import SIDES, TO_WIN
from .state import GameState, Victory


def occupied(state: GameState, side: str) -> list[str]:
    """The enemy-line positions the side occupies now."""
    enemy = other(side)
    held = []
    for pos in line_positions(enemy, state.width):
        if state.units(pos, enemy):
            continue
        by_enfilade = state.options["enfilade_clear_captures"] and state.captured.get(pos) == side
        if state.units(pos, side) or by_enfilade:
            held.append(pos)
    return held


def needed(state: GameState) -> int:
    return TO_WIN[state.width]


def units_left(state: GameState, side: str) -> int:
    """The side's unit cards not eliminated: on the field, in its reserve and in its decks."""
    return state.once(("units left", side), lambda: sum(1 for c in state.cards if c.side == side and c.spec.is_unit
                                                        and c.loc != ELIMINATED))


def can_still_win(state: GameState, side: str) -> bool:
    """DX-4.0: one unit to occupy each position the side needs. With A9 a position emptied by enfilade counts
    without presence: while the enemy has units left, a single unit may still empty positions and win."""
    left = units_left(state, side)
    if left >= needed(state):
        return True
    if not left or not (state.options["enfilade"] and state.options["enfilade_clear_captures"]):
        return False
    enemy_line = line_positions(other(side), state.width)
    captured = sum(1 for p, s in state.captured.items() if s == side and p in enemy_line)  # its own line's: no help
    return units_left(state, other(side)) > 0 or left + captured >= needed(state)


def winner(state: GameState) -> Victory | None:
    """The side that occupies enough enemy positions (the active side first, should both); in the basic game, the
    undecided end when neither side can win any more."""
    for side in (state.active, other(state.active)):
        held = occupied(state, side)
        if len(held) >= needed(state):
            return Victory(side, f"{side} occupies {', '.join(held)}", "DX-4.0")
    if not state.options["historical"] and not any(can_still_win(state, s) for s in SIDES):
        return Victory("", f"neither side has the units left to occupy {needed(state)} enemy positions: no one can "
                           "win", "DX-4.0")
    return None
