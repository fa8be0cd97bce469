"""Disengagement (DX-8.2): only to an unengaged friendly position, never into one holding enemy cards, whether
chosen in a move, chosen in a melee or forced after it (DX-13.1); with nowhere to go A23 decides; a leader does
not follow its units and dies at once if left alone with enemy units (DX-11.3)."""
from __future__ import annotations

import pytest

from engines.dixie import movement
from tests.engines.dixie.support import Table, advanced, leader, unit

# CSA-1 (1CV C INF) advances from CSA-L into USA-R in CSA turn 1, against USA-11 (2CV B INF) and the USA
# leader USA-13; USA-12 waits in USA-C.
CARDS = [unit(1, "CSA", cv=1, morale="C"), unit(11, "USA", cv=2), unit(12, "USA", cv=2), leader(13, "USA")]
PLACES = {"CSA-1": "CSA-L", "USA-11": "USA-R", "USA-12": "USA-C", "USA-13": "USA-R"}


def usa_holds_csa_c(**options) -> Table:
    """In USA turn 2 USA-12 moves into the empty CSA-C and occupies it (one of the two positions the USA needs,
    DX-4.0); the table is left at the USA combat step of turn 4, USA-R still engaged."""
    table = advanced(CARDS, PLACES, ["CSA-1"], melee=True, **options)
    table.to_step("movement")
    table.do("move", card="USA-12", to="CSA-C")
    table.next_turn()
    table.next_turn()
    table.to_step("combat")
    return table


def usa_must_disengage(fight_on: bool, **options) -> Table:
    """The USA melees in USA-R and must disengage: by its own choice after round 1 (DX-13.1 step 4), or forced
    after round 2 without sole presence (step 6). No die hits (F3) and none is a 6."""
    table = usa_holds_csa_c(**options)
    table.do("declare_melee", position="USA-R")
    table.do("melee_round", 4, 5, 5)
    table.do("check_hits")
    if fight_on:
        table.do("melee_choice", fight=True)
        table.do("melee_choice", fight=True)
        table.do("melee_round", 4, 5, 5)
        table.do("check_hits")
    else:
        table.do("melee_choice", fight=False)
    assert table.state.tasks[0].kind == "withdraw" and table.state.tasks[0].cards == ("USA-11",)
    return table


@pytest.mark.rule("DX-8.2", "DX-13.1", "DX-4.0")
@pytest.mark.parametrize("fight_on", [False, True], ids=["chosen", "forced"])
def test_a_melee_disengagement_never_goes_into_the_enemy_line(fight_on):
    """DX-8.2: from its own line a unit disengages only to its reserve; the empty CSA-L across the Middle Ground
    is not a friendly position (moving there would occupy a second CSA position and win the game)."""
    table = usa_must_disengage(fight_on)
    assert movement.disengagements(table.state, table.card("USA-11")) == ("reserve",)
    table.refuse("DX-8.2", "withdraw", card="USA-11", to="CSA-L")
    table.do("withdraw", card="USA-11", to="reserve")
    assert table.card("USA-11").loc == "reserve" and table.state.victory is None


@pytest.mark.rule("DX-11.3", "DX-13.1", "DX-8.2")
def test_a_leader_does_not_follow_disengaging_units_and_dies_alone():
    """DX-11.3 note / DX-13.1: only unit cards disengage; the leader left with the enemy units and no friendly
    unit is killed at once, and the log says so."""
    table = usa_must_disengage(fight_on=False)
    step = table.do("withdraw")
    assert table.card("USA-11").loc == "reserve" and table.card("USA-13").loc == "eliminated"
    assert "alone with enemy units in USA-R, is killed" in step.summary and "DX-11.3" in step.rules


def csa_cut_off(**options) -> Table:
    """CSA-1 stands in USA-R; in USA turn 2 USA-12 (from USA-R, engaged) moves across into the empty CSA-L, so
    the own-line position across from CSA-1 holds enemy cards; in CSA turn 3 the CSA melees in USA-R and
    chooses to disengage after round 1."""
    cards = [unit(1, "CSA", cv=1, morale="C"), unit(11, "USA", cv=2), unit(12, "USA", cv=2)]
    table = advanced(cards, {"CSA-1": "CSA-L", "USA-11": "USA-R", "USA-12": "USA-R"}, ["CSA-1"], melee=True,
                     **options)
    table.to_step("movement")
    table.do("move", card="USA-12", to="CSA-L")
    table.next_turn()
    table.to_step("combat")
    table.do("declare_melee", position="USA-R")
    table.do("melee_round", 4, 4, 5)
    table.do("check_hits")
    table.do("melee_choice", fight=False)
    return table


