"""DX-12.0 special cards: played from the reserve onto any position (A7), face-up; at most 2 specials in one
position per phase, and different cards; the effect lasts for the turn it was played, unless printed otherwise.
Before the battle (or at night) a special lasts until the end of its side's first turn."""
from __future__ import annotations

from dataclasses import replace

from companion.engine import RuleError

from .rules import CSA, MAX_SPECIALS
from .state import DEPLOY, DUSK, NIGHT, Card, GameState


def check_special_limit(state: GameState, card: Card, pos: str) -> None:
    """DX-12.0: at most 2 specials in a position per phase, and different cards."""
    here = [p.split(" ")[1] for p in state.specials_played if p.split(" ")[0] == pos]
    if len(here) >= MAX_SPECIALS:
        raise RuleError("DX-12.0", f"{MAX_SPECIALS} specials have been played in {pos} this phase")
    if str(card.spec.number) in here:
        raise RuleError("DX-12.0", f"The same special cannot be played twice in {pos} in one phase")


def expiry(state: GameState, side: str) -> int:
    """The turn at whose end a special played now is discarded: this turn, or before the battle (or at night)
    the side's next turn (DX-12.0)."""
    if state.step in (DEPLOY, DUSK, NIGHT):
        return state.turn + (1 if side == CSA else 2)
    return state.turn


def played(state: GameState, card: Card, pos: str, expires: int) -> GameState:
    """The special face-up in the position, counted among this phase's specials there."""
    new = state.with_cards(replace(card, loc=pos, face_up=True, decoy=False, expires=expires))
    return replace(new, specials_played=state.specials_played + (f"{pos} {card.spec.number}",))
