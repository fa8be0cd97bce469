"""Galactic Chess Game: the actions of the setup and of the turn (GC-3, GC-4): the deal, the draft and the
placement, the order roll, the draw, the card of the turn, the end check. The plots are in plotting.py, the
sortie in allocation.py and fighting.py, the free actions from a hand in responses.py.

Each action declares its parameters and what may be chosen now (companion.spec); a hand's cards are offered
only for its owner's actions. An action that breaks a rule raises RuleError (naming the rule) and changes
nothing; otherwise it returns a Step with the new state, a one-line summary and the rules it applied. Where a
later throw depends on an earlier one (the strike back, the free attack after a failed retreat, the
counter-plot, a roll-off tie) it is a separate action, so players can enter each throw.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from companion.dice import Dice
from companion.engine import RuleError, Step
from companion.spec import NOT_ASKED, Actions, Barred, Choice, Pick, one_of, some_of, yes_no

from . import civil_war, event_cards
from .ending import end_check, score
from .fortress import commander_at_setup
from .order import OrderInput, resolve_order_roll
from .rolloff import RollOffInput, resolve_roll_off
from .rules import CAMP_NAMES, DEAL, EVENT, FORCED, HAND_LIMIT, SUPPORT, TARGETED_EFFECTS
from .state import ACTION, CARD, DRAFT, END, ORDER, OVER, PHASE_NAMES, PLACE, TIE, GameState, OrderRoll, Outcome
from .state import DEAL as DEAL_PHASE
from .table import current_deck, draw_cards, from_hand, into_play, set_hand, to_discard, to_hand

actions = Actions("GC-4")
SETUP = (DEAL_PHASE, DRAFT, PLACE)


# --- when an action is open ------------------------------------------------------------------------------

def not_over(state: GameState) -> None:
    if state.phase == OVER:
        raise RuleError("GC-9.0", "The game is over")


def in_phase(*phases: str, rule: str = "GC-4") -> Callable[[GameState], None]:
    """The `when` of an action of these phases: RuleError naming the phase it is."""
    def when(state: GameState) -> None:
        not_over(state)
        if state.phase not in phases:
            wanted = " or ".join(PHASE_NAMES[p] for p in phases)
            raise RuleError(rule, f"This belongs to the {wanted}; it is now the {PHASE_NAMES[state.phase]}")
    return when


def in_game(rule: str) -> Callable[[GameState], None]:
    """The `when` of a free action: at any time once the setup is over, until the game ends."""
    def when(state: GameState) -> None:
        not_over(state)
        if state.phase in SETUP:
            raise RuleError(rule, "The game has not started yet")
    return when


def lead(state: GameState) -> str:
    return f"Turn {state.turn} ({state.player})"


def add_vp(state: GameState, awards) -> GameState:
    vp = {p: dict(camps) for p, camps in state.vp.items()}
    for a in awards:
        vp.setdefault(a.owner, {})
        vp[a.owner][a.camp] = vp[a.owner].get(a.camp, 0) + a.points
    return replace(state, vp=vp)


def award_text(awards) -> str:
    return "".join(f"; {a.owner} +{a.points} VP in {a.camp} ({a.reason})" for a in awards)


DRAW_FOR_ME = "Draw for me (at random from the cards left)"


def deck_choices(state: GameState) -> list:
    """GC-6A.1: the card drawn, named at the table (the deck as the drawer may know it), or "" for the companion to
    draw it at random; not asked once every deck is spent (Q38)."""
    deck = current_deck(state)
    if deck < 0:
        return NOT_ASKED
    return [Choice("", DRAW_FOR_ME), *state.decks[deck]]


# --- GC-3 setup: the deal, the draft (GC-12), the opening placement --------------------------------------

def waiting(state: GameState) -> list[int]:
    """The seats, from the first player clockwise, that have not done this setup step yet."""
    n = len(state.players)
    seats = [(state.first + k) % n for k in range(n)]
    return [s for s in seats if not state.done[s]]


def _setup_players(state: GameState, chosen) -> list:
    """GC-3: a player who has not done this step yet, or "" for the next in seat order."""
    seats = waiting(state)
    return [Choice("", f"the next player ({state.players[seats[0]]})"), *(state.players[s] for s in seats)]


def setup_seat(state: GameState, player: str) -> int:
    return state.seat(player) if player else waiting(state)[0]


def _done(state: GameState, seat: int) -> GameState:
    done = list(state.done)
    done[seat] = True
    return replace(state, done=tuple(done))


def _set_aside_forced(state: GameState, seat: int) -> tuple[GameState, list[str]]:
    """Forced events that came in the deal are revealed and set aside until their prerequisite holds."""
    forced = [c for c in state.hands[seat] if not state.is_person(c) and state.event(c).kind == FORCED]
    state = set_hand(state, seat, tuple(c for c in state.hands[seat] if c not in forced))
    return replace(state, aside=state.aside + tuple(forced)), forced


def _dealt_choices(state: GameState, chosen) -> Pick:
    """GC-3, GC-3.1: the cards dealt, when they are named at the table: 6 (fewer once the decks run short) from the
    current deck, and from the next period only when the deal spends the current one. Not asked when the companion
    deals; a game saved before `named` was asked names them all, or none."""
    if chosen["named"] is False:
        return NOT_ASKED
    decks = [d for d in state.decks if d]
    count = min(DEAL, sum(len(d) for d in decks))
    options, spent = [], set()
    for deck in decks:
        if len(options) >= count:
            break
        if len(options) + len(deck) <= count:
            spent |= set(deck)
        options += deck
    return Pick(options, count if chosen["named"] else 0, count,
                fits=lambda cards: not cards or (len(cards) == count and spent <= set(cards)))


@actions("Deal a hand", "GC-3",
         one_of("player", "Player dealt", "GC-3", _setup_players, default=""),
         yes_no("named", "The cards dealt are chosen by name (off: draw for me, at random from the cards left)",
                "GC-3.1", lambda s, c: (True, False), default=None),
         some_of("cards", "The cards dealt", "GC-3.1", _dealt_choices, default=(), secret=True),
         when=in_phase(DEAL_PHASE, rule="GC-3"), retired={"cards": None})
def deal_hand(state: GameState, dice: Dice, player: str, named: bool | None, cards: list) -> Step:
    """GC-3: 6 cards to a player from the current deck, as dealt at the table (chosen by name, as a page starts) or
    by the companion at random (a die a card; a deal saved without `named` is one of these two). The cards
    and the dice that chose them are the player's alone (the step's private part); forced events dealt are revealed
    and set aside."""
    seat = setup_seat(state, player)
    deck_of = {c: i for i, d in enumerate(state.decks) for c in d}
    named_cards = tuple(sorted(cards, key=deck_of.__getitem__))
    new = draw_cards(state, dice, seat, named_cards, DEAL, f"Deal to {state.players[seat]}")
    new, forced = _set_aside_forced(new, seat)
    new = _done(new, seat)
    who = state.players[seat]
    detail = f"{who}'s cards: {', '.join(new.hands[seat]) or 'none'}"
    text = f"{who} is dealt {len(new.hands[seat]) + len(forced)} cards"
    if forced:
        text += f"; forced event{'s' if len(forced) > 1 else ''} set aside: {', '.join(forced)}"
    if all(new.done):
        n = len(new.players)
        if new.options["draft"] and any(new.hands):
            new = replace(new, phase=DRAFT, packets=new.hands, hands=((),) * n, done=tuple(not h for h in new.hands))
            text += "; the draft begins (GC-12)"
        else:
            new = _placement(new)
            text += "; each player now chooses persons to place"
    return Step(new, text, ("GC-3", "GC-3.1"), owner=who, detail=detail)


def _placement(state: GameState) -> GameState:
    """GC-3: the setup's last step, each player choosing persons to place."""
    n = len(state.players)
    return replace(state, phase=PLACE, packets=(), placing=((),) * n, done=(False,) * n)


