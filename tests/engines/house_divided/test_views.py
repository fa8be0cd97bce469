"""The read-only views a dashboard calls: the battle board, the map, the table row and the odds before a roll."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from companion.odds import fractions
from engines.house_divided import ENGINE
from engines.house_divided.guide import other_steps
from engines.house_divided.views import (battle_board, border_views, box_text, command_row, fi_return_now, flags,
                                         map_view, march_odds)
from tests.engines.house_divided.support import Table, designated_setup


@pytest.mark.rule("HD-4.1")
def test_the_march_roll_view():
    """HD-4.1: the 1861 Union row (2, 2, 2, 3, 3, 4) and its odds."""
    table = Table()
    assert command_row(table.state) == {1: 2, 2: 2, 3: 2, 4: 3, 5: 3, 6: 4}
    assert command_row(table.state, "CSA") == {1: 2, 2: 3, 3: 3, 4: 4, 5: 4, 6: 5}
    assert fractions(march_odds(table.state)) == {2: F(1, 2), 3: F(1, 3), 4: F(1, 6)}


@pytest.mark.rule("HD-4.2", "HD-5.6", "HD-5.4")
def test_the_battle_board():
    """The board: box, round and day, who acts, each side's command, carry and fire limit, its units."""
    table = Table(supply=False)
    table.to_battles()
    assert battle_board(table.state) is None
    table.do("start_battle", box="P")
    table.do("battle_command", 6, 1)  # 1861: Union 4, CSA 2
    board = battle_board(table.state)
    assert (board.box, board.round, board.day, board.attacker, board.step, board.step_side) == \
        ("P", 1, 1, "USA", "fire", "USA")
    assert board.contained and not board.over
    union, csa = board.sides
    assert (union.command, union.carry_next, union.fire_limit, union.active) == (4, 2, 4, ("USA 4", "USA 5"))
    assert (csa.command, csa.carry_next, csa.fire_limit, csa.active) == (2, 1, 2, ("CSA 9",))
    assert csa.garrison_hits is None and csa.hits_due == 0


@pytest.mark.rule("HD-5.1", "HD-8")
def test_the_map_view():
    """Every box with its controller, units and the phasing side's supply status."""
    views = {v.id: v for v in map_view(Table().state)}
    assert len(views) == 11
    p = views["P"]
    assert (p.controller, p.units, p.landed, p.contained, p.supply) == ("USA", {"USA": 2, "CSA": 1}, True, True,
                                                                      "in supply")
    assert views["C"].leaders == ("Lee",) and views["europe"].controller == ""
    assert (views["A"].x, views["A"].y) == (1.0, 0.0)


@pytest.mark.rule("HD-4.9")
def test_the_fi_return_view():
    table = Table()
    assert fractions(fi_return_now(table.state)) == {0: 1}


@pytest.mark.rule("HD-4.1", "HD-4.10")
def test_the_flags_of_the_game():
    """The game in short phrases: the player turn, who holds Washington and Richmond (or that the map lacks it),
    the march roll and the basic fire's state."""
    table = Table()
    assert flags(table.state) == ["Turn 1 (1861): Union player turn", "Washington: Union",
                                  "Richmond: not on the map", "basic fire unconfigured (HD-4.10)"]
    table.to_movement(6)  # 1861 Union, die 6: 4 marches (HD-4.1)
    assert "marches left 4 (die 6: 4 marches)" in flags(table.state)
    assert "Richmond: CSA" in flags(Table(designated_setup()).state)


@pytest.mark.rule("HD-5.1", "HD-5.4", "HD-8")
def test_one_box_as_text():
    """A box as the players described it, who holds it, its units by side and its supply."""
    text = box_text(Table().state, "P")
    assert text.startswith("Example P (CSA port taken by landing) (P, Example): held by Union; shield CSA, 0 RP, "
                           "port, taken by landing, contained (HD-5.4).")
    assert "Units: Union: USA 4, USA 5; CSA: CSA 9" in text and "\nSupply: in supply" in text


@pytest.mark.rule("HD-4.8")
def test_the_border_states_view():
    """HD-4.8: a state rolls only when the CSA holds all its cities; Kentucky with the gap 12 (> 10: -1) in 1861
    (+1) needs a d6 over 1: 5/6 a roll, 1 - (1/6)^2 = 35/36 within two CSA turns."""
    views = {v.name: v for v in border_views(Table(designated_setup({"louisville": "CSA"}, mm=(40, 28))).state, 2)}
    assert "not st_joseph" in views["Missouri"].refusal and views["Missouri"].within == ()
    kentucky = views["Kentucky"]
    assert (kentucky.refusal, kentucky.needed, kentucky.chance, kentucky.within) == ("", 1, F(5, 6), (F(5, 6),
                                                                                                     F(35, 36)))
    assert "-1" in kentucky.modifiers and "+1" in kentucky.modifiers and kentucky.status == "open"
    assert "no box for st_joseph" in border_views(Table().state, 1)[0].refusal


@pytest.mark.rule("HD-6.3", "HD-5.5")
def test_the_other_steps_open_now():
    """The actions the sequence of play does not ask for, when open: an MM change at any time (HD-6.3); in the
    movement segment, entrenching too (HD-5.5); no leader moves alone on the Union turn, the only leader being Lee."""
    table = Table()
    assert [d.action for d in other_steps(table.state)] == ["adjust_mm"]
    table.to_movement(3)
    open_now = [d.action for d in other_steps(table.state)]
    assert open_now == ["adjust_mm", "entrench"]


