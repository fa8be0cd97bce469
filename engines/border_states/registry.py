"""The table of the game's actions, the phase each belongs to, and the cards a side may play now."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from companion.engine import RuleError
from companion.spec import Actions, Barred, Choice

from .board import Card
from .rules import CARD_LIMIT, SIDE_NAME
from .state import ACTION, COMBAT, DRAW, INITIATIVE, OVER, RECRUIT, SETUP, SUPPLY, VICTORY, GameState

actions = Actions("BS-ACT")

PHASE_RULES = {SETUP: "BS-SETUP", DRAW: "BS-DRAW", INITIATIVE: "BS-INIT", ACTION: "BS-ACT", COMBAT: "BS-CMB",
               VICTORY: "BS-VIC", SUPPLY: "BS-SUP", RECRUIT: "BS-REC"}
PHASE_NAMES = {SETUP: "deployment", DRAW: "draw", INITIATIVE: "initiative", ACTION: "action", COMBAT: "combat",
               VICTORY: "victory check", SUPPLY: "supply", RECRUIT: "recruitment", OVER: "game over"}
NO_CARD = Choice("", "no card")


def require_phase(state: GameState, phase: str) -> None:
    if state.phase == OVER:
        raise RuleError("BS-VIC", f"The game is over: {state.victory.text}")
    if state.phase != phase:
        raise RuleError(PHASE_RULES[phase], f"This belongs to the {PHASE_NAMES[phase]} phase; it is the "
                                            f"{PHASE_NAMES[state.phase]} phase of round {state.round}")


def in_phase(phase: str) -> Callable[[GameState], None]:
    """The `when` of an action of one phase."""
    return lambda state: require_phase(state, phase)


def card_choices(state: GameState, side: str, why_not: Callable[[Card], str], in_combat: bool = False) -> list:
    """The side's cards: those it may play now offered, the others barred by the rule that bars them (no card in
    hand, BS-D.9; its one card of this combat used, BS-CARD; `why_not(card)`, the card's own timing, BS-CARD)."""
    found = []
    used = in_combat and state.battle.cards.count(side) >= CARD_LIMIT
    for card in state.board.cards[side]:
        if state.hand[side] < 1:
            found.append(Barred(card.name, card.name, "BS-D.9", f"{SIDE_NAME[side]} has no card in hand"))
        elif used:
            found.append(Barred(card.name, card.name, "BS-CARD",
                                f"{SIDE_NAME[side]} has already used its card in this combat"))
        elif why_not(card):
            found.append(Barred(card.name, card.name, "BS-CARD", why_not(card)))
        else:
            found.append(Choice(card.name, card.name))
    return found


def use_card(state: GameState, side: str) -> GameState:
    """A card leaves the hand for the discard pile (BS-D.9)."""
    return replace(state, hand={**state.hand, side: state.hand[side] - 1},
                   discard={**state.discard, side: state.discard[side] + 1})
