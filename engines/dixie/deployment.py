"""Cards placed from the reserve into positions: the deployment (DX-3.2, DX-3.3), the night deployment
(DX-14.0) and decoys (DX-13.6); terrain at most 2 to a position where its code says (DX-3.3, DX-11.0a), one
leader per side and position (DX-11.0b), specials as DX-12.0 allows.

Stacking is checked when the battle (or the day) starts (DX-3.1), and units never leave a position before
then: a placing is legal only if the side can still be within its limits by that time, a position over its
limit taking the stack bonus of leaders and specials still in the reserve (`coverable`).
"""
from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from companion.engine import RuleError

from .board import RESERVE, line_of, line_positions, other
from .rules import DECOY_TYPES, LDR, MAX_LEADERS, MAX_SPECIALS, SPC, TER
from .specials import check_special_limit, expiry, played
from .stacking import unit_count, unit_limit
from .state import NIGHT, Card, GameState
from .terrain import check_terrain


def check_decoy(state: GameState, card: Card, pos: str) -> None:
    """DX-13.6: leaders, specials and terrain may go face-down as decoys where there are no enemy units."""
    if not state.options["decoys"]:
        raise RuleError("DX-13.6", "Decoys (13.6) are off")
    if card.spec.type not in DECOY_TYPES:
        raise RuleError("DX-13.6", "Only leaders, specials and terrain may be decoys")
    if state.units(pos, other(card.side)):
        raise RuleError("DX-13.6", f"A decoy goes only where there are no enemy units, not {pos}")


def check_placing(state: GameState, card: Card, pos: str, decoy: bool) -> None:
    """What the card itself allows (DX-3.3, DX-11.0a, DX-11.0b, DX-12.0, DX-13.6, DX-14.0)."""
    if decoy:
        check_decoy(state, card, pos)
    if card.spec.type == TER:
        check_terrain(state, card, pos)
    if card.spec.type == LDR and sum(1 for c in state.at(pos, card.side) if c.spec.type == LDR) >= MAX_LEADERS:
        raise RuleError("DX-11.0b", f"{pos} already has a {card.side} leader")
    if card.spec.type == SPC and not decoy:
        check_special_limit(state, card, pos)


def placed(state: GameState, card: Card, pos: str, decoy: bool) -> GameState:
    """The card in the position: units face-down, terrain, leaders and specials face-up, decoys face-down."""
    if card.spec.type == SPC and not decoy:
        return played(state, card, pos, expiry(state, card.side))
    return state.with_cards(replace(card, loc=pos, face_up=not decoy and not card.is_unit, decoy=decoy))


def _fault(state: GameState, card: Card, pos: str, decoy: bool) -> RuleError | None:
    """The rule a deployment (or night deployment) of the card into the position breaks, stacking aside."""
    try:
        if card.loc != RESERVE:
            raise RuleError("DX-3.2", f"{card.spec.label} is not in the {card.side} reserve")
        if line_of(pos) != card.side:
            raise RuleError("DX-3.2", f"{card.side} deploys only into its own positions, not {pos}")
        if state.step == NIGHT and state.units(pos, other(card.side)):
            raise RuleError("DX-14.0", f"At night cards deploy only where there are no enemy units, not {pos}")
        check_placing(state, card, pos, decoy)
    except RuleError as error:
        return error
    return None


def placing_fault(state: GameState, card: Card, pos: str, decoy: bool) -> RuleError | None:
    """The rule a deployment of the card into the position breaks (None when it is legal), stacking included."""
    fault = _fault(state, card, pos, decoy)
    if fault is None and not coverable(placed(state, card, pos, decoy), card.side):
        fault = RuleError("DX-3.1", f"{pos} would hold more {card.side} units than its stacking limit, with no leader "
                                    "or special left in the reserve to raise it")
    return fault


def coverable(state: GameState, side: str) -> bool:
    """DX-3.1 / DX-11.2 / DX-12.0: can the side's positions over their limits be brought within them by the stack
    bonus of leaders and specials still in its reserve (one leader a position, specials as DX-12.0 allows)?"""
    short = [(p, unit_count(state, side, p) - unit_limit(state, side, p)) for p in state.positions]
    short = [(p, n) for p, n in short if n > 0]
    spare = [c for c in state.at(RESERVE, side) if c.spec.type in (LDR, SPC) and c.spec.stack_bonus]
    return _cover(state, short, spare)


def _cover(state: GameState, short: list[tuple[str, int]], spare: list[Card]) -> bool:
    if not short:
        return True
    (pos, need), rest = short[0], short[1:]
    fit = [c for c in spare if _fault(state, c, pos, False) is None]
    leaders = [None, *(c for c in fit if c.spec.type == LDR)]
    specials = [c for c in fit if c.spec.type == SPC]
    here = sum(1 for p in state.specials_played if p.split(" ")[0] == pos)
    for chief in leaders:
        for n in range(MAX_SPECIALS - here + 1):
            for extra in combinations(specials, n):
                if len({c.spec.number for c in extra}) < n:
                    continue
                pick = ([chief] if chief else []) + list(extra)
                if sum(c.spec.stack_bonus for c in pick) >= need and \
                        _cover(state, rest, [c for c in spare if c not in pick]):
                    return True
    return False


def deploy_choices(state: GameState) -> dict[str, dict[str, dict[bool, RuleError | None]]]:
    """Every reserve card of both sides: each own-line position, face-up or as a decoy, with the rule a
    deployment there breaks (None when legal)."""
    def work():
        answers = (False, True) if state.options["decoys"] else (False,)
        return {c.id: {p: {d: placing_fault(state, c, p, d) for d in answers}
                       for p in line_positions(c.side, state.width)}
                for c in state.cards if c.loc == RESERVE}
    return state.once("deploy", work)
