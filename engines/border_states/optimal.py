"""BS-CMB.5 to CMB.8 as a Markov decision problem (digest section 8): exact optimal play of one side's roll.

A side throws all the dice it has left and takes a non-empty sub-multiset of the throw (each 6 taken either
confirmed or put to damage). Any take is a sequence of single dice, so the value of a throw is computed one die
at a time: after taking some dice, either stop (the rest is thrown again) or take one more die. A pair (dice
taken so far, dice of the throw still on the table) therefore has at most 8 moves, and the best of every one
of the 2^k sub-multisets is found without listing them: this is the exact maximum over `tray.legal_keeps`.

Two engines share that recurrence:

- `_Race` works in face classes. Against a known attacker result (S_a, F_a) a face needs a number of dice
  (its *distance*: S_a to win for a face above F_a, S_a + 1 for one below, and F_a draws at S_a and wins at
  S_a + 1); faces of the same class and distance are interchangeable, a face that cannot cover its distance
  with the dice left is junk, and a state is the multiset of distances. A state and a pair are keyed by a sum
  of random 64-bit codes, which does not depend on the order of the faces. The same engine, with faces
  counting up instead of down, gives the opponent-blind strength tables.
- `_Grid` keeps every face apart, as the attacker needs (its value depends on its strength face F through the
  defender's tie-break): all labelled trays of up to N dice, a dense grid of (taken, left on the table) per
  level, one gather per move.

Values are vectors compared lexicographically (primary first); with floats every comparison allows
`TOLERANCE`, so rounding noise never decides a tie. With `Fraction` everything is exact.
"""
from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import comb
from pathlib import Path
from typing import NamedTuple

import numpy as np

from companion.cores import each, start
from companion.store import data_dir

from .tray import FACES, Strength, Tray

TOLERANCE = 1e-9
LIMIT = 16  # the most dice a table is built for (digest section 8: a side fields about 13)

# The objective of the side that maximises: weights of (win, draw) in the primary value.
OBJECTIVES = {"win_half_draw": (1, Fraction(1, 2)), "win": (1, 0), "win_or_draw": (1, 1)}
DEFAULT = "win_half_draw"

# Face classes of the race engine.
EMPTY, REACH, TIE, SIX, SIX_TIE, SPENT, COUNT = range(7)
GOAL = (REACH, TIE, SIX, SIX_TIE)  # count down to 0 = the face has won
SIXES = (SIX, SIX_TIE, SPENT)  # the 6: it may also go to damage
TIES = (TIE, SIX_TIE)  # the attacker's strength face: one die short draws, so it lives one die longer
AHEAD, BEHIND = 1, -100  # damage-dice comparison already settled (CMB.9)
LEVELS = LIMIT + 2


def _table(classes) -> np.ndarray:
    out = np.zeros(7, dtype=bool)
    out[list(classes)] = True
    return out


IS_GOAL, IS_SIX, IS_TIE, IS_MOVABLE = _table(GOAL), _table(SIXES), _table(TIES), _table(GOAL + (COUNT,))
IS_REACH_ONLY, IS_CAPPED = _table((REACH, SIX)), _table((REACH, TIE))

_rng = np.random.default_rng(20260509)
_PAIR_CODE = _rng.integers(0, 2 ** 64, size=(7, LEVELS, LIMIT + 1), dtype=np.uint64, endpoint=False)
_PAIR_CODE[EMPTY] = 0
_FLAT_CODE = _PAIR_CODE.ravel()
_STATE_CODE = _rng.integers(0, 2 ** 64, size=(7, LEVELS), dtype=np.uint64, endpoint=False)
_STATE_CODE[EMPTY] = 0
_DELTA_CODE = _rng.integers(0, 2 ** 64, size=LIMIT + 3, dtype=np.uint64, endpoint=False)
_WON_CODE, _BASE_CODE = _rng.integers(0, 2 ** 64, size=2, dtype=np.uint64, endpoint=False)
_BINOMIAL = np.array([[comb(n, k) for k in range(LIMIT + 1)] for n in range(LIMIT + 1)], dtype=np.int64)


def _code_base(cls, lev) -> np.ndarray:
    """Index in _FLAT_CODE of (class, level, 0 dice thrown); add the dice thrown."""
    return (np.asarray(cls, dtype=np.int64) * LEVELS + lev) * (LIMIT + 1)


def _delta_index(delta: np.ndarray) -> np.ndarray:
    return np.where(delta == AHEAD, 0, np.where(delta == BEHIND, 1, 2 - delta.astype(np.int64)))


def _settle(delta: np.ndarray, m: int) -> np.ndarray:
    """CMB.9 from the defender's side: ahead once it has more damage dice, behind once m dice cannot catch up."""
    delta = delta.astype(np.int16)
    return np.where(delta == BEHIND, BEHIND, np.where(delta >= 1, AHEAD, np.where(delta < -m, BEHIND, delta)))


def _array(values, exact: bool) -> np.ndarray:
    return np.array(values, dtype=object if exact else float)


def _lex_greater(a: np.ndarray, b: np.ndarray, eps) -> np.ndarray:
    """a > b lexicographically over axis 0 (the components), each component compared within eps."""
    greater = a[-1] > b[-1] + eps
    for k in range(len(a) - 2, -1, -1):
        greater = (a[k] > b[k] + eps) | ((abs(a[k] - b[k]) <= eps) & greater)
    return greater


# For a byte of flags (bit i: candidate i is within eps of the best): the first such candidate, and whether
# there are several.
_FIRST = np.array([(c & -c).bit_length() - 1 if c else 0 for c in range(256)], dtype=np.int64)
_SEVERAL = np.array([c & (c - 1) != 0 for c in range(256)])