def _packet_choices(state: GameState, chosen) -> tuple[str, ...]:
    """GC-12: a card of the packet in front of the player (their own cards, shown on their device only)."""
    return state.packets[setup_seat(state, chosen["player"])]


@actions("Keep a card of the draft", "GC-12",
         one_of("player", "Player keeping a card", "GC-12", _setup_players, default=""),
         one_of("card", "The card kept", "GC-12", _packet_choices, secret=True),
         when=in_phase(DRAFT, rule="GC-12"))
def draft_pick(state: GameState, dice: Dice, player: str, card: str) -> Step:
    """GC-12: keep 1 card of the packet in front of you; when all have picked, the packets pass right (a player with
    no packet, when the decks ran short, waits)."""
    seat = setup_seat(state, player)
    packets = list(state.packets)
    packets[seat] = tuple(c for c in state.packets[seat] if c != card)
    new = _done(to_hand(replace(state, packets=tuple(packets)), seat, card), seat)
    who = state.players[seat]
    text = f"{who} keeps a card"
    if all(new.done):
        n = len(new.players)
        passed = tuple(new.packets[new.left_of(s)] for s in range(n))
        hands = tuple(h + p if len(p) == 1 else h for h, p in zip(new.hands, passed))
        passed = tuple(() if len(p) == 1 else p for p in passed)
        new = replace(new, packets=passed, hands=hands, done=tuple(not p for p in passed))
        text += "; the packets pass to the right"
        if not any(passed):
            new = _placement(new)
            text += "; the draft is over, each player now chooses persons to place"
    return Step(new, text, ("GC-12",), owner=who, detail=f"{who} keeps {card}")


