"""The 2d6 throw every roll but the order roll and the roll-offs uses (digest section 4).

`at_least(t)` is q(t) x 36, the ways 2d6 shows t or more; `at_most(T)` is r(T) x 36. Both are counted
from the dice, never typed in; the tests hold them to the digest's reference table.
"""
from __future__ import annotations

from functools import cache

import icepool

from companion.dice import Dice
from companion.terms import Terms

from .rules import TWO_DICE

WAYS = 36  # 6 x 6 equally likely throws


@cache
def _counts() -> dict[int, int]:
    two = TWO_DICE @ icepool.d6
    return {total: two.quantity(total) for total in two.outcomes()}


def at_least(t: int) -> int:
    """The throws of 2d6 (out of 36) with a total of t or more."""
    return sum(n for total, n in _counts().items() if total >= t)


def at_most(t: int) -> int:
    """The throws of 2d6 (out of 36) with a total of t or less."""
    return sum(n for total, n in _counts().items() if total <= t)


def throw(dice: Dice, label: str) -> int:
    """Two dice as one recorded roll; their total."""
    return sum(dice.roll(TWO_DICE, 6, label))


def signed(modifier: int) -> str:
    return f" {modifier:+d}" if modifier else ""


def support_term(terms: Terms, modifier: int) -> Terms:
    """The number to throw with a battle-support card's modifier on the roll moved across (GC-6B.5)."""
    return terms.plus("battle-support card", -modifier) if modifier else terms


def needs(terms: Terms, way: str) -> str:
    """"2d6 needs 7 or more = defence 10 − attack 3": the number to throw and what it is made of."""
    return f"2d6 needs {terms.total} or {way} = {terms.summed()}"
