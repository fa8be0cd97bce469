"""DX-4.0 victory: a side wins the instant it occupies 2 of the 3 enemy-line positions (3 of 5 with the
extended line, DX-13.8): at least one of its units there and no enemy unit. Wiping out the defenders is not
enough (A9: unless option 'enfilade clear captures' counts a position emptied by enfilade). Checked after
every event, in either player's turn. DX-14.0: if the CSA has not won by the end of day 3, the USA wins."""
from __future__ import annotations

from .board import line_positions, other
from .rules import TO_WIN
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


def winner(state: GameState) -> Victory | None:
    """The side that occupies enough enemy positions (the active side first, should both)."""
    for side in (state.active, other(state.active)):
        held = occupied(state, side)
        if len(held) >= needed(state):
            return Victory(side, f"{side} occupies {', '.join(held)}", "DX-4.0")
    return None
