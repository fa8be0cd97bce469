"""The game engines, one package per game, and their registry.

Every engine has the same shape (DESIGN.md): rules.py (tables tagged with rule IDs), state.py,
resolve_* procedures with exact odds twins, actions, and an `ENGINE` entry collected here.
"""
from __future__ import annotations

from importlib import import_module

from companion.engine import Engine

GAMES = ("bull_run",)  # the games with an engine, in the order the landing page shows them


def registry() -> dict[str, Engine]:
    """slug -> Engine for every game with an engine."""
    return {slug: import_module(f"engines.{slug}").ENGINE for slug in GAMES}


def get(slug: str) -> Engine:
    if slug not in GAMES:
        raise KeyError(f"No game engine '{slug}'")
    return import_module(f"engines.{slug}").ENGINE