def _placeable(state: GameState, chosen) -> list:
    """GC-3 (Q5): the persons of the player's own hand; its events stay in hand."""
    return [c if state.is_person(c) else Barred(c, c, "GC-3", "an event: only persons are placed")
            for c in state.hands[setup_seat(state, chosen["player"])]]


@actions("Place persons", "GC-3",
         one_of("player", "Player placing", "GC-3", _setup_players, default=""),
         some_of("cards", "The persons placed (secret until all have chosen)", "GC-3", _placeable, default=(),
                 secret=True),
         when=in_phase(PLACE, rule="GC-3"))
def place(state: GameState, dice: Dice, player: str, cards: list) -> Step:
    """GC-3: each player secretly picks persons to place (Q5: persons only); all are revealed together,
    then the fortress commander is set (GC-3.4) and the first player starts."""
    seat = setup_seat(state, player)
    chosen = tuple(cards)
    new = set_hand(state, seat, tuple(c for c in state.hands[seat] if c not in chosen))
    placing = list(new.placing)
    placing[seat] = chosen
    new = _done(replace(new, placing=tuple(placing)), seat)
    who = state.players[seat]
    detail = f"{who} places {', '.join(chosen) or 'nobody'}"
    if not all(new.done):
        return Step(new, f"{who} has chosen a placement (secret)", ("GC-3",), owner=who, detail=detail)
    for owner, persons in zip(new.players, new.placing):
        for card in persons:
            new = into_play(new, card, owner, new.person(card).camp)
    new = replace(new, placing=(), done=())
    commander = commander_at_setup(new)
    new = replace(new, fortress=replace(new.fortress, commander=commander), phase=ORDER, turn=1, active=new.first)
    shown = "; ".join(f"{p}: {', '.join(c) or 'nobody'}" for p, c in zip(state.players, placing))
    text = f"Placements revealed: {shown}. Iserlohn commander: {commander or 'vacant'}. {new.player} begins"
    return Step(new, text, ("GC-3", "GC-3.4"), owner=who, detail=detail)


# --- GC-5 the order roll, and the forced events set aside (Q39) -------------------------------------------

def _aside_open(state: GameState) -> None:
    in_phase(ORDER, rule="GC-6A.1")(state)
    if not state.aside:
        raise RuleError("GC-6A.1", "No forced event is set aside")


@actions("Resolve a set-aside event", "GC-6A.1",
         one_of("card", "The set-aside event whose prerequisite now holds", "GC-6A.1", lambda s, c: s.aside),
         when=_aside_open)
