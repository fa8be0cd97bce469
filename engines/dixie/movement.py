"""Movement (DX-8.0-8.3b): one move per card, one card at a time, between the reserve and an own-line
position or across the Middle Ground; never sideways, diagonally or into the enemy reserve. Moving into a
position holding any enemy card is an advance (DX-8.1), whatever the mover's start; an engaged card moving to
its reserve or to an own-line position without enemy cards disengages (DX-8.2); a move across the Middle
Ground into an enemy-line position is never a disengagement. Cavalry and leaders may move twice (DX-8.3b),
but not both advance and disengage in one turn, and not through a position holding enemy cards; horse
artillery may advance but never moves twice (DX-7.2). A card that fired may not move (DX-7.0). Stacking is checked only
when all moves are done (DX-8.0, DX-3.1)."""
from __future__ import annotations

from companion.engine import RuleError

from .board import RESERVE, across, is_flank, is_position, line_of, moves_from, other
from .rules import LDR, MAX_LEADERS, MAX_MOVES
from .state import Card, GameState

MOVE, ADVANCE, DISENGAGE = "move", "advance", "disengage"


def kind_of(state: GameState, card: Card, to: str) -> str:
    """What a move from the card's place to `to` is (DX-8.1, DX-8.2)."""
    if to != RESERVE and state.enemy_cards(to, card.side):
        return ADVANCE
    if is_position(card.loc) and state.engaged(card.loc) and (to == RESERVE or line_of(to) == card.side):
        return DISENGAGE
    return MOVE


def check_move(state: GameState, card: Card, to: str) -> str:
    """DX-8.0-8.3b: raise the rule a move breaks; else say what kind of move it is."""
    spec = card.spec
    if not (card.is_unit or spec.type == LDR) or card.decoy:
        raise RuleError("DX-8.0", f"{spec.label} does not move: only units and leaders move")
    if card.fired:
        raise RuleError("DX-7.0", f"{spec.label} fired this turn and may not move")
    if card.flank:
        raise RuleError("DX-13.3", f"{spec.label} made a flank attack this turn")
    most = 1 if spec.horse else MAX_MOVES[spec.type]
    if card.moves >= most:
        raise RuleError("DX-8.3b" if most == 2 else "DX-8.0",
                        f"{spec.label} has made its {'two moves' if most == 2 else 'move'} this turn")
    if to not in moves_from(card.loc, card.side, state.width):
        raise RuleError("DX-8.0", f"{spec.label} cannot move from {card.loc} to {to}: moves go between the reserve "
                                  "and your own line, or straight across the Middle Ground")
    if card.moves and is_position(card.loc) and state.enemy_cards(card.loc, card.side):
        raise RuleError("DX-8.3b", f"{spec.label} may not move on through {card.loc}, which holds enemy cards")
    kind = kind_of(state, card, to)
    if (kind == ADVANCE and card.disengaged) or (kind == DISENGAGE and card.advanced):
        raise RuleError("DX-8.3b", f"{spec.label} may not both advance and disengage in one turn")
    if spec.type == LDR and to != RESERVE and sum(1 for c in state.at(to, card.side) if c.spec.type == LDR) \
            >= MAX_LEADERS:
        raise RuleError("DX-11.0b", f"{to} already has a {card.side} leader")
    return kind


def disengagements(state: GameState, card: Card) -> tuple[str, ...]:
    """DX-8.2: where the card may disengage to, in one move, to an unengaged friendly position: from its own
    line its reserve; from the enemy line the own-line position straight across, if that holds no enemy card.
    Never into a position holding an enemy card. Empty when there is nowhere to go (A23)."""
    if line_of(card.loc) == card.side:
        return (RESERVE,)
    to = across(card.loc)
    return () if state.enemy_cards(to, card.side) else (to,)


def destinations(state: GameState, card: Card) -> list[str]:
    """Where one move may take the card now (DX-8.0-8.3b); stacking is checked when all moves are done."""
    legal = []
    for to in moves_from(card.loc, card.side, state.width):
        try:
            check_move(state, card, to)
        except RuleError:
            continue
        legal.append(to)
    return legal


def flank_targets(state: GameState, side: str) -> list[str]:
    """DX-13.3: the flank positions (A10 option: any position) holding both friendly and enemy units."""
    return [p for p in state.positions if (is_flank(p) or state.options["flank_any_position"])
            and state.units(p, side) and state.units(p, other(side))]


def flank_ready(card: Card) -> bool:
    """DX-13.3: a unit in its reserve that has neither moved nor tried a flank attack this turn."""
    return card.loc == RESERVE and card.is_unit and not card.flank and not card.moves
