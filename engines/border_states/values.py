"""Values of optimal play (digest section 8): vectors of numbers compared lexicographically, the primary first.

With floats every comparison allows `TOLERANCE`, so rounding noise never decides a tie; with `Fraction` (object
arrays) everything is exact.
"""
from __future__ import annotations

from math import comb

import numpy as np

TOLERANCE = 1e-9
LIMIT = 16  # the most dice a table is built for (digest section 8: a side fields about 13)
BINOMIAL = np.array([[comb(n, k) for k in range(LIMIT + 1)] for n in range(LIMIT + 1)], dtype=np.int64)


def array(values, exact: bool) -> np.ndarray:
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


def choose(primary: np.ndarray, component, components: int, eps) -> np.ndarray:
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
        if not several.all():   # the same columns keep the same array, so `component` may reuse its lookups
            tied, alive = tied[several], alive[:, several]
    return choice


def stops(stop: np.ndarray, go: np.ndarray, eps) -> np.ndarray:
    """Where stopping is lexicographically better than going on (components first); ties go on."""
    gap = stop[0] - go[0]
    better = gap > eps
    tied = np.nonzero(abs(gap) <= eps)
    if len(tied[0]) and len(stop) > 1:
        better[tied] = _lex_greater(stop[(slice(None),) + tied], go[(slice(None),) + tied], eps)
    return better
