"""The event log: undo and redo as events, replay from the log, and logs that must be refused."""
from __future__ import annotations

import json
from dataclasses import dataclass, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice import ENTERED, RANDOM, DiceError, EnteredDice, RandomDice, Roll, ScriptedDice
from companion.engine import Actions, Engine, RuleError, Step
from companion.events import ACTION, REDO, UNDO, Event, Replay
from companion.records import from_data, to_data


@dataclass(frozen=True)
class Tally:
    """A one-line game: throw a d6 and add it, or add a fixed amount."""

    total: int = 0
    throws: tuple[int, ...] = ()

    def to_dict(self) -> dict:
        return to_data(self)


actions = Actions("T-1")


@actions
def throw(state: Tally, dice) -> Step:
    face = dice.d(6, "throw (T-2)")
    return Step(replace(state, total=state.total + face, throws=state.throws + (face,)), f"threw {face}", ("T-2",))


@actions
def add(state: Tally, dice, by: int = 1) -> Step:
    if isinstance(by, bool) or not isinstance(by, int) or by < 1:
        raise RuleError("T-3", "add a whole number, 1 or more")
    return Step(replace(state, total=state.total + by), f"added {by}", ("T-3",))


TALLY = Engine(slug="tally", title="Tally", players="1", sides=("solo",),
               rules={"T-1": "turn", "T-2": "throw", "T-3": "add"}, options=(), procedures=(), actions=actions,
               new_state=lambda options, setup: Tally(setup["start"]),
               state_from_dict=lambda data: from_data(Tally, data), example_setup=lambda: {"start": 0})


def new_replay(start: int = 0) -> Replay:
    return Replay(TALLY, {}, {"start": start})


def act(replay: Replay, action: dict, dice=None) -> Event:
    event = replay.action_event(action, dice or RandomDice(seed=len(replay.events)))
    replay.add(event)
    return event


def snapshot(replay: Replay):
    return replay.state, list(replay.events), list(replay.applied), list(replay.undone)


def test_undo_and_redo_are_events():
    replay = new_replay(10)
    act(replay, {"type": "add", "by": 5})
    replay.add(replay.undo_event())
    assert replay.state == Tally(10)
    replay.add(replay.redo_event())
    assert replay.state == Tally(15)
    assert [(e.seq, e.kind, e.target) for e in replay.events] == [(1, ACTION, None), (2, UNDO, 1), (3, REDO, 1)]
    assert [e.summary for e in replay.events] == ["added 5", "Undo: added 5", "Redo: added 5"]
    assert replay.events[1].rules == replay.events[2].rules == ("T-3",)


def test_the_history_keeps_undone_moves():
    replay = new_replay()
    act(replay, {"type": "throw"}, ScriptedDice((4,)))
    act(replay, {"type": "add", "by": 2})
    replay.add(replay.undo_event())
    replay.add(replay.undo_event())
    assert replay.state == Tally(0)
    assert [e.kind for e in replay.events] == [ACTION, ACTION, UNDO, UNDO]
    assert [e.seq for e in replay.undone] == [2, 1]
    assert replay.applied == []


def test_redo_replays_the_recorded_dice():
    replay = new_replay()
    act(replay, {"type": "throw"}, ScriptedDice((4,)))
    replay.add(replay.undo_event())
    replay.add(replay.redo_event())
    assert replay.state == Tally(4, (4,))


def test_a_new_action_clears_the_redo_stack():
    replay = new_replay()
    act(replay, {"type": "add", "by": 1})
    replay.add(replay.undo_event())
    act(replay, {"type": "add", "by": 3})
    assert replay.undone == []
    with pytest.raises(RuleError, match="nothing to redo"):
        replay.redo_event()


def test_nothing_to_undo():
    with pytest.raises(RuleError, match="nothing to undo"):
        new_replay().undo_event()


OPS = st.lists(st.one_of(st.just("undo"), st.just("redo"), st.just("throw"), st.integers(1, 9)), max_size=25)


@settings(max_examples=150, deadline=None)
@given(ops=OPS, seed=st.integers(0, 1000))
def test_replay_from_the_log_equals_the_live_state(ops, seed):
    """Live play against a model (a stack of applied and of undone effects); then the log, through
    JSON, replayed from scratch gives the same state."""
    live, dice = new_replay(), RandomDice(seed=seed)
    applied, undone = [], []
    for op in ops:
        if op == "undo" and applied:
            live.add(live.undo_event())
            undone.append(applied.pop())
        elif op == "redo" and undone:
            live.add(live.redo_event())
            applied.append(undone.pop())
        elif op == "throw":
            event = act(live, {"type": "throw"}, dice)
            applied.append(event.rolls[0].faces[0])
            undone.clear()
        elif isinstance(op, int):
            act(live, {"type": "add", "by": op})
            applied.append(op)
            undone.clear()
    assert live.state.total == sum(applied)
    log = [Event.from_dict(json.loads(json.dumps(e.to_dict()))) for e in live.events]
    again = new_replay()
    again.extend(log)
    assert again.state == live.state
    assert again.events == live.events
    assert [e.seq for e in again.undone] == [e.seq for e in live.undone]


