"""The toolkit: saving an event, and replaying a Bull Run log, each against doing the bare job."""
from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import engines
from companion.dice import RandomDice, ScriptedDice
from companion.engine import RuleError, resolve_options
from companion.events import Event, Replay
from companion.store import Store

from .harness import Benchmark

SLUG = "companion"
ROSTER = [{"name": f"{side.title()} {i}", "side": side, "entry_hex": str(i), "entry_turn": 1, "max_sp": 3}
          for side in ("UNION", "CSA") for i in range(1, 5)]


def bull_run_log(length: int, seed: int = 0) -> tuple[dict, dict, list[Event]]:
    """(options, setup, events): a solitaire game of eight brigades. Each step, a brigade of the side
    moving goes one hex by road if one still may; otherwise the first legal action without parameters."""
    engine = engines.get("bull_run")
    options, setup = resolve_options(engine.options, None), {"roster": ROSTER}
    replay, dice = Replay(engine, options, setup), RandomDice(seed=seed)
    while len(replay.events) < length:
        state = replay.state
        moves = [{"type": "move", "unit": u.name, "path": ["road"]} for u in state.units
                 if u.side == state.active and u.status == "on_map" and not u.moved]
        for action in [*moves, *({"type": kind} for kind in engine.actions.table)]:
            try:
                replay.add(replay.action_event(action, dice))
                break
            except RuleError:
                continue
        else:
            raise RuntimeError(f"the game stopped after {len(replay.events)} events")
    return options, setup, replay.events


def replay(length: int, runs: int) -> Benchmark:
    """The Replay of a log against applying its actions with their dice straight through the engine."""
    engine = engines.get("bull_run")
    options, setup, events = bull_run_log(length)
    plan = [(e.action, tuple(f for r in e.rolls for f in r.faces)) for e in events]

    def ours():
        Replay(engine, options, setup).extend(events)

    def baseline():
        state = engine.start(options, setup)
        for action, faces in plan:
            state = engine.apply(state, action, ScriptedDice(faces)).state

    return Benchmark(SLUG, "replay", ours, baseline, runs=runs, baseline_runs=runs)


def store_append(folder: Path, count: int, runs: int) -> Benchmark:
    """Store.append (a connection, a transaction and the session's 'updated' per event) against a plain
    sqlite insert+commit per event on one open connection, same folder, same WAL and synchronous=FULL."""
    store = Store(folder)
    events = bull_run_log(count)[2]
    session = {}

    def prepare():
        session["id"] = store.create("bull_run", "benchmark", {}, {}).id

    def ours():
        for event in events:
            store.append(session["id"], event)

    def baseline():
        with closing(sqlite3.connect(folder / "baseline.sqlite3")) as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("CREATE TABLE IF NOT EXISTS events (seq INTEGER, data TEXT)")
            for event in events:
                db.execute("INSERT INTO events VALUES (?, ?)", (event.seq, json.dumps(event.to_dict())))
                db.commit()

    return Benchmark(SLUG, "store_append", ours, baseline, prepare=prepare, runs=runs, baseline_runs=runs)


def benchmarks(folder: Path, events: int = 200, appends: int = 50, runs: int = 7) -> list[Benchmark]:
    return [store_append(folder, appends, runs), replay(events, runs)]
