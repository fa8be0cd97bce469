"""Fixtures of the toolkit tests: a store in a temporary folder and a short Bull Run session in it."""
from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

import engines
from companion.dice import EnteredDice, RandomDice
from companion.session import GameSession
from companion.store import Store


@pytest.fixture
def store(tmp_path) -> Store:
    return Store(tmp_path / "data")


@pytest.fixture
def rows(store):
    """() -> (session rows, event rows) in the store's database, read with a plain connection."""
    def count() -> tuple[int, int]:
        with closing(sqlite3.connect(store.path)) as db:
            return tuple(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] for table in ("sessions", "events"))
    return count


@pytest.fixture
def played(store) -> GameSession:
    """Turn 1 of Bull Run: Union initiative (a 2), no reinforcements, Farm Ford found (a 6),
    then the last move undone and redone: five events."""
    session = GameSession.new(store, "bull_run", engines.get("bull_run").example_setup(), title="Saturday")
    session.act({"type": "roll_initiative"}, EnteredDice((2,)))
    session.act({"type": "place_reinforcements"}, RandomDice(seed=1))
    session.act({"type": "farm_ford_roll"}, EnteredDice((6,)))
    session.undo()
    session.redo()
    return session
