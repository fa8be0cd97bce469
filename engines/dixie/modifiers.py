"""A card's modified morale and its dice of fire, from the state.

Morale (DX-6.0) = CV + code + the commanding leader's rating for the card's stance (DX-11.1b, DX-13.7)
+ terrain (DX-10.3; ignored in melee, DX-13.1) + specials (DX-12.0).
Dice (DX-7.1) = CV + the artillery leader's +1 (A15; in melee by option A8) + terrain of the firing
position (not for enfilade, DX-13.2) + terrain of the target position against its units + specials;
never below 0. In melee terrain is ignored (DX-13.1).
"""
from __future__ import annotations

from .board import is_position
from .command import artillery_bonus, commander, support
from .state import Card, GameState
from .terrain import special_bonus, terrain_bonus

SHORT, LONG, ENFILADE, SUPPORT, MELEE = "short", "long", "enfilade", "support", "melee"


def morale(state: GameState, card: Card, melee: bool = False, led: bool = True) -> int:
    """Modified morale; `led=False` leaves out the leader (as after its death, DX-11.3)."""
    value = card.spec.base_morale
    pos = card.loc
    if not is_position(pos):
        return value
    leader = commander(state, card) if led else None
    if leader:
        value += support(leader, state.stance(card.side, pos))
    if not melee:
        value += terrain_bonus(state, card.side, pos, "morale")
    return value + special_bonus(state, card.side, pos, "morale")


def fire_dice(state: GameState, card: Card, mode: str, target: str, target_side: str) -> int:
    """DX-7.1 with its modifiers: the dice this card rolls at the target position."""
    dice = card.spec.cv
    if mode != MELEE or state.options["art_leader_in_melee"]:
        dice += artillery_bonus(state, card)
    for side, pos, what in _terms(card, mode, target, target_side):
        if mode != MELEE:
            dice += terrain_bonus(state, side, pos, what)
        dice += special_bonus(state, side, pos, what)
    return max(0, dice)


def _terms(card: Card, mode: str, target: str, target_side: str):
    """(side served, position, kind) of the modifiers on this fire."""
    if mode != ENFILADE:
        yield card.side, card.loc, "fire_cv"
    yield target_side, target, "fire_in_cv"
    if mode == ENFILADE:
        yield target_side, target, "enfilade_in_cv"
