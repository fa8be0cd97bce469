"""Exact distributions and their helpers, checked against hand computation."""
from __future__ import annotations

from fractions import Fraction as F

import icepool
import pytest

from companion.dice import Dice
from companion.odds import (
    at_least_table,
    certain,
    dist,
    exhaustive,
    fractions,
    group,
    happened_by,
    mean,
    monte_carlo,
    named,
    p_at_least,
    p_exactly,
    p_where,
)

TWO_D6 = {s: 6 - abs(s - 7) for s in range(2, 13)}  # ways to throw each sum with two dice, out of 36


def two_d6():
    return icepool.d6 + icepool.d6


def test_dist_from_integer_weights():
    assert fractions(dist({"held": 1, "routed": 3})) == {"held": F(1, 4), "routed": F(3, 4)}


def test_dist_from_fraction_weights_is_exact():
    d = dist({1: F(1, 3), 2: F(1, 6), 3: F(1, 2)})
    assert fractions(d) == {1: F(1, 3), 2: F(1, 6), 3: F(1, 2)}
    assert all(type(p) is F for p in fractions(d).values())


def test_dist_drops_zero_weights_and_keeps_tuple_outcomes():
    assert fractions(dist({(1, "a"): 2, (2, "b"): 0, (3, "c"): 6})) == {(1, "a"): F(1, 4), (3, "c"): F(3, 4)}


def test_dist_needs_an_outcome():
    with pytest.raises(ValueError, match="at least one outcome"):
        dist({"x": 0})


def test_fractions_of_two_dice():
    assert fractions(two_d6()) == {s: F(n, 36) for s, n in TWO_D6.items()}
    assert sum(fractions(two_d6()).values()) == 1


def test_certain():
    assert fractions(certain("held")) == {"held": F(1)}


@pytest.mark.parametrize("k, p", [(2, F(1, 36)), (7, F(1, 6)), (10, F(1, 12)), (1, F(0)), (13, F(0))])
def test_p_exactly(k, p):
    assert p_exactly(two_d6(), k) == p


@pytest.mark.parametrize("k, p", [(2, F(1)), (7, F(21, 36)), (10, F(6, 36)), (12, F(1, 36)), (13, F(0))])
def test_p_at_least(k, p):
    assert p_at_least(two_d6(), k) == p


def test_p_where():
    assert p_where(two_d6(), lambda s: s % 2 == 0) == F(1, 2)


def test_mean():
    assert mean(two_d6()) == 7
    assert mean(icepool.d6, lambda x: x * x) == F(91, 6)
    assert mean(dist({0: 2, 3: 1})) == 1


def test_at_least_table_fills_the_gaps():
    assert at_least_table(dist({0: 1, 2: 1})) == [(0, F(1, 2), F(1)), (1, F(0), F(1, 2)), (2, F(1, 2), F(1, 2))]


def test_named_keeps_the_order_and_shows_impossible_outcomes():
    d = dist({"retreated": 1, "held": 2})
    assert named(d, ["eliminated", "retreated", "held"]) == [
        ("eliminated", F(0)), ("retreated", F(1, 3)), ("held", F(2, 3))]


def test_named_refuses_an_order_that_misses_an_outcome():
    with pytest.raises(ValueError, match="not in the order given"):
        named(dist({"retreated": 1, "held": 2}), ["held"])


def test_group_merges_outcomes():
    assert fractions(group(two_d6(), lambda s: s >= 7)) == {True: F(21, 36), False: F(15, 36)}
    assert fractions(group(dist({(1, "a"): 1, (1, "b"): 1, (2, "a"): 2}), lambda o: o[0])) == {1: F(1, 2),
                                                                                               2: F(1, 2)}


@pytest.mark.parametrize("p, n, expected", [
    (F(1, 3), 0, F(0)),
    (F(1, 3), 1, F(1, 3)),
    (F(1, 3), 2, F(5, 9)),
    (F(1, 3), 3, F(19, 27)),
    (F(1, 3), 4, F(65, 81)),
    (F(1, 2), 10, F(1023, 1024)),
    (F(0), 15, F(0)),
    (F(1), 1, F(1)),
])
def test_happened_by(p, n, expected):
    assert happened_by(p, n) == expected


def one_d6(dice: Dice):
    return dice.d(6)


def exploding_six(dice: Dice):
    """A d6; on a 6 roll once more and add (so the procedure uses one or two dice)."""
    first = dice.d(6)
    return first + dice.d(6) if first == 6 else first


def d4_picks_the_die(dice: Dice):
    """A d4 chooses the next die: a 1 rolls a d8, anything else a d6."""
    return dice.d(8) if dice.d(4) == 1 else dice.d(6)


def pair_sum(dice: Dice):
    return sum(dice.roll(2, 6))


def until_not_six(dice: Dice):
    """Roll until a face below 6, at most three dice: the number of dice used."""
    for used in range(1, 4):
        if dice.d(6) < 6:
            return used
    return 3


@pytest.mark.parametrize("procedure, expected", [
    (one_d6, {f: F(1, 6) for f in range(1, 7)}),
    (exploding_six, {**{f: F(1, 6) for f in range(1, 6)}, **{6 + f: F(1, 36) for f in range(1, 7)}}),
    (d4_picks_the_die, {**{f: F(1, 4 * 8) + F(3, 4 * 6) for f in range(1, 7)}, 7: F(1, 32), 8: F(1, 32)}),
    (pair_sum, {s: F(n, 36) for s, n in TWO_D6.items()}),
    (until_not_six, {1: F(5, 6), 2: F(5, 36), 3: F(1, 36)}),
], ids=["d6", "exploding", "mixed-sizes", "two-at-once", "stops-early"])
def test_exhaustive_weighs_every_dice_sequence(procedure, expected):
    assert fractions(exhaustive(procedure)) == expected


def test_exhaustive_refuses_a_procedure_that_never_stops():
    def forever(dice: Dice):
        while True:
            dice.d(6)

    with pytest.raises(ValueError, match="needs more than 5 dice"):
        exhaustive(forever, limit=5)


def test_monte_carlo_counts_every_trial():
    counts = monte_carlo(lambda dice: dice.d(6) >= 5, 6000, seed=3)
    assert sum(counts.values()) == 6000
    assert set(counts) == {True, False}
    # 1/3 of 6000 is 2000, with a standard deviation of about 37: five of them either side.
    assert abs(counts[True] - 2000) < 5 * 37


def test_monte_carlo_is_repeatable_by_seed():
    assert monte_carlo(exploding_six, 500, seed=9) == monte_carlo(exploding_six, 500, seed=9)
    assert set(monte_carlo(exploding_six, 2000, seed=1)) <= set(range(1, 6)) | set(range(7, 13))