@pytest.mark.rule("DX-8.2", "DX-13.1")
def test_a_unit_with_nowhere_to_disengage_stays_by_default():
    """DX-8.2 / A23 (default): from the enemy line the only destination is the own-line position across, and
    CSA-L holds USA units: CSA-1 has no legal destination, so it stays where it is (not to the reserve, which is
    not one move away)."""
    table = csa_cut_off()
    assert movement.disengagements(table.state, table.card("CSA-1")) == ()
    table.refuse("DX-8.2", "withdraw", card="CSA-1", to="reserve")
    table.refuse("DX-8.2", "withdraw", card="CSA-1", to="CSA-L")
    step = table.do("withdraw")
    assert table.card("CSA-1").loc == "USA-R" and "stays" in step.summary and not table.state.tasks


@pytest.mark.rule("DX-8.2")
def test_a_unit_with_nowhere_to_disengage_is_eliminated_by_option():
    """A23 (option): the unit that cannot disengage is eliminated."""
    table = csa_cut_off(no_disengage_destination="eliminate")
    table.do("withdraw")
    assert table.card("CSA-1").loc == "eliminated"


@pytest.mark.rule("DX-8.2", "DX-8.1")
def test_an_engaged_card_moving_into_the_enemy_line_does_not_disengage():
    """DX-8.2: a move across the Middle Ground into an enemy-line position is never a disengagement: the engaged
    USA-11 moving into the empty CSA-L makes a plain move; to the reserve it would disengage."""
    table = advanced(CARDS, PLACES, ["CSA-1"])
    table.to_step("movement")
    step = table.do("move", card="USA-11", to="CSA-L")
    assert "moves from USA-R to CSA-L" in step.summary and not table.card("USA-11").disengaged
    assert "DX-8.2" not in step.rules
    again = advanced(CARDS, PLACES, ["CSA-1"])
    again.to_step("movement")
    assert "disengages" in again.do("move", card="USA-11", to="reserve").summary


@pytest.mark.rule("DX-8.3b", "DX-8.2")
def test_cavalry_leaving_an_engaged_position_for_the_enemy_line_may_then_advance():
    """DX-8.3b forbids advancing and disengaging in one turn; an engaged cavalry card moving into the empty
    enemy line has not disengaged, so it may come back into the engaged position as an advance."""
    cards = [unit(1, "CSA", cv=1), unit(11, "USA", "CAV", cv=2)]
    table = advanced(cards, {"CSA-1": "CSA-L", "USA-11": "USA-R"}, ["CSA-1"])
    table.to_step("movement")
    table.do("move", card="USA-11", to="CSA-L")
    step = table.do("move", card="USA-11", to="USA-R")
    assert "advances" in step.summary and table.card("USA-11").loc == "USA-R"


@pytest.mark.rule("DX-8.2")
def test_disengagement_destinations_by_line():
    """DX-8.2: own line -> the reserve only; enemy line -> the own-line position across, unless it holds any
    enemy card (here only a USA special played there, DX-12.0)."""
    cards = [unit(1, "CSA"), unit(2, "CSA"), unit(11, "USA"),
             {"number": 12, "side": "USA", "type": "SPC", "name": "S12", "timing": "own", "lasting": True}]
    table = Table(cards)
    table.deploy({"CSA-1": "CSA-L", "CSA-2": "CSA-C", "USA-11": "USA-R"})
    table.to_step("movement")
    table.do("move", card="CSA-1", to="USA-R")
    state = table.state
    assert movement.disengagements(state, state.card("CSA-1")) == ("CSA-L",)
    assert movement.disengagements(state, state.card("USA-11")) == ("reserve",)
    table.next_turn()
    table.to_step("movement")
    table.do("play_special", card="USA-12", position="CSA-L")
    assert movement.disengagements(table.state, table.card("CSA-1")) == ()
