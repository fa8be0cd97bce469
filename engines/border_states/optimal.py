"""BS-CMB.5 to CMB.8 as a Markov decision problem (digest section 8): exact optimal play of the combat roll.

The defender's play against a known attacker result, and its reply as the attacker models it, are solved in face
classes (`race`); the attacker's play on the labelled grid (`grid`). This module builds the tables the advice
and the dashboard need, keeps the float ones in the data folder, and answers from them.
"""
from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

import numpy as np

from companion.store import data_dir

from .grid import Grid, GridTable, results
from .race import COUNT, REACH, Race, RaceTable, defender_states, race_rows
from .tray import FACES, Strength, Tray, Trays
from .values import LIMIT, array

# The objective of the side that maximises: weights of (win, draw) in the primary value.
OBJECTIVES = {"win_half_draw": (1, Fraction(1, 2)), "win": (1, 0), "win_or_draw": (1, 1)}
DEFAULT = "win_half_draw"

# -- tables, cached in the data folder ------------------------------------------------------------------------

CACHE_FORMAT = "table-companion/border-states-policy"
CACHE_VERSION = 1


def cache_folder() -> Path:
    return data_dir() / "cache" / "border_states"


def _cached(name: str, build):
    """The arrays of a float table: from `cache_folder()/name-vN.npz` if that file is there and current, else
    built and saved (numpy .npz, read without pickle)."""
    path = cache_folder() / f"{name}-v{CACHE_VERSION}.npz"
    try:
        with np.load(path, allow_pickle=False) as data:
            if str(data["format"]) == CACHE_FORMAT and int(data["version"]) == CACHE_VERSION:
                return {key: data[key] for key in data.files}
    except (OSError, KeyError, ValueError):
        pass
    arrays = build()
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npz", delete=False) as handle:
        np.savez(handle, format=np.array(CACHE_FORMAT), version=np.array(CACHE_VERSION), **arrays)
    os.replace(handle.name, path)
    return arrays


def _check(objective: str, dice: int):
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}: one of {', '.join(OBJECTIVES)}")
    if not 0 <= dice <= LIMIT:
        raise ValueError(f"tables are built for 0 to {LIMIT} dice, not {dice}")


@lru_cache(maxsize=8)
def _reply_table(objective: str, limit: int, exact: bool) -> RaceTable:
    """The defender's reply as the attacker models it (section 8, objective 2): for every defender of up to
    `limit` dice against every attacker result (its damage dice aside), the primary value, then P(win) and
    P(draw) of the defender's primary-optimal play that wins outright where it can. Breaking the defender's
    ties by the damage comparison would make the attacker's tables depend on its own damage dice."""

    def build():
        roots: dict = {}
        for s in range(limit + 1):
            for f in range(1, FACES + 1) if s else (0,):
                for m, states in defender_states(Trays.of([Tray(n) for n in range(limit + 1)]), Strength(s, f, 0),
                                                 False).items():
                    roots.setdefault(m, []).append(states)
        roots = {m: [np.concatenate(a) for a in zip(*parts)] for m, parts in roots.items()}
        return Race(roots, OBJECTIVES[objective], reply=True, exact=exact).table()

    if exact:
        return build()
    return RaceTable.from_arrays(_cached(f"reply-{objective}-{limit}", lambda: build().arrays()))


def _reply_values(defender_dice: int, objective: str, top: int, exact: bool) -> np.ndarray:
    """(primary, P(win), P(draw)) of the defender's reply with `defender_dice` against attacker results
    S = 0..top (index s * FACES + f - 1; S = 0 at index 0)."""
    table = _reply_table(objective, defender_dice, exact)
    out = np.zeros((3, (top + 1) * FACES), dtype=object if exact else float)
    for s in range(min(top, defender_dice) + 1):
        for f in range(1, FACES + 1) if s else (0,):
            states = defender_states(Trays.of([Tray(defender_dice)]), Strength(s, f, 0), False)[defender_dice]
            out[:, s * FACES + max(f - 1, 0)] = table.value(defender_dice, states)[:, 0]
    return out


@lru_cache(maxsize=8)
def _attacker_table(defender_dice: int, objective: str, top: int, exact: bool) -> GridTable:
    """The attacker's optimal play (section 8, objective 2) for every tray of up to `top` dice against a
    defender with `defender_dice`: components (primary, expected damage dice to come, P(win), P(draw)).
    Its ties are broken by its own expected damage dice: a simplification of the damage comparison, whose
    outcome also depends on the defender's damage dice to come."""

    def build():
        reply = _reply_values(defender_dice, objective, top, exact)

        def terminal(counts):
            result = results(counts)
            index = result[:, 0] * FACES + np.maximum(result[:, 1] - 1, 0)
            p, win, draw = reply[:, index]
            return np.stack([1 - p, 0 * p, 1 - win - draw, draw])

        return GridTable(Grid(top, terminal, exact).values)

    if exact:
        return build()
    return GridTable.from_arrays(_cached(f"attacker-{objective}-{defender_dice}-{top}",
                                          lambda: build().arrays()))


