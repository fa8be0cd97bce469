"""The turn guide: what the rules want now (GC-3 setup, GC-4 the turn, GC-6B the battle), in plain words, and the
free actions a seat may take besides (GC-11)."""
from __future__ import annotations

from companion.engine import Due

from . import battle as fight
from .actions import actions
from .fighting import opportunity, sc_ties
from .fortress import COMMANDER, DISPATCH, needs_plot
from .rules import DEAL
from .sortie import fortress_may_join, nominees
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
        return ([sortie] if is_open(state, "sortie") else []) + steps
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


def free_steps(state: GameState) -> list[Due]:
    """GC-11: the free actions open now, which cost no turn: a response card, the Castrop Rebellion, the return from
    an Inquiry. Given the game as one seat knows it (state.known_to), those its own hand allows."""
    return [Due(name, actions.specs[name].label, "At any time: it costs no turn.", "GC-11")
            for name in ("respond", "castrop", "return_from_inquiry") if is_open(state, name)]


def is_open(state: GameState, action: str) -> bool:
    return actions.specs[action].is_open(state)


def _card_steps(state: GameState) -> list[Due]:
    """After the draw: a card, a plot or nothing, each offered when its action is open (GC-6A)."""
    if state.counter:
        return [Due("counter_plot", "Counter-plot", f"{state.counter.target} rolls 2d6 against "
                    f"{state.counter.plotter}.", "GC-6A.33a")]
    steps = []
    if is_open(state, "use_card"):
        steps.append(Due("use_card", "Use a card", "A person joins your clique; an event applies its effect. One card "
                         "a turn.", "GC-6A.2"))
    if is_open(state, "discard"):
        steps.append(Due("discard", "Discard", "No card is usable (no person, and no event whose prerequisite "
                         "holds): show the hand and discard one.", "GC-6A.1"))
    if is_open(state, "plot"):
        steps.append(Due("plot", "Plot", "2d6 >= your plotter's value destroys a person of the same nation.",
                         "GC-6A.32"))
    if is_open(state, "post_plot"):
        text = "Make one of your admirals Iserlohn's commander" + \
            ("." if needs_plot(state, COMMANDER) else ": the post is vacant, no plot needed.")
        steps.append(Due("post_plot", "Commander post", text, "GC-7.12"))
    if is_open(state, "garrison_plot"):
        free = "" if needs_plot(state, DISPATCH) else " (a slot is free: no plot needed)"
        steps.append(Due("garrison_plot", "Garrison", f"Dispatch an admiral to Iserlohn{free}, or release a garrison "
                         "fleet.", "GC-7.21"))
    if is_open(state, "end_action"):
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
        if s.pending.kind == "extra_attack":
            return [Due("extra_attack", "Double-Headed Snake", f"{s.units[s.pending.extra[0]].name} joins the attack: "
                        "one strike on the target; it keeps its own opportunity.", "GC-11")]
        return [Due("free_attack", "Free attack", "The enemy SC picks a unit to attack the retreating unit once.",
                    "GC-6B.6")]
    opp = opportunity(state)
    if opp.roll_off:
        return [Due("roll_off", "Roll-off", "Both sides tie for the next opportunity and the SCs' strategies are "
                    "equal: the SCs roll 1d6 each.", "GC-6B.4r")]
    names = " or ".join(s.units[i].name for i in opp.actors)
    steps = [Due("engage", f"{names}: engage", "Pick a present enemy unit; the higher strategy strikes first.",
                 "GC-6B.5")] if is_open(state, "engage") else []
    steps.append(Due("retreat", f"{names}: retreat", "2d6 <= own strategy + the SC's leaves the battle.", "GC-6B.6"))
    if is_open(state, "pass_opportunity"):
        steps.append(Due("pass_opportunity", "Pass", "Only the fortress faces this unit.", "GC-7.33"))
    if not s.begun and fortress_vs_fortress_unplayed(state):
        steps.append(Due("fortress_vs_fortress", "Fortress vs Fortress", "If it is played, it is resolved now, "
                         "before the first opportunity.", "GC-11"))
    return steps


def fortress_vs_fortress_unplayed(state: GameState) -> bool:
    """Is a Fortress vs Fortress card still unseen (in a deck or a hand)? Hands are private: the step is offered
    while any such card has not been played, whoever may hold it."""
    seen = set(state.discard) | set(state.destroyed) | set(state.aside)
    return any(e.effect == "fortress_vs_fortress" and e.name not in seen for e in state.events)
