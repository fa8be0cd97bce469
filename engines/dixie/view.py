"""What one side may see (digest section 2): its own cards fully, the enemy's face-up cards, the backs of the
enemy's face-down cards, and only the size of the enemy's reserve and of both hidden decks."""
from __future__ import annotations

from typing import Any

from .board import DECK, ELIMINATED, REINFORCEMENTS, RESERVE, other
from .rules import SIDES
from .stacking import unit_count, unit_limit
from .state import Card, GameState


def sees(card: Card, side: str) -> bool:
    return card.side == side or (card.face_up and not card.decoy)


def card_view(card: Card, side: str) -> dict[str, Any]:
    if not sees(card, side):
        return {"back": card.side}
    s = card.spec
    entry = {"id": card.id, "side": card.side, "type": s.type, "name": s.name, "face_up": card.face_up,
             "hits": card.hits, "decoy": card.decoy, "fired": card.fired, "moves": card.moves}
    if s.is_unit:
        entry.update(cv=s.cv, morale=f"{s.cv}{s.morale}", horse=s.horse)
    if s.type == "LDR":
        entry.update(command=f"{s.attack}/{s.defense}", stack_bonus=s.stack_bonus, rank=s.rank)
    return entry


def side_view(state: GameState, side: str) -> dict[str, Any]:
    """The battlefield as `side` sees it."""
    positions = {}
    for pos in state.positions:
        positions[pos] = {
            "holder": state.holder[pos],
            "engaged": state.engaged(pos),
            "stack": {s: (unit_count(state, s, pos), unit_limit(state, s, pos)) for s in SIDES},
            "cards": [card_view(c, side) for c in state.at(pos)],
        }
    return {
        "side": side, "turn": state.turn, "active": state.active, "step": state.step, "day": state.day,
        "victory": None if state.victory is None else {"side": state.victory.side, "reason": state.victory.reason},
        "positions": positions,
        "reserve": [card_view(c, side) for c in state.at(RESERVE, side)],
        "enemy_reserve": len(state.at(RESERVE, other(side))),
        "reinforcements": {s: len(state.at(REINFORCEMENTS, s)) for s in SIDES},
        "deck": {s: len(state.at(DECK, s)) for s in SIDES},
        "eliminated": [card_view(c, side) for c in state.at(ELIMINATED)],
    }
