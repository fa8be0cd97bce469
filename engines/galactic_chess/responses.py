"""Galactic Chess Game: the free actions from a hand, which cost no turn (GC-11): response cards, the Castrop
Rebellion's discard and draw, and the return from an Inquiry.

A response card is used by whoever holds it when its moment comes: the cards offered are every hand's, and a
device shows only its own player's. An Escape Shuttle takes an admiral out of the battle between opportunities
(Q18: as if retreated for the bonus); an event that changes persons or posts waits until the battle is over.
"""
from __future__ import annotations

from dataclasses import replace

from companion.dice import Dice
from companion.engine import RuleError, Step
from companion.spec import NOT_ASKED, Barred, one_of

from . import battle as fight
from . import civil_war, event_cards
from .actions import actions, deck_choices, draw_into, in_game, lead
from .battle import ESCAPED, FLEET
from .fighting import held, over_if_finished, rules_of_battle, unit_index
from .rules import RESPONSE, TARGETED_EFFECTS
from .state import BATTLE, GameState
from .table import from_hand, to_discard


def _between_opportunities(state: GameState) -> bool:
    return state.phase == BATTLE and state.sortie.stage == "fight" and state.sortie.pending is None


def _escapees(state: GameState) -> list[str]:
    """GC-11 Escape Shuttle: the admirals present in the battle."""
    s = state.sortie
    return [u.name for i, u in enumerate(s.units) if u.kind == FLEET and s.field.status[i] in fight.PRESENT]


def _why_not(state: GameState, card: str) -> str:
    """Why a response card cannot be played now ("" when it can)."""
    event = state.event(card)
    if event.effect == "amritsar":
        return "it orders a sortie: it is an event of the active player's turn"
    if event.effect in ("fortress_vs_fortress", "double_snake"):
        how = "before the battle's first opportunity" if event.effect == "fortress_vs_fortress" else "in an engagement"
        return f"it is played in a battle, {how}, with its own step"
    if event.effect == "escape":
        if not _between_opportunities(state):
            return "it is used in a battle, between opportunities"
        return "" if _escapees(state) else "no admiral is present in the battle"
    if state.phase == BATTLE and event.effect != "none":
        return "it changes persons or posts: use it once the battle is over"
    if event.effect in TARGETED_EFFECTS and not event_cards.possible_targets(state, event):
        return "it has nobody to name now"
    return ""


def _response_cards(state: GameState, chosen) -> list:
    """GC-11: the response cards of every hand, each barred while its moment has not come."""
    found = []
    for card in held(state, lambda e: e.kind == RESPONSE):
        why = _why_not(state, card)
        found.append(Barred(card, card, "GC-11", why) if why else card)
    return found


def _response_targets(state: GameState, chosen):
    """The admiral an Escape Shuttle takes out of the battle, or the person an Inquiry or a defection names."""
    event = state.event(chosen["card"])
    if event.effect == "escape":
        return _escapees(state)
    return event_cards.target_choices(state, event) if event.effect in TARGETED_EFFECTS else NOT_ASKED


@actions("Play a response card", "GC-11",
         one_of("card", "Response card (any player's; costs no turn)", "GC-11", _response_cards, secret=True),
         one_of("target", "The admiral or person it names", "GC-11", _response_targets, default=""),
         when=in_game("GC-11"))
def respond(state: GameState, dice: Dice, card: str, target: str) -> Step:
    """GC-11: a response card is used when its moment comes, by whoever holds it; it costs no turn.
    An Escape Shuttle takes an admiral out of the battle: he neither attacks nor is attacked."""
    holder = state.holder(card)
    event = state.event(card)
    new = to_discard(from_hand(state, state.seat(holder), card, "GC-11"), card)
    if event.effect == "escape":
        s = state.sortie
        field, _ = fight.settle_sc(s.units, fight.set_status(s.field, unit_index(s, target), ESCAPED),
                                   rules_of_battle(state, s))
        text = f"{lead(state)}: {holder} plays {card}: {target} escapes the battle"
        return over_if_finished(replace(new, sortie=replace(s, field=field)), text, ("GC-11",))
    new, effect = event_cards.apply(new, event, holder, target)
    return Step(civil_war.settle(new), f"{holder} responds with {card}: {effect}", event_cards.rules_of(event))


def kircheis_appeared(state: GameState) -> None:
    in_game("GC-11")(state)
    if not any(p.role == "kircheis" and (state.placed(p.name) or p.name in state.destroyed) for p in state.persons):
        raise RuleError("GC-11", "Kircheis has not appeared yet")


@actions("Castrop Rebellion: discard and draw", "GC-11",
         one_of("card", "Castrop Rebellion card (any player's)", "GC-11",
                lambda s, c: held(s, lambda e: e.effect == "castrop"), secret=True),
         one_of("drawn", "The card drawn (or drawn by the companion)", "GC-3.1", lambda s, c: deck_choices(s),
                default="", secret=True),
         when=kircheis_appeared)
def castrop(state: GameState, dice: Dice, card: str, drawn: str) -> Step:
    """GC-11: once Kircheis has appeared, Castrop Rebellion may be discarded to draw 1, at any time; it is
    not the use of a card (a forced event drawn so is set aside, to resolve at a turn's start, Q39). The card drawn
    and its die are the holder's alone."""
    holder = state.holder(card)
    seat = state.seat(holder)
    new = to_discard(from_hand(state, seat, card, "GC-11"), card)
    new, text, _, drawn = draw_into(new, dice, seat, drawn, False)
    return Step(new, f"{holder} discards {card} and draws: {text}", ("GC-11", "GC-6A.1"), owner=holder,
                detail=f"{holder} draws {drawn}" if drawn else "")


def _someone_absent(state: GameState) -> None:
    in_game("GC-11")(state)
    if not any(p.absent for p in state.in_play):
        raise RuleError("GC-11", "Nobody is absent")


@actions("Return from the Inquiry", "GC-11",
         one_of("person", "The absent admiral", "GC-11", lambda s, c: [p.card for p in s.in_play if p.absent]),
         when=_someone_absent)
def return_from_inquiry(state: GameState, dice: Dice, person: str) -> Step:
    """GC-11 Inquiry: the absent admiral returns (as its card says), fit for battles again."""
    placed = state.placed(person)
    return Step(state.with_placed(replace(placed, absent=False)), f"{person} returns from the Inquiry", ("GC-11",))
