"""Whole games played at random by legal choices, for every engine's stateful tests.

`play_whole_game` starts a session, then lets `companion.play` pick a legal action and legal parameters
from the engine's specs until no step is open (the game is over). After every step it checks the game's
own invariants, that the action took exactly the dice it rolled and did not change the state it was given,
and that undo gives back the state before it; at the end, that the log saved in the store and loaded again
replays to the same state.
"""
from __future__ import annotations

import pickle
import random
from typing import Any, Callable, Mapping

from companion.dice import RandomDice
from companion.engine import Engine, Step, resolve_options
from companion.events import Replay
from companion.play import random_action
from companion.store import Store

MAX_STEPS = 20_000  # a game that has not ended by then is a failure: something loops
Check = Callable[[Any, Mapping[str, Any], Step], None]  # (state before, action, step) -> raises if broken


def snapshot(state) -> bytes:
    """The state's saved form as bytes, to tell whether anything in it changed."""
    return pickle.dumps(state.to_dict())


def play_whole_game(engine: Engine, options: Mapping[str, Any] | None, setup: Mapping[str, Any], seed: int,
                    check: Check | None = None, store: Store | None = None) -> Replay:
    """One game from setup to its end with random legal choices and random dice; returns its replay."""
    rng = random.Random(seed)
    replay = Replay(engine, resolve_options(engine.options, options), setup)
    for _ in range(MAX_STEPS):
        before = replay.state
        frozen = snapshot(before)
        action = random_action(engine.actions, before, rng)
        if action is None:
            break
        event, step = replay.record(action, RandomDice(rng=rng))
        replay.add(event, step.state)
        assert snapshot(before) == frozen, f"{action['type']} changed the state it was given"
        if check:
            check(before, action, step)
        replay.add(replay.undo_event())
        assert replay.state is before, f"undo of {action['type']} did not restore the state"
        replay.add(replay.redo_event())
        assert replay.state is step.state, f"redo of {action['type']} did not give back the state it had made"
    else:
        raise AssertionError(f"the game did not end in {MAX_STEPS} steps (seed {seed})")
    if store is not None:
        assert_replays_from_the_store(engine, replay, store)
    return replay


def assert_replays_from_the_store(engine: Engine, replay: Replay, store: Store) -> None:
    """The log, saved and loaded again, replays to the same state."""
    record = store.create(engine.slug, "random game", replay.options, replay.setup, replay.events)
    again = Replay(engine, replay.options, replay.setup)
    again.extend(store.load(record.id).events)
    assert again.state == replay.state
