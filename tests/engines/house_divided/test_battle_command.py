"""HD-4.2 battlefield command by day, the half carry, HD-5.6 the firing limit, options A3 and A4."""
from __future__ import annotations

from fractions import Fraction as F
from math import ceil

import pytest

from companion.dice import ScriptedDice
from companion.odds import exhaustive, fractions
from engines.house_divided.battle_command import (
    CommandInput,
    command_by_day,
    fire_limit_by_day,
    resolve_battle_command,
)
from engines.house_divided.views import battle_board, next_command_odds
from tests.engines.house_divided.support import TEST_BASIC, Table, battle_setup, unit


def days(year, side, leaders, faces, carry="uncapped", leader_carry="included"):
    """Roll the procedure day after day with these faces: the C and fire limit of each day."""
    carried, found = None, []
    for face in faces:
        result = resolve_battle_command(CommandInput(year, side, leaders, carried, carry, leader_carry),
                                        ScriptedDice([face]))
        found.append((result.outcome, result.details["fire_limit"]))
        carried = result.details["passes_on"]
    return found


@pytest.mark.rule("HD-4.2", "HD-5.6")
def test_vector_02_the_source_example():
    """TV-2 (USA 1862): dice 4, 1, 5 give C = 3, 4, 6 (carries 2 and 2), fire limits 3, 4, 6."""
    assert days(1862, "USA", 0, [4, 1, 5]) == [(3, 3), (4, 4), (6, 6)]


@pytest.mark.rule("HD-4.2", "HD-5.6", "HD-A4")
def test_vector_05_lee():
    """TV-5 (CSA 1863, Lee 3): day 1 d3 -> C 7, limit 7; day 2 d6 -> 6 + 4 + 3 = 13, limit 8; under A4 (b)
    6 + 2 + 3 = 11, limit 8. Day 1: C = 6, 7, 8, 9 with 1/6, 1/3, 1/3, 1/6, so P(limit 8) = 1/2."""
    assert days(1863, "CSA", 3, [3, 6]) == [(7, 7), (13, 8)]
    assert days(1863, "CSA", 3, [3, 6], leader_carry="excluded") == [(7, 7), (11, 8)]
    day1 = command_by_day(1863, "CSA", 3, 1)[0]
    assert fractions(day1) == {6: F(1, 6), 7: F(1, 3), 8: F(1, 3), 9: F(1, 6)}
    assert fractions(fire_limit_by_day(1863, "CSA", 3, 1)[0])[8] == F(1, 2)


@pytest.mark.rule("HD-4.2")
def test_vector_06_unconditional_distribution():
    """TV-6 (USA 1862): day 1 {2, 3, 4} each 1/3; day 2 {3: 1/9, 4: 1/3, 5: 1/3, 6: 2/9};
    day 3 {4: 4/27, 5: 1/3, 6: 1/3, 7: 5/27}."""
    d1, d2, d3 = (fractions(d) for d in command_by_day(1862, "USA", 0, 3))
    assert d1 == {2: F(1, 3), 3: F(1, 3), 4: F(1, 3)}
    assert d2 == {3: F(1, 9), 4: F(1, 3), 5: F(1, 3), 6: F(2, 9)}
    assert d3 == {4: F(4, 27), 5: F(1, 3), 6: F(1, 3), 7: F(5, 27)}


@pytest.mark.rule("HD-4.2", "HD-5.6", "HD-A3")
def test_vector_07_sixes_every_day():
    """TV-7 (USA 1865, 6 every day): C = 6, 9, 11, 12, 12 and limits 6, 8, 8, 8, 8: C is not capped (A3 (a)).
    Under A3 (b) the carry is halved after capping at 8: C = 6, 9, 10, 10, 10."""
    assert days(1865, "USA", 0, [6] * 5) == [(6, 6), (9, 8), (11, 8), (12, 8), (12, 8)]
    assert [c for c, _ in days(1865, "USA", 0, [6] * 5, carry="capped")] == [6, 9, 10, 10, 10]


@pytest.mark.rule("HD-4.2", "HD-A3", "HD-A4")
@pytest.mark.parametrize("carry, leader_carry", [("uncapped", "included"), ("capped", "included"),
                                                 ("uncapped", "excluded"), ("capped", "excluded")])
