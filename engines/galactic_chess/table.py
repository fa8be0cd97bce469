"""The cards on the table: every move of a card from one place to another, so that each card stays in
exactly one place (decks, hands, in play, discard, destroyed, set aside)."""
from __future__ import annotations

from dataclasses import replace

from companion.dice import Dice
from companion.engine import RuleError
from companion.quoting import quote

from .state import GameState, Placed


def current_deck(state: GameState) -> int:
    """GC-3.1: the lowest period deck with cards left; -1 when all four are spent (Q38)."""
    return next((i for i, d in enumerate(state.decks) if d), -1)


def draw_cards(state: GameState, dice: Dice, seat: int, named: tuple[str, ...], count: int, label: str) -> GameState:
    """`count` cards from the current deck (GC-3.1: period 1 first, then 2, 3 and 4; nothing once all are
    spent, Q38) into a hand: the cards named at the table, or each picked by the companion with one die
    sized to the deck (the last card of a deck needs no die)."""
    decks = [list(d) for d in state.decks]
    drawn = []
    for i in range(count):
        deck = next((k for k, d in enumerate(decks) if d), -1)
        if deck < 0:
            break
        if named:
            card = named[i]
        elif len(decks[deck]) == 1:
            card = decks[deck][0]
        else:
            card = decks[deck][dice.d(len(decks[deck]), f"{label}: which card of deck {deck + 1} (GC-3.1)") - 1]
        if card not in decks[deck]:
            raise RuleError("GC-3.1", f"{quote(card)} is not in deck {deck + 1}: the lowest period is drawn first")
        decks[deck].remove(card)
        drawn.append(card)
    return set_hand(replace(state, decks=tuple(tuple(d) for d in decks)), seat, state.hands[seat] + tuple(drawn))


def set_hand(state: GameState, seat: int, cards: tuple[str, ...]) -> GameState:
    hands = list(state.hands)
    hands[seat] = cards
    return replace(state, hands=tuple(hands))


def to_hand(state: GameState, seat: int, card: str) -> GameState:
    return set_hand(state, seat, state.hands[seat] + (card,))


def from_hand(state: GameState, seat: int, card: str, rule: str) -> GameState:
    if card not in state.hands[seat]:
        raise RuleError(rule, f"{quote(card)} is not in {state.players[seat]}'s hand")
    return set_hand(state, seat, tuple(c for c in state.hands[seat] if c != card))


def to_discard(state: GameState, card: str) -> GameState:
    return replace(state, discard=state.discard + (card,))


def into_play(state: GameState, card: str, owner: str, camp: str) -> GameState:
    return replace(state, in_play=state.in_play + (Placed(card, owner, camp),))


def remove_persons(state: GameState, names, how: str) -> GameState:
    """Persons destroyed (by battle, plot or event): out of play and out of Iserlohn's posts. `how` is the
    destroying camp, "plot" or "event"; GC-9.11 notes Reinhard's fall."""
    names = [n for n in names if state.placed(n)]
    if not names:
        return state
    fortress = state.fortress
    fortress = replace(fortress, commander="" if fortress.commander in names else fortress.commander,
                       garrison=tuple(g for g in fortress.garrison if g not in names))
    down = state.reinhard_down
    if not down and any(state.person(n).role == "reinhard" for n in names):
        down = how
    return replace(state, in_play=tuple(p for p in state.in_play if p.card not in names),
                   destroyed=state.destroyed + tuple(names), fortress=fortress, reinhard_down=down)