def trigger_set_aside(state: GameState, dice: Dice, card: str) -> Step:
    """Q39: a set-aside forced event resolves as soon as its prerequisite holds, for the player whose
    turn comes next: at the start of that turn, before the order roll."""
    event = state.event(card)
    rest = tuple(c for c in state.aside if c != card)
    new, effect = event_cards.apply(replace(state, aside=rest), event, state.player)
    new = civil_war.settle(to_discard(new, card))
    return Step(new, f"{lead(state)}: {card} resolves: {effect}", ("GC-6A.1",) + event_cards.rules_of(event))


@actions("Order roll", "GC-5", when=in_phase(ORDER, rule="GC-5"))
def roll_order(state: GameState, dice: Dice) -> Step:
    """GC-5: one d6 (+1 after Ragnarok): the sortie size; an unmodified 6 forces a sortie."""
    result = resolve_order_roll(OrderInput(state.ragnarok, state.invasion), dice)
    r = result.outcome
    order = OrderRoll(result.details["raw"], r.modified, r.size, r.forced)
    return Step(replace(state, order=order, phase=ACTION), f"{lead(state)}: {result.summary}", result.rules, (result,))


# --- GC-6A the action: the draw, then a card or a plot -----------------------------------------------------

def draw_into(state: GameState, dice: Dice, seat: int, card: str, resolves: bool) -> tuple[GameState, str, bool, str]:
    """GC-6A.1: one card drawn; a forced event is revealed and resolved for the drawer when `resolves`, else set
    aside (its prerequisite unmet, or drawn outside the drawer's action, Q39). Returns the state, what happened
    (public), whether a forced event resolved, and the card drawn ("" when none)."""
    who = state.players[seat]
    if current_deck(state) < 0:
        return state, "every deck is spent: nothing to draw", False, ""
    new = draw_cards(state, dice, seat, (card,) if card else (), 1, f"{who} draws")
    card = new.hands[seat][-1]
    if new.is_person(card) or new.event(card).kind != FORCED:
        return new, f"{who} draws a card (hand {len(new.hands[seat])})", False, card
    new = from_hand(new, seat, card, "GC-6A.1")
    if not resolves:
        text = f"{who} draws the forced event {card}: set aside until its prerequisite holds"
        return replace(new, aside=new.aside + (card,)), text, False, card
    new, effect = event_cards.apply(new, new.event(card), who)
    return civil_war.settle(to_discard(new, card)), f"{who} draws the forced event {card}: {effect}", True, card


def _draw_open(state: GameState) -> None:
    in_phase(ACTION, rule="GC-6A")(state)
    if state.order.forced:
        raise RuleError("GC-5", "The order roll forced a sortie: the action is the sortie")


def _prerequisite_choices(state: GameState, chosen):
    """Q39: asked of a forced event drawn (or of a card the companion draws, which may be one): does its printed
    prerequisite hold now? If not, it is set aside."""
    card = chosen.get("card", "")
    if current_deck(state) < 0 or (card and (state.is_person(card) or state.event(card).kind != FORCED)):
        return NOT_ASKED
    return (True, False)


@actions("Draw a card", "GC-6A.1",
         one_of("card", "The card drawn (or draw for me)", "GC-3.1", lambda s, c: deck_choices(s),
                default="", secret=True),
         yes_no("prerequisite_met", "If it is a forced event: its prerequisite holds", "GC-6A.1",
                _prerequisite_choices, default=True),
         when=_draw_open)
def draw(state: GameState, dice: Dice, card: str, prerequisite_met: bool) -> Step:
    """GC-6A.1: draw 1 (named from the table, or by the companion); then a card or a plot may follow. The card and
    the die that chose it are the drawer's alone (the step's private part), unless it is a forced event."""
    new, text, forced, drawn = draw_into(state, dice, state.active, card, prerequisite_met)
    ordered = new.order.by_card and not state.order.by_card   # the forced event ordered a sortie
    new = replace(new, drew=True, phase=ACTION if ordered else CARD)
    if forced and (state.options["forced_event_is_card"] or ordered):
        new = replace(new, card_used=True, phase=new.phase if ordered else END)
        text += "; it is the turn's card"
    elif len(new.hands[new.active]) > HAND_LIMIT:
        text += f"; more than {HAND_LIMIT} cards: a card must be used"
    rules = ("GC-6A", "GC-6A.1") + (("GC-11",) if forced else ())
    return Step(new, f"{lead(state)}: {text}", rules, owner=state.player,
                detail=f"{state.player} draws {drawn}" if drawn else "")


