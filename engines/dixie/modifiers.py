"""A card's modified morale and its dice of fire, from the state, each with the parts it adds up.

Morale (DX-6.0) = CV + code + terrain (DX-10.3; ignored in melee, DX-13.1) + the commanding leader's rating
for the card's stance (DX-11.1b, DX-13.7) + specials (DX-12.0).
Flank-attack morale (DX-13.3) = CV + code, +1 for cavalry, -1 for artillery, + the attack rating of a leader
going with the card that commands it.
Dice (DX-7.1) = CV + the artillery leader's +1 (A15; in melee by option A8) + terrain of the firing
position (not for enfilade, DX-13.2) + terrain of the target position against its units + specials;
never below 0. In melee terrain is ignored (DX-13.1).
The checks a card takes now (DX-6.0, DX-11.3): every hit at its morale, or in a melee's checks at once
(DX-13.1) as option A21 says for hits from other fire on units in the melee position.
"""
from __future__ import annotations

from companion.terms import Terms

from .board import is_position
from .command import artillery_bonus, commander, commands, support
from .fire import dice_from
from .rules import ARM_NAMES, FLANK_MORALE
from .state import Card, GameState
from .terrain import special_terms, terrain_terms

SHORT, LONG, ENFILADE, SUPPORT, MELEE = "short", "long", "enfilade", "support", "melee"


def morale_terms(state: GameState, card: Card, melee: bool = False, led: bool = True) -> Terms:
    """The parts of the modified morale; `led=False` leaves out the leader (as after its death, DX-11.3)."""
    terms = card.spec.morale_terms()
    pos = card.loc
    if not is_position(pos):
        return terms
    if not melee:
        terms = Terms(terms.parts + tuple(terrain_terms(state, card.side, pos, "morale")))
    leader = commander(state, card) if led else None
    if leader:
        terms = terms.plus("leader", support(leader, state.stance(card.side, pos)))
    return Terms(terms.parts + tuple(special_terms(state, card.side, pos, "morale")))


def morale(state: GameState, card: Card, melee: bool = False, led: bool = True) -> int:
    """Modified morale: the sum of `morale_terms`."""
    return morale_terms(state, card, melee, led).total


def flank_terms(state: GameState, card: Card, leader: Card | None) -> Terms:
    """DX-13.3: the parts of a reserve card's flank-attack morale (the leader's only if it commands the card)."""
    terms = card.spec.morale_terms()
    if FLANK_MORALE[card.spec.type]:
        terms = terms.plus(ARM_NAMES[card.spec.type], FLANK_MORALE[card.spec.type])
    if leader is not None and commands(state, leader, card):
        terms = terms.plus("leader", leader.spec.attack)
    return terms


def melee_share(state: GameState, card: Card) -> tuple[int, int]:
    """The card's hits checked in a melee's checks at once (DX-13.1), by option A21: (with terrain ignored, with
    terrain). 'all': every hit, terrain ignored; 'melee_only': the melee hits (the others wait for the owner's
    morale step, DX-6.0); 'all_terrain_for_fire': the melee hits without terrain, the others with it."""
    how = state.options["melee_other_hits"]
    if how == "all":
        return card.hits, 0
    return card.melee_hits, (card.hits - card.melee_hits if how == "all_terrain_for_fire" else 0)


def checks(state: GameState, unit: Card, melee: bool = False, led: bool = True) -> tuple[tuple[Terms, int], ...]:
    """(morale's parts, hits) of each throw of a unit's checks now, one die per hit (DX-6.0): in the morale step
    every hit; in a melee's checks at once its `melee_share`."""
    if not melee:
        return ((morale_terms(state, unit, False, led), unit.hits),)
    bare, with_terrain = melee_share(state, unit)
    return ((morale_terms(state, unit, True, led), bare), (morale_terms(state, unit, False, led), with_terrain))


def fire_terms(state: GameState, card: Card, mode: str, target: str, target_side: str) -> Terms:
    """DX-7.1 with its modifiers: the parts of the dice this card rolls at the target position."""
    terms = Terms((("CV", card.spec.cv),))
    if (mode != MELEE or state.options["art_leader_in_melee"]) and artillery_bonus(state, card):
        terms = terms.plus("artillery leader", artillery_bonus(state, card))
    found = []
    for side, pos, what in _terms(card, mode, target, target_side):
        if mode != MELEE:
            found += terrain_terms(state, side, pos, what)
        found += special_terms(state, side, pos, what)
    return Terms(terms.parts + tuple(found))


def fire_dice(state: GameState, card: Card, mode: str, target: str, target_side: str) -> int:
    """The dice this card rolls: the sum of `fire_terms`, never below 0."""
    return dice_from(fire_terms(state, card, mode, target, target_side))


def told(card: Card, terms: Terms) -> Terms | None:
    """A card's parts as every page may see them: none for a face-down card (digest section 2)."""
    return terms if card.face_up and not card.decoy else None


def _terms(card: Card, mode: str, target: str, target_side: str):
    """(side served, position, kind) of the modifiers on this fire."""
    if mode != ENFILADE:
        yield card.side, card.loc, "fire_cv"
    yield target_side, target, "fire_in_cv"
    if mode == ENFILADE:
        yield target_side, target, "enfilade_in_cv"
