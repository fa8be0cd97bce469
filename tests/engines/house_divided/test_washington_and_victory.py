"""HD-4.7 / HD-5.10 the capture of Washington (A9), HD-6.1-HD-6.3 victory."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from companion.dice import ScriptedDice
from companion.odds import fractions, mean
from engines.house_divided import victory
from engines.house_divided.guide import due_now
from engines.house_divided.views import washington_mm_odds
from engines.house_divided.washington import WashingtonInput, resolve_washington, washington_odds
from tests.engines.house_divided.support import Table, setup


@pytest.mark.rule("HD-4.7")
def test_vector_04_the_loss():
    """TV-4: d = 1 -> 2, d = 2 -> 2, d = 5 -> 5; E[loss] = 11/3."""
    assert [resolve_washington(WashingtonInput(30), ScriptedDice([d])).outcome for d in (1, 2, 5)] == [2, 2, 5]
    assert mean(washington_odds(WashingtonInput(30))) == F(11, 3)
    assert fractions(washington_odds(WashingtonInput(30))) == {2: F(1, 3), 3: F(1, 6), 4: F(1, 6), 5: F(1, 6),
                                                               6: F(1, 6)}


@pytest.mark.rule("HD-4.7", "HD-5.10", "HD-6.1")
def test_every_capture_costs_the_union_at_once_and_a_recapture_gives_back_1():
    """HD-4.7: on a CSA capture the loss is rolled at once (nothing else first), not a win (HD-6.1); a Union
    recapture adds 1 (TV-4); a second capture rolls again (HD-5.10)."""
    table = Table()
    step = table.do("set_control", box="washington", side="CSA")
    assert "HD-6.1" in step.rules and table.state.victory is None
    assert [d.action for d in due_now(table.state)] == ["washington_loss"]
    assert fractions(washington_mm_odds(table.state))[32] == F(1, 3)
    table.refuse("HD-4.7", "check_supply")
    table.do("washington_loss", 1)
    assert table.state.mm_usa == 32 and table.state.victory is None
    table.refuse("HD-4.7", "washington_loss", 3)
    table.do("set_control", box="washington", side="USA")
    assert table.state.mm_usa == 33
    table.do("set_control", box="washington", side="CSA")
    table.do("washington_loss", 4)
    assert table.state.mm_usa == 29


@pytest.mark.rule("HD-A9")
def test_option_a9_adds_the_normal_loss():
    """A9 (b): the rolled loss adds to the normal 1-point loss: a 1 costs 3."""
    assert resolve_washington(WashingtonInput(30, "adds"), ScriptedDice([1])).outcome == 3
    table = Table(washington_loss="adds")
    table.do("set_control", box="washington", side="CSA")
    table.do("washington_loss", 5)
    assert table.state.mm_usa == 34 - 6


@pytest.mark.rule("HD-6.3", "HD-6.2")
def test_the_union_mm_below_the_csas_ends_the_game():
    """HD-6.3: after every MM change the basic condition is checked (once switched on, A26): Union 34 - 6 = 28 <
    CSA 29."""
    table = Table(basic_victory=True)
    table.do("set_control", box="washington", side="CSA")
    step = table.do("washington_loss", 6)
    assert table.state.victory.side == "CSA" and table.state.victory.rule == "HD-6.3" and "HD-6.2" in step.rules
    table.refuse("HD-6.3", "check_supply")
    table = Table(basic_victory=True)
    table.do("adjust_mm", side="CSA", change=5, reason="recruits")
    assert table.state.victory is None
    table.do("adjust_mm", side="CSA", change=1)
    assert table.state.victory.side == "CSA"


@pytest.mark.rule("HD-6.3")
def test_mm_stays_on_its_track():
    table = Table(setup(mm_track=40))
    table.refuse("HD-6.3", "adjust_mm", side="USA", change=7)
    table.refuse("HD-6.3", "adjust_mm", side="USA", change=-35)
    table.do("adjust_mm", side="USA", change=0, reason="no change")
    assert table.state.mm_usa == 34
    table.do("adjust_mm", side="USA", change=6)
    assert table.state.mm_usa == 40


@pytest.mark.rule("HD-4.7", "HD-6.3")
def test_a_recapture_of_washington_stays_on_the_track():
    """HD-4.7: a recapture gives back 1 MM, but the Union MM does not go past the top of the track (HD-6.3)."""
    table = Table(setup(mm_track=40))
    table.do("set_control", box="washington", side="CSA")
    table.do("washington_loss", 2)
    table.do("adjust_mm", side="USA", change=8)
    step = table.do("set_control", box="washington", side="USA")
    assert table.state.mm_usa == 40 and "40 -> 40 (the top of the track)" in step.summary


@pytest.mark.rule("HD-6.2", "HD-6.1")
def test_washington_is_a_win_only_in_the_basic_game():
    """HD-6.2: with the advanced Washington rule off, taking Washington wins for the CSA (the basic victory
    switched on, A26); with the basic victory off, no win is declared."""
    table = Table(washington=False, basic_victory=True)
    table.do("set_control", box="washington", side="CSA")
    assert table.state.victory.side == "CSA" and not table.state.washington_due
    table = Table(washington=False)
    table.do("set_control", box="washington", side="CSA")
    assert table.state.victory is None


@pytest.mark.rule("HD-6.2")
def test_the_seven_southern_cities():
    """HD-6.2: the Union wins holding the 7 largest Southern cities (named by the players)."""
    cities = ["R1", "R2", "R3", "A", "B", "C", "P"]
    table = Table(setup(southern_cities=cities), basic_victory=True)
    table.do("set_control", box="P", side="CSA")  # the example's landed port P is Union-held
    for city in cities[:-1]:
        table.do("set_control", box=city, side="USA")
        assert table.state.victory is None
    table.do("set_control", box="P", side="USA")
    assert table.state.victory.side == "USA"


@pytest.mark.rule("HD-6.2")
def test_the_csa_survives_turn_40():
    """HD-6.2: after the CSA player turn of turn 40 the CSA wins."""
    table = Table(setup(turn=40, year=1865), supply=False, basic_victory=True)
    for _ in range(2):
        table.to_battles()
        table.pass_turn()
    assert table.state.victory.side == "CSA" and "turn 40" in table.state.victory.result


@pytest.mark.rule("HD-6.2", "HD-6.3", "HD-A26")
def test_the_basic_victory_is_off_until_switched_on():
    """HD-6.2 / A26: by default the basic-game conditions are shown as information and no win is declared: the
    Union MM below the CSA's, the 7 Southern cities held, Washington taken with S5 off, turn 40 survived."""
    table = Table()
    table.do("adjust_mm", side="CSA", change=6)
    assert table.state.mm_usa < table.state.mm_csa and table.state.victory is None
    assert ("CSA", "The Union MM (34) is below the CSA MM (35)") in [(c.side, c.text) for c in
                                                                    victory.conditions(table.state) if c.holds]
    cities = ["R1", "R2", "R3", "A", "B", "C", "P"]
    table = Table(setup(southern_cities=cities), washington=False)
    for city in cities[:-1]:
        table.do("set_control", box=city, side="USA")
    table.do("set_control", box="washington", side="CSA")
    assert table.state.victory is None
    assert {c.side for c in victory.conditions(table.state) if c.holds} == {"USA", "CSA"}
    table = Table(setup(turn=40, year=1865), supply=False)
    for _ in range(2):
        table.to_battles()
        table.pass_turn()
    assert table.state.victory.side == "" and "decide the game by your rulebook" in table.state.victory.result
