"""Movement (DX-8.0-8.3b): one move per card, one card at a time, between the reserve and an own-line
position or across the Middle Ground; never sideways, diagonally or into the enemy reserve. Moving into a
position holding any enemy card is an advance (DX-8.1), whatever the mover's start; an engaged card moving to
its reserve or to an own-line position without enemy cards disengages (DX-8.2); a move across the Middle
Ground into an enemy-line position is never a disengagement. Cavalry and leaders may move twice (DX-8.3b),
but not both advance and disengage in one turn, and not through a position holding enemy cards; horse
artillery may advance but never moves twice (DX-7.2). A card that fired may not move (DX-7.0).

Stacking is checked only when all moves are done (DX-8.0, DX-3.1), so a position may be over the limit
between two moves; but a movement that cannot end within the limits is illegal as a whole: a move (or a
terrain, a decoy, a leader leaving) is legal only if the side's units can still all end where they fit, each
with the moves it has left (`finishable`).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from companion.engine import RuleError

from .board import RESERVE, across, is_flank, is_position, line_of, moves_from, other
from .flow import eliminate
from .rules import LDR, MAX_LEADERS, MAX_MOVES
from .stacking import can_place, over_limit, tally
from .state import Card, GameState, fault, public

MOVE, ADVANCE, DISENGAGE = "move", "advance", "disengage"


def kind_of(state: GameState, card: Card, to: str) -> str:
    """What a move from the card's place to `to` is (DX-8.1, DX-8.2)."""
    if to != RESERVE and state.enemy_cards(to, card.side):
        return ADVANCE
    if is_position(card.loc) and state.engaged(card.loc) and (to == RESERVE or line_of(to) == card.side):
        return DISENGAGE
    return MOVE


def most_moves(card: Card) -> int:
    """DX-8.0 / DX-8.3b / DX-7.2: cavalry and leaders move twice, horse artillery and the rest once."""
    return 1 if card.spec.horse else MAX_MOVES[card.spec.type]


def check_move(state: GameState, card: Card, to: str) -> str:
    """DX-8.0-8.3b: raise the rule a move breaks (stacking aside); else say what kind of move it is."""
    spec = card.spec
    if not (card.is_unit or spec.type == LDR) or card.decoy:
        raise RuleError("DX-8.0", f"{spec.label} does not move: only units and leaders move")
    if card.fired:
        raise RuleError("DX-7.0", f"{spec.label} fired this turn and may not move")
    if card.flank:
        raise RuleError("DX-13.3", f"{spec.label} made a flank attack this turn")
    most = most_moves(card)
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


def moved_to(card: Card, to: str, **changes: Any) -> Card:
    """A card entering the reserve is turned face-down (DX-8.1); a leader is face-up on the field (DX-11.0b)."""
    face_up = to != RESERVE and (card.face_up or card.spec.type == LDR)
    return replace(card, loc=to, face_up=face_up, **changes)


def move_result(state: GameState, card: Card, to: str) -> tuple[GameState, str, list[Card]]:
    """One move of the card (checked by `check_move`): the state after it, the kind of move, and the enemy decoys
    an advance eliminates (DX-13.6)."""
    kind = kind_of(state, card, to)
    moved = moved_to(card, to, moves=card.moves + 1, advanced=card.advanced or kind == ADVANCE,
                     disengaged=card.disengaged or kind == DISENGAGE)
    decoys = [eliminate(d) for d in state.at(to, other(card.side)) if d.decoy] if kind == ADVANCE else []
    return state.with_cards(moved, *decoys), kind, decoys


def reach(state: GameState, card: Card) -> frozenset[str]:
    """Where the card can be when its side's moves are done, stacking aside: where it is, or where its moves
    left take it, one after another (DX-8.0-8.3b)."""
    places = {card.loc}
    for to in moves_from(card.loc, card.side, state.width):
        if fault(check_move, state, card, to):
            continue
        places.add(to)
        if card.moves + 1 < most_moves(card):
            after, _, _ = move_result(state, card, to)
            moved = after.card(card.id)
            places.update(t for t in moves_from(to, card.side, state.width) if not fault(check_move, after, moved, t))
    return frozenset(places)


def reaches(state: GameState, side: str) -> dict[str, frozenset[str]]:
    """`reach` of each of the side's units on the field."""
    return state.once(("reaches", side), lambda: {c.id: reach(state, c) for p in state.positions
                                                  for c in state.units(p, side)})


def finishable(state: GameState, side: str, places: Mapping[str, frozenset[str]] | None = None) -> bool:
    """DX-8.0 / DX-3.1: can the side's units all end the Movement step within its stacking limits, each going
    where its moves left can take it (`places`, by default `reaches`)? The reserve has no limit."""
    if not over_limit(state, side):
        return True
    places = reaches(state, side) if places is None else places
    units, room = [], {}
    for p in state.positions:
        here = state.units(p, side)
        count, limit = tally(state, side, p)
        room[p] = limit - (count - len(here))   # decoys counted as units (A14) stay where they are
        units += here
    return can_place([places[c.id] for c in units], room)


