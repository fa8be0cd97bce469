"""DX-7.3 hits: the target's owner places each hit on one of its unit cards in the target position,
levelled: no card takes its k-th hit until every eligible card holds k-1 (hits already on the cards count,
A3). A card with more hits than its CV is destroyed at once and drops out; hits no card can take are lost.
Under long-range fire decoys are in the pool (A14), as cards of CV 0: the first hit eliminates them.

A target is (cv, hits now). An allocation is the final hits per card; `cv + 1` means destroyed.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Sequence

Pool = tuple[tuple[int, int], ...]   # (cv, hits) per card


def _eligible(pool: Pool, hits: tuple[int, ...]) -> list[int]:
    return [i for i, (cv, _) in enumerate(pool) if hits[i] <= cv]


@lru_cache(maxsize=None)
def levelled(pool: Pool, n: int) -> tuple[tuple[int, ...], ...]:
    """Every final hits vector the owner may reach with `n` levelled hits."""
    states = {tuple(h for _, h in pool)}
    for _ in range(n):
        following = set()
        for hits in states:
            eligible = _eligible(pool, hits)
            if not eligible:
                following.add(hits)
                continue
            low = min(hits[i] for i in eligible)
            for i in eligible:
                if hits[i] == low:
                    following.add(hits[:i] + (hits[i] + 1,) + hits[i + 1:])
        states = following
    return tuple(sorted(states, reverse=True))


def taken(pool: Pool, n: int) -> int:
    """How many of `n` hits the pool absorbs before every card is destroyed."""
    return min(n, sum(cv + 1 - h for cv, h in pool if h <= cv))


def place(pool: Pool, picks: Sequence[int]) -> tuple[int, ...] | None:
    """The final hits when the owner puts one hit on each picked card (by index, in any order), or None
    when the picks break the levelling."""
    wanted = Counter(picks)
    hits = tuple(h for _, h in pool)
    while sum(wanted.values()):
        eligible = _eligible(pool, hits)
        if not eligible:
            return None
        low = min(hits[i] for i in eligible)
        i = next((i for i in eligible if hits[i] == low and wanted[i]), None)
        if i is None:
            return None
        wanted[i] -= 1
        hits = hits[:i] + (hits[i] + 1,) + hits[i + 1:]
    return hits


def destroyed(pool: Pool, final: tuple[int, ...]) -> tuple[bool, ...]:
    return tuple(h > cv for (cv, _), h in zip(pool, final))
