"""HD-5.9 foreign intervention: the live checker, the trigger and its effects; HD-4.9 the return of FI units;
options A15, A19 (see the supply tests), A21."""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F

import pytest

from companion.dice import ScriptedDice
from companion.engine import RuleError
from companion.odds import fractions, happened_by, p_at_least
from engines.house_divided import ENGINE
from engines.house_divided.gamemap import map_from_data
from engines.house_divided.intervention import ReturnInput, fi_conditions, fi_return_odds, fi_status
from engines.house_divided.state import RECRUITMENT
from tests.engines.house_divided.support import Table, barred, designated_map, designated_setup, offered, unit

TV10 = {"washington": "CSA", "PHL": "CSA", "ATL": "USA"}  # X = PHL (Union, RP 2), Y = ATL (CSA, RP 2)


@pytest.mark.rule("HD-5.9", "HD-A15")
def test_vector_10_conditions():
    """TV-10: MM 30/28; the CSA holds Washington and a Union RP>=2 city; the USA holds a CSA RP>=2 city: met
    under A15 (a), not under (b)."""
    game_map = map_from_data(designated_map())
    control = {**designated_setup()["control"], **TV10}
    shared = fi_conditions(game_map, control, 30, 28, "shared")
    assert [c.met for c in shared] == [True, True, True]
    extra = fi_conditions(game_map, control, 30, 28, "extra")
    assert [c.met for c in extra] == [True, True, False] and "this game's option" in extra[2].reason


@pytest.mark.rule("HD-5.9")
def test_each_failing_condition_says_why():
    game_map = map_from_data(designated_map())
    control = designated_setup()["control"]
    first, second, third = fi_conditions(game_map, control, 34, 29)
    assert not first.met and "5 > 3" in first.reason
    assert not second.met and "does not control Washington" in second.reason and "no Union city" in second.reason
    assert third.met and "holds no CSA" in third.reason
    control = {**control, "washington": "CSA", "PHL": "CSA", "ATL": "USA", "CHS": "USA"}
    third = fi_conditions(game_map, control, 30, 30)[2]
    assert not third.met and "2 CSA 2+ RP cities" in third.reason and "not enough" in third.reason


def battle_table(**options):
    """TV-10's map and MM, a CSA crack unit beside a Union militia at Louisville."""
    data = designated_setup(TV10)
    data["units"] += [unit("U2", "USA", "louisville"), unit("C2", "CSA", "louisville", "crack")]
    table = Table(data, supply=False, desertion=False, **options)
    table.to_battles()
    table.pass_turn()
    return table


def win_at_louisville(table):
    """The CSA battle at Louisville (fire entered at the table): U2 flipped, routs: a CSA win."""
    table.do("start_battle", box="louisville")
    table.do("battle_command", 1, 1)
    table.do("record_fire", side="CSA", units=["C2"], hits=1)
    table.do("record_fire", side="USA", units=["U2"], hits=0)
    table.do("take_hits", side="USA", units=["U2"])
    return table.do("morale_checks", 6)


@pytest.mark.rule("HD-5.9", "HD-A21")
def test_a_csa_battle_win_triggers_intervention():
    """HD-5.9: conditions met at the start of the CSA turn, then a CSA battle win that turn: 4 FI units appear
    in Europe, outside the CSA MM; it is permanent. Without the win (TV-10), nothing."""
    table = battle_table()
    assert fi_status(table.state).snapshot is None
    step = table.do("end_start")
    assert table.state.fi_snapshot is True and "HD-5.9" in step.rules
    status = fi_status(table.state)
    assert status.met_now and not status.triggered and "battle win" in status.trigger
    table.do("roll_marches", 1)
    table.do("end_movement")
    assert not table.state.fi_triggered
    step = win_at_louisville(table)
    assert "HD-5.9" in step.rules and table.state.fi_triggered
    fi = [u for u in table.state.units if u.foreign]
    assert [(u.box, u.arm, u.grade) for u in fi] == [("europe", "inf", "veteran"), ("europe", "inf", "veteran"),
                                                     ("europe", "inf", "crack"), ("europe", "cav", "crack")]
    assert (table.state.mm_usa, table.state.mm_csa) == (30, 28)
    table.do("end_battles")
    table.refuse("HD-5.9", "promote", unit="FI 1")