STACKING = "DX-3.1"


def stacking_fault(state: GameState, after: GameState, places: Mapping[str, frozenset[str]] | None = None
                   ) -> RuleError | None:
    """The DX-3.1 refusal of a Movement-step action after which the moving side could not end its movement within
    its stacking limits (None when it could). `places`: where each unit can still go after the action (by default
    as before it)."""
    side = state.active
    if finishable(after, side, reaches(state, side) if places is None else places):
        return None
    return RuleError(STACKING, f"{side} could not then end its movement within its stacking limits: a position "
                               "would be left with more units than it may hold")


def move_choices(state: GameState) -> dict[str, dict[str, RuleError | None]]:
    """The moving side's units and leaders: each place one move takes it, with the rule a move there breaks
    (None when legal), stacking included (DX-8.0-8.3b, DX-3.1)."""
    def work() -> dict[str, dict[str, RuleError | None]]:
        side, found = state.active, {}
        for card in state.cards:
            if card.side != side or not (card.loc == RESERVE or is_position(card.loc)) or card.decoy \
                    or not (card.is_unit or card.spec.type == LDR):
                continue
            found[card.id] = {to: fault(check_move, state, card, to) or _stacking_after_move(state, card, to)
                              for to in moves_from(card.loc, side, state.width)}
        return found
    return state.once("moves", work)


def _still_within(state: GameState, card: Card, to: str) -> bool:
    """Does the moving side stay within all its limits after this move? (A quick sufficient test: the side is
    within them now and the move adds no unit beyond the limit where it goes, nor takes a leader's stack bonus
    from a position that needs it.)"""
    side = state.active
    if state.once(("over", side), lambda: over_limit(state, side)):
        return False
    if card.is_unit:
        count, limit = tally(state, side, to) if to != RESERVE else (0, 1)
        return count < limit
    if card.spec.stack_bonus and is_position(card.loc):
        count, limit = tally(state, side, card.loc)
        return count <= limit - card.spec.stack_bonus
    return True


def _stacking_after_move(state: GameState, card: Card, to: str) -> RuleError | None:
    if _still_within(state, card, to):
        return None
    after, _, decoys = move_result(state, card, to)
    if not over_limit(after, state.active):
        return None
    if decoys:  # without the enemy decoys there, every unit's moves are worked out again
        places = {c.id: reach(after, c) for p in after.positions for c in after.units(p, state.active)}
    else:
        places = dict(reaches(state, state.active))
        if card.is_unit:
            places[card.id] = reach(after, after.card(card.id))
    return stacking_fault(state, after, places)


def destinations(state: GameState, card: Card) -> list[str]:
    """Where one move may take the card now (DX-8.0-8.3b, DX-3.1)."""
    return [to for to, fault in move_choices(state).get(card.id, {}).items() if fault is None]


def disengagements(state: GameState, card: Card) -> tuple[str, ...]:
    """DX-8.2: where the card may disengage to, in one move, to an unengaged friendly position: from its own
    line its reserve; from the enemy line the own-line position straight across, if that holds no enemy card.
    Never into a position holding an enemy card. Empty when there is nowhere to go (A23)."""
    if line_of(card.loc) == card.side:
        return (RESERVE,)
    to = across(card.loc)
    return () if state.enemy_cards(to, card.side) else (to,)


def disengage(state: GameState, card: Card, to: str | None = None) -> tuple[GameState, str]:
    """DX-8.2: the unit disengages to `to`, one of `disengagements` (the first if none is named). With nowhere
    to go, A23: it stays, or by option it is eliminated. Only the unit moves: its leader stays, and dies at once
    if left alone with enemy units (DX-11.3, when the event settles)."""
    places = disengagements(state, card)
    if not places:
        if state.options["no_disengage_destination"] == "eliminate":
            return state.with_cards(eliminate(card)), f"{public(card)} cannot disengage from {card.loc} and is " \
                                                      "eliminated"
        return state, f"{public(card)} cannot disengage from {card.loc} and stays there"
    dest = places[0] if to is None else to
    return state.with_cards(moved_to(card, dest, disengaged=True)), \
        f"{public(card)} disengages from {card.loc} to {dest}"


def flank_targets(state: GameState, side: str) -> list[str]:
    """DX-13.3: the flank positions (A10 option: any position) holding both friendly and enemy units."""
    return [p for p in state.positions if (is_flank(p) or state.options["flank_any_position"])
            and state.units(p, side) and state.units(p, other(side))]


def flank_ready(card: Card) -> bool:
    """DX-13.3: a unit in its reserve that has neither moved nor tried a flank attack this turn."""
    return card.loc == RESERVE and card.is_unit and not card.flank and not card.moves