def _choose(primary: np.ndarray, component, components: int, eps) -> np.ndarray:
    """Index of the best candidate (at most 8) in each column of `primary` (candidate, column; -inf: no such
    candidate), the first of equals. Candidates within eps of the largest primary are narrowed component by
    component, each within eps of its largest; component(k, columns) gives component k of every candidate in
    those columns."""
    floor = primary.max(axis=0) - eps
    flags = np.zeros(primary.shape[1], dtype=np.uint8)
    for i, row in enumerate(primary):
        flags |= (row >= floor).view(np.uint8) << np.uint8(i)
    choice = _FIRST.take(flags)
    tied = np.flatnonzero(_SEVERAL.take(flags))
    alive = (flags[tied] >> np.arange(len(primary), dtype=np.uint8)[:, None]) & 1 == 1
    for k in range(1, components):
        if not len(tied):
            break
        values = np.where(alive, component(k, tied), -np.inf)
        alive &= values >= values.max(axis=0) - eps
        choice[tied] = alive.argmax(axis=0)
        several = alive.sum(axis=0) > 1
        tied, alive = tied[several], alive[:, several]
    return choice


def _stops(stop: np.ndarray, go: np.ndarray, eps) -> np.ndarray:
    """Where stopping is lexicographically better than going on (components first); ties go on."""
    gap = stop[0] - go[0]
    better = gap > eps
    tied = np.nonzero(abs(gap) <= eps)
    if len(tied[0]) and len(stop) > 1:
        better[tied] = _lex_greater(stop[(slice(None),) + tied], go[(slice(None),) + tied], eps)
    return better


class _Index:
    """Where each of a set of distinct 64-bit keys is: a linear-probing table built in one pass. Sorted by home
    slot (their low bits), the keys take the next free slot in turn; the table runs past its last key, so a
    probe never wraps. A slot holds a key and its position + 1 side by side (0: empty)."""

    def __init__(self, keys: np.ndarray):
        bits = np.uint64(max(4, (2 * len(keys)).bit_length()))
        order = np.argsort((keys << np.uint64(64) - bits) | (keys >> bits))  # by home slot, then by key
        keys = keys[order]
        if (keys[1:] == keys[:-1]).any():
            raise RuntimeError("hash collision in the race table")
        self.mask = np.uint64((1 << int(bits)) - 1)
        home, rank = (keys & self.mask).astype(np.int64), np.arange(len(keys))
        slot = rank + np.maximum.accumulate(home - rank) if len(keys) else rank
        self.slots = np.zeros((int(slot[-1]) + 2 if len(keys) else 1, 2), dtype=np.uint64)
        flat = self.slots.reshape(-1)
        flat[2 * slot], flat[2 * slot + 1] = keys, order + 1

    def __call__(self, queries: np.ndarray) -> np.ndarray:
        where = (queries & self.mask).astype(np.int64)
        slot = self.slots.take(where, axis=0)
        found = slot[:, 1].astype(np.int64) - 1
        pending = np.flatnonzero((slot[:, 0] != queries) & (found >= 0))
        where = where[pending]
        while len(pending):
            where += 1
            slot = self.slots.take(where, axis=0)
            found[pending] = slot[:, 1].astype(np.int64) - 1
            miss = (slot[:, 0] != queries[pending]) & (slot[:, 1] > 0)
            pending, where = pending[miss], where[miss]
        if (found < 0).any():
            raise KeyError("state not in the table")
        return found


def _distinct(key: np.ndarray, *columns) -> tuple[np.ndarray, np.ndarray]:
    """(order by key, start of each run of equal keys), checking that equal keys stand for equal rows."""
    order = np.argsort(key, kind="stable")
    same = key[order][1:] == key[order][:-1]
    if same.any():
        exact = np.column_stack([c.reshape(len(key), -1) for c in columns])[order]
        if (exact[1:][same] != exact[:-1][same]).any():
            raise RuntimeError("hash collision in the race table")
    return order, np.flatnonzero(np.r_[True, ~same][:len(key)])


def _canon(cls, lev, delta, won, base, m: int, reply: bool):
    """Race states at m dice to throw in canonical form: goals reached, dead faces (junk, or a spent 6), the
    damage comparison settled, faces sorted. Returns the arrays and the state keys."""
    cls, lev = cls.astype(np.int8), lev.astype(np.int16)
    goal = np.isin(cls, GOAL)
    won = won | (goal & (lev <= 0)).any(axis=1)
    dead = (np.isin(cls, (REACH, SIX)) & (lev > m)) | (np.isin(cls, TIES) & (lev > m + 1)) | won[:, None]
    cls = np.where(dead & np.isin(cls, SIXES), SPENT, np.where(dead, EMPTY, cls)).astype(np.int8)
    lev = np.where(np.isin(cls, (EMPTY, SPENT)), 0, lev).astype(np.int8)
    delta = np.zeros_like(delta) if reply else _settle(delta, m)
    base = base & ~won
    order = np.argsort(cls.astype(np.int16) * 32 + lev, axis=1, kind="stable")
    cls, lev = np.take_along_axis(cls, order, 1), np.take_along_axis(lev, order, 1)
    return cls, lev, delta, won, base, _state_key(cls, lev, delta, won, base)


def _state_key(cls, lev, delta, won, base):
    return _STATE_CODE[cls, lev].sum(axis=1, dtype=np.uint64) + _extra(delta, won, base)


