"""The turn as a whole (DX-5.0): what must happen after every event, what blocks the next step, and the
passing of the turn.

After every event: each position's holder (a side with units there while the enemy has none, digest
section 2), a leader alone among enemy units is killed at once (DX-11.3), a declared melee with a side gone is
over (DX-13.1), and victory (DX-4.0).
Before play goes on: a task in hand (hits to place, checks made at once, a flank attack's fire, units that
must disengage), then disorder wherever a side is over its stacking limit involuntarily (DX-8.3a; in the
Movement step, deployment and the night stacking is only checked at the end).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .board import ELIMINATED, other
from .rules import LDR, SIDES, SPC
from .stacking import over_limit
from .state import DEPLOY, MORALE, MOVEMENT, NIGHT, OVER, Card, GameState, Melee
from .victory import winner

TASK_ACTIONS = {"allocate": "allocate_hits", "checks": "check_hits", "flank_fire": "flank_fire",
                "withdraw": "withdraw"}
TASK_RULES = {"allocate": "DX-7.3", "checks": "DX-6.0", "flank_fire": "DX-13.3", "withdraw": "DX-8.2"}


@dataclass(frozen=True)
class Duty:
    action: str
    rule: str
    text: str


def eliminate(card: Card) -> Card:
    return replace(card, loc=ELIMINATED, face_up=True, hits=0, melee_hits=0, decoy=False)


def fighting(state: GameState, melee: Melee) -> tuple[list[str], list[Card]]:
    """The initiator's melee units still in the melee position (ids), and the opponent's units there (DX-13.1)."""
    return ([i for i in melee.units if state.card(i).loc == melee.position],
            state.units(melee.position, other(melee.initiator)))


def _melees_over(state: GameState) -> GameState:
    """DX-13.1: a melee with no unit of one side left in its position (fire from elsewhere, A21) is over: there
    is nothing to fight, and a side alone there has won it. While a round's hits wait for their checks, the
    checks end it."""
    over = [replace(m, stage="done") for m in state.melees
            if m.stage not in ("checks", "done") and not all(fighting(state, m))]
    if not over:
        return state
    ended = {m.position: m for m in over}
    return replace(state, melees=tuple(ended.get(m.position, m) for m in state.melees))


def settle(state: GameState) -> GameState:
    state = _melees_over(state)
    holder = dict(state.holder)
    lone = []
    for pos in state.positions:
        present = [side for side in SIDES if state.units(pos, side)]
        if len(present) == 1:
            holder[pos] = present[0]
            leader = state.leader(pos, other(present[0]))
            if leader:
                lone.append(leader)
    if holder != state.holder:
        state = replace(state, holder=holder)
    if lone:
        state = state.with_cards(*(eliminate(c) for c in lone))
    if state.step != OVER:
        victory = winner(state)
        if victory:
            state = replace(state, victory=victory, step=OVER, tasks=())
    return state


def settle_notes(before: GameState, after: GameState) -> tuple[list[str], tuple[str, ...]]:
    """What settling an event did besides it, for its log line: leaders killed alone among enemy units
    (DX-11.3) and melees over (DX-13.1)."""
    notes, rules = [], []
    for c in before.cards:
        if c.spec.type == LDR and c.loc != ELIMINATED and after.card(c.id).loc == ELIMINATED:
            notes.append(f"{c.spec.label}, alone with enemy units in {c.loc}, is killed")
            rules.append("DX-11.3")
    for m, now in zip(before.melees, after.melees):
        if m.stage != "done" and now.stage == "done":
            notes.append(f"the melee in {m.position} is over: a side has no unit left there")
            rules.append("DX-13.1")
    return notes, tuple(rules)


def morale_due(state: GameState, side: str) -> tuple[list[Card], list[Card]]:
    """The side's leaders and units holding hits: checked in its morale step, leaders first (DX-11.3)."""
    held = [c for c in state.cards if c.side == side and c.hits and c.loc != ELIMINATED]
    return [c for c in held if c.spec.type == LDR], [c for c in held if c.spec.type != LDR]


def duty(state: GameState) -> Duty | None:
    """What must be done before anything else, if anything."""
    return state.once("duty", lambda: _duty(state))


def _duty(state: GameState) -> Duty | None:
    if state.tasks:
        task = state.tasks[0]
        return Duty(TASK_ACTIONS[task.kind], TASK_RULES[task.kind], _task_text(task))
    if state.step in (DEPLOY, MOVEMENT, NIGHT, OVER):
        return None
    if state.step == MORALE and any(morale_due(state, state.active)):
        return None
    over = over_limit(state)
    if over:
        side, pos = over[0]
        return Duty("disorder", "DX-8.3a", f"{side} is over the stacking limit in {pos}: disorder checks")
    return None


def _task_text(task) -> str:
    if task.kind == "allocate":
        return f"{task.side} places {task.hits} hit{'s' if task.hits != 1 else ''} on its units in {task.position}"
    if task.kind == "checks":
        return f"The hits in {task.position} are checked at once"
    if task.kind == "flank_fire":
        return f"The flank attack into {task.position} fires at once"
    return f"{task.side} units in {task.position} must disengage"


def expire_specials(state: GameState) -> GameState:
    """DX-12.0: a special's effect normally lasts for the turn it was played; then the card is discarded."""
    done = [c for c in state.cards if c.spec.type == SPC and c.loc in state.holder and not c.decoy
            and not c.spec.lasting and c.expires == state.turn]
    return state.with_cards(*(eliminate(c) for c in done)) if done else state


def next_turn(state: GameState, active: str | None = None) -> GameState:
    """The next side's turn begins with its morale step; the per-turn flags are cleared."""
    state = expire_specials(state)
    cards = tuple(replace(c, fired=False, moves=0, advanced=False, disengaged=False, flank="")
                  if c.fired or c.moves or c.advanced or c.disengaged or c.flank else c for c in state.cards)
    return replace(state, cards=cards, turn=state.turn + 1, active=active or other(state.active), step=MORALE,
                   combat_at=(), melees=(), specials_played=())
