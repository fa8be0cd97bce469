"""HD-6: victory. Taking Washington is not a CSA win in the advanced game (HD-6.1); the basic game's
conditions come from public sources and decide the game only once the players switch them on (A26; until
then they are shown as information):
the USA wins holding the 7 largest Southern cities (as the players name them); the CSA wins when the
USA MM falls below the CSA MM (re-checked after every MM change, HD-6.3), on taking Washington when the
advanced Washington rule is off, or by surviving turn 40."""
from __future__ import annotations

from dataclasses import dataclass, replace

from .rules import CSA, TURNS, USA, WASHINGTON
from .state import GameState, Victory

SOUTHERN_CITIES = 7


@dataclass(frozen=True)
class Condition:
    """A basic-game victory condition (HD-6.2) as the game stands: shown as information while the basic
    victory is off (A26), a win once the players switch it on."""

    side: str
    text: str
    holds: bool
    rule: str
    result: str   # the line that announces the win


def conditions(state: GameState) -> list[Condition]:
    """The basic-game conditions that can hold during play, the MM one first (HD-6.3); taking Washington only
    with the advanced Washington rule off (HD-6.1)."""
    mm = f"the Union MM ({state.mm_usa}) is below the CSA MM ({state.mm_csa})"
    found = [Condition(CSA, mm[0].upper() + mm[1:], state.mm_usa < state.mm_csa, "HD-6.3", f"CSA victory: {mm}")]
    washington = state.game_map.role(WASHINGTON)
    if not state.options["washington"]:
        found.append(Condition(CSA, "Washington taken (basic game)",
                               bool(washington) and state.controller(washington) == CSA, "HD-6.2",
                               "CSA victory: Washington taken (basic game)"))
    held = [c for c in state.southern_cities if state.controller(c) == USA]
    found.append(Condition(USA, f"The {SOUTHERN_CITIES} largest Southern cities held ({len(held)} of "
                                f"{len(state.southern_cities)} named)",
                           len(state.southern_cities) == SOUTHERN_CITIES and len(held) == SOUTHERN_CITIES, "HD-6.2",
                           f"Union victory: the {SOUTHERN_CITIES} largest Southern cities are held"))
    return found


def check(state: GameState) -> GameState:
    """The state with its victory set if a basic-game condition now holds and the players switched the basic
    victory on (HD-6.2, HD-6.3, A26)."""
    if state.victory or not state.options["basic_victory"]:
        return state
    met = next((c for c in conditions(state) if c.holds), None)
    return replace(state, victory=Victory(met.side, met.result, met.rule, state.turn)) if met else state


def after_last_turn(state: GameState) -> Victory:
    """HD-6.2: the CSA wins by surviving turn 40 (when the basic conditions are checked)."""
    if state.options["basic_victory"]:
        return Victory(CSA, f"CSA victory: the Confederacy survived turn {TURNS}", "HD-6.2", TURNS)
    return Victory("", f"Turn {TURNS} is over: decide the game by your rulebook", "HD-6.2", TURNS)
