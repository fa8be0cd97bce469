"""The table of the game's actions and the checks every action starts with."""
from __future__ import annotations

from dataclasses import replace

from companion.engine import Actions, RuleError

from .rules import CARD_LIMIT, SIDE_NAME
from .state import ACTION, COMBAT, DRAW, INITIATIVE, OVER, RECRUIT, SETUP, SUPPLY, VICTORY, Battle, GameState

actions = Actions("BS-ACT")

PHASE_RULES = {SETUP: "BS-SETUP", DRAW: "BS-DRAW", INITIATIVE: "BS-INIT", ACTION: "BS-ACT", COMBAT: "BS-CMB",
               VICTORY: "BS-VIC", SUPPLY: "BS-SUP", RECRUIT: "BS-REC"}
PHASE_NAMES = {SETUP: "deployment", DRAW: "draw", INITIATIVE: "initiative", ACTION: "action", COMBAT: "combat",
               VICTORY: "victory check", SUPPLY: "supply", RECRUIT: "recruitment", OVER: "game over"}


def yes(value) -> bool:
    """A yes/no parameter counts as yes only when it is the bool True: the text "false", 1 or anything else is
    never taken for yes (digest section 11; the action specs refuse such values outright)."""
    return value is True


def require_phase(state: GameState, phase: str) -> None:
    if state.phase == OVER:
        raise RuleError("BS-VIC", f"The game is over: {state.victory.text}")
    if state.phase != phase:
        raise RuleError(PHASE_RULES[phase], f"This belongs to the {PHASE_NAMES[phase]} phase; it is the "
                                            f"{PHASE_NAMES[state.phase]} phase of round {state.round}")


def use_card(state: GameState, side: str, battle: Battle | None = None) -> GameState:
    """A card leaves the hand for the discard pile; in a combat, a side uses one at most (BS-CARD)."""
    if state.hand[side] < 1:
        raise RuleError("BS-D.9", f"{SIDE_NAME[side]} has no card in hand")
    if battle is not None and battle.cards.count(side) >= CARD_LIMIT:
        raise RuleError("BS-CARD", f"{SIDE_NAME[side]} has already used its card in this combat")
    return replace(state, hand={**state.hand, side: state.hand[side] - 1},
                   discard={**state.discard, side: state.discard[side] + 1})
