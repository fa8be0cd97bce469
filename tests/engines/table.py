"""A game session replayed from its event log, with the dice of every action scripted: the part of each game's
test `Table` that is the same for every engine."""
from __future__ import annotations

from typing import Any

import pytest

from companion.dice import ScriptedDice
from companion.engine import Engine, RuleError, Step, resolve_options
from companion.events import Event, Replay


class ReplayedTable:
    """Actions done one by one through the event log; `refuse` checks an illegal one changes nothing."""

    engine: Engine

    def __init__(self, setup: dict, **options: Any):
        self.replay = Replay(self.engine, resolve_options(self.engine.options, options), setup)

    @property
    def state(self):
        return self.replay.state

    @property
    def events(self) -> list[Event]:
        return self.replay.events

    def do(self, kind: str, *faces: int, **params: Any) -> Step:
        """Perform one action with exactly these dice and log it; returns what the engine did."""
        action = {"type": kind, **params}
        step = self.replay.step(action, ScriptedDice(faces))
        self.replay.add(self.replay.action_event(action, ScriptedDice(faces)))
        return step

    def refuse(self, rule: str, kind: str, *faces: int, **params: Any) -> RuleError:
        """The action is illegal under `rule` and changes nothing."""
        before = self.state.to_dict()
        count = len(self.replay.events)
        with pytest.raises(RuleError) as caught:
            self.do(kind, *faces, **params)
        assert caught.value.rule == rule, caught.value
        assert self.state.to_dict() == before
        assert len(self.replay.events) == count
        return caught.value


def transcript_line(event: Event) -> str:
    """One event of a golden transcript: its summary, its rule IDs and each roll's label with its faces."""
    dice = "; ".join(f"{roll.label}: {' '.join(map(str, roll.faces))}" for roll in event.rolls)
    return f"{event.seq:02d} {event.summary} [{', '.join(event.rules)}]" + (f" dice: {dice}" if dice else "")