def test_each_event_records_only_the_dice_of_its_own_action():
    replay, dice = new_replay(), RandomDice(seed=4)
    first = act(replay, {"type": "throw"}, dice)
    second = act(replay, {"type": "add", "by": 2}, dice)
    third = act(replay, {"type": "throw"}, dice)
    assert [len(e.rolls) for e in (first, second, third)] == [1, 0, 1]
    assert replay.state.throws == (first.rolls[0].faces[0], third.rolls[0].faces[0])


@pytest.mark.parametrize("sources, physical", [
    ((), False),
    ((RANDOM,), False),
    ((ENTERED,), True),
    ((RANDOM, ENTERED), True),
])
def test_an_event_is_physical_when_a_player_entered_its_dice(sources, physical):
    rolls = tuple(Roll("r", 6, (3,), s) for s in sources)
    assert Event(1, ACTION, "x", {"type": "throw"}, rolls).physical is physical


def test_entered_dice_make_a_physical_event():
    replay = new_replay()
    assert act(replay, {"type": "throw"}, EnteredDice((5,))).physical
    assert not act(replay, {"type": "throw"}, RandomDice(seed=1)).physical


def test_more_entered_dice_than_the_action_uses_are_refused():
    replay = new_replay()
    with pytest.raises(DiceError, match="This roll uses 1 die, but 2 were entered"):
        replay.action_event({"type": "throw"}, EnteredDice((5, 2)))
    assert replay.events == [] and replay.state == Tally(0)


def test_an_event_round_trips_through_a_dict():
    event = Event(3, ACTION, "threw 5", {"type": "throw"}, (Roll("throw", 6, (5,), ENTERED),), ("T-2",), None, "t")
    assert Event.from_dict(json.loads(json.dumps(event.to_dict()))) == event


@pytest.mark.parametrize("data, message", [
    ({"seq": 1, "kind": "shuffle", "summary": ""}, "event 1: unknown kind 'shuffle'"),
    ({"seq": 1, "kind": UNDO, "summary": "", "action": {"type": "throw"}, "target": 1}, "only an action event"),
    ({"seq": 1, "kind": ACTION, "summary": ""}, "only an action event"),
])
def test_a_malformed_event_is_refused(data, message):
    with pytest.raises(ValueError, match=message):
        Event.from_dict(data)


def roll(*faces: int) -> tuple[Roll, ...]:
    return (Roll("throw", 6, faces, RANDOM),)


# A valid log: add 1, throw 4, undo the throw. Each case below adds one event that does not fit.
PREFIX = [Event(1, ACTION, "added 1", {"type": "add", "by": 1}),
          Event(2, ACTION, "threw 4", {"type": "throw"}, roll(4)),
          Event(3, UNDO, "Undo", target=2)]


@pytest.mark.parametrize("event, error, message", [
    (Event(5, ACTION, "added 1", {"type": "add"}), ValueError, "event 5 is out of order: expected 4"),
    (Event(3, ACTION, "added 1", {"type": "add"}), ValueError, "out of order"),
    (Event(4, UNDO, "Undo", target=2), ValueError, "undoes 2, which is not the latest action"),
    (Event(4, REDO, "Redo", target=1), ValueError, "redoes 1, which is not the latest undone action"),
    (Event(4, ACTION, "threw 4", {"type": "throw"}, roll(4, 4)), ValueError, "recorded more dice than its action uses"),
    (Event(4, ACTION, "threw", {"type": "throw"}), DiceError, "needs 1 d6"),
    (Event(4, ACTION, "threw 9", {"type": "throw"}, roll(9)), DiceError, "9 is not a face of a d6"),
    (Event(4, ACTION, "added 0", {"type": "add", "by": 0}), RuleError, "T-3"),
    (Event(4, ACTION, "flipped", {"type": "flip"}), RuleError, "There is no action 'flip'"),
], ids=["gap", "repeat", "undo-not-latest", "redo-not-undone", "extra-die", "missing-die", "bad-face", "illegal",
        "unknown"])
def test_an_inconsistent_log_is_refused_and_changes_nothing(event, error, message):
    replay = new_replay()
    replay.extend(PREFIX)
    before = snapshot(replay)
    with pytest.raises(error, match=message):
        replay.add(event)
    assert snapshot(replay) == before
    assert replay.state == Tally(1)
