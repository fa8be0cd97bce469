"""What a combat or a failed retreat leaves behind: removed units (BS-D.11), the damage marker (BS-CMB.9,
BS-RET) and the commander cards (BS-D.10)."""
from __future__ import annotations

from dataclasses import replace

from .rules import COMMANDER_FACES, U
from .state import GameState


def remove_units(state: GameState, area: str, side: str, n: int, commander: bool) -> GameState:
    """n units of `side` leave `area` (the commander unit among them if `commander`): back to the pool, or
    lost for good with option A11 - but the commander unit, which always returns to the pool and can be
    recruited again (BS-D.10). An own-side state left without the side's units loses its entrenchment."""
    state = state.with_count(area, side, -n)
    if commander:
        state = replace(state, commander_at={**state.commander_at, side: ""})
    if state.options["removed_to"] == "lost":
        state = replace(state, lost={**state.lost, side: state.lost[side] + n - (1 if commander else 0)})
    if not state.count(area, side) and area in state.entrenched and state.board.area(area).side == side:
        state = replace(state, entrenched=tuple(a for a in state.entrenched if a != area))
    return state


def move_damage(state: GameState, toward: str) -> GameState:
    """One square toward `toward`'s side of the damage track; it stays on the last square (A16)."""
    step = 1 if toward == U else -1
    damage = max(-len(state.board.damage_c), min(len(state.board.damage_u), state.damage + step))
    toward_side = damage if toward == U else -damage
    reach = {**state.damage_reach, toward: max(state.damage_reach[toward], toward_side)}
    return replace(state, damage=damage, damage_reach=reach)


def advance_commander(state: GameState, side: str) -> GameState:
    """BS-D.10: the next commander card, never past the last (Grant for the Union, Lee fatigued for the CSA).
    In a combat, a second trigger advances again only with option A15."""
    battle = state.battle
    if battle is not None and side in battle.advanced and not state.options["double_succession"]:
        return state
    face = min(COMMANDER_FACES[side], state.commander[side] + 1)
    state = replace(state, commander={**state.commander, side: face})
    if battle is not None:
        state = replace(state, battle=replace(battle, advanced=battle.advanced + (side,)))
    return state