@pytest.mark.parametrize("year, side, leaders", [(1861, "CSA", 0), (1864, "USA", 2), (1863, "CSA", 3)])
def test_by_day_distribution_equals_enumerating_every_day_of_dice(year, side, leaders, carry, leader_carry):
    """The Markov chain over days agrees with chaining the procedure through every sequence of dice."""
    chain = command_by_day(year, side, leaders, 3, carry, leader_carry)
    for n in range(1, 4):
        def nth_day(dice, n=n):
            carried = None
            for _ in range(n):
                result = resolve_battle_command(CommandInput(year, side, leaders, carried, carry, leader_carry), dice)
                carried = result.details["passes_on"]
            return result.outcome
        assert fractions(chain[n - 1]) == fractions(exhaustive(nth_day))


@pytest.mark.rule("HD-4.2")
def test_the_formula_by_hand():
    """C_k = T + ceil(C_(k-1)/2) + L, written out for every die pair of 1864 CSA with L = 2."""
    table = {1: 3, 2: 3, 3: 4, 4: 4, 5: 5, 6: 5}
    for a in range(1, 7):
        for b in range(1, 7):
            first = table[a] + 2
            second = table[b] + ceil(first / 2) + 2
            assert days(1864, "CSA", 2, [a, b]) == [(first, min(first, 8)), (second, min(second, 8))]


def lee_battle(**options):
    """Union 1862 attack at A: three Union units against two CSA units and Lee (rating 3)."""
    units = [unit("U1", "USA", "A"), unit("U2", "USA", "A"), unit("U3", "USA", "A"),
             unit("C1", "CSA", "A"), unit("C2", "CSA", "A", "veteran"), unit("C3", "CSA", "B")]
    table = Table(battle_setup(units, [{"name": "Lee", "front": 3, "box": "A"}, {"name": "Grant", "front": 1},
                                        {"name": "Sherman", "front": 2, "box": "washington"}],
                               basic_rules=TEST_BASIC, year=1862), supply=False, **options)
    table.to_battles()
    table.do("start_battle", box="A")
    return table


@pytest.mark.rule("HD-4.2", "HD-5.6", "HD-5.7")
def test_battle_command_in_play_with_a_reinforcing_leader():
    """HD-4.2 in a battle: both sides roll at day 1 (the attacker's die first); Lee's 3 is in the CSA's C; a
    leader who reinforces adds his rating at once (Sherman: +2 to the Union's C and its fire limit)."""
    table = lee_battle()
    odds = fractions(next_command_odds(table.state, "CSA"))
    assert odds == {6: F(1, 3), 7: F(1, 3), 8: F(1, 3)}  # 1862 CSA: 3, 4 or 5, plus Lee's 3
    table.do("battle_command", 1, 1)
    board = battle_board(table.state)
    assert [(s.side, s.command, s.fire_limit) for s in board.sides] == [("USA", 2, 2), ("CSA", 6, 6)]
    table.do("reinforce", side="USA", leaders=["Sherman"])
    board = battle_board(table.state)
    assert (board.sides[0].command, board.sides[0].fire_limit, board.sides[0].carry_next) == (4, 4, 2)
    assert table.state.leader("Sherman").box == "A"


@pytest.mark.rule("HD-5.6")
def test_the_firing_limit_caps_the_units_that_fire():
    """HD-5.6: at most min(C, 8) units fire: with C = 2 the Union cannot fire with 3 units."""
    table = lee_battle()
    table.do("battle_command", 1, 1)
    table.refuse("HD-5.6", "fire", 1, 1, 1, side="USA", units=["U1", "U2", "U3"])
    table.refuse("HD-5.6", "fire", 1, 1, 1)  # 3 units able: the player must choose 2
    table.do("fire", 6, 6, side="USA", units=["U1", "U2"])


@pytest.mark.rule("HD-5.6", "HD-4.2")
def test_without_battle_command_the_cap_is_8():
    """S6 off: no command roll; the basic cap of 8 units a round."""
    table = lee_battle(battle_command=False)
    board = battle_board(table.state)
    assert board.step == "fire" and board.sides[0].fire_limit == 8
    table.refuse("HD-4.2", "battle_command", 1, 1)