@lru_cache(maxsize=32)
def _defender_table(attacker: Strength, objective: str, dice: int, exact: bool) -> RaceTable:
    """The defender's optimal play against a known attacker result, for every tray of `dice` dice."""
    return Race(defender_states(Trays.of([Tray(dice)]), attacker, True), OBJECTIVES[objective], exact=exact).table()


# -- what the engine, the advice and the dashboard call ------------------------------------------------------

class Chances(NamedTuple):
    """One side's chances with optimal play from a tray on (Fractions when exact, else floats): win, draw and
    loss of the battle (CMB.7), its expected damage dice when its roll is over (CMB.9) and, for the
    defender, P(the marker moves toward the attacker) - P(toward the defender)."""

    win: object
    draw: object
    loss: object
    damage: object
    marker: object = None


def _total(tray: Tray) -> int:
    return tray.left + sum(tray.confirmed) + tray.damage


def _defender_values(trays: Trays, attacker: Strength, objective: str, exact: bool, origin: Tray) -> np.ndarray:
    """(primary, damage comparison, P(win), P(draw), expected damage dice to come) of each tray, from the
    table of the defender's roll that `origin` belongs to: all trays with as many dice (every one can be
    reached from the start, a die added by a card makes a new table)."""
    _check(objective, _total(origin))
    table = _defender_table(attacker, objective, _total(origin), exact)
    out = np.empty((5, len(trays.left)), dtype=object if exact else float)
    for m, (at, states) in race_rows(trays, attacker, True).items():
        out[:, at] = table.value(m, states)
    return out


def _attacker_values(trays: Trays, defender_dice: int, objective: str, exact: bool, origin: Tray) -> np.ndarray:
    """(primary, expected damage dice to come, P(win), P(draw)) of each tray of the attacker."""
    top = _total(origin)
    _check(objective, max(top, defender_dice))
    return _attacker_table(defender_dice, objective, top, exact).value(trays)


def _defender_columns(values: np.ndarray, trays: Trays) -> list[np.ndarray]:
    """The fields of `Chances` as arrays, a tray each."""
    return _columns(values[2], values[3], trays.damage.astype(values.dtype) + values[4], values[1])


def _attacker_columns(values: np.ndarray, trays: Trays) -> list[np.ndarray]:
    return _columns(values[2], values[3], trays.damage.astype(values.dtype) + values[1],
                    np.full(len(trays.left), None, dtype=object))


def _columns(win, draw, damage, marker) -> list[np.ndarray]:
    return [win, draw, 1 - win - draw, damage, marker]


def _chances(columns: list[np.ndarray]) -> list[Chances]:
    """Chances from columns, a tray each (Fractions stay Fractions)."""
    return [Chances(*row) for row in zip(*(c.tolist() for c in columns))]


def defender_chances(tray: Tray, attacker: Strength, objective: str = DEFAULT, exact: bool = False) -> Chances:
    """BS-CMB.6: the defender's chances before its next throw, playing optimally against the attacker's
    known result (objective, then the damage comparison, then P(win), P(draw), damage dice)."""
    trays = Trays.of([tray])
    return _chances(_defender_columns(_defender_values(trays, attacker, objective, exact, tray), trays))[0]


def attacker_chances(tray: Tray, defender_dice: int, objective: str = DEFAULT, exact: bool = False) -> Chances:
    """BS-CMB.5: the attacker's chances before its next throw, both sides playing optimally, the defender
    (with `defender_dice`, public after CMB.4) replying to the attacker's result (section 8, objective 2)."""
    trays = Trays.of([tray])
    return _chances(_attacker_columns(_attacker_values(trays, defender_dice, objective, exact, tray), trays))[0]


def full_policy(dice: int = LIMIT, objective: str = DEFAULT) -> None:
    """Build, or load from the data folder, what advice needs before the defender rolls in a battle of up to
    `dice` dice a side: the defender's replies to every attacker result and the attacker's table."""
    _attacker_table(dice, objective, dice, False)


@dataclass(frozen=True)
class SupplyGrid:
    """CMB.4: the attacker's P(win) and P(draw), both sides playing optimally, for each number of supply dice
    the attacker adds (rows, 0..) and the defender adds (columns, 0..)."""

    attacker_dice: int
    defender_dice: int
    win: tuple
    draw: tuple


