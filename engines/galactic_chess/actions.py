"""Galactic Chess Game: every action of the game, in the order of play (GC-3 setup, GC-4 the turn).

Each action validates first and raises RuleError (naming the rule) without changing anything;
otherwise it returns a Step with the new state, a one-line summary and the rules it applied. Where a
later throw depends on an earlier one (the strike back, the free attack after a failed retreat, the
counter-plot, a roll-off tie) it is a separate action, so players can enter each throw.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.dice import Dice
from companion.engine import Actions, Result, RuleError, Step
from companion.quoting import quote

from . import battle as fight
from . import civil_war, entry, event_cards
from .battle import ATTACKER, DEFENDER, ESCAPED, FLEET, FORTRESS, BattleRules, sc_to_choose
from .duel import ACTOR, TARGET, opening, other, outcome_of, resolve_strike, strike_of, strikes_back
from .ending import end_check, score
from .fortress import (
    COMMANDER,
    DISPATCH,
    commander_at_setup,
    dispatch_candidates,
    fall,
    garrison_modifier,
    needs_plot,
    post_candidates,
    post_plotters,
    tidy_posts,
)
from .order import OrderInput, fleets, resolve_grand_offensive, resolve_order_roll
from .plots import PlotRollInput, resolve_plot_roll
from .retreat import DESTROYED as SHOT_DOWN
from .retreat import RETREATED, STAYS, RetreatRollInput, resolve_retreat_roll
from .rolloff import RollOffInput, resolve_roll_off
from .rules import (
    CAMP_NAMES,
    DEAL,
    EVENT,
    FORCED,
    GRAND,
    HAND_LIMIT,
    IN_BATTLE_EFFECTS,
    NATION,
    RESPONSE,
    SNAKE_ATTACKERS,
    SUPPORT,
)
from .sortie import (
    battle_unit,
    camp_of_side,
    committed_fleets,
    deemed,
    fleets_available,
    fortress_may_join,
    fortress_unit,
    ground_available,
    next_declarer,
    nominees,
    side_of,
    sortie_camps,
)
from .state import (
    ACTION,
    BATTLE,
    CARD,
    DRAFT,
    END,
    ORDER,
    OVER,
    PHASE_NAMES,
    PLACE,
    TIE,
    CounterPlot,
    Declaration,
    GameState,
    OrderRoll,
    Outcome,
    Pending,
    Sortie,
)
from .state import DEAL as DEAL_PHASE
from .table import current_deck, draw_cards, from_hand, into_play, remove_persons, set_hand, to_discard, to_hand

actions = Actions("GC-4")
SETUP = (DEAL_PHASE, DRAFT, PLACE)


# --- checks on what players enter ------------------------------------------------------------------

def _phase(state: GameState, *phases: str, rule: str = "GC-4") -> None:
    if state.phase == OVER:
        raise RuleError("GC-9.0", "The game is over")
    if state.phase not in phases:
        wanted = " or ".join(PHASE_NAMES[p] for p in phases)
        raise RuleError(rule, f"This belongs to the {wanted}; it is now the {PHASE_NAMES[state.phase]}")


def _lead(state: GameState) -> str:
    return f"Turn {state.turn} ({state.player})"


def _seat_for(state: GameState, player: Any, rule: str) -> int:
    """The seat of the named player, or the first (from the first player, clockwise) not yet done."""
    player = entry.text(player, "The player", rule)
    if player:
        seat = state.seat(player)
        if state.done[seat]:
            raise RuleError(rule, f"{player} has already done this")
        return seat
    n = len(state.players)
    return next((state.first + k) % n for k in range(n) if not state.done[(state.first + k) % n])


def _done(state: GameState, seat: int) -> GameState:
    done = list(state.done)
    done[seat] = True
    return replace(state, done=tuple(done))


def _vp(state: GameState, awards) -> GameState:
    vp = {p: dict(camps) for p, camps in state.vp.items()}
    for a in awards:
        vp.setdefault(a.owner, {})
        vp[a.owner][a.camp] = vp[a.owner].get(a.camp, 0) + a.points
    return replace(state, vp=vp)


def _award_text(awards) -> str:
    return "".join(f"; {a.owner} +{a.points} VP in {a.camp} ({a.reason})" for a in awards)


# --- GC-3 setup: the deal, the draft (GC-12), the opening placement --------------------------------

def _set_aside_forced(state: GameState, seat: int) -> tuple[GameState, list[str]]:
    """Forced events that came in the deal are revealed and set aside until their prerequisite holds."""
    forced = [c for c in state.hands[seat] if not state.is_person(c) and state.event(c).kind == FORCED]
    state = set_hand(state, seat, tuple(c for c in state.hands[seat] if c not in forced))
    return replace(state, aside=state.aside + tuple(forced)), forced


@actions
def deal_hand(state: GameState, dice: Dice, player: str = "", cards: list | None = None) -> Step:
    """GC-3: 6 cards to a player from the current deck, as dealt at the table (named) or by the companion."""
    _phase(state, DEAL_PHASE, rule="GC-3")
    seat = _seat_for(state, player, "GC-3")
    named = sorted(entry.names(cards, "The cards dealt", "GC-3"), key=lambda c: state.person(c).period
                   if state.is_person(c) else state.event(c).period if c in state.card_names() else 0)
    if cards is not None and len(named) != min(DEAL, sum(len(d) for d in state.decks)):
        raise RuleError("GC-3", f"A hand is dealt {DEAL} cards, not {len(named)}")
    new = draw_cards(state, dice, seat, named, DEAL, f"Deal to {state.players[seat]}")
    new, forced = _set_aside_forced(new, seat)
    new = _done(new, seat)
    text = f"{state.players[seat]} is dealt {len(new.hands[seat]) + len(forced)} cards"
    if forced:
        text += f"; forced event{'s' if len(forced) > 1 else ''} set aside: {', '.join(forced)}"
    if all(new.done):
        n = len(new.players)
        if new.options["draft"]:
            new = replace(new, phase=DRAFT, packets=new.hands, hands=((),) * n, done=(False,) * n)
            text += "; the draft begins (GC-12)"
        else:
            new = replace(new, phase=PLACE, placing=((),) * n, done=(False,) * n)
            text += "; each player now chooses persons to place"
    return Step(new, text, ("GC-3", "GC-3.1"))


@actions
def draft_pick(state: GameState, dice: Dice, card: str, player: str = "") -> Step:
    """GC-12: keep 1 card of the packet in front of you; when all have picked, the packets pass right."""
    _phase(state, DRAFT, rule="GC-12")
    seat = _seat_for(state, player, "GC-12")
    card = entry.text(card, "The card kept", "GC-12")
    packet = state.packets[seat]
    if card not in packet:
        raise RuleError("GC-12", f"{quote(card)} is not in the packet in front of {state.players[seat]}")
    packets = list(state.packets)
    packets[seat] = tuple(c for c in packet if c != card)
    new = _done(to_hand(replace(state, packets=tuple(packets)), seat, card), seat)
    text = f"{state.players[seat]} keeps a card"
    if all(new.done):
        n = len(new.players)
        passed = tuple(new.packets[new.left_of(s)] for s in range(n))
        hands = tuple(h + p if len(p) == 1 else h for h, p in zip(new.hands, passed))
        passed = tuple(() if len(p) == 1 else p for p in passed)
        new = replace(new, packets=passed, hands=hands, done=tuple(not p for p in passed))
        text += "; the packets pass to the right"
        if not any(passed):
            new = replace(new, phase=PLACE, packets=(), placing=((),) * n, done=(False,) * n)
            text += "; the draft is over, each player now chooses persons to place"
    return Step(new, text, ("GC-12",))


@actions
def place(state: GameState, dice: Dice, player: str = "", cards: list | tuple = ()) -> Step:
    """GC-3: each player secretly picks persons to place (Q5: persons only); all are revealed together,
    then the fortress commander is set (GC-3.4) and the first player starts."""
    _phase(state, PLACE, rule="GC-3")
    seat = _seat_for(state, player, "GC-3")
    chosen = entry.names(cards, "The persons placed", "GC-3")
    for card in chosen:
        if card not in state.hands[seat]:
            raise RuleError("GC-3", f"{quote(card)} is not in {state.players[seat]}'s hand")
        if not state.is_person(card):
            raise RuleError("GC-3", f"{quote(card)} is an event: only persons are placed (Q5)")
    new = set_hand(state, seat, tuple(c for c in state.hands[seat] if c not in chosen))
    placing = list(new.placing)
    placing[seat] = chosen
    new = _done(replace(new, placing=tuple(placing)), seat)
    if not all(new.done):
        return Step(new, f"{state.players[seat]} has chosen a placement (secret)", ("GC-3",))
    for owner, persons in zip(new.players, new.placing):
        for card in persons:
            new = into_play(new, card, owner, new.person(card).camp)
    new = replace(new, placing=(), done=())
    commander = commander_at_setup(new)
    new = replace(new, fortress=replace(new.fortress, commander=commander), phase=ORDER, turn=1, active=new.first)
    shown = "; ".join(f"{p}: {', '.join(c) or 'nobody'}" for p, c in zip(state.players, placing))
    text = f"Placements revealed: {shown}. Iserlohn commander: {commander or 'vacant'}. {new.player} begins"
    return Step(new, text, ("GC-3", "GC-3.4"))


# --- GC-5 the order roll ------------------------------------------------------------------------

@actions
def trigger_set_aside(state: GameState, dice: Dice, card: str) -> Step:
    """Q39: a set-aside forced event resolves as soon as its prerequisite holds, for the player whose
    turn comes next: at the start of that turn, before the order roll."""
    _phase(state, ORDER, rule="GC-6A.1")
    card = entry.text(card, "The card", "GC-6A.1")
    if card not in state.aside:
        raise RuleError("GC-6A.1", f"{quote(card)} is not set aside")
    event = state.event(card)
    rest = tuple(c for c in state.aside if c != card)
    new, effect = event_cards.apply(replace(state, aside=rest), event, state.player)
    new = civil_war.settle(to_discard(new, card))
    return Step(new, f"{_lead(state)}: {card} resolves: {effect}", ("GC-6A.1",) + event_cards.rules_of(event))


@actions
def roll_order(state: GameState, dice: Dice) -> Step:
    """GC-5: one d6 (+1 after Ragnarok): the sortie size; an unmodified 6 forces a sortie."""
    _phase(state, ORDER, rule="GC-5")
    result = resolve_order_roll(OrderInput(state.ragnarok, state.invasion), dice)
    r = result.outcome
    order = OrderRoll(result.details["raw"], r.modified, r.size, r.forced)
    return Step(replace(state, order=order, phase=ACTION), f"{_lead(state)}: {result.summary}", result.rules, (result,))


# --- GC-6A the action: draw, card, plot ---------------------------------------------------------

def _draw_into(state: GameState, dice: Dice, seat: int, card: str,
               prerequisite_met: bool) -> tuple[GameState, str, bool]:
    """GC-6A.1: one card drawn; a forced event is revealed and resolved for the drawer (set aside while its
    prerequisite is unmet, or drawn outside the drawer's action, Q39). Returns the state, what happened and
    whether a forced event resolved."""
    who = state.players[seat]
    if current_deck(state) < 0:
        return state, "every deck is spent: nothing to draw (Q38)", False
    new = draw_cards(state, dice, seat, (card,) if card else (), 1, f"{who} draws")
    card = new.hands[seat][-1]
    if new.is_person(card) or new.event(card).kind != FORCED:
        return new, f"{who} draws a card (hand {len(new.hands[seat])})", False
    new = from_hand(new, seat, card, "GC-6A.1")
    if not prerequisite_met:
        text = f"{who} draws the forced event {card}: set aside until its prerequisite holds"
        return replace(new, aside=new.aside + (card,)), text, False
    event = new.event(card)
    new, effect = event_cards.apply(new, event, who)
    return civil_war.settle(to_discard(new, card)), f"{who} draws the forced event {card}: {effect}", True


@actions
def draw(state: GameState, dice: Dice, card: str = "", prerequisite_met: bool = True) -> Step:
    """GC-6A.1: draw 1 (named from the table, or by the companion); then a card or a plot may follow."""
    _phase(state, ACTION, rule="GC-6A")
    if state.order.forced:
        raise RuleError("GC-5", "The order roll forced a sortie: the action is the sortie")
    card = entry.text(card, "The card drawn", "GC-6A.1")
    met = entry.flag(prerequisite_met, "'prerequisite_met'", "GC-6A.1")
    new, text, forced = _draw_into(state, dice, state.active, card, met)
    ordered = new.order.by_card and not state.order.by_card   # the forced event ordered a sortie
    new = replace(new, drew=True, phase=ACTION if ordered else CARD)
    if forced and (state.options["forced_event_is_card"] or ordered):
        new = replace(new, card_used=True, phase=new.phase if ordered else END)
        text += "; it is the turn's card (Q4)"
    elif len(new.hands[new.active]) > HAND_LIMIT:
        text += f"; more than {HAND_LIMIT} cards: a card must be used"
    rules = ("GC-6A", "GC-6A.1") + (("GC-11",) if forced else ())
    return Step(new, f"{_lead(state)}: {text}", rules)


def _card_step(state: GameState) -> None:
    _phase(state, CARD, rule="GC-6A")
    if state.counter is not None:
        raise RuleError("GC-6A.33a", "The counter-plot is rolled first")


def _no_card_yet(state: GameState) -> None:
    if state.card_used:
        raise RuleError("GC-6A.2", "One card a turn: this turn's card is used")
    if state.plotted:
        raise RuleError("GC-6A", "A card or a plot after the draw, not both: the plot is made")


@actions
def use_card(state: GameState, dice: Dice, card: str, target: str = "") -> Step:
    """GC-6A.2: a person joins the player's clique in its camp (the rebel camp in a civil war, Q31);
    an event applies its effect. One card a turn."""
    _card_step(state)
    _no_card_yet(state)
    card = entry.text(card, "The card", "GC-6A.2")
    target = entry.text(target, "The target", "GC-11")
    new = from_hand(state, state.active, card, "GC-6A.2")
    if state.is_person(card):
        if target:
            raise RuleError("GC-6A.2", "A person card names no target")
        camp = civil_war.camp_of(state, state.person(card))
        new = replace(into_play(new, card, state.player, camp), card_used=True, phase=END)
        return Step(new, f"{_lead(state)}: {card} joins {state.player}'s {camp} clique", ("GC-6A.2",))
    event = state.event(card)
    if event.kind != EVENT:
        how = "in a battle" if event.kind == SUPPORT else "as a response, costing no turn"
        raise RuleError("GC-11", f"{card} is a {event.kind.replace('_', ' ')} card: it is used {how}")
    new, effect = event_cards.apply(replace(new, card_used=True, phase=END), event, state.player, target)
    new = civil_war.settle(to_discard(new, card))
    return Step(new, f"{_lead(state)}: {state.player} uses {card}: {effect}",
                ("GC-6A.2",) + event_cards.rules_of(event))


@actions
def discard(state: GameState, dice: Dice, card: str, unmet: list | tuple = ()) -> Step:
    """GC-6A.1: with more than 6 cards and no card at all usable now, persons and events alike, the hand is
    revealed and 1 card discarded. `unmet` names the event cards of the hand whose printed prerequisite does
    not hold now (the players' reading of the card)."""
    _card_step(state)
    _no_card_yet(state)
    hand = state.hands[state.active]
    if len(hand) <= HAND_LIMIT:
        raise RuleError("GC-6A.1", f"A card is discarded only from a hand of more than {HAND_LIMIT}")
    unmet = entry.names(unmet, "The events whose prerequisite does not hold", "GC-6A.1")
    for name in unmet:
        if name not in event_cards.with_prerequisite(state, hand):
            raise RuleError("GC-6A.1", f"{quote(name)} is not an event card of {state.player}'s hand that prints a "
                                       "prerequisite: a card without one can be used")
    usable = [c for c in hand if event_cards.usable(state, c, unmet)]
    if usable:
        raise RuleError("GC-6A.1", f"A card can be used ({usable[0]}): use one instead")
    card = entry.text(card, "The card", "GC-6A.1")
    new = replace(to_discard(from_hand(state, state.active, card, "GC-6A.1"), card), card_used=True, phase=END)
    return Step(new, f"{_lead(state)}: no card is usable; {state.player} shows {', '.join(hand)} and discards {card}",
                ("GC-6A.1",))


def _may_plot(state: GameState) -> None:
    _card_step(state)
    _no_card_yet(state)
    if state.plotted:
        raise RuleError("GC-6A", "One plot a turn")
    if len(state.hands[state.active]) > HAND_LIMIT:
        raise RuleError("GC-6A.1", f"More than {HAND_LIMIT} cards: a card must be used, not a plot")


def _plotter(state: GameState, name: Any, rule: str = "GC-6A.31") -> str:
    name = entry.text(name, "The plotter", rule)
    placed = state.placed(name)
    if placed is None or placed.owner != state.player:
        raise RuleError(rule, f"The plotter must be one of {state.player}'s persons in play")
    if not state.person(name).may_plot:
        raise RuleError("GC-6A.31", f"{name} has no unbracketed plot value: only counter-plots")
    return name


def plot_targets(state: GameState, plotter: str) -> list[str]:
    """GC-6A.31: persons in play of the plotter's nation (Rubinsky: any nation); Rubinsky himself only
    after Ragnarok."""
    rubinsky = state.person(plotter).role == "rubinsky"
    return [p.card for p in state.in_play if p.card != plotter
            and (rubinsky or NATION[p.camp] == state.nation_of(plotter))
            and (state.ragnarok or state.person(p.card).role != "rubinsky")]


def _after_plot(state: GameState, new: GameState, result: Result, counter: CounterPlot | None, text: str,
                rules: tuple[str, ...]) -> Step:
    new = replace(civil_war.settle(new), plotted=True, counter=counter, phase=CARD if counter else END)
    if counter:
        text += f"; {counter.target} counter-plots"
    return Step(new, f"{_lead(state)}: {text}", rules + (("GC-6A.33a",) if counter else ()), (result,))


@actions
def plot(state: GameState, dice: Dice, plotter: str, target: str) -> Step:
    """GC-6A.32: 2d6 >= the plotter's value destroys the target (no VP); after a failure a target with a
    plot value counter-plots (GC-6A.33a)."""
    _may_plot(state)
    plotter = _plotter(state, plotter)
    target = entry.text(target, "The target", "GC-6A.31")
    if target not in plot_targets(state, plotter):
        if state.placed(target) and state.person(target).role == "rubinsky":
            raise RuleError("GC-6A.31", f"{target} cannot be plotted against before Ragnarok")
        raise RuleError("GC-6A.31", f"{plotter} may plot only against persons in play of his own nation")
    result = resolve_plot_roll(PlotRollInput(state.person(plotter).plot), dice, f"Plot by {plotter} on {target}")
    if result.outcome:
        return _after_plot(state, remove_persons(state, [target], "plot"), result, None,
                           f"{result.summary}: {target} is destroyed", ("GC-6A.32",))
    counter = CounterPlot(plotter, target) if state.person(target).plot is not None else None
    return _after_plot(state, state, result, counter, result.summary, ("GC-6A.32",))


@actions
def counter_plot(state: GameState, dice: Dice) -> Step:
    """GC-6A.33a: the target of a failed plot rolls 2d6 >= its value (brackets allowed): the plotter is
    destroyed. There is no further counter."""
    _phase(state, CARD, rule="GC-6A.33a")
    counter = state.counter
    if counter is None:
        raise RuleError("GC-6A.33a", "A counter-plot follows only a failed plot on a person with a plot value")
    result = resolve_plot_roll(PlotRollInput(state.person(counter.target).plot), dice,
                               f"Counter-plot by {counter.target} on {counter.plotter}", "GC-6A.33a")
    new = replace(state, counter=None, phase=END)
    text = result.summary
    if result.outcome:
        new = civil_war.settle(remove_persons(new, [counter.plotter], "plot"))
        text += f": {counter.plotter} is destroyed"
    return Step(new, f"{_lead(state)}: {text}", ("GC-6A.33a",), (result,))


def _post_plotter(state: GameState, plotter: Any, rule: str) -> str:
    """The plotter of a post plot: a person of the player's with an unbracketed value, in the controlling camp."""
    plotter = _plotter(state, plotter, rule)
    if plotter not in post_plotters(state, state.player):
        raise RuleError(rule, f"The plotter must be of {state.player}'s clique in {state.fortress.controller}, "
                              "the camp holding Iserlohn")
    return plotter


def _no_plotter(plotter: Any, rule: str, why: str) -> None:
    """GC-7.12 / GC-7.21: a vacant post or a free slot is filled with no plot, no roll and no plotter."""
    if entry.text(plotter, "The plotter", rule):
        raise RuleError(rule, f"{why}: it is filled with no plot, no roll and no plotter (name no plotter)")


def _post_counter(state: GameState, plotter: str, defender: str) -> CounterPlot | None:
    """Q21 option: the commander, or the displaced or released fleet, counter-plots a failed post plot."""
    if state.options["post_counter_plot"] and defender and state.person(defender).plot is not None:
        return CounterPlot(plotter, defender)
    return None


@actions
def post_plot(state: GameState, dice: Dice, candidate: str, plotter: str = "") -> Step:
    """GC-7.12: make one of your admirals in the controlling camp Iserlohn's commander. A vacant post is filled
    with no plot, no roll and no plotter (it still is the turn's plot, Q22); a held one by a plot, 2d6 >= the
    plotter's value: nobody is destroyed, the old commander leaves the post (Q23)."""
    _may_plot(state)
    candidate = entry.text(candidate, "The candidate", "GC-7.12")
    if candidate not in post_candidates(state, state.player):
        raise RuleError("GC-7.12", f"The candidate must be an admiral of {state.player}'s clique in "
                                   f"{state.fortress.controller}, not already commander")
    f = state.fortress
    garrison = tuple(g for g in f.garrison if g != candidate)
    promoted = replace(state, fortress=replace(f, commander=candidate, garrison=garrison))
    if not needs_plot(state, COMMANDER):
        _no_plotter(plotter, "GC-7.12", "The commander post is vacant")
        new = replace(promoted, plotted=True, phase=END)
        return Step(new, f"{_lead(state)}: the post is vacant: {candidate} becomes Iserlohn's commander, no plot "
                         "needed", ("GC-7.12",))
    plotter = _post_plotter(state, plotter, "GC-7.12")
    bonus = garrison_modifier(state, state.player, post=True)
    result = resolve_plot_roll(PlotRollInput(state.person(plotter).plot, bonus), dice,
                               f"Commander plot by {plotter} for {candidate}", "GC-7.12")
    if result.outcome:
        return _after_plot(state, promoted, result, None, f"{result.summary}: {candidate} replaces {f.commander}",
                           ("GC-7.12",))
    return _after_plot(state, state, result, _post_counter(state, plotter, f.commander), result.summary, ("GC-7.12",))


@actions
def garrison_plot(state: GameState, dice: Dice, plotter: str = "", dispatch: str = "", release: str = "",
                  displace: str = "") -> Step:
    """GC-7.21: dispatch one of your admirals to Iserlohn (while fewer than 3 fleets are there, with no plot, no
    roll and no plotter; when full, a plot, the candidate replacing a garrison fleet of your choice), or release
    a garrison fleet (always a plot). The commander's player adds 2 to the roll (Q22)."""
    _may_plot(state)
    dispatch, release, displace = (entry.text(v, what, "GC-7.21") for v, what in
                                   ((dispatch, "The fleet dispatched"), (release, "The fleet released"),
                                    (displace, "The fleet displaced")))
    if bool(dispatch) == bool(release):
        raise RuleError("GC-7.21", "Name a fleet to dispatch or one to release")
    f = state.fortress
    if dispatch:
        if dispatch not in dispatch_candidates(state, state.player):
            raise RuleError("GC-7.21", f"Only an admiral of {state.player}'s clique in {f.controller}, not posted "
                                       "yet, may be dispatched")
        if not needs_plot(state, DISPATCH):
            if displace:
                raise RuleError("GC-7.21", "A garrison slot is free: nobody is displaced")
            _no_plotter(plotter, "GC-7.21", "A garrison slot is free")
            new = replace(state, fortress=replace(f, garrison=f.garrison + (dispatch,)), plotted=True, phase=END)
            return Step(new, f"{_lead(state)}: a slot is free: {dispatch} joins Iserlohn's garrison, no plot needed",
                        ("GC-7.21",))
        if displace not in f.garrison:
            raise RuleError("GC-7.21", f"The garrison is full: name the fleet {dispatch} would replace "
                                       f"({', '.join(f.garrison) or 'none but the commander'})")
        after = replace(f, garrison=tuple(dispatch if g == displace else g for g in f.garrison))
        what, defender = f"dispatch {dispatch} in place of {displace}", displace
    else:
        if release not in f.garrison:
            raise RuleError("GC-7.21", f"Only a garrison fleet other than the commander may be released "
                                       f"({', '.join(f.garrison) or 'there is none'})")
        if displace:
            raise RuleError("GC-7.21", "A release sends nobody in")
        after = replace(f, garrison=tuple(g for g in f.garrison if g != release))
        what, defender = f"release {release}", release
    plotter = _post_plotter(state, plotter, "GC-7.21")
    bonus = garrison_modifier(state, state.player, post=False)
    result = resolve_plot_roll(PlotRollInput(state.person(plotter).plot, bonus), dice,
                               f"Garrison plot by {plotter} to {what}", "GC-7.21")
    if result.outcome:
        return _after_plot(state, replace(state, fortress=after), result, None, f"{result.summary}: {what}",
                           ("GC-7.21",))
    return _after_plot(state, state, result, _post_counter(state, plotter, defender), result.summary, ("GC-7.21",))


@actions
def end_action(state: GameState, dice: Dice) -> Step:
    """GC-6A.1: after the draw, neither a card nor a plot (allowed with at most 6 cards)."""
    _card_step(state)
    if len(state.hands[state.active]) > HAND_LIMIT:
        raise RuleError("GC-6A.1", f"More than {HAND_LIMIT} cards: a card must be used (or, if none is usable, "
                                   "the hand shown and one discarded)")
    return Step(replace(state, phase=END), f"{_lead(state)}: {state.player} ends the action", ("GC-6A.1",))


# --- GC-9 the end check ----------------------------------------------------------------------------

@actions
def end_turn(state: GameState, dice: Dice) -> Step:
    """GC-9.0: the end conditions after the turn; otherwise the player on the left goes next (GC-4)."""
    _phase(state, END, rule="GC-9")
    verdict = end_check(state)
    if verdict is None:
        nxt = state.left_of(state.active)
        new = replace(state, active=nxt, turn=state.turn + 1, phase=ORDER, order=None, drew=False,
                      card_used=False, plotted=False)
        return Step(new, f"{_lead(state)} ends; {new.player} is next", ("GC-9", "GC-4"))
    if verdict.tied:
        pending = Outcome((), verdict.rule, verdict.reason)
        new = replace(state, phase=TIE, tie=verdict.tied, outcome=pending)
        return Step(new, f"{_lead(state)} ends the game: {verdict.reason}: "
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


@actions
def ceasefire_roll_off(state: GameState, dice: Dice) -> Step:
    """GC-9.13r: the tied camps' representatives roll 1d6 each; ties roll again."""
    _phase(state, TIE, rule="GC-9.13r")
    result = resolve_roll_off(RollOffInput(len(state.tie), state.options["rolloff_dice"], "GC-9.13r"), dice, state.tie)
    leaders = tuple(state.tie[i] for i in result.outcome)
    if len(leaders) > 1:
        return Step(replace(state, tie=leaders), result.summary, result.rules, (result,))
    step = _finish(state, leaders, state.outcome.rule, state.outcome.reason, ("GC-9.13r",))
    return Step(step.state, f"{result.summary}. {step.summary}", step.rules, (result,))


# --- free actions: response cards, Castrop, the return from an Inquiry --------------------------

def _in_game(state: GameState, rule: str) -> None:
    if state.phase == OVER:
        raise RuleError("GC-9.0", "The game is over")
    if state.phase in SETUP:
        raise RuleError(rule, "The game has not started yet")


@actions
def respond(state: GameState, dice: Dice, card: str, target: str = "") -> Step:
    """GC-11: a response card is used when its moment comes, by whoever holds it; it costs no turn.
    An Escape Shuttle takes an admiral out of the battle: he neither attacks nor is attacked."""
    _in_game(state, "GC-11")
    card = entry.text(card, "The card", "GC-11")
    target = entry.text(target, "The target", "GC-11")
    holder = state.holder(card)
    if not holder or state.is_person(card) or state.event(card).kind != RESPONSE:
        raise RuleError("GC-11", f"{quote(card)} is not a response card in anyone's hand")
    event = state.event(card)
    new = to_discard(from_hand(state, state.seat(holder), card, "GC-11"), card)
    if event.effect == "escape":
        return _escape(state, new, holder, card, target)
    if event.effect == "amritsar":
        raise RuleError("GC-11", f"{card} orders a sortie: it is an event of the active player's turn")
    if event.effect in ("fortress_vs_fortress", "double_snake"):
        how = "before the battle's first opportunity" if event.effect == "fortress_vs_fortress" else "in an engagement"
        raise RuleError("GC-11", f"{card} is played in a battle, {how}, with its own step")
    if state.phase == BATTLE and event.effect != "none":
        raise RuleError("GC-11", f"{card} changes persons or posts: use it once the battle is over")
    new, effect = event_cards.apply(new, event, holder, target)
    return Step(civil_war.settle(new), f"{holder} responds with {card}: {effect}", event_cards.rules_of(event))


@actions
def castrop(state: GameState, dice: Dice, card: str, drawn: str = "") -> Step:
    """GC-11: once Kircheis has appeared, Castrop Rebellion may be discarded to draw 1, at any time; it is
    not the use of a card (a forced event drawn so is set aside, to resolve at a turn's start, Q39)."""
    _in_game(state, "GC-11")
    card = entry.text(card, "The card", "GC-11")
    holder = state.holder(card)
    if not holder or state.is_person(card) or state.event(card).effect != "castrop":
        raise RuleError("GC-11", f"{quote(card)} is not a Castrop Rebellion card in anyone's hand")
    appeared = [p for p in state.persons
                if p.role == "kircheis" and (state.placed(p.name) or p.name in state.destroyed)]
    if not appeared:
        raise RuleError("GC-11", "Kircheis has not appeared yet")
    seat = state.seat(holder)
    new = to_discard(from_hand(state, seat, card, "GC-11"), card)
    new, text, _ = _draw_into(new, dice, seat, entry.text(drawn, "The card drawn", "GC-11"), False)
    return Step(new, f"{holder} discards {card} and draws: {text}", ("GC-11", "GC-6A.1"))


@actions
def return_from_inquiry(state: GameState, dice: Dice, person: str) -> Step:
    """GC-11 Inquiry: the absent admiral returns (as its card says), fit for battles again."""
    _in_game(state, "GC-11")
    person = entry.text(person, "The person", "GC-11")
    placed = state.placed(person)
    if placed is None or not placed.absent:
        raise RuleError("GC-11", f"{quote(person)} is not absent")
    return Step(state.with_placed(replace(placed, absent=False)), f"{person} returns from the Inquiry", ("GC-11",))


# --- GC-6B the sortie: camps, allocation, SCs, first defender ------------------------------------

@actions
def sortie(state: GameState, dice: Dice, camp: str = "", defender: str = "") -> Step:
    """GC-6B.11: the active player picks the attacking camp (any camp with an available fleet, Q6) and,
    where two are possible, the defending one. A grand offensive rolls its 2d6 fleets now (Q2)."""
    _phase(state, ACTION, rule="GC-6B")
    camp = entry.text(camp, "The attacking camp", "GC-6B.11")
    defender = entry.text(defender, "The defending camp", "GC-6B.11")
    options = sortie_camps(state)
    if not options:
        if not state.order.forced:
            raise RuleError("GC-6B.11", "No camp has a fleet that can sortie: draw a card instead")
        new = replace(state, phase=END)
        return Step(new, f"{_lead(state)}: forced sortie, but no camp has a fleet that can sortie: no battle (Q6)",
                    ("GC-6B.11",))
    if not camp and len(options) == 1:
        camp = next(iter(options))
    if camp not in options:
        raise RuleError("GC-6B.11", f"Choose the attacking camp: {', '.join(options)}")
    if not defender and len(options[camp]) == 1:
        defender = options[camp][0]
    if defender not in options[camp]:
        raise RuleError("GC-6B.11", f"{camp} may attack {' or '.join(options[camp])}: choose one")
    results: tuple[Result, ...] = ()
    size = state.order.size
    if size == GRAND:
        results = (resolve_grand_offensive(None, dice),)
    count = fleets(size, results[0].outcome if results else 0)
    battle = Sortie(camp, defender, count, civil_war.is_civil(camp, defender))
    battle = replace(battle, declarer=next_declarer(state, battle, state.active))
    new = replace(state, sortie=battle, phase=BATTLE)
    lead = f"{results[0].summary}; " if results else ""
    war = " (civil war: no VP for kills, GC-8.2)" if battle.civil_war else ""
    text = f"{_lead(state)}: {lead}{camp} sorties against {defender} with up to {count} fleet{'s' * (count != 1)}{war}"
    rules = ("GC-6B", "GC-6B.11") + (("GC-5",) if results else ()) + (("GC-8.2",) if war else ())
    return Step(new, text, rules, results)


def _battle(state: GameState, *stages: str, rule: str = "GC-6B") -> Sortie:
    _phase(state, BATTLE, rule=rule)
    s = state.sortie
    if s.stage not in stages:
        raise RuleError(rule, f"The battle is at its {s.stage} step")
    return s


def rules_of_battle(state: GameState, s: Sortie) -> BattleRules:
    o = state.options
    return BattleRules(s.civil_war, s.deemed, o["fortress_counts"], o["fortress_sc"], o["sc_on_departure"],
                       o["fortress_free_attack"], o["ground_vp"], o["escaped_block_bonus"], o["rolloff_scope"])


def sc_ties(state: GameState, s: Sortie) -> dict[int, tuple[int, ...]]:
    return {side: c for side, c in sc_to_choose(s.units, s.field, rules_of_battle(state, s)).items() if len(c) > 1}


def _settled(state: GameState, s: Sortie) -> Sortie:
    field, _ = fight.settle_sc(s.units, s.field, rules_of_battle(state, s))
    return replace(s, field=field)


@actions
def declare(state: GameState, dice: Dice, fleets: list | tuple = (), others: list | tuple = (),
            fortress: bool = False) -> Step:
    """GC-6B.12: the player whose turn it is declares at least one available fleet, up to the size left
    (Q7); air/ground units only with their own fleets and never counted (GC-6B.13); the fortress in the
    first defender's first declaration, alone or with commander/garrison fleets (GC-6B.3)."""
    s = _battle(state, "attack", "defence", rule="GC-6B.12")
    side = side_of(s)
    seat, player = s.declarer, state.players[s.declarer]
    camp = camp_of_side(s, side)
    chosen = entry.names(fleets, "The fleets", "GC-6B.12")
    extra = entry.names(others, "The air/ground units", "GC-6B.13")
    with_fortress = entry.flag(fortress, "'fortress'", "GC-6B.3")
    free = fleets_available(state, player, camp, side == ATTACKER, s)
    for name in chosen:
        if name not in free:
            raise RuleError("GC-6B.12", f"{quote(name)} is not an available {camp} fleet of {player}'s "
                                        f"(available: {', '.join(free) or 'none'})")
    for name in extra:
        if name not in ground_available(state, player, camp, s):
            rule = "GC-6B.12" if name in free else "GC-6B.13"
            raise RuleError(rule, f"{quote(name)} is not an available {camp} air/ground unit of {player}'s")
    if with_fortress:
        if not fortress_may_join(state, s, seat):
            raise RuleError("GC-6B.3", "The fortress joins only in the first defender's first declaration, "
                                       "for the camp holding Iserlohn")
        if any(n not in state.fortress.posted for n in chosen):
            raise RuleError("GC-6B.3", "With the fortress come only the commander and garrison fleets")
    if not chosen and not with_fortress:
        rule = "GC-6B.13" if extra else "GC-6B.12"
        raise RuleError(rule, f"{player} must declare at least one fleet" +
                        (": air/ground units never sortie alone" if extra else ""))
    counts = state.options["fortress_counts"]
    room = s.size - committed_fleets(s, side, counts)
    if len(chosen) + (1 if with_fortress and counts else 0) > room:
        raise RuleError("GC-6B.12", f"Only {room} more fleet{'s' * (room != 1)} may sortie (size {s.size})")
    number = len(s.declarations[side])
    units = tuple(battle_unit(state, n, side, number) for n in chosen)
    if with_fortress:
        units += (fortress_unit(state, player, number),)
    units += tuple(battle_unit(state, n, side, number) for n in extra)
    declarations = list(s.declarations)
    declarations[side] = declarations[side] + (Declaration(player, chosen + extra, with_fortress),)
    s = replace(s, units=s.units + units, field=replace(s.field, status=s.field.status + ("ready",) * len(units)),
                declarations=(declarations[0], declarations[1]))
    s = replace(s, declarer=next_declarer(state, s, state.left_of(seat)))
    names = ", ".join(u.name for u in units)
    text = f"{_lead(state)}: {player} declares {names} for the {fight.SIDE_NAMES[side]}"
    rules = ("GC-6B.12",) + (("GC-6B.13",) if extra else ()) + (("GC-6B.3",) if with_fortress else ())
    if s.declarer >= 0:
        return Step(replace(state, sortie=s), f"{text}; {state.players[s.declarer]} declares next", rules)
    return _allocation_done(state, s, text, rules)


def _allocation_done(state: GameState, s: Sortie, text: str, rules: tuple[str, ...]) -> Step:
    s = _settled(state, s)
    if s.stage == "attack":
        return Step(replace(state, sortie=replace(s, stage="nominate")),
                    f"{text}; the attackers are set, {_sc_text(state, s, ATTACKER)}", rules + ("GC-6B.2",))
    s = replace(s, stage="fight", deemed=deemed(state, s) if any(u.kind == FORTRESS for u in s.units) else 0)
    new = replace(state, sortie=s)
    text = f"{text}; the defenders are set, {_sc_text(state, s, DEFENDER)}"
    if not sc_ties(state, s) and fight.finished(s.units, s.field.status):
        return _end_battle(new, text, rules + ("GC-6B.2",))
    return Step(new, text, rules + ("GC-6B.2",))


def _sc_text(state: GameState, s: Sortie, side: int) -> str:
    tie = sc_ties(state, s).get(side)
    if tie:
        return f"SC to choose from {' or '.join(s.units[i].name for i in tie)}"
    sc = s.field.sc[side]
    return f"SC {s.units[sc].name}" if sc >= 0 else "no SC"


@actions
def choose_sc(state: GameState, dice: Dice, unit: str) -> Step:
    """GC-6B.2 (3): between admirals of equal stars in one declaration, the owner chooses the SC."""
    s = _battle(state, "nominate", "fight", rule="GC-6B.2")
    unit = entry.text(unit, "The SC", "GC-6B.2")
    ties = sc_ties(state, s)
    for side, choices in ties.items():
        picked = [i for i in choices if s.units[i].name == unit]
        if picked:
            s = replace(s, field=fight.with_sc(s.field, side, picked[0]))
            new = replace(state, sortie=s)
            text = f"{_lead(state)}: {s.units[picked[0]].owner} makes {unit} the {fight.SIDE_NAMES[side]} SC"
            if s.stage == "fight" and not sc_ties(state, s) and fight.finished(s.units, s.field.status):
                return _end_battle(new, text, ("GC-6B.2",))
            return Step(new, text, ("GC-6B.2",))
    raise RuleError("GC-6B.2", "No SC is to be chosen now" if not ties else
                    f"Choose from {', '.join(s.units[i].name for c in ties.values() for i in c)}")


@actions
def nominate(state: GameState, dice: Dice, player: str = "") -> Step:
    """GC-6B.3 (7.32): the attacker SC's owner names the first defender, who declares first."""
    s = _battle(state, "nominate", rule="GC-6B.3")
    if sc_ties(state, s):
        raise RuleError("GC-6B.2", "Choose the attacker SC first")
    player = entry.text(player, "The first defender", "GC-6B.3")
    options = nominees(state, s)
    if not options:
        text = f"{_lead(state)}: nobody can defend {s.defender}"
        return _end_battle(replace(state, sortie=replace(s, stage="fight")), text, ("GC-6B.3",))
    if not player and len(options) == 1:
        player = options[0]
    if player not in options:
        raise RuleError("GC-6B.3", f"The first defender must be {' or '.join(options)}")
    seat = state.seat(player)
    s = replace(s, stage="defence", first_defender=seat, declarer=seat)
    return Step(replace(state, sortie=s), f"{_lead(state)}: {player} is the first defender", ("GC-6B.3",))


# --- GC-6B.4-6B.7 the engagement loop --------------------------------------------------------------

PENDING_RULES = {"strike_back": "GC-6B.5", "free_attack": "GC-6B.6", "extra_attack": "GC-11"}


def _fighting(state: GameState, rule: str) -> Sortie:
    s = _battle(state, "fight", rule=rule)
    if s.pending is not None:
        raise RuleError(PENDING_RULES[s.pending.kind], f"First the {s.pending.kind.replace('_', ' ')}")
    if sc_ties(state, s):
        raise RuleError("GC-6B.2", "First choose the SC")
    return s


def _unit(s: Sortie, name: Any, what: str, rule: str) -> int:
    name = entry.text(name, what, rule)
    found = [i for i, u in enumerate(s.units) if u.name == name]
    if not found:
        raise RuleError(rule, f"{quote(name)} is not in this battle")
    return found[0]


def _actor(state: GameState, s: Sortie, actor: Any, rule: str) -> int:
    i = _unit(s, actor, "The acting unit", rule)
    opp = fight.opportunity(s.units, s.field, rules_of_battle(state, s))
    if opp.roll_off:
        raise RuleError("GC-6B.4r", "Units of both sides tie for the next opportunity and the SCs' strategies are "
                                    "equal: the SCs roll off first")
    if i not in opp.actors:
        names = " or ".join(s.units[a].name for a in opp.actors)
        raise RuleError("GC-6B.4", f"The next opportunity is {names}'s (highest strategy first)")
    return i


def _plain_support(event) -> bool:
    """A battle-support card that modifies a roll (not one of the battle cards with a step of their own)."""
    return event.kind == SUPPORT and event.effect not in IN_BATTLE_EFFECTS


def engagement_cards(state: GameState, player: str) -> list[str]:
    """The cards of the player's hand that may be played on an engagement, by any player (GC-6B.5): battle-support
    cards, and the Double-Headed Snake (GC-11); never Fortress vs Fortress, which comes before the battle."""
    return [c for c in state.hand(player) if not state.is_person(c)
            and (_plain_support(state.event(c)) or state.event(c).effect == "double_snake")]


def _support(state: GameState, s: Sortie, card: Any, side: int, modifier: Any,
             snake: bool = False) -> tuple[Sortie, GameState, int, str]:
    """A battle-support card on one roll: a signed modifier the players read off the card, played by any
    player who holds one (GC-6B.5), at most one per engagement (Q19: in all, or per side). With `snake`, the
    Double-Headed Snake (GC-11), a battle-support or response card. Returns the sortie, the state (card
    discarded), the modifier and a note for the log."""
    card = entry.text(card, "The battle-support card", "GC-11")
    modifier = entry.whole(modifier, "The card's modifier", "GC-11")
    if not card:
        if modifier:
            raise RuleError("GC-11", "A modifier comes from a battle-support card: name it")
        return s, state, 0, ""
    holder = state.holder(card)
    event = state.event(card) if holder and not state.is_person(card) else None
    if snake:
        if event is None or event.effect != "double_snake":
            raise RuleError("GC-11", f"{quote(card)} is not a Double-Headed Snake card in anyone's hand")
    elif event is None or not _plain_support(event):
        why = {"double_snake": ": the Double-Headed Snake names its extra attackers",
               "fortress_vs_fortress": ": Fortress vs Fortress is resolved before the battle"}
        raise RuleError("GC-11", f"{quote(card)} is not a battle-support card in anyone's hand" +
                        (why.get(event.effect, "") if event else ""))
    if event.kind == SUPPORT:
        limit = s.support if state.options["support_limit"] == "total" else [x for x in s.support if x == side]
        if limit:
            raise RuleError("GC-11", "Only one battle-support card per engagement (Q19)")
        s = replace(s, support=s.support + (side,))
    new = to_discard(from_hand(state, state.seat(holder), card, "GC-11"), card)
    return s, new, modifier, f" ({holder} plays {card}{f', {modifier:+d}' if modifier or not snake else ''})"


def _losses(state: GameState, s: Sortie, pairs: list[tuple[int, int | None]]) -> GameState:
    """Persons destroyed leave play at once; a destroyed fortress changes hands at once, to the destroyer's camp,
    with its unsortied commander/garrison deemed destroyed (GC-7.35, Q25). With no destroying unit (a card's
    check), the enemy side's camp takes the fortress and a fallen Reinhard counts as removed by an event (Q29)."""
    for victim, killer in pairs:
        camp = s.units[killer].camp if killer is not None else camp_of_side(s, 1 - s.units[victim].side)
        how = camp if killer is not None else "event"
        if s.units[victim].kind == FORTRESS:
            lost = [n for n in state.fortress.posted if n not in {u.name for u in s.units}]
            state = fall(remove_persons(state, lost, how), camp)
        else:
            state = remove_persons(state, [s.units[victim].name], how)
    return state


def _fallen(s: Sortie, pairs) -> tuple[str, ...]:
    """GC-7.35 when the fortress is among the units destroyed."""
    return ("GC-7.35",) if any(s.units[v].kind == FORTRESS for v, _ in pairs) else ()


def _close(state: GameState, s: Sortie, field, actor: int, pairs: list[tuple[int, int]], awards, text: str,
           rules: tuple[str, ...], results: tuple[Result, ...]) -> Step:
    """The end of an opportunity: losses and VP, the actor has acted, SCs replaced, maybe the battle over."""
    state = _vp(_losses(state, s, pairs), awards)
    field, ties = fight.close(s.units, field, actor, rules_of_battle(state, s))
    s = replace(s, field=field, pending=None, support=(), begun=True)
    new = replace(state, sortie=s)
    text = f"{_lead(state)}: {text}{_award_text(awards)}"
    rules = tuple(dict.fromkeys(rules + _fallen(s, pairs) + (("GC-6B.7",) if awards else ())))
    if not ties and fight.finished(s.units, field.status):
        return _end_battle(new, text, rules, results)
    if ties:
        text += f"; {_sc_text(new, s, next(iter(ties)))}"
    return Step(new, text, rules, results)


def _end_battle(state: GameState, text: str, rules: tuple[str, ...], results: tuple[Result, ...] = ()) -> Step:
    """GC-6B.7: the annihilation bonus, then the civil wars and posts settle; the turn goes to its end check."""
    s = state.sortie
    awards = fight.bonus(s.units, s.field, rules_of_battle(state, s))
    new = civil_war.settle(tidy_posts(_vp(state, awards)))
    new = replace(new, sortie=None, phase=END)
    fates = ", ".join(f"{u.name} {f}" for u, f in zip(s.units, fight.fates(s.field)))
    return Step(new, f"{text}{_award_text(awards)}. The battle is over: {fates or 'nobody fought'}",
                tuple(dict.fromkeys(rules + ("GC-6B.7",))), results)


@actions
def roll_off(state: GameState, dice: Dice) -> Step:
    """GC-6B.4r: units of both sides tie for the next opportunity and the SCs' strategies are equal: the SCs
    roll off (1d6 each, Q12); the winner decides the order of the tie at this strategy (Q12 (a); by option,
    every tie while the same SCs remain); a tie is rolled again."""
    s = _fighting(state, "GC-6B.4r")
    opp = fight.opportunity(s.units, s.field, rules_of_battle(state, s))
    if not opp.roll_off:
        raise RuleError("GC-6B.4r", "No roll-off is needed for the next opportunity")
    names = tuple(s.units[i].name if i >= 0 else f"{fight.SIDE_NAMES[k]} (no SC)" for k, i in enumerate(s.field.sc))
    result = resolve_roll_off(RollOffInput(2, state.options["rolloff_dice"]), dice, names)
    s = replace(s, begun=True)
    if len(result.outcome) == 1:
        s = replace(s, field=fight.with_rolloff(s.field, result.outcome[0], opp.strategy))
    return Step(replace(state, sortie=s), f"{_lead(state)}: {result.summary}", result.rules, (result,))


def extra_attackers(s: Sortie, actor: int, target: int) -> list[str]:
    """GC-11 Double-Headed Snake: the units that may join the actor's attack on the target: each other present
    unit of the actor's side, never the fortress (it only strikes back, GC-7.33), never Reinhard against the
    fortress (GC-7.34)."""
    return [u.name for i, u in enumerate(s.units) if i != actor and u.side == s.units[actor].side
            and u.kind != FORTRESS and s.field.status[i] in fight.PRESENT
            and not (u.reinhard and s.units[target].kind == FORTRESS)]


def _extra_attackers(s: Sortie, actor: int, target: int, extra: Any, card: str) -> tuple[int, ...]:
    """The Double-Headed Snake's extra attackers named (at most 2, GC-11); they come only with the card."""
    names = entry.names(extra, "The extra attackers", "GC-11")
    if not names:
        return ()
    if not card:
        raise RuleError("GC-11", "Extra attackers join an attack only with a Double-Headed Snake card")
    if len(names) > SNAKE_ATTACKERS:
        raise RuleError("GC-11", f"The Double-Headed Snake brings {SNAKE_ATTACKERS} extra attackers, not {len(names)}")
    able = extra_attackers(s, actor, target)
    for name in names:
        if name not in able:
            raise RuleError("GC-11", f"{quote(name)} cannot join the attack: an extra attacker is another present "
                                     f"unit of {s.units[actor].name}'s side, never the fortress "
                                     f"({', '.join(able) or 'none can'})")
    return tuple(_unit(s, n, "An extra attacker", "GC-11") for n in names)


@actions
def engage(state: GameState, dice: Dice, actor: str, target: str, support: str = "", support_for: str = "actor",
           modifier: int = 0, extra: list | tuple = ()) -> Step:
    """GC-6B.5: the acting unit picks a present enemy unit (never an escaped one; Reinhard never the fortress,
    GC-7.34) and they duel: the higher strategy strikes first and the other strikes back only if it survives (a
    separate throw: strike_back); equal strategy, both strike at once. Any player may play a battle-support card
    on either roll. With the Double-Headed Snake as the card (GC-11), up to 2 more units of the actor's side
    (`extra`) join the attack: after the duel each strikes the target once (separate throws: extra_attack),
    keeping its own opportunity."""
    s = _fighting(state, "GC-6B.5")
    a = _actor(state, s, actor, "GC-6B.5")
    t = _unit(s, target, "The target", "GC-6B.5")
    if t not in fight.targets(s.units, s.field.status, a):
        reinhard = s.units[t].kind == FORTRESS and s.units[a].reinhard
        why = " (Reinhard may not target the fortress, GC-7.34)" if reinhard else ""
        raise RuleError("GC-7.34" if why else "GC-6B.5", f"{s.units[a].name} cannot engage {s.units[t].name}{why}: "
                        "the target is a present enemy unit")
    if support_for not in (ACTOR, TARGET):
        raise RuleError("GC-11", "A battle-support card names the actor's or the target's roll")
    joining = _extra_attackers(s, a, t, extra, entry.text(support, "The battle-support card", "GC-11"))
    favoured = s.units[a].side if support_for == ACTOR else s.units[t].side
    s, new, mod, note = _support(state, s, support, favoured, modifier, snake=bool(joining))
    if joining:
        note += f": {' and '.join(s.units[i].name for i in joining)} join the attack"
    duel = fight.duel_input(s.units, a, t, mod if support_for == ACTOR else 0, mod if support_for == TARGET else 0)
    names = {ACTOR: s.units[a].name, TARGET: s.units[t].name}
    results, hits = [], {}
    for who in opening(duel):
        label = f"{names[who]} strikes {names[other(who)]}"
        results.append(resolve_strike(strike_of(duel, who), dice, label))
        hits[who] = results[-1].outcome
    text = f"{names[ACTOR]} engages {names[TARGET]}{note}: " + "; ".join(r.summary for r in results)
    back = strikes_back(duel, hits)
    rules = ("GC-6B.5",) + (("GC-11",) if joining else ())
    if back:
        pending = Pending("strike_back", a, t, duel.actor_modifier if back == ACTOR else duel.target_modifier, joining)
        s = replace(s, pending=pending)
        return Step(replace(new, sortie=s), f"{_lead(state)}: {text}; {names[back]} strikes back next", rules,
                    tuple(results))
    return _duel_done(new, s, a, t, hits, text, tuple(results), joining)


def _duel_done(state: GameState, s: Sortie, a: int, t: int, hits: dict[str, bool], text: str,
               results: tuple[Result, ...], extra: tuple[int, ...]) -> Step:
    """The duel's losses and VP; then the Double-Headed Snake's extra attackers, if the target still stands, or
    the end of the opportunity."""
    outcome = outcome_of(hits)
    field, awards = fight.apply_duel(s.units, s.field, a, t, outcome, rules_of_battle(state, s))
    pairs = ([(t, a)] if outcome.target_destroyed else []) + ([(a, t)] if outcome.actor_destroyed else [])
    lost = " and ".join(s.units[v].name for v, _ in pairs)
    text += f"; {lost} destroyed" if lost else "; nobody is destroyed"
    if extra and not outcome.target_destroyed:
        state = _vp(_losses(state, s, pairs), awards)
        s = replace(s, field=field, pending=Pending("extra_attack", a, t, 0, extra), begun=True)
        rules = ("GC-6B.5", "GC-11") + _fallen(s, pairs) + (("GC-6B.7",) if awards else ())
        return Step(replace(state, sortie=s), f"{_lead(state)}: {text}{_award_text(awards)}; "
                                              f"{s.units[extra[0]].name} joins the attack next", rules, results)
    return _close(state, s, field, a, pairs, awards, text, ("GC-6B.5",) + (("GC-11",) if extra else ()), results)


@actions
def extra_attack(state: GameState, dice: Dice, support: str = "", modifier: int = 0) -> Step:
    """GC-11 Double-Headed Snake: the next extra attacker strikes the engaged target once (2d6 + attack >= defence,
    GC-6B.5's roll), with no strike back; it keeps its own opportunity. The actor's opportunity ends with the
    last of them, or when the target falls."""
    s = _battle(state, "fight", rule="GC-11")
    p = s.pending
    if p is None or p.kind != "extra_attack":
        raise RuleError("GC-11", "No extra attacker of a Double-Headed Snake is waiting to strike")
    k, rest = p.extra[0], p.extra[1:]
    s, new, mod, note = _support(state, s, support, s.units[k].side, modifier)
    victim = s.units[p.target].name
    result = resolve_strike(fight.free_attack(s.units, k, p.target, mod), dice,
                            f"{s.units[k].name} joins the attack on {victim}")
    text = f"{result.summary}{note}"
    if result.outcome:
        field, awards = fight.destroy(s.units, s.field, p.target, k, rules_of_battle(state, s))
        return _close(new, s, field, p.actor, [(p.target, k)], awards, f"{text}; {victim} destroyed",
                      ("GC-11", "GC-6B.5"), (result,))
    if rest:
        s = replace(s, pending=replace(p, extra=rest))
        return Step(replace(new, sortie=s), f"{_lead(state)}: {text}; {s.units[rest[0]].name} joins the attack next",
                    ("GC-11",), (result,))
    return _close(new, s, s.field, p.actor, [], (), text, ("GC-11",), (result,))


@actions
def strike_back(state: GameState, dice: Dice, support: str = "", modifier: int = 0) -> Step:
    """GC-6B.5: the lower-strategy unit of the duel, having survived the first strike, strikes back."""
    s = _battle(state, "fight", rule="GC-6B.5")
    p = s.pending
    if p is None or p.kind != "strike_back":
        raise RuleError("GC-6B.5", "No duel is waiting for a strike back")
    back = ACTOR if s.units[p.actor].strategy < s.units[p.target].strategy else TARGET
    striker, victim = (p.actor, p.target) if back == ACTOR else (p.target, p.actor)
    s, new, mod, note = _support(state, s, support, s.units[striker].side, modifier)
    strike = fight.free_attack(s.units, striker, victim, p.modifier + mod)
    result = resolve_strike(strike, dice, f"{s.units[striker].name} strikes back at {s.units[victim].name}")
    return _duel_done(new, s, p.actor, p.target, {other(back): False, back: result.outcome}, f"{result.summary}{note}",
                      (result,), p.extra)


@actions
def retreat(state: GameState, dice: Dice, actor: str, support: str = "", modifier: int = 0) -> Step:
    """GC-6B.6: instead of engaging, 2d6 <= own strategy + the SC's (twice its own for the SC) leaves the
    battle; a failure lets the enemy SC pick a unit for one free attack (a separate throw: free_attack)."""
    s = _fighting(state, "GC-6B.6")
    a = _actor(state, s, actor, "GC-6B.6")
    s, new, mod, note = _support(state, s, support, s.units[a].side, modifier)
    t = fight.retreat_threshold(s.units, s.field, a)
    name = s.units[a].name
    result = resolve_retreat_roll(RetreatRollInput(t, mod), dice, f"{name} retreats")
    if result.outcome:
        field, awards = fight.apply_retreat(s.units, s.field, a, RETREATED, None, rules_of_battle(state, s))
        return _close(new, s, field, a, [], awards, f"{result.summary}{note}", ("GC-6B.6",), (result,))
    if not fight.shooters(s.units, s.field.status, a, rules_of_battle(state, s)):
        return _close(new, s, s.field, a, [], (), f"{result.summary}{note}; no enemy unit can make the free attack",
                      ("GC-6B.6",), (result,))
    s = replace(s, pending=Pending("free_attack", a))
    return Step(replace(new, sortie=s), f"{_lead(state)}: {result.summary}{note}; the enemy SC picks a unit for the "
                                       "free attack", ("GC-6B.6",), (result,))


@actions
def free_attack(state: GameState, dice: Dice, shooter: str = "", support: str = "", modifier: int = 0) -> Step:
    """GC-6B.6: after a failed retreat, the unit the enemy SC picks (never the fortress, Q15) attacks the
    retreater once, with no return roll; a survivor stays in the battle."""
    s = _battle(state, "fight", rule="GC-6B.6")
    p = s.pending
    if p is None or p.kind != "free_attack":
        raise RuleError("GC-6B.6", "No failed retreat is waiting for a free attack")
    able = fight.shooters(s.units, s.field.status, p.actor, rules_of_battle(state, s))
    shooter = entry.text(shooter, "The shooter", "GC-6B.6")
    if not shooter and len(able) == 1:
        shooter = s.units[able[0]].name
    picks = [i for i in able if s.units[i].name == shooter]
    if not picks:
        names = ", ".join(s.units[i].name for i in able)
        raise RuleError("GC-6B.6", f"The enemy SC picks the free attack from {names}")
    k = picks[0]
    s, new, mod, note = _support(state, s, support, s.units[k].side, modifier)
    result = resolve_strike(fight.free_attack(s.units, k, p.actor, mod), dice,
                            f"Free attack by {shooter} on {s.units[p.actor].name}")
    outcome = SHOT_DOWN if result.outcome else STAYS
    field, awards = fight.apply_retreat(s.units, s.field, p.actor, outcome, k, rules_of_battle(state, s))
    tail = f"; {s.units[p.actor].name} is destroyed" if result.outcome else f"; {s.units[p.actor].name} stays"
    pairs = [(p.actor, k)] if result.outcome else []
    return _close(new, s, field, p.actor, pairs, awards, f"{result.summary}{note}{tail}", ("GC-6B.6",), (result,))


@actions
def pass_opportunity(state: GameState, dice: Dice, actor: str) -> Step:
    """GC-7.33: with only the fortress left on the enemy side, a unit may end its opportunity doing nothing."""
    s = _fighting(state, "GC-7.33")
    a = _actor(state, s, actor, "GC-7.33")
    if not fight.may_pass(s.units, s.field.status, a):
        raise RuleError("GC-7.33", "A unit passes only when the fortress is all the enemy has left")
    text = f"{s.units[a].name} lets the opportunity go (only the fortress faces it)"
    return _close(state, s, s.field, a, [], (), text,
                  ("GC-7.33",), ())


def _escape(state: GameState, new: GameState, holder: str, card: str, target: str) -> Step:
    """GC-11 Escape Shuttle: an admiral in the battle escapes (Q18: as if retreated for the bonus)."""
    if state.phase != BATTLE or state.sortie.stage != "fight" or state.sortie.pending is not None:
        raise RuleError("GC-11", f"{card} is used in a battle, between opportunities")
    s = state.sortie
    i = _unit(s, target, "The admiral escaping", "GC-11")
    if s.units[i].kind != FLEET or s.field.status[i] not in fight.PRESENT:
        raise RuleError("GC-11", f"{s.units[i].name} is not an admiral present in the battle")
    field, ties = fight.settle_sc(s.units, fight.set_status(s.field, i, ESCAPED), rules_of_battle(state, s))
    s = replace(s, field=field)
    text = f"{_lead(state)}: {holder} plays {card}: {s.units[i].name} escapes the battle"
    after = replace(new, sortie=s)
    if not ties and fight.finished(s.units, field.status):
        return _end_battle(after, text, ("GC-11",))
    return Step(after, text, ("GC-11",))


@actions
def fortress_vs_fortress(state: GameState, dice: Dice, card: str, destroyed: list | tuple = (), by: str = "") -> Step:
    """GC-11 (sortie step 7): Fortress vs Fortress is resolved before the battle: once both sides and their SCs are
    set, before the first opportunity. Its holder plays it and the players resolve its printed text; they name the
    units its check destroyed (`destroyed`) and, when it was a unit's roll, that unit (`by`), whose clique scores as
    GC-6B.7 says. A fortress destroyed so changes hands at once (GC-7.35)."""
    s = _battle(state, "fight", rule="GC-11")
    if s.begun or s.pending is not None or sc_ties(state, s):
        raise RuleError("GC-11", "Fortress vs Fortress is resolved before the battle: once both SCs are set, before "
                                 "the first opportunity")
    card = entry.text(card, "The card", "GC-11")
    holder = state.holder(card)
    if not holder or state.is_person(card) or state.event(card).effect != "fortress_vs_fortress":
        raise RuleError("GC-11", f"{quote(card)} is not a Fortress vs Fortress card in anyone's hand")
    lost = tuple(_unit(s, n, "A unit destroyed", "GC-11") for n in entry.names(destroyed, "The units destroyed",
                                                                               "GC-11"))
    killer = _unit(s, by, "The unit whose roll it was", "GC-11") if entry.text(by, "The unit", "GC-11") else None
    rules = rules_of_battle(state, s)
    field, awards = s.field, ()
    for i in lost:
        if field.status[i] not in fight.PRESENT:
            raise RuleError("GC-11", f"{s.units[i].name} is not present in the battle")
        if killer is not None and s.units[killer].side == s.units[i].side:
            raise RuleError("GC-11", f"{s.units[killer].name} and {s.units[i].name} are on the same side")
        field = fight.set_status(field, i, fight.DESTROYED)
        awards += fight.kill_awards(s.units, i, killer, rules) if killer is not None else ()
    if killer is not None and not lost:
        raise RuleError("GC-11", "Name the units destroyed by that roll, or no unit")
    pairs = [(i, killer) for i in lost]
    new = _vp(_losses(to_discard(from_hand(state, state.seat(holder), card, "GC-11"), card), s, pairs), awards)
    field, _ = fight.settle_sc(s.units, field, rules)
    s = replace(s, field=field)
    gone = ", ".join(s.units[i].name for i in lost)
    text = f"{_lead(state)}: {holder} plays {card} before the battle: " + \
        (f"{gone} destroyed" + (f" by {s.units[killer].name}'s roll" if killer is not None else "") if lost
         else "nobody is destroyed") + _award_text(awards)
    rules_applied = ("GC-11",) + _fallen(s, pairs) + (("GC-6B.7",) if awards else ())
    after = replace(new, sortie=s)
    if not sc_ties(after, s) and fight.finished(s.units, field.status):
        return _end_battle(after, text, rules_applied)
    return Step(after, text, rules_applied)
