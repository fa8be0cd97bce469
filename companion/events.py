"""The event log of a game session: append-only, and the only source of the game state.

An event is an action (with the dice it used, the rule IDs and a one-line summary), or an undo or
a redo of an earlier action. Nothing is ever deleted: undo is an event that takes the latest
applied action off the stack, redo puts the latest undone one back. The state is derived by
replaying the applied actions, with their recorded dice, through the engine.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Mapping, Sequence

from .dice import ENTERED, DiceError, ReplayDice, Roll
from .engine import Engine, RuleError, Step
from .quoting import quote

ACTION, UNDO, REDO = "action", "undo", "redo"
KINDS = (ACTION, UNDO, REDO)


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Event:
    """One line of the log. `target` is the seq of the action an undo or redo refers to."""

    seq: int
    kind: str
    summary: str
    action: Mapping[str, Any] | None = None
    rolls: tuple[Roll, ...] = ()
    rules: tuple[str, ...] = ()
    target: int | None = None
    at: str = field(default_factory=now)
    owner: str = ""    # the player whose private part this event has (its action, dice and detail)
    detail: str = ""   # the line only the owner reads

    def seen_by(self, viewer: str) -> bool:
        """May the page of `viewer` ("" for the table, or a player) see the event's private part?"""
        return not self.owner or viewer == self.owner

    def public(self) -> Event:
        """The event as every page and a player's export have it: a private part left out."""
        if not self.owner:
            return self
        return Event(self.seq, self.kind, self.summary, None, (), self.rules, self.target, self.at, self.owner)

    @property
    def physical(self) -> bool:
        """Were any of its dice rolled at the table (entered by a player)?"""
        return any(r.source == ENTERED for r in self.rolls)

    def to_dict(self) -> dict:
        return {
            "seq": self.seq,
            "kind": self.kind,
            "summary": self.summary,
            "action": dict(self.action) if self.action is not None else None,
            "rolls": [r.to_dict() for r in self.rolls],
            "rules": list(self.rules),
            "target": self.target,
            "at": self.at,
            "owner": self.owner,
            "detail": self.detail,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        """An event as saved, every field of its exact type (no coercion); ValueError naming what is wrong."""
        if not isinstance(data, Mapping):
            raise ValueError(f"an event is an object, not {quote(data)}")
        seq, kind, action, target = data.get("seq"), data.get("kind"), data.get("action"), data.get("target")
        if type(seq) is not int or seq < 1:
            raise ValueError(f"an event's 'seq' is a whole number from 1, not {quote(seq)}")
        if kind not in KINDS:
            raise ValueError(f"event {seq}: unknown kind {quote(kind)}")
        if (kind == ACTION) != isinstance(action, Mapping) or (action is not None and not isinstance(action, Mapping)):
            raise ValueError(f"event {seq}: only an action event carries an action")
        if target is not None and (type(target) is not int or target < 1):
            raise ValueError(f"event {seq}: 'target' is the seq of an action, not {quote(target)}")
        for key in ("summary", "at", "owner", "detail"):
            if type(data.get(key, "")) is not str:
                raise ValueError(f"event {seq}: '{key}' is a text, not {quote(data.get(key))}")
        rolls, rules = data.get("rolls", []), data.get("rules", [])
        if type(rolls) is not list or type(rules) is not list or not all(type(r) is str for r in rules):
            raise ValueError(f"event {seq}: 'rolls' and 'rules' are lists")
        return cls(seq=seq, kind=kind, summary=data.get("summary", ""),
                   action=dict(action) if action is not None else None,
                   rolls=tuple(Roll.from_dict(r) for r in rolls), rules=tuple(rules), target=target,
                   at=data.get("at", ""), owner=data.get("owner", ""), detail=data.get("detail", ""))


LATER = object()  # the state after an action taken in without being worked out (see Replay.skip)


class Replay:
    """The engine state after a log of events, kept step by step so undo costs nothing.

    The events of a log up to a saved snapshot of the state can be taken in without working each one out
    (`skip`): the state after an action is then the snapshot's, or worked out from the nearest state before it
    when it is first asked for (an undo past the snapshot)."""

    def __init__(self, engine: Engine, options: Mapping[str, Any], setup: Mapping[str, Any]):
        self.engine = engine
        self.options = dict(options)
        self.setup = dict(setup)
        self.events: list[Event] = []
        self.applied: list[Event] = []   # action events in effect, oldest first
        self.undone: list[Event] = []    # undone actions, the next to redo last
        self.states: list[Any] = [engine.start(options, setup)]   # states[i]: after applied[:i]
        self._undone_states: list[Any] = []  # the state each undone action had made: a redo gives it back
        self.known: Callable[[int], Any] = lambda seq: None  # the state an action made, from a snapshot
        self.worked = 0  # how many actions were worked out through the engine (not taken from a snapshot)

    @property
    def state(self) -> Any:
        return self._state_at(len(self.states) - 1)

    def worked_out(self) -> int:
        """How many actions this replay worked out through the engine, the state now included (if it was skipped,
        it is worked out first)."""
        self._state_at(len(self.states) - 1)
        return self.worked

    def _state_at(self, i: int) -> Any:
        """states[i], worked out (and kept) from the nearest state before it if it was skipped."""
        j = i
        while self.states[j] is LATER:
            if (known := self.known(self.applied[j - 1].seq)) is not None:
                self.states[j] = known
                break
            j -= 1
        for k in range(j + 1, i + 1):
            self.states[k] = self._apply(self.states[k - 1], self.applied[k - 1])
        return self.states[i]

    def _apply(self, state: Any, event: Event) -> Any:
        self.worked += 1
        dice = ReplayDice(event.rolls)
        after = self.engine.apply(state, event.action, dice).state
        if dice.unused():
            raise ValueError(f"event {event.seq} recorded more dice than its action uses")
        return after

    def skip(self, events: Sequence[Event], known: Callable[[int], Any]) -> None:
        """Take in events already worked out by this very code (a snapshot was saved after the last of them)
        without working them out again; `known(seq)`: the state action `seq` made, if a snapshot holds it."""
        self.known = known
        for event in events:
            self.add(event, LATER)

    def step(self, action: Mapping[str, Any], dice) -> Step:
        """What an action would do now (raises RuleError and changes nothing if illegal)."""
        return self.engine.apply(self.state, action, dice)

    def add(self, event: Event, state: Any = None) -> None:
        """Take the next event of the log into the derived state. `state`: the state after an action event,
        when the caller has just worked it out from this replay's state (it is not worked out again). A redo
        gives back the state its action had made, without working it out again."""
        if event.seq != len(self.events) + 1:
            raise ValueError(f"event {event.seq} is out of order: expected {len(self.events) + 1}")
        if event.kind == ACTION:
            if state is None:
                state = self._apply(self.state, event)
            self.states.append(state)
            self.applied.append(event)
            self.undone.clear()
            self._undone_states.clear()
        elif event.kind == UNDO:
            if not self.applied or self.applied[-1].seq != event.target:
                raise ValueError(f"event {event.seq} undoes {event.target}, which is not the latest action")
            self.undone.append(self.applied.pop())
            self._undone_states.append(self.states.pop())
        else:
            if not self.undone or self.undone[-1].seq != event.target:
                raise ValueError(f"event {event.seq} redoes {event.target}, which is not the latest undone action")
            self.applied.append(self.undone.pop())
            self.states.append(self._undone_states.pop())  # the same action on the same state: the same result
        self.events.append(event)

    def extend(self, events: Sequence[Event]) -> None:
        for event in events:
            self.add(event)

    def action_event(self, action: Mapping[str, Any], dice) -> Event:
        """The event for performing `action` with `dice` now; raises RuleError if it is illegal.
        It records only the rolls this action made, so one dice source may serve many actions."""
        return self.record(action, dice)[0]

    def record(self, action: Mapping[str, Any], dice) -> tuple[Event, Step]:
        """The event for performing `action` with `dice` now, and what the engine did (not yet added)."""
        before = len(dice.rolls)
        step = self.step(action, dice)
        rolls = tuple(dice.rolls[before:])
        if dice.unused():
            used = sum(len(r.faces) for r in rolls)
            which = f": {'; '.join(r.label for r in rolls)}" if rolls else ""
            raise DiceError(f"This roll uses {used} {'die' if used == 1 else 'dice'}, "
                            f"but {used + dice.unused()} were entered{which}.")
        event = Event(seq=len(self.events) + 1, kind=ACTION, summary=step.summary, action=dict(action),
                      rolls=rolls, rules=step.rules, owner=step.owner, detail=step.detail)
        return event, step

    def undo_event(self) -> Event:
        if not self.applied:
            raise RuleError("undo", "There is nothing to undo")
        last = self.applied[-1]
        return Event(seq=len(self.events) + 1, kind=UNDO, summary=f"Undo: {last.summary}",
                     rules=last.rules, target=last.seq, owner=last.owner)

    def redo_event(self) -> Event:
        if not self.undone:
            raise RuleError("redo", "There is nothing to redo")
        last = self.undone[-1]
        return Event(seq=len(self.events) + 1, kind=REDO, summary=f"Redo: {last.summary}",
                     rules=last.rules, target=last.seq, owner=last.owner)
