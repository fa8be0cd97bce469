"""The historical 3-day battle (DX-14.0): one reinforcement a side a turn, the end of a day after the USA's last
draw and the CSA morale step, attacking units disengaging (A17), the night draw and deployment, day-1 terrain,
and the USA's win if the CSA has not won by the end of day 3."""
from __future__ import annotations

import pytest

from tests.engines.dixie.support import Table, historical_decks, leader, terrain


def table_with(rows=None, **options) -> Table:
    return Table(rows or historical_decks(), custom_decks=False, historical=True, **options)


def pass_turn(table: Table) -> None:
    """End this turn's steps and draw the first card of the side's reinforcement deck (DX-14.0: one each)."""
    table.to_step("reinforcement")
    deck = table.state.at("reinforcements", table.state.active)
    table.do("reinforce", cards=[deck[0].id] if deck else [])


def night(table: Table) -> None:
    for side, n in (("CSA", 6), ("USA", 12)):
        deck = [c.id for c in table.state.at("deck", side)]
        table.do("night_draw", cards=deck[:n], reinforcements=deck[n:n + 6])


@pytest.mark.rule("DX-14.0", "DX-9.0")
def test_a_day_ends_after_the_usa_last_draw_and_the_csa_morale_step():
    """DX-14.0: the USA draws 1 a turn; after the USA draws its last R card, the CSA takes its morale step and the
    day ends; attacking units then disengage; at night N cards go to the reserve and the next R6 is set aside;
    cards deploy within the limits and day 2 starts with a CSA turn."""
    table = table_with()
    table.deploy({"CSA-1": "CSA-L", "CSA-2": "CSA-C", "USA-101": "USA-R", "USA-102": "USA-C"})
    table.to_step("movement")
    table.do("move", card="CSA-2", to="USA-C")
    for turn in range(12):
        pass_turn(table)
        assert len(table.state.at("reinforcements", "CSA" if turn % 2 == 0 else "USA")) == 5 - turn // 2
    assert (table.state.turn, table.state.active, table.state.day_ending) == (13, "CSA", True)
    table.refuse("DX-14.0", "end_morale")
    step = table.do("end_day")
    assert "day 1 ends" in step.summary
    assert table.card("CSA-2").loc == "CSA-C" and table.card("USA-102").loc == "USA-C"
    table.refuse("DX-14.0", "start_day")
    night(table)
    assert len(table.state.at("reserve", "USA")) == 18 - 2 + 6 + 12
    assert [len(table.state.at("reinforcements", s)) for s in ("CSA", "USA")] == [6, 6]
    table.refuse("DX-3.2", "deploy", card="CSA-30", position="USA-C")
    table.do("deploy", card="CSA-30", position="CSA-R")
    table.do("start_day")
    assert (table.state.day, table.state.turn, table.state.active, table.state.step) == (2, 14, "CSA", "morale")


@pytest.mark.rule("DX-14.0", "DX-4.0")
def test_the_usa_wins_if_the_csa_has_not_by_the_end_of_day_3():
    """DX-14.0: if the CSA has not won by the end of day 3, the USA wins."""
    table = table_with()
    table.deploy({"CSA-1": "CSA-L", "USA-101": "USA-R"})
    for day in (1, 2, 3):
        for _ in range(12):
            pass_turn(table)
        table.do("end_day")
        if day < 3:
            night(table)
            table.do("start_day")
    assert table.state.victory.side == "USA" and table.state.victory.rule == "DX-14.0"


@pytest.mark.rule("DX-14.0", "DX-10.2")
def test_day_1_uses_only_day_1_terrain():
    """DX-14.0: on day 1 only day-1 terrain may be used."""
    rows = historical_decks()
    rows[0] = terrain(1, "CSA", "L", day=2)
    rows[1] = terrain(2, "CSA", "L", day=1)
    table = table_with(rows)
    table.refuse("DX-14.0", "deploy", card="CSA-1", position="CSA-L")
    table.do("deploy", card="CSA-2", position="CSA-L")


@pytest.mark.rule("DX-14.0", "DX-11.3", "DX-8.2")
def test_at_day_end_a_leader_stays_behind_and_dies_alone():
    """DX-14.0: attacking unit cards disengage at the end of the day; their leader does not go with them, and
    left alone with enemy units it is killed at once (DX-11.3)."""
    rows = historical_decks()
    rows[2] = leader(3, "CSA", day=1)
    table = table_with(rows)
    table.deploy({"CSA-1": "CSA-L", "CSA-2": "CSA-C", "CSA-3": "CSA-C", "USA-101": "USA-R", "USA-102": "USA-C"})
    table.to_step("movement")
    table.do("move", card="CSA-2", to="USA-C")
    table.do("move", card="CSA-3", to="USA-C")
    for _ in range(12):
        pass_turn(table)
    step = table.do("end_day")
    assert table.card("CSA-2").loc == "CSA-C" and table.card("CSA-3").loc == "eliminated"
    assert "DX-11.3" in step.rules


@pytest.mark.rule("DX-14.0", "DX-8.2")
def test_at_day_end_an_attacker_with_nowhere_to_go_stays():
    """DX-14.0 / DX-8.2 / A23: CSA-2 attacks in USA-C while USA-103 holds CSA-C across the Middle Ground; it may
    neither disengage there nor jump to the reserve, so by default it stays (by option it is eliminated)."""
    for option, where in (({}, "USA-C"), ({"no_disengage_destination": "eliminate"}, "eliminated")):
        table = table_with(**option)
        table.deploy({"CSA-2": "CSA-C", "USA-101": "USA-R", "USA-102": "USA-C", "USA-103": "USA-C"})
        table.to_step("movement")
        table.do("move", card="CSA-2", to="USA-C")
        pass_turn(table)
        table.to_step("movement")
        table.do("move", card="USA-103", to="CSA-C")
        for _ in range(11):
            pass_turn(table)
        step = table.do("end_day")
        assert table.card("CSA-2").loc == where and "cannot disengage from USA-C" in step.summary