@pytest.mark.rule("HD-5.2", "HD-3")
def test_destinations_joined_by_a_line_come_first():
    """A march's boxes: those joined to the origin by a line first, named with the lines' types, then the others in
    the map's order (the EXAMPLE map: X is joined to R3 and R1 by rail and to Washington by road)."""
    table = Table()
    table.to_movement(3)
    legal = ENGINE.actions.specs["march"].param("to").legal(table.state, {"units": ["USA 1"]})
    assert [c.value for c in legal.options] == ["R1", "R3", "washington", "A", "R2", "B", "C", "U1", "P"]
    assert legal.options[2].label == "Example Washington (by road)" and legal.options[3].label == "Example A"


@pytest.mark.rule("HD-4.4", "HD-4.6")
def test_one_units_rout_and_desertion_odds_by_grade():
    """Counted on the six faces: a rout is a d6 (-1 in a fort or entrenched) above morale; desertion a d6 +1 if its
    side lost, -1 if it did not rout, above morale (no leader)."""
    from engines.house_divided.morale import morale_value
    from engines.house_divided.rules import YEARS
    from engines.house_divided.views import unit_odds

    def share(test):
        return F(sum(1 for d in range(1, 7) if test(d)), 6)
    for year in YEARS:
        for grade, morale, chances in unit_odds(year):
            assert morale == morale_value(grade, year)
            assert chances == (share(lambda d: d > morale), share(lambda d: d - 1 > morale),
                               share(lambda d: d + 1 > morale), share(lambda d: d > morale),
                               share(lambda d: d - 1 > morale))


@pytest.mark.rule("HD-4.1")
def test_the_command_table_view_is_the_digests_table():
    from engines.house_divided.views import command_table
    digest = """2/2 2/3 2/3 3/3 3/2
                2/3 2/3 3/4 3/3 4/3
                2/3 3/4 3/4 4/4 4/3
                3/4 3/4 4/5 4/4 5/4
                3/4 4/5 4/5 5/5 5/4
                4/5 4/5 5/6 5/5 6/5"""
    assert command_table() == [(d, *line.split()) for d, line in enumerate(digest.splitlines(), 1)]


@pytest.mark.rule("HD-4.2", "HD-5.6", "HD-4.3")
def test_the_battle_rows_give_both_sides_by_row():
    """The example's battle at P after day 1's command (1861: Union 3 -> 2, CSA 2 -> 3): tomorrow the table +1
    and +2 (ceil(2/2), ceil(3/2)); the 1861 columns, Union 2,2,2,3,3,4 and CSA 2,3,3,4,4,5, never reach 8."""
    from engines.house_divided.views import battle_rows
    table = Table(supply=False)
    table.to_battles(4)
    table.do("start_battle", box="P")
    table.do("battle_command", 3, 2)
    state = table.state
    rows = {row[0]: row[1:] for row in battle_rows(state)}
    assert rows["command C today"] == ("HD-4.2", 2, 3) and rows["fire limit min(C, 8)"] == ("HD-5.6", 2, 3)
    assert rows["carry to tomorrow ⌈X/2⌉"] == ("", "+1", "+2")
    assert rows["tomorrow's fire limit, expected"] == ("", f"{float(F(8, 3) + 1):.2f}", f"{float(F(21, 6) + 2):.2f}")
    assert rows["tomorrow: P(8 units fire)"] == ("", F(0), F(0))
    assert rows["leaders (points to split each round)"][0] == "HD-4.3"


@pytest.mark.rule("HD-4.1", "HD-4.7", "HD-4.8")
def test_the_odds_beside_a_step():
    """The march roll (1861 Union: 2, 2, 2, 3, 3, 4), Washington's loss (MM 34 - max(2, d): 32 on 1-2, then 31 to
    28), a border state that may not roll (its note says why); a step with nothing to roll has none."""
    from engines.house_divided.views import step_odds
    state = Table().state
    marches = step_odds(state, "roll_marches", {})
    assert marches.title == "Marches this turn, Union 1861 (HD-4.1)" and marches.what == "marches"
    assert fractions(marches.dist) == {2: F(1, 2), 3: F(1, 3), 4: F(1, 6)}
    assert fractions(step_odds(state, "washington_loss", {}).dist) == {32: F(1, 3), 31: F(1, 6), 30: F(1, 6),
                                                                       29: F(1, 6), 28: F(1, 6)}
    border = step_odds(state, "border_state_roll", {"border_state": "MO"})
    assert border.title == "Border-state support (HD-4.8)" and "st_joseph" in border.note and not border.numbers
    assert step_odds(state, "end_movement", {}) is None


@pytest.mark.rule("HD-4.8", "HD-5.9")
def test_the_border_curves_and_where_the_fi_units_are():
    """TV-9: Missouri in 1861 with D = 5 joins on a roll with 5/6, so within n CSA turns with 1 - (1/6)^n (the
    modifiers held); the other states may not roll. No FI unit is on the map at the start."""
    from engines.house_divided.views import border_curves, fi_units_text
    state = Table(designated_setup(control={"st_joseph": "CSA", "springfield": "CSA", "st_louis": "CSA"},
                                   mm=(30, 25))).state
    assert border_curves(state, 3) == {"Missouri": [(n, 1 - F(1, 6) ** n) for n in (1, 2, 3)]}
    assert fi_units_text(state) == "none yet"
    assert border_curves(Table(border_states=False).state, 3) == {}


@pytest.mark.rule("HD-8")
def test_the_box_at_a_tap():
    """The example map draws U1 at (-3, 0) and X at (-1, -1), within a drawing 7 wide: a tap beside U1 is U1's, one
    far from every box or off the figure is no box's."""
    from engines.house_divided.views import box_at
    state = Table().state
    assert box_at(state, -2.95, 0.05) == "U1" and box_at(state, -1.1, -0.9) == "X"
    assert box_at(state, 10.0, 10.0) is None and box_at(state, None, 0.0) is None
