"""The game engines, one package per game, and their registry.

Every engine has the same shape (DESIGN.md): rules.py (tables tagged with rule IDs), state.py,
resolve_* procedures with exact odds twins, actions, and an `ENGINE` entry collected here.
"""
from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec

from companion.engine import Engine

CATALOGUE = (  # the five games of the companion (DESIGN.md), in the order the landing page shows them
    ("bull_run", "Battle at Bull Run", "Hex minigame, solitaire or 2 players"),
    ("dixie", "Dixie: Gettysburg", "2-player card battle"),
    ("border_states", "灰に硝煙と青き天 -南北戦争-",
     "Gunsmoke on the Grey, Blue Heaven: 2 players, border states, push-your-luck dice combat"),
    ("house_divided", "A House Divided (advanced rules)", "2 players, strategic Civil War"),
    ("galactic_chess", "Galactic Chess Game", "3-5 players, heroic history v2.01"),
)

# The games with an engine: a package engines/<slug>/ (with its __init__.py) registers its game.
GAMES = tuple(slug for slug, _, _ in CATALOGUE
              if (spec := find_spec(f"engines.{slug}")) is not None and spec.origin is not None)


def registry() -> dict[str, Engine]:
    """slug -> Engine for every game with an engine."""
    return {slug: import_module(f"engines.{slug}").ENGINE for slug in GAMES}


def get(slug: str) -> Engine:
    if slug not in GAMES:
        raise KeyError(f"No game engine '{slug}'")
    return import_module(f"engines.{slug}").ENGINE
