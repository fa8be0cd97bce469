"""Terrain (DX-3.3, DX-10.2, DX-10.3, DX-11.0a, DX-11.1a) and the printed effects of terrain and specials.

A terrain card goes face-up, at most 2 to a position, only into a position printed on it (DX-13.8: or next
to it); after deployment it is played from the reserve in the Movement step into an unengaged own-line
position (DX-10.2); on historical day 1 only day-1 terrain (DX-14.0). Its effects serve the position's
holder or attacker as printed (DX-10.3): a captured position's terrain serves the captor. Specials modify
for their owner or the enemy as printed (DX-12.0).
"""
from __future__ import annotations

from companion.engine import RuleError

from .board import line_of, terrain_positions
from .rules import MAX_TERRAIN, SPC, TER
from .state import Card, GameState


def terrain_terms(state: GameState, side: str, pos: str, what: str) -> list[tuple[str, int]]:
    """The terrain modifiers of kind `what` that serve `side` in the position, one per card, named by its kind
    ("woods", "hill"; DX-10.3)."""
    holder = state.holder[pos] == side
    found = []
    for card in state.terrain(pos):
        value = sum(m.value for m in card.spec.modifiers
                    if m.what == what and (m.side == "both" or (m.side == "holder") == holder))
        if value:
            found.append((card.spec.kind or card.spec.name or "terrain", value))
    return found


def special_terms(state: GameState, side: str, pos: str, what: str) -> list[tuple[str, int]]:
    """The special-card modifiers of kind `what` that serve `side` in the position, one per card, named by the card
    (DX-12.0)."""
    found = []
    for card in state.at(pos):
        if card.spec.type != SPC or card.decoy:
            continue
        value = sum(m.value for m in card.spec.modifiers
                    if m.what == what and (m.side == "both" or (m.side == "own") == (card.side == side)))
        if value:
            found.append((card.spec.name or "special", value))
    return found


def check_terrain(state: GameState, card: Card, pos: str) -> None:
    """DX-3.3 / DX-11.0a / DX-13.8 / DX-14.0: may this terrain card go into this position?"""
    if card.spec.type != TER:
        raise RuleError("DX-3.3", f"{card.spec.label} is not a terrain card")
    if line_of(pos) != card.side:
        raise RuleError("DX-3.3", "Terrain goes only into a position of your own line")
    allowed = terrain_positions(card.side, card.spec.codes, state.width)
    if pos not in allowed:
        raise RuleError("DX-3.3", f"{card.spec.label} is printed for {', '.join(card.spec.codes)}: it may go to "
                                  f"{', '.join(allowed)}, not {pos}")
    if sum(1 for c in state.at(pos) if c.spec.type == TER) >= MAX_TERRAIN:
        raise RuleError("DX-11.0a", f"{pos} already holds {MAX_TERRAIN} terrain cards")
    if state.options["historical"] and state.day == 1 and card.spec.day != 1:
        raise RuleError("DX-14.0", "On day 1 only day-1 terrain may be used")
