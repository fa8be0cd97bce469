"""Optimal play of one side's roll in face classes (digest section 8), for every state reachable from the roots.

A side throws all the dice it has left and takes a non-empty sub-multiset of the throw (each 6 taken either
confirmed or put to damage). Any take is a sequence of single dice, so the value of a throw is computed one die
at a time: after taking some dice, either stop (the rest is thrown again) or take one more die. A pair (dice
taken so far, dice of the throw still on the table) therefore has at most 8 moves, and the best of every one
of the 2^k sub-multisets is found without listing them: this is the exact maximum over `tray.legal_keeps`.

Against a known attacker result (S_a, F_a) a face needs a number of dice (its *distance*: S_a to win for a face
above F_a, S_a + 1 for one below, and F_a draws at S_a and wins at S_a + 1); faces of the same class and distance
are interchangeable, a face that cannot cover its distance with the dice left is junk, and a state is the
multiset of distances. A state and a pair are keyed by a sum of random 64-bit codes, which does not depend on
the order of the faces. With faces counting up instead of down, the same engine gives the opponent-blind
strength tables.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from companion.cores import each, start

from .tray import FACES, Strength, Trays
from .values import BINOMIAL, LIMIT, TOLERANCE, array, choose, stops

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
IS_REACH_ONLY, IS_CAPPED, IS_DEAD = _table((REACH, SIX)), _table((REACH, TIE)), _table((EMPTY, SPENT))

_rng = np.random.default_rng(20260509)
_PAIR_CODE = _rng.integers(0, 2 ** 64, size=(7, LEVELS, LIMIT + 1), dtype=np.uint64, endpoint=False)
_PAIR_CODE[EMPTY] = 0
_FLAT_CODE = _PAIR_CODE.ravel()
_STATE_CODE = _rng.integers(0, 2 ** 64, size=(7, LEVELS), dtype=np.uint64, endpoint=False)
_STATE_CODE[EMPTY] = 0
_DELTA_CODE = _rng.integers(0, 2 ** 64, size=LIMIT + 3, dtype=np.uint64, endpoint=False)
_WON_CODE, _BASE_CODE = _rng.integers(0, 2 ** 64, size=2, dtype=np.uint64, endpoint=False)


def _code_base(cls, lev) -> np.ndarray:
    """Index in _FLAT_CODE of (class, level, 0 dice thrown); add the dice thrown."""
    return (np.asarray(cls, dtype=np.int64) * LEVELS + lev) * (LIMIT + 1)


def _delta_index(delta: np.ndarray) -> np.ndarray:
    return np.where(delta == AHEAD, 0, np.where(delta == BEHIND, 1, 2 - delta.astype(np.int64)))


def _settle(delta: np.ndarray, m: int) -> np.ndarray:
    """CMB.9 from the defender's side: ahead once it has more damage dice, behind once m dice cannot catch up."""
    delta = delta.astype(np.int16)
    return np.where(delta == BEHIND, BEHIND, np.where(delta >= 1, AHEAD, np.where(delta < -m, BEHIND, delta)))


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
        end = max(int(self.mask), int(slot[-1]) if len(keys) else 0) + 2  # every home slot, then an empty one
        self.slots = np.zeros((end, 2), dtype=np.uint64)
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
    goal = IS_GOAL[cls]
    won = won | (goal & (lev <= 0)).any(axis=1)
    dead = (IS_REACH_ONLY[cls] & (lev > m)) | (IS_TIE[cls] & (lev > m + 1)) | won[:, None]
    cls = np.where(dead & IS_SIX[cls], SPENT, np.where(dead, EMPTY, cls)).astype(np.int8)
    lev = np.where(IS_DEAD[cls], 0, lev).astype(np.int8)
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
class RaceTable:
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
    def from_arrays(cls, data: dict) -> RaceTable:
        layers = {int(name[4:]): (data[name], data["values" + name[4:]]) for name in data if name.startswith("keys")}
        return cls(bool(data["reply"]), layers)


class Race:
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

    def table(self) -> RaceTable:
        return RaceTable(self.reply, {m: (layer.key, layer.value) for m, layer in self.layers.items()})

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
        movable = IS_MOVABLE[cls[:, face, face]]
        if self.reply:
            movable &= lev[:, face, face] > 1
        lev[:, face, face] += step * movable
        has_six = IS_SIX[layer.cls].any(axis=1)
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
                ways = ways.take(rows) * BINOMIAL[m - total.take(rows), v] * (position_j.take(src) + 1) // run
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
        draw = ~won & (layer.base | (IS_TIE[layer.cls] & (layer.lev == 1)).any(axis=1))
        win, draw = array(won.astype(int), self.exact), array(draw.astype(int), self.exact)
        primary = self.win_weight * win + self.draw_weight * draw
        if self.reply:
            return np.stack([primary, win, draw])
        marker = array(np.where(layer.delta == AHEAD, 1, np.where(layer.delta == 0, 0, -1)), self.exact)
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
        self._plan(layer)  # once, before the chunks share it
        starts = range(0, max(throws, 1), self.CHUNK)  # a layer whose every throw is a sure win has none
        best = np.concatenate(each(lambda a: self._best_moves(layer, below, stay, slice(a, a + self.CHUNK)), starts),
                              axis=1)
        layer.value = self._expect(layer, best)
        stop = layer.value[:, layer.parent]
        layer.pair_value = np.where(stops(stop, best, self.eps), stop, best)

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

        choice = choose(primary.T, lambda k, at: np.stack([source(move, at, k) for move in range(moves + 1)]),
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


def defender_states(trays: Trays, attacker: Strength, full: bool) -> dict:
    """Race states (unsettled arrays) of labelled trays against the attacker's result, by dice left."""
    return {m: states for m, (_, states) in race_rows(trays, attacker, full).items()}


def race_rows(trays: Trays, attacker: Strength, full: bool) -> dict:
    """Dice left -> (rows of `trays`, race state arrays of those trays)."""
    classes, goals = _target_faces(attacker, full)
    out = {}
    for m in np.unique(trays.left).tolist():
        at = np.flatnonzero(trays.left == m)
        k = len(at)
        delta = (trays.damage[at] - attacker.d).astype(np.int16) if full else np.zeros(k, dtype=np.int16)
        out[m] = (at, (np.repeat(classes[None, :], k, 0), (goals[None, :] - trays.confirmed[at]).astype(np.int16),
                       delta, np.zeros(k, bool), np.full(k, attacker.s == 0)))
    return out
