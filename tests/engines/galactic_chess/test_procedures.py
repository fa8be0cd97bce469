"""The random procedures against the digest's numbers: the 2d6 table (section 4), the order roll (GC-5, V1),
strikes and duels (GC-6B.5, V2-V4), retreats (GC-6B.6, V5), plots (GC-6A.32, GC-6A.33a, V6), the garrison
+2 (GC-7.21, V7) and the roll-offs (GC-6B.4r, GC-9.13r)."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from companion.dice import ScriptedDice
from companion.odds import fractions, mean
from engines.galactic_chess.duel import (
    DuelInput,
    DuelOutcome,
    Fighter,
    StrikeInput,
    duel_odds,
    resolve_duel,
    strike_odds,
)
from engines.galactic_chess.order import (
    OrderInput,
    OrderResult,
    forced_odds,
    order_result,
    order_roll_odds,
    resolve_sortie_size,
    sortie_size_odds,
)
from engines.galactic_chess.plots import (
    NOTHING,
    PLOTTER_DESTROYED,
    TARGET_DESTROYED,
    PlotInput,
    PlotRollInput,
    plot_odds,
    plot_roll_odds,
)
from engines.galactic_chess.retreat import (
    DESTROYED,
    RETREATED,
    STAYS,
    RetreatInput,
    RetreatRollInput,
    retreat_odds,
    retreat_roll_odds,
    threshold_terms,
)
from engines.galactic_chess.rolloff import RollOffInput, roll_off_odds
from engines.galactic_chess.two_dice import at_least, at_most

# Digest section 4: q x 36 and r x 36 for t = 1 (and below) .. 13 (and above).
Q36 = {1: 36, 2: 36, 3: 35, 4: 33, 5: 30, 6: 26, 7: 21, 8: 15, 9: 10, 10: 6, 11: 3, 12: 1, 13: 0}
R36 = {1: 0, 2: 1, 3: 3, 4: 6, 5: 10, 6: 15, 7: 21, 8: 26, 9: 30, 10: 33, 11: 35, 12: 36, 13: 36}


@pytest.mark.rule("GC-6B.5", "GC-6B.6")
def test_the_2d6_reference_table():
    """Digest section 4: q(t) = P(2d6 >= t) and r(T) = P(2d6 <= T), x 36, at and beyond the ends."""
    assert {t: at_least(t) for t in Q36} == Q36 and {t: at_most(t) for t in R36} == R36
    assert at_least(-5) == 36 and at_least(20) == 0 and at_most(-1) == 0 and at_most(40) == 36


# --- GC-5 the order roll ----------------------------------------------------------------------------

@pytest.mark.rule("GC-5")
@pytest.mark.parametrize("raw, ragnarok, modified, size, forced", [
    (4, False, 4, "2", False), (6, False, 6, "3", True), (6, True, 7, "2d6", True), (5, True, 6, "3", False),
    (3, True, 4, "2", False),
], ids=["4", "6", "6 ragnarok", "5 ragnarok", "3 ragnarok"])
def test_vector_v1_order_roll(raw, ragnarok, modified, size, forced):
    """V1 (GC-5): the order table read for (raw, Ragnarok?)."""
    assert order_result(raw, OrderInput(ragnarok)) == OrderResult(modified, size, forced)


@pytest.mark.rule("GC-5")
@pytest.mark.parametrize("ragnarok, rows, table_mean", [
    (False, {"1": F(1, 2), "2": F(1, 6), "3": F(1, 3)}, F(11, 6)),
    (True, {"1": F(1, 3), "2": F(1, 6), "3": F(1, 3), "2d6": F(1, 6)}, F(17, 6)),
], ids=["plain", "ragnarok"])
def test_order_roll_odds(ragnarok, rows, table_mean):
    """GC-5: without Ragnarok 1 fleet 1/2, 2 fleets 1/6, 3 fleets 1/3, forced 1/6, mean 11/6; with it 1/3, 1/6,
    1/3 and 2d6 fleets 1/6 (always forced), mean 17/6 (2d6 averages 7)."""
    inputs = OrderInput(ragnarok)
    by_row = fractions(order_roll_odds(inputs).map(lambda r: r.size))
    assert by_row == rows and forced_odds(inputs) == F(1, 6)
    assert mean(sortie_size_odds(inputs)) == table_mean
    if ragnarok:
        assert all(r.forced for r in order_roll_odds(inputs).outcomes() if r.size == "2d6")
        assert fractions(sortie_size_odds(inputs))[12] == F(1, 6) * F(1, 36)


@pytest.mark.rule("GC-5", "GC-7.4")
def test_invasion_fixes_the_size_but_the_forced_roll_is_made():
    """GC-5 / GC-11: under the Invasion the card's size for every face; a raw 6 still forces the sortie."""
    assert fractions(sortie_size_odds(OrderInput(False, 4))) == {4: 1}
    assert order_result(6, OrderInput(False, 4)) == OrderResult(6, "4", True)
    assert order_result(2, OrderInput(True, 4)) == OrderResult(3, "4", False)