def card_step(state: GameState) -> None:
    """The card or plot after the draw (GC-6A): not while a counter-plot is due."""
    in_phase(CARD, rule="GC-6A")(state)
    if state.counter is not None:
        raise RuleError("GC-6A.33a", "The counter-plot is rolled first")


def _use_choices(state: GameState, chosen) -> list:
    """GC-6A.2: a card of the active player's own hand: a person, or an event of the turn's-card kind with
    somebody to name if it names a person; battle-support and response cards are not the turn's card (GC-11)."""
    found = []
    for card in state.hands[state.active]:
        event = None if state.is_person(card) else state.event(card)
        if event is None or event_cards.usable(state, card):
            found.append(card)
        elif event.kind != EVENT:
            how = "in a battle" if event.kind == SUPPORT else "as a response, costing no turn"
            found.append(Barred(card, card, "GC-11", f"a {event.kind.replace('_', ' ')} card: it is used {how}"))
        else:
            found.append(Barred(card, card, "GC-11", "it has nobody to name now"))
    return found


def _use_targets(state: GameState, chosen):
    """GC-11: the person an Inquiry (an admiral in play) or a defection (GC-6A.2) names."""
    card = chosen["card"]
    if state.is_person(card) or state.event(card).effect not in TARGETED_EFFECTS:
        return NOT_ASKED
    return event_cards.target_choices(state, state.event(card))


@actions("Use a card", "GC-6A.2",
         one_of("card", "Card of your hand", "GC-6A.2", _use_choices, secret=True),
         one_of("target", "The person it names", "GC-11", _use_targets, default=""),
         when=card_step)
def use_card(state: GameState, dice: Dice, card: str, target: str) -> Step:
    """GC-6A.2: a person joins the player's clique in its camp (the rebel camp in a civil war, Q31);
    an event applies its effect. One card a turn."""
    new = from_hand(state, state.active, card, "GC-6A.2")
    if state.is_person(card):
        camp = civil_war.camp_of(state, state.person(card))
        new = replace(into_play(new, card, state.player, camp), card_used=True, phase=END)
        return Step(new, f"{lead(state)}: {card} joins {state.player}'s {camp} clique", ("GC-6A.2",))
    event = state.event(card)
    new, effect = event_cards.apply(replace(new, card_used=True, phase=END), event, state.player, target)
    new = civil_war.settle(to_discard(new, card))
    return Step(new, f"{lead(state)}: {state.player} uses {card}: {effect}",
                ("GC-6A.2",) + event_cards.rules_of(event))


def over_the_limit(state: GameState) -> bool:
    return len(state.hands[state.active]) > HAND_LIMIT


def _discard_open(state: GameState) -> None:
    """GC-6A.1: a discard only from a hand of more than 6 in which no card at all is usable, even with every
    printed prerequisite unmet."""
    card_step(state)
    hand = state.hands[state.active]
    if not over_the_limit(state):
        raise RuleError("GC-6A.1", f"A card is discarded only from a hand of more than {HAND_LIMIT}")
    unmet = tuple(event_cards.with_prerequisite(state, hand))
    usable = [c for c in hand if event_cards.usable(state, c, unmet)]
    if usable:
        raise RuleError("GC-6A.1", f"A card can be used ({usable[0]}): use one instead")


def _unmet_choices(state: GameState, chosen) -> Pick:
    """GC-6A.1: the events of the hand that print a prerequisite: those not named are taken to hold, so every one
    usable but for its prerequisite must be named."""
    hand = state.hands[state.active]
    options = event_cards.with_prerequisite(state, hand)
    needed = {c for c in options if event_cards.usable(state, c)}
    return Pick(options, len(needed), None, fits=lambda unmet: needed <= set(unmet))


@actions("Discard (no card usable)", "GC-6A.1",
         one_of("card", "Card to discard (the hand is shown to all)", "GC-6A.1",
                lambda s, c: s.hands[s.active], secret=True),
         some_of("unmet", "The events whose printed prerequisite does not hold now", "GC-6A.1", _unmet_choices,
                 default=(), secret=True),
         when=_discard_open)
