"""Optimal play of the attacker's roll (digest section 8) on the labelled grid: every face counts apart, as the
attacker needs (its value depends on its strength face F through the defender's tie-break). All labelled trays
of up to N dice, a dense grid of (taken, left on the table) per level, one gather per move; the moves are those
of `race`, one die at a time.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb

import numpy as np

from companion.cores import each

from .tray import FACES, Trays
from .values import BINOMIAL, LIMIT, TOLERANCE, choose, stops

_RANK = np.zeros((FACES - 1, LIMIT + 1, LIMIT + 2), dtype=np.int64)
for _i in range(FACES - 1):
    for _rem in range(LIMIT + 1):
        for _v in range(_rem + 1):
            _RANK[_i, _rem, _v + 1] = _RANK[_i, _rem, _v] + comb(_rem - _v + FACES - 2 - _i, FACES - 2 - _i)


@cache
def compositions(n: int) -> np.ndarray:
    """Every count per face with n dice, in the order `rank` numbers them (first face ascending)."""
    bars = np.array(list(combinations(range(n + FACES - 1), FACES - 1)), dtype=np.int64).reshape(-1, FACES - 1)
    edges = np.column_stack([np.full(len(bars), -1), bars, np.full(len(bars), n + FACES - 1)])
    counts = np.diff(edges, axis=1) - 1
    return counts[np.argsort(rank(counts))].astype(np.int8)


def rank(counts: np.ndarray) -> np.ndarray:
    """Position of each count vector (rows) among `compositions` of its total."""
    counts = counts.astype(np.int64)
    rem = counts.sum(axis=1)
    rank = np.zeros(len(counts), dtype=np.int64)
    for i in range(FACES - 1):
        rank += _RANK[i, rem, counts[:, i]]
        rem = rem - counts[:, i]
    return rank


@cache
def _grid_maps(n: int):
    """For the throws of n dice: for each face, the rank of the throw less one die of it (sentinel if none),
    and the number of ways of each throw."""
    throws = compositions(n).astype(np.int64)
    sentinel = len(compositions(n - 1)) if n else 0
    down = np.full((FACES, len(throws)), sentinel, dtype=np.int64)
    for f in range(FACES):
        has = throws[:, f] > 0
        less = throws[has].copy()
        less[:, f] -= 1
        down[f, has] = rank(less)
    ways = np.ones(len(throws), dtype=np.int64)
    left = np.full(len(throws), n)
    for f in range(FACES):
        ways *= BINOMIAL[left, throws[:, f]]
        left = left - throws[:, f]
    return down, ways


@cache
def _grid_up(level: int) -> np.ndarray:
    """For trays of `level` confirmed dice: the rank of each with one more die of each face (face, tray)."""
    counts = compositions(level).astype(np.int64)
    return np.stack([rank(counts + np.eye(FACES, dtype=np.int64)[f]) for f in range(FACES)])


def _junk(counts: np.ndarray, n: int) -> np.ndarray:
    """(tray, face): faces that can no longer become the strength face with n more dice, but the lowest such
    face (confirming any of them is the same move)."""
    counts = counts.astype(np.int64)
    score = counts * FACES + np.arange(FACES)
    best = score.max(axis=1, keepdims=True)
    dead = (counts + n) * FACES + np.arange(FACES) < best
    return dead & (np.cumsum(dead, axis=1) > 1)


def _pairs_size(components: int, level: int, n: int) -> int:
    """Numbers in the pairs of trays of `level` confirmed dice with n to throw (a last column: no such die)."""
    return components * len(compositions(level)) * (len(compositions(n)) + 1)


class Grid:
    """Optimal play of a side whose faces all count apart (the attacker: its strength face F matters through
    the defender's tie-break), for every labelled tray of up to `top` dice. A 6 put to damage leads to the tray
    with one die fewer in all, and adds 1 to component `damage_at` (the attacker's table: components (primary,
    expected damage dice to come, P(win), P(draw))); `terminal(counts)` gives the components when no die is left.
    A roll that starts with `top` dice and ends with `level` confirmed has put top - level dice to damage, so a
    terminal may depend on them when every tray asked about belongs to that roll."""

    CELLS = 1 << 17

    def __init__(self, top: int, terminal, exact=False, damage_at: int | None = 1):
        self.top, self.exact, self.damage_at = top, exact, damage_at
        self.eps = 0 if exact else TOLERANCE
        self.values: dict[tuple[int, int], np.ndarray] = {}  # (dice in play, confirmed) -> (component, tray)
        last = terminal(compositions(top))
        arena = self._arena(len(last), last.dtype)
        above: dict[int, np.ndarray] = {}
        for level in range(top, -1, -1):
            here: dict[int, np.ndarray] = {}
            free = arena[level % 2]
            for total in range(level, top + 1):
                n = total - level
                size = _pairs_size(len(last), level, n)
                pairs, free = free[:size].reshape(len(last), len(compositions(level)), -1), free[size:]
                pairs[:, :, -1] = -np.inf
                if n == 0:
                    value = last if level == top else terminal(compositions(level))
                    pairs[:, :, 0] = value
                else:
                    value = self._layer(level, n, above[total], here[total - 1], pairs)
                self.values[total, level] = value
                here[total] = pairs
            above = here

    def _arena(self, components: int, dtype) -> list[np.ndarray]:
        """Two buffers the levels fill in turn (a level's pairs are read only by the level below), each as
        large as its largest level needs."""
        def size(level):
            return sum(_pairs_size(components, level, n) for n in range(self.top - level + 1))
        return [np.empty(max(size(level) for level in range(parity, self.top + 1, 2)), dtype=dtype)
                if parity <= self.top else None for parity in (0, 1)]

    def _layer(self, level: int, n: int, confirm: np.ndarray, damage: np.ndarray, pairs: np.ndarray) -> np.ndarray:
        """Values of the trays of `level` confirmed dice and n to throw; fills `pairs`, the values of every
        (tray, throw still on the table) pair, but its last column ("no such die")."""
        up = _grid_up(level)
        down, ways = _grid_maps(n)
        k, rows_all, cols = len(confirm), up.shape[1], down.shape[1]
        weights = ways.astype(object) * Fraction(1, 6 ** n) if self.exact else ways / 6 ** n
        value = np.empty((k, rows_all), dtype=confirm.dtype)
        counts = compositions(level)
        step = max(1, self.CELLS // cols)

        def solve(start):
            rows = np.arange(start, min(start + step, rows_all))
            best = self._moves(up[:, rows], rows, down, confirm, damage, _junk(counts[rows], n))
            here = np.stack([b @ weights for b in best])
            value[:, rows] = here
            stop = np.broadcast_to(here[:, :, None], best.shape)
            into = pairs[:, rows[0]:rows[-1] + 1, :cols]
            np.copyto(into, best)
            np.copyto(into, stop, where=stops(stop, best, self.eps))

        each(solve, range(0, rows_all, step))
        return value

    def _moves(self, up, rows, down, confirm, damage, junk) -> np.ndarray:
        """Best of taking one more die of a face (confirm) or a 6 to damage, for the trays `rows` and every
        throw still on the table: (component, tray, throw). Of the faces that can no longer become the
        strength face only the lowest is tried: confirming any of them is the same."""
        k, cols, width = len(confirm), down.shape[1], confirm.shape[2]
        moves = FACES + 1
        primary = np.empty((moves, len(rows), cols), dtype=confirm.dtype)
        for f in range(FACES):
            confirm[0].take(up[f], axis=0).take(down[f], axis=1, out=primary[f])
            primary[f][junk[:, f]] = -np.inf
        damage[0].take(rows, axis=0).take(down[FACES - 1], axis=1, out=primary[FACES])

        def flat(move, r, c):
            """Where move's values are in confirm[j] (a face) or damage[j] (the damage move), flattened."""
            return up[move, r] * width + down[move, c] if move < FACES else rows[r] * width + down[FACES - 1, c]

        where: list = [None, None]   # the cells last asked about and where each move's values are for them

        def component(j, cells):
            if where[0] is not cells:
                r, c = np.divmod(cells, cols)
                where[:] = cells, [flat(move, r, c) for move in range(moves)]
            out = np.stack([confirm[j].ravel().take(at) for at in where[1][:FACES]]
                           + [damage[j].ravel().take(where[1][FACES])])
            out[FACES] += j == self.damage_at
            return out

        choice = choose(primary.reshape(moves, -1), component, k, self.eps).reshape(len(rows), cols)
        best = np.empty((k, len(rows), cols), dtype=confirm.dtype)
        r = np.broadcast_to(np.arange(len(rows))[:, None], choice.shape)
        c = np.broadcast_to(np.arange(cols)[None, :], choice.shape)
        face = np.minimum(choice, FACES - 1)
        at = up[face, r] * width + down[face, c]
        spent = np.nonzero(choice == FACES)
        at_spent = flat(FACES, *spent)
        for j in range(k):
            confirm[j].ravel().take(at, out=best[j])
            best[j][spent] = damage[j].ravel()[at_spent] + (j == self.damage_at)
        return best


@dataclass
class GridTable:
    """What a solved grid keeps: per (dice in play, confirmed), the values of every labelled tray."""

    values: dict[tuple[int, int], np.ndarray]

    def value(self, trays: Trays) -> np.ndarray:
        counts, level = trays.confirmed, trays.confirmed.sum(axis=1)
        total = level + trays.left
        first = next(iter(self.values.values()))
        out = np.empty((len(first), len(trays.left)), dtype=first.dtype)
        for m, l in set(zip(total.tolist(), level.tolist())):
            if (m, l) not in self.values:
                raise KeyError("tray not in the table")
            at = np.flatnonzero((total == m) & (level == l))
            out[:, at] = self.values[m, l][:, rank(counts[at])]
        return out

    def arrays(self) -> dict:
        return {f"values{m}_{l}": v for (m, l), v in self.values.items()}

    @classmethod
    def from_arrays(cls, data: dict) -> GridTable:
        return cls({tuple(int(x) for x in name[6:].split("_")): data[name] for name in data
                    if name.startswith("values")})


def results(counts: np.ndarray) -> np.ndarray:
    """(S, F) of each row of confirmed counts (CMB.6, A2: F is the highest of tied faces; 0, 0 if none)."""
    counts = counts.astype(np.int64)
    s = counts.max(axis=1)
    f = FACES - np.argmax((counts == s[:, None])[:, ::-1], axis=1)
    return np.column_stack([s, np.where(s > 0, f, 0)])