def supply_grid(attacker_dice: int, defender_dice: int, attacker_supply: int, defender_supply: int,
                objective: str = DEFAULT, exact: bool = False) -> SupplyGrid:
    """The heatmap before CMB.4 from the dice each side has after the start of combat and the most supply
    dice each may add."""
    top = attacker_dice + attacker_supply
    columns = []
    for y in range(defender_supply + 1):
        values = _attacker_values(Trays.of([Tray(attacker_dice + x) for x in range(attacker_supply + 1)]),
                                  defender_dice + y, objective, exact, Tray(top))
        columns.append(values)
    return SupplyGrid(attacker_dice, defender_dice,
                      tuple(tuple(c[2].tolist()[x] for c in columns) for x in range(attacker_supply + 1)),
                      tuple(tuple(c[3].tolist()[x] for c in columns) for x in range(attacker_supply + 1)))


# -- opponent-blind tables and strength distributions (section 8, objective 3) ---------------------------------

POLICIES = {
    "optimal": "maximise the expected strength (ties: the better chance of the largest sets)",
    "greedy": "keep every die of the face that makes the largest set with the dice already confirmed "
              "(ties: the face with more dice in the throw)",
    "most_common": "keep every die of the face thrown most often (ties: the face with more dice confirmed)",
}


def _count_roots(limit: int) -> dict:
    return {n: [np.full((1, FACES), COUNT, np.int8), np.zeros((1, FACES), np.int16), np.zeros(1, np.int16),
                np.zeros(1, bool), np.zeros(1, bool)] for n in range(limit + 1)}


def _tails(limit: int, exact: bool):
    """Terminal values (S, [S >= limit], ..., [S >= 1]) of strengths S."""

    def value(s):
        return array(np.vstack([s[None, :], s[None, :] >= np.arange(limit, 0, -1)[:, None]]).astype(int), exact)

    return value


def _greedy(lev, t):
    return np.argmax(np.where(t >= 1, (lev + t) * 32 + t, -1), axis=1)


def _most_common(lev, t):
    return np.argmax(np.where(t >= 1, t * 32 + lev, -1), axis=1)


@lru_cache(maxsize=16)
def _strength_table(limit: int, policy: str, exact: bool) -> RaceTable:
    rule = {"optimal": None, "greedy": _greedy, "most_common": _most_common}[policy]
    return Race(_count_roots(limit), exact=exact, strength_value=_tails(limit, exact), policy=rule).table()


@lru_cache(maxsize=4)
def _at_least_table(limit: int, exact: bool) -> RaceTable:
    roots: dict = {}
    for target in range(1, limit + 1):
        for n in range(limit + 1):
            states = [np.full((1, FACES), REACH, np.int8), np.full((1, FACES), target, np.int16),
                      np.zeros(1, np.int16), np.zeros(1, bool), np.zeros(1, bool)]
            roots.setdefault(n, []).append(states)
    roots = {m: [np.concatenate(a) for a in zip(*parts)] for m, parts in roots.items()}
    return Race(roots, (1, 0), reply=True, exact=exact).table()


def _strength_values(dice: int, policy: str, exact: bool) -> np.ndarray:
    _check(DEFAULT, dice)
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}: one of {', '.join(POLICIES)}")
    return _strength_table(LIMIT if not exact else dice, policy, exact).value(dice, _count_roots(dice)[dice])[:, 0]


def prepare() -> None:
    """The strength tables of every policy (BS-CMB), which the odds tab would otherwise build when it is first opened
    (about 0.4 s)."""
    for policy in POLICIES:
        _strength_table(LIMIT, policy, False)


def max_expected_strength(dice: int, exact: bool = False):
    """The largest expected strength S (CMB.6) a side of `dice` dice can play for."""
    return _strength_values(dice, "optimal", exact).tolist()[0]


def max_chance_strength_at_least(dice: int, target: int, exact: bool = False):
    """The largest P(S >= target) a side of `dice` dice can play for (each target on its own)."""
    _check(DEFAULT, dice)
    if target <= 0:
        return Fraction(1) if exact else 1.0
    if target > dice:
        return Fraction(0) if exact else 0.0
    table = _at_least_table(LIMIT if not exact else dice, exact)
    states = [np.full((1, FACES), REACH, np.int8), np.full((1, FACES), target, np.int16), np.zeros(1, np.int16),
              np.zeros(1, bool), np.zeros(1, bool)]
    return table.value(dice, states).tolist()[0][0]


def strength_distribution(dice: int, policy: str = "optimal", exact: bool = False) -> dict[int, object]:
    """S -> P(S) for a side of `dice` dice playing one of `POLICIES` (6s always confirmed)."""
    values = _strength_values(dice, policy, exact).tolist()
    limit = len(values) - 1
    tails = {k: values[1 + limit - k] for k in range(1, limit + 1)}
    tails[0], tails[limit + 1] = values[0] * 0 + 1, values[0] * 0
    return {s: tails[s] - tails[s + 1] for s in range(dice + 1)}