def discard(state: GameState, dice: Dice, card: str, unmet: list) -> Step:
    """GC-6A.1: with more than 6 cards and no card at all usable now, persons and events alike, the hand is
    revealed and 1 card discarded. `unmet` names the event cards of the hand whose printed prerequisite does
    not hold now (the players' reading of the card)."""
    hand = state.hands[state.active]
    new = replace(to_discard(from_hand(state, state.active, card, "GC-6A.1"), card), card_used=True, phase=END)
    unheld = f" (prerequisites not holding: {', '.join(unmet)})" if unmet else ""
    return Step(new, f"{lead(state)}: no card is usable{unheld}; {state.player} shows {', '.join(hand)} and discards "
                     f"{card}", ("GC-6A.1",))


def _end_action_open(state: GameState) -> None:
    card_step(state)
    if over_the_limit(state):
        raise RuleError("GC-6A.1", f"More than {HAND_LIMIT} cards: a card must be used (or, if none is usable, "
                                   "the hand shown and one discarded)")


@actions("End the action", "GC-6A.1", when=_end_action_open)
def end_action(state: GameState, dice: Dice) -> Step:
    """GC-6A.1: after the draw, neither a card nor a plot (allowed with at most 6 cards)."""
    return Step(replace(state, phase=END), f"{lead(state)}: {state.player} ends the action", ("GC-6A.1",))


# --- GC-9 the end check ------------------------------------------------------------------------------------

@actions("End check", "GC-9", when=in_phase(END, rule="GC-9"))
def end_turn(state: GameState, dice: Dice) -> Step:
    """GC-9.0: the end conditions after the turn; otherwise the player on the left goes next (GC-4)."""
    verdict = end_check(state)
    if verdict is None:
        nxt = state.left_of(state.active)
        new = replace(state, active=nxt, turn=state.turn + 1, phase=ORDER, order=None, drew=False,
                      card_used=False, plotted=False)
        return Step(new, f"{lead(state)} ends; {new.player} is next", ("GC-9", "GC-4"))
    if verdict.tied:
        pending = Outcome((), verdict.rule, verdict.reason)
        new = replace(state, phase=TIE, tie=verdict.tied, outcome=pending)
        return Step(new, f"{lead(state)} ends the game: {verdict.reason}: "
                         f"{', '.join(verdict.tied)} roll off", ("GC-9.0", verdict.rule, "GC-9.13r"))
    return _finish(state, verdict.camps, verdict.rule, verdict.reason, ("GC-9.0",))


def _finish(state: GameState, camps: tuple[str, ...], rule: str, reason: str, rules: tuple[str, ...]) -> Step:
    outcome = score(state, camps, rule, reason)
    new = replace(state, phase=OVER, outcome=outcome, tie=())
    points = ", ".join(f"{p} {outcome.scores[p]}" for p in state.players)
    who = " and ".join(outcome.winners)
    side = " + ".join(f"{CAMP_NAMES[c]} ({c})" for c in camps)
    return Step(new, f"Game over: {reason}; {side} wins; scores {points}; "
                     f"{who} win{'s' if len(outcome.winners) == 1 else ''}", rules + (rule, "GC-9.2"))


@actions("Ceasefire roll-off", "GC-9.13r", when=in_phase(TIE, rule="GC-9.13r"))
def ceasefire_roll_off(state: GameState, dice: Dice) -> Step:
    """GC-9.13r: the tied camps' representatives roll 1d6 each; ties roll again."""
    result = resolve_roll_off(RollOffInput(len(state.tie), state.options["rolloff_dice"], "GC-9.13r"), dice, state.tie)
    leaders = tuple(state.tie[i] for i in result.outcome)
    if len(leaders) > 1:
        return Step(replace(state, tie=leaders), result.summary, result.rules, (result,))
    step = _finish(state, leaders, state.outcome.rule, state.outcome.reason, ("GC-9.13r",))
    return Step(step.state, f"{result.summary}. {step.summary}", step.rules, (result,))