@pytest.mark.rule("GC-5")
def test_grand_offensive_rolls_its_fleets_after_the_order_roll():
    """GC-5 (Q2): after Ragnarok a raw 6 gives 2d6 fleets: the 2d6 are rolled next."""
    result = resolve_sortie_size(OrderInput(True), ScriptedDice([6, 4, 5]))
    assert result.outcome == 9 and len(result.rolls) == 2
    assert resolve_sortie_size(OrderInput(True), ScriptedDice([5])).outcome == 3


# --- GC-6B.5 strikes and duels ----------------------------------------------------------------------

@pytest.mark.rule("GC-6B.5")
@pytest.mark.parametrize("attack, defence, chance", [(3, 10, F(21, 36)), (5, 6, F(1)), (0, 13, F(0))])
def test_vector_v2_single_shot(attack, defence, chance):
    """V2 (GC-6B.5): A3 vs D10 needs 7: 21/36; A5 vs D6: 36/36; A0 vs D13: never."""
    assert fractions(strike_odds(StrikeInput(attack, defence))).get(True, F(0)) == chance


@pytest.mark.rule("GC-6B.5")
def test_vector_v3_unequal_duel_either_actor():
    """V3 (GC-6B.5): X(S6 A2 D10) engages Y(S4 A1 D9): Y dies 756/1296, X 150/1296, nobody 390/1296; the
    same when Y is the actor."""
    x, y = Fighter(6, 2, 10), Fighter(4, 1, 9)
    expected = {DuelOutcome(False, True): F(756, 1296), DuelOutcome(True, False): F(150, 1296),
                DuelOutcome(False, False): F(390, 1296)}
    assert fractions(duel_odds(DuelInput(x, y))) == expected
    swapped = {DuelOutcome(o.target_destroyed, o.actor_destroyed): p for o, p in expected.items()}
    assert fractions(duel_odds(DuelInput(y, x))) == swapped


@pytest.mark.rule("GC-6B.5")
def test_vector_v4_equal_strategy():
    """V4 (GC-6B.5): X(S5 A2 D9) vs Y(S5 A3 D10): both die 390, only Y 150, only X 546, nobody 210 (/1296)."""
    odds = fractions(duel_odds(DuelInput(Fighter(5, 2, 9), Fighter(5, 3, 10))))
    assert odds == {DuelOutcome(True, True): F(390, 1296), DuelOutcome(False, True): F(150, 1296),
                    DuelOutcome(True, False): F(546, 1296), DuelOutcome(False, False): F(210, 1296)}


@pytest.mark.rule("GC-6B.5")
def test_the_lower_strategy_strikes_back_only_if_it_survives():
    """GC-6B.5: a hit by the first striker ends the duel (two dice); a miss brings the strike back (four)."""
    duel = DuelInput(Fighter(6, 2, 10), Fighter(4, 1, 9))
    hit = resolve_duel(duel, ScriptedDice([4, 3]))
    assert hit.outcome == DuelOutcome(False, True) and len(hit.rolls) == 1
    back = resolve_duel(duel, ScriptedDice([1, 1, 6, 6]))
    assert back.outcome == DuelOutcome(True, False) and len(back.rolls) == 2
    target_first = resolve_duel(DuelInput(Fighter(4, 1, 9), Fighter(6, 2, 10)), ScriptedDice([4, 3]))
    assert target_first.outcome == DuelOutcome(True, False)   # the target has the higher strategy: it rolls first
    equal = resolve_duel(DuelInput(Fighter(5, 9, 9), Fighter(5, 9, 9)), ScriptedDice([1, 1, 1, 1]))
    assert equal.outcome == DuelOutcome(True, True) and len(equal.rolls) == 2


