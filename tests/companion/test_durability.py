"""Nothing confirmed is lost: a process playing a game through the session and the store is killed with
SIGKILL at random moments, some inside the append transaction (paused there by a trace of its SQL), and
after each restart every event it had confirmed is in the store, the database passes its integrity check,
and the game replays."""
from __future__ import annotations

import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
from contextlib import closing
from pathlib import Path

import pytest

from companion.session import GameSession
from companion.store import Store

ROOT = Path(__file__).resolve().parents[2]

# The player: opens (or starts) the one game in the folder and plays legal actions at random, printing each
# event's seq once `act` has returned (the page shows it as done at that moment). With a pause, every
# INSERT of an event sleeps inside its transaction, before the commit, and says so.
PLAYER = textwrap.dedent("""
    import random, sys, time
    import engines
    from companion.dice import RandomDice
    from companion.play import random_action
    from companion.session import GameSession
    from companion.store import Store

    folder, seed, pause = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    connect = Store._connect
    def traced(self):
        db = connect(self)
        def trace(sql):
            if pause and sql.startswith("INSERT INTO events"):
                print("inside", flush=True)
                time.sleep(pause)
        db.set_trace_callback(trace)
        return db
    Store._connect = traced
    store = Store(folder)
    saved = store.sessions()
    session = (GameSession.open(store, saved[0]["id"]) if saved else
               GameSession.new(store, "bull_run", engines.get("bull_run").example_setup()))
    rng = random.Random(seed)
    print("ready", flush=True)
    while True:
        action = random_action(session.engine.actions, session.state, rng)
        if action is None:
            print("over", flush=True)
            break
        event = session.act(action, RandomDice(rng=rng))
        print(f"confirmed {event.seq}", flush=True)
""")


def play_until_killed(folder: Path, seed: int, inside: bool, after: int) -> set[int]:
    """Run the player and SIGKILL it once it has confirmed `after` events: then at once, or (`inside`) while it
    is paused inside the next append transaction, before its commit. The seqs it confirmed."""
    proc = subprocess.Popen([sys.executable, "-c", PLAYER, str(folder), str(seed), "0.3" if inside else "0"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    confirmed: set[int] = set()
    try:
        for line in proc.stdout:
            if line.startswith("confirmed"):
                confirmed.add(int(line.split()[1]))
            if line.strip() == "over" or (len(confirmed) >= after and (not inside or line.strip() == "inside")):
                break
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    assert "Traceback" not in proc.stderr.read()
    return confirmed


@pytest.mark.parametrize("seed", range(3))
def test_sigkill_at_random_moments_loses_no_confirmed_event(tmp_path, seed):
    rng = random.Random(seed)
    folder = tmp_path / "games"
    confirmed: set[int] = set()
    for round_ in range(8):
        confirmed |= play_until_killed(folder, seed * 100 + round_, inside=round_ % 2 == 1, after=rng.randint(0, 6))
        store = Store(folder)
        with closing(sqlite3.connect(store.path)) as db:
            assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        [saved] = store.sessions()
        session = GameSession.open(store, saved["id"])
        assert confirmed <= {e.seq for e in session.events} and not session.stranded
    assert len(confirmed) >= 8
