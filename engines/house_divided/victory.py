"""HD-6: victory. Taking Washington is not a CSA win in the advanced game (HD-6.1); the basic game's
conditions come from public sources and are checked only when the players confirm them (option):
the USA wins holding the 7 largest Southern cities (as the players name them); the CSA wins when the
USA MM falls below the CSA MM (re-checked after every MM change, HD-6.3), on taking Washington when the
advanced Washington rule is off, or by surviving turn 40."""
from __future__ import annotations

from dataclasses import replace

from .rules import CSA, TURNS, USA, WASHINGTON
from .state import GameState, Victory

SOUTHERN_CITIES = 7


def check(state: GameState) -> GameState:
    """The state with its victory set if a basic-game condition now holds (HD-6.2, HD-6.3)."""
    if state.victory or not state.options["basic_victory"]:
        return state
    victory = None
    washington = state.game_map.role(WASHINGTON)
    if state.mm_usa < state.mm_csa:
        victory = Victory(CSA, f"CSA victory: the Union MM ({state.mm_usa}) is below the CSA MM ({state.mm_csa})",
                          "HD-6.3", state.turn)
    elif not state.options["washington"] and washington and state.controller(washington) == CSA:
        victory = Victory(CSA, "CSA victory: Washington taken (basic game)", "HD-6.2", state.turn)
    elif len(state.southern_cities) == SOUTHERN_CITIES and \
            all(state.controller(c) == USA for c in state.southern_cities):
        victory = Victory(USA, "Union victory: the 7 largest Southern cities are held", "HD-6.2", state.turn)
    return replace(state, victory=victory) if victory else state


def after_last_turn(state: GameState) -> Victory:
    """HD-6.2: the CSA wins by surviving turn 40 (when the basic conditions are checked)."""
    if state.options["basic_victory"]:
        return Victory(CSA, f"CSA victory: the Confederacy survived turn {TURNS}", "HD-6.2", TURNS)
    return Victory("", f"Turn {TURNS} is over: decide the game by your rulebook", "HD-6.2", TURNS)
