"""The read-only views a dashboard calls: the battle board, the map, the table row and the odds before a roll."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from companion.odds import fractions
from engines.house_divided.views import battle_board, command_row, fi_return_now, map_view, march_odds
from tests.engines.house_divided.support import Table


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
