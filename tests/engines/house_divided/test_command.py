"""HD-4.1 the Command Table, HD-5.2 marches, A1/A2/A16."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from companion.dice import ScriptedDice
from companion.odds import fractions
from engines.house_divided.battle_command import CommandInput, resolve_battle_command
from engines.house_divided.command import MarchInput, marches, marches_odds, resolve_marches
from engines.house_divided.views import command_row
from tests.engines.house_divided.support import Table

# HD-4.1 typed again from the digest: year -> die -> "Union/Confederate".
DIGEST = {
    1861: ("2/2", "2/3", "2/3", "3/4", "3/4", "4/5"),
    1862: ("2/3", "2/3", "3/4", "3/4", "4/5", "4/5"),
    1863: ("2/3", "3/4", "3/4", "4/5", "4/5", "5/6"),
    1864: ("3/3", "3/3", "4/4", "4/4", "5/5", "5/5"),
    1865: ("3/2", "4/3", "4/3", "5/4", "5/4", "6/5"),
}


@pytest.mark.rule("HD-4.1", "HD-A1")
def test_every_cell_of_the_command_table():
    """HD-4.1 (A1: the table the source titles a morale table is the Command Table): all 30 cells, Union first."""
    for year, column in DIGEST.items():
        for die, cell in enumerate(column, start=1):
            usa, csa = (int(x) for x in cell.split("/"))
            assert (marches(year, "USA", die), marches(year, "CSA", die)) == (usa, csa), (year, die)


@pytest.mark.rule("HD-4.1")
@pytest.mark.parametrize("year, die, usa, csa", [(1862, 4, 3, 4), (1865, 1, 3, 2), (1863, 6, 5, 6), (1861, 1, 2, 2)])
def test_vector_01_lookups(year, die, usa, csa):
    """TV-1: four lookups, each through the procedure with a scripted die."""
    assert resolve_marches(MarchInput(year, "USA"), ScriptedDice([die])).outcome == usa
    assert resolve_marches(MarchInput(year, "CSA"), ScriptedDice([die])).outcome == csa


@pytest.mark.rule("HD-4.1")
def test_reconstruction_checks():
    """Digest HD-4.1: every column rises with the die; Union sums 16, 18, 21, 24, 27; CSA 21, 24, 27, 24, 21."""
    sums = {"USA": [], "CSA": []}
    for side in sums:
        for year in DIGEST:
            column = [marches(year, side, d) for d in range(1, 7)]
            assert column == sorted(column)
            sums[side].append(sum(column))
    assert sums == {"USA": [16, 18, 21, 24, 27], "CSA": [21, 24, 27, 24, 21]}
    assert fractions(marches_odds(MarchInput(1863, "CSA"))) == {3: F(1, 6), 4: F(1, 3), 5: F(1, 3), 6: F(1, 6)}


@pytest.mark.rule("HD-A2", "HD-4.2")
def test_battle_command_reads_the_same_table():
    """A2: the battle's command roll is read on the march table (all three source cells fit)."""
    for year in DIGEST:
        for side in ("USA", "CSA"):
            for die in range(1, 7):
                result = resolve_battle_command(CommandInput(year, side), ScriptedDice([die]))
                assert result.outcome == marches(year, side, die)


@pytest.mark.rule("HD-4.1", "HD-5.2", "HD-A16")
def test_the_march_roll_keeps_the_raw_die():
    """HD-4.1 in play: the marches of the turn; the raw die is kept (A16)."""
    table = Table()
    table.do("check_supply")
    table.do("end_start")
    assert command_row(table.state) == {1: 2, 2: 2, 3: 2, 4: 3, 5: 3, 6: 4}
    step = table.do("roll_marches", 6)
    assert (table.state.marches_left, table.state.march_die) == (4, 6)
    assert "naval invasion" in step.summary and "HD-A16" in step.rules
    table.refuse("HD-4.1", "roll_marches", 2)


@pytest.mark.rule("HD-A16")
def test_option_a16_reads_the_march_count():
    """A16 (b): the basic trigger reads the table's march count: a raw 6 in 1861 is 4 marches, no invasion."""
    table = Table(march_trigger="result")
    table.do("check_supply")
    table.do("end_start")
    assert "naval invasion" not in table.do("roll_marches", 6).summary


@pytest.mark.rule("HD-5.2")
def test_marches_are_spent_and_units_use_at_most_two():
    """HD-5.2: each march moves the units of one box and costs one of the turn's marches; a unit uses at most 2."""
    table = Table()
    table.do("check_supply")
    table.do("end_start")
    table.refuse("HD-4.1", "march", units=["USA 2"], to="U1")
    table.do("roll_marches", 6)  # 1861 Union: 4 marches
    table.do("march", units=["USA 2", "USA 3"], to="U1")
    assert table.state.marches_left == 3 and table.unit("USA 2").box == "U1"
    table.do("march", units=["USA 2"], to="washington")
    table.refuse("HD-5.2", "march", units=["USA 2"], to="U1")
    table.refuse("HD-5.2", "march", units=["USA 3", "USA 1"], to="X")
    table.refuse("HD-5.2", "march", units=["CSA 1"], to="B")
    table.do("march", units=["USA 1"], to="washington")
    table.do("march", units=["USA 1"], to="X")
    assert table.state.marches_left == 0
    table.refuse("HD-5.2", "march", units=["USA 3"], to="washington")


@pytest.mark.rule("HD-5.2")
def test_without_the_command_table_the_players_enter_the_marches():
    """S2 off: the march count comes from the basic rules, entered (0 to 6)."""
    table = Table(command=False)
    table.do("check_supply")
    table.do("end_start")
    table.refuse("HD-4.1", "roll_marches", 3)
    table.refuse("HD-5.2", "set_marches", count=7)
    table.do("set_marches", count=2)
    assert table.state.marches_left == 2
    table.refuse("HD-5.2", "set_marches", count=1)
