"""What one side may see (digest section 2): its own cards fully, the enemy's face-up cards, the backs of the
enemy's face-down cards, and only the size of the enemy's reserve and of both hidden decks; and the action specs
as one side's page offers them: no card it may not see."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from companion.spec import ActionSpec, Barred, Choice, Param, Pick

from .board import DECK, ELIMINATED, REINFORCEMENTS, RESERVE, other
from .rules import SIDES
from .stacking import over_limit, unit_count, unit_limit
from .state import Card, GameState, public, sees  # noqa: F401  (sees: what a side's page may show)


def hidden_from(state: GameState, viewer: str) -> frozenset[str]:
    """The ids of the cards `viewer` (a side, or "" for the table) may not see."""
    return state.once(("hidden", viewer), lambda: frozenset(c.id for c in state.cards if not sees(c, viewer)))


OWN_CHECKS = ("check_leader", "check_morale", "morale_step")


def odds_blind(state: GameState, viewer: str, action: Mapping[str, Any]) -> bool:
    """Would the odds of this action, as prepared, tell `viewer` what a card is that it may not see? They reflect
    the strength, grade and leader of the cards where a fire lands (beyond its hits), a melee is fought or hits are
    checked, and of the cards that check morale or attack a flank. Then that page shows them not (digest section 2)."""
    kind = action.get("type")
    if kind == "flank_attack":
        places = {c.loc for c in state.cards if c.id in (action.get("cards") or ())}
    else:
        places = {action.get("target"), action.get("position"), *(m.position for m in state.melees),
                  *(t.position for t in state.tasks[:1])}
    if kind in OWN_CHECKS:
        places |= {c.loc for c in state.cards if c.side == state.active and c.hits}
    if kind == "disorder":
        places |= {pos for _, pos in over_limit(state)}
    hidden = hidden_from(state, viewer)
    return any(c.id in hidden for pos in places if isinstance(pos, str) for c in state.at(pos))


def name_for(card: Card, viewer: str) -> str:
    """A card as `viewer` may name it: its label, or only as a face-down card."""
    return card.spec.label if sees(card, viewer) else public(card)


def _shown(item: Any, hidden: frozenset[str]) -> bool:
    """Does the choice name no hidden card? (a card id, or 'firer>artillery', DX-13.4)"""
    value = item.value if isinstance(item, (Choice, Barred)) else item
    return not (isinstance(value, str) and any(part in hidden for part in value.split(">")))


def _seen_param(param: Param, viewer: str) -> Param:
    if param.choices is None:
        return param

    def choices(state: GameState, chosen: Mapping[str, Any]) -> Any:
        found, hidden = param.choices(state, chosen), hidden_from(state, viewer)
        if isinstance(found, Pick):
            return replace(found, options=[i for i in found.options if _shown(i, hidden)])
        if isinstance(found, (list, tuple)):
            return [i for i in found if _shown(i, hidden)]
        return found
    return replace(param, choices=choices)


def seen_specs(specs: Mapping[str, ActionSpec], viewer: str) -> dict[str, ActionSpec]:
    """The action specs as `viewer`'s page offers them (digest section 2): the engine's choices without the cards
    that side may not see (the enemy's reserve, decks and face-down cards; for the table every face-down card), so
    that no form on its page names one."""
    return {name: replace(spec, params=tuple(_seen_param(p, viewer) for p in spec.params))
            for name, spec in specs.items()}


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
