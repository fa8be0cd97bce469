"""The turn guide: what the rules want now (GC-3 setup, GC-4 the turn, GC-6B the battle), in plain words."""
from __future__ import annotations

from companion.engine import Due

from . import battle as fight
from .actions import plot_targets, sc_ties
from .fortress import dispatch_candidates, post_candidates
from .rules import DEAL, HAND_LIMIT
from .sortie import fortress_may_join, nominees, sortie_camps
from .state import ACTION, BATTLE, CARD, DRAFT, END, ORDER, OVER, PHASE_NAMES, PLACE, TIE, GameState
from .state import DEAL as DEAL_PHASE
from .table import current_deck


def phase_title(state: GameState) -> str:
    if state.phase == OVER:
        o = state.outcome
        return f"Game over: {' + '.join(o.camps)} wins; {' and '.join(o.winners)} with {o.scores[o.winners[0]]} points"
    if state.phase in (DEAL_PHASE, DRAFT, PLACE):
        return f"Setup: {PHASE_NAMES[state.phase]}"
    title = f"Turn {state.turn}: {state.player}, {PHASE_NAMES[state.phase]}"
    if state.phase == BATTLE:
        s = state.sortie
        title += f" ({s.attacker} against {s.defender}, {s.size} fleet{'s' * (s.size != 1)}: {s.stage})"
    return title


def _next_setup(state: GameState) -> str:
    n = len(state.players)
    return next(state.players[(state.first + k) % n] for k in range(n) if not state.done[(state.first + k) % n])


def due_now(state: GameState) -> list[Due]:
    """The steps open now, the required one first."""
    phase = state.phase
    if phase == OVER:
        return []
    if phase == DEAL_PHASE:
        deck = current_deck(state) + 1
        return [Due("deal_hand", f"Deal {_next_setup(state)} a hand",
                    f"{DEAL} cards from deck {deck}: enter the cards dealt, or let the companion deal.", "GC-3")]
    if phase == DRAFT:
        return [Due("draft_pick", f"{_next_setup(state)} keeps a card", "Keep 1 card of the packet in front of you; "
                    "the rest pass to the right when everyone has picked.", "GC-12")]
    if phase == PLACE:
        return [Due("place", f"{_next_setup(state)} places persons", "Choose, in secret, the persons to place; all "
                    "are revealed together. Events stay in hand.", "GC-3")]
    if phase == ORDER:
        steps = [Due("roll_order", "Order roll", "1d6" + (" +1 (Ragnarok)" if state.ragnarok else "") +
                     ": the sortie size; an unmodified 6 forces a sortie.", "GC-5")]
        if state.aside:
            steps.append(Due("trigger_set_aside", "A set-aside event", f"If its prerequisite now holds, "
                             f"{', '.join(state.aside)} resolves for {state.player} first.", "GC-6A.1"))
        return steps
    if phase == ACTION:
        sortie = Due("sortie", "Sortie", "Choose the attacking camp; both sides commit up to "
                     f"{state.order.size} fleets.", "GC-6B")
        if state.order.forced:
            return [Due("sortie", "Forced sortie", sortie.text, "GC-5")]
        steps = [Due("draw", "Draw a card", "Then use a card, make a plot, or do nothing.", "GC-6A.1")]
        return ([sortie] if sortie_camps(state) else []) + steps
    if phase == CARD:
        return _card_steps(state)
    if phase == BATTLE:
        return _battle_steps(state)
    if phase == END:
        return [Due("end_turn", "End check", "Reinhard, military collapse and the ceasefire are checked; then the "
                    "player on the left goes next.", "GC-9")]
    assert phase == TIE
    return [Due("ceasefire_roll_off", "Roll-off", f"{', '.join(state.tie)} tie on stars: their representatives "
                "roll 1d6 each.", "GC-9.13r")]


def _card_steps(state: GameState) -> list[Due]:
    if state.counter:
        return [Due("counter_plot", "Counter-plot", f"{state.counter.target} rolls 2d6 against "
                    f"{state.counter.plotter}.", "GC-6A.33a")]
    hand = state.hands[state.active]
    use = Due("use_card", "Use a card", "A person joins your clique; an event applies its effect. One card a turn.",
              "GC-6A.2")
    if len(hand) > HAND_LIMIT:
        if not any(state.is_person(c) for c in hand):
            return [use, Due("discard", "Discard", "If no card is usable: show the hand and discard one.", "GC-6A.1")]
        return [use]
    steps = [use]
    plotters = [p.card for p in state.in_play if p.owner == state.player and state.person(p.card).may_plot]
    if any(plot_targets(state, p) for p in plotters):
        steps.append(Due("plot", "Plot", "2d6 >= your plotter's value destroys a person of the same nation.",
                         "GC-6A.32"))
    holds = [p for p in plotters if state.placed(p).camp == state.fortress.controller]
    if holds and post_candidates(state, state.player):
        steps.append(Due("post_plot", "Commander plot", "Make one of your admirals Iserlohn's commander.", "GC-7.12"))
    if holds and (dispatch_candidates(state, state.player) or state.fortress.garrison):
        steps.append(Due("garrison_plot", "Garrison plot", "Dispatch an admiral to Iserlohn, or release a garrison "
                         "fleet.", "GC-7.21"))
    steps.append(Due("end_action", "Nothing more", "End the action.", "GC-6A.1"))
    return steps


def _battle_steps(state: GameState) -> list[Due]:
    s = state.sortie
    if s.stage in ("attack", "defence"):
        player = state.players[s.declarer]
        text = f"At least one available {s.attacker if s.stage == 'attack' else s.defender} fleet, up to the size left."
        if fortress_may_join(state, s, s.declarer):
            text += " The fortress may come as a fleet."
        return [Due("declare", f"{player} declares", text, "GC-6B.12")]
    ties = sc_ties(state, s)
    if ties:
        side, choices = next(iter(ties.items()))
        names = " or ".join(s.units[i].name for i in choices)
        return [Due("choose_sc", f"Choose the {fight.SIDE_NAMES[side]} SC", f"Equal stars, one declaration: {names}.",
                    "GC-6B.2")]
    if s.stage == "nominate":
        return [Due("nominate", "Name the first defender", f"Choose from {', '.join(nominees(state, s)) or 'nobody'}.",
                    "GC-6B.3")]
    if s.pending:
        if s.pending.kind == "strike_back":
            return [Due("strike_back", "Strike back", "The lower-strategy unit survived: it strikes back.", "GC-6B.5")]
        return [Due("free_attack", "Free attack", "The enemy SC picks a unit to attack the retreating unit once.",
                    "GC-6B.6")]
    opp = fight.opportunity(s.units, s.field)
    if opp.roll_off:
        return [Due("roll_off", "Roll-off", "Both sides tie for the next opportunity and the SCs' strategies are "
                    "equal: the SCs roll 1d6 each.", "GC-6B.4r")]
    names = " or ".join(s.units[i].name for i in opp.actors)
    steps = [Due("engage", f"{names}: engage", "Pick a present enemy unit; the higher strategy strikes first.",
                 "GC-6B.5"),
             Due("retreat", f"{names}: retreat", "2d6 <= own strategy + the SC's leaves the battle.", "GC-6B.6")]
    if any(fight.may_pass(s.units, s.field.status, i) for i in opp.actors):
        steps.append(Due("pass_opportunity", "Pass", "Only the fortress faces this unit.", "GC-7.33"))
    return steps