def _extra(delta, won, base):
    return (_DELTA_CODE[_delta_index(delta)] + _WON_CODE * won.astype(np.uint64)
            + _BASE_CODE * base.astype(np.uint64))


@dataclass
class _Layer:
    """The states with m dice to throw (sorted by key), their throws (pairs, sorted by key) and values."""

    m: int
    cls: np.ndarray
    lev: np.ndarray
    delta: np.ndarray
    won: np.ndarray
    base: np.ndarray
    key: np.ndarray
    parent: np.ndarray = None
    t: np.ndarray = None
    weight: np.ndarray = None
    pairs: _Index = None
    value: np.ndarray = None
    pair_value: np.ndarray = None

    def state_index(self, keys) -> np.ndarray:
        return _find(self.key, keys)

    def forget(self):
        """Drop what only the layer above needed while it was solved."""
        self.parent = self.t = self.weight = self.pairs = self.pair_value = self.plan = self.grouped = None


def _find(sorted_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    at = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
    if not (sorted_keys[at] == keys).all():
        raise KeyError("state not in the table")
    return at


@dataclass
class _RaceTable:
    """What a solved race keeps: per number of dice to throw, the sorted state keys and their values."""

    reply: bool
    layers: dict[int, tuple[np.ndarray, np.ndarray]]

    def value(self, m: int, states) -> np.ndarray:
        """Values (component, state) of race states (unsettled arrays) with m dice to throw."""
        if m not in self.layers:
            raise KeyError("state not in the table")
        keys, values = self.layers[m]
        return values[:, _find(keys, _canon(*states, m, self.reply)[-1])]

    def arrays(self) -> dict:
        out = {"reply": np.array(self.reply)}
        for m, (keys, values) in self.layers.items():
            out[f"keys{m}"], out[f"values{m}"] = keys, values
        return out

    @classmethod
    def from_arrays(cls, data: dict) -> _RaceTable:
        layers = {int(name[4:]): (data[name], data["values" + name[4:]]) for name in data if name.startswith("keys")}
        return cls(bool(data["reply"]), layers)


class _Race:
    """Optimal play of one side in face classes, for every state reachable from the roots.

    `reply`: the defender's reply as the attacker models it: components (primary, P(win), P(draw)); a throw that
    completes a goal ends the problem. Otherwise the defender's own play with the 6 apart: components (primary,
    damage comparison, P(win), P(draw), expected damage dice to come), and play goes on after a win for the
    damage dice. `strength_value`: faces count up and the terminal value is strength_value(S) (opponent-blind)."""

    CHUNK = 1 << 16  # throws solved at a time
    STATES = 64  # states whose throws are listed at a time

    def __init__(self, roots: dict, weights=(1, 0), reply=False, exact=False, strength_value=None, policy=None):
        self.reply, self.exact, self.strength_value = reply, exact, strength_value
        self.full = not reply and strength_value is None
        self.win_weight, self.draw_weight = (Fraction(w) if exact else float(w) for w in weights)
        self.eps = 0 if exact else TOLERANCE
        self.layers: dict[int, _Layer] = {}
        self._close(roots)
        order = sorted(self.layers)
        listed = start(self._throws, self.layers[order[0]])
        for i, m in enumerate(order):
            listed.result()
            if i + 1 < len(order):  # the next layer's throws are listed while this one is solved
                listed = start(self._throws, self.layers[order[i + 1]])
            if policy is None:
                self._solve(self.layers[m])
            else:
                self._follow(self.layers[m], policy)
            if m - 1 in self.layers:
                self.layers[m - 1].forget()

    def table(self) -> _RaceTable:
        return _RaceTable(self.reply, {m: (layer.key, layer.value) for m, layer in self.layers.items()})

    # -- structure -------------------------------------------------------------------------------------------
    def _layer(self, m, cls, lev, delta, won, base) -> _Layer:
        cls, lev, delta, won, base, key = _canon(cls, lev, delta, won, base, m, self.reply)
        order, start = _distinct(key, cls, lev, delta, won, base)
        keep = order[start]
        return _Layer(m, cls[keep], lev[keep], delta[keep], won[keep], base[keep], key[keep])

    def _moves(self, layer: _Layer):
        """State-level successors at m - 1 of each state: every face taken (confirmed), a 6 to damage, junk."""
        s = len(layer.key)
        cls = np.repeat(layer.cls[:, None, :], FACES + 2, axis=1)
        lev = np.repeat(layer.lev[:, None, :], FACES + 2, axis=1).astype(np.int16)
        delta = np.repeat(layer.delta[:, None], FACES + 2, axis=1)
        face = np.arange(FACES)
        step = np.where(cls[:, face, face] == COUNT, 1, -1)
        movable = np.isin(cls[:, face, face], GOAL + (COUNT,))
        if self.reply:
            movable &= lev[:, face, face] > 1
        lev[:, face, face] += step * movable
        has_six = np.isin(layer.cls, SIXES).any(axis=1)
        delta[:, FACES] += has_six
        valid = np.column_stack([movable, has_six, np.ones(s, bool)])
        won = np.repeat(layer.won[:, None], FACES + 2, axis=1)
        base = np.repeat(layer.base[:, None], FACES + 2, axis=1)
        return [a[valid] for a in (cls, lev, delta, won, base)]

    def _close(self, roots: dict):
        below = None
        for m in range(max(roots), -1, -1):
            parts = ([roots[m]] if m in roots else []) + ([below] if below is not None else [])
            if parts:
                layer = self._layer(m, *(np.concatenate(a) for a in zip(*parts)))
                self.layers[m] = layer
                below = self._moves(layer) if m else None

    def _throws(self, layer: _Layer):
        """Every throw of every state (t per face, canonical within a class), weighted by its number of ways."""
        m, s = layer.m, len(layer.key)
        cls, lev = layer.cls, layer.lev.astype(np.int16)
        empty = cls == EMPTY
        junk_faces = empty.sum(axis=1)
        top = np.where(IS_GOAL[cls], lev - 1, 0) if self.reply else np.where(empty, 0, m)
        room = np.cumsum(top[:, ::-1], axis=1)[:, ::-1] - top  # what the faces after j can hold
        cap = np.where(IS_CAPPED[cls] & (not self.reply), lev, LIMIT)  # more dice than needed are junk
        base = _code_base(cls, lev)
        grouped = np.zeros_like(empty)
        grouped[:, 1:] = (cls[:, 1:] == cls[:, :-1]) & (lev[:, 1:] == lev[:, :-1]) & IS_MOVABLE[cls[:, 1:]]
        grouped[:, 1:] &= ~IS_SIX[cls[:, 1:]]
        layer.grouped = grouped
        position = np.zeros(cls.shape, dtype=np.int64)
        for j in range(1, FACES):
            position[:, j] = np.where(grouped[:, j], position[:, j - 1] + 1, 0)
        start_key = _extra(layer.delta, layer.won, layer.base)
        by_face = [np.ascontiguousarray(a.T) for a in (top, grouped, room, base, cap, position)]

        def throws(src):
            """The throws of states src: (state, t, ways, pair key) per throw."""
            k = len(src)
            total, packed, last = np.zeros(k, np.int64), np.zeros(k, np.int64), np.zeros(k, np.int64)
            ways, run, key = np.ones(k, np.int64), np.ones(k, np.int64), start_key.take(src)
            several = junk_faces.take(src) > 0
            for top_j, grouped_j, room_j, base_j, cap_j, position_j in zip(*by_face):
                hi = np.minimum(top_j.take(src), m - total)
                same = grouped_j.take(src)
                hi = np.where(same, np.minimum(hi, last), hi)
                lo = np.where(several, 0, np.maximum(m - total - room_j.take(src), 0))
                count = np.maximum(hi - lo + 1, 0)
                rows = np.repeat(np.arange(len(src)), count)
                v = np.arange(len(rows)) - np.repeat(np.cumsum(count) - count, count) + lo.take(rows)
                src, same, previous, several = src.take(rows), same.take(rows), last.take(rows), several.take(rows)
                run = np.where(same & (v == previous), run.take(rows) + 1, 1)
                ways = ways.take(rows) * _BINOMIAL[m - total.take(rows), v] * (position_j.take(src) + 1) // run
                kept = np.minimum(v, cap_j.take(src))
                key = key.take(rows) + _FLAT_CODE.take(base_j.take(src) + kept)
                total, packed, last = total.take(rows) + v, packed.take(rows) * 32 + kept, v
            ways = ways * junk_faces[src].astype(np.int64) ** (m - total)
            t = ((packed[:, None] >> (5 * np.arange(FACES - 1, -1, -1))) & 31).astype(np.int16)
            if not self.reply:
                order, first = _distinct(key, src, t)
                src, t, key = src[order[first]], t[order[first]], key[order[first]]
                ways = np.add.reduceat(ways[order], first)
            return src, t, ways, key

        parts = each(throws, np.array_split(np.arange(s), max(1, s // self.STATES)))
        layer.parent, layer.t, layer.weight, key = (np.concatenate(a) for a in zip(*parts))
        layer.pairs = _Index(key)

    # -- values ----------------------------------------------------------------------------------------------
    def _terminal(self, layer: _Layer) -> np.ndarray:
        if self.strength_value is not None:
            return self.strength_value(layer.lev.max(axis=1).astype(int))
        won = layer.won
        draw = ~won & (layer.base | (np.isin(layer.cls, TIES) & (layer.lev == 1)).any(axis=1))
        win, draw = _array(won.astype(int), self.exact), _array(draw.astype(int), self.exact)
        primary = self.win_weight * win + self.draw_weight * draw
        if self.reply:
            return np.stack([primary, win, draw])
        marker = _array(np.where(layer.delta == AHEAD, 1, np.where(layer.delta == 0, 0, -1)), self.exact)
        return np.stack([primary, marker, win, draw, 0 * win])

    def _solve(self, layer: _Layer):
        m = layer.m
        if m == 0:
            layer.value = self._terminal(layer)
            layer.pair_value = layer.value[:, layer.parent]
            return
        below = self.layers[m - 1]
        stay = below.state_index(_canon(layer.cls, layer.lev, layer.delta, layer.won, layer.base, m - 1,
                                        self.reply)[-1])
        throws = len(layer.parent)
        self._plan(layer)
        starts = range(0, throws, self.CHUNK)
        best = np.concatenate(each(lambda a: self._best_moves(layer, below, stay, slice(a, a + self.CHUNK)), starts),
                              axis=1)
        layer.value = self._expect(layer, best)
        stop = layer.value[:, layer.parent]
        layer.pair_value = np.where(_stops(stop, best, self.eps), stop, best)

    def _best_moves(self, layer: _Layer, below: _Layer, stay: np.ndarray, rows: slice) -> np.ndarray:
        """For throws `rows` of the layer: the best of taking one more die of any face (or a 6 to damage) and
        going on from there, or taking one junk die and stopping. Moves are columns: the faces, the damage
        move (`full`), junk."""
        m, parent, t = layer.m, layer.parent[rows], layer.t[rows].astype(np.int64)
        n, every = len(parent), np.arange(len(parent))
        plan = self._plan(layer)

        def per_state(name):
            return plan[name].take(parent, axis=0)

        code = _FLAT_CODE.take(per_state("after") + t)
        extra = per_state("extra")
        rest = code.sum(axis=1, dtype=np.uint64) + extra
        valid = per_state("movable") & (t >= 1)
        valid[:, 1:] &= ~(per_state("grouped")[:, 1:] & (t[:, 1:] == t[:, :-1]))
        keys = rest[:, None] - code + _FLAT_CODE.take(per_state("moved") + np.maximum(t - 1, 0))
        if self.full:
            six = per_state("six")
            six_t = t[every, six]
            less = six_t[:, None] - (six[:, None] == np.arange(FACES))
            won = per_state("won_extra")[:, None] + _FLAT_CODE[_code_base(SPENT, 0) + np.maximum(less, 0)]
            keys = np.where(per_state("wins"), won, keys)
            moved = _FLAT_CODE[plan["after"][parent, six] + np.maximum(six_t - 1, 0)]
            damaged = rest - code[every, six] + moved - extra + per_state("damaged_extra")
            keys = np.column_stack([keys, damaged])
            valid = np.column_stack([valid, six_t >= 1])
        found = np.zeros(keys.shape, dtype=np.int64)
        found[valid] = hits = below.pairs(keys[valid])
        junk = t.sum(axis=1) < m
        moves = keys.shape[1]
        primary = np.full((n, moves + 1), -np.inf, dtype=below.value.dtype)
        primary[:, :moves][valid] = below.pair_value[0].take(hits)
        primary[junk, moves] = below.value[0].take(stay.take(parent[junk]))

        last = len(below.value) - 1

        def source(move, at, k=slice(None)):
            """Component(s) k of a move for the rows at (a 6 put to damage: one damage die more)."""
            if move == moves:
                return below.value[k].take(stay.take(parent.take(at)), axis=-1)
            values = below.pair_value[k].take(found[at, move], axis=-1)
            return values + (np.arange(last + 1)[k] == last)[..., None] if move == FACES else values

        choice = _choose(primary.T, lambda k, at: np.stack([source(move, at, k) for move in range(moves + 1)]),
                         last + 1, self.eps)
        best = np.empty((len(below.value), n), dtype=below.value.dtype)
        for move in range(moves + 1):
            at = np.flatnonzero(choice == move)
            best[:, at] = source(move, at)
        return best

    def _plan(self, layer: _Layer) -> dict:
        """Per state of the layer: code bases once m drops by one, of each face after one die is taken, etc."""
        if getattr(layer, "plan", None) is not None:
            return layer.plan
        m, cls, lev = layer.m, layer.cls, layer.lev.astype(np.int16)
        dying = (IS_REACH_ONLY[cls] & (lev > m - 1)) | (IS_TIE[cls] & (lev > m))
        after_cls = np.where(dying, np.where(IS_SIX[cls], SPENT, EMPTY), cls)
        after_lev = np.where(dying, 0, lev)
        to = np.clip(lev + np.where(cls == COUNT, 1, -1), 0, LEVELS - 1)
        delta = layer.delta if self.reply else _settle(layer.delta, m - 1)
        s = len(cls)
        layer.plan = {
            "after": _code_base(after_cls, after_lev),
            "moved": _code_base(cls, to),
            "wins": IS_GOAL[cls] & (to == 0),
            "movable": IS_MOVABLE[cls],
            "grouped": layer.grouped,
            "extra": _extra(delta, layer.won, layer.base),
            "six": np.argmax(IS_SIX[cls], axis=1),
            "won_extra": _extra(delta, np.ones(s, bool), np.zeros(s, bool)),
            "damaged_extra": _extra(_settle(layer.delta + 1, m - 1), layer.won, layer.base),
        }
        return layer.plan

    def _follow(self, layer: _Layer, policy):
        """Values under a fixed policy that keeps every die of one face: policy(levels, throws) -> the face."""
        if layer.m == 0:
            layer.value = self._terminal(layer)
            return
        face = policy(layer.lev[layer.parent].astype(np.int64), layer.t.astype(np.int64))
        every = np.arange(len(face))
        taken = layer.t[every, face].astype(np.int64)
        best = np.empty((len(self.layers[0].value), len(face)), dtype=self.layers[0].value.dtype)
        for k in np.unique(taken):
            at = np.flatnonzero(taken == k)
            lev = layer.lev[layer.parent[at]].astype(np.int16)
            lev[np.arange(len(at)), face[at]] += k
            parent = layer.parent[at]
            states = (layer.cls[parent], lev, layer.delta[parent], layer.won[parent], layer.base[parent])
            below = self.layers[layer.m - k]
            best[:, at] = below.value[:, below.state_index(_canon(*states, layer.m - k, self.reply)[-1])]
        layer.value = self._expect(layer, best)

    def _expect(self, layer: _Layer, best: np.ndarray) -> np.ndarray:
        """Values of the states: the throws' best values weighted by their chances (and sure wins, `reply`)."""
        s, denominator = len(layer.key), 6 ** layer.m
        if self.exact:
            total = np.zeros((len(best), s), dtype=object)
            for k in range(len(best)):
                np.add.at(total[k], layer.parent, layer.weight.astype(object) * best[k])
            value = total * Fraction(1, denominator)
        else:
            value = np.stack([np.bincount(layer.parent, weights=layer.weight * b, minlength=s)
                              for b in best]) / denominator
        if self.reply:
            left = np.bincount(layer.parent, weights=layer.weight, minlength=s).astype(np.int64)
            sure = (denominator - left) * (Fraction(1, denominator) if self.exact else 1 / denominator)
            value = value + np.stack([self.win_weight * sure, sure, 0 * sure])
        return value


def _target_faces(attacker: Strength, full: bool):
    """(class, dice needed) of each face against a known attacker result (section 8, defender)."""
    t, fa = attacker.s, attacker.f
    classes, goals = [], []
    for face in range(1, FACES + 1):
        tie = face == fa
        if full and face == FACES:
            classes.append(SIX_TIE if tie else SIX)
        else:
            classes.append(TIE if tie else REACH)
        goals.append(t + 1 if face <= fa else max(t, 1))
    return np.array(classes, dtype=np.int8), np.array(goals, dtype=np.int16)


def _defender_states(trays, attacker: Strength, full: bool) -> dict:
    """Race states (unsettled arrays) of labelled trays against the attacker's result, by dice left."""
    return {m: states for m, (_, states) in _race_rows(trays, attacker, full).items()}


def _race_rows(trays, attacker: Strength, full: bool) -> dict:
    """Dice left -> (positions in `trays`, race state arrays of those trays)."""
    classes, goals = _target_faces(attacker, full)
    left = np.array([t.left for t in trays])
    counts = np.array([t.confirmed for t in trays], dtype=np.int16).reshape(-1, FACES)
    damage = np.array([t.damage for t in trays], dtype=np.int16)
    out = {}
    for m in np.unique(left).tolist():
        at = np.flatnonzero(left == m)
        k = len(at)
        delta = damage[at] - attacker.d if full else np.zeros(k, dtype=np.int16)
        out[m] = (at, (np.repeat(classes[None, :], k, 0), goals[None, :] - counts[at], delta, np.zeros(k, bool),
                       np.full(k, attacker.s == 0)))
    return out


# -- the labelled grid (attacker) -----------------------------------------------------------------------------

_RANK = np.zeros((FACES - 1, LIMIT + 1, LIMIT + 2), dtype=np.int64)
for _i in range(FACES - 1):
    for _rem in range(LIMIT + 1):
        for _v in range(_rem + 1):
            _RANK[_i, _rem, _v + 1] = _RANK[_i, _rem, _v] + comb(_rem - _v + FACES - 2 - _i, FACES - 2 - _i)


@lru_cache(maxsize=None)
def _compositions(n: int) -> np.ndarray:
    """Every count per face with n dice, in the order `_rank` numbers them (first face ascending)."""
    bars = np.array(list(combinations(range(n + FACES - 1), FACES - 1)), dtype=np.int64).reshape(-1, FACES - 1)
    edges = np.column_stack([np.full(len(bars), -1), bars, np.full(len(bars), n + FACES - 1)])
    counts = np.diff(edges, axis=1) - 1
    return counts[np.argsort(_rank(counts))].astype(np.int8)


def _rank(counts: np.ndarray) -> np.ndarray:
    """Position of each count vector (rows) among `_compositions` of its total."""
    counts = counts.astype(np.int64)
    rem = counts.sum(axis=1)
    rank = np.zeros(len(counts), dtype=np.int64)
    for i in range(FACES - 1):
        rank += _RANK[i, rem, counts[:, i]]
        rem = rem - counts[:, i]
    return rank


@lru_cache(maxsize=None)
def _grid_maps(n: int):
    """For the throws of n dice: for each face, the rank of the throw less one die of it (sentinel if none),
    and the number of ways of each throw."""
    throws = _compositions(n).astype(np.int64)
    sentinel = len(_compositions(n - 1)) if n else 0
    down = np.full((FACES, len(throws)), sentinel, dtype=np.int64)
    for f in range(FACES):
        has = throws[:, f] > 0
        less = throws[has].copy()
        less[:, f] -= 1
        down[f, has] = _rank(less)
    ways = np.ones(len(throws), dtype=np.int64)
    left = np.full(len(throws), n)
    for f in range(FACES):
        ways *= _BINOMIAL[left, throws[:, f]]
        left = left - throws[:, f]
    return down, ways


@lru_cache(maxsize=None)
def _grid_up(level: int) -> np.ndarray:
    """For trays of `level` confirmed dice: the rank of each with one more die of each face (face, tray)."""
    counts = _compositions(level).astype(np.int64)
    return np.stack([_rank(counts + np.eye(FACES, dtype=np.int64)[f]) for f in range(FACES)])


def _junk(counts: np.ndarray, n: int) -> np.ndarray:
    """(tray, face): faces that can no longer become the strength face with n more dice, but the lowest such
    face (confirming any of them is the same move)."""
    counts = counts.astype(np.int64)
    score = counts * FACES + np.arange(FACES)
    best = score.max(axis=1, keepdims=True)
    dead = (counts + n) * FACES + np.arange(FACES) < best
    return dead & (np.cumsum(dead, axis=1) > 1)


class _Grid:
    """Optimal play of a side whose faces all count apart (the attacker: its strength face F matters through
    the defender's tie-break), for every labelled tray of up to `top` dice. A tray's value does not depend on
    its damage dice (the expected damage dice are counted from now on), so a 6 put to damage leads to the tray
    with one die fewer in all. Components (primary, expected damage dice to come, P(win), P(draw));
    `terminal(counts)` gives them when no die is left."""

    CELLS = 1 << 17

    def __init__(self, top: int, terminal, exact=False):
        self.top, self.exact = top, exact
        self.eps = 0 if exact else TOLERANCE
        self.values: dict[tuple[int, int], np.ndarray] = {}  # (dice in play, confirmed) -> (component, tray)
        last = terminal(_compositions(top))
        arena = self._arena(len(last), last.dtype)
        above: dict[int, np.ndarray] = {}
        for level in range(top, -1, -1):
            here: dict[int, np.ndarray] = {}
            free = arena[level % 2]
            for total in range(level, top + 1):
                n = total - level
                size = len(last) * len(_compositions(level)) * (len(_compositions(n)) + 1)
                pairs, free = free[:size].reshape(len(last), len(_compositions(level)), -1), free[size:]
                pairs[:, :, -1] = -np.inf
                if n == 0:
                    value = last if level == top else terminal(_compositions(level))
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
            return components * len(_compositions(level)) * sum(len(_compositions(n)) + 1
                                                                 for n in range(self.top - level + 1))
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
        counts = _compositions(level)
        step = max(1, self.CELLS // cols)

        def solve(start):
            rows = np.arange(start, min(start + step, rows_all))
            best = self._moves(up[:, rows], rows, down, confirm, damage, _junk(counts[rows], n))
            here = np.stack([b @ weights for b in best])
            value[:, rows] = here
            stop = np.broadcast_to(here[:, :, None], best.shape)
            into = pairs[:, rows[0]:rows[-1] + 1, :cols]
            np.copyto(into, best)
            np.copyto(into, stop, where=_stops(stop, best, self.eps))

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

        def component(j, cells):
            r, c = np.divmod(cells, cols)
            out = np.stack([confirm[j].ravel().take(flat(move, r, c)) for move in range(FACES)]
                           + [damage[j].ravel().take(flat(FACES, r, c))])
            out[FACES] += j == 1
            return out

        choice = _choose(primary.reshape(moves, -1), component, k, self.eps).reshape(len(rows), cols)
        best = np.empty((k, len(rows), cols), dtype=confirm.dtype)
        r = np.broadcast_to(np.arange(len(rows))[:, None], choice.shape)
        c = np.broadcast_to(np.arange(cols)[None, :], choice.shape)
        face = np.minimum(choice, FACES - 1)
        at = up[face, r] * width + down[face, c]
        spent = np.nonzero(choice == FACES)
        at_spent = flat(FACES, *spent)
        for j in range(k):
            confirm[j].ravel().take(at, out=best[j])
            best[j][spent] = damage[j].ravel()[at_spent] + (j == 1)
        return best


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
def _reply_table(objective: str, limit: int, exact: bool) -> _RaceTable:
    """The defender's reply as the attacker models it (section 8, objective 2): for every defender of up to
    `limit` dice against every attacker result (its damage dice aside), the primary value, then P(win) and
    P(draw) of the defender's primary-optimal play that wins outright where it can. Breaking the defender's
    ties by the damage comparison would make the attacker's tables depend on its own damage dice."""

    def build():
        roots: dict = {}
        for s in range(limit + 1):
            for f in range(1, FACES + 1) if s else (0,):
                for m, states in _defender_states([Tray(n) for n in range(limit + 1)], Strength(s, f, 0), False).items():
                    roots.setdefault(m, []).append(states)
        roots = {m: [np.concatenate(a) for a in zip(*parts)] for m, parts in roots.items()}
        return _Race(roots, OBJECTIVES[objective], reply=True, exact=exact).table()

    if exact:
        return build()
    return _RaceTable.from_arrays(_cached(f"reply-{objective}-{limit}", lambda: build().arrays()))


def _reply_values(defender_dice: int, objective: str, top: int, exact: bool) -> np.ndarray:
    """(primary, P(win), P(draw)) of the defender's reply with `defender_dice` against attacker results
    S = 0..top (index s * FACES + f - 1; S = 0 at index 0)."""
    table = _reply_table(objective, defender_dice, exact)
    out = np.zeros((3, (top + 1) * FACES), dtype=object if exact else float)
    for s in range(min(top, defender_dice) + 1):
        for f in range(1, FACES + 1) if s else (0,):
            states = _defender_states([Tray(defender_dice)], Strength(s, f, 0), False)[defender_dice]
            out[:, s * FACES + max(f - 1, 0)] = table.value(defender_dice, states)[:, 0]
    return out


@dataclass
class _GridTable:
    """What a solved grid keeps: per (dice in play, confirmed), the values of every labelled tray."""

    values: dict[tuple[int, int], np.ndarray]

    def value(self, trays: list[Tray]) -> np.ndarray:
        counts = np.array([t.confirmed for t in trays], dtype=np.int64).reshape(-1, FACES)
        level = counts.sum(axis=1)
        total = level + np.array([t.left for t in trays], dtype=np.int64)
        first = next(iter(self.values.values()))
        out = np.empty((len(first), len(trays)), dtype=first.dtype)
        for m, l in set(zip(total.tolist(), level.tolist())):
            if (m, l) not in self.values:
                raise KeyError("tray not in the table")
            at = np.flatnonzero((total == m) & (level == l))
            out[:, at] = self.values[m, l][:, _rank(counts[at])]
        return out

    def arrays(self) -> dict:
        return {f"values{m}_{l}": v for (m, l), v in self.values.items()}

    @classmethod
    def from_arrays(cls, data: dict) -> _GridTable:
        return cls({tuple(int(x) for x in name[6:].split("_")): data[name] for name in data
                    if name.startswith("values")})


@lru_cache(maxsize=8)
def _attacker_table(defender_dice: int, objective: str, top: int, exact: bool) -> _GridTable:
    """The attacker's optimal play (section 8, objective 2) for every tray of up to `top` dice against a
    defender with `defender_dice`: components (primary, expected damage dice to come, P(win), P(draw)).
    Its ties are broken by its own expected damage dice: a simplification of the damage comparison, whose
    outcome also depends on the defender's damage dice to come."""

    def build():
        reply = _reply_values(defender_dice, objective, top, exact)

        def terminal(counts):
            result = _results(counts)
            index = result[:, 0] * FACES + np.maximum(result[:, 1] - 1, 0)
            p, win, draw = reply[:, index]
            return np.stack([1 - p, 0 * p, 1 - win - draw, draw])

        return _GridTable(_Grid(top, terminal, exact).values)

    if exact:
        return build()
    return _GridTable.from_arrays(_cached(f"attacker-{objective}-{defender_dice}-{top}",
                                          lambda: build().arrays()))


def _results(counts: np.ndarray) -> np.ndarray:
    """(S, F) of each row of confirmed counts (CMB.6, A2: F is the highest of tied faces; 0, 0 if none)."""
    counts = counts.astype(np.int64)
    s = counts.max(axis=1)
    f = FACES - np.argmax((counts == s[:, None])[:, ::-1], axis=1)
    return np.column_stack([s, np.where(s > 0, f, 0)])


@lru_cache(maxsize=32)
def _defender_table(attacker: Strength, objective: str, dice: int, exact: bool) -> _RaceTable:
    """The defender's optimal play against a known attacker result, for every tray of `dice` dice."""
    return _Race(_defender_states([Tray(dice)], attacker, True), OBJECTIVES[objective], exact=exact).table()


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


def _defender_values(trays, attacker: Strength, objective: str, exact: bool, origin: Tray) -> np.ndarray:
    """(primary, damage comparison, P(win), P(draw), expected damage dice to come) of each tray, from the
    table of the defender's roll that `origin` belongs to: all trays with as many dice (every one can be
    reached from the start, a die added by a card makes a new table)."""
    _check(objective, _total(origin))
    table = _defender_table(attacker, objective, _total(origin), exact)
    out = np.empty((5, len(trays)), dtype=object if exact else float)
    for m, (at, states) in _race_rows(trays, attacker, True).items():
        out[:, at] = table.value(m, states)
    return out


def _attacker_values(trays, defender_dice: int, objective: str, exact: bool, origin: Tray) -> np.ndarray:
    """(primary, expected damage dice to come, P(win), P(draw)) of each tray of the attacker."""
    top = _total(origin)
    _check(objective, max(top, defender_dice))
    return _attacker_table(defender_dice, objective, top, exact).value(list(trays))


def _plain(values: np.ndarray) -> list:
    """Rows of Python numbers (Fractions stay Fractions)."""
    return values.T.tolist()


def _defender_chances(values: np.ndarray, trays) -> list[Chances]:
    return [Chances(v[2], v[3], 1 - v[2] - v[3], t.damage + v[4], v[1]) for v, t in zip(_plain(values), trays)]


def _attacker_chances(values: np.ndarray, trays) -> list[Chances]:
    return [Chances(v[2], v[3], 1 - v[2] - v[3], t.damage + v[1]) for v, t in zip(_plain(values), trays)]


def defender_chances(tray: Tray, attacker: Strength, objective: str = DEFAULT, exact: bool = False) -> Chances:
    """BS-CMB.6: the defender's chances before its next throw, playing optimally against the attacker's
    known result (objective, then the damage comparison, then P(win), P(draw), damage dice)."""
    return _defender_chances(_defender_values([tray], attacker, objective, exact, tray), [tray])[0]


def attacker_chances(tray: Tray, defender_dice: int, objective: str = DEFAULT, exact: bool = False) -> Chances:
    """BS-CMB.5: the attacker's chances before its next throw, both sides playing optimally, the defender
    (with `defender_dice`, public after CMB.4) replying to the attacker's result (section 8, objective 2)."""
    return _attacker_chances(_attacker_values([tray], defender_dice, objective, exact, tray), [tray])[0]


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
        values = _attacker_values([Tray(attacker_dice + x) for x in range(attacker_supply + 1)],
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
        return _array(np.vstack([s[None, :], s[None, :] >= np.arange(limit, 0, -1)[:, None]]).astype(int), exact)

    return value


def _greedy(lev, t):
    return np.argmax(np.where(t >= 1, (lev + t) * 32 + t, -1), axis=1)


def _most_common(lev, t):
    return np.argmax(np.where(t >= 1, t * 32 + lev, -1), axis=1)


@lru_cache(maxsize=16)
def _strength_table(limit: int, policy: str, exact: bool) -> _RaceTable:
    rule = {"optimal": None, "greedy": _greedy, "most_common": _most_common}[policy]
    return _Race(_count_roots(limit), exact=exact, strength_value=_tails(limit, exact), policy=rule).table()


@lru_cache(maxsize=4)
def _at_least_table(limit: int, exact: bool) -> _RaceTable:
    roots: dict = {}
    for target in range(1, limit + 1):
        for n in range(limit + 1):
            states = [np.full((1, FACES), REACH, np.int8), np.full((1, FACES), target, np.int16),
                      np.zeros(1, np.int16), np.zeros(1, bool), np.zeros(1, bool)]
            roots.setdefault(n, []).append(states)
    roots = {m: [np.concatenate(a) for a in zip(*parts)] for m, parts in roots.items()}
    return _Race(roots, (1, 0), reply=True, exact=exact).table()


def _strength_values(dice: int, policy: str, exact: bool) -> np.ndarray:
    _check(DEFAULT, dice)
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}: one of {', '.join(POLICIES)}")
    return _strength_table(LIMIT if not exact else dice, policy, exact).value(dice, _count_roots(dice)[dice])[:, 0]


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
