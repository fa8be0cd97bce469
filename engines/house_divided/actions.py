"""A House Divided: the actions of a player turn (digest section 3, HD-3), and what they share.

A game turn is the Union player turn, then the CSA's; each runs start (supply, border states, the FI
snapshot: turn_start.py), movement (marches, break-outs first: movement.py), battles (battle_steps.py),
promotion and recruitment (turn_end.py); control, MM, the basic-rules form and the leaders' counters are
entered at any time (anytime.py). Each action declares its parameters and what may be chosen now
(companion.spec); `when` says whether it is open at all. An action that breaks a rule raises RuleError
(naming the rule) and changes nothing; otherwise it returns a Step with the new state, a one-line summary
starting with the turn, and the rules it applied.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from companion.engine import RuleError
from companion.spec import Actions, Barred, Choice

from . import battle as fight
from .rules import CSA, SIDE_NAME, USA
from .state import BATTLE, MOVEMENT, PROMOTION, RECRUITMENT, START, GameState

actions = Actions("HD-3")
SEGMENT_NAMES = {START: "start", MOVEMENT: "movement", BATTLE: "battle", PROMOTION: "promotion",
                 RECRUITMENT: "recruitment"}


def lead(state: GameState) -> str:
    """How a log line starts: the turn and the phasing side."""
    return f"{state.turn_label}, {SIDE_NAME[state.side]}"


# --- when an action is open ---------------------------------------------------------------------------

def playing(state: GameState) -> None:
    """The game goes on, and no Union MM loss for Washington waits to be rolled (HD-4.7)."""
    if state.victory:
        raise RuleError(state.victory.rule, f"The game is over: {state.victory.result}")
    if state.washington_due:
        raise RuleError("HD-4.7", "Washington has fallen: first roll the Union MM loss")


def in_segment(segment: str, rule: str = "HD-3", *more: Callable[[GameState], None]):
    """The `when` of an action of one segment of the phasing side's turn, outside any battle; `more` are
    further conditions, checked in order."""
    def when(state: GameState) -> None:
        playing(state)
        if state.battle is not None:
            raise RuleError("HD-3", f"Finish the battle at {state.battle.box} first")
        if state.segment != segment:
            raise RuleError(rule, f"This belongs to the {SEGMENT_NAMES[segment]} segment; it is the "
                                  f"{SEGMENT_NAMES[state.segment]} segment of the {SIDE_NAME[state.side]} turn")
        for check in more:
            check(state)
    return when


def in_battle(rule: str = "HD-3"):
    """The `when` of a battle action: a battle is being fought."""
    def when(state: GameState) -> None:
        playing(state)
        if state.battle is None:
            raise RuleError(rule, "No battle is being fought")
    return when


def battle_step(kind: str, rule: str, refusal: str):
    """The `when` of the battle step of this kind (battle.due): RuleError(rule, refusal) at any other step."""
    def when(state: GameState) -> None:
        in_battle(rule)(state)
        if fight.due(state).kind != kind:
            raise RuleError(rule, refusal)
    return when


def requires(option: str, rule: str, what: str):
    """A `when` condition: the session option (an advanced rule's switch) is on."""
    def check(state: GameState) -> None:
        if not state.options[option]:
            raise RuleError(rule, f"The {what} rule is off in this game")
    return check


def phasing(side: str, rule: str, text: str):
    """A `when` condition: the phasing side is `side`."""
    def check(state: GameState) -> None:
        if state.side != side:
            raise RuleError(rule, text)
    return check


# --- choices ------------------------------------------------------------------------------------------

def offer(value: Any, label: str, refusal: RuleError | None) -> Choice | Barred:
    """A value the players may choose, or the value barred by the rule that refuses it."""
    return Choice(value, label) if refusal is None else Barred(value, label, refusal.rule, refusal.message)


def sides(state: GameState, keep: Callable[[str], bool] = lambda side: True) -> list[Choice]:
    return [Choice(side, SIDE_NAME[side]) for side in (USA, CSA) if keep(side)]


def near_first(state: GameState, origin: str, found: list[Choice | Barred]) -> list[Choice | Barred]:
    """Destinations from `origin`, those joined to it by a line first (named with the lines' types), then the
    others in the map's order: the first offered is the nearest."""
    graph = state.game_map.graph
    ways = {b: sorted({d["type"] for d in graph.get_edge_data(origin, b).values()})
            for b in (graph.neighbors(origin) if origin in graph else ())}

    def named(c: Choice | Barred) -> Choice | Barred:
        return replace(c, label=f"{c.label} (by {', '.join(ways[c.value])})") if c.value in ways else c
    return [named(c) for c in found if c.value in ways] + [c for c in found if c.value not in ways]


def boxes(state: GameState, rule: str, why: str) -> list[Choice | Barred]:
    """Every box of the map; Europe barred (`why`, under `rule`)."""
    return [Barred(b.id, b.name, rule, why) if b.id == state.europe else Choice(b.id, b.name)
            for b in state.game_map.boxes]


# --- after units moved, left or died --------------------------------------------------------------------

def finish(state: GameState) -> tuple[GameState, list[str]]:
    """Captured leaders (HD-5.7) and containment that has ended."""
    state, lines = fight.lone_leaders(state)
    still = tuple(b for b in state.contained if state.units_in(b, USA) and state.units_in(b, CSA))
    if still != state.contained:
        state = replace(state, contained=still)
    return state, lines


def tail(lines: list[str]) -> str:
    return f"; {'; '.join(lines)}" if lines else ""
