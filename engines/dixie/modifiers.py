"""A card's modified morale and its dice of fire, from the state.

Morale (DX-6.0) = CV + code + the commanding leader's rating for the card's stance (DX-11.1b, DX-13.7)
+ terrain (DX-10.3; ignored in melee, DX-13.1) + specials (DX-12.0).
Dice (DX-7.1) = CV + the artillery leader's +1 (A15; in melee by option A8) + terrain of the firing
position (not for enfilade, DX-13.2) + terrain of the target position against its units + specials;
never below 0. In melee terrain is ignored (DX-13.1).
The checks a card takes now (DX-6.0, DX-11.3): every hit at its morale, or in a melee's checks at once
(DX-13.1) as option A21 says for hits from other fire on units in the melee position.
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


def melee_share(state: GameState, card: Card) -> tuple[int, int]:
    """The card's hits checked in a melee's checks at once (DX-13.1), by option A21: (with terrain ignored, with
    terrain). 'all': every hit, terrain ignored; 'melee_only': the melee hits (the others wait for the owner's
    morale step, DX-6.0); 'all_terrain_for_fire': the melee hits without terrain, the others with it."""
    how = state.options["melee_other_hits"]
    if how == "all":
        return card.hits, 0
    return card.melee_hits, (card.hits - card.melee_hits if how == "all_terrain_for_fire" else 0)


def checks(state: GameState, unit: Card, melee: bool = False, led: bool = True) -> tuple[tuple[int, int], ...]:
    """(morale, hits) of each throw of a unit's checks now, one die per hit (DX-6.0): in the morale step every
    hit; in a melee's checks at once its `melee_share`."""
    if not melee:
        return ((morale(state, unit, False, led), unit.hits),)
    bare, with_terrain = melee_share(state, unit)
    return ((morale(state, unit, True, led), bare), (morale(state, unit, False, led), with_terrain))


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