# --- GC-6B.6 retreat ---------------------------------------------------------------------------

@pytest.mark.rule("GC-6B.6")
def test_vector_v5_retreat():
    """V5 (GC-6B.6): S3 with an SC of S5: T 8, 26/36; the SC itself, S4: T 8; no SC, S2: T 2, 1/36; after a
    failure, a free attack A2 vs D9 destroys 10 x 21 = 210/1296, the unit stays 150/1296."""
    assert [threshold_terms(*given).total for given in ((3, 5, False), (4, 4, True), (2, 0, False))] == [8, 8, 2]
    assert fractions(retreat_roll_odds(RetreatRollInput(8)))[True] == F(26, 36)
    assert fractions(retreat_roll_odds(RetreatRollInput(2)))[True] == F(1, 36)
    odds = fractions(retreat_odds(RetreatInput(RetreatRollInput(8), StrikeInput(2, 9))))
    assert odds == {RETREATED: F(26, 36), DESTROYED: F(210, 1296), STAYS: F(150, 1296)}


@pytest.mark.rule("GC-6B.6")
def test_a_failed_retreat_with_no_shooter_stays():
    """GC-6B.6 (Q15): with no enemy unit able to shoot (only the fortress), a failed retreat just stays."""
    assert fractions(retreat_odds(RetreatInput(RetreatRollInput(2), None))) == {RETREATED: F(1, 36), STAYS: F(35, 36)}


# --- GC-6A.32 / GC-6A.33a plots, GC-7.21 the +2 ------------------------------------------------------

@pytest.mark.rule("GC-6A.32", "GC-6A.33a")
def test_vector_v6_plot_and_counter_plot():
    """V6 (GC-6A.32/33a): P8 against a target with (6): target dies 540/1296, plotter 21 x 26 = 546/1296,
    nothing 210/1296; against a target with no plot value: 15/36, else nothing."""
    assert fractions(plot_odds(PlotInput(8, 6))) == {TARGET_DESTROYED: F(540, 1296), PLOTTER_DESTROYED: F(546, 1296),
                                                     NOTHING: F(210, 1296)}
    assert fractions(plot_odds(PlotInput(8, None))) == {TARGET_DESTROYED: F(15, 36), NOTHING: F(21, 36)}


@pytest.mark.rule("GC-7.21")
def test_vector_v7_garrison_release_with_the_commanders_plus_2():
    """V7 (GC-7.21): P9 as the commander's player, 2d6 + 2 >= 9: 21/36; otherwise 10/36."""
    assert fractions(plot_roll_odds(PlotRollInput(9, 2)))[True] == F(21, 36)
    assert fractions(plot_roll_odds(PlotRollInput(9)))[True] == F(10, 36)


# --- GC-6B.4r / GC-9.13r roll-offs ----------------------------------------------------------------

@pytest.mark.rule("GC-6B.4r", "GC-9.13r")
def test_roll_offs_are_even_and_ties_roll_again():
    """GC-6B.4r / GC-9.13r (Q12): 1d6 each, ties again: each side wins one throw 15/36, a tie 6/36, so 1/2 in the
    end; three camps: each 91/216 ... and the tie rows roll again."""
    two = fractions(roll_off_odds(RollOffInput()))
    assert two == {(0,): F(15, 36), (1,): F(15, 36), (0, 1): F(6, 36)}
    assert two[(0,)] / (1 - two[(0, 1)]) == F(1, 2)
    three = fractions(roll_off_odds(RollOffInput(3)))
    assert three[(0,)] == three[(1,)] == three[(2,)] == F(sum((k - 1) ** 2 for k in range(1, 7)), 216)
    assert sum(p for k, p in three.items() if len(k) > 1) == 1 - 3 * three[(0,)]