@pytest.mark.rule("HD-5.9")
def test_no_intervention_when_the_snapshot_failed():
    """HD-5.9: the conditions are those at the start of the CSA turn: met only later, a win does nothing."""
    data = designated_setup({"PHL": "CSA", "ATL": "USA"})
    data["units"] += [unit("U2", "USA", "louisville"), unit("C2", "CSA", "louisville", "crack")]
    table = Table(data, supply=False, desertion=False)
    table.to_battles()
    table.pass_turn()
    table.do("end_start")
    assert table.state.fi_snapshot is False
    table.do("set_control", box="washington", side="CSA")
    table.do("washington_loss", 1)  # MM 30 -> 28: condition 1 still holds
    table.do("roll_marches", 1)
    table.do("end_movement")
    win_at_louisville(table)
    assert not table.state.fi_triggered and fi_status(table.state).met_now


@pytest.mark.rule("HD-A21", "HD-5.9")
def test_option_a21_triggers_at_the_turn_start():
    """A21 (b): no battle win needed: the conditions met at the CSA turn start trigger it."""
    table = battle_table(fi_trigger="turn_start")
    table.do("end_start")
    assert table.state.fi_triggered


@pytest.mark.rule("HD-5.9")
def test_fi_units_sail_from_europe_by_csa_sea_movement():
    """HD-5.9: FI units reach America only by CSA sea movement, to a port (CHS, BAL, NY), never overland (ATL);
    nobody marches to Europe, FI units included."""
    table = battle_table(fi_trigger="turn_start")
    table.do("end_start")
    table.do("roll_marches", 6)
    assert offered(table.state, "march", "to", units=["FI 1"]) == ["BAL", "NY", "CHS"]
    assert barred(table.state, "march", "to", units=["FI 1"])["ATL"] == "HD-5.9"
    table.refuse("HD-5.9", "march", units=["C1"], to="europe")
    table.refuse("HD-5.9", "march", units=["FI 1"], to="ATL")
    table.do("march", units=["FI 1", "FI 2"], to="CHS")
    assert table.unit("FI 1").box == "CHS"
    table.refuse("HD-5.9", "march", units=["FI 1"], to="europe")
    assert "europe" not in offered(table.state, "march", "to", units=["FI 1"])


@pytest.mark.rule("HD-4.9")
def test_vector_11_return_odds():
    """TV-11: two FI units eliminated: P(at least one returns) = 5/9, P(both) = 1/9; within k segments the
    chance for one is geometric with p = 1/3."""
    odds = fi_return_odds(ReturnInput(2))
    assert p_at_least(odds, 1) == F(5, 9) and fractions(odds)[2] == F(1, 9)
    assert happened_by(fractions(fi_return_odds(ReturnInput(1)))[1], 3) == 1 - F(2, 3) ** 3


@pytest.mark.rule("HD-4.9")
def test_eliminated_fi_units_roll_in_the_csa_recruitment_segment():
    """HD-4.9: one die each, 5-6 back in Europe; once a segment; the turn cannot end before."""
    table = battle_table(fi_trigger="turn_start")
    table.do("end_start")
    state = table.state
    gone = {n: replace(state.unit(n), status="eliminated") for n in ("FI 1", "FI 2")}
    state = replace(state.with_units(gone), segment=RECRUITMENT, marches_left=0)
    with pytest.raises(RuleError, match="return rolls"):
        ENGINE.apply(state, {"type": "end_player_turn"}, ScriptedDice(()))
    step = ENGINE.apply(state, {"type": "fi_return_rolls"}, ScriptedDice([5, 4]))
    after = step.state
    assert (after.unit("FI 1").status, after.unit("FI 1").box, after.unit("FI 2").status) == \
        ("on_map", "europe", "eliminated")
    with pytest.raises(RuleError, match="once in each CSA recruitment"):
        ENGINE.apply(after, {"type": "fi_return_rolls"}, ScriptedDice([6]))
